"""Delivery: the one place that sends game messages to Discord.

A game in a channel is ONE message, the table (Components V2, built by ``bot/layout.py``: board,
the last lines of the log, seats, status and controls), edited in place for its whole life; a new one
is posted only when it was deleted. When the edit follows a click on the table itself, it goes
through that interaction (``via``), which does not count against Discord's global rate limit.
A person is mentioned only when a turn of theirs begins, by a small separate ping message (kind
``ping:<seat>``), deleted when that turn ends; the half-time reminder replaces it.
Private views go by DM, one message per seat edited in place, touched only when that seat's own
controls or knowledge changed; a DM that Discord refuses (50007) marks the seat, which then uses
the "My view" button. When the bot may not attach files in a channel, the board goes as text.
When the game's channel (or thread) is gone (Discord's Unknown Channel, 10003), a delivery to it
raises :class:`ChannelGone` and the host suspends the game.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import io
import logging
import time
from typing import Any, TypeGuard

import discord

import rendering
from bot import layout, menus, metrics, ui
from bot.games import fill_names
from bot.hooks import Hooks
from bot.storage import Storage
from bot.summary import duration_of, moves_of, summary_text
from bot.tables import ChannelGone, Table
from bot.undo import UNDO_TIMEOUT

log = logging.getLogger("admiralty.delivery")

SEAT_MARKS = layout.SEAT_MARKS
NO_ATTACH_MEMORY = 600.0  # seconds we remember that a channel refused attachments
MAX_CONTENT = 2000
UNKNOWN_CHANNEL = 10003  # Discord's error code when a channel (or thread) does not exist
# the channels a game's messages are in (they send, and edit their messages by id)
CACHED_MESSAGE_CHANNELS = (
    discord.TextChannel | discord.Thread | discord.VoiceChannel | discord.StageChannel | discord.DMChannel
)
MessageChannel = CACHED_MESSAGE_CHANNELS | discord.PartialMessageable


def channel_gone(table: Table, error: BaseException) -> ChannelGone | None:
    """The ChannelGone to raise when ``error`` says the game's channel does not exist, else None."""
    if isinstance(error, discord.NotFound) and error.code == UNKNOWN_CHANNEL:
        return ChannelGone(table.id, table.channel_id)
    return None


def said(table: Table, text: str) -> str:
    """A game's text (event, prompt, label) with its seat references filled with the players' names."""
    return fill_names(text, table.names())


def clip(text: str, limit: int = MAX_CONTENT) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def your_turn(prompt: str) -> str:
    """'**Your turn** — <prompt>', without saying it twice when the game's prompt already does."""
    bare = prompt.strip()
    if bare.lower().startswith("your turn"):
        bare = bare[len("your turn") :].lstrip(" :—-,.")
    return f"**Your turn** — {bare}" if bare else "**Your turn**"


def my_view_label(table: Table) -> str:
    """The label of the button that shows a player their private view ("My hand", "My fleet", …)."""
    return table.spec.private_words.label


def result_text(table: Table, moves: int) -> str:
    """The game-over text (:func:`bot.summary.summary_text`); ``moves``: its move number (``moves_of``)."""
    return summary_text(table, moves, duration_of(table.row))


def paused_text(table: Table) -> str:
    """The status of a game with no human player left (:attr:`Table.deserted`)."""
    text = "⏸ **Paused**: nobody is left to play. A player takes their seat back with `/game join`"
    if table.row.deadline:
        return f"{text}; otherwise the game is abandoned <t:{int(table.row.deadline)}:R>."
    return text + "."


def dm_digest(asked: bool, tree: str) -> tuple[int, int]:
    """What a seat's DM shows, stored beside its message (kind ``dmview:<seat>``): whether it carries
    controls, and a 60-bit digest of its menu tree."""
    return int(asked), int(hashlib.sha256(tree.encode()).hexdigest()[:15], 16)


# What the DM of a seat whose owner plays from the table shows (its "My view" button, no menu): stored
# as its ``dmview`` digest, so every process knows the DM waits for its button.
AWAY_TREE = "away: plays from the table"
AWAY = dm_digest(False, AWAY_TREE)


