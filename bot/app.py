"""The Discord client: opens storage, builds the host, loads the cogs, syncs commands when they changed."""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import signal
import socket

import aiohttp
import discord
from discord.ext import commands

from bot import collector, metrics
from bot.command_translator import CommandTranslator
from bot.delivery import DiscordDelivery
from bot.delivery.alert_jobs import AlertJobs
from bot.drawing import Drawing
from bot.host import Host
from bot.languages import Languages
from bot.settings import Settings
from bot.storage import Storage
from bot.thinking import Thinking

log = logging.getLogger("admiralty")

EXTENSIONS = (
    "cogs.components",
    "cogs.game",
    "cogs.play",
    "cogs.warships",
    "cogs.stats",
    "cogs.history",
    "cogs.mygames",
    "cogs.follow",
    "cogs.imports",
    "cogs.notify",
    "cogs.clocks",
    "cogs.textboard",
)


class Admiralty(commands.Bot):
    """The bot. With ``ADMIRALTY_SHARDS`` set, ``Admiralty(settings)`` is a :class:`ShardedAdmiralty`
    that runs those shards only; without, one plain connection (as Discord allows below 2,500 servers)."""

    def __new__(cls, settings: Settings, *args, **kwargs):
        if cls is Admiralty and settings.shard_count:
            cls = ShardedAdmiralty
        return super().__new__(cls)

    def __init__(self, settings: Settings) -> None:
        # Slash commands and components need no privileged intent, nor any message event: the bot reads
        # no message, so without these intents Discord does not send it one MESSAGE_CREATE/UPDATE/DELETE
        # (nor typing or reaction event) for every message of every channel it sees, each parsed and
        # cached by discord.py for nothing (its own table edits, pings and DMs, and in a busy server
        # every line of chat). Interactions come whatever the intents.
        intents = discord.Intents.default()
        intents.guild_messages = intents.dm_messages = False
        intents.guild_typing = intents.dm_typing = False
        intents.guild_reactions = intents.dm_reactions = False
        options: dict = {}
        if settings.shard_count:
            options.update(shard_ids=list(settings.shard_ids or ()), shard_count=settings.shard_count)
        # Nothing the bot sends notifies anyone unless that message allows exactly whom it pings (a turn's
        # ping, an undo request): a display name "<@id>" or "@everyone" inside a text pings nobody.
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            allowed_mentions=discord.AllowedMentions.none(),
            max_messages=None,  # no message cache: nothing reads it (interactions carry their message)
            **options,
        )
        self.settings = settings
        self.metrics: metrics.Metrics | None = None
        self.storage: Storage | None = None
        self.host: Host | None = None
        self.delivery: DiscordDelivery | None = None
        self.languages: Languages | None = None  # who reads which language (bot/languages.py)
        self.alert_jobs: AlertJobs | None = None  # alerts held by quiet hours, daily digests (/notify)
        self.drawing = Drawing(settings.draw_workers)
        self.thinking = Thinking(settings.ai_workers)  # the AI seats' worker processes (bot/thinking.py)
        self._resumed = False
        self._to_resume: list = []
        self._sigterm_loop: asyncio.AbstractEventLoop | None = None
        self._closing: asyncio.Future | None = None

    async def setup_hook(self) -> None:
        self.storage = await Storage.open(self.settings.database, **self.settings.storage_options())
        if self.settings.metrics_port is not None:
            self.metrics = metrics.enable(
                self.settings.metrics_port, self.settings.metrics_addr, storage=self.storage
            )
            metrics.count_requests(self.http)  # REST calls and 429s
            log.info("metrics on http://%s:%s/metrics", self.settings.metrics_addr, self.metrics.port)
        self.drawing.start()  # the drawing processes start and warm up while the bot connects
        self.thinking.start()
        self._stop_on_sigterm()
        self.languages = Languages(self.storage)
        self.delivery = DiscordDelivery(self, self.storage, self.drawing, shared=self.settings.shares_games)
        self.host = Host(
            self.storage,
            self.delivery,
            turn_timeout=self.settings.turn_timeout,
            ai_delay=self.settings.ai_delay,
            abandon_after=self.settings.abandon_after,
            thinking=self.thinking,
        )
        self.alert_jobs = AlertJobs(
            self.storage, self.host.tables, self.delivery.pings.alerts, self.host.scheduler.owner
        )
        # The games to resume are those running before this start: read them now, before any
        # interaction can create a game (on_ready may run after the first clicks). With shards, only
        # those of this process's shards are resumed (games_to_resume); their timers and AI moves
        # run in whichever process is free.
        self._to_resume = await self.storage.running_games()
        for ext in EXTENSIONS:
            await self.load_extension(ext)
        self.tree.error(self.on_app_command_error)
        await self.tree.set_translator(CommandTranslator())  # the commands in each catalogue's language
        await self.sync_commands()

    async def sync_commands(self) -> bool:
        """Sync slash commands only when their definitions changed since the last sync."""
        guild = discord.Object(self.settings.dev_guild) if self.settings.dev_guild else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        # as synced: with the translations (a changed catalogue syncs again)
        translator = self.tree.translator
        commands_here = self.tree.get_commands(guild=guild)
        if translator is None:
            payload = [cmd.to_dict(self.tree) for cmd in commands_here]
        else:
            payload = [await cmd.get_translated_payload(self.tree, translator) for cmd in commands_here]
        digest = hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()
        scope = f"commands:{self.settings.dev_guild or 'global'}:{self.application_id}"
        assert self.storage is not None  # opened first thing in setup_hook
        if await self.storage.get_meta(scope) == digest:
            log.info("slash commands unchanged; not syncing")
            return False
        await self.tree.sync(guild=guild)
        await self.storage.set_meta(scope, digest)
        log.info("slash commands synced (%s)", f"guild {self.settings.dev_guild}" if guild else "global")
        return True

    async def on_ready(self) -> None:
        log.info(
            "logged in as %s (%s) in %d servers",
            self.user,
            self.user.id if self.user else "?",
            len(self.guilds),
        )
        if not self._resumed:
            self._resumed = True
            assert self.host is not None  # made in setup_hook, which discord.py runs before connecting
            tables = await self.host.resume_all(self.games_to_resume())
            if tables:
                log.info("resumed %d running games", len(tables))
            if self.alert_jobs is not None:
                self.alert_jobs.start()
            collector.freeze()  # (what the start made stays for good: no collection walks it again)

    def games_to_resume(self) -> list:
        """The running games this process resumes (re-arms and announces): those of the guilds on its
        shards. Games of other shards are their processes' to resume; any process still acts on any
        game a click reaches it for (DM clicks all come to shard 0's process)."""
        mine = [r for r in self._to_resume if self.settings.runs_guild(r.guild_id)]
        if len(mine) < len(self._to_resume):
            log.info(
                "%d running games are on shards other processes run; not resuming them here",
                len(self._to_resume) - len(mine),
            )
        return mine

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

    def _stop_on_sigterm(self) -> None:
        """SIGTERM (``docker stop``, systemd, ``kill``) closes the bot as Ctrl-C does: the host's tasks,
        the connection, the drawing processes and the database are closed in order, none left behind."""
        loop = asyncio.get_running_loop()
        try:
            loop.add_signal_handler(signal.SIGTERM, self._sigterm)
        except (NotImplementedError, RuntimeError, ValueError):  # Windows; not the main thread
            return
        self._sigterm_loop = loop

    def _sigterm(self) -> None:
        log.info("SIGTERM: shutting down")
        self._closing = asyncio.ensure_future(self.close())

    def _forget_sigterm(self) -> None:
        loop, self._sigterm_loop = self._sigterm_loop, None
        if loop is not None and not loop.is_closed():
            loop.remove_signal_handler(signal.SIGTERM)

    async def close(self) -> None:
        self._forget_sigterm()
        if self.host is not None:
            await self.host.close()
        if self.alert_jobs is not None:
            await self.alert_jobs.close()
        await super().close()
        await self.drawing.close()
        await self.thinking.close()
        if self.metrics is not None and metrics.enabled() is self.metrics:
            metrics.disable()
        if self.storage is not None:
            await self.storage.close()


