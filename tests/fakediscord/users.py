"""Members as a test drives them: slash commands, autocomplete, clicks, selects, modals; and what they see."""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING, Any

from .errors import FakeDiscordError
from .models import DM, GROUP_DM, SELECT_TYPES, Channel, Interaction, Message, User, walk_components

if TYPE_CHECKING:
    from .server import FakeDiscord

# option types
(
    SUB_COMMAND,
    SUB_COMMAND_GROUP,
    STRING,
    INTEGER,
    BOOLEAN,
    USER,
    CHANNEL,
    ROLE,
    MENTIONABLE,
    NUMBER,
    ATTACHMENT,
) = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11)


class InteractionResult:
    """What came back for one member action. Live: it reads the fake's records, so follow-ups that arrive
    later show up too (see wait_for)."""

    def __init__(self, fd: FakeDiscord, rec: Interaction) -> None:
        self.fd = fd
        self.interaction = rec

    @property
    def id(self) -> int:
        return self.interaction.id

    @property
    def delivered(self) -> bool:
        """False when no bot session got the interaction: no process runs its guild's shard (DMs: shard 0).
        Such an interaction fails at the deadline, as on Discord."""
        return bool(self.interaction.delivered_to)

    @property
    def failed(self) -> bool:
        """True when the bot did not answer within the interaction deadline ("This interaction failed")."""
        return self.interaction.failed

    @property
    def response_type(self) -> int | None:
        return self.interaction.response_type

    @property
    def deferred(self) -> bool:
        return self.interaction.response_type in (5, 6)

    @property
    def pending(self) -> bool:
        """Deferred with a loading message that was never filled in (so far)."""
        o = self.interaction.original
        return self.interaction.response_type == 5 and o is not None and o.loading and not self.followups

    @property
    def original(self) -> Message | None:
        """The @original message: the new reply (types 4/5) or the component's message (types 6/7)."""
        return self.interaction.original

    @property
    def followups(self) -> list[Message]:
        return [m for m in self.interaction.followups if not m.deleted]

    @property
    def messages(self) -> list[Message]:
        """Messages this interaction created: the reply (types 4/5) and the follow-ups."""
        out = []
        o = self.interaction.original
        if o is not None and self.interaction.response_type in (4, 5) and not o.deleted:
            out.append(o)
        return out + self.followups

    @property
    def message(self) -> Message | None:
        """The first message created, else the updated component message (types 6/7)."""
        msgs = self.messages
        if msgs:
            return msgs[0]
        return self.interaction.original

    @property
    def updated(self) -> bool:
        """The component's message was edited since the click."""
        src = self.interaction.message
        return src is not None and src.version > self.interaction.source_version

    @property
    def ephemeral(self) -> bool:
        m = self.message
        return m is not None and m.ephemeral

    @property
    def text(self) -> str:
        parts = [m.text for m in self.messages]
        if not parts and self.interaction.original is not None:
            parts = [self.interaction.original.text]
        return "\n".join(parts)

    @property
    def choices(self) -> list[dict] | None:
        return self.interaction.choices

    @property
    def modal(self) -> dict | None:
        return self.interaction.modal

    async def wait_for(self, predicate, timeout: float | None = None) -> Any:
        """Wait until predicate(self) is truthy."""
        return await self.fd.wait_for(lambda: predicate(self), timeout or self.fd.reply_timeout)

    async def wait_for_answer(self, predicate, timeout: float | None = None) -> Any:
        """As :meth:`wait_for` for a predicate that reads only this result (its answer, follow-ups, and
        the clicked or @original message): checked again only when the bot answers or follows up this
        interaction, edits or deletes one of its messages, or it fails, not at every change in the fake
        and every 50 ms. For many waiters at once (a load bench: a hundred games, each waiting for its
        click's answer, were a hundred predicates checked at every change)."""
        rec, fd = self.interaction, self.fd
        loop = asyncio.get_running_loop()
        timeout = timeout or fd.reply_timeout
        deadline = loop.time() + timeout
        watched = {m.id for m in (rec.message, rec.original) if m is not None}
        for mid in watched:
            fd._watch.setdefault(mid, set()).add(rec)
        try:
            while True:
                value = predicate(self)
                if value:
                    return value
                if rec.original is not None and rec.original.id not in watched:
                    watched.add(rec.original.id)  # a reply made since: its edits through the channel too
                    fd._watch.setdefault(rec.original.id, set()).add(rec)
                    continue
                left = deadline - loop.time()
                if left <= 0:
                    raise TimeoutError(f"fake discord: condition not met within {timeout}s")
                await rec.wait_change(left)
        finally:
            for mid in watched:
                fd._unwatch_message(rec, mid)

    def __repr__(self) -> str:
        state = "failed" if self.failed else f"type={self.response_type}"
        return f"<InteractionResult {state} {self.text[:80]!r}>"


