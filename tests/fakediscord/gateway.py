"""The gateway websocket: HELLO, IDENTIFY -> READY + GUILD_CREATE, heartbeats, RESUME with replay,
RECONNECT (op 7) and socket drops on demand. Frames are uncompressed JSON text, which discord.py accepts
whatever `compress` query parameter it asked for.

Sharding as Discord does it: an IDENTIFY with ``shard: [id, count]`` makes a session of that shard. It
gets READY and GUILD_CREATE for the guilds of its shard only (``(guild_id >> 22) % count == id``), every
guild-scoped event of those guilds, and, on shard 0, the events outside any guild (DMs). A session
without ``shard`` gets everything (one connection, not sharded). Several sessions, from several
processes, are served at once."""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import secrets
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web

from .models import json_text, shard_of

if TYPE_CHECKING:
    from .models import Guild
    from .server import FakeDiscord

OP_DISPATCH, OP_HEARTBEAT, OP_IDENTIFY, OP_PRESENCE, OP_RESUME = 0, 1, 2, 3, 6
INTENT_GUILD_MEMBERS = 1 << 1
OP_RECONNECT, OP_REQUEST_MEMBERS, OP_INVALID_SESSION, OP_HELLO, OP_HEARTBEAT_ACK = 7, 8, 9, 10, 11


class Connection:
    """One websocket; frames go out in order through a queue and a writer task."""

    def __init__(self, ws: web.WebSocketResponse) -> None:
        self.ws = ws
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.writer = asyncio.create_task(self._write())
        self.session: Session | None = None

    async def _write(self) -> None:
        while True:
            frame = await self.queue.get()
            if frame is None:
                return
            try:
                await self.ws.send_str(frame)
            except (ConnectionError, RuntimeError):
                return

    def send(self, payload: dict[str, Any] | str) -> None:
        self.queue.put_nowait(payload if isinstance(payload, str) else json_text(payload))

    async def close(self, code: int) -> None:
        self.queue.put_nowait(None)
        with contextlib.suppress(Exception):
            await self.writer
        with contextlib.suppress(Exception):
            await self.ws.close(code=code, message=b"fake discord closed the socket")


class Session:
    """A gateway session: its sequence numbers and the events sent, so RESUME can replay what was missed."""

    def __init__(self, intents: int, shard: tuple[int, int] | None = None) -> None:
        self.id = secrets.token_hex(16)
        self.shard = shard  # (shard id, shard count); None: not sharded, every event
        self.seq = 0
        self.intents = intents
        self.buffer: collections.deque[tuple[int, str]] = collections.deque(maxlen=20000)
        self.conn: Connection | None = None
        self.resumes = 0
        self.identified = asyncio.Event()

    def owns(self, guild_id: int | None) -> bool:
        """Whether this session's shard gets the events of ``guild_id`` (None: DMs, shard 0's)."""
        if self.shard is None:
            return True
        sid, count = self.shard
        return sid == 0 if guild_id is None else shard_of(guild_id, count) == sid

    def overlaps(self, other: Session) -> bool:
        """Whether a new session ``other`` takes over this one's shard (a process identifying afresh on the
        same shard, or with another shard count)."""
        if self.shard is None or other.shard is None:
            return True
        return self.shard[1] != other.shard[1] or self.shard[0] == other.shard[0]

    def dispatch(self, event: str, data: dict[str, Any]) -> None:
        self.seq += 1
        frame = json_text({"op": OP_DISPATCH, "t": event, "s": self.seq, "d": data})
        self.buffer.append((self.seq, frame))
        if self.conn is not None:
            self.conn.send(frame)


