"""FakeDiscord: an aiohttp server on 127.0.0.1:<ephemeral> speaking the subset of Discord API v10 and the
gateway that discord.py (and so the bot) uses. See README.md beside this file."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import re
import secrets
import time
from collections.abc import Callable, Iterable
from typing import Any

from aiohttp import hdrs, multipart, web

from . import errors as E
from . import formdata
from .errors import ApiError, FakeDiscordError
from .faults import Faults
from .gateway import Gateway
from .models import (
    ATTACH_FILES,
    BOT_ROLE_PERMS,
    CREATE_PRIVATE_THREADS,
    CREATE_PUBLIC_THREADS,
    DM,
    EVERYONE_PERMS,
    FLAG_COMPONENTS_V2,
    FLAG_EPHEMERAL,
    FLAG_LOADING,
    FLAG_SUPPRESS_EMBEDS,
    FLAG_SUPPRESS_NOTIFICATIONS,
    GROUP_DM,
    GUILD_TEXT,
    MANAGE_THREADS,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    VIEW_CHANNEL,
    Attachment,
    Channel,
    Guild,
    Interaction,
    Member,
    Message,
    Overwrite,
    Role,
    Snowflakes,
    User,
    assign_component_ids,
    json_copy,
    json_loads,
    json_text,
    resolve_media,
    walk_components,
)
from .ratelimits import EXEMPT_HANDLERS, CallLog, Calls, Limiter, Ping, RateLimits
from .validate import check_choices, check_command_localizations, check_message, check_modal

INTENT_GUILD_MESSAGES = 1 << 9
INTENT_DM_MESSAGES = 1 << 12
INTENT_MESSAGE_CONTENT = 1 << 15
ALLOWED_SEND_FLAGS = FLAG_SUPPRESS_EMBEDS | FLAG_SUPPRESS_NOTIFICATIONS | FLAG_COMPONENTS_V2


WAIT_POLL = 0.05  # seconds between checks of wait_for's predicates when nothing in the fake changed


def _json(status: int, data: Any, headers: dict[str, str] | None = None) -> web.Response:
    h = {"Content-Type": "application/json"}
    if headers:
        h.update(headers)
    return web.Response(status=status, body=json_text(data).encode(), headers=h)


# Interaction context types (where an interaction was made) and the installation types of an app
GUILD, BOT_DM, PRIVATE_CHANNEL = 0, 1, 2
GUILD_INSTALL, USER_INSTALL = 0, 1


def context_of(channel: Channel) -> int:
    """The interaction context of a channel: a server's, the bot's DM, or a group DM."""
    return {DM: BOT_DM, GROUP_DM: PRIVATE_CHANNEL}.get(channel.type, GUILD)


def allowed_contexts(command: dict) -> set[int]:
    """Where a command may be used: its ``contexts``, or when it has none (null) the legacy default:
    servers, the bot's DM unless ``dm_permission`` is false, and group DMs for a user-installable one."""
    if command.get("contexts") is not None:
        return set(command["contexts"])
    types = command.get("integration_types") or [GUILD_INSTALL]
    return (
        {GUILD}
        | ({BOT_DM} if command.get("dm_permission", True) is not False else set())
        | ({PRIVATE_CHANNEL} if USER_INSTALL in types else set())
    )


def _check_install_fields(cmd: dict) -> None:
    """``integration_types`` (0 guild install, 1 user install) and ``contexts`` (0 guild, 1 bot DM, 2
    private channel): null or a list of those values without repeats, as Discord validates them."""
    for key, allowed in (
        ("integration_types", {GUILD_INSTALL, USER_INSTALL}),
        ("contexts", {GUILD, BOT_DM, PRIVATE_CHANNEL}),
    ):
        value = cmd.get(key)
        if value is None:
            continue
        if (
            not isinstance(value, list)
            or any(v not in allowed for v in value)
            or len(set(value)) != len(value)
        ):
            raise ApiError(
                400,
                50035,
                "Invalid Form Body",
                errors={
                    key: {
                        "_errors": [
                            {
                                "code": "BASE_TYPE_CHOICES",
                                "message": f"Value must be one of {sorted(allowed)}.",
                            }
                        ]
                    }
                },
            )


@functools.lru_cache(maxsize=256)
def _form_field(disposition: str | None) -> tuple[str, str | None]:
    """(name, filename) of a multipart part, from its Content-Disposition header, parsed once per header
    seen (they repeat: ``payload_json``, ``files[0]``…): aiohttp's ``part.name`` and ``part.filename``
    each parse it again, running ``re.escape`` over the header's characters every time."""
    _, params = multipart.parse_content_disposition(disposition)
    name = multipart.content_disposition_filename(params, "name")
    return name or "", multipart.content_disposition_filename(params, "filename")


