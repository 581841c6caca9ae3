"""How the delivery reaches Discord: channels and messages (sent, edited, deleted; through a live
interaction token where one is held, :mod:`bot.hooks`), the clicks a publish may answer through, the
image of a view, and the channels that refuse attachments (there the board goes as text)."""

from __future__ import annotations

import io
import logging
import time
from collections.abc import Callable
from typing import Any, TypeGuard

import discord

import rendering
from bot.click_answer import answerable
from bot.drawing import Drawing
from bot.hooks import Hooks
from bot.tables import ChannelGone, Table

from .words import clip

log = logging.getLogger("admiralty.delivery")

NO_ATTACH_MEMORY = 600.0  # seconds we remember that a channel refused attachments
UNKNOWN_CHANNEL = 10003  # Discord's error code when a channel (or thread) does not exist
NO_PERMISSION = 50013  # Discord's Missing Permissions (here: may not attach files)
# the channels a game's messages are in (they send, and edit their messages by id)
CACHED_MESSAGE_CHANNELS = (
    discord.TextChannel | discord.Thread | discord.VoiceChannel | discord.StageChannel | discord.DMChannel
)
MessageChannel = CACHED_MESSAGE_CHANNELS | discord.PartialMessageable


def picture(png: bytes, filename: str, alt: str) -> discord.File:
    """An image to attach, with its alt text (a screen reader's description; None when empty)."""
    return discord.File(io.BytesIO(png), filename, description=alt or None)


def channel_gone(table: Table, error: BaseException) -> ChannelGone | None:
    """The ChannelGone to raise when ``error`` says the game's channel does not exist, else None."""
    if isinstance(error, discord.NotFound) and error.code == UNKNOWN_CHANNEL:
        return ChannelGone(table.id, table.channel_id)
    return None


def only(*user_ids: int | None) -> discord.AllowedMentions:
    """Mentions that notify exactly these users: never a role, @everyone or @here, nor a user whose
    mention came in with a name (the client's default is :meth:`discord.AllowedMentions.none`)."""
    users = [discord.Object(u) for u in dict.fromkeys(user_ids) if u]
    return discord.AllowedMentions(everyone=False, users=users, roles=False, replied_user=False)


def via_on(via: object, stored: tuple[int, int] | None) -> TypeGuard[discord.Interaction]:
    """Whether ``via`` is an interaction on the message ``stored`` that can redraw it (answered, or
    waiting for its answer)."""
    message = getattr(via, "message", None)
    return (
        isinstance(via, discord.Interaction)
        and stored is not None
        and message is not None
        and message.id == stored[1]
        and answerable(via)
    )


def via_for(vias: tuple[object, ...], stored: tuple[int, int] | None) -> discord.Interaction | None:
    """The newest of ``vias`` (the clicks a publish covers, newest last) made on the message
    ``stored``; the others stay merely acknowledged."""
    for one in reversed(vias):
        if via_on(one, stored):
            return one
    return None


