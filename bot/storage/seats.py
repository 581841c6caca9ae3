"""Seats: who plays which seat of a game (a member or an AI), and how to reach them."""

from __future__ import annotations

from typing import Any

from bot.storage.core import Conn, StorageCore
from bot.storage.errors import NoSuchSeat, WrongStatus
from bot.storage.rows import SeatRow

_SEAT_FIELDS = ("user_id", "is_ai", "name", "dm_ok", "missed", "ai_level")


class SeatsStore(StorageCore):
    """The seats of a game, numbered 0..n-1."""

    async def add_seat(
        self,
        game_id: int,
        *,
        user_id: int | None,
        is_ai: bool,
        name: str,
        dm_ok: bool | None = None,
        ai_level: str | None = None,
    ) -> int:
        """Add a seat to a game in the lobby; returns its number (0, 1, …). ``ai_level``: an AI seat's."""

        async def body(db: Conn) -> int:
            row = await self._status(db, game_id)
            if row["status"] != "lobby":
                raise WrongStatus(game_id, row["status"], "add a seat")
            top = await self._one(
                db, "SELECT coalesce(max(seat) + 1, 0) FROM seats WHERE game_id = ?", (game_id,)
            )
            assert top is not None  # an aggregate without GROUP BY returns one row
            nxt = top[0]
            values = (
                game_id,
                nxt,
                user_id,
                int(bool(is_ai)),
                name,
                None if dm_ok is None else int(bool(dm_ok)),
            )
            if ai_level is None:  # (the column's default: also on a database not yet migrated to 0013)
                await db.execute(
                    "INSERT INTO seats (game_id, seat, user_id, is_ai, name, dm_ok, missed) "
                    "VALUES (?, ?, ?, ?, ?, ?, 0)",
                    values,
                )
            else:
                await db.execute(
                    "INSERT INTO seats (game_id, seat, user_id, is_ai, name, dm_ok, missed, ai_level) "
                    "VALUES (?, ?, ?, ?, ?, ?, 0, ?)",
                    (*values, ai_level),
                )
            return nxt

        return await self._write(body, games=(game_id,))

    async def remove_seat(self, game_id: int, seat: int) -> None:
        """Remove a seat of a game in the lobby; later seats move down so seats stay 0..n-1."""

        async def body(db: Conn) -> None:
            row = await self._status(db, game_id)
            if row["status"] != "lobby":
                raise WrongStatus(game_id, row["status"], "remove a seat")
            cur = await db.execute("DELETE FROM seats WHERE game_id = ? AND seat = ?", (game_id, seat))
            if cur.rowcount == 0:
                raise NoSuchSeat(game_id, seat)
            later = await db.execute_fetchall(
                "SELECT seat FROM seats WHERE game_id = ? AND seat > ? ORDER BY seat", (game_id, seat)
            )
            for r in later:  # ascending, so each target number is free
                await db.execute(
                    "UPDATE seats SET seat = ? WHERE game_id = ? AND seat = ?", (r[0] - 1, game_id, r[0])
                )

        await self._write(body, games=(game_id,))

    async def seats(self, game_id: int) -> list[SeatRow]:
        rows = await self._fetchall("SELECT * FROM seats WHERE game_id = ? ORDER BY seat", (game_id,))
        return [SeatRow._from(r) for r in rows]

    async def update_seat(self, game_id: int, seat: int, **fields: Any) -> None:
        """Change user_id, is_ai, name, dm_ok (None = unknown), missed and/or ai_level of one seat."""
        unknown = set(fields) - set(_SEAT_FIELDS)
        if unknown:
            raise TypeError(f"update_seat: unknown fields {sorted(unknown)}")
        if not fields:
            return
        values = []
        for key, value in fields.items():
            if key == "is_ai" or (key == "dm_ok" and value is not None):
                value = int(bool(value))
            values.append(value)
        assignments = ", ".join(f"{key} = ?" for key in fields)

        async def body(db: Conn) -> None:
            cur = await db.execute(
                f"UPDATE seats SET {assignments} WHERE game_id = ? AND seat = ?", (*values, game_id, seat)
            )
            if cur.rowcount == 0:
                raise NoSuchSeat(game_id, seat)

        await self._write(body, games=(game_id,))
