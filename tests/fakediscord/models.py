"""The loopback Discord's data model: snowflakes, users, guilds, channels, messages, interactions.

Everything here is plain Python; `to_payload()` methods build the JSON shapes of Discord API v10 that
discord.py parses (only the fields it reads, plus the usual empty ones).
"""

from __future__ import annotations

import asyncio
import copy
import datetime as dt
import functools
import itertools
import json
import marshal
import time
from dataclasses import dataclass, field
from typing import Any

import orjson

DISCORD_EPOCH_MS = 1420070400000

# Permission bits (https://discord.com/developers/docs/topics/permissions)
CREATE_INSTANT_INVITE = 1 << 0
ADMINISTRATOR = 1 << 3
ADD_REACTIONS = 1 << 6
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
MANAGE_MESSAGES = 1 << 13
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
USE_EXTERNAL_EMOJIS = 1 << 18
USE_APPLICATION_COMMANDS = 1 << 31
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
CREATE_PRIVATE_THREADS = 1 << 36
SEND_MESSAGES_IN_THREADS = 1 << 38

EVERYONE_PERMS = (
    CREATE_INSTANT_INVITE
    | ADD_REACTIONS
    | VIEW_CHANNEL
    | SEND_MESSAGES
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | USE_EXTERNAL_EMOJIS
    | USE_APPLICATION_COMMANDS
    | CREATE_PUBLIC_THREADS
    | CREATE_PRIVATE_THREADS
    | SEND_MESSAGES_IN_THREADS
)
BOT_ROLE_PERMS = EVERYONE_PERMS | MANAGE_MESSAGES | MANAGE_THREADS

# Message flags
FLAG_SUPPRESS_EMBEDS = 1 << 2
FLAG_EPHEMERAL = 1 << 6
FLAG_LOADING = 1 << 7
FLAG_SUPPRESS_NOTIFICATIONS = 1 << 12
FLAG_COMPONENTS_V2 = 1 << 15

# Channel types
GUILD_TEXT = 0
DM = 1
GROUP_DM = 3  # a DM of several users (a "private channel"); the bot is never one of them
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12
THREAD_TYPES = (10, PUBLIC_THREAD, PRIVATE_THREAD)


def json_copy(data: Any) -> Any:
    """A copy of JSON data (parsed from a request: dicts, lists, strings, numbers): marshal's round trip,
    several times faster than ``copy.deepcopy`` (the fake copies every message's components each time
    it is stored, shown or sent); anything else by deepcopy."""
    try:
        return marshal.loads(marshal.dumps(data))
    except ValueError:
        return copy.deepcopy(data)


def json_text(data: Any) -> str:
    """JSON text of a response or gateway event (orjson, as UTF-8 like Discord's; the json module for
    what orjson does not take, such as an integer beyond 64 bits)."""
    try:
        return orjson.dumps(data).decode()
    except TypeError:
        return json.dumps(data)


# Every digit as 0, so that a run of 19 digits is one substring search: orjson reads an integer beyond
# 64 bits as a float, the json module as an int
_DIGITS_AS_ZERO = bytes.maketrans(b"123456789", b"000000000")
_NINETEEN_DIGITS = b"0" * 19


def json_loads(raw: str | bytes) -> Any:
    """JSON of a request body, as the json module reads it: orjson where it reads the text as the json
    module does (RFC 8259 JSON in UTF-8 without a run of 19 digits or more, in a number or a string),
    else the json module itself (NaN, lone surrogates, UTF-16, long integers, and its errors)."""
    data = raw.encode("utf-8", "surrogatepass") if isinstance(raw, str) else raw
    if _NINETEEN_DIGITS not in data.translate(_DIGITS_AS_ZERO):
        try:
            return orjson.loads(raw)
        except orjson.JSONDecodeError:
            pass
    return json.loads(raw)


