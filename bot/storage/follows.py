"""Follows (migration 0011): the members who follow a game they watch, one row per (game, member).

A follower is told by DM when the game ends and, with ``every_move``, once per turn. Each DM goes out
once whichever process publishes: a turn's DM is claimed by raising the follower's ``seen_version``
(:meth:`FollowsStore.claim_turn_follows`), the end DM by deleting the game's rows
(:meth:`FollowsStore.take_follows`); both in one statement, so two processes cannot both win.

A *turn* begins when a seat is to act that was not at the version looked at before: the steps of one
player's turn (Enemy in Sight has several) make one turn, and so does a round of secret choices. The
seats to act are kept as a *turn key* (:func:`turn_key`: ``",0,1,"``)."""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass

from bot.storage.core import Conn, StorageCore
from bot.storage.errors import WrongStatus
from bot.storage.rows import Row

_COLUMNS = "game_id, user_id, every_move, dm_ok, dm_channel_id, seen_version"


def turn_key(to_act: Iterable[int]) -> str:
    """The seats to act as stored (``seen_turn``): ",0,1,"; "," for none."""
    return "," + "".join(f"{int(seat)}," for seat in sorted(set(to_act)))


@dataclass(frozen=True)
class FollowRow:
    game_id: int
    user_id: int
    every_move: bool  # a DM every turn, not only at the end
    dm_ok: bool  # False once Discord refused a DM to them (none is tried again for this game)
    dm_channel_id: int | None  # their DM channel, once known
    seen_version: int  # the game version their last per-turn DM showed

    @classmethod
    def _from(cls, r: Row) -> FollowRow:
        return cls(
            game_id=r["game_id"],
            user_id=r["user_id"],
            every_move=bool(r["every_move"]),
            dm_ok=bool(r["dm_ok"]),
            dm_channel_id=r["dm_channel_id"],
            seen_version=r["seen_version"],
        )


