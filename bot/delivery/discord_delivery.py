"""The Discord delivery: what the host calls (:class:`bot.tables.Delivery`), routed to the messages it
concerns (the table, pings, DMs, the lobby), in an order where one failing step does not stop the
others; and the few plain messages of a game (a notice, an undo request)."""

from __future__ import annotations

import contextlib
import logging

import discord

from bot import layout, ui
from bot.click_answer import awaited, table_shown
from bot.drawing import Drawing
from bot.i18n import Phrase
from bot.storage import Storage
from bot.tables import Successor, Table

from .dms import DirectMessages
from .follows import FollowDMs
from .lobby import LobbyMessage
from .pings import Pings
from .stored import Stored
from .table import TableMessage
from .transport import Transport, channel_gone, only
from .words import clip, said

log = logging.getLogger("admiralty.delivery")


class DiscordDelivery:
    # The lines of the game's log the table shows, and the game's stored messages: the publisher reads
    # them with the game (one query; ``Table.log``, ``Table.messages``).
    log_lines = layout.LOG_LINES
    keeps_messages = True

    def __init__(
        self,
        client: discord.Client,
        storage: Storage,
        drawing: Drawing | None = None,
        *,
        shared: bool = False,
    ) -> None:
        """``shared``: other processes (the other shards) publish the same games (see DirectMessages)."""
        self.client = client
        self.storage = storage
        self.shared = shared  # the publisher catches up with versions made elsewhere only then
        self.transport = Transport(client, drawing)
        # Interaction tokens still usable: edits, pings and posts through them are not global-limited.
        self.hooks = self.transport.hooks
        self.table_message = TableMessage(self.transport, storage)
        self.pings = Pings(self.transport, storage)
        self.dms = DirectMessages(self.transport, storage, shared=shared)
        self.lobby_message = LobbyMessage(self.transport, storage)
        self.follows = FollowDMs(self.transport, storage, self.table_message.status_text)

    # ------------------------------------------------------------ the game
    async def publish(
        self,
        table: Table,
        events: list[dict],
        note: str = "",
        actors: tuple[int, ...] = (),
        vias: tuple[object, ...] = (),
        successor: Successor | None = None,
    ) -> None:
        """Private views (the seats that acted first), then the table (edited in place), then pings.
        Each step is tried even if an earlier one failed; the first failure is raised at the end so that
        the host retries the whole. Once a newer change waits to be shown next (``successor``), the
        table is left to that publish, which shows it newer, unless a click waits for it."""
        # Every message of the game (table, DMs, their digests, pings) in ONE read (read with the game by
        # the publisher, else now), kept current with this publish's own writes.
        if table.messages is not None:
            messages = Stored(self.storage, table.id, dict(table.messages))
        else:
            messages = await Stored.read(self.storage, table.id)
        try:
            await self._publish_with(table, events, actors, vias, messages, successor)
        except BaseException:
            with contextlib.suppress(Exception):
                await messages.flush()
            raise
        await messages.flush()

    async def _publish_with(
        self,
        table: Table,
        events: list[dict],
        actors: tuple[int, ...],
        vias: tuple[object, ...],
        messages: Stored,
        successor: Successor | None,
    ) -> None:
        failures: list[BaseException] = []
        # A publish may cover several actions (moves made while the one before was being shown): the
        # seats that acted and the clicks, newest last (:class:`bot.tables.Delivery`).
        if table.spec.has_private_view:  # first: a refused DM is then in the table's log and its ping
            # The seats that acted first: a DM move is answered by its own DM, redrawn through the click,
            # so the mover's answer does not wait for the other seats' pictures and edits.
            await self._private_views(table, events, actors, vias, messages, failures)
        for name, step in (("table", self.table_message.publish), ("pings", self.pings.publish)):
            # Under load the next move often comes while this one is shown (its mover saw their DM
            # first): the whole game waits for this publish, and its table would be redrawn at once.
            # (The pings go: a turn that began is pinged once, even when it is over by the next one.)
            if name == "table" and successor is not None and successor.waiting() and not awaited(vias):
                continue
            try:
                await step(table, vias, messages)
                if name == "table":
                    table_shown(vias)  # (the movers' "✅ Played" need not wait for the pings)
            except discord.HTTPException as e:
                gone = channel_gone(table, e)
                if gone is not None:
                    raise gone from e
                failures.append(e)
                log.warning("game %s: publishing the %s failed: %s", table.id, name, e)
        try:  # the followers' DMs: claimed before they are sent, so a retry of this publish sends none twice
            await self.follows.publish(table, actors, messages)
        except Exception:
            log.exception("game %s: the follow DMs failed", table.id)
        if failures:
            raise failures[0]

    async def _private_views(
        self,
        table: Table,
        events: list[dict],
        actors: tuple[int, ...],
        vias: tuple[object, ...],
        messages: Stored,
        failures: list[BaseException],
    ) -> None:
        """Every seat's DM, the seats that acted first. A DM Discord refused marks its seat, and the
        game's log says so: the table and the pings after it read them again."""
        refused = False
        for seat_row in sorted(table.seats, key=lambda row: row.seat not in actors):
            if seat_row.is_ai or not seat_row.user_id:
                continue
            private = [e for e in events if e.get("private_to") == seat_row.seat]
            try:
                refused |= await self.dms.update(
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

    async def ended(self, table: Table, text: str) -> None:
        """The game stopped early: the table shows it without controls, pings go, DMs lose their controls,
        followers are told."""
        try:
            await self.follows.stopped(table, text)
        except Exception:
            log.exception("game %s: telling its followers it stopped failed", table.id)
        messages = await Stored.read(self.storage, table.id)
        await self.table_message.retire(table, text, messages)
        for seat_row in table.seats:
            try:
                await self.pings.drop(table, seat_row.seat, messages)
                for kind in ("alert", "headsup"):  # a DM alert or heads-up (/notify) goes too
                    await self.pings.alerts.forget(table, kind, seat_row.seat, messages)
            except discord.HTTPException:
                pass
        await self.dms.retire(table, text, messages)

    async def remind(self, table: Table, seats: list[int], seconds_left: float) -> None:
        await self.pings.remind(table, seats, seconds_left)

    async def notice(self, table: Table, text: str) -> None:
        """A plain message in the game's channel (for what must be one; the table's log holds the rest)."""
        if isinstance(text, Phrase):  # said in the server's language, which the channel reads
            text = (await self.lobby_message.speaker(table)).say(text)
        try:
            await self.transport.channel(table.channel_id).send(
                clip(said(table, text)), allowed_mentions=discord.AllowedMentions.none()
            )
        except discord.NotFound as e:
            gone = channel_gone(table, e)
            if gone is None:
                raise
            raise gone from e

    async def undo_request(self, table: Table, seat: int, version: int, needed: list[int], text: str) -> None:
        """Undo by agreement: ``text`` (built by :mod:`bot.undo`, mentioning the players asked) in the game's
        channel, with [Accept] [Decline] (``adm:undo:<game>:<version>:yes|no``); the host checks who clicks."""
        users = [table.seat_row(s).user_id for s in needed if table.seat_row(s).user_id]
        speaker = await self.lobby_message.speaker(table)  # the channel's language
        try:
            await self.transport.channel(table.channel_id).send(
                clip(speaker.say(text)),
                view=ui.undo_answer_view(table.id, version, speaker),
                allowed_mentions=only(*users),
            )
        except discord.NotFound as e:
            gone = channel_gone(table, e)
            if gone is None:
                raise
            raise gone from e

    # ------------------------------------------------ what the cogs ask of it
    async def lobby(self, table: Table, note: str = "") -> None:
        await self.lobby_message.show(table, note)

    async def lobby_closed(self, table: Table, text: str) -> None:
        await self.lobby_message.closed(table, text)

    async def probe_dm(self, user_id: int, text: str) -> bool:
        return await self.dms.probe(user_id, text)

    async def refresh_dm(self, table: Table, seat: int, via: discord.Interaction) -> None:
        await self.dms.refresh(table, seat, via)

    async def shown(self, table: Table) -> bool:
        return await self.table_message.shown(table)

    async def image(self, table: Table, seat: int | None) -> bytes | None:
        """The picture of a seat's view that a click shows privately ("My view"): it waits for it."""
        return await self.transport.image(table, seat, urgent=True)

    def can_attach(self, channel_id: int) -> bool:
        return self.transport.can_attach(channel_id)