@functools.lru_cache(maxsize=4096)  # a message's timestamps are written in every payload of it
def iso(ts: float) -> str:
    return dt.datetime.fromtimestamp(ts, dt.UTC).isoformat()


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard Discord sends a guild's events to: ``(guild_id >> 22) % shard_count`` (the id's timestamp)."""
    return (guild_id >> 22) % shard_count


class Snowflakes:
    """Increasing snowflake ids that also carry a plausible timestamp (discord.py derives created_at)."""

    def __init__(self) -> None:
        self._last = 0
        self._seq = itertools.count()
        self._shard_seq = itertools.count()

    def on_shard(self, shard_id: int, shard_count: int) -> int:
        """A guild id on shard ``shard_id`` of ``shard_count``: its timestamp (the id >> 22) is moved back
        to the nearest millisecond that falls on that shard. Worker bit 17 set keeps these apart from the
        ids ``__call__`` makes (those use the low 12 bits only)."""
        if not 0 <= shard_id < shard_count:
            raise ValueError(f"shard {shard_id} is not one of 0..{shard_count - 1}")
        ts = int(time.time() * 1000) - DISCORD_EPOCH_MS
        ts -= (ts - shard_id) % shard_count
        gid = (ts << 22) | (1 << 17) | (next(self._shard_seq) & 0xFFF)
        assert shard_of(gid, shard_count) == shard_id
        return gid

    def __call__(self) -> int:
        now_ms = int(time.time() * 1000)
        candidate = ((now_ms - DISCORD_EPOCH_MS) << 22) | (next(self._seq) & 0xFFF)
        self._last = max(self._last + 1, candidate)
        return self._last


@dataclass
class User:
    id: int
    name: str
    bot: bool = False
    dms_blocked: bool = False
    # The display name (``global_name``) when a test sets one (anything a user may type); else the
    # username, title-cased.
    display_name: str | None = None
    # Authorised the app for their account (a user install): its user-installable commands follow them
    # into group DMs and servers without the bot.
    app_installed: bool = False
    # their Discord client's language: each interaction's ``locale`` (a test sets "pl", "it", …)
    locale: str = "en-US"

    def to_payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name,
            "discriminator": "0" if not self.bot else "0001",
            "global_name": None if self.bot else (self.display_name or self.name.title()),
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
            "flags": 0,
        }


@dataclass
class Role:
    id: int
    name: str
    permissions: int
    position: int = 0
    managed: bool = False
    mentionable: bool = False

    def to_payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "name": self.name,
            "permissions": str(self.permissions),
            "position": self.position,
            "color": 0,
            "colors": {"primary_color": 0},
            "hoist": False,
            "managed": self.managed,
            "mentionable": self.mentionable,
            "flags": 0,
            "icon": None,
            "unicode_emoji": None,
        }


@dataclass
class Member:
    user: User
    roles: list[int]
    joined_at: float

    def to_payload(self, permissions: int | None = None) -> dict[str, Any]:
        data = {
            "user": self.user.to_payload(),
            "roles": [str(r) for r in self.roles],
            "joined_at": iso(self.joined_at),
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "nick": None,
            "avatar": None,
            "premium_since": None,
            "communication_disabled_until": None,
        }
        if permissions is not None:
            data["permissions"] = str(permissions)
        return data


@dataclass
class Overwrite:
    id: int
    type: int  # 0 role, 1 member
    allow: int = 0
    deny: int = 0

    def to_payload(self) -> dict[str, Any]:
        return {"id": str(self.id), "type": self.type, "allow": str(self.allow), "deny": str(self.deny)}


@dataclass
class Channel:
    id: int
    type: int
    name: str | None
    guild_id: int | None = None
    position: int = 0
    parent_id: int | None = None
    overwrites: dict[int, Overwrite] = field(default_factory=dict)
    recipient: User | None = None  # DMs
    recipients: list[User] = field(default_factory=list)  # group DMs
    owner_id: int | None = None  # threads
    archived: bool = False
    thread_members: set[int] = field(default_factory=set)
    created: float = field(default_factory=time.time)
    last_message_id: int | None = None
    # bumped when a message of the channel is created, edited or deleted: a reader that scans the
    # channel's messages (a load bench's players, looking for their turn) scans again only after a change
    changes: int = field(default=0, compare=False)

    @property
    def is_dm(self) -> bool:
        return self.type == DM

    @property
    def is_thread(self) -> bool:
        return self.type in THREAD_TYPES

    def to_payload(self) -> dict[str, Any]:
        last = str(self.last_message_id) if self.last_message_id else None
        if self.type == DM:
            assert self.recipient is not None
            return {
                "id": str(self.id),
                "type": DM,
                "last_message_id": last,
                "flags": 0,
                "recipients": [self.recipient.to_payload()],
            }
        if self.type == GROUP_DM:
            return {
                "id": str(self.id),
                "type": GROUP_DM,
                "last_message_id": last,
                "flags": 0,
                "name": self.name,
                "icon": None,
                "owner_id": str(self.owner_id) if self.owner_id else None,
                "recipients": [u.to_payload() for u in self.recipients],
            }
        data: dict[str, Any] = {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild_id),
            "name": self.name,
            "position": self.position,
            "parent_id": str(self.parent_id) if self.parent_id else None,
            "topic": None,
            "nsfw": False,
            "rate_limit_per_user": 0,
            "last_message_id": last,
            "flags": 0,
            "permission_overwrites": [o.to_payload() for o in self.overwrites.values()],
        }
        if self.is_thread:
            data.update(
                {
                    "owner_id": str(self.owner_id),
                    "member_count": len(self.thread_members),
                    "message_count": 0,
                    "total_message_sent": 0,
                    "thread_metadata": {
                        "archived": self.archived,
                        "auto_archive_duration": 1440,
                        "archive_timestamp": iso(self.created),
                        "locked": False,
                        "invitable": True,
                        "create_timestamp": iso(self.created),
                    },
                }
            )
            del data["permission_overwrites"]
        return data


@dataclass
class Guild:
    id: int
    name: str
    owner_id: int
    roles: dict[int, Role] = field(default_factory=dict)
    members: dict[int, Member] = field(default_factory=dict)
    channels: dict[int, Channel] = field(default_factory=dict)  # text channels and threads
    locale: str = "en-US"  # the server's language (preferred_locale; each interaction's guild_locale)

    def base_permissions(self, user_id: int) -> int:
        if user_id == self.owner_id:
            return ADMINISTRATOR | BOT_ROLE_PERMS
        member = self.members.get(user_id)
        if member is None:
            return 0
        perms = self.roles[self.id].permissions
        for rid in member.roles:
            perms |= self.roles[rid].permissions
        return perms

    def permissions_in(self, user_id: int, channel: Channel) -> int:
        """Discord's permission computation (base, then @everyone, role and member overwrites)."""
        perms = self.base_permissions(user_id)
        if perms & ADMINISTRATOR:
            return perms | ((1 << 50) - 1)
        if channel.is_thread and channel.parent_id:
            channel = self.channels[channel.parent_id]
        ows = channel.overwrites
        if self.id in ows:
            perms = (perms & ~ows[self.id].deny) | ows[self.id].allow
        member = self.members.get(user_id)
        allow = deny = 0
        for rid in member.roles if member else []:
            if rid in ows:
                allow |= ows[rid].allow
                deny |= ows[rid].deny
        perms = (perms & ~deny) | allow
        if user_id in ows:
            perms = (perms & ~ows[user_id].deny) | ows[user_id].allow
        return perms

    def to_payload(self, member_ids: set[int] | None = None) -> dict[str, Any]:
        """member_ids: which members to include (Discord sends only the bot's own member without the
        GUILD_MEMBERS intent); None = all."""
        now = iso(time.time())
        members = [m for m in self.members.values() if member_ids is None or m.user.id in member_ids]
        text_channels = [c for c in self.channels.values() if not c.is_thread]
        threads = [c for c in self.channels.values() if c.is_thread]
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "owner_id": str(self.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": [r.to_payload() for r in self.roles.values()],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "application_id": None,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "vanity_url_code": None,
            "description": None,
            "banner": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": self.locale,
            "public_updates_channel_id": None,
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
            "max_members": 500000,
            "max_video_channel_users": 25,
            "joined_at": now,
            "large": False,
            "unavailable": False,
            "member_count": len(self.members),
            "voice_states": [],
            "members": [m.to_payload() for m in members],
            "channels": [c.to_payload() for c in text_channels],
            "threads": [c.to_payload() for c in threads],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }


