"""Meta: small named values of the whole bot (one table of key → value), with compare-and-set."""

from __future__ import annotations

from bot.storage.core import Conn, StorageCore


class MetaStore(StorageCore):
    """Bot-wide key → value rows."""

    async def get_meta(self, key: str) -> str | None:
        row = await self._fetchone("SELECT value FROM meta WHERE key = ?", (key,))
        return None if row is None else row[0]

    async def delete_meta(self, key: str) -> None:
        async def body(db: Conn) -> None:
            await db.execute("DELETE FROM meta WHERE key = ?", (key,))

        await self._write(body)

    async def set_meta(self, key: str, value: str) -> None:
        async def body(db: Conn) -> None:
            await db.execute(
                "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (key, str(value)),
            )

        await self._write(body)

    async def swap_meta(self, key: str, old: str | None, new: str | None) -> bool:
        """Compare-and-set: make ``key`` hold ``new`` (None: no row) only if it holds ``old`` now (None:
        no row); True when it did. Two processes changing one value at once: one wins, the other gets
        False and reads again (a plain ``set_meta`` would let the later write drop the earlier)."""

        async def body(db: Conn) -> bool:
            if old is None and new is None:
                rows = await db.execute_fetchall("SELECT 1 FROM meta WHERE key = ?", (key,))
                return not rows
            if old is None:
                cur = await db.execute(
                    "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING",
                    (key, str(new)),
                )
            elif new is None:
                cur = await db.execute("DELETE FROM meta WHERE key = ? AND value = ?", (key, old))
            else:
                cur = await db.execute(
                    "UPDATE meta SET value = ? WHERE key = ? AND value = ?", (str(new), key, old)
                )
            return cur.rowcount == 1

        return await self._write(body)
