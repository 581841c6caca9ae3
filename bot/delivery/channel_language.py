"""The language the whole channel of a game reads (its table, pings, summary, alt text): the server's
(bot/languages.py), one read of ``guild_locales`` each time it is asked."""

from __future__ import annotations

from bot.i18n import Speaker
from bot.languages import Languages
from bot.storage import Storage
from bot.tables import Table

from .transport import Transport


async def channel_speaker(transport: Transport, storage: Storage, table: Table) -> Speaker:
    """The server's language, chosen with /admiralty language, else Discord's for the server."""
    guild_id = table.row.guild_id
    guild = transport.client.get_guild(guild_id) if guild_id is not None else None
    preferred = guild.preferred_locale.value if guild is not None else None
    return await Languages(storage).server(guild_id, preferred)
