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
from bot.rating_scale import Standing, win_odds
from bot.ratings import player_key
from bot.storage import Storage
from bot.tables import Table

from .transport import Transport, channel_gone
from .words import clip, said


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
        keys = {s.seat: player_key(s.user_id, s.name) for s in table.seats}
        known = await self.storage.standings(row.guild_id, row.game_key, keys.values())
        now = time.time()
        seats = sorted(keys)
        standings = [known[keys[s]].standing(now) if keys[s] in known else Standing.new() for s in seats]
        return list(zip(seats, standings, win_odds(standings), strict=True))

    def text(
        self, table: Table, note: str = "", closed: str = "", odds: Sequence[tuple[int, Standing, float]] = ()
    ) -> str:
        """The lobby message; ``closed``: why it no longer takes players (started, cancelled, closed),
        said in place of how to join; ``odds``: :meth:`odds`."""
        spec = table.spec
        seats = "\n".join(
            f"{layout.seat_mark(s.seat)} {table.shown_name(s.seat)}"
            + (" (host)" if s.user_id == table.row.host_id else "")
            for s in table.seats
        )
        opts = ", ".join(f"{k}: {v}" for k, v in table.row.options.items()) or "defaults"
        timer = table.row.turn_timeout
        timer_text = (
            f"{timer / 3600:g} h" if timer and timer >= 3600 else (f"{timer:g} s" if timer else "none")
        )
        clock = Clock.from_json(table.row.clock)
        if clock is not None and clock.mode == "bank":
            timer_text = f"time bank {short_duration(clock.bank)}, +{short_duration(clock.increment)} a move"
        count = (
            f"{len(table.seats)}"
            if closed
            else f"{len(table.seats)}/{spec.max_players}, at least {spec.min_players}"
        )
        how = (
            f"**{closed}**"
            if closed
            else "Anyone may join (button or `/game join`) and leave. The host alone adds AI seats, "
            "kicks a player or AI seat (`/game kick`), starts or cancels."
        )
        text = (
            f"⚓ **{spec.title}** — game #{table.id}, hosted by <@{table.row.host_id}>\n"
            f"Players ({count}):\n{seats}\n"
            f"Options: {opts} · turn timer: {timer_text}\n{how}"
        )
        if odds:
            text += "\nWin odds by rating: " + " · ".join(
                f"{layout.seat_mark(seat)} {table.shown_name(seat)} {standing} **{chance:.0%}**"
                for seat, standing, chance in odds
            )
        if table.row.thread_id and table.row.status != "abandoned":  # a cancelled lobby's has no game
            text += f"\nThe game is played in its thread: <#{table.row.thread_id}>"
        if note:
            text += f"\n*{said(table, note)}*"
        return text

    async def show(self, table: Table, note: str = "") -> None:
        content = self.text(table, note, odds=await self.odds(table))
        stored = await self.storage.get_message(table.id, "lobby")
        if stored is not None:
            try:
                await self.transport.message(*stored).edit(
                    content=clip(content), view=ui.lobby_view(table.id)
                )
                return
            except discord.NotFound:
                pass
        try:
            msg = await self.transport.channel(table.row.channel_id).send(
                clip(content), view=ui.lobby_view(table.id), allowed_mentions=discord.AllowedMentions.none()
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
        content = self.text(table, closed=text)
        try:
            await self.transport.message(*stored).edit(content=clip(content), view=None)
        except discord.NotFound:
            pass
