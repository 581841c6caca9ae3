"""Messages: the Discord messages a game keeps (its table, its lobby…), by kind."""

from __future__ import annotations

from bot.storage.core import _EXEC, _MANY, Conn, Steps, StorageCore


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
        if changes:
            await self._grouped(game_id, lambda: _message_steps(game_id, changes))

    async def claim_message(
        self,
        game_id: int,
        kind: str,
        message_id: int,
        changes: dict[str, tuple[int, int] | None] | None = None,
    ) -> bool:
        """Forget the stored message ``kind`` if it still is ``message_id`` (with ``changes`` as
        :meth:`save_messages` writes them, in the same transaction): True when this call forgot it, and
        its caller alone deletes the message on Discord; False when another process (or an earlier
        call) forgot it already, and deletes it: a message is deleted once."""

        def steps() -> Steps[bool]:
            yield from _message_steps(game_id, {k: v for k, v in (changes or {}).items() if k != kind})
            forgot = yield (
                _EXEC,
                "DELETE FROM messages WHERE game_id = ? AND kind = ? AND message_id = ?",
                (game_id, kind, message_id),
            )
            return forgot == 1

        return await self._grouped(game_id, steps)

    async def swap_message(
        self,
        game_id: int,
        kind: str,
        expected: tuple[int, int] | None,
        new: tuple[int, int],
        changes: dict[str, tuple[int, int] | None] | None = None,
    ) -> bool:
        """Store ``new`` as ``kind`` if it still is ``expected`` (None: not stored), with ``changes`` as
        :meth:`save_messages` writes them, in one transaction: True when it was so and is now ``new``;
        False when another process wrote it since ``expected`` was read (nothing of ``kind`` is written)."""

        def steps() -> Steps[bool]:
            yield from _message_steps(game_id, {k: v for k, v in (changes or {}).items() if k != kind})
            if expected is None:
                count = yield (
                    _EXEC,
                    "INSERT INTO messages (game_id, kind, channel_id, message_id) VALUES (?, ?, ?, ?) "
                    "ON CONFLICT (game_id, kind) DO NOTHING",
                    (game_id, kind, new[0], new[1]),
                )
            else:
                count = yield (
                    _EXEC,
                    "UPDATE messages SET channel_id = ?, message_id = ? "
                    "WHERE game_id = ? AND kind = ? AND channel_id = ? AND message_id = ?",
                    (new[0], new[1], game_id, kind, expected[0], expected[1]),
                )
            return count == 1

        return await self._grouped(game_id, steps)

    async def delete_message(self, game_id: int, kind: str) -> None:
        async def body(db: Conn) -> None:
            await db.execute("DELETE FROM messages WHERE game_id = ? AND kind = ?", (game_id, kind))

        await self._write(body, games=(game_id,))


def _message_steps(game_id: int, changes: dict[str, tuple[int, int] | None]) -> Steps[None]:
    """The writes of :meth:`MessagesStore.save_messages`: store and forget, each kind in one statement."""
    stored = [(game_id, kind, pair[0], pair[1]) for kind, pair in changes.items() if pair is not None]
    gone = [(game_id, kind) for kind, pair in changes.items() if pair is None]
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