class FollowsStore(StorageCore):
    """Who follows which game, and the claims that make each follow DM go out once."""

    async def follow(
        self,
        game_id: int,
        user_id: int,
        *,
        dm_channel_id: int | None,
        turn: str = ",",
        every_move: bool | None = None,
    ) -> FollowRow:
        """Make ``user_id`` follow the game (a running one; else WrongStatus). Following again
        keeps the choice of ``every_move`` unless one is given, and trusts their DMs again (they were
        just reached). A new follower's turn DMs start with the turn after ``turn`` (the turn key now)."""

        async def body(db: Conn) -> FollowRow:
            row = await self._status(db, game_id)  # PostgreSQL: locks the game's row
            if row["status"] != "running":
                raise WrongStatus(game_id, row["status"], "follow")
            every = None if every_move is None else int(every_move)
            await db.execute(
                "INSERT INTO follows (game_id, user_id, every_move, dm_ok, dm_channel_id, seen_version, "
                "seen_turn, created_at) VALUES (?, ?, ?, 1, ?, ?, ?, ?) ON CONFLICT (game_id, user_id) DO "
                "UPDATE SET dm_ok = 1, every_move = coalesce(?, follows.every_move), "
                "dm_channel_id = coalesce(excluded.dm_channel_id, follows.dm_channel_id)",
                (game_id, user_id, every or 0, dm_channel_id, row["version"], turn, time.time(), every),
            )
            found = await self._one(
                db, f"SELECT {_COLUMNS} FROM follows WHERE game_id = ? AND user_id = ?", (game_id, user_id)
            )
            assert found is not None  # just written
            return FollowRow._from(found)

        return await self._write(body, games=(game_id,))

    async def follow_of(self, game_id: int, user_id: int) -> FollowRow | None:
        row = await self._fetchone(
            f"SELECT {_COLUMNS} FROM follows WHERE game_id = ? AND user_id = ?", (game_id, user_id)
        )
        return None if row is None else FollowRow._from(row)

    async def followers(self, game_id: int) -> list[FollowRow]:
        rows = await self._fetchall(
            f"SELECT {_COLUMNS} FROM follows WHERE game_id = ? ORDER BY user_id", (game_id,)
        )
        return [FollowRow._from(r) for r in rows]

    async def count_followers(self, game_id: int) -> int:
        row = await self._fetchone("SELECT count(*) FROM follows WHERE game_id = ?", (game_id,))
        return 0 if row is None else int(row[0])

    async def set_every_move(
        self, game_id: int, user_id: int, every_move: bool, turn: str = ","
    ) -> FollowRow | None:
        """Change a follower's choice; None when they do not follow the game (any more). Turned on, their
        turn DMs start with the turn after ``turn`` (the turn key now) at the current version."""

        async def body(db: Conn) -> FollowRow | None:
            rows = await db.execute_fetchall(
                "UPDATE follows SET every_move = ?, seen_version = CASE WHEN ? = 1 THEN "
                "(SELECT version FROM games WHERE id = ?) ELSE seen_version END, "
                "seen_turn = CASE WHEN ? = 1 THEN ? ELSE seen_turn END "
                f"WHERE game_id = ? AND user_id = ? RETURNING {_COLUMNS}",
                (int(every_move), int(every_move), game_id, int(every_move), turn, game_id, user_id),
            )
            return FollowRow._from(rows[0]) if rows else None

        return await self._write(body, games=())

    async def unfollow(self, game_id: int, user_id: int) -> bool:
        """Stop following; False when they did not follow the game (any more)."""

        async def body(db: Conn) -> bool:
            cur = await db.execute(
                "DELETE FROM follows WHERE game_id = ? AND user_id = ?", (game_id, user_id)
            )
            return cur.rowcount == 1

        return await self._write(body, games=())

    async def follow_refused(self, game_id: int, user_id: int) -> None:
        """Discord refused a DM to this follower: no DM of this game is tried again (until they follow
        again)."""

        async def body(db: Conn) -> None:
            await db.execute(
                "UPDATE follows SET dm_ok = 0 WHERE game_id = ? AND user_id = ?", (game_id, user_id)
            )

        await self._write(body, games=())

    async def claim_turn_follows(self, game_id: int, version: int, turn: str) -> list[FollowRow]:
        """The followers of every move whose turn DM is this caller's to send, as the game stands at
        ``version`` with ``turn`` (its turn key) to act: those for whom a turn began since the version
        they were last looked at. Every follower of every move is looked at (``seen_version`` raised to
        ``version``, ``seen_turn`` set to ``turn``) in the same statement: each version once, whichever
        process publishes it, and never an older one after a newer one."""
        seats = [seat for seat in turn.split(",") if seat]
        # a turn began when one of the seats to act was not to act before (SET reads the row as it was)
        began = " OR ".join(["seen_turn NOT LIKE ?"] * len(seats)) or "1 = 0"

        async def body(db: Conn) -> list[FollowRow]:
            rows = await db.execute_fetchall(
                f"UPDATE follows SET seen_version = ?, seen_turn = ?, turn_began = CASE WHEN {began} "
                "THEN 1 ELSE 0 END WHERE game_id = ? AND every_move = 1 AND dm_ok = 1 AND seen_version < ? "
                f"RETURNING {_COLUMNS}, turn_began",
                (version, turn, *(f"%,{seat},%" for seat in seats), game_id, version),
            )
            return sorted((FollowRow._from(r) for r in rows if r["turn_began"]), key=lambda f: f.user_id)

        return await self._write(body, games=())

    async def take_follows(self, game_id: int) -> list[FollowRow]:
        """The game ended: its follows are dropped, and the rows are this caller's to tell (one end DM
        each, whichever process gets here first; the others get none)."""

        async def body(db: Conn) -> list[FollowRow]:
            rows = await db.execute_fetchall(
                f"DELETE FROM follows WHERE game_id = ? RETURNING {_COLUMNS}", (game_id,)
            )
            return sorted((FollowRow._from(r) for r in rows), key=lambda f: f.user_id)

        return await self._write(body, games=())