@dataclass
class Attachment:
    id: int
    filename: str
    data: bytes
    content_type: str | None = None
    description: str | None = None
    url: str = ""

    @property
    def size(self) -> int:
        return len(self.data)

    def to_payload(self) -> dict[str, Any]:
        data = {
            "id": str(self.id),
            "filename": self.filename,
            "size": self.size,
            "url": self.url,
            "proxy_url": self.url,
            "content_type": self.content_type or "application/octet-stream",
        }
        if self.description is not None:
            data["description"] = self.description
        return data


@dataclass
class Button:
    """A button as a test sees it."""

    custom_id: str | None
    label: str | None
    style: int
    disabled: bool
    url: str | None
    emoji: Any
    raw: dict


@dataclass
class Select:
    """A select menu as a test sees it (options: list of {label, value, description?, default?})."""

    custom_id: str
    type: int
    options: list[dict]
    placeholder: str | None
    min_values: int
    max_values: int
    disabled: bool
    raw: dict

    @property
    def values(self) -> list[str]:
        return [o["value"] for o in self.options]

    @property
    def labels(self) -> list[str]:
        return [o["label"] for o in self.options]


def walk_components(components: list[dict]):
    """Every component of a message, depth first (action rows, sections, containers...)."""
    for comp in components or []:
        yield comp
        if "components" in comp:
            yield from walk_components(comp["components"])
        if isinstance(comp.get("accessory"), dict):
            yield from walk_components([comp["accessory"]])
        if isinstance(comp.get("component"), dict):  # label (modals)
            yield from walk_components([comp["component"]])


