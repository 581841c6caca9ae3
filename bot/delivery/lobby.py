"""The lobby message: who sits, the options and the rules of joining, edited as people come and go,
closed (without its buttons) when the game starts or the lobby ends. It stays in the channel where
people see it; the game itself may be played in a thread. Once two seats are taken in a rated game
(a server's, not a cooperative one) it shows each seated player's rating and chance to win
(bot/rating_scale.py)."""

from __future__ import annotations

import time
from collections.abc import Sequence

import discord

from bot import layout, ui
from bot.clocks import Clock, short_duration
from bot.i18n import ENGLISH, Speaker, lookup
from bot.rating_scale import Standing, win_odds
from bot.ratings import player_key
from bot.storage import Storage
from bot.tables import Table

from .channel_language import channel_speaker
from .transport import Transport, channel_gone
from .words import clip, said


def options_text(options: dict, speaker: Speaker = ENGLISH) -> str:
    """A lobby's options in the language of ``speaker``: each named as `/game new` shows its parameter
    there (an option typed in its ``options`` words as typed), yes or no, a choice's value translated."""
    if not options:
        return speaker.gettext("defaults")
    return ", ".join(
        f"`{lookup(speaker.locale, name, 'option') or name}`: {_value_words(value, speaker)}"
        for name, value in options.items()
    )


def _value_words(value: object, speaker: Speaker) -> str:
    if value is True:
        return speaker.gettext("yes")
    if value is False:
        return speaker.gettext("no")
    if isinstance(value, str):
        return speaker.gettext(value)  # a choice ("advanced", "short") is a message; other words as typed
    return str(value)


def timer_words(seconds: float | None, speaker: Speaker = ENGLISH) -> str:
    """A turn timer as the lobby says it: "2 h", "30 min", "1h 30m", "45 s", or none."""
    _ = speaker.gettext
    if not seconds:
        return _("none")
    whole = int(seconds)
    if whole != seconds or whole < 60:
        return _("{s} s", s=f"{seconds:g}")
    if whole % 3600 == 0:
        return _("{h} h", h=whole // 3600)
    if whole < 3600 and whole % 60 == 0:
        return _("{m} min", m=whole // 60)
    return short_duration(whole, speaker)


class LobbyMessage:
    def __init__(self, transport: Transport, storage: Storage) -> None:
        self.transport = transport
        self.storage = storage

    async def odds(self, table: Table) -> list[tuple[int, Standing, float]]:
        """Each seat's standing and chance to win, in seat order (one query), for a rated game with two
        seats or more; else []."""
        row = table.row
        if len(table.seats) < 2 or row.guild_id is None or table.spec.extra.get("cooperative"):
            return []
        keys = {s.seat: player_key(s.user_id, s.name, s.ai_level) for s in table.seats}
        known = await self.storage.standings(row.guild_id, row.game_key, keys.values())
        now = time.time()
        seats = sorted(keys)
        standings = [known[keys[s]].standing(now) if keys[s] in known else Standing.new() for s in seats]
        return list(zip(seats, standings, win_odds(standings), strict=True))

    async def speaker(self, table: Table) -> Speaker:
        """The server's language, which the whole channel reads the lobby in (bot/languages.py)."""
        return await channel_speaker(self.transport, self.storage, table)

    def text(
        self,
        table: Table,
        note: str = "",
        closed: str = "",
        odds: Sequence[tuple[int, Standing, float]] = (),
        speaker: Speaker = ENGLISH,
    ) -> str:
        """The lobby message in the language of ``speaker``; ``closed``: why it no longer takes players
        (started, cancelled, closed), said in place of how to join; ``odds``: :meth:`odds`."""
        _ = speaker.gettext
        spec = table.spec
        host_id = table.row.host_id
        seats = "\n".join(
            _("{seat} (host)", seat=self._seat(table, s.seat, speaker))
            if s.user_id == host_id
            else self._seat(table, s.seat, speaker)
            for s in table.seats
        )
        opts = options_text(table.row.options, speaker)
        timer_text = timer_words(table.row.turn_timeout, speaker)
        clock = Clock.from_json(table.row.clock)
        if clock is not None and clock.mode == "bank":
            timer_text = _(
                "time bank {bank}, +{increment} a move",
                bank=short_duration(clock.bank, speaker),
                increment=short_duration(clock.increment, speaker),
            )
        taken = len(table.seats)
        players = (
            _("Players ({n}):", n=taken)
            if closed
            else _(
                "Players ({n}/{most}, at least {least}):",
                n=taken,
                most=spec.max_players,
                least=spec.min_players,
            )
        )
        how = (
            f"**{speaker.say(closed)}**"
            if closed
            else _(
                "Anyone may join (button or `/game join`) and leave. The host alone adds AI seats, "
                "kicks a player or AI seat (`/game kick`), starts or cancels."
            )
        )
        lines = [
            _(
                "⚓ **{game}** — game #{id}, hosted by {host}",
                game=_(spec.title),
                id=table.id,
                host=f"<@{host_id}>",
            ),
            players,
            seats,
            _("Options: {options} · turn timer: {timer}", options=opts, timer=timer_text),
            how,
        ]
        if odds:
            lines.append(
                _(
                    "Win odds by rating: {odds}",
                    odds=" · ".join(
                        f"{self._seat(table, seat, speaker)} {standing} **{chance:.0%}**"
                        for seat, standing, chance in odds
                    ),
                )
            )
        if table.row.thread_id and table.row.status != "abandoned":  # a cancelled lobby's has no game
            lines.append(_("The game is played in its thread: {thread}", thread=f"<#{table.row.thread_id}>"))
        if note:
            lines.append(f"*{said(table, speaker.say(note))}*")
        return "\n".join(lines)

    @staticmethod
    def _seat(table: Table, seat: int, speaker: Speaker = ENGLISH) -> str:
        return f"{layout.seat_mark(seat)} {table.shown_name(seat, speaker)}"

    async def show(self, table: Table, note: str = "") -> None:
        speaker = await self.speaker(table)
        content = self.text(table, note, odds=await self.odds(table), speaker=speaker)
        stored = await self.storage.get_message(table.id, "lobby")
        if stored is not None:
            try:
                await self.transport.message(*stored).edit(
                    content=clip(content), view=ui.lobby_view(table.id, speaker)
                )
                return
            except discord.NotFound:
                pass
        try:
            msg = await self.transport.channel(table.row.channel_id).send(
                clip(content),
                view=ui.lobby_view(table.id, speaker),
                allowed_mentions=discord.AllowedMentions.none(),
            )
        except discord.NotFound as e:
            gone = channel_gone(table, e)
            if gone is None:
                raise
            raise gone from e
        await self.storage.set_message(table.id, "lobby", msg.channel.id, msg.id)

    async def closed(self, table: Table, text: str) -> None:
        stored = await self.storage.get_message(table.id, "lobby")
        if stored is None:
            return
        content = self.text(table, closed=text, speaker=await self.speaker(table))
        try:
            await self.transport.message(*stored).edit(content=clip(content), view=None)
        except discord.NotFound:
            pass