class FakeMember:
    """A guild member a test acts as: `alice = fd.user("alice")`."""

    def __init__(self, fd: FakeDiscord, user: User) -> None:
        self.fd = fd
        self.user = user
        self._acting_in: Channel | None = None  # the channel of the command being built (its guild resolves)

    @property
    def id(self) -> int:
        return self.user.id

    @property
    def name(self) -> str:
        return self.user.name

    @property
    def mention(self) -> str:
        return f"<@{self.user.id}>"

    def __repr__(self) -> str:
        return f"<FakeMember {self.name} {self.id}>"

    # ------------------------------------------------------------------ reading
    def dm_channel(self) -> Channel | None:
        return self.fd.dm_channels.get(self.user.id)

    def dms(self) -> list[Message]:
        """Messages the bot sent to this member's DMs, oldest first."""
        ch = self.dm_channel()
        return [] if ch is None else self.fd.channel_messages(ch, ephemeral=True)

    def visible(self, channel: Channel | int | str) -> list[Message]:
        """The channel as this member sees it: public messages plus their own ephemerals."""
        ch = self.fd.channel(channel)
        return [m for m in self.fd.channel_messages(ch, ephemeral=True) if self.fd.can_see(self, m)]

    def ephemerals(self, channel: Channel | int | str | None = None) -> list[Message]:
        msgs = (
            self.fd.all_messages() if channel is None else self.fd.channel_messages(channel, ephemeral=True)
        )
        return [m for m in msgs if m.ephemeral_for == self.user.id]

    def can_see(self, message: Message) -> bool:
        return self.fd.can_see(self, message)

    # ------------------------------------------------------------------ acting
    def _channel(self, channel) -> Channel:
        if channel is None:
            return next(c for c in self.fd.guild.channels.values() if not c.is_thread)  # default guild
        if channel == "dm":
            ch = self.dm_channel()
            if ch is None:
                raise FakeDiscordError(f"{self.name} has no DM channel with the bot yet")
            return ch
        return self.fd.channel(channel)

    async def _finish(self, rec: Interaction, timeout: float | None) -> InteractionResult:
        fd = self.fd
        wait = max(timeout or fd.reply_timeout, fd.interaction_timeout + 0.5)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + wait
        try:
            while loop.time() < deadline:
                if rec.failed:
                    break
                rt = rec.response_type
                if rt in (1, 4, 7, 8, 9):
                    break
                if rt == 5 and (
                    (rec.original is not None and not rec.original.loading)
                    or rec.followups
                    or (rec.original is not None and rec.original.deleted)
                ):
                    break
                if rt == 6:
                    src = rec.message
                    if rec.activity > 1 or (src is not None and src.version > rec.source_version):
                        break
                    assert rec.acked_at is not None
                    left = rec.acked_at + fd.deferred_update_wait - time.monotonic()
                    if left <= 0:
                        break
                    await rec.wait_change(min(left, deadline - loop.time()))
                    continue
                await rec.wait_change(deadline - loop.time())
        finally:
            fd._unwatch(rec)
        return InteractionResult(fd, rec)

    def install_app(self) -> None:
        """Authorise the app for this user's account (a user install): its user-installable commands
        become usable in group DMs and follow the user everywhere."""
        self.user.app_installed = True

    def open_dm(self) -> Channel:
        """Open this user's DM with the bot (as clicking the bot's "Message" does); ``channel="dm"`` then."""
        return self.fd.open_dm(self.user)

    def _check_usable(self, channel: Channel) -> None:
        if channel.type == DM:
            if channel.recipient is None or channel.recipient.id != self.user.id:
                raise FakeDiscordError(f"{self.name} cannot act in another user's DM channel")
        elif channel.type == GROUP_DM:
            if all(r.id != self.user.id for r in channel.recipients):
                raise FakeDiscordError(f"{self.name} is not in the group DM {channel.name}")
        elif not self.fd._perms(self.user.id, channel) & (1 << 10) or (
            channel.type == 12
            and self.user.id not in channel.thread_members
            and not self.fd._perms(self.user.id, channel) & (1 << 34)
        ):
            raise FakeDiscordError(f"{self.name} cannot see channel {channel.name}")

    async def slash(
        self, command: str, *, channel=None, timeout: float | None = None, **options: Any
    ) -> InteractionResult:
        """Invoke a slash command registered by the bot: `await alice.slash("game new", game="enemy-lines")`.
        Option names with '-' can be passed with '_'. Values: str/int/float/bool, members for user options,
        channels for channel options, (filename, bytes) for attachments."""
        ch = self._channel(channel)
        self._check_usable(ch)
        data, name = self._command_data(command, ch, options, focused=None)
        rec = self.fd._new_interaction(self.user, ch, 2, data, command_name=name)
        return await self._finish(rec, timeout)

    async def autocomplete(
        self,
        command: str,
        option: str,
        value: str = "",
        *,
        channel=None,
        timeout: float | None = None,
        **options: Any,
    ) -> list[dict]:
        """Type `value` into `option` of a command; returns the choices the bot offered ([{name, value}])."""
        ch = self._channel(channel)
        self._check_usable(ch)
        data, name = self._command_data(command, ch, {**options, option: value}, focused=option)
        rec = self.fd._new_interaction(self.user, ch, 4, data, command_name=name)
        result = await self._finish(rec, timeout)
        if result.failed or result.choices is None:
            raise FakeDiscordError(f"no autocomplete answer for {command} {option}={value!r}")
        return result.choices

    async def click(
        self, message: Message | int, label_or_custom_id: str, *, timeout: float | None = None
    ) -> InteractionResult:
        """Click a button found by custom_id, else by exact label (must then be unique)."""
        msg = self._visible_message(message)
        buttons = msg.buttons
        match = [b for b in buttons if b.custom_id == label_or_custom_id]
        if not match:
            match = [b for b in buttons if b.label == label_or_custom_id]
            if len(match) > 1:
                raise FakeDiscordError(f"several buttons labelled {label_or_custom_id!r}; use the custom_id")
        if not match:
            raise FakeDiscordError(
                f"no button {label_or_custom_id!r} on message {msg.id}; "
                f"buttons: {[(b.label, b.custom_id) for b in buttons]}"
            )
        button = match[0]
        if button.disabled:
            raise FakeDiscordError(f"button {label_or_custom_id!r} is disabled")
        if button.style in (5, 6) or not button.custom_id:
            raise FakeDiscordError(f"button {label_or_custom_id!r} is a link/premium button")
        data = {"custom_id": button.custom_id, "component_type": 2}
        if button.raw.get("id"):
            data["id"] = button.raw["id"]  # Discord sends the component's numeric id (v2 messages have them)
        rec = self.fd._new_interaction(self.user, msg.channel, 3, data, message=msg)
        return await self._finish(rec, timeout)

    async def select(
        self,
        message: Message | int,
        values: list[str] | str,
        custom_id: str | None = None,
        *,
        timeout: float | None = None,
    ) -> InteractionResult:
        """Pick option values in a select menu (the message's only select, or the one with custom_id)."""
        msg = self._visible_message(message)
        if isinstance(values, str):
            values = [values]
        selects = msg.selects
        if custom_id is not None:
            selects = [s for s in selects if s.custom_id == custom_id]
        if not selects:
            raise FakeDiscordError(f"no select {custom_id or ''} on message {msg.id}")
        if len(selects) > 1:
            raise FakeDiscordError(
                f"several selects on message {msg.id}; pass custom_id ({[s.custom_id for s in selects]})"
            )
        sel = selects[0]
        if sel.disabled:
            raise FakeDiscordError(f"select {sel.custom_id!r} is disabled")
        if not sel.min_values <= len(values) <= sel.max_values:
            raise FakeDiscordError(
                f"select {sel.custom_id!r} takes {sel.min_values}..{sel.max_values} values"
            )
        data: dict[str, Any] = {
            "custom_id": sel.custom_id,
            "component_type": sel.type,
            "values": list(values),
        }
        if sel.raw.get("id"):
            data["id"] = sel.raw["id"]
        if sel.type == 3:
            unknown = [v for v in values if v not in sel.values]
            if unknown:
                raise FakeDiscordError(f"values {unknown} are not options of {sel.custom_id!r}: {sel.values}")
        else:
            data["values"] = [str(self._resolve_id(v)) for v in values]
            data["resolved"] = self._resolved_for(sel.type, data["values"], msg.channel)
        rec = self.fd._new_interaction(self.user, msg.channel, 3, data, message=msg)
        return await self._finish(rec, timeout)

    async def submit_modal(
        self, shown: InteractionResult | dict, values: dict[str, str], *, timeout: float | None = None
    ) -> InteractionResult:
        """Fill and submit a modal the bot opened (pass the result that got response type 9)."""
        if isinstance(shown, InteractionResult):
            modal, origin = shown.modal, shown.interaction
        else:
            modal, origin = shown, None
        if not modal:
            raise FakeDiscordError("no modal to submit")
        comps = []
        inputs = [c for c in walk_components(modal.get("components", [])) if c.get("type") == 4]
        ids = {c["custom_id"] for c in inputs}
        unknown = set(values) - ids
        if unknown:
            raise FakeDiscordError(f"modal has no inputs {sorted(unknown)}; inputs: {sorted(ids)}")
        for top in modal.get("components", []):
            if top.get("type") == 1:
                inner = [
                    {"type": 4, "custom_id": c["custom_id"], "value": values.get(c["custom_id"], "")}
                    for c in top.get("components", [])
                    if c.get("type") == 4
                ]
                comps.append({"type": 1, "components": inner})
            elif top.get("type") == 18 and isinstance(top.get("component"), dict):
                c = top["component"]
                if c.get("type") == 4:
                    comps.append(
                        {
                            "type": 18,
                            "id": top.get("id", 0),
                            "component": {
                                "type": 4,
                                "custom_id": c["custom_id"],
                                "value": values.get(c["custom_id"], ""),
                            },
                        }
                    )
        for c in inputs:
            if c.get("required", True) and not values.get(c["custom_id"]):
                raise FakeDiscordError(f"modal input {c['custom_id']!r} is required")
        ch = origin.channel if origin is not None else self._channel(None)
        message = origin.message if origin is not None else None
        data = {"custom_id": modal["custom_id"], "components": comps}
        rec = self.fd._new_interaction(self.user, ch, 5, data, message=message)
        return await self._finish(rec, timeout)

    async def say(self, channel, content: str) -> Message:
        """Post a plain message as this member (dispatched as MESSAGE_CREATE when the bot has the intent)."""
        ch = self._channel(channel)
        self._check_usable(ch)
        return self.fd._create_message(ch, self.user, {"content": content}, [], validate=True)

    # ------------------------------------------------------------------ helpers
    def _visible_message(self, message: Message | int) -> Message:
        msg = self.fd.message(message)
        if not self.fd.can_see(self, msg):
            raise FakeDiscordError(
                f"{self.name} cannot see message {msg.id} (deleted, someone else's "
                f"ephemeral, another user's DM, or a hidden channel)"
            )
        return msg

    def _resolve_id(self, v: Any) -> int:
        if isinstance(v, FakeMember):
            return v.id
        if isinstance(v, User | Channel):
            return v.id
        if isinstance(v, int):
            return v
        if isinstance(v, str):
            if v.isdigit():
                return int(v)
            if v in self.fd._members:
                return self.fd.user(v).id
            return self.fd.channel(v).id
        raise FakeDiscordError(f"cannot resolve {v!r} to an id")

    def _resolved_for(self, ctype: int, ids: list[str], channel: Channel | None = None) -> dict:
        fd = self.fd
        channel = channel or self._acting_in
        guild = fd.guilds.get(channel.guild_id) if channel is not None and channel.guild_id else None
        guild = guild or fd.guild
        out: dict[str, dict] = {}
        for sid in ids:
            i = int(sid)
            if i in fd.users and ctype in (5, 7, USER, MENTIONABLE):
                out.setdefault("users", {})[sid] = fd.users[i].to_payload()
                m = guild.members.get(i)
                if m is not None:
                    md = m.to_payload()
                    md.pop("user")
                    out.setdefault("members", {})[sid] = md
            elif i in guild.roles:
                out.setdefault("roles", {})[sid] = guild.roles[i].to_payload()
            elif i in fd.channels:
                c = fd.channels[i].to_payload()
                c["permissions"] = str(fd._perms(self.user.id, fd.channels[i]))
                out.setdefault("channels", {})[sid] = c
        return out

    def _find_command(self, root: str, channel: Channel) -> dict:
        fd = self.fd
        pools = []
        if channel.guild_id:
            pools.append(fd.guild_commands.get(channel.guild_id, []))
        pools.append(fd.global_commands)
        for pool in pools:
            for cmd in pool:
                if cmd["name"] == root and cmd.get("type", 1) == 1:
                    return cmd
        known = sorted({c["name"] for p in pools for c in p})
        raise FakeDiscordError(f"no slash command {root!r} registered; known: {known}")

    def _check_context(self, cmd: dict, channel: Channel) -> None:
        """Discord offers a command only where its ``contexts`` allow it and an installation of the app
        authorises it: the bot's guild install in its servers and DM, the user's install anywhere."""
        from .server import GUILD, GUILD_INSTALL, PRIVATE_CHANNEL, USER_INSTALL, allowed_contexts, context_of

        context = context_of(channel)
        if context not in allowed_contexts(cmd):
            raise FakeDiscordError(f"/{cmd['name']} is not offered here (contexts {cmd.get('contexts')})")
        types = cmd.get("integration_types") or [GUILD_INSTALL]
        by_user = USER_INSTALL in types and self.user.app_installed
        by_guild = GUILD_INSTALL in types and (context != GUILD or self.fd.bot_in(channel.guild_id))
        if not by_user and (context == PRIVATE_CHANNEL or not by_guild):
            raise FakeDiscordError(
                f"/{cmd['name']} is not offered here: it needs {self.name} to have installed the app "
                f"(integration_types {types})"
            )

    def _command_data(
        self, command: str, channel: Channel, options: dict[str, Any], focused: str | None
    ) -> tuple[dict, str]:
        words = command.split()
        if not words:
            raise FakeDiscordError("empty command")
        self._acting_in = channel
        cmd = self._find_command(words[0], channel)
        if channel.type in (DM, GROUP_DM) and cmd.get("guild_id"):
            raise FakeDiscordError(f"/{words[0]} is a guild command; not usable in DMs")
        self._check_context(cmd, channel)
        node_opts = cmd.get("options") or []
        nested_path: list[dict] = []
        for word in words[1:]:
            sub = next(
                (o for o in node_opts if o["name"] == word and o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)),
                None,
            )
            if sub is None:
                names = [o["name"] for o in node_opts if o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)]
                raise FakeDiscordError(f"/{command}: no subcommand {word!r}; has {names}")
            nested_path.append(sub)
            node_opts = sub.get("options") or []
        if any(o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP) for o in node_opts):
            names = [o["name"] for o in node_opts]
            raise FakeDiscordError(f"/{command} needs a subcommand: {names}")
        resolved: dict[str, dict] = {}
        leaf: list[dict] = []
        defs = {o["name"]: o for o in node_opts}
        given: dict[str, Any] = {}
        for key, value in options.items():
            name = key if key in defs else key.replace("_", "-")
            if name not in defs:
                raise FakeDiscordError(f"/{command} has no option {key!r}; options: {sorted(defs)}")
            given[name] = value
        for name, opt in defs.items():
            if name not in given:
                if opt.get("required") and focused is None:
                    raise FakeDiscordError(f"/{command}: option {name!r} is required")
                continue
            entry = self._option_value(command, opt, given[name], resolved, focused=(name == focused))
            leaf.append(entry)
        if focused is not None:
            fopt = defs.get(focused if focused in defs else focused.replace("_", "-"))
            if fopt is None or not fopt.get("autocomplete"):
                raise FakeDiscordError(f"/{command}: option {focused!r} has no autocomplete")
        options_payload = leaf
        for sub in reversed(nested_path):
            options_payload = [{"type": sub["type"], "name": sub["name"], "options": options_payload}]
        data: dict[str, Any] = {"id": cmd["id"], "name": cmd["name"], "type": 1, "options": options_payload}
        if cmd.get("guild_id"):
            data["guild_id"] = cmd["guild_id"]
        if resolved:
            data["resolved"] = resolved
        return data, " ".join(words)

    def _option_value(self, command: str, opt: dict, value: Any, resolved: dict, *, focused: bool) -> dict:
        t = opt["type"]
        entry: dict[str, Any] = {"name": opt["name"], "type": t}
        if focused:
            entry["value"] = str(value)
            entry["focused"] = True
            return entry
        fd = self.fd
        if t == STRING:
            v = str(value)
            if (
                "min_length" in opt
                and len(v) < opt["min_length"]
                or "max_length" in opt
                and len(v) > opt["max_length"]
            ):
                raise FakeDiscordError(f"/{command} {opt['name']}: length out of range")
        elif t == INTEGER:
            v = int(value)
        elif t == NUMBER:
            v = float(value)
        elif t == BOOLEAN:
            v = bool(value)
        elif t in (USER, MENTIONABLE, CHANNEL, ROLE):
            i = self._resolve_id(value)
            v = str(i)
            resolved_part = self._resolved_for(t, [v])
            for k, d in resolved_part.items():
                resolved.setdefault(k, {}).update(d)
        elif t == ATTACHMENT:
            filename, blob = value
            ch = self._channel(None)
            att = fd._new_attachment(
                ch, {"filename": filename, "data": bytes(blob), "content_type": None}, None, None
            )
            fd.uploads[att.id] = att
            v = str(att.id)
            resolved.setdefault("attachments", {})[v] = att.to_payload()
        else:
            raise FakeDiscordError(f"unsupported option type {t}")
        if t in (INTEGER, NUMBER):
            if "min_value" in opt and v < opt["min_value"] or "max_value" in opt and v > opt["max_value"]:
                raise FakeDiscordError(f"/{command} {opt['name']}={v}: out of range")
        if opt.get("choices") and t in (STRING, INTEGER, NUMBER):
            allowed = [c["value"] for c in opt["choices"]]
            if v not in allowed:
                raise FakeDiscordError(f"/{command} {opt['name']}={v!r} is not a choice: {allowed}")
        entry["value"] = v
        return entry


def component_types(message: Message) -> list[int]:
    return [c.get("type") for c in walk_components(message.components)]


__all__ = ["FakeMember", "InteractionResult", "SELECT_TYPES"]