class Stored:
    """The stored messages of one game (kind → (channel id, message id)), as one delivery step uses
    them. Without ``known`` each kind is read from the database when asked; a publish reads them all
    at once (:meth:`DiscordDelivery.publish`: ONE query, not one per kind and seat) and keeps that
    copy current with its own writes. The copy lives only for that publish: the database decides.

    Within a publish, a write whose loss is harmless (``lazy``: a DM's digest; lost, the DM is merely
    drawn again) waits for the publish's next write, or its end (:meth:`flush`), and goes with it."""

    def __init__(
        self, storage: Storage, game_id: int, known: dict[str, tuple[int, int]] | None = None
    ) -> None:
        self.storage = storage
        self.game_id = game_id
        self.known = known
        self.pending: dict[str, tuple[int, int] | None] = {}

    @classmethod
    async def read(cls, storage: Storage, game_id: int) -> Stored:
        """Every stored message of the game, read now in one query."""
        return cls(storage, game_id, await storage.messages(game_id))

    async def get(self, kind: str) -> tuple[int, int] | None:
        if self.known is not None:
            return self.known.get(kind)
        return await self.storage.get_message(self.game_id, kind)

    async def set(self, kind: str, channel_id: int, message_id: int, *, lazy: bool = False) -> None:
        if self.known is not None:
            self.known[kind] = (channel_id, message_id)
        await self._save(kind, (channel_id, message_id), lazy)

    async def delete(self, kind: str) -> None:
        if self.known is not None:
            self.known.pop(kind, None)
        await self._save(kind, None, False)

    async def _save(self, kind: str, pair: tuple[int, int] | None, lazy: bool) -> None:
        self.pending.pop(kind, None)
        changes, self.pending = {**self.pending, kind: pair}, {}
        if lazy and self.known is not None:
            self.pending = changes
            return
        await self.storage.save_messages(self.game_id, changes)  # one transaction, one round trip

    async def flush(self) -> None:
        """Write what waits (the lazy writes)."""
        changes, self.pending = self.pending, {}
        if changes:
            await self.storage.save_messages(self.game_id, changes)