class ShardedAdmiralty(Admiralty, commands.AutoShardedBot):
    """Admiralty on the shards ``ADMIRALTY_SHARDS`` names (several processes share one database)."""


def start_failure(error: BaseException) -> str | None:
    """The one sentence for an error that stops the bot from starting (a refused token, Discord out of
    reach), for ``python -m bot run`` to print instead of a traceback; None for any other error."""
    if isinstance(error, discord.LoginFailure) or (
        isinstance(error, discord.ConnectionClosed) and error.code == 4004
    ):
        return (
            "Discord refused the bot token: set DISCORD_TOKEN to your bot's token "
            "(Developer Portal → your application → Bot → Reset Token) and start again"
        )
    if isinstance(error, aiohttp.ClientConnectorError):
        cause = error.os_error
        if isinstance(cause, ConnectionRefusedError):
            reason = "connection refused"
        elif isinstance(cause, socket.gaierror):
            reason = "the name does not resolve"
        else:
            reason = (cause.strerror or str(cause) or type(cause).__name__).lower()
        return (
            f"Cannot reach Discord at {error.host}:{error.port} ({reason}): check this machine's "
            "network connection, DNS, proxy and firewall, and start again"
        )
    if isinstance(error, discord.GatewayNotFound | aiohttp.ClientConnectionError | TimeoutError):
        return (
            f"Cannot reach Discord ({error or type(error).__name__}): check this machine's network "
            "connection, DNS, proxy and firewall, and start again"
        )
    if isinstance(error, discord.HTTPException) and error.status >= 500:
        return f"Discord answered {error.status} while the bot logged in: Discord is having trouble; start again later"
    return None
