"""The table's log: the lines in words a game's table shows (public, or private to one seat)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.log_text import loaded, stored
from bot.storage.core import Conn, StorageCore


class TableLogStore(StorageCore):
    """The table's log lines, public or for one seat."""

    @staticmethod
    async def _insert_log(
        db: Conn, game_id: int, version: int, lines: Sequence[tuple[int | None, str]]
    ) -> None:
        if lines:
            await db.executemany(
                "INSERT INTO log (game_id, version, seat, text) VALUES (?, ?, ?, ?)",
                [(game_id, version, seat, stored(text)) for seat, text in lines],
            )

    async def add_log(
        self, game_id: int, text: str, seat: int | None = None, version: int | None = None
    ) -> None:
        """A host's note on the table's log (a timer ran out, a seat changed hands), at ``version`` (the
        move it explains; another process may have moved since), by default the current version."""

        async def body(db: Conn) -> None:
            row = await self._status(db, game_id)
            at = row["version"] if version is None else min(version, row["version"])
            await self._insert_log(db, game_id, at, [(seat, text)])

        await self._write(body, games=(game_id,))

    async def recent_log(self, game_id: int, limit: int = 8, seat: int | None = None) -> list[str]:
        """The last ``limit`` public lines of the table's log, oldest first; with ``seat``, that
        seat's private lines instead."""
        where = "seat IS NULL" if seat is None else "seat = ?"
        params: list[Any] = [game_id] + ([] if seat is None else [seat]) + [limit]
        rows = await self._fetchall(
            f"SELECT text FROM log WHERE game_id = ? AND {where} ORDER BY id DESC LIMIT ?", params
        )
        return [loaded(r["text"]) for r in reversed(rows)]