SELECT_TYPES = (3, 5, 6, 7, 8)


def assign_component_ids(components: list[dict]) -> None:
    """Discord numbers components without an id (or with id 0) sequentially, skipping ids already used."""
    comps = list(walk_components(components))
    used = {c["id"] for c in comps if isinstance(c.get("id"), int) and c["id"]}
    n = 0
    for c in comps:
        if not c.get("id"):
            n += 1
            while n in used:
                n += 1
            c["id"] = n


def _media_items(components: list[dict]):
    """Every unfurled media item dict of a v2 tree: (component type, media dict)."""
    for c in walk_components(components):
        t = c.get("type")
        if t == 11 and isinstance(c.get("media"), dict):
            yield t, c["media"]
        elif t == 12:
            for item in c.get("items") or []:
                if isinstance(item, dict) and isinstance(item.get("media"), dict):
                    yield t, item["media"]
        elif t == 13 and isinstance(c.get("file"), dict):
            yield t, c["file"]


def resolve_media(components: list[dict], attachments: list[Attachment]) -> None:
    """Point `attachment://name` media at the message's attachment, as Discord's response does."""
    by_name = {a.filename: a for a in attachments}
    for _, media in _media_items(components):
        url = media.get("url")
        if isinstance(url, str) and url.startswith("attachment://"):
            att = by_name.get(url[len("attachment://") :])
            if att is not None:
                media.update(
                    {
                        "url": att.url,
                        "proxy_url": att.url,
                        "attachment_id": str(att.id),
                        "content_type": att.content_type or "application/octet-stream",
                    }
                )


