"""My games: every lobby and running game a member holds a seat in, across every server, in one query;
and the servers where a player has ratings."""

from __future__ import annotations

from dataclasses import dataclass

from bot.storage.core import StorageCore
from bot.storage.games import GamesStore
from bot.storage.rows import Row, SeatRow, stored_timer

# The message a game's link points at: its table (a running game), its lobby, or the board of a game
# started before the table message; the first kind the game has, in this order.
LINK_KINDS = ("table", "lobby", "board")


@dataclass(frozen=True)
class SeatedGame:
    """A lobby or running game that a member plays in, as /games lists it."""

    id: int
    guild_id: int | None
    channel_id: int
    thread_id: int | None
    game_key: str
    status: str  # "lobby" or "running"
    version: int
    deadline: float | None
    seats: list[SeatRow]
    # the running game's snapshot (None in the lobby): whose turn it is is read from it
    state_json: str | None
    # where its table (or lobby) message is: (channel id, message id), or None when it has none
    message: tuple[int, int] | None

    @property
    def place(self) -> int:
        return self.thread_id if self.thread_id is not None else self.channel_id


class MyGamesStore(StorageCore):
    """The games a member sits in, read for /games."""

    def _link_sql(self, column: str) -> str:
        order = " ".join(f"WHEN '{kind}' THEN {n}" for n, kind in enumerate(LINK_KINDS))
        marks = ", ".join(f"'{kind}'" for kind in LINK_KINDS)
        return (
            f"(SELECT m.{column} FROM messages m WHERE m.game_id = games.id AND m.kind IN ({marks}) "
            f"ORDER BY CASE m.kind {order} END LIMIT 1)"
        )

    async def seated_games(self, user_id: int) -> list[SeatedGame]:
        """Every lobby and running game, of every server, where ``user_id`` holds a seat (not one an AI
        took over), oldest first: each with its seats, its snapshot (running games), its deadline and
        where its table (or lobby) message is. ONE query (``seats_user`` finds the seats; games by key)."""
        rows = await self._fetchall(
            f"SELECT games.id, games.guild_id, games.channel_id, games.thread_id, games.game_key, "
            f"games.status, games.version, games.deadline, games.updated_at, games.turn_timeout, "
            f"CASE WHEN games.status = 'running' THEN games.state END AS state, "
            f"{self._SEATS_JSON} AS seats_json, "
            f"{self._link_sql('channel_id')} AS link_channel, {self._link_sql('message_id')} AS link_message "
            "FROM games WHERE games.status IN ('lobby', 'running') AND games.id IN "
            "(SELECT game_id FROM seats WHERE seats.user_id = ? AND seats.is_ai = 0) ORDER BY games.id",
            (user_id,),
        )
        return [_seated(row) for row in rows]

    async def rated_guilds(self, player: str) -> list[int]:
        """The servers where ``player`` (a user id in decimal) has a rating, by id (/stats in a DM; the
        index of migration 0008)."""
        rows = await self._fetchall(
            "SELECT DISTINCT guild_id FROM ratings WHERE player = ? ORDER BY guild_id", (player,)
        )
        return [int(r[0]) for r in rows]


def _seated(row: Row) -> SeatedGame:
    _, deadline = stored_timer(row["turn_timeout"], row["deadline"], row["updated_at"])
    seats = GamesStore._seat_rows(row["id"], row["seats_json"])
    message = None
    if row["link_channel"] is not None and row["link_message"] is not None:
        message = (int(row["link_channel"]), int(row["link_message"]))
    return SeatedGame(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        thread_id=row["thread_id"],
        game_key=row["game_key"],
        status=row["status"],
        version=row["version"],
        deadline=deadline if row["status"] == "running" else None,
        seats=seats,
        state_json=row["state"],
        message=message,
    )
