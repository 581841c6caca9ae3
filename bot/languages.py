"""Which language each reader gets (issue 21): a private reply or a DM in the person's language, what
the whole channel reads in the server's. The texts themselves are :mod:`bot.i18n`'s.

A person's language is their Discord client's (``Interaction.locale``). It is remembered for the DMs
sent later without an interaction (hands, alerts, follow DMs) where the person takes part in what sends
them (``remember``: /notify; opening, joining or starting a game; following one), with
one write when it is new to this process or changed, not one per interaction: the commands that only
read (/games) cost no write for it. A server's is the one chosen with /admiralty language, else Discord's setting for the
server (``guild_locale``; English for a server that has none, such as a DM)."""

from __future__ import annotations

from bot.i18n import SOURCE, Speaker
from bot.storage import Storage

_REMEMBERED_MAX = 50_000  # people whose locale this process knows is stored (a set, cleared when full)


class Languages:
    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self._stored: dict[int, str] = {}

    async def person(self, user_id: int, locale: str | None, *, remember: bool = False) -> Speaker:
        """The person's language (from their interaction's ``locale``); ``remember``: stored for the DMs
        sent them later."""
        if locale is None:
            return await self.of_user(user_id)
        if remember and self._stored.get(user_id) != locale:
            await self.storage.remember_user_locale(user_id, locale)
            if len(self._stored) >= _REMEMBERED_MAX:
                self._stored.clear()
            self._stored[user_id] = locale
        return Speaker(locale)

    async def of_user(self, user_id: int) -> Speaker:
        """The language of a person who is not interacting now (a DM): the one they last used."""
        return Speaker(await self.storage.user_locale(user_id) or SOURCE)

    async def of_users(self, user_ids: list[int]) -> dict[int, Speaker]:
        """The languages of several people not interacting now (one query): user id -> Speaker."""
        known = await self.storage.user_locales(sorted(set(user_ids)))
        return {user_id: Speaker(known.get(user_id, SOURCE)) for user_id in user_ids}

    async def server(self, guild_id: int | None, guild_locale: str | None) -> Speaker:
        """What the whole channel reads: the server's chosen language, else Discord's for the server."""
        if guild_id is None:
            return Speaker(SOURCE)
        return server_language(await self.storage.guild_locale(guild_id), guild_locale)


def server_language(chosen: str | None, guild_locale: str | None) -> Speaker:
    """A server's language from its choice (``guild_locales``, read by a query that needed it anyway, as
    /stats' and /leaderboard's do) and Discord's setting for the server."""
    return Speaker(chosen or guild_locale or SOURCE)