class Message:
    """One stored message. Live object: edits change it in place and push the old state onto `edits`."""

    def __init__(
        self,
        fd,
        *,
        id: int,
        channel: Channel,
        author: User,
        content: str = "",
        embeds=None,
        components=None,
        attachments=None,
        flags: int = 0,
        ephemeral_for: int | None = None,
        interaction: Interaction | None = None,
        type: int = 0,
        webhook_id: int | None = None,
    ) -> None:
        self._fd = fd
        self.id = id
        self.channel = channel
        self.channel_id = channel.id
        self.guild_id = channel.guild_id
        self.author = author
        self.content = content or ""
        self.embeds: list[dict] = list(embeds or [])
        self.components: list[dict] = list(components or [])
        self.attachments: list[Attachment] = list(attachments or [])
        self.flags = flags
        self.ephemeral_for = ephemeral_for
        self.interaction = interaction
        self.type = type
        self.webhook_id = webhook_id
        self.created = time.time()
        # What Discord resolved as mentions when the message was created, as its allowed_mentions let
        # through (server.py ``_record_pings``): users, roles, and @everyone/@here.
        self.mentions: list[int] = []
        self.mention_roles: list[int] = []
        self.mention_everyone = False
        self.allowed_mentions: dict | None = None
        self.edited: float | None = None
        self.deleted = False
        self.edits: list[
            dict
        ] = []  # previous states, oldest first: {content, embeds, components, attachments, flags}
        self.version = 0

    # ---- what tests read ----
    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & FLAG_EPHEMERAL)

    @property
    def loading(self) -> bool:
        return bool(self.flags & FLAG_LOADING)

    @property
    def author_id(self) -> int:
        return self.author.id

    @property
    def text(self) -> str:
        """Content, embed texts and v2 text displays joined: handy for `in` assertions."""
        parts = [self.content]
        for e in self.embeds:
            for key in ("title", "description"):
                if e.get(key):
                    parts.append(str(e[key]))
            for f in e.get("fields", []):
                parts.append(f"{f.get('name', '')}: {f.get('value', '')}")
            if e.get("footer", {}).get("text"):
                parts.append(e["footer"]["text"])
            if e.get("author", {}).get("name"):
                parts.append(e["author"]["name"])
        for c in walk_components(self.components):
            if c.get("type") == 10 and c.get("content"):
                parts.append(c["content"])
        return "\n".join(p for p in parts if p)

    @property
    def v2(self) -> bool:
        """The message uses components v2 (flag 1<<15)."""
        return bool(self.flags & FLAG_COMPONENTS_V2)

    @property
    def text_displays(self) -> list[str]:
        """The contents of the v2 text displays, in tree order (inside containers and sections too)."""
        return [c.get("content") or "" for c in walk_components(self.components) if c.get("type") == 10]

    @property
    def gallery(self) -> list[str]:
        """The media urls of the media galleries, in order. `attachment://name` media read as the
        attachment's url (as Discord returns it; it ends with /name): see gallery_attachments."""
        return [media.get("url") for t, media in _media_items(self.components) if t == 12]

    @property
    def gallery_attachments(self) -> list[Attachment | None]:
        """The attachments the media galleries show (None for an external url)."""
        by_id = {str(a.id): a for a in self.attachments}
        return [
            by_id.get(str(media.get("attachment_id")))
            for t, media in _media_items(self.components)
            if t == 12
        ]

    @property
    def gallery_descriptions(self) -> list[str | None]:
        """The descriptions (alt texts) of the media gallery items, in order (None: an item without)."""
        return [
            item.get("description")
            for c in walk_components(self.components)
            if c.get("type") == 12
            for item in c.get("items") or []
        ]

    @property
    def thumbnails(self) -> list[str]:
        return [media.get("url") for t, media in _media_items(self.components) if t == 11]

    @property
    def containers(self) -> list[dict]:
        return [c for c in walk_components(self.components) if c.get("type") == 17]

    @property
    def accent_colour(self) -> int | None:
        """accent_color of the first container (None without a container or colour)."""
        cs = self.containers
        return cs[0].get("accent_color") if cs else None

    accent_color = accent_colour

    @property
    def buttons(self) -> list[Button]:
        return [
            Button(
                c.get("custom_id"),
                c.get("label"),
                c.get("style", 1),
                bool(c.get("disabled", False)),
                c.get("url"),
                c.get("emoji"),
                c,
            )
            for c in walk_components(self.components)
            if c.get("type") == 2
        ]

    @property
    def selects(self) -> list[Select]:
        return [
            Select(
                c["custom_id"],
                c["type"],
                list(c.get("options", [])),
                c.get("placeholder"),
                c.get("min_values", 1),
                c.get("max_values", 1),
                bool(c.get("disabled", False)),
                c,
            )
            for c in walk_components(self.components)
            if c.get("type") in SELECT_TYPES
        ]

    def attachment(self, filename: str) -> Attachment:
        for a in self.attachments:
            if a.filename == filename:
                return a
        raise KeyError(filename)

    def snapshot(self, *, replaced: bool = False) -> dict:
        """What the message shows now, for its edit history. ``replaced``: its components are about to
        be replaced by an edit (a new list; stored components are never changed in place), so the
        snapshot keeps them instead of a copy."""
        return {
            "content": self.content,
            "embeds": json_copy(self.embeds),
            "components": self.components if replaced else json_copy(self.components),
            "attachments": list(self.attachments),
            "flags": self.flags,
            "at": self.edited or self.created,
        }

    def __repr__(self) -> str:
        eph = " ephemeral" if self.ephemeral else ""
        return f"<Message {self.id} ch={self.channel_id}{eph} {self.text[:60]!r} buttons={len(self.buttons)}>"

    # ---- payload ----
    def to_payload(self, *, copy: bool = True) -> dict[str, Any]:
        """The message as Discord sends it. Its embeds and components are copies, but with ``copy=False``
        the message's own (for a payload written out at once as JSON text: a response, a gateway event;
        stored components are never changed in place, an edit replaces them)."""
        data: dict[str, Any] = {
            "id": str(self.id),
            "type": self.type,
            "channel_id": str(self.channel_id),
            "author": self.author.to_payload(),
            "content": self.content,
            "embeds": json_copy(self.embeds) if copy else self.embeds,
            "components": json_copy(self.components) if copy else self.components,
            "attachments": [a.to_payload() for a in self.attachments],
            "timestamp": iso(self.created),
            "edited_timestamp": iso(self.edited) if self.edited else None,
            "flags": self.flags,
            "tts": False,
            "mention_everyone": self.mention_everyone,
            "mentions": [self._fd.users[u].to_payload() for u in self.mentions if u in self._fd.users],
            "mention_roles": [str(r) for r in self.mention_roles],
            "pinned": False,
            "reactions": [],
        }
        if self.guild_id:
            data["guild_id"] = str(self.guild_id)
        if self.webhook_id:
            data["webhook_id"] = str(self.webhook_id)
            data["application_id"] = str(self.webhook_id)
        if self.interaction is not None:
            it = self.interaction
            data["interaction_metadata"] = {
                "id": str(it.id),
                "type": it.type,
                "user": it.user.to_payload(),
                "authorizing_integration_owners": {"0": str(it.guild_id)}
                if it.guild_id
                else {"1": str(it.user.id)},
            }
            if it.type == 2:
                data["interaction_metadata"]["name"] = it.command_name
            if it.type == 3 and it.message is not None:
                data["interaction_metadata"]["interacted_message_id"] = str(it.message.id)
        return data