class Transport:
    def __init__(self, client: discord.Client, drawing: Drawing | None = None) -> None:
        self.client = client
        # where every board is drawn, once per view (the bot's pool; a thread without one)
        self.drawing = drawing if drawing is not None else Drawing(0)
        # Interaction tokens still usable: edits, pings and posts through them are not global-limited.
        self.hooks = Hooks()
        self._no_attach: dict[int, float] = {}

    def channel(self, channel_id: int) -> MessageChannel:
        found = self.client.get_channel(channel_id)
        if isinstance(found, CACHED_MESSAGE_CHANNELS):
            return found
        return self.client.get_partial_messageable(channel_id)

    def message(self, channel_id: int, message_id: int) -> discord.PartialMessage:
        """A message to edit or delete through the channel routes (no cache needed)."""
        return self.client.get_partial_messageable(channel_id).get_partial_message(message_id)

    def can_attach(self, channel_id: int) -> bool:
        until = self._no_attach.get(channel_id)
        if until is not None and until > time.monotonic():
            return False
        channel = self.client.get_channel(channel_id)
        guild = getattr(channel, "guild", None)
        if (
            isinstance(channel, (discord.abc.GuildChannel, discord.Thread))
            and guild is not None
            and guild.me is not None
        ):
            try:
                return channel.permissions_for(guild.me).attach_files
            except Exception:  # noqa: BLE001 - partial caches
                return True
        return True

    def refused(self, channel_id: int) -> None:
        """The channel refused an attachment: show the text board there for a while."""
        self._no_attach[channel_id] = time.monotonic() + NO_ATTACH_MEMORY
        log.info("channel %s refuses attachments; showing the text board", channel_id)

    async def image(
        self, table: Table, seat: int | None, view: dict | None = None, *, urgent: bool = False
    ) -> bytes | None:
        """The PNG of the view of ``seat`` (None: the spectators'), drawn once per view and shared by
        every use of it (:mod:`bot.drawing`). ``view``: that view, when the caller has it already. None
        when the game has no renderer or the picture could not be drawn: the caller shows the text board.
        ``urgent``: it answers a click (drawn before the pictures queued so far)."""
        key = table.row.game_key
        if not rendering.has_renderer(key):
            return None
        if view is None:
            view = table.engine.view(seat)
        return await self.drawing.picture(key, view, table.names(), game_id=table.id, urgent=urgent)

    async def send(
        self,
        channel_id: int,
        content: str,
        *,
        png: bytes | None,
        text_board: Callable[[], str],
        view: discord.ui.View | None = None,
        filename: str = "board.png",
        alt: str = "",
    ) -> discord.Message:
        """Send with the image (``alt``: its alt text), or with the text board where attachments are
        refused (``text_board``: makes it, only then)."""
        channel = self.channel(channel_id)
        kwargs: dict[str, Any] = {"view": view} if view is not None else {}
        if png is not None and self.can_attach(channel_id):
            try:
                return await channel.send(clip(content), file=picture(png, filename, alt), **kwargs)
            except discord.Forbidden as e:
                if e.code != NO_PERMISSION:
                    raise
                self._no_attach[channel_id] = time.monotonic() + NO_ATTACH_MEMORY
                log.info("channel %s refuses attachments; sending the text board", channel_id)
        return await channel.send(clip(content + "\n" + text_board()), **kwargs)

    async def edit(
        self,
        channel_id: int,
        message_id: int,
        content: str,
        *,
        png: bytes | None,
        text_board: Callable[[], str],
        view: discord.ui.View | None = None,
        filename: str = "board.png",
        alt: str = "",
    ) -> bool:
        """Edit a message in place: content, image (``alt``: its alt text; or the text board, made by
        ``text_board`` only then) and components (None removes them). False when the message is gone."""
        message = self.message(channel_id, message_id)
        try:
            if png is not None and self.can_attach(channel_id):
                try:
                    if await self.hooks.edit(
                        message_id,
                        content=clip(content),
                        view=view,
                        attachments=[picture(png, filename, alt)],
                    ):
                        return True
                    await message.edit(
                        content=clip(content),
                        view=view,
                        attachments=[picture(png, filename, alt)],
                    )
                    return True
                except discord.Forbidden as e:
                    if e.code != NO_PERMISSION:
                        raise
                    self._no_attach[channel_id] = time.monotonic() + NO_ATTACH_MEMORY
            if await self.hooks.edit(
                message_id, content=clip(content + "\n" + text_board()), attachments=[], view=view
            ):
                return True
            await message.edit(content=clip(content + "\n" + text_board()), attachments=[], view=view)
            return True
        except discord.NotFound:
            return False

    async def retire(self, stored: tuple[int, int], text: str) -> None:
        """Replace a message's content with ``text`` and remove its controls (a game that stopped)."""
        if not await self.hooks.edit(stored[1], content=text, view=None):
            await self.message(*stored).edit(content=text, view=None)

    async def delete(self, channel_id: int, message_id: int) -> None:
        log.debug("deleting message %s in %s", message_id, channel_id)
        try:
            await self.message(channel_id, message_id).delete()
        except (discord.NotFound, discord.Forbidden):
            pass
