"""A player's record in a server for /stats, in ONE query: their ratings, and their pace and
reliability read from the games they sat in (seats, the action log, the table's log).

- pace: the median time a turn of theirs took, over their last ``PACE_GAMES`` games. A turn is a run
  of their engine moves with no other row between them; it starts at the row before it (another
  seat's move, an undo, a resignation) or, for a game's first move, when the game started. Moves an
  AI made for them after they resigned, or after it took their seat for missed turns, do not count
  (nor do theirs should they take it back); moves made for them when their time ran out do (with the
  time they let run).
- reliability: games of theirs that finished, turns of theirs that ran out (the host's missed-turn
  notes on the table's log, each at the version of the move made for them), and their resignations.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.storage.core import StorageCore
from bot.storage.loglines import TAKEN_OVER, TIMED_OUT, kind_prefix
from bot.storage.rows import RatingRow

PACE_GAMES = 50

# The host's notes when a turn ran out (bot/scheduler.py), found by their kind (bot/storage/loglines.py):
# a move made for the player, and an AI taking the seat after too many missed turns.
TAKEN_OVER_NOTES = (kind_prefix(TAKEN_OVER) + "%",)
TIMED_OUT_NOTES = (kind_prefix(TIMED_OUT) + "%", *TAKEN_OVER_NOTES)
# and as rows stored before the notes were data held them, in English: "<name> ran out of time; a
# move was made for them (1/3 missed turns)." and "<name> missed 3 turns in a row; an AI takes over
# their seat." (longer than a name can be, so a name alone never matches)
OLD_TAKEN_OVER_NOTE = "% turns in a row; an AI takes over their seat."
OLD_TIMED_OUT_NOTES = ("%ran out of time; a move was made for them (%", OLD_TAKEN_OVER_NOTE)
TAKEN_OVER_ANY = (*TAKEN_OVER_NOTES, OLD_TAKEN_OVER_NOTE)
TIMED_OUT_ANY = (*TIMED_OUT_NOTES, *OLD_TIMED_OUT_NOTES)


@dataclass(frozen=True)
class PlayerRecord:
    ratings: list[RatingRow]  # by game key
    finished: int  # games of theirs that finished (not abandoned, not running)
    timed_out: int  # turns of theirs that ran out
    resigned: int
    turns: int  # the turns the median is of
    median_turn: float | None  # seconds; None: no turn yet
    guild_locale: str | None = None  # the language the server chose (/admiralty language), read with it


class StatsStore(StorageCore):
    """/stats' read: :meth:`player_record`."""

    def _record_sql(self) -> str:
        host = self._JSON_HOST.replace("action", "a.action")
        notes = " OR ".join("l.text LIKE ?" for _ in TIMED_OUT_ANY)
        taken = " OR ".join("l.text LIKE ?" for _ in TAKEN_OVER_ANY)
        return f"""
WITH mine AS (
    SELECT s.game_id, s.seat, g.status, coalesce(g.started_at, g.created_at) AS started
    FROM seats s CROSS JOIN games g  -- (SQLite: in this order, from the seats_user index)
    WHERE g.id = s.game_id AND s.user_id = ? AND g.guild_id = ? AND g.game_key = coalesce(?, g.game_key) AND g.status <> 'lobby'
),
recent AS (SELECT * FROM mine ORDER BY game_id DESC LIMIT ?),
steps AS (
    SELECT a.game_id, a.seq, a.seat, a.created_at, {host} AS host,
           lag(a.created_at) OVER w AS prev_at, lag(a.seat) OVER w AS prev_seat, lag({host}) OVER w AS prev_host
    FROM actions a WHERE a.game_id IN (SELECT game_id FROM recent)
    WINDOW w AS (PARTITION BY a.game_id ORDER BY a.seq)
),
runs AS (
    SELECT st.*, sum(CASE WHEN st.host IS NULL AND st.prev_host IS NULL AND st.prev_seat = st.seat
                     THEN 0 ELSE 1 END) OVER (PARTITION BY st.game_id ORDER BY st.seq) AS run
    FROM steps st
),
ends AS (  -- where the turns of a seat stop counting: its resignation, or the note that an AI took it over
    SELECT x.game_id, x.seat, min(x.seq) AS at FROM (
        SELECT q.game_id, q.seat, q.seq FROM steps q WHERE q.host = 'resign'
        UNION ALL
        SELECT a.game_id, a.seat, l.version FROM log l JOIN actions a ON a.game_id = l.game_id AND a.seq = l.version
        WHERE l.game_id IN (SELECT game_id FROM recent) AND l.seat IS NULL AND ({taken})
    ) x GROUP BY x.game_id, x.seat
),
turns AS (
    SELECT max(r.created_at) - min(coalesce(r.prev_at, m.started)) AS took
    FROM runs r JOIN recent m ON m.game_id = r.game_id AND m.seat = r.seat
    LEFT JOIN ends e ON e.game_id = r.game_id AND e.seat = r.seat
    WHERE r.host IS NULL AND (e.at IS NULL OR e.at >= r.seq)
    GROUP BY r.game_id, r.run
),
totals AS (
    SELECT
        (SELECT count(*) FROM mine WHERE status = 'finished') AS finished,
        (SELECT count(*) FROM actions a JOIN mine m ON m.game_id = a.game_id AND m.seat = a.seat
         WHERE {host} = 'resign') AS resigned,
        (SELECT count(*) FROM log l JOIN actions a ON a.game_id = l.game_id AND a.seq = l.version
         JOIN mine m ON m.game_id = a.game_id AND m.seat = a.seat
         WHERE l.seat IS NULL AND ({notes})) AS timed_out,
        (SELECT count(*) FROM turns) AS turns,
        (SELECT avg(took) FROM (SELECT took FROM turns ORDER BY took
            LIMIT 2 - (SELECT count(*) FROM turns) % 2 OFFSET (SELECT (count(*) - 1) / 2 FROM turns)) mid
        ) AS median_turn,
        (SELECT locale FROM guild_locales WHERE guild_id = ?) AS chosen_locale
)
SELECT t.*, r.* FROM totals t
LEFT JOIN ratings r ON r.guild_id = ? AND r.player = ? AND r.game_key = coalesce(?, r.game_key)
ORDER BY r.game_key
"""

    async def player_record(self, guild_id: int, user_id: int, game_key: str | None = None) -> PlayerRecord:
        """A person's ratings (every game of a server, or one) with their pace and reliability there,
        in ONE query (see the module's docstring)."""
        rows = await self._fetchall(
            self._record_sql(),
            (
                user_id,
                guild_id,
                game_key,
                PACE_GAMES,
                *TAKEN_OVER_ANY,
                *TIMED_OUT_ANY,
                guild_id,
                guild_id,
                str(user_id),
                game_key,
            ),
        )
        first = rows[0]  # an aggregate without GROUP BY: one row at least
        median = first["median_turn"]
        return PlayerRecord(
            ratings=[RatingRow._from(r) for r in rows if r["game_key"] is not None],
            finished=int(first["finished"]),
            timed_out=int(first["timed_out"]),
            resigned=int(first["resigned"]),
            turns=int(first["turns"]),
            median_turn=None if median is None else float(median),
            guild_locale=first["chosen_locale"],
        )