class Interaction:
    """An interaction the fake created for a member's action, and everything the bot answered to it."""

    def __init__(
        self,
        fd,
        *,
        id: int,
        token: str,
        type: int,
        user: User,
        channel: Channel,
        data: dict,
        message: Message | None = None,
        command_name: str = "",
    ) -> None:
        self._fd = fd
        self.id = id
        self.token = token
        self.type = type
        self.user = user
        self.channel = channel
        self.guild_id = channel.guild_id
        self.data = data
        self.message = message
        self.command_name = command_name
        self.created = time.monotonic()
        self.response_type: int | None = None
        self.acked_at: float | None = None
        self.deadline_handle: asyncio.TimerHandle | None = None
        self.failed = False
        # ids of the gateway sessions it was sent to (its guild's shard; DMs: shard 0); empty: no process
        # runs that shard, and the interaction fails at the deadline
        self.delivered_to: list[str] = []
        self.original: Message | None = None
        self.followups: list[Message] = []
        self.choices: list[dict] | None = None
        self.modal: dict | None = None
        self.activity = 0  # bumps on every callback / webhook call
        self._waiters: list[asyncio.Future] = []
        self.source_version = message.version if message is not None else 0

    def touch(self) -> None:
        self.activity += 1
        waiters, self._waiters = self._waiters, []
        for f in waiters:
            if not f.done():
                f.set_result(None)

    async def wait_change(self, timeout: float) -> None:
        fut = asyncio.get_running_loop().create_future()
        self._waiters.append(fut)
        try:
            async with asyncio.timeout(timeout):  # one timer (wait_for also wraps the future)
                await fut
        except TimeoutError:
            pass
