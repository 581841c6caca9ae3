"""Games: a game's row from the lobby to its end (status, timer, thread) and the reads that show a table."""

from __future__ import annotations

import json
import time
from collections.abc import Iterable
from typing import Any

from bot.games.base import canonical
from bot.log_text import loaded as log_line
from bot.storage.core import Conn
from bot.storage.errors import ChannelBusy, NoSuchGame, WrongStatus
from bot.storage.jobs import JobsStore
from bot.storage.rows import ACTIVE, STATUSES, SUSPENDED, TERMINAL, GameRow, SeatRow

# status changes allowed through set_status (lobby → running goes through start_game)
_TRANSITIONS = {
    ("lobby", "abandoned"),
    ("running", "finished"),
    ("running", "abandoned"),
    ("running", SUSPENDED),
    (SUSPENDED, "abandoned"),
}


class GamesStore(JobsStore):
    """A game's row: created in the lobby, started, timed, moved into a thread, ended; and the reads
    that show a table. (Its changes re-arm the game's jobs: hence JobsStore.)"""

    async def create_game(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        game_key: str,
        options: dict,
        seed: int,
        host_id: int | None,
        thread_id: int | None = None,
        turn_timeout: float | None = None,
        clock: str | None = None,
    ) -> int:
        """A new game in the lobby. Raises ChannelBusy if its place already has an active game.
        ``clock``: its clock's settings (bot/clocks.py JSON, no seat yet), when it has a timer."""
        place = thread_id if thread_id is not None else channel_id
        options_text = canonical(options or {})

        async def body(db: Conn) -> int:
            existing = await self._active_in(db, place)
            if existing is not None:
                raise ChannelBusy(place, existing)
            now = time.time()
            rows = await db.execute_fetchall(
                "INSERT INTO games (guild_id, channel_id, thread_id, game_key, options, seed, host_id, "
                "status, version, turn_timeout, created_at, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, 'lobby', 0, ?, ?, ?) RETURNING id",
                (
                    guild_id,
                    channel_id,
                    thread_id,
                    game_key,
                    options_text,
                    int(seed),
                    host_id,
                    turn_timeout,
                    now,
                    now,
                ),
            )
            if clock is not None:
                await db.execute("UPDATE games SET clock = ? WHERE id = ?", (clock, rows[0][0]))
            return rows[0][0]

        return await self._write(body, games=())

    async def get_game(self, game_id: int) -> GameRow | None:
        row = await self._fetchone("SELECT * FROM games WHERE id = ?", (game_id,))
        return None if row is None else GameRow._from(row)

    async def load_table(self, game_id: int, *, moves: bool = False) -> tuple[GameRow, list[SeatRow]] | None:
        """The game and its seats (in seat order) in ONE query; None if there is no such game. ``moves``:
        with its move number (``GameRow.moves``), counted in the same query."""
        counted = f", {self._moves_sql()} AS moves" if moves else ""
        row = await self._fetchone(
            f"SELECT games.*, {self._SEATS_JSON} AS seats_json{counted} FROM games WHERE id = ?", (game_id,)
        )
        if row is None:
            return None
        return GameRow._from(row), self._seat_rows(game_id, row["seats_json"])

    @staticmethod
    def _seat_rows(game_id: int, seats_json: str | None) -> list[SeatRow]:
        return sorted(
            (
                SeatRow(
                    game_id=game_id,
                    seat=seat,
                    user_id=user_id,
                    is_ai=bool(is_ai),
                    name=name,
                    dm_ok=None if dm_ok is None else bool(dm_ok),
                    missed=missed,
                )
                for seat, user_id, is_ai, name, dm_ok, missed in json.loads(seats_json or "[]")
            ),
            key=lambda s: s.seat,
        )

    # the last ``?`` public lines of a game's log as one JSON array of [id, text] (load_table_log); the
    # PostgreSQL dialect sits here too (json_agg for json_group_array)
    _LOG_JSON = (
        "(SELECT json_group_array(json_array(id, text)) FROM (SELECT id, text FROM log "
        "WHERE log.game_id = games.id AND log.seat IS NULL ORDER BY log.id DESC LIMIT ?))"
    )
    _PG_LOG_JSON = (
        "(SELECT coalesce(json_agg(json_build_array(l.id, l.text)), '[]'::json) FROM (SELECT id, text "
        "FROM log WHERE log.game_id = games.id AND log.seat IS NULL ORDER BY log.id DESC LIMIT ?) l)"
    )

    # a finished game's rating events as one JSON array of [seat, player, mu_before, sigma_before,
    # mu_after, sigma_after] (GameRow.rated; NULL while the game is not finished)
    _RATED_JSON = (
        "CASE WHEN games.status = 'finished' THEN (SELECT json_group_array(json_array(e.seat, e.player, "
        "e.mu_before, e.sigma_before, e.mu_after, e.sigma_after)) FROM rating_events e "
        "WHERE e.game_id = games.id) END"
    )
    _PG_RATED_JSON = (
        "CASE WHEN games.status = 'finished' THEN (SELECT coalesce(json_agg(json_build_array(e.seat, "
        "e.player, e.mu_before, e.sigma_before, e.mu_after, e.sigma_after)), '[]'::json) "
        "FROM rating_events e WHERE e.game_id = games.id) END"
    )

    # a game's stored messages as one JSON array of [kind, channel_id, message_id] (load_table_view)
    _MESSAGES_JSON = (
        "(SELECT json_group_array(json_array(kind, channel_id, message_id)) FROM messages "
        "WHERE messages.game_id = games.id)"
    )
    _PG_MESSAGES_JSON = (
        "(SELECT coalesce(json_agg(json_build_array(m.kind, m.channel_id, m.message_id)), "
        "'[]'::json) FROM messages m WHERE m.game_id = games.id)"
    )

    # how many follow the game, and how many every move (bot/storage/follows.py): what its table shows
    # and whether a publish has follow DMs to send, read with it
    _FOLLOWERS = (
        "(SELECT count(*) FROM follows WHERE follows.game_id = games.id) AS followers, "
        "(SELECT count(*) FROM follows WHERE follows.game_id = games.id AND follows.every_move = 1) "
        "AS move_followers"
    )

    async def load_table_log(
        self, game_id: int, lines: int
    ) -> tuple[GameRow, list[SeatRow], list[str]] | None:
        """:meth:`load_table` and the last ``lines`` public lines of the game's log (oldest first, as
        :meth:`recent_log` gives them), in ONE query: what the table shows. None if there is no such game."""
        loaded = await self._load_view(game_id, lines, messages=False)
        return None if loaded is None else loaded[:3]

    async def load_table_view(
        self, game_id: int, lines: int
    ) -> tuple[GameRow, list[SeatRow], list[str], dict[str, tuple[int, int]]] | None:
        """:meth:`load_table_log` and the game's stored messages (as :meth:`messages` gives them), and its
        followers' counts (``GameRow.followers``), in ONE query: what a publish needs to show the game.
        None if there is no such game."""
        return await self._load_view(game_id, lines, messages=True)

    async def _load_view(self, game_id: int, lines: int, *, messages: bool) -> tuple[Any, ...] | None:
        pg = self.backend == "postgres"
        log_json = self._PG_LOG_JSON if pg else self._LOG_JSON
        extra = (
            f", {self._PG_MESSAGES_JSON if pg else self._MESSAGES_JSON} AS messages_json, {self._FOLLOWERS}"
            if messages
            else ""
        )
        rated = self._PG_RATED_JSON if pg else self._RATED_JSON
        row = await self._fetchone(
            f"SELECT games.*, {self._SEATS_JSON} AS seats_json, {log_json} AS log_json, "
            f"{self._moves_sql()} AS moves, {rated} AS rated_json{extra} FROM games WHERE id = ?",
            (max(0, int(lines)), game_id),
        )
        if row is None:
            return None
        log = [log_line(text) for _, text in sorted(json.loads(row["log_json"] or "[]"))]
        loaded = (GameRow._from(row), self._seat_rows(game_id, row["seats_json"]), log)
        if not messages:
            return loaded
        stored = {
            kind: (channel_id, message_id)
            for kind, channel_id, message_id in json.loads(row["messages_json"] or "[]")
        }
        return (*loaded, dict(sorted(stored.items())))

    async def active_game(self, channel_id: int) -> GameRow | None:
        """The lobby-or-running game whose place (thread, else channel) is ``channel_id``."""
        row = await self._fetchone(
            "SELECT * FROM games WHERE coalesce(thread_id, channel_id) = ? AND status IN ('lobby', 'running')",
            (channel_id,),
        )
        return None if row is None else GameRow._from(row)

    async def list_games(self, guild_id: int | None, statuses: Iterable[str] = ACTIVE) -> list[GameRow]:
        statuses = tuple(statuses)
        if not statuses:
            return []
        marks = ", ".join("?" * len(statuses))
        rows = await self._fetchall(
            f"SELECT * FROM games WHERE guild_id {self._IS} ? AND status IN ({marks}) ORDER BY id",
            (guild_id, *statuses),
        )
        return [GameRow._from(r) for r in rows]

    async def running_games(self) -> list[GameRow]:
        """Every running game (of every server), for resuming at start."""
        rows = await self._fetchall("SELECT * FROM games WHERE status = 'running' ORDER BY id")
        return [GameRow._from(r) for r in rows]

    async def set_thread(self, game_id: int, thread_id: int | None) -> None:
        """Move an active game into a thread (or back to its channel with None)."""

        async def body(db: Conn) -> None:
            await self._status(db, game_id)
            row = await self._one(db, "SELECT channel_id FROM games WHERE id = ?", (game_id,))
            assert row is not None  # _status raised if the game does not exist
            place = thread_id if thread_id is not None else row["channel_id"]
            existing = await self._active_in(db, place)
            if existing is not None and existing != game_id:
                raise ChannelBusy(place, existing)
            await db.execute(
                "UPDATE games SET thread_id = ?, updated_at = ? WHERE id = ?",
                (thread_id, time.time(), game_id),
            )

        await self._write(body, games=(game_id,))

    async def start_game(
        self,
        game_id: int,
        state_json: str,
        deadline: float | None = None,
        seed: int | None = None,
        ai_due: float | None = None,
        clock: str | None = None,
    ) -> None:
        """lobby → running at version 0 with the initial snapshot (and the seed it was made with); its
        jobs armed in the same transaction (its timer; ``ai_due``: when an AI seat is to move). ``clock``:
        the game's clock as it starts (bot/clocks.py JSON), when it has one."""

        async def body(db: Conn) -> None:
            row = await self._status(db, game_id)
            if row["status"] != "lobby":
                raise WrongStatus(game_id, row["status"], "start it")
            now = time.time()
            await db.execute(
                "UPDATE games SET status = 'running', version = 0, state = ?, seed = coalesce(?, seed), "
                "deadline = ?, reminded = 0, updated_at = ? WHERE id = ?",
                (state_json, seed, deadline, now, game_id),
            )
            await self._stamp(db, game_id, "started_at", now)
            if clock is not None:
                await db.execute("UPDATE games SET clock = ? WHERE id = ?", (clock, game_id))
            await self._drive(db, self._arm_steps(game_id, ai_due=ai_due))

        await self._write(body, games=(game_id,))
        self._jobs_changed()

    async def set_deadline(
        self, game_id: int, deadline: float | None, reminded: bool = False, clock: str | None = None
    ) -> None:
        """Set the game's deadline (and re-arm its timer jobs); ``clock``: with its clock as it now stands."""

        async def body(db: Conn) -> None:
            cur = await db.execute(
                "UPDATE games SET deadline = ?, reminded = ?, updated_at = ? WHERE id = ?",
                (deadline, int(bool(reminded)), time.time(), game_id),
            )
            if cur.rowcount == 0:
                raise NoSuchGame(game_id)
            if clock is not None:
                await db.execute("UPDATE games SET clock = ? WHERE id = ?", (clock, game_id))
            await self._drive(db, self._arm_steps(game_id, keep_ai=True))

        await self._write(body, games=(game_id,))
        self._jobs_changed()

    async def mark_reminded(self, game_id: int, deadline: float | None = None) -> bool:
        """Note that the half-time reminder was sent. With ``deadline``, only if the game still
        has that deadline (a move may have set a new one meanwhile). True if it was marked."""

        async def body(db: Conn) -> bool:
            if deadline is None:
                cur = await db.execute("UPDATE games SET reminded = 1 WHERE id = ?", (game_id,))
            else:
                cur = await db.execute(
                    "UPDATE games SET reminded = 1 WHERE id = ? AND deadline = ?", (game_id, deadline)
                )
            if cur.rowcount == 0:
                await self._status(db, game_id)  # NoSuchGame if it does not exist
                return False
            await self._drive(db, self._drop_jobs_steps(game_id, kind="reminder"))
            return True

        return await self._write(body, games=(game_id,))

    async def set_status(self, game_id: int, status: str, result: dict | None = None) -> None:
        """lobby → abandoned, running → finished / abandoned / suspended, suspended → abandoned (or the
        same status, to set the result). A finished, abandoned or suspended game has no deadline.
        ``result`` is kept unless given."""
        if status not in STATUSES:
            raise ValueError(f"unknown status {status!r}")
        result_text = None if result is None else canonical(result)

        async def body(db: Conn) -> None:
            row = await self._status(db, game_id)
            current = row["status"]
            if current != status and (current, status) not in _TRANSITIONS:
                raise WrongStatus(game_id, current, f"make it {status}")
            now = time.time()
            await db.execute(
                "UPDATE games SET status = ?, result = coalesce(?, result), "
                "deadline = CASE WHEN ? IN ('finished', 'abandoned', 'suspended') THEN NULL ELSE deadline END, "
                "updated_at = ? WHERE id = ?",
                (status, result_text, status, now, game_id),
            )
            if status in TERMINAL and current != status:
                await self._stamp(db, game_id, "finished_at", now)
            if status != "running":  # no timer, no AI move any more
                await self._drive(db, self._drop_jobs_steps(game_id))

        await self._write(body, games=(game_id,))

    async def abandon_deserted(self, game_id: int) -> bool:
        """Abandon running game ``game_id`` if no human player is left in it (every seat an AI's): one
        transaction, so a player who takes their seat back in another process meanwhile keeps the game
        (then nothing is done and False is returned). Its jobs are dropped, as by ``set_status``."""

        async def body(db: Conn) -> bool:
            now = time.time()
            cur = await db.execute(
                "UPDATE games SET status = 'abandoned', deadline = NULL, updated_at = ? "
                "WHERE id = ? AND status = 'running' AND NOT EXISTS "
                "(SELECT 1 FROM seats WHERE seats.game_id = games.id AND seats.is_ai = 0)",
                (now, game_id),
            )
            if cur.rowcount != 1:
                return False
            await self._stamp(db, game_id, "finished_at", now)
            await self._drive(db, self._drop_jobs_steps(game_id))
            return True

        return await self._write(body, games=(game_id,))