class FakeDiscord:
    """The loopback Discord.

    >>> async with FakeDiscord(users=["alice", "bob"]) as fd:
    ...     async with running_bot(bot, fd):
    ...         result = await fd.user("alice").slash("game new", game="enemy-lines")
    """

    def __init__(
        self,
        *,
        users: Iterable[str] = ("alice", "bob", "carol"),
        channels: Iterable[str] = ("general", "games"),
        guild_name: str = "Fake Guild",
        bot_name: str = "admiralty",
        heartbeat_interval: float = 41.25,
        interaction_timeout: float = 3.0,
        token_ttl: float = 15 * 60.0,
        reply_timeout: float = 10.0,
        deferred_update_wait: float = 2.0,
        rate_limits: bool | RateLimits = False,
        shards: int = 1,
        clock: Callable[[], float] = time.monotonic,
        host: str = "127.0.0.1",
    ) -> None:
        self.host = host
        self.clock = clock
        if shards < 1:
            raise FakeDiscordError("shards must be at least 1")
        self.shards = shards  # the shard count GET /gateway/bot recommends
        self.rate_limits: RateLimits = rate_limits if isinstance(rate_limits, RateLimits) else RateLimits()
        self.rate_limits_enabled = bool(rate_limits)
        self._limiter = Limiter(self.rate_limits, clock)
        self._calls = CallLog()
        self.pings: list[Ping] = []
        self.port = 0
        self.heartbeat_interval = heartbeat_interval
        self.interaction_timeout = interaction_timeout
        self.token_ttl = token_ttl
        self.reply_timeout = reply_timeout
        self.deferred_update_wait = deferred_update_wait
        self.snow = Snowflakes()
        self.faults = Faults()
        self.gateway = Gateway(self)
        self.requests: list[tuple[str, int]] = []  # ("METHOD /path", status)
        self.unhandled: list[str] = []
        # wait_for's waiters: predicate and future; checked after changes (once per loop turn) and polled
        self._waiters: dict[object, tuple[Callable[[], Any], asyncio.Future]] = {}
        self._check_due = False
        self._poll: asyncio.TimerHandle | None = None
        self._runner: web.AppRunner | None = None

        self.bot_user = User(self.snow(), bot_name, bot=True)
        self.application_id = self.bot_user.id
        self.owner = User(self.snow(), "owner")
        self.users: dict[int, User] = {self.bot_user.id: self.bot_user, self.owner.id: self.owner}
        self._members: dict[str, Any] = {}
        self.channels: dict[int, Channel] = {}
        self.dm_channels: dict[int, Channel] = {}
        self.messages: dict[int, Message] = {}
        # files sent as a slash command's attachment option: on no message, yet served (Discord's CDN)
        self.uploads: dict[int, Attachment] = {}
        self.channel_log: dict[int, list[Message]] = {}
        self.interactions: dict[int, Interaction] = {}
        self.by_token: dict[str, Interaction] = {}
        self.global_commands: list[dict] = []
        self.guild_commands: dict[int, list[dict]] = {}
        self._watch: dict[int, set[Interaction]] = {}
        # Interactions no gateway session was sent (their guild's shard has no process): they fail at 3 s.
        self.undelivered: list[Interaction] = []

        self.guilds: dict[int, Guild] = {}
        # The default guild (every helper's default) is on shard 0.
        self.guild = self._make_guild(
            self.snow.on_shard(0, shards) if shards > 1 else self.snow(), guild_name
        )
        for pos, name in enumerate(channels):
            self.add_channel(name, position=pos, dispatch=False)
        for name in users:
            self.add_user(name, dispatch=False)

    # ------------------------------------------------------------------ lifecycle
    async def __aenter__(self) -> FakeDiscord:
        await self.start()
        return self

    async def __aexit__(self, *exc) -> None:
        await self.stop()

    async def start(self) -> None:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("*", "/api/v{version:\\d+}/{tail:.*}", self._api)
        app.router.add_get("/gateway", self.gateway.handle)
        app.router.add_get("/gateway/", self.gateway.handle)
        app.router.add_get("/attachments/{cid}/{aid}/{filename}", self._attachment)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    async def stop(self) -> None:
        if self._poll is not None:
            self._poll.cancel()
            self._poll = None
        for rec in self.interactions.values():
            if rec.deadline_handle is not None:
                rec.deadline_handle.cancel()
        await self.gateway.drop(code=1001)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def api_base(self) -> str:
        return f"{self.base_url}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://{self.host}:{self.port}/gateway"

    def launch_argv(self, *program: str, fast_ready: bool = True) -> list[str]:
        """argv to run a discord.py program in a subprocess against this fake, e.g.
        `fd.launch_argv("-m", "bot", "run")` (run it with cwd = the repo root)."""
        import sys

        argv = [sys.executable, "-m", "tests.fakediscord.launch", "--base", self.base_url]
        if not fast_ready:
            argv.append("--no-fast-ready")
        return argv + list(program)

    @contextlib.contextmanager
    def patched_discord(self):
        """Point discord.py (process-wide) at this server; restores the real addresses on exit."""
        import discord.gateway
        import discord.http
        import yarl

        old_base = discord.http.Route.BASE
        old_gw = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
        discord.http.Route.BASE = self.api_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.gateway_url)
        try:
            yield self
        finally:
            discord.http.Route.BASE = old_base
            discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = old_gw

    # ------------------------------------------------------------------ world building / test hooks
    def _make_guild(self, gid: int, name: str) -> Guild:
        """A guild with @everyone, the bot (with its managed role), the owner and every user as members."""
        guild = Guild(gid, name, owner_id=self.owner.id)
        guild.roles[gid] = Role(gid, "@everyone", EVERYONE_PERMS)
        bot_role = Role(self.snow(), self.bot_user.name, BOT_ROLE_PERMS, position=1, managed=True)
        guild.roles[bot_role.id] = bot_role
        now = time.time()
        guild.members[self.bot_user.id] = Member(self.bot_user, [bot_role.id], now)
        for user in self.users.values():
            if not user.bot:
                guild.members[user.id] = Member(user, [], now)
        self.guilds[gid] = guild
        return guild

    def add_guild(
        self,
        name: str,
        *,
        shard: int | None = None,
        shard_count: int | None = None,
        channels: Iterable[str] = ("games",),
        bot: bool = True,
    ) -> Guild:
        """Another guild (every user is a member), on shard ``shard`` of ``shard_count`` (default: of
        ``fd.shards``; no shard: wherever its id falls). Its channels are named as given; ``fd.channel(name)``
        finds the first of that name, so give channels of different guilds different names. Sent as
        GUILD_CREATE to the sessions of its shard (the bot joined it). ``bot=False``: a server the bot is
        not in (no event of it, its REST refused): only a user's install of the app reaches it."""
        count = shard_count or self.shards
        gid = self.snow.on_shard(shard, count) if shard is not None else self.snow()
        guild = self._make_guild(gid, name)
        for pos, cname in enumerate(channels):
            self.add_channel(cname, position=pos, dispatch=False, guild=guild)
        if not bot:
            del guild.members[self.bot_user.id]
            guild.roles = {rid: r for rid, r in guild.roles.items() if not r.managed}
            self._changed()
            return guild
        for session in self.gateway.sessions_for(guild.id):
            payload = self.gateway.guild_create(guild, session)
            payload.pop("unavailable", None)  # a guild joined (not one coming back): no "unavailable"
            session.dispatch("GUILD_CREATE", payload)
        self._changed()
        return guild

    def bot_in(self, guild_id: int | None) -> bool:
        """Whether the bot is a member of guild ``guild_id`` (the guild installed the app)."""
        guild = self.guilds.get(guild_id) if guild_id is not None else None
        return guild is not None and self.bot_user.id in guild.members

    def guild_of(self, channel: Channel | int | str) -> Guild:
        """The guild of a guild channel or thread."""
        ch = self.channel(channel)
        if ch.guild_id is None:
            raise FakeDiscordError(f"channel {ch.id} is a DM, in no guild")
        return self.guilds[ch.guild_id]

    def _perms(self, user_id: int, channel: Channel) -> int:
        return self.guilds[channel.guild_id].permissions_in(user_id, channel) if channel.guild_id else 0

    def add_role(self, name: str, members: Iterable[str] = (), *, mentionable: bool = True) -> Role:
        """A role of the default guild that ``members`` (user names) have (sent to the bot's sessions)."""
        role = Role(self.snow(), name, 0, position=1, mentionable=mentionable)
        self.guild.roles[role.id] = role
        for member in members:
            self.guild.members[self.user(member).id].roles.append(role.id)
        for session in self.gateway.sessions_for(self.guild.id):
            session.dispatch("GUILD_ROLE_CREATE", {"guild_id": str(self.guild.id), "role": role.to_payload()})
        self._changed()
        return role

    def add_user(self, name: str, *, dispatch: bool = True):
        from .users import FakeMember

        if name in self._members:
            return self._members[name]
        user = User(self.snow(), name)
        self.users[user.id] = user
        self._members[name] = FakeMember(self, user)
        for guild in self.guilds.values():
            guild.members[user.id] = Member(user, [], time.time())
            if dispatch and self.bot_in(guild.id):
                self.gateway.dispatch(
                    "GUILD_MEMBER_ADD",
                    {**guild.members[user.id].to_payload(), "guild_id": str(guild.id)},
                    guild_id=guild.id,
                )
        if dispatch:
            self._changed()
        return self._members[name]

    def user(self, name: str):
        """The test handle of a configured member (see users.FakeMember)."""
        try:
            return self._members[name]
        except KeyError:
            raise FakeDiscordError(f"no user {name!r}; configured: {sorted(self._members)}") from None

    def add_channel(
        self, name: str, *, position: int = 0, dispatch: bool = True, guild: Guild | None = None
    ) -> Channel:
        guild = guild or self.guild
        ch = Channel(self.snow(), GUILD_TEXT, name, guild_id=guild.id, position=position)
        guild.channels[ch.id] = ch
        self.channels[ch.id] = ch
        self.channel_log[ch.id] = []
        if dispatch:
            self.gateway.dispatch("CHANNEL_CREATE", ch.to_payload())
            self._changed()
        return ch

    def remove_channel(self, ref: Channel | int | str) -> Channel:
        """A moderator deletes a channel or thread (CHANNEL_DELETE / THREAD_DELETE sent); a text channel's
        threads go with it. Later REST calls on them get 404 10003 Unknown Channel. Their messages stay
        readable through ``channel_messages(<the Channel object>)``."""
        ch = self.channel(ref)
        gone = [ch] + [c for c in self.channels.values() if c.is_thread and c.parent_id == ch.id]
        for c in gone:
            self.channels.pop(c.id, None)
            self.guilds[c.guild_id].channels.pop(c.id, None)
        for c in reversed(gone):
            if c.is_thread:
                self.gateway.dispatch(
                    "THREAD_DELETE",
                    {
                        "id": str(c.id),
                        "guild_id": str(c.guild_id),
                        "parent_id": str(c.parent_id),
                        "type": c.type,
                    },
                )
            else:
                self.gateway.dispatch("CHANNEL_DELETE", c.to_payload())
        self._changed()
        return ch

    def channel(self, ref: Channel | int | str) -> Channel:
        if isinstance(ref, Channel):
            return ref
        if isinstance(ref, int) and ref in self.channels:
            return self.channels[ref]
        if isinstance(ref, str):
            if ref.isdigit() and int(ref) in self.channels:
                return self.channels[int(ref)]
            for ch in self.channels.values():
                if ch.name == ref and ch.type != DM:
                    return ch
        raise FakeDiscordError(f"unknown channel {ref!r}")

    def set_overwrite(
        self,
        channel: Channel | int | str,
        target_id: int,
        *,
        allow: int = 0,
        deny: int = 0,
        member: bool = True,
    ) -> None:
        ch = self.channel(channel)
        ch.overwrites[target_id] = Overwrite(target_id, 1 if member else 0, allow, deny)
        self.gateway.dispatch("CHANNEL_UPDATE", ch.to_payload())
        self._changed()

    def deny_bot(self, channel: Channel | int | str, permissions: int) -> None:
        """Deny the bot the given permission bits in a channel (member overwrite, sent as CHANNEL_UPDATE)."""
        ch = self.channel(channel)
        ow = ch.overwrites.get(self.bot_user.id)
        allow, deny = (ow.allow, ow.deny) if ow else (0, 0)
        self.set_overwrite(ch, self.bot_user.id, allow=allow & ~permissions, deny=deny | permissions)

    def deny_attach(self, channel: Channel | int | str) -> None:
        """The bot may not attach files in this channel: posts with files get 403 50013."""
        self.deny_bot(channel, ATTACH_FILES)

    def block_dms(self, user) -> None:
        """Messages from the bot to this user's DMs get 403 50007."""
        self._user_obj(user).dms_blocked = True

    def unblock_dms(self, user) -> None:
        self._user_obj(user).dms_blocked = False

    async def drop_gateway(self, *, wait: bool = True, timeout: float = 10.0) -> None:
        """Close the gateway socket (code 4000); discord.py reconnects and RESUMEs. With wait, returns once
        the session has resumed."""
        before = self.gateway.resumes
        await self.gateway.drop(4000)
        if wait:
            await self.gateway.wait_connected(timeout, after_resumes=before)

    async def request_reconnect(self, *, wait: bool = True, timeout: float = 10.0) -> None:
        """Send op 7 RECONNECT; discord.py closes and RESUMEs."""
        before = self.gateway.resumes
        await self.gateway.request_reconnect()
        if wait:
            await self.gateway.wait_connected(timeout, after_resumes=before)

    async def invalidate_session(self, *, wait: bool = True, timeout: float = 10.0) -> None:
        """Send op 9 (not resumable); discord.py identifies again."""
        before = self.gateway.identifies
        await self.gateway.invalidate()
        if wait:
            await self.gateway.wait_connected(timeout, after_identifies=before)

    # ------------------------------------------------------------------ reading state
    def message(self, message_id: int | Message) -> Message:
        mid = message_id.id if isinstance(message_id, Message) else int(message_id)
        try:
            return self.messages[mid]
        except KeyError:
            raise FakeDiscordError(f"unknown message {mid}") from None

    def channel_messages(
        self, channel: Channel | int | str, *, ephemeral: bool = False, deleted: bool = False
    ) -> list[Message]:
        """Messages of a channel, oldest first. Ephemeral ones (anyone's) only with ephemeral=True."""
        ch = self.channel(channel)
        return [
            m
            for m in self.channel_log.get(ch.id, [])
            if (ephemeral or not m.ephemeral) and (deleted or not m.deleted)
        ]

    def all_messages(self) -> list[Message]:
        return [m for m in self.messages.values() if not m.deleted]

    def dm_channel(self, user) -> Channel | None:
        return self.dm_channels.get(self._user_obj(user).id)

    def open_dm(self, user) -> Channel:
        """The DM channel of ``user`` with the bot, made if they have none yet (the user opened it)."""
        return self._dm_with(self._user_obj(user))

    def _dm_with(self, user: User) -> Channel:
        ch = self.dm_channels.get(user.id)
        if ch is None:
            ch = Channel(self.snow(), DM, None, recipient=user)
            self.dm_channels[user.id] = ch
            self.channels[ch.id] = ch
            self.channel_log[ch.id] = []
        return ch

    def group_dm(self, users: Iterable[str], name: str | None = None) -> Channel:
        """A group DM of these users (a "private channel", owned by the first). The bot is not in it: it
        sees it only through the interactions of a user who installed the app (``install_app``), and its
        REST calls on it fail with Missing Access."""
        members = [self._user_obj(u) for u in users]
        ch = Channel(self.snow(), GROUP_DM, name, recipients=members, owner_id=members[0].id)
        self.channels[ch.id] = ch
        self.channel_log[ch.id] = []
        return ch

    def commands(self, guild: bool | Guild | None = None) -> list[dict]:
        """Registered commands: guild ones (True: of the default guild, or of a Guild given), global ones
        (False), or both (None)."""
        gid = guild.id if isinstance(guild, Guild) else self.guild.id
        if guild is not None and guild is not False:
            return list(self.guild_commands.get(gid, []))
        if guild is False:
            return list(self.global_commands)
        return list(self.guild_commands.get(gid, [])) + list(self.global_commands)

    def can_see(self, user, message: Message) -> bool:
        u = self._user_obj(user)
        if message.deleted:
            return False
        if message.ephemeral_for is not None and message.ephemeral_for != u.id:
            return False
        ch = message.channel
        if ch.type == DM:
            return ch.recipient is not None and ch.recipient.id == u.id
        if ch.type == GROUP_DM:
            return any(r.id == u.id for r in ch.recipients)
        if ch.type == PRIVATE_THREAD and u.id not in ch.thread_members:
            if not self._perms(u.id, ch) & MANAGE_THREADS:
                return False
        return bool(self._perms(u.id, ch) & VIEW_CHANNEL)

    # ------------------------------------------------------------------ calls, rate limits, pings
    @property
    def calls(self) -> Calls:
        """Every REST call the bot made since start (or `fd.calls.reset()`), by route template and class
        (global-limited vs interaction-exempt), with 429s per bucket. See ratelimits.Calls."""
        return self._calls.all

    def count(self):
        """`with fd.count() as c: await alice.click(...)`: the calls made inside the block (a Calls)."""
        return self._calls.window()

    def set_rate_limits(self, enabled: bool | None = None, **numbers) -> RateLimits:
        """Switch the rate-limit model on/off at run time and/or change its numbers, e.g.
        `fd.set_rate_limits(True, message_create=(2, 1.0), global_per_second=10)`."""
        if enabled is not None:
            self.rate_limits_enabled = enabled
        for name, value in numbers.items():
            if not hasattr(self.rate_limits, name):
                raise FakeDiscordError(f"no rate limit setting {name!r}")
            setattr(self.rate_limits, name, value)
        return self.rate_limits

    def pings_for(self, user) -> list[Ping]:
        uid = self._user_obj(user).id
        return [p for p in self.pings if p.user_id == uid]

    def _record_pings(self, msg: Message, body: dict) -> None:
        """A created bot message notifies the users it mentions (content and v2 text displays) that
        allowed_mentions lets through and who can see it; ephemeral and @silent messages notify nobody."""
        if msg.author.id != self.bot_user.id or msg.ephemeral or msg.flags & FLAG_SUPPRESS_NOTIFICATIONS:
            return
        texts = [msg.content] + [
            c.get("content") or "" for c in walk_components(msg.components) if c.get("type") == 10
        ]
        text = "\n".join(texts)
        am = body.get("allowed_mentions")
        msg.allowed_mentions = am
        parse = set((am or {}).get("parse") or [])
        # Discord resolves mentions as written (a backslash before one only changes how clients show
        # it), and lets through what allowed_mentions allows: without it, everything.
        users = {int(u) for u in (am or {}).get("users") or []}
        roles = {int(r) for r in (am or {}).get("roles") or []}
        for uid in dict.fromkeys(int(u) for u in re.findall(r"<@!?(\d+)>", text)):
            if am is None or "users" in parse or uid in users:
                msg.mentions.append(uid)
        for rid in dict.fromkeys(int(r) for r in re.findall(r"<@&(\d+)>", text)):
            if am is None or "roles" in parse or rid in roles:
                msg.mention_roles.append(rid)
        msg.mention_everyone = bool(re.search(r"@(everyone|here)\b", text)) and (
            am is None or "everyone" in parse
        )
        guild = self.guilds.get(msg.guild_id) if msg.guild_id else None
        notified: list[int] = list(msg.mentions)
        if guild is not None and (msg.mention_everyone or msg.mention_roles):  # else no member is added
            for member in guild.members.values():
                if msg.mention_everyone or set(member.roles) & set(msg.mention_roles):
                    notified.append(member.user.id)
        for uid in dict.fromkeys(notified):
            user = self.users.get(uid)
            if user is None or user.bot or not self.can_see(user, msg):
                continue
            self.pings.append(Ping(uid, msg.id, msg.channel_id, self.clock()))

    def _user_obj(self, user) -> User:
        from .users import FakeMember

        if isinstance(user, FakeMember):
            return user.user
        if isinstance(user, User):
            return user
        if isinstance(user, str):
            return self.user(user).user
        if isinstance(user, int) and user in self.users:
            return self.users[user]
        raise FakeDiscordError(f"unknown user {user!r}")

    async def wait_for(self, predicate: Callable[[], Any], timeout: float = 5.0) -> Any:
        """Wait until predicate() is truthy (re-checked on every change in the fake, and every 50 ms);
        returns its value. Every waiter is checked in one pass, once per turn of the event loop that saw
        changes: a waiter costs no task, timer or wake-up of its own (a load bench has hundreds)."""
        value = predicate()
        if value:
            return value
        loop = asyncio.get_running_loop()
        future: asyncio.Future = loop.create_future()
        key = object()
        self._waiters[key] = (predicate, future)
        if self._poll is None:
            self._poll = loop.call_later(WAIT_POLL, self._polled)
        try:
            async with asyncio.timeout(timeout):
                return await future
        except TimeoutError:
            raise TimeoutError(f"fake discord: condition not met within {timeout}s") from None
        finally:
            del self._waiters[key]

    def _check_waiters(self) -> None:
        self._check_due = False
        for predicate, future in list(self._waiters.values()):
            if future.done():
                continue
            try:
                value = predicate()
            except Exception as e:  # noqa: BLE001 - raised in the waiter, as a predicate's own error
                future.set_exception(e)
                continue
            if value:
                future.set_result(value)

    def _polled(self) -> None:
        """Every 50 ms while anyone waits: a predicate may turn on what no change of the fake marks."""
        self._poll = None
        if self._waiters:
            self._check_waiters()
            self._poll = asyncio.get_running_loop().call_later(WAIT_POLL, self._polled)

    async def bot_request(
        self,
        method: str,
        path: str,
        *,
        json_body: Any = None,
        files: list[tuple[str, bytes]] | None = None,
        auth: bool = True,
        params: dict | None = None,
    ) -> tuple[int, dict[str, str], Any]:
        """A raw REST call as the bot would make it (no discord.py): returns (status, headers, body).
        With files, sends multipart (payload_json + files[n])."""
        import aiohttp

        headers = {"Authorization": "Bot fake-token"} if auth else {}
        url = self.api_base + path
        async with aiohttp.ClientSession() as session:
            if files:
                form = aiohttp.FormData(quote_fields=False)
                form.add_field("payload_json", json.dumps(json_body or {}), content_type="application/json")
                for i, (name, blob) in enumerate(files):
                    form.add_field(
                        f"files[{i}]", blob, filename=name, content_type="application/octet-stream"
                    )
                kwargs: dict[str, Any] = {"data": form}
            elif json_body is not None:
                headers["Content-Type"] = "application/json"
                kwargs = {"data": json.dumps(json_body)}
            else:
                kwargs = {}
            async with session.request(method, url, headers=headers, params=params, **kwargs) as resp:
                raw = await resp.read()
                body: Any = raw.decode() if raw else None
                if resp.headers.get("Content-Type") == "application/json" and raw:
                    body = json.loads(raw)
                return resp.status, dict(resp.headers), body

    def _changed(self) -> None:
        if self._waiters and not self._check_due:
            self._check_due = True
            asyncio.get_running_loop().call_soon(self._check_waiters)

    # ------------------------------------------------------------------ HTTP plumbing
    async def _attachment(self, request: web.Request) -> web.Response:
        aid = request.match_info["aid"]
        uploads = [a for a in self.uploads.values() if str(a.id) == aid]
        for a in [*uploads, *(a for m in self.messages.values() for a in m.attachments)]:
            if str(a.id) == aid:
                return web.Response(body=a.data, content_type=a.content_type or "application/octet-stream")
        return web.Response(status=404)

    async def _api(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["tail"]
        key = f"{request.method} {path}"
        route = _match_route(request.method, path)
        if route is None:
            template, exempt = key, False
        else:
            template, exempt = route[2], route[1] in EXEMPT_HANDLERS
        fault = self.faults.match(key)
        if fault is not None:
            self.requests.append((key, fault.status))
            self._calls.record(template, fault.status, exempt=exempt, bucket=f"fault {template}")
            return fault
        if route is None:
            self.unhandled.append(key)
            self.requests.append((key, 404))
            self._calls.record(template, 404, exempt=exempt)
            return _json(404, {"message": "404: Not Found", "code": 0})
        params, handler, _, auth, major = route
        if auth and not request.headers.get("Authorization", "").startswith("Bot "):
            self.requests.append((key, 401))
            self._calls.record(template, 401, exempt=exempt)
            return _json(401, {"message": "401: Unauthorized", "code": 0})
        rl_headers: dict[str, str] = {}
        if self.rate_limits_enabled:
            limited, rl_headers, bucket = self._limiter.check(template, major, exempt=exempt)
            if limited is not None:
                self.requests.append((key, 429))
                self._calls.record(template, 429, exempt=exempt, bucket=bucket)
                return limited
        try:
            result = await getattr(self, handler)(request, **params)
        except ApiError as err:
            self.requests.append((key, err.status))
            self._calls.record(template, err.status, exempt=exempt)
            return _json(err.status, err.body(), {**rl_headers, **err.headers})
        status = 204 if result is None else 200
        self.requests.append((key, status))
        self._calls.record(template, status, exempt=exempt)
        if result is None:
            return web.Response(status=204, headers=rl_headers)
        return _json(200, result, rl_headers)

    async def _read(self, request: web.Request) -> tuple[dict, list[dict]]:
        """JSON body or multipart (payload_json + files[n]) -> (payload, files)."""
        files: list[dict] = []
        payload: dict = {}
        # the media type read directly: aiohttp's ``content_type`` parses the header through the email
        # package, and its cache never hits a multipart body's header (a new boundary each time)
        media_type = request.headers.get("Content-Type", "").partition(";")[0].strip().lower()
        if media_type == "multipart/form-data":
            body = await request.read()
            parts = formdata.plain_parts(request.headers.get(hdrs.CONTENT_TYPE, ""), body)
            if parts is None:  # not discord.py's plain shape: aiohttp's reader, as before
                parts = await formdata.parts_by_aiohttp(request.headers, body, frozenset({"payload_json"}))
            for part in parts:
                name, filename = _form_field(part.headers.get(hdrs.CONTENT_DISPOSITION))
                if name == "payload_json":
                    payload = json_loads(part.text())
                elif name.startswith("files[") or name.startswith("file"):
                    m = re.match(r"files?\[?(\d*)\]?", name)
                    idx = int(m.group(1)) if m and m.group(1) else len(files)
                    files.append(
                        {
                            "index": idx,
                            "filename": filename or f"file{idx}",
                            "data": part.data,
                            "content_type": part.headers.get("Content-Type"),
                        }
                    )
            return payload, files
        if request.can_read_body:
            raw = await request.read()
            if raw:
                try:
                    payload = json_loads(raw)
                except ValueError:
                    raise ApiError(400, 50109, "The request body contains invalid JSON.") from None
        return payload, files

    # ------------------------------------------------------------------ message helpers
    def _attachments(
        self, channel: Channel, body: dict, files: list[dict], existing: list[Attachment] | None
    ) -> list[Attachment]:
        by_index = {f["index"]: f for f in files}
        used: set[int] = set()
        result: list[Attachment] = []
        refs = body.get("attachments")
        old = {str(a.id): a for a in (existing or [])}
        if refs is None:
            result = list(existing or [])
            refs = []
        for ref in refs:
            rid = str(ref.get("id"))
            if rid in old:
                result.append(old[rid])
            elif rid.isdigit() and int(rid) in by_index:
                f = by_index[int(rid)]
                used.add(int(rid))
                result.append(self._new_attachment(channel, f, ref.get("filename"), ref.get("description")))
        for idx, f in sorted(by_index.items()):
            if idx not in used:
                result.append(self._new_attachment(channel, f, None, None))
        return result

    def _new_attachment(self, channel: Channel, f: dict, filename: str | None, description: str | None):
        aid = self.snow()
        name = filename or f["filename"]
        ctype = f.get("content_type")
        if not ctype or ctype == "application/octet-stream":
            ctype = {
                "png": "image/png",
                "txt": "text/plain",
                "json": "application/json",
                "jpg": "image/jpeg",
            }.get(name.rsplit(".", 1)[-1].lower(), ctype)
        return Attachment(
            aid,
            name,
            f["data"],
            ctype,
            description,
            url=f"{self.base_url}/attachments/{channel.id}/{aid}/{name}",
        )

    def _check_send(self, channel: Channel, files: list[dict]) -> None:
        if channel.type == DM:
            assert channel.recipient is not None
            if channel.recipient.dms_blocked or channel.recipient.bot:
                raise E.cannot_dm()
            return
        perms = self._perms(self.bot_user.id, channel)
        if not perms & VIEW_CHANNEL:
            raise E.missing_access()
        if not perms & (SEND_MESSAGES_IN_THREADS if channel.is_thread else SEND_MESSAGES):
            raise E.missing_permissions()
        if files and not perms & ATTACH_FILES:
            raise E.missing_permissions()
        if channel.is_thread and channel.archived:
            raise ApiError(400, 50083, "Thread is archived")

    def _create_message(
        self,
        channel: Channel,
        author: User,
        body: dict,
        files: list[dict],
        *,
        flags_allowed: int = ALLOWED_SEND_FLAGS,
        ephemeral_for: int | None = None,
        interaction: Interaction | None = None,
        webhook: bool = False,
        extra_flags: int = 0,
        validate: bool = True,
    ) -> Message:
        flags = (int(body.get("flags") or 0) & flags_allowed) | extra_flags
        body = {**body, "flags": flags}
        attachments = self._attachments(channel, body, files, None)
        if validate:
            n_att = len([r for r in body.get("attachments") or []]) or len(files)
            check_message(
                body, files, final_attachments=n_att, attachment_names={a.filename for a in attachments}
            )
        if flags & FLAG_EPHEMERAL and ephemeral_for is None and interaction is not None:
            ephemeral_for = interaction.user.id
        embeds = body.get("embeds") or ([body["embed"]] if body.get("embed") else [])
        mtype = 0
        if interaction is not None:
            mtype = 20 if interaction.type == 2 else 19 if interaction.type == 3 else 0
        msg = Message(
            self,
            id=self.snow(),
            channel=channel,
            author=author,
            content=body.get("content") or "",
            embeds=embeds,
            components=self._stored_components(body.get("components"), flags, attachments),
            flags=flags,
            ephemeral_for=ephemeral_for,
            interaction=interaction,
            type=mtype,
            webhook_id=self.application_id if webhook else None,
        )
        msg.attachments = attachments
        self.messages[msg.id] = msg
        self.channel_log.setdefault(channel.id, []).append(msg)
        channel.changes += 1
        if not msg.ephemeral:
            channel.last_message_id = msg.id
            self._dispatch_message("MESSAGE_CREATE", msg)
        self._record_pings(msg, body)
        self._changed()
        return msg

    @staticmethod
    def _stored_components(
        components: list[dict] | None, flags: int, attachments: list[Attachment]
    ) -> list[dict]:
        """Components as Discord stores them: v2 ones get sequential ids where none was given, and
        `attachment://name` media point at the uploaded attachment (url, attachment_id)."""
        comps = json_copy(list(components or []))
        if flags & FLAG_COMPONENTS_V2:
            assign_component_ids(comps)
            resolve_media(comps, attachments)
        return comps

    def _edit_message(self, msg: Message, body: dict, files: list[dict], *, validate: bool = True) -> Message:
        if msg.deleted:
            raise E.unknown_message()
        merged = {
            "content": body["content"] if "content" in body else msg.content,
            "embeds": body["embeds"]
            if "embeds" in body
            else ([body["embed"]] if body.get("embed") else msg.embeds),
            "components": body["components"] if "components" in body else msg.components,
            "flags": msg.flags,
        }
        if "flags" in body and body["flags"] is not None:
            keep = msg.flags & (FLAG_EPHEMERAL | FLAG_COMPONENTS_V2)
            merged["flags"] = keep | (int(body["flags"]) & (FLAG_SUPPRESS_EMBEDS | FLAG_COMPONENTS_V2))
        attachments = self._attachments(msg.channel, body, files, msg.attachments)
        if validate:
            check_message(merged, files, existing=True, attachment_names={a.filename for a in attachments})
        if not (merged["content"] or merged["embeds"] or merged["components"] or attachments):
            raise E.empty_message()
        msg.edits.append(msg.snapshot(replaced=True))
        msg.content = merged["content"] or ""
        msg.embeds = list(merged["embeds"] or [])
        msg.components = self._stored_components(merged["components"], merged["flags"], attachments)
        msg.flags = merged["flags"] & ~FLAG_LOADING
        msg.attachments = attachments
        msg.edited = time.time()
        msg.version += 1
        msg.channel.changes += 1
        if not msg.ephemeral:
            self._dispatch_message("MESSAGE_UPDATE", msg)
        for rec in list(self._watch.get(msg.id, ())):
            rec.touch()
        self._changed()
        return msg

    def _delete_message(self, msg: Message) -> None:
        msg.deleted = True
        msg.channel.changes += 1
        if not msg.ephemeral:
            data = {"id": str(msg.id), "channel_id": str(msg.channel_id)}
            if msg.guild_id:
                data["guild_id"] = str(msg.guild_id)
            self._dispatch_message("MESSAGE_DELETE", msg, data)
        for rec in list(self._watch.get(msg.id, ())):
            rec.touch()
        self._changed()

    def _dispatch_message(self, event: str, msg: Message, data: dict | None = None) -> None:
        intent = INTENT_DM_MESSAGES if msg.channel.type == DM else INTENT_GUILD_MESSAGES
        sessions = [s for s in self.gateway.sessions_for(msg.channel.guild_id) if s.intents & intent]
        if not sessions:
            return  # no session asked for these events (a bot without message intents): nothing to build
        payload = data if data is not None else msg.to_payload(copy=False)
        redacted = payload
        if (
            data is None
            and msg.author.id != self.bot_user.id
            and msg.channel.type != DM
            and f"<@{self.bot_user.id}>" not in msg.content
        ):
            # without MESSAGE_CONTENT, Discord blanks other people's messages that do not mention the bot
            redacted = {**payload, "content": "", "embeds": [], "attachments": [], "components": []}
        for s in sessions:
            s.dispatch(event, payload if s.intents & INTENT_MESSAGE_CONTENT else redacted)

    def _get_channel(self, channel_id: str) -> Channel:
        ch = self.channels.get(int(channel_id))
        if ch is None:
            raise E.unknown_channel()
        if ch.type == GROUP_DM or (ch.guild_id is not None and not self.bot_in(ch.guild_id)):
            raise E.missing_access()  # the bot is never in a group DM, nor in a server it was not added to
        return ch

    def _get_channel_message(self, channel: Channel, message_id: str) -> Message:
        msg = self.messages.get(int(message_id)) if message_id.isdigit() else None
        if msg is None or msg.deleted or msg.channel_id != channel.id or msg.ephemeral:
            raise E.unknown_message()
        return msg

    # ------------------------------------------------------------------ REST: identity
    async def get_me(self, request):
        return {
            **self.bot_user.to_payload(),
            "verified": True,
            "mfa_enabled": False,
            "email": None,
            "locale": "en-US",
            "premium_type": 0,
        }

    async def get_application(self, request):
        return {
            "id": str(self.application_id),
            "name": self.bot_user.name,
            "icon": None,
            "description": "",
            "rpc_origins": [],
            "bot_public": True,
            "bot_require_code_grant": False,
            "owner": self.owner.to_payload(),
            "team": None,
            "verify_key": "0" * 64,
            "flags": 0,
            "summary": "",
            "guild_id": None,
            "bot": self.bot_user.to_payload(),
            "tags": [],
            "interactions_endpoint_url": None,
            "approximate_guild_count": 1,
            "redirect_uris": [],
            "integration_types_config": {"0": {}},
        }

    async def get_gateway(self, request):
        return {"url": self.gateway_url}

    async def get_gateway_bot(self, request):
        return {
            "url": self.gateway_url,
            "shards": self.shards,
            "session_start_limit": {
                "total": 1000,
                "remaining": max(0, 1000 - self.gateway.identifies),
                "reset_after": 0,
                "max_concurrency": 1,
            },
        }

    async def get_user(self, request, user_id):
        u = self.users.get(int(user_id)) if user_id.isdigit() else None
        if u is None:
            raise ApiError(404, 10013, "Unknown User")
        return u.to_payload()

    async def get_guild(self, request, guild_id):
        g = self.guilds.get(int(guild_id)) if self.bot_in(int(guild_id)) else None
        if g is None:
            raise ApiError(404, 10004, "Unknown Guild")
        data = g.to_payload()
        for k in ("members", "channels", "threads", "presences", "voice_states", "joined_at", "large"):
            data.pop(k, None)
        data["approximate_member_count"] = len(g.members)
        return data

    async def get_guild_channels(self, request, guild_id):
        g = self.guilds.get(int(guild_id)) if self.bot_in(int(guild_id)) else None
        if g is None:
            raise missing_access_guild()
        return [c.to_payload() for c in g.channels.values() if not c.is_thread]

    async def get_guild_member(self, request, guild_id, user_id):
        g = self.guilds.get(int(guild_id)) if self.bot_in(int(guild_id)) else None
        if g is None:
            raise missing_access_guild()
        m = g.members.get(int(user_id))
        if m is None:
            raise ApiError(404, 10007, "Unknown Member")
        return m.to_payload()

    # ------------------------------------------------------------------ REST: commands
    def _store_commands(self, payload: list[dict], existing: list[dict], guild_id: int | None) -> list[dict]:
        if not isinstance(payload, list):
            raise ApiError(400, 50035, "Invalid Form Body")
        if len(payload) > 100:
            raise ApiError(400, 30032, "Maximum number of application commands reached (100)")
        old = {(c["name"], c.get("type", 1)): c for c in existing}
        out = []
        for cmd in payload:
            name = cmd.get("name", "")
            if not re.fullmatch(r"[-_\w]{1,32}", name) or (cmd.get("type", 1) == 1 and name != name.lower()):
                raise ApiError(
                    400,
                    50035,
                    "Invalid Form Body",
                    errors={
                        "name": {
                            "_errors": [
                                {
                                    "code": "APPLICATION_COMMAND_INVALID_NAME",
                                    "message": f"Command name is invalid: {name!r}",
                                }
                            ]
                        }
                    },
                )
            _check_install_fields(cmd)
            check_command_localizations(cmd)
            prev = old.get((name, cmd.get("type", 1)))
            stored = {
                "id": prev["id"] if prev else str(self.snow()),
                "application_id": str(self.application_id),
                "version": str(self.snow()),
                "type": 1,
                "description": "",
                "options": [],
                "default_member_permissions": None,
                "dm_permission": True,
                "nsfw": False,
                **cmd,
                # null (discord.py sends it when a command does not say): the app's default, a guild install
                "integration_types": cmd.get("integration_types") or [0],
                "contexts": cmd.get("contexts"),
            }
            if guild_id is not None:
                stored["guild_id"] = str(guild_id)
            out.append(stored)
        return out

    async def get_global_commands(self, request, app_id):
        return self.global_commands

    async def put_global_commands(self, request, app_id):
        payload, _ = await self._read(request)
        self.global_commands = self._store_commands(payload, self.global_commands, None)
        self._changed()
        return self.global_commands

    async def post_global_command(self, request, app_id):
        payload, _ = await self._read(request)
        stored = self._store_commands([payload], self.global_commands, None)[0]
        self.global_commands = [c for c in self.global_commands if c["name"] != stored["name"]] + [stored]
        return stored

    async def delete_global_command(self, request, app_id, command_id):
        self.global_commands = [c for c in self.global_commands if c["id"] != command_id]
        return None

    async def get_guild_commands(self, request, app_id, guild_id):
        return self.guild_commands.get(int(guild_id), [])

    async def put_guild_commands(self, request, app_id, guild_id):
        payload, _ = await self._read(request)
        gid = int(guild_id)
        if not self.bot_in(gid):
            raise missing_access_guild()
        self.guild_commands[gid] = self._store_commands(payload, self.guild_commands.get(gid, []), gid)
        self._changed()
        return self.guild_commands[gid]

    # ------------------------------------------------------------------ REST: channels & messages
    async def get_channel(self, request, channel_id):
        return self._get_channel(channel_id).to_payload()

    async def patch_channel(self, request, channel_id):
        ch = self._get_channel(channel_id)
        payload, _ = await self._read(request)
        if "name" in payload:
            ch.name = payload["name"]
        if "archived" in payload and ch.is_thread:
            ch.archived = bool(payload["archived"])
        event = "THREAD_UPDATE" if ch.is_thread else "CHANNEL_UPDATE"
        self.gateway.dispatch(event, ch.to_payload())
        self._changed()
        return ch.to_payload()

    async def delete_channel(self, request, channel_id):
        ch = self._get_channel(channel_id)
        if not ch.is_thread:
            raise E.missing_permissions()
        del self.channels[ch.id]
        self.guilds[ch.guild_id].channels.pop(ch.id, None)
        self.gateway.dispatch(
            "THREAD_DELETE",
            {"id": str(ch.id), "guild_id": str(ch.guild_id), "parent_id": str(ch.parent_id), "type": ch.type},
        )
        self._changed()
        return ch.to_payload()

    async def post_message(self, request, channel_id):
        ch = self._get_channel(channel_id)
        payload, files = await self._read(request)
        self._check_send(ch, files)
        msg = self._create_message(ch, self.bot_user, payload, files)
        return msg.to_payload(copy=False)

    async def get_messages(self, request, channel_id):
        ch = self._get_channel(channel_id)
        msgs = [m for m in self.channel_log.get(ch.id, []) if not m.deleted and not m.ephemeral]
        q = request.query
        limit = max(1, min(100, int(q.get("limit", 50))))
        if "before" in q:
            msgs = [m for m in msgs if m.id < int(q["before"])]
        if "after" in q:
            msgs = [m for m in msgs if m.id > int(q["after"])][:limit]
            return [m.to_payload(copy=False) for m in reversed(msgs)]
        return [m.to_payload(copy=False) for m in reversed(msgs[-limit:])]

    async def get_message(self, request, channel_id, message_id):
        ch = self._get_channel(channel_id)
        return self._get_channel_message(ch, message_id).to_payload(copy=False)

    async def patch_message(self, request, channel_id, message_id):
        ch = self._get_channel(channel_id)
        msg = self._get_channel_message(ch, message_id)
        payload, files = await self._read(request)
        if msg.author.id != self.bot_user.id:
            raise E.cannot_edit_other()
        if files:
            self._check_send(ch, files)
        elif ch.type == DM and msg.channel.recipient is not None and msg.channel.recipient.dms_blocked:
            raise E.cannot_dm()
        return self._edit_message(msg, payload, files).to_payload(copy=False)

    async def delete_message(self, request, channel_id, message_id):
        ch = self._get_channel(channel_id)
        msg = self._get_channel_message(ch, message_id)
        self._delete_message(msg)
        return None

    async def typing(self, request, channel_id):
        self._get_channel(channel_id)
        return None

    async def put_reaction(self, request, channel_id, message_id, emoji):
        ch = self._get_channel(channel_id)
        self._get_channel_message(ch, message_id)
        return None

    async def create_dm(self, request):
        payload, _ = await self._read(request)
        rid = payload.get("recipient_id")
        user = self.users.get(int(rid)) if rid is not None and str(rid).isdigit() else None
        if user is None:
            raise ApiError(400, 50033, "Invalid Recipient(s)")
        return self._dm_with(user).to_payload()

    def _new_thread(self, parent: Channel, name: str, ttype: int, thread_id: int | None = None) -> Channel:
        if parent.type != GUILD_TEXT:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        perms = self._perms(self.bot_user.id, parent)
        need = CREATE_PRIVATE_THREADS if ttype == PRIVATE_THREAD else CREATE_PUBLIC_THREADS
        if not perms & VIEW_CHANNEL:
            raise E.missing_access()
        if not perms & need:
            raise E.missing_permissions()
        if not name or len(name) > 100:
            raise ApiError(
                400,
                50035,
                "Invalid Form Body",
                errors={
                    "name": {
                        "_errors": [
                            {
                                "code": "BASE_TYPE_BAD_LENGTH",
                                "message": "Must be between 1 and 100 in length.",
                            }
                        ]
                    }
                },
            )
        th = Channel(
            thread_id or self.snow(),
            ttype,
            name,
            guild_id=parent.guild_id,
            parent_id=parent.id,
            owner_id=self.bot_user.id,
            thread_members={self.bot_user.id},
        )
        self.channels[th.id] = th
        self.guilds[parent.guild_id].channels[th.id] = th
        self.channel_log[th.id] = []
        self.gateway.dispatch("THREAD_CREATE", {**th.to_payload(), "newly_created": True})
        self._changed()
        return th

    async def start_thread(self, request, channel_id):
        parent = self._get_channel(channel_id)
        payload, _ = await self._read(request)
        ttype = int(payload.get("type") or PRIVATE_THREAD)
        return self._new_thread(parent, payload.get("name", ""), ttype).to_payload()

    async def start_thread_from_message(self, request, channel_id, message_id):
        parent = self._get_channel(channel_id)
        msg = self._get_channel_message(parent, message_id)
        if msg.id in self.channels:
            raise ApiError(400, 160004, "A thread has already been created for this message")
        payload, _ = await self._read(request)
        return self._new_thread(parent, payload.get("name", ""), PUBLIC_THREAD, thread_id=msg.id).to_payload()

    async def add_thread_member(self, request, channel_id, user_id):
        th = self._get_channel(channel_id)
        if not th.is_thread:
            raise ApiError(400, 50024, "Cannot execute action on this channel type")
        uid = self.bot_user.id if user_id == "@me" else int(user_id)
        if th.guild_id is None or uid not in self.guilds[th.guild_id].members:
            raise ApiError(404, 10007, "Unknown Member")
        th.thread_members.add(uid)
        self._changed()
        return None

    async def remove_thread_member(self, request, channel_id, user_id):
        th = self._get_channel(channel_id)
        uid = self.bot_user.id if user_id == "@me" else int(user_id)
        th.thread_members.discard(uid)
        self._changed()
        return None

    # ------------------------------------------------------------------ interactions
    def _new_interaction(
        self,
        user: User,
        channel: Channel,
        itype: int,
        data: dict,
        message: Message | None = None,
        command_name: str = "",
    ) -> Interaction:
        rec = Interaction(
            self,
            id=self.snow(),
            token="fakeinteraction." + secrets.token_urlsafe(32),
            type=itype,
            user=user,
            channel=channel,
            data=data,
            message=message,
            command_name=command_name,
        )
        self.interactions[rec.id] = rec
        self.by_token[rec.token] = rec
        if message is not None:
            self._watch.setdefault(message.id, set()).add(rec)
        payload = self._interaction_payload(rec)
        rec.delivered_to = self.gateway.dispatch("INTERACTION_CREATE", payload, guild_id=channel.guild_id)
        if not rec.delivered_to:
            # no session runs the shard of this guild (DMs: shard 0): Discord has no one to send it to
            self.undelivered.append(rec)
        if itype != 1:
            rec.deadline_handle = asyncio.get_running_loop().call_later(
                self.interaction_timeout, self._initial_deadline, rec
            )
        return rec

    def _unwatch(self, rec: Interaction) -> None:
        if rec.message is not None:
            self._unwatch_message(rec, rec.message.id)

    def _unwatch_message(self, rec: Interaction, message_id: int) -> None:
        s = self._watch.get(message_id)
        if s is not None:
            s.discard(rec)
            if not s:
                del self._watch[message_id]

    def _initial_deadline(self, rec: Interaction) -> None:
        rec.deadline_handle = None
        if rec.response_type is None:
            rec.failed = True
            rec.touch()
            self._changed()

    def _interaction_payload(self, rec: Interaction) -> dict:
        ch = rec.channel
        data: dict[str, Any] = {
            "id": str(rec.id),
            "application_id": str(self.application_id),
            "type": rec.type,
            "token": rec.token,
            "version": 1,
            "data": rec.data,
            "channel_id": str(ch.id),
            "channel": ch.to_payload(),
            "locale": rec.user.locale,
            "entitlements": [],
            "entitlement_sku_ids": [],
            "attachment_size_limit": 10 * 1024 * 1024,
        }
        if ch.guild_id:
            guild = self.guilds[ch.guild_id]
            data["guild_id"] = str(guild.id)
            data["guild"] = {"id": str(guild.id), "locale": guild.locale, "features": []}
            data["guild_locale"] = guild.locale
            data["member"] = guild.members[rec.user.id].to_payload(
                permissions=guild.permissions_in(rec.user.id, ch)
            )
            # without the bot in the server (a user install) it has no permissions of its own there: what
            # it may do is answer the interaction
            bot_in = self.bot_in(guild.id)
            data["app_permissions"] = str(
                guild.permissions_in(self.bot_user.id, ch) if bot_in else EVERYONE_PERMS
            )
        else:
            data["user"] = rec.user.to_payload()
            data["app_permissions"] = str(EVERYONE_PERMS)
        data["context"] = context_of(ch)
        data["authorizing_integration_owners"] = self._owners(rec)
        if rec.message is not None:
            data["message"] = rec.message.to_payload(copy=False)
        return data

    def command_of(self, data: dict) -> dict | None:
        """The registered command an application command's data names (by id), None if none."""
        pools = [self.global_commands, *self.guild_commands.values()]
        return next((c for pool in pools for c in pool if c["id"] == data.get("id")), None)

    def _owners(self, rec: Interaction) -> dict[str, str]:
        """``authorizing_integration_owners``: per installation type that authorised this interaction,
        its owner: "0" (a guild install) the guild's id, or "0" in the bot's DM; "1" (a user install) the
        user's id. A command of a guild install only is authorised by the guild (or the bot's DM); a
        user-installable one by the user too when they installed the app; a group DM only by the user."""
        context = context_of(rec.channel)
        command = self.command_of(rec.data) if rec.type in (2, 4) else None
        types = (command or {}).get("integration_types") or [0, 1]  # a component: whatever installed it
        owners: dict[str, str] = {}
        if 0 in types and context == BOT_DM:
            owners["0"] = "0"
        elif 0 in types and context == GUILD and self.bot_in(rec.channel.guild_id):
            owners["0"] = str(rec.channel.guild_id)
        if 1 in types and rec.user.app_installed:
            owners["1"] = str(rec.user.id)
        return owners

    def _token_record(self, app_id: str, token: str) -> Interaction:
        rec = self.by_token.get(token)
        if rec is None or app_id != str(self.application_id):
            raise E.unknown_webhook()
        if time.monotonic() - rec.created > self.token_ttl:
            raise E.invalid_webhook_token()
        if rec.failed or rec.response_type is None:
            raise E.unknown_webhook()
        if rec.channel is not None and rec.channel.id not in self.channels:
            raise E.unknown_channel()  # the interaction's channel (or thread) was deleted since
        return rec

    def _callback_result(self, rec: Interaction, resource_type: int, msg: Message | None) -> dict:
        out: dict[str, Any] = {
            "interaction": {
                "id": str(rec.id),
                "type": rec.type,
                "response_message_loading": bool(msg is not None and msg.loading),
                "response_message_ephemeral": bool(msg is not None and msg.ephemeral),
            }
        }
        if msg is not None:
            out["interaction"]["response_message_id"] = str(msg.id)
        out["resource"] = {"type": resource_type}
        if msg is not None:
            out["resource"]["message"] = msg.to_payload(copy=False)
        return out

    async def interaction_callback(self, request, interaction_id, token):
        rec = self.interactions.get(int(interaction_id)) if interaction_id.isdigit() else None
        payload, files = await self._read(request)
        if rec is None or rec.token != token:
            raise E.unknown_interaction()
        if rec.failed or time.monotonic() - rec.created > self.token_ttl:
            raise E.unknown_interaction()
        if rec.response_type is not None:
            raise E.already_acknowledged()
        rtype = payload.get("type")
        data = payload.get("data") or {}
        msg: Message | None = None
        if rtype == 1:
            if rec.type != 1:
                raise _bad_type("PONG is only for PING interactions")
        elif rtype == 4:
            if rec.type == 4:
                raise _bad_type("autocomplete interactions take type 8")
            msg = self._create_message(
                rec.channel,
                self.bot_user,
                data,
                files,
                flags_allowed=ALLOWED_SEND_FLAGS | FLAG_EPHEMERAL,
                interaction=rec,
                webhook=True,
            )
            rec.original = msg
        elif rtype == 5:
            if rec.type == 4:
                raise _bad_type("autocomplete interactions take type 8")
            if int(data.get("flags") or 0) & FLAG_COMPONENTS_V2:
                # Discord: with a deferred response the only valid flag is EPHEMERAL; a v2 message is made
                # by editing the original response (receiving-and-responding: interaction callback data)
                raise ApiError(
                    400,
                    50035,
                    "Invalid Form Body",
                    errors={
                        "data": {
                            "flags": {
                                "_errors": [
                                    {
                                        "code": "INTERACTION_CALLBACK_FLAGS_INVALID",
                                        "message": "A deferred response may only set EPHEMERAL; set IS_COMPONENTS_V2 by editing "
                                        "the original response",
                                    }
                                ]
                            }
                        }
                    },
                )
            eph = int(data.get("flags") or 0) & FLAG_EPHEMERAL
            msg = self._create_message(
                rec.channel,
                self.bot_user,
                {},
                [],
                interaction=rec,
                webhook=True,
                flags_allowed=0,
                extra_flags=FLAG_LOADING | eph,
                validate=False,
            )
            rec.original = msg
        elif rtype in (6, 7):
            if rec.type not in (3, 5) or rec.message is None:
                raise _bad_type("this interaction has no message to update")
            rec.original = rec.message
            if rtype == 7:
                self._edit_message(rec.message, data, files)
            msg = rec.message if rtype == 7 else None
        elif rtype == 8:
            if rec.type != 4:
                raise _bad_type("autocomplete results only answer autocomplete interactions")
            choices = data.get("choices") or []
            check_choices(choices)
            rec.choices = choices
        elif rtype == 9:
            if rec.type in (4, 5):
                raise _bad_type("a modal cannot answer this interaction type")
            check_modal(data)
            rec.modal = data
        else:
            raise _bad_type(f"unsupported response type {rtype}")
        rec.response_type = rtype
        rec.acked_at = time.monotonic()
        if rec.deadline_handle is not None:
            rec.deadline_handle.cancel()
            rec.deadline_handle = None
        rec.touch()
        self._changed()
        if request.query.get("with_response") in ("1", "true", "True"):
            return self._callback_result(rec, rtype, msg)
        return None

    def _webhook_message(self, rec: Interaction, message_id: str) -> Message:
        if message_id == "@original":
            msg = rec.original
        else:
            msg = self.messages.get(int(message_id)) if message_id.isdigit() else None
            if msg is not None and msg is not rec.original and msg not in rec.followups:
                msg = None
        if msg is None or msg.deleted:
            raise E.unknown_message()
        return msg

    async def webhook_execute(self, request, app_id, token):
        payload, files = await self._read(request)
        rec = self._token_record(app_id, token)
        orig = rec.original
        if orig is not None and orig.loading and rec.response_type == 5 and not orig.deleted:
            # the first follow-up after a deferred "thinking" response replaces the loading message (its
            # ephemeral state was fixed by the deferral; IS_COMPONENTS_V2 may be set here as in an edit)
            msg = self._edit_message(orig, payload, files)
        else:
            msg = self._create_message(
                rec.channel,
                self.bot_user,
                payload,
                files,
                flags_allowed=ALLOWED_SEND_FLAGS | FLAG_EPHEMERAL,
                interaction=rec,
                webhook=True,
            )
            rec.followups.append(msg)
        rec.touch()
        if request.query.get("wait") in ("1", "true", "True"):
            return msg.to_payload(copy=False)
        return None

    async def webhook_get(self, request, app_id, token, message_id):
        rec = self._token_record(app_id, token)
        return self._webhook_message(rec, message_id).to_payload(copy=False)

    async def webhook_edit(self, request, app_id, token, message_id):
        payload, files = await self._read(request)
        rec = self._token_record(app_id, token)
        msg = self._webhook_message(rec, message_id)
        self._edit_message(msg, payload, files)
        rec.touch()
        return msg.to_payload(copy=False)

    async def webhook_delete(self, request, app_id, token, message_id):
        rec = self._token_record(app_id, token)
        msg = self._webhook_message(rec, message_id)
        self._delete_message(msg)
        rec.touch()
        return None


def _bad_type(why: str) -> ApiError:
    return ApiError(
        400,
        50035,
        "Invalid Form Body",
        errors={"type": {"_errors": [{"code": "INTERACTION_RESPONSE_TYPE_INVALID", "message": why}]}},
    )


def missing_access_guild() -> ApiError:
    return ApiError(403, 50001, "Missing Access")


_S = r"(?P<{}>\d+)"
_RAW_ROUTES = [
    ("GET", r"/users/@me", "get_me", True),
    ("GET", r"/oauth2/applications/@me", "get_application", True),
    ("GET", r"/applications/@me", "get_application", True),
    ("GET", r"/gateway", "get_gateway", False),
    ("GET", r"/gateway/bot", "get_gateway_bot", True),
    ("GET", r"/users/(?P<user_id>\d+)", "get_user", True),
    ("POST", r"/users/@me/channels", "create_dm", True),
    ("GET", r"/guilds/(?P<guild_id>\d+)", "get_guild", True),
    ("GET", r"/guilds/(?P<guild_id>\d+)/channels", "get_guild_channels", True),
    ("GET", r"/guilds/(?P<guild_id>\d+)/members/(?P<user_id>\d+)", "get_guild_member", True),
    ("GET", r"/applications/(?P<app_id>\d+)/commands", "get_global_commands", True),
    ("PUT", r"/applications/(?P<app_id>\d+)/commands", "put_global_commands", True),
    ("POST", r"/applications/(?P<app_id>\d+)/commands", "post_global_command", True),
    ("DELETE", r"/applications/(?P<app_id>\d+)/commands/(?P<command_id>\d+)", "delete_global_command", True),
    ("GET", r"/applications/(?P<app_id>\d+)/guilds/(?P<guild_id>\d+)/commands", "get_guild_commands", True),
    ("PUT", r"/applications/(?P<app_id>\d+)/guilds/(?P<guild_id>\d+)/commands", "put_guild_commands", True),
    ("GET", r"/channels/(?P<channel_id>\d+)", "get_channel", True),
    ("PATCH", r"/channels/(?P<channel_id>\d+)", "patch_channel", True),
    ("DELETE", r"/channels/(?P<channel_id>\d+)", "delete_channel", True),
    ("POST", r"/channels/(?P<channel_id>\d+)/messages", "post_message", True),
    ("GET", r"/channels/(?P<channel_id>\d+)/messages", "get_messages", True),
    ("GET", r"/channels/(?P<channel_id>\d+)/messages/(?P<message_id>\d+)", "get_message", True),
    ("PATCH", r"/channels/(?P<channel_id>\d+)/messages/(?P<message_id>\d+)", "patch_message", True),
    ("DELETE", r"/channels/(?P<channel_id>\d+)/messages/(?P<message_id>\d+)", "delete_message", True),
    (
        "PUT",
        r"/channels/(?P<channel_id>\d+)/messages/(?P<message_id>\d+)/reactions/(?P<emoji>[^/]+)/@me",
        "put_reaction",
        True,
    ),
    ("POST", r"/channels/(?P<channel_id>\d+)/typing", "typing", True),
    ("POST", r"/channels/(?P<channel_id>\d+)/threads", "start_thread", True),
    (
        "POST",
        r"/channels/(?P<channel_id>\d+)/messages/(?P<message_id>\d+)/threads",
        "start_thread_from_message",
        True,
    ),
    ("PUT", r"/channels/(?P<channel_id>\d+)/thread-members/(?P<user_id>\d+|@me)", "add_thread_member", True),
    (
        "DELETE",
        r"/channels/(?P<channel_id>\d+)/thread-members/(?P<user_id>\d+|@me)",
        "remove_thread_member",
        True,
    ),
    (
        "POST",
        r"/interactions/(?P<interaction_id>\d+)/(?P<token>[^/]+)/callback",
        "interaction_callback",
        False,
    ),
    ("POST", r"/webhooks/(?P<app_id>\d+)/(?P<token>[^/]+)", "webhook_execute", False),
    (
        "GET",
        r"/webhooks/(?P<app_id>\d+)/(?P<token>[^/]+)/messages/(?P<message_id>@original|\d+)",
        "webhook_get",
        False,
    ),
    (
        "PATCH",
        r"/webhooks/(?P<app_id>\d+)/(?P<token>[^/]+)/messages/(?P<message_id>@original|\d+)",
        "webhook_edit",
        False,
    ),
    (
        "DELETE",
        r"/webhooks/(?P<app_id>\d+)/(?P<token>[^/]+)/messages/(?P<message_id>@original|\d+)",
        "webhook_delete",
        False,
    ),
]
_ROUTES = [(m, re.compile(p), h, a, re.sub(r"\(\?P<(\w+)>[^)]*\)", r"{\1}", p)) for m, p, h, a in _RAW_ROUTES]
# The routes by method and first segment of the path ("/channels/…"), in their order: a request tries only
# those that can match it (every pattern's first segment is literal)
_ROUTES_BY_START: dict[tuple[str, str], list[tuple]] = {}
for _route in _ROUTES:
    _ROUTES_BY_START.setdefault((_route[0], _route[1].pattern.split("/", 2)[1]), []).append(_route)
_MAJOR = ("channel_id", "guild_id", "token")  # Discord's major parameters (webhook id + token: the token)


def _match_route(method: str, path: str) -> tuple[dict, str, str, bool, str] | None:
    """-> (params, handler, template, needs auth, major parameter) for a served route, else None."""
    segments = path.split("/", 2)
    start = segments[1] if len(segments) > 1 else ""
    for m, pattern, handler, auth, template in _ROUTES_BY_START.get((method, start), ()):
        match = pattern.fullmatch(path)
        if match is None:
            continue
        params = match.groupdict()
        if params.get("message_id") == "@original":
            template = template.replace("{message_id}", "@original")
        major = next((params[k] for k in _MAJOR if k in params), "")
        return params, handler, f"{m} {template}", auth, major
    return None
