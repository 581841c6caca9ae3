"""Languages (migration 0012): the Discord locale each person last used the bot with (for DMs sent
later, without an interaction to read it from) and the language a server chose (/admiralty language)."""

from __future__ import annotations

import time

from bot.storage.core import Conn, StorageCore

# How long a process trusts the language a server chose before reading it again: every table publish and
# ping asks for it, and a server changes it about never; a change made through another process (shards)
# shows within this time, one made here at once.
GUILD_LOCALE_TTL = 60.0
_GUILD_LOCALES_MAX = 50_000


class LocalesStore(StorageCore):
    """Who reads which language: a person's locale, a server's choice."""

    async def user_locale(self, user_id: int) -> str | None:
        row = await self._fetchone("SELECT locale FROM user_locales WHERE user_id = ?", (user_id,))
        return None if row is None else str(row[0])

    async def user_locales(self, user_ids: list[int]) -> dict[int, str]:
        """The remembered locales of ``user_ids`` (one query; those with none are left out)."""
        if not user_ids:
            return {}
        marks = ", ".join("?" * len(user_ids))
        rows = await self._fetchall(
            f"SELECT user_id, locale FROM user_locales WHERE user_id IN ({marks})", tuple(user_ids)
        )
        return {int(r[0]): str(r[1]) for r in rows}

    async def remember_user_locale(self, user_id: int, locale: str) -> None:
        """Store ``user_id``'s locale (a write only when it is new or changed)."""

        async def body(db: Conn) -> None:
            await db.execute(
                "INSERT INTO user_locales (user_id, locale) VALUES (?, ?) ON CONFLICT (user_id) DO UPDATE "
                "SET locale = excluded.locale WHERE user_locales.locale <> excluded.locale",
                (user_id, locale),
            )

        await self._write(body, games=())

    async def guild_locale(self, guild_id: int) -> str | None:
        """The language ``guild_id`` chose with /admiralty language; None: the server's own. Read at most
        once in :data:`GUILD_LOCALE_TTL` seconds per server by this process."""
        known = self._guild_locales().get(guild_id)
        now = time.monotonic()
        if known is not None and now - known[0] < GUILD_LOCALE_TTL:
            return known[1]
        row = await self._fetchone("SELECT locale FROM guild_locales WHERE guild_id = ?", (guild_id,))
        chosen = None if row is None else str(row[0])
        self._remember_guild_locale(guild_id, chosen, now)
        return chosen

    def _guild_locales(self) -> dict[int, tuple[float, str | None]]:
        cache: dict[int, tuple[float, str | None]] | None = getattr(self, "_guild_locale_cache", None)
        if cache is None:
            cache = {}
            self._guild_locale_cache = cache
        return cache

    def _remember_guild_locale(self, guild_id: int, locale: str | None, now: float) -> None:
        cache = self._guild_locales()
        if len(cache) >= _GUILD_LOCALES_MAX:
            cache.clear()
        cache[guild_id] = (now, locale)

    async def set_guild_locale(self, guild_id: int, locale: str | None) -> None:
        """Choose ``guild_id``'s language; None: back to the server's own (Discord's setting)."""

        async def body(db: Conn) -> None:
            if locale is None:
                await db.execute("DELETE FROM guild_locales WHERE guild_id = ?", (guild_id,))
                return
            await db.execute(
                "INSERT INTO guild_locales (guild_id, locale) VALUES (?, ?) "
                "ON CONFLICT (guild_id) DO UPDATE SET locale = excluded.locale",
                (guild_id, locale),
            )

        await self._write(body, games=())
        self._remember_guild_locale(guild_id, locale, time.monotonic())
