"""Pings: a person is mentioned only when a turn of theirs begins, by a small separate message in the
game's channel (kind ``ping:<seat>``), deleted when that turn ends; the half-time reminder replaces it.
A ping goes as a follow-up of a live interaction in the channel where there is one (not global-limited)."""

from __future__ import annotations

import time

import discord

from bot.i18n import ENGLISH, Speaker
from bot.storage import Storage
from bot.tables import Table

from .alerts import Alerts
from .channel_language import channel_speaker
from .stored import Stored
from .transport import Transport, channel_gone, only
from .words import clip, my_view_label


class Pings:
    def __init__(self, transport: Transport, storage: Storage) -> None:
        self.transport = transport
        self.storage = storage
        # a person with alert preferences of their own (/notify) is alerted through these instead
        self.alerts = Alerts(transport, storage, self.ping)

    def text(
        self,
        table: Table,
        seat: int,
        reminder: float | None = None,
        *,
        away: bool = False,
        speaker: Speaker = ENGLISH,
    ) -> str:
        """The ping of ``seat`` in the channel's language (``speaker``); ``away``: their DM shows only
        its button (they play from the table)."""
        _ = speaker.gettext
        row = table.seat_row(seat)
        where = {"player": f"<@{row.user_id}>", "game": _(table.spec.title), "id": table.id}
        if reminder is not None:
            text = _(
                "⏰ {player}, it is still your turn in **{game}** (game #{id}): a move will be made for you "
                "{when}",
                when=f"<t:{int(reminder)}:R>",
                **where,
            )
        else:
            text = _("{player}, your turn in **{game}** (game #{id})", **where)
        if table.spec.has_private_view:
            if row.dm_ok is False or away:
                text += " — " + _(
                    "use the **{button}** button on the table", button=my_view_label(table, speaker)
                )
            else:
                text += " — " + _("your {noun} is in your DMs", noun=_(table.spec.private_words.noun))
        return text

    async def post(
        self,
        table: Table,
        seat: int,
        text: str,
        vias: tuple[object, ...] = (),
        messages: Stored | None = None,
    ) -> None:
        """Post the ping: as a follow-up of a live interaction in the channel (the click that caused it,
        or another recent one: not global-limited) where there is one, else through the channel."""
        mentions = only(table.seat_row(seat).user_id)
        msg: discord.Message | discord.WebhookMessage | None
        msg = await self.transport.hooks.post(
            table.channel_id, clip(text), vias=vias, allowed_mentions=mentions
        )
        if msg is None:
            msg = await self.transport.channel(table.channel_id).send(clip(text), allowed_mentions=mentions)
        await (messages or Stored(self.storage, table.id)).set(f"ping:{seat}", msg.channel.id, msg.id)

    async def drop(self, table: Table, seat: int, messages: Stored | None = None) -> None:
        messages = messages or Stored(self.storage, table.id)
        stored = await messages.get(f"ping:{seat}")
        if stored is None:
            return
        if not await messages.claim(f"ping:{seat}", stored[1]):
            return  # another process forgot it first, and deletes it
        # through the token that posted it where this process holds one: not global-limited
        if await self.transport.hooks.delete(stored[1]):
            return
        await self.transport.delete(*stored)

    async def publish(
        self, table: Table, vias: tuple[object, ...] = (), messages: Stored | None = None
    ) -> None:
        """Mention a person when a turn of theirs begins (once); remove the ping when it ended."""
        messages = messages or await Stored.read(self.storage, table.id)
        game = table.game
        acting = set(table.human_to_act()) if table.row.status == "running" else set()
        beginning: list[int] = []  # seats whose turn begins, not alerted yet
        for row in table.seats:
            seat = row.seat
            stored = await messages.get(f"ping:{seat}")
            if seat in acting and row.user_id:
                if stored is None and game is not None and await messages.get(f"alert:{seat}") is None:
                    beginning.append(seat)
                continue
            if stored is not None:
                await self.drop(table, seat, messages)
            await self.alerts.forget(table, "alert", seat, messages)
            if not acting:  # the game ended or stopped: no heads-up waits for a turn
                await self.alerts.forget(table, "headsup", seat, messages)
        if not beginning:
            return
        # the preferences of those alerted and of those a heads-up may go to (ONE read, and only when
        # one of them has some: Alerts.prefs_for); a person without any is pinged as before
        prefs = await self.alerts.prefs_for(table, beginning, messages)
        for seat in beginning:
            own = prefs.get(table.seat_row(seat).user_id or 0)
            if own is None or own.is_default:
                await self.alerts.forget(table, "headsup", seat, messages)
                await self.ping(table, seat, vias, messages)
            else:
                await self.alerts.begin(table, seat, own, vias, messages)
        if prefs:
            await self.alerts.heads_up(table, beginning, prefs, messages)

    async def ping(self, table: Table, seat: int, vias: tuple[object, ...], messages: Stored) -> None:
        """The ping of a turn that begins, in the game's channel."""
        speaker = await channel_speaker(self.transport, self.storage, table)
        text = self.text(table, seat, away=await messages.dm_away(seat), speaker=speaker)
        await self.post(table, seat, text, vias, messages)

    async def remind(self, table: Table, seats: list[int], seconds_left: float) -> None:
        """Half time: the ping of each absent seat becomes a reminder. A turn notifies its player once:
        the ping is edited into the reminder (an edit notifies nobody); only a seat whose ping is gone
        gets the reminder as a new message."""
        deadline = time.time() + seconds_left
        messages = await Stored.read(self.storage, table.id)
        speaker = await channel_speaker(self.transport, self.storage, table)
        for seat in seats:
            row = table.seat_row(seat)
            if not row.user_id or row.is_ai:
                continue
            try:
                text = self.text(
                    table, seat, reminder=deadline, away=await messages.dm_away(seat), speaker=speaker
                )
                stored = await messages.get(f"ping:{seat}")
                if stored is None and await self.alerts.remind(table, seat, messages):
                    continue  # alerted as its owner wished (/notify): their DM, or nothing
                if stored is not None:
                    try:
                        if not await self.transport.hooks.edit(stored[1], content=clip(text)):
                            await self.transport.message(*stored).edit(content=clip(text))
                        continue
                    except discord.NotFound as e:
                        if channel_gone(table, e) is not None:
                            raise
                        await messages.delete(f"ping:{seat}")  # deleted by someone: post it again
                await self.post(table, seat, text, messages=messages)
            except discord.NotFound as e:
                gone = channel_gone(table, e)
                if gone is None:
                    raise
                raise gone from e