class Gateway:
    def __init__(self, fd: FakeDiscord) -> None:
        self.fd = fd
        self.sessions: dict[str, Session] = {}
        self.connections: set[Connection] = set()
        self.identifies = 0
        self.resumes = 0
        self.shard_of_session: dict[str, tuple[int, int] | None] = {}  # every session ever identified
        self._changed = asyncio.Event()

    # ---- dispatch ----
    def sessions_for(self, guild_id: int | None) -> list[Session]:
        """The sessions that get the events of ``guild_id`` (None: DM events, shard 0)."""
        return [s for s in self.sessions.values() if s.owns(guild_id)]

    def dispatch(self, event: str, data: dict[str, Any], *, guild_id: int | None | str = "auto") -> list[str]:
        """Send an event to the sessions of its guild's shard (``guild_id`` defaults to the payload's
        ``guild_id``; no guild: shard 0). Returns the ids of the sessions it went to (none: lost)."""
        if guild_id == "auto":
            raw = data.get("guild_id")
            guild_id = int(raw) if raw and str(raw).isdigit() else None
        sent = []
        for s in self.sessions_for(guild_id):  # type: ignore[arg-type]
            s.dispatch(event, data)
            sent.append(s.id)
        return sent

    def guild_create(self, guild: Guild, session: Session) -> dict[str, Any]:
        all_members = session.intents & INTENT_GUILD_MEMBERS
        return guild.to_payload(None if all_members else {self.fd.bot_user.id})

    def shards(self, *, connected: bool = True) -> dict[tuple[int, int] | None, int]:
        """How many sessions run each shard ((id, count); None for unsharded ones); only connected ones
        unless ``connected=False``."""
        out: dict[tuple[int, int] | None, int] = {}
        for s in self.sessions.values():
            if s.conn is not None or not connected:
                out[s.shard] = out.get(s.shard, 0) + 1
        return out

    @property
    def connected(self) -> bool:
        return any(c.session is not None for c in self.connections)

    # ---- test hooks ----
    async def drop(self, code: int = 4000) -> None:
        for conn in list(self.connections):
            self.connections.discard(conn)
            if conn.session is not None:
                conn.session.conn = None
            await conn.close(code)

    async def request_reconnect(self) -> None:
        for conn in list(self.connections):
            conn.send({"op": OP_RECONNECT, "d": None, "s": None, "t": None})

    async def invalidate(self) -> None:
        for conn in list(self.connections):
            if conn.session is not None:
                self.sessions.pop(conn.session.id, None)
            conn.send({"op": OP_INVALID_SESSION, "d": False, "s": None, "t": None})

    async def wait_connected(
        self, timeout: float = 10.0, *, after_resumes: int | None = None, after_identifies: int | None = None
    ) -> None:
        async def ready() -> None:
            while True:
                ok = self.connected
                if after_resumes is not None or after_identifies is not None:
                    ok = (after_resumes is not None and self.resumes > after_resumes) or (
                        after_identifies is not None and self.identifies > after_identifies
                    )
                if ok:
                    return
                self._changed.clear()
                await self._changed.wait()

        await asyncio.wait_for(ready(), timeout)

    def _notify(self) -> None:
        self._changed.set()

    # ---- the websocket handler ----
    async def handle(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(max_msg_size=0, autoping=True)
        await ws.prepare(request)
        conn = Connection(ws)
        self.connections.add(conn)
        conn.send(
            {
                "op": OP_HELLO,
                "d": {"heartbeat_interval": int(self.fd.heartbeat_interval * 1000)},
                "s": None,
                "t": None,
            }
        )
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    if msg.type == WSMsgType.BINARY:
                        await ws.close(code=4002, message=b"Error while decoding payload.")
                    continue
                try:
                    payload = json.loads(msg.data)
                except ValueError:
                    await ws.close(code=4002, message=b"Error while decoding payload.")
                    break
                await self._on_frame(conn, payload)
        finally:
            self.connections.discard(conn)
            if conn.session is not None and conn.session.conn is conn:
                conn.session.conn = None
            conn.queue.put_nowait(None)
            self._notify()
        return ws

    async def _on_frame(self, conn: Connection, payload: dict[str, Any]) -> None:
        op = payload.get("op")
        d = payload.get("d")
        if op == OP_HEARTBEAT:
            conn.send({"op": OP_HEARTBEAT_ACK, "d": None, "s": None, "t": None})
        elif op == OP_IDENTIFY:
            if not d or not d.get("token"):
                await conn.ws.close(code=4004, message=b"Authentication failed.")
                return
            shard = _shard(d.get("shard"))
            if shard is False:
                await conn.ws.close(code=4010, message=b"Invalid shard.")
                return
            session = Session(int(d.get("intents", 0)), shard or None)
            # a bot that identifies afresh will not resume its old sessions (e.g. a restarted process):
            # forget the disconnected ones of the same shard so they stop buffering events
            for sid in [sid for sid, s in self.sessions.items() if s.conn is None and s.overlaps(session)]:
                del self.sessions[sid]
            self.sessions[session.id] = session
            self.shard_of_session[session.id] = session.shard
            session.conn = conn
            conn.session = session
            self.identifies += 1
            fd = self.fd
            ready = {
                "v": 10,
                "user": fd.bot_user.to_payload(),
                "guilds": [
                    {"id": str(g.id), "unavailable": True}
                    for g in fd.guilds.values()
                    if session.owns(g.id) and fd.bot_in(g.id)
                ],
                "session_id": session.id,
                "session_type": "normal",
                "resume_gateway_url": fd.gateway_url,
                "application": {"id": str(fd.application_id), "flags": 0},
                "private_channels": [],
                "relationships": [],
                "presences": [],
                "geo_ordered_rtc_regions": [],
                "guild_join_requests": [],
                "user_settings": {},
                "_trace": ["fakediscord"],
            }
            if shard:
                ready["shard"] = list(shard)
            session.dispatch("READY", ready)
            for g in fd.guilds.values():
                if session.owns(g.id) and fd.bot_in(g.id):
                    session.dispatch("GUILD_CREATE", self.guild_create(g, session))
            session.identified.set()
            self._notify()
        elif op == OP_RESUME:
            session = self.sessions.get((d or {}).get("session_id"))
            if session is not None and "shard" in (d or {}) and _shard(d["shard"]) != session.shard:
                session = None  # resuming a session as another shard: not that session
            if session is None:
                conn.send({"op": OP_INVALID_SESSION, "d": False, "s": None, "t": None})
                return
            if session.conn is not None and session.conn is not conn:
                old = session.conn
                self.connections.discard(old)
                await old.close(4000)
            last = int(d.get("seq") or 0)
            for seq, frame in list(session.buffer):
                if seq > last:
                    conn.send(frame)
            session.conn = conn
            conn.session = session
            session.resumes += 1
            self.resumes += 1
            session.dispatch("RESUMED", {"_trace": ["fakediscord"]})
            self._notify()
        elif op == OP_REQUEST_MEMBERS:
            guild = self.fd.guilds.get(int(d["guild_id"])) if d and d.get("guild_id") else None
            if guild is not None and conn.session is not None and conn.session.owns(guild.id):
                chunk = {
                    "guild_id": str(guild.id),
                    "members": [m.to_payload() for m in guild.members.values()],
                    "chunk_index": 0,
                    "chunk_count": 1,
                    "not_found": [],
                    "presences": [],
                }
                if d.get("nonce"):
                    chunk["nonce"] = d["nonce"]
                conn.session.dispatch("GUILD_MEMBERS_CHUNK", chunk)
        # op 3 (presence) and others: accepted and ignored


def _shard(value: Any) -> tuple[int, int] | None | bool:
    """IDENTIFY's ``shard``: None when absent (not sharded), (id, count) when valid, False when invalid
    (Discord closes with 4010 Invalid shard)."""
    if value is None:
        return None
    if (
        not isinstance(value, list | tuple)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        return False
    sid, count = value
    if not (count >= 1 and 0 <= sid < count):
        return False
    return (sid, count)
