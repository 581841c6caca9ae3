"""The Discord client: opens storage, builds the host, loads the cogs, syncs commands when they changed."""

from __future__ import annotations

import hashlib
import json
import logging

import discord
from discord.ext import commands

from bot.delivery import DiscordDelivery
from bot.host import Host
from bot.settings import Settings
from bot.storage import Storage

log = logging.getLogger("admiralty")

EXTENSIONS = ("cogs.components", "cogs.game", "cogs.play", "cogs.warships")


class Admiralty(commands.Bot):
    def __init__(self, settings: Settings) -> None:
        # Slash commands and components need no privileged intent.
        intents = discord.Intents.default()
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, help_command=None)
        self.settings = settings
        self.storage: Storage | None = None
        self.host: Host | None = None
        self.delivery: DiscordDelivery | None = None
        self._resumed = False
        self._to_resume: list = []

    async def setup_hook(self) -> None:
        self.storage = await Storage.open(self.settings.database)
        self.delivery = DiscordDelivery(self, self.storage)
        self.host = Host(self.storage, self.delivery, turn_timeout=self.settings.turn_timeout,
                         ai_delay=self.settings.ai_delay)
        # The games to resume are those running before this start: read them now, before any
        # interaction can create a game (on_ready may run after the first clicks).
        self._to_resume = await self.storage.running_games()
        for ext in EXTENSIONS:
            await self.load_extension(ext)
        self.tree.on_error = self.on_app_command_error
        await self.sync_commands()

    async def sync_commands(self) -> bool:
        """Sync slash commands only when their definitions changed since the last sync."""
        guild = discord.Object(self.settings.dev_guild) if self.settings.dev_guild else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        payload = [cmd.to_dict(self.tree) for cmd in self.tree.get_commands(guild=guild)]
        digest = hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()
        scope = f"commands:{self.settings.dev_guild or 'global'}:{self.application_id}"
        if await self.storage.get_meta(scope) == digest:
            log.info("slash commands unchanged; not syncing")
            return False
        await self.tree.sync(guild=guild)
        await self.storage.set_meta(scope, digest)
        log.info("slash commands synced (%s)", f"guild {self.settings.dev_guild}" if guild else "global")
        return True

    async def on_ready(self) -> None:
        log.info("logged in as %s (%s) in %d servers", self.user, self.user.id if self.user else "?",
                 len(self.guilds))
        if not self._resumed:
            self._resumed = True
            tables = await self.host.resume_all(self._to_resume)
            if tables:
                log.info("resumed %d running games", len(tables))

    async def on_app_command_error(self, interaction: discord.Interaction, error: Exception) -> None:
        log.error("command error in channel %s: %s", interaction.channel_id, error, exc_info=error)
        text = "Sorry — something went wrong on my side. Nothing was changed; please try again."
        try:
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)
        except discord.HTTPException:
            pass

    async def close(self) -> None:
        if self.host is not None:
            await self.host.close()
        await super().close()
        if self.storage is not None:
            await self.storage.close()
