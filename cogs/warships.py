"""/ws move from:B7 to:B9 — Warships moves by typing, both squares autocompleted from the legal moves.

``from`` lists the squares of the caller's units that can act; ``to`` lists what the unit on that
square may do (move to a square, attack, take out a battery, defuse a mine), exactly as the menus do.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.games import fill_names
from bot.host import Table, UserError
from cogs.common import channel_of, guarded, host_of, reply, undo_offer

GAME = "warships"


async def _table_and_seat(interaction: discord.Interaction) -> tuple[Table, int]:
    table = await host_of(interaction).table_in(channel_of(interaction))
    if table.row.game_key != GAME:
        raise UserError("The game in this channel is not Warships; use `/move`.")
    if table.game is None:
        raise UserError("The game has not started yet.")
    seat = table.seat_of(interaction.user.id)
    if seat is None:
        raise UserError("You are not playing in this game.")
    if table.game.is_over or seat not in table.game.to_act():
        raise UserError("It is not your turn.")
    return table, seat


def _unit_moves(table: Table, seat: int) -> dict[str, tuple[str, list[tuple[str, str, dict]]]]:
    """{square: (unit label, [(key, label, action), …])} for every unit that can act."""
    out: dict[str, tuple[str, list]] = {}
    game = table.engine  # started: _table_and_seat checked
    for action in game.legal_actions(seat):
        path = [(key, fill_names(label, table.names())) for key, label in game.action_path(seat, action)]
        if len(path) != 2 or not path[0][0].startswith("from:"):
            continue
        square = path[0][0][len("from:") :]
        entry = out.setdefault(square, (path[0][1], []))
        entry[1].append((path[1][0], path[1][1], action))
    return out


class WarshipsCog(commands.GroupCog, group_name="ws", group_description="Warships by typing"):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="move", description="Move or attack with one of your units")
    @app_commands.rename(from_="from")
    @app_commands.describe(from_="The square of your unit, e.g. B7", to="Where it goes or what it attacks")
    async def move(self, interaction: discord.Interaction, from_: str, to: str) -> None:
        async def work():
            table, seat = await _table_and_seat(interaction)
            units = _unit_moves(table, seat)
            square = from_.strip().upper()
            if square not in units:
                raise UserError(
                    f"None of your units on {from_[:10]!r} can act now; pick a square from the list."
                )
            wanted = to.strip()
            matches = [
                a
                for key, label, a in units[square][1]
                if wanted in (key, label) or wanted.upper() == key.split(":", 1)[-1].upper()
            ]
            if len(matches) != 1:
                raise UserError(f"The unit on {square} cannot do {to[:40]!r}; pick from the list.")
            await interaction.response.defer(ephemeral=True, thinking=True)
            outcome = await host_of(interaction).act(
                table.id, interaction.user.id, matches[0], version=table.version
            )
            await outcome.shown()  # the table shows it (published after the commit)
            await reply(interaction, f"✅ Played: {outcome.applied}", **undo_offer(outcome, interaction))

        await guarded(interaction, work)

    @move.autocomplete("from_")
    async def from_autocomplete(self, interaction: discord.Interaction, current: str):
        try:
            table, seat = await _table_and_seat(interaction)
        except UserError:
            return []
        cur = current.strip().upper()
        return [
            app_commands.Choice(name=f"{sq}: {label}"[:100], value=sq)
            for sq, (label, _) in sorted(_unit_moves(table, seat).items())
            if sq.startswith(cur)
        ][:25]

    @move.autocomplete("to")
    async def to_autocomplete(self, interaction: discord.Interaction, current: str):
        try:
            table, seat = await _table_and_seat(interaction)
        except UserError:
            return []
        square = str(getattr(interaction.namespace, "from", "") or "").strip().upper()
        entry = _unit_moves(table, seat).get(square)
        if entry is None:
            return []
        cur = current.strip().lower()
        return [
            app_commands.Choice(name=label[:100], value=key[:100])
            for key, label, _ in entry[1]
            if cur in label.lower() or cur in key.lower()
        ][:25]


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(WarshipsCog(bot))