class DiscordDelivery:
    # The lines of the game's log the table shows, and the game's stored messages: the publisher reads
    # them with the game (one query; ``Table.log``, ``Table.messages``).
    log_lines = layout.LOG_LINES
    keeps_messages = True

    def __init__(self, client: discord.Client, storage: Storage) -> None:
        self.client = client
        self.storage = storage
        self._no_attach: dict[int, float] = {}
        # Interaction tokens still usable: edits, pings and posts through them are not global-limited.
        self.hooks = Hooks()
        # Seats whose owner last played outside their DM (the table's menus), as this process last saw
        # them (for the ping's wording; the database's ``dmview`` digest decides).

    # ------------------------------------------------------------- helpers
    def channel(self, channel_id: int) -> MessageChannel:
        found = self.client.get_channel(channel_id)
        if isinstance(found, CACHED_MESSAGE_CHANNELS):
            return found
        return self.client.get_partial_messageable(channel_id)

    def can_attach(self, channel_id: int) -> bool:
        until = self._no_attach.get(channel_id)
        if until is not None and until > time.monotonic():
            return False
        channel = self.client.get_channel(channel_id)
        guild = getattr(channel, "guild", None)
        if (
            isinstance(channel, discord.abc.GuildChannel | discord.Thread)
            and guild is not None
            and guild.me is not None
        ):
            try:
                return channel.permissions_for(guild.me).attach_files
            except Exception:  # noqa: BLE001 - partial caches
                return True
        return True

    async def image(self, table: Table, seat: int | None) -> bytes | None:
        if not rendering.has_renderer(table.row.game_key):
            return None
        view = table.engine.view(seat)
        return await asyncio.to_thread(
            metrics.timed_render, rendering.render, table.row.game_key, view, table.names()
        )

    async def _send(
        self,
        channel_id: int,
        content: str,
        *,
        png: bytes | None,
        text_board: str,
        view: discord.ui.View | None = None,
        filename: str = "board.png",
    ) -> discord.Message:
        """Send with the image, or with the text board where attachments are refused."""
        channel = self.channel(channel_id)
        kwargs: dict[str, Any] = {"view": view} if view is not None else {}
        if png is not None and self.can_attach(channel_id):
            try:
                return await channel.send(
                    clip(content), file=discord.File(io.BytesIO(png), filename), **kwargs
                )
            except discord.Forbidden as e:
                if e.code != 50013:
                    raise
                self._no_attach[channel_id] = time.monotonic() + NO_ATTACH_MEMORY
                log.info("channel %s refuses attachments; sending the text board", channel_id)
        return await channel.send(clip(content + "\n" + text_board), **kwargs)

    async def _edit(
        self,
        channel_id: int,
        message_id: int,
        content: str,
        *,
        png: bytes | None,
        text_board: str,
        view: discord.ui.View | None = None,
        filename: str = "board.png",
    ) -> bool:
        """Edit a message in place: content, image (or text board) and components (None removes them).
        False when the message is gone."""
        message = self.channel(channel_id).get_partial_message(message_id)
        try:
            if png is not None and self.can_attach(channel_id):
                try:
                    if await self.hooks.edit(
                        message_id,
                        content=clip(content),
                        view=view,
                        attachments=[discord.File(io.BytesIO(png), filename)],
                    ):
                        return True
                    await message.edit(
                        content=clip(content),
                        view=view,
                        attachments=[discord.File(io.BytesIO(png), filename)],
                    )
                    return True
                except discord.Forbidden as e:
                    if e.code != 50013:
                        raise
                    self._no_attach[channel_id] = time.monotonic() + NO_ATTACH_MEMORY
            if await self.hooks.edit(
                message_id, content=clip(content + "\n" + text_board), attachments=[], view=view
            ):
                return True
            await message.edit(content=clip(content + "\n" + text_board), attachments=[], view=view)
            return True
        except discord.NotFound:
            return False

    async def _delete(self, channel_id: int, message_id: int) -> None:
        log.debug("deleting message %s in %s", message_id, channel_id)
        try:
            await self.channel(channel_id).get_partial_message(message_id).delete()
        except (discord.NotFound, discord.Forbidden):
            pass

    # ---------------------------------------------------------------- lobby
    def lobby_text(self, table: Table, note: str = "") -> str:
        spec = table.spec
        seats = "\n".join(
            f"{layout.seat_mark(s.seat)} {s.name}" + (" (host)" if s.user_id == table.row.host_id else "")
            for s in table.seats
        )
        opts = ", ".join(f"{k}: {v}" for k, v in table.row.options.items()) or "defaults"
        timer = table.row.turn_timeout
        timer_text = (
            f"{timer / 3600:g} h" if timer and timer >= 3600 else (f"{timer:g} s" if timer else "none")
        )
        text = (
            f"⚓ **{spec.title}** — game #{table.id}, hosted by <@{table.row.host_id}>\n"
            f"Players ({len(table.seats)}/{spec.max_players}, at least {spec.min_players}):\n{seats}\n"
            f"Options: {opts} · turn timer: {timer_text}\n"
            "Anyone may join (button or `/game join`) and leave. The host alone adds AI seats, "
            "kicks a player or AI seat (`/game kick`), starts or cancels."
        )
        if table.row.thread_id:
            text += f"\nThe game is played in its thread: <#{table.row.thread_id}>"
        if note:
            text += f"\n*{note}*"
        return text

    async def lobby(self, table: Table, note: str = "") -> None:
        content = self.lobby_text(table, note)
        stored = await self.storage.get_message(table.id, "lobby")
        if stored is not None:
            try:
                await (
                    self.channel(stored[0])
                    .get_partial_message(stored[1])
                    .edit(content=clip(content), view=ui.lobby_view(table.id))
                )
                return
            except discord.NotFound:
                pass
        try:
            # The lobby stays in the channel (where people see it), the game itself in its thread.
            msg = await self.channel(table.row.channel_id).send(
                clip(content), view=ui.lobby_view(table.id), allowed_mentions=discord.AllowedMentions.none()
            )
        except discord.NotFound as e:
            gone = channel_gone(table, e)
            if gone is None:
                raise
            raise gone from e
        await self.storage.set_message(table.id, "lobby", msg.channel.id, msg.id)

    async def lobby_closed(self, table: Table, text: str) -> None:
        stored = await self.storage.get_message(table.id, "lobby")
        if stored is None:
            return
        content = self.lobby_text(table) + f"\n**{text}**"
        try:
            await (
                self.channel(stored[0]).get_partial_message(stored[1]).edit(content=clip(content), view=None)
            )
        except discord.NotFound:
            pass

    # -------------------------------------------------------------- the table
    def seats_text(self, table: Table) -> str:
        game = table.game
        to_act = set(game.to_act()) if game is not None and not table.over else set()
        scores = {}
        if game is not None:
            try:
                raw = game.view(None).get("scores")
            except Exception:  # noqa: BLE001 - a view without scores
                raw = None
            if isinstance(raw, dict):
                scores = {int(k): v for k, v in raw.items()}
            elif isinstance(raw, list):
                scores = dict(enumerate(raw))
        lines = []
        for row in sorted(table.seats, key=lambda s: s.seat):
            name = row.name
            if row.is_ai and not name.endswith("(AI)"):
                name += " (AI)"
            line = f"{layout.seat_mark(row.seat)} **{name}**"
            if row.seat in scores:
                line += f" · {scores[row.seat]}"
            if row.missed and not row.is_ai:
                line += " · away"
            if row.seat in to_act:
                line += " · ▶ to act"
            lines.append(line)
        return "\n".join(lines)

    def status_text(self, table: Table, moves: int) -> str:
        game = table.engine
        if table.over:
            return result_text(table, moves)
        if table.deserted:
            return paused_text(table)
        to_act = game.to_act()
        if len(to_act) == 1:
            seat = to_act[0]
            row = table.seat_row(seat)
            if row.is_ai:
                text = f"{layout.seat_mark(seat)} **{row.name}** is thinking…"
            else:
                prompt = said(table, game.prompt(seat)).strip()
                text = f"▶ {layout.seat_mark(seat)} **{row.name}** to act" + (
                    f" — {prompt}" if prompt else ""
                )
        else:
            names = ", ".join(f"**{table.seat_row(s).name}**" for s in to_act)
            text = f"Waiting for {names} to choose in secret — see your DMs or **{my_view_label(table)}**"
        if table.row.deadline:
            text += f"\n⏳ <t:{int(table.row.deadline)}:R>"
        return text

    def table_controls(self, table: Table, level: menus.Level | None = None) -> list[list[discord.ui.Item]]:
        game = table.engine
        if table.over:
            return [[ui.play_again_button(table.id), ui.replay_button(table.id)]]
        label = my_view_label(table) if table.spec.has_private_view else None
        to_act = game.to_act()
        view = None
        if table.spec.public_controls and len(to_act) == 1 and not table.seat_row(to_act[0]).is_ai:
            seat = to_act[0]
            if level is None:
                level = menus.open_level(game, seat, names=table.names())
            if level is not None and level.entries:
                view = ui.menu_view(table.id, table.version, seat, level, my_view_label=label)
        if view is None:
            if not label:
                return []
            view = ui.my_view_only(table.id, label)
        rows: dict[int, list[discord.ui.Item]] = {}
        for item in view.children:
            rows.setdefault(item.row or 0, []).append(item)
        return [rows[r] for r in sorted(rows)]

    async def table_view(
        self, table: Table, *, level: menus.Level | None = None, status: str | None = None, image: bool = True
    ) -> tuple[discord.ui.LayoutView, bytes | None]:
        """The table's LayoutView and its PNG (None: no image, or the text board is shown instead)."""
        game = table.engine
        over = table.over or status is not None
        to_act = [] if over else game.to_act()
        accent = layout.OVER_COLOUR if over or not to_act else layout.seat_colour(to_act[0])
        # The board is an image where one can be drawn and attached, else the text board. ``image``
        # False: the image already on the message stays (a sub-menu shown in the table's controls).
        attach = rendering.has_renderer(table.row.game_key) and self.can_attach(table.channel_id)
        png = await self.image(table, None) if image and attach else None
        text_board = None if attach else game.text_view(game.view(None), table.names())
        lines = (
            table.log if table.log is not None else await self.storage.recent_log(table.id, layout.LOG_LINES)
        )
        log_lines = [said(table, line) for line in lines[-layout.LOG_LINES :]]
        moves = await moves_of(self.storage, table)
        parts = layout.TableParts(
            title=f"⚓ **{table.spec.title}** · game #{table.id} · move {moves}",
            log=log_lines,
            seats=self.seats_text(table),
            status=status if status is not None else self.status_text(table, moves),
            accent=accent,
            text_board=text_board,
            image=text_board is None,
            controls=[] if status is not None else self.table_controls(table, level),
        )
        return layout.table_layout(parts), png

    @staticmethod
    def _via_on(via: object, stored: tuple[int, int] | None) -> TypeGuard[discord.Interaction]:
        """Whether ``via`` is an interaction on the message ``stored`` (that we may edit through it)."""
        message = getattr(via, "message", None)
        return (
            isinstance(via, discord.Interaction)
            and stored is not None
            and message is not None
            and message.id == stored[1]
            and via.response.is_done()
        )

    @classmethod
    def _via_for(cls, vias: tuple[object, ...], stored: tuple[int, int] | None) -> discord.Interaction | None:
        """The newest of ``vias`` (the clicks a publish covers, newest last) made on the message
        ``stored``; the others stay merely acknowledged."""
        for one in reversed(vias):
            if cls._via_on(one, stored):
                return one
        return None

    async def _publish_table(
        self, table: Table, note: str, vias: tuple[object, ...] = (), messages: Stored | None = None
    ) -> None:
        messages = messages or Stored(self.storage, table.id)
        stored = await messages.get("table")
        if stored is None:
            for old in ("board", "turn"):  # games started before the table message
                previous = await messages.get(old)
                if previous is not None:
                    await self._delete(*previous)
                    await messages.delete(old)
        view, png = await self.table_view(table)
        if stored is not None and await self._edit_table(table, stored, view, png, vias):
            return
        channel = self.channel(table.channel_id)
        if png is not None:
            try:
                msg: discord.Message | None = await self.hooks.post(
                    table.channel_id, view=view, file=discord.File(io.BytesIO(png), layout.BOARD_FILE)
                )
                if msg is None:
                    msg = await channel.send(view=view, file=discord.File(io.BytesIO(png), layout.BOARD_FILE))
                await messages.set("table", msg.channel.id, msg.id)
                return
            except discord.Forbidden as e:
                if e.code != 50013:
                    raise
                self._refused(table.channel_id)
                view, png = await self.table_view(table)
        msg = await self.hooks.post(table.channel_id, view=view) or await channel.send(view=view)
        await messages.set("table", msg.channel.id, msg.id)

    def _refused(self, channel_id: int) -> None:
        self._no_attach[channel_id] = time.monotonic() + NO_ATTACH_MEMORY
        log.info("channel %s refuses attachments; showing the text board", channel_id)

    async def _edit_table(
        self,
        table: Table,
        stored: tuple[int, int],
        view: discord.ui.LayoutView,
        png: bytes | None,
        vias: tuple[object, ...] = (),
    ) -> bool:
        """Edit the table in place (through the interaction when it was clicked). False when it is gone."""
        files = [discord.File(io.BytesIO(png), layout.BOARD_FILE)] if png is not None else []
        via = self._via_for(vias, stored)
        if via is not None:
            try:
                await via.edit_original_response(view=view, attachments=files)
                return True
            except discord.Forbidden as e:
                if e.code != 50013 or not files:
                    raise
                self._refused(table.channel_id)
                view, _ = await self.table_view(table, image=False)
                await via.edit_original_response(view=view, attachments=[])
                return True
            except discord.HTTPException:
                log.info(
                    "game %s: editing the table through the interaction failed; using the channel", table.id
                )
        message = self.channel(stored[0]).get_partial_message(stored[1])
        try:
            try:
                # An earlier click on the table (or the post) whose token still lives: not global-limited.
                if await self.hooks.edit(stored[1], view=view, attachments=files):
                    return True
                files = [discord.File(io.BytesIO(png), layout.BOARD_FILE)] if png is not None else []
                await message.edit(view=view, attachments=files)
            except discord.Forbidden as e:
                if e.code != 50013 or not files:
                    raise
                self._refused(table.channel_id)
                view, _ = await self.table_view(table, image=False)
                await message.edit(view=view, attachments=[])
            return True
        except discord.NotFound as e:
            if channel_gone(table, e) is not None:
                raise
            return False

    async def show_level(self, table: Table, level: menus.Level, via) -> None:
        """A sub-menu of a public-controls game: the table's controls show it (edited through the click)."""
        view, _ = await self.table_view(table, level=level, image=False)
        await via.edit_original_response(view=view)  # the board.png already attached stays

    # ---------------------------------------------------------------- pings
    def ping_text(self, table: Table, seat: int, reminder: float | None = None, *, away: bool = False) -> str:
        """The ping of ``seat``; ``away``: their DM shows only its button (they play from the table)."""
        row = table.seat_row(seat)
        if reminder is not None:
            text = (
                f"⏰ <@{row.user_id}>, it is still your turn in **{table.spec.title}** (game #{table.id}): "
                f"a move will be made for you <t:{int(reminder)}:R>"
            )
        else:
            text = f"<@{row.user_id}>, your turn in **{table.spec.title}** (game #{table.id})"
        if table.spec.has_private_view:
            if row.dm_ok is False or away:
                text += f" — use the **{my_view_label(table)}** button on the table"
            else:
                text += f" — your {table.spec.private_words.noun} is in your DMs"
        return text

    async def _post_ping(
        self,
        table: Table,
        seat: int,
        text: str,
        vias: tuple[object, ...] = (),
        messages: Stored | None = None,
    ) -> None:
        """Post the ping: as a follow-up of a live interaction in the channel (the click that caused it,
        or another recent one: not global-limited) where there is one, else through the channel."""
        mentions = discord.AllowedMentions(users=True, roles=False, everyone=False)
        msg: discord.Message | None = await self.hooks.post(
            table.channel_id, clip(text), vias=vias, allowed_mentions=mentions
        )
        if msg is None:
            msg = await self.channel(table.channel_id).send(clip(text), allowed_mentions=mentions)
        await (messages or Stored(self.storage, table.id)).set(f"ping:{seat}", msg.channel.id, msg.id)

    async def _drop_ping(self, table: Table, seat: int, messages: Stored | None = None) -> None:
        messages = messages or Stored(self.storage, table.id)
        stored = await messages.get(f"ping:{seat}")
        if stored is None:
            return
        await messages.delete(f"ping:{seat}")
        if await self.hooks.delete(stored[1]):  # through the token that posted it: not global-limited
            return
        await self._delete(*stored)

    async def _pings(
        self, table: Table, vias: tuple[object, ...] = (), messages: Stored | None = None
    ) -> None:
        """Mention a person when a turn of theirs begins (once); remove the ping when it ended."""
        messages = messages or await Stored.read(self.storage, table.id)
        game = table.game
        acting = set(table.human_to_act()) if table.row.status == "running" else set()
        for row in table.seats:
            seat = row.seat
            stored = await messages.get(f"ping:{seat}")
            if seat in acting and row.user_id:
                if stored is None and game is not None:
                    text = self.ping_text(table, seat, away=await self.dm_away(table, seat, messages))
                    await self._post_ping(table, seat, text, vias, messages)
            elif stored is not None:
                await self._drop_ping(table, seat, messages)

    async def publish(
        self,
        table: Table,
        events: list[dict],
        note: str = "",
        actors: tuple[int, ...] = (),
        vias: tuple[object, ...] = (),
    ) -> None:
        """The table (edited in place), pings, then private views. Each step is tried even if an
        earlier one failed; the first failure is raised at the end so that the host retries the whole."""
        # Every message of the game (table, DMs, their digests, pings) in ONE read (read with the game by
        # the publisher, else now), kept current with this publish's own writes.
        if table.messages is not None:
            messages = Stored(self.storage, table.id, dict(table.messages))
        else:
            messages = await Stored.read(self.storage, table.id)
        try:
            await self._publish_with(table, events, note, actors, vias, messages)
        except BaseException:
            with contextlib.suppress(Exception):
                await messages.flush()
            raise
        await messages.flush()

    async def _publish_with(
        self,
        table: Table,
        events: list[dict],
        note: str,
        actors: tuple[int, ...],
        vias: tuple[object, ...],
        messages: Stored,
    ) -> None:
        failures: list[BaseException] = []
        # A publish may cover several actions (moves made while the one before was being shown): the
        # seats that acted and the clicks, newest last (:class:`bot.tables.Delivery`).
        if table.spec.has_private_view:  # first: a refused DM is then in the table's log and its ping
            refused = False
            for seat_row in table.seats:
                if seat_row.is_ai or not seat_row.user_id:
                    continue
                private = [e for e in events if e.get("private_to") == seat_row.seat]
                try:
                    refused |= await self.private(
                        table,
                        seat_row.seat,
                        private,
                        in_place=seat_row.seat in actors,
                        vias=vias if seat_row.seat in actors else (),
                        messages=messages,
                    )
                except discord.HTTPException as e:
                    failures.append(e)
                    log.warning("game %s: private update for seat %s failed: %s", table.id, seat_row.seat, e)
            if refused:
                table.seats = await self.storage.seats(table.id)  # a seat's dm_ok changed
                table.log = None  # and the log says so: the table reads it again
        for step in (self._publish_table, self._publish_pings):
            try:
                await step(table, note, vias, messages)
            except discord.HTTPException as e:
                gone = channel_gone(table, e)
                if gone is not None:
                    raise gone from e
                failures.append(e)
                log.warning("game %s: %s failed: %s", table.id, step.__name__, e)
        if failures:
            raise failures[0]

    async def _publish_pings(
        self, table: Table, note: str, vias: tuple[object, ...] = (), messages: Stored | None = None
    ) -> None:
        await self._pings(table, vias, messages)

    # -------------------------------------------------------------- private
    def private_controls(self, table: Table, seat: int) -> tuple[str, discord.ui.View | None]:
        game = table.engine
        if table.over or seat not in game.to_act():
            return "", None
        level = menus.open_level(game, seat, names=table.names())
        if level is None or not level.entries:
            return "", None
        return said(table, game.prompt(seat)), ui.menu_view(table.id, table.version, seat, level)

    async def dm_away(self, table: Table, seat: int, messages: Stored | None = None) -> bool:
        """Whether the seat's owner plays outside their DM: their DM shows only its button, as stored
        (by whichever process drew it last: not this process's memory)."""
        shown = await self._dm_shown(table.id, seat, messages)
        return shown is not None and tuple(shown) == AWAY

    async def private(
        self,
        table: Table,
        seat: int,
        private_events: list[dict],
        *,
        in_place: bool = False,
        vias: tuple[object, ...] = (),
        follow: bool = False,
        messages: Stored | None = None,
    ) -> bool:
        """Keep the DM of one seat (one message per game, edited in place, never re-posted while it
        exists): its private view, private events, its controls.

        Touched only when something of its own changed: its turn began or ended, its menu changed, it
        learnt something private, or it is the seat that just acted from this DM (``in_place``, edited
        through the newest of ``vias``, its clicks). Another seat's move leaves it alone: a menu it is in
        the middle of stays under its cursor (its buttons stay valid through the menu digest). The seat whose turn
        begins is told by the channel's ping, not by a new DM. A seat whose owner played from the
        table instead (its menus there) is left alone, private news too (its view there shows it),
        until they press the DM's button. Edits go through a live interaction token of that DM where one is held.
        True when Discord refused the DM (the seat is then marked: its ``dm_ok`` is False)."""
        row = table.seat_row(seat)
        if row.dm_ok is False:
            return False
        messages = messages or Stored(self.storage, table.id)
        game = table.engine
        stored = await messages.get(f"dm:{seat}")
        before = await self._dm_shown(table.id, seat, messages)
        dm_via = self._via_for(vias, stored)
        if dm_via is not None or follow:
            away = False
        elif in_place and any(isinstance(c, discord.Interaction) and c.user.id == row.user_id for c in vias):
            away = True  # played from the table: this DM no longer follows every move
        else:
            away = before is not None and tuple(before) == AWAY
        away = away and not table.over
        view: discord.ui.View | None
        if away:
            label = my_view_label(table)
            prompt, view = "", ui.my_view_only(table.id, label)
            asked, tree = False, AWAY_TREE
        else:
            prompt, view = self.private_controls(table, seat)
            asked = view is not None
            tree = menus.build_tree(game, seat).key if asked else ""
        acted_here = in_place and not away
        news = private_events and not away  # a seat away sees its news in its view (its "My view" button)
        if (
            stored is not None
            and dm_via is None
            and not follow
            and not acted_here
            and not news
            and before is not None
            and tuple(before) == dm_digest(asked, tree)
        ):
            return False
        png = await self.image(table, seat)
        moves = await moves_of(self.storage, table)
        lines = [f"⚓ **{table.spec.title}** · game #{table.id} · move {moves}"]
        lines += [f"> {said(table, e['text'])}" for e in private_events if e.get("text") and not away]
        if prompt:
            lines.append(your_turn(prompt))
        elif table.over:
            lines.append(result_text(table, moves))
        elif away:
            lines.append(
                f"*You play from the table: this shows move {moves}. Press "
                f"**{my_view_label(table)}** here to see it now and play from here.*"
            )
        content = "\n".join(lines)
        text_board = game.text_view(game.view(seat), table.names())
        try:
            if dm_via is not None:
                try:
                    if png is not None:
                        await dm_via.edit_original_response(
                            content=clip(content),
                            view=view,
                            attachments=[discord.File(io.BytesIO(png), "view.png")],
                        )
                    else:
                        await dm_via.edit_original_response(
                            content=clip(content + "\n" + text_board), view=view, attachments=[]
                        )
                    await self._dm_showed(table.id, seat, asked, tree, messages)
                    return False
                except discord.HTTPException:
                    log.info("game %s: editing seat %s's DM through the interaction failed", table.id, seat)
            if stored is not None:
                if await self._edit(
                    stored[0],
                    stored[1],
                    content,
                    png=png,
                    text_board=text_board,
                    view=view,
                    filename="view.png",
                ):
                    await self._dm_showed(table.id, seat, asked, tree, messages)
                    return False
                dm_id = stored[0]  # the message is gone; the DM channel is known (no create-DM call)
            else:
                assert row.user_id is not None  # DMs are kept for human seats only
                dm_id = (await self.client.create_dm(discord.Object(row.user_id))).id
            msg = await self._send(
                dm_id, content, png=png, text_board=text_board, view=view, filename="view.png"
            )
            await messages.set(f"dm:{seat}", dm_id, msg.id)
            await self._dm_showed(table.id, seat, asked, tree, messages)
        except discord.Forbidden as e:
            if e.code != 50007:
                raise
            await self.storage.update_seat(table.id, seat, dm_ok=False)
            await self.storage.add_log(
                table.id,
                f"I cannot send {row.name} direct messages: they use the "
                f"{my_view_label(table)} button on the table.",
            )
            return True
        return False

    async def refresh_dm(self, table: Table, seat: int, via: discord.Interaction) -> None:
        """The DM's button was pressed: the DM shows the seat's view and controls now (edited through
        the click) and follows the game again."""
        stored = await self.storage.get_message(table.id, f"dm:{seat}")
        await self.private(
            table, seat, [], in_place=True, vias=(via,) if self._via_on(via, stored) else (), follow=True
        )

    async def _dm_shown(
        self, game_id: int, seat: int, messages: Stored | None = None
    ) -> tuple[int, int] | None:
        """What the seat's DM shows now: (1 if it carries controls else 0, digest of its menu tree), as
        recorded in the database by whichever process wrote it last (a DM click of a game of any shard
        is answered by shard 0's process; the others publish it too)."""
        return await (messages or Stored(self.storage, game_id)).get(f"dmview:{seat}")

    async def _dm_showed(
        self, game_id: int, seat: int, asked: bool, tree: str, messages: Stored | None = None
    ) -> None:
        await (messages or Stored(self.storage, game_id)).set(
            f"dmview:{seat}", *dm_digest(asked, tree), lazy=True
        )

    # ----------------------------------------------------------------- misc
    async def shown(self, table: Table) -> bool:
        """Whether the game's board message is still in its channel (/game status posts it again if not)."""
        stored = await self.storage.get_message(table.id, "table")
        if stored is None:
            return False
        try:
            await self.channel(stored[0]).fetch_message(stored[1])
            return True
        except discord.NotFound:
            return False

    async def ended(self, table: Table, text: str) -> None:
        """The game stopped early: the table shows it without controls, pings go, DMs lose their controls."""
        messages = await Stored.read(self.storage, table.id)
        stored = await messages.get("table")
        if stored is not None and table.game is not None:
            try:
                view, png = await self.table_view(table, status=f"🏳️ {text}")
                await self._edit_table(table, stored, view, png)
            except discord.HTTPException:
                log.info("game %s: could not retire the table", table.id)
        for seat_row in table.seats:
            try:
                await self._drop_ping(table, seat_row.seat, messages)
            except discord.HTTPException:
                pass
        kinds = ["turn"] + [f"dm:{s.seat}" for s in table.seats]
        for kind in kinds:
            stored = await messages.get(kind)
            if stored is None:
                continue
            try:
                if not await self.hooks.edit(stored[1], content=f"🏳️ {text}", view=None):
                    await (
                        self.channel(stored[0])
                        .get_partial_message(stored[1])
                        .edit(content=f"🏳️ {text}", view=None)
                    )
            except discord.HTTPException:
                log.info("game %s: could not retire the %s message", table.id, kind)

    async def notice(self, table: Table, text: str) -> None:
        """A plain message in the game's channel (for what must be one; the table's log holds the rest)."""
        try:
            await self.channel(table.channel_id).send(
                clip(text), allowed_mentions=discord.AllowedMentions(users=True, roles=False, everyone=False)
            )
        except discord.NotFound as e:
            gone = channel_gone(table, e)
            if gone is None:
                raise
            raise gone from e

    async def remind(self, table: Table, seats: list[int], seconds_left: float) -> None:
        """Half time: the ping of each absent seat becomes a reminder. A turn notifies its player once:
        the ping is edited into the reminder (an edit notifies nobody); only a seat whose ping is gone
        gets the reminder as a new message."""
        deadline = time.time() + seconds_left
        messages = await Stored.read(self.storage, table.id)
        for seat in seats:
            row = table.seat_row(seat)
            if not row.user_id or row.is_ai:
                continue
            try:
                text = self.ping_text(
                    table, seat, reminder=deadline, away=await self.dm_away(table, seat, messages)
                )
                stored = await messages.get(f"ping:{seat}")
                if stored is not None:
                    try:
                        if not await self.hooks.edit(stored[1], content=clip(text)):
                            ping = self.client.get_partial_messageable(stored[0]).get_partial_message(
                                stored[1]
                            )
                            await ping.edit(content=clip(text))
                        continue
                    except discord.NotFound as e:
                        if channel_gone(table, e) is not None:
                            raise
                        await messages.delete(f"ping:{seat}")  # deleted by someone: post it again
                await self._post_ping(table, seat, text, messages=messages)
            except discord.NotFound as e:
                gone = channel_gone(table, e)
                if gone is None:
                    raise
                raise gone from e

    async def undo_request(
        self, table: Table, seat: int, version: int, needed: list[int], label: str
    ) -> None:
        """Undo by agreement: one message in the game's channel that mentions the players asked, with
        [Accept] [Decline] (``adm:undo:<game>:<version>:yes|no``); the host checks who clicks."""
        asked = " ".join(f"<@{table.seat_row(s).user_id}>" for s in needed if table.seat_row(s).user_id)
        text = (
            f"↩ {asked}: **{table.seat_row(seat).name}** asks to undo their last move ({label}) in game "
            f"#{table.id}. Everyone must accept; any move meanwhile, a decline or "
            f"{int(UNDO_TIMEOUT // 60)} minutes without an answer keeps it."
        )
        try:
            await self.channel(table.channel_id).send(
                clip(text),
                view=ui.undo_answer_view(table.id, version),
                allowed_mentions=discord.AllowedMentions(users=True, roles=False, everyone=False),
            )
        except discord.NotFound as e:
            gone = channel_gone(table, e)
            if gone is None:
                raise
            raise gone from e

    async def probe_dm(self, user_id: int, text: str) -> bool:
        try:
            dm = await self.client.create_dm(discord.Object(user_id))
            await dm.send(text)
            return True
        except discord.Forbidden as e:
            if e.code == 50007:
                return False
            raise
        except discord.HTTPException:
            log.warning("could not probe DMs of user %s", user_id, exc_info=True)
            return False
