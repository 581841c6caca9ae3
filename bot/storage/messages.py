"""Messages: the Discord messages a game keeps (its table, its lobby…), by kind."""

from __future__ import annotations

from bot.storage.core import _MANY, Conn, Steps, StorageCore


class MessagesStore(StorageCore):
    """The Discord messages of a game, kind → (channel id, message id)."""

    async def set_message(self, game_id: int, kind: str, channel_id: int, message_id: int) -> None:
        async def body(db: Conn) -> None:
            await db.execute(
                "INSERT INTO messages (game_id, kind, channel_id, message_id) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (game_id, kind) DO UPDATE SET channel_id = excluded.channel_id, "
                "message_id = excluded.message_id",
                (game_id, kind, channel_id, message_id),
            )

        await self._write(body, games=(game_id,))

    async def get_message(self, game_id: int, kind: str) -> tuple[int, int] | None:
        row = await self._fetchone(
            "SELECT channel_id, message_id FROM messages WHERE game_id = ? AND kind = ?", (game_id, kind)
        )
        return None if row is None else (row[0], row[1])

    async def messages(self, game_id: int) -> dict[str, tuple[int, int]]:
        """Every stored message of a game: kind → (channel_id, message_id)."""
        rows = await self._fetchall(
            "SELECT kind, channel_id, message_id FROM messages WHERE game_id = ? ORDER BY kind", (game_id,)
        )
        return {r[0]: (r[1], r[2]) for r in rows}

    async def save_messages(self, game_id: int, changes: dict[str, tuple[int, int] | None]) -> None:
        """Store (kind → (channel_id, message_id)) or forget (kind → None) messages of a game, all in ONE
        transaction: a group commit like :meth:`record_action`'s (on SQLite one round trip, not the
        three of BEGIN, the statement and COMMIT)."""
        stored = [(game_id, kind, pair[0], pair[1]) for kind, pair in changes.items() if pair is not None]
        gone = [(game_id, kind) for kind, pair in changes.items() if pair is None]

        def steps() -> Steps[None]:
            if stored:
                yield (
                    _MANY,
                    "INSERT INTO messages (game_id, kind, channel_id, message_id) VALUES (?, ?, ?, ?) "
                    "ON CONFLICT (game_id, kind) DO UPDATE SET channel_id = excluded.channel_id, "
                    "message_id = excluded.message_id",
                    stored,
                )
            if gone:
                yield (_MANY, "DELETE FROM messages WHERE game_id = ? AND kind = ?", gone)

        if changes:
            await self._grouped(game_id, steps)

    async def delete_message(self, game_id: int, kind: str) -> None:
        async def body(db: Conn) -> None:
            await db.execute("DELETE FROM messages WHERE game_id = ? AND kind = ?", (game_id, kind))

        await self._write(body, games=(game_id,))
