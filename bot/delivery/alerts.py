"""Turn alerts as each person wants them (`/notify`, :mod:`bot.notify`): a person with preferences of
their own is alerted here instead of by the channel's ping of :mod:`.pings` (a person without any gets
exactly that ping, with no more REST calls than before).

Which seats have preferences is stored with the game's messages too (``notify:<seat>``, and ``notify``
once its seats were looked at), so that a publish reads preferences only when one of the seats
concerned has some: a game of people without any costs one read in its life, at its first turn.

What a turn's alert became is stored with the game's messages, as the ping is (``ping:<seat>``):
``alert:<seat>`` is the DM alert (channel, message), or :data:`HELD` (waiting for the end of quiet
hours: a ``notify_jobs`` row says when), or :data:`SENT` (nothing to delete: none wanted, or only the
ping). A turn is alerted once: while either is stored nothing more is sent, and both are forgotten when
the turn ends (the DM alert deleted, like the ping). A heads-up (``headsup:<seat>``, a DM) goes to the
next human seat in seat order when a turn begins, once, and goes when that seat's own turn begins. A DM
that Discord refuses (50007) marks the seat (``dm_ok``) and the channel's ping is sent instead.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable

import discord

from bot.games.names import markdown_name
from bot.i18n import ENGLISH, Speaker
from bot.notify import DEFAULT, Prefs, next_digest, quiet_until
from bot.storage import Storage
from bot.storage.notify import NOTIFY_CHECKED, NOTIFY_MARK
from bot.tables import Table, Tables

from .stored import Stored
from .transport import Transport
from .words import clip

log = logging.getLogger("admiralty.alerts")

DM_REFUSED = 50007
HELD = (0, 0)  # the turn's alert waits for the end of the person's quiet hours
SENT = (0, 1)  # the turn was alerted (or was not to be), with no DM alert to delete
# A seat whose owner has alert preferences of their own; and the game's seats were looked at for them
# (a publish then reads preferences only for marked seats: none in most games). /notify marks and
# unmarks the seats of its person's games (Storage.set_notify_prefs).
MARKED = NOTIFY_MARK
CHECKED = NOTIFY_CHECKED
NO_MENTIONS = discord.AllowedMentions.none()

# (table, seat, vias, messages): post the channel's ping of a turn (Pings.ping)
PingPoster = Callable[[Table, int, tuple[object, ...], Stored], Awaitable[None]]


def next_human(table: Table, seat: int) -> int | None:
    """The human seat that plays after ``seat`` in seat order (AI seats passed over), if another."""
    order = sorted(table.seats, key=lambda r: r.seat)
    at = next(i for i, r in enumerate(order) if r.seat == seat)
    for step in range(1, len(order)):
        row = order[(at + step) % len(order)]
        if row.user_id and not row.is_ai and row.seat != seat:
            return row.seat
    return None


def table_link(table: Table, stored: tuple[int, int] | None) -> str:
    """The link to the game's table (its message when stored, else its channel)."""
    guild = table.row.guild_id or "@me"
    if stored is None:
        return f"https://discord.com/channels/{guild}/{table.channel_id}"
    return f"https://discord.com/channels/{guild}/{stored[0]}/{stored[1]}"


def deadline_text(deadline: float | None, speaker: Speaker = ENGLISH) -> str:
    if deadline is None:
        return speaker.gettext("No time limit.")
    when, relative = f"<t:{int(deadline)}:f>", f"<t:{int(deadline)}:R>"
    return speaker.gettext("Deadline: {when} ({relative}).", when=when, relative=relative)


class Alerts:
    def __init__(
        self, transport: Transport, storage: Storage, ping: PingPoster, clock: Callable[[], float] = time.time
    ) -> None:
        self.transport = transport
        self.storage = storage
        self.ping = ping
        self.clock = clock

    # ------------------------------------------------------------ words
    def where(self, table: Table) -> str:
        """Server and channel of a game, as a DM shows them (names from the cache, escaped)."""
        client = self.transport.client
        guild = client.get_guild(table.row.guild_id) if table.row.guild_id else None
        channel = client.get_channel(table.channel_id)
        name = getattr(channel, "name", None)
        place = f"#{markdown_name(name)}" if name else f"<#{table.channel_id}>"
        return f"{markdown_name(guild.name)} › {place}" if guild is not None else place

    async def alert_text(
        self, table: Table, messages: Stored, speaker: Speaker, *, reminder: bool = False
    ) -> str:
        """A turn's DM alert (or its half-time reminder) in the language of its reader."""
        _ = speaker.gettext
        link = table_link(table, await messages.get("table"))
        where = {"title": _(table.title), "number": table.id, "place": self.where(table)}
        if reminder:
            head = _("⏰ It is still your turn in **{title}** (game #{number}) · {place}", **where)
        else:
            head = _("🔔 Your turn in **{title}** (game #{number}) · {place}", **where)
        opening = _("[Open the table]({link})", link=link)
        return clip(f"{head}\n{deadline_text(table.row.deadline, speaker)}\n{opening}")

    # ------------------------------------------------------------ a turn begins
    async def prefs_for(self, table: Table, seats: list[int], messages: Stored) -> dict[int, Prefs]:
        """The preferences that matter when the turns of ``seats`` begin: theirs, and those of the seats
        a heads-up may go to; a person without any has none here. Read (ONE query) only for seats marked
        as having some (:data:`MARKED`); the first time in a game, for all its seats, marking them."""
        if await messages.get(CHECKED) is None:
            humans = [r for r in table.seats if r.user_id and not r.is_ai]
            prefs = await self.storage.notify_prefs(r.user_id for r in humans if r.user_id)
            for row in humans:
                if not prefs.get(row.user_id or 0, DEFAULT).is_default:
                    await messages.set(MARKED.format(seat=row.seat), *SENT, lazy=True)
            # (lazy: written with the ping, or at the publish's end; lost, the game is merely read again)
            await messages.set(CHECKED, *SENT, lazy=True)
            return prefs
        wanted = set(seats) | {n for s in seats if (n := next_human(table, s)) is not None}
        users = [
            table.seat_row(s).user_id for s in sorted(wanted) if await messages.get(MARKED.format(seat=s))
        ]
        return await self.storage.notify_prefs(u for u in users if u) if users else {}

    async def begin(
        self, table: Table, seat: int, prefs: Prefs, vias: tuple[object, ...], messages: Stored
    ) -> None:
        """The turn of ``seat`` (whose owner has preferences) begins: alert them as they asked, now or
        at the end of their quiet hours."""
        await self.forget(table, "headsup", seat, messages)  # their heads-up led here
        if prefs.route == "none":
            await messages.set(f"alert:{seat}", *SENT)
            return
        held = quiet_until(prefs, self.clock())
        user_id = table.seat_row(seat).user_id
        if held is not None and user_id:
            await messages.set(f"alert:{seat}", *HELD)
            await self.storage.hold_alert(user_id, table.id, seat, held)
            return
        await self.send(table, seat, prefs, vias, messages)

    async def send(
        self, table: Table, seat: int, prefs: Prefs, vias: tuple[object, ...], messages: Stored
    ) -> None:
        """Alert ``seat``'s owner now: a DM and/or the channel's ping, as they chose; the ping when a DM
        was wanted and Discord refuses it."""
        row = table.seat_row(seat)
        sent_dm = False
        if prefs.wants_dm and row.dm_ok is not False and row.user_id:
            message = await self.dm(table, seat, await self.alert_text(table, messages, prefs.speaker))
            if message is not None:
                await messages.set(f"alert:{seat}", message.channel.id, message.id)
                sent_dm = True
        if prefs.wants_channel or not sent_dm:
            await self.ping(table, seat, vias, messages)  # stored as ping:<seat>: the turn is alerted

    async def dm(self, table: Table, seat: int, text: str) -> discord.Message | None:
        """Send ``text`` to the seat's owner by DM; None when Discord refuses (the seat is marked)."""
        user_id = table.seat_row(seat).user_id
        assert user_id is not None
        try:
            channel = await self.transport.client.create_dm(discord.Object(user_id))
            return await channel.send(text, allowed_mentions=NO_MENTIONS)
        except discord.Forbidden as e:
            if e.code != DM_REFUSED:
                raise
            log.info("game %s: seat %s refuses DMs; alerted in the channel", table.id, seat)
            await self.storage.update_seat(table.id, seat, dm_ok=False)
            table.seats = await self.storage.seats(table.id)  # its ping then says so
            return None

    async def heads_up(
        self, table: Table, seats: list[int], prefs: dict[int, Prefs], messages: Stored
    ) -> None:
        """The turns of ``seats`` began: the next human seat after each, not to act itself, is told by DM
        if its owner asked for a heads-up (not in their quiet hours; once until their own turn)."""
        acting = set(table.human_to_act())
        for seat in seats:
            after = next_human(table, seat)
            if after is None or after in acting:
                continue
            row = table.seat_row(after)
            wanted = prefs.get(row.user_id or 0)
            if wanted is None or not wanted.heads_up or row.dm_ok is False:
                continue
            if quiet_until(wanted, self.clock()) is not None or await messages.get(f"headsup:{after}"):
                continue
            link = table_link(table, await messages.get("table"))
            _ = wanted.speaker.gettext
            head = _(
                "👀 Heads-up: **{player}** is playing in **{title}** (game #{number}) · {place}; your turn "
                "comes next.",
                player=table.shown_name(seat),
                title=_(table.title),
                number=table.id,
                place=self.where(table),
            )
            text = clip(f"{head}\n" + _("[Open the table]({link})", link=link))
            message = await self.dm(table, after, text)
            if message is not None:
                await messages.set(f"headsup:{after}", message.channel.id, message.id)

    # ------------------------------------------------------------ a turn ends
    async def forget(self, table: Table, kind: str, seat: int, messages: Stored) -> None:
        """Forget the seat's ``alert`` or ``headsup`` (no query when there is none), deleting its DM."""
        stored = await messages.get(f"{kind}:{seat}")
        if stored is None:
            return
        if tuple(stored) in (HELD, SENT):
            await messages.delete(f"{kind}:{seat}")
        elif await messages.claim(f"{kind}:{seat}", stored[1]):
            await self.transport.delete(*stored)

    async def remind(self, table: Table, seat: int, messages: Stored) -> bool:
        """Half time, for a seat without a ping: True when it was alerted as its owner wished (its DM
        alert, edited into the reminder: an edit notifies nobody; nothing more when held, or when none
        was wanted); False when it was not, and the ping's reminder is posted as before."""
        stored = await messages.get(f"alert:{seat}")
        if stored is None:
            return False
        if tuple(stored) not in (HELD, SENT):
            # its reader's language: one read, only for a turn alerted by DM
            user_id = table.seat_row(seat).user_id
            locale = await self.storage.user_locale(user_id) if user_id else None
            text = await self.alert_text(table, messages, Speaker(locale or "en"), reminder=True)
            try:
                await self.transport.message(*stored).edit(content=text)
            except discord.NotFound:
                await messages.delete(f"alert:{seat}")
        return True

    # ------------------------------------------------------------ jobs (bot/delivery/alert_jobs.py)
    async def release(self, tables: Tables, user_id: int, game_id: int, seat: int) -> float | None:
        """A held alert is due: send it, if that turn is still on and still held. -> when to try again
        (the person's quiet hours were moved later meanwhile), or None: done."""
        table = await tables.load(game_id, unavailable_ok=True)
        if (
            table.game is None
            or table.row.status != "running"
            or seat not in table.human_to_act()
            or table.seat_row(seat).user_id != user_id
        ):
            return None
        messages = await Stored.read(self.storage, game_id)
        if tuple(await messages.get(f"alert:{seat}") or ()) != HELD:
            return None  # the turn ended (and perhaps another began and was alerted)
        prefs = (await self.storage.notify_prefs([user_id])).get(user_id, DEFAULT)
        later = quiet_until(prefs, self.clock())
        if later is not None and prefs.route != "none":
            return later
        if not await messages.swap(f"alert:{seat}", HELD, SENT):
            return None  # another process, or the turn's end, came first
        if prefs.route != "none":
            await self.send(table, seat, prefs, (), messages)
        return None

    async def digest(self, tables: Tables, user_id: int) -> float | None:
        """A person's daily digest is due: a DM listing the games waiting for their move (none: no DM).
        -> when the next one is due (None: they turned it off)."""
        prefs = (await self.storage.notify_prefs([user_id])).get(user_id, DEFAULT)
        due = next_digest(prefs, self.clock())
        if due is None:
            return None
        _ = prefs.speaker.gettext
        lines: list[str] = []
        for game_id in await self.storage.games_of_player(user_id):
            try:
                table = await tables.load(game_id)
            except Exception:  # noqa: BLE001 - a game this bot cannot play waits for nobody
                continue
            seat = table.seat_of(user_id)
            if seat is None or seat not in table.human_to_act():
                continue
            link = table_link(table, await self.storage.get_message(game_id, "table"))
            where = {"title": _(table.title), "number": table.id, "place": self.where(table), "link": link}
            if table.row.deadline:
                when = f"<t:{int(table.row.deadline)}:R>"
                lines.append(
                    _("• **{title}** #{number} · {place} · due {when} · [open]({link})", when=when, **where)
                )
            else:
                lines.append(_("• **{title}** #{number} · {place} · [open]({link})", **where))
        if lines:
            head = prefs.speaker.ngettext(
                "📬 **Your daily digest**: {n} game waits for your move.",
                "📬 **Your daily digest**: {n} games wait for your move.",
                len(lines),
            )
            text = clip(head + "\n" + "\n".join(lines))
            try:
                channel = await self.transport.client.create_dm(discord.Object(user_id))
                await channel.send(text, allowed_mentions=NO_MENTIONS)
            except discord.Forbidden as e:
                if e.code != DM_REFUSED:
                    raise
                log.info("user %s refuses DMs: no digest today", user_id)
        return due
