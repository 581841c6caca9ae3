"""/move: play by typing, with autocomplete of every legal move of the caller."""

from __future__ import annotations

import re

import discord
from discord import app_commands
from discord.ext import commands

from bot import menus
from bot.host import UserError
from cogs.common import guarded, host_of, reply

CHOICE_RE = re.compile(r"v(?P<version>[0-9]{1,9}):(?P<index>[0-9]{1,5})", re.ASCII)


def _parse_choice(value: str) -> tuple[int, int] | None:
    """Autocomplete values look like 'v12:3' (game version 12, legal action 3); ASCII digits only
    (str.isdigit() and int() also take '²' or '١')."""
    m = CHOICE_RE.fullmatch(value.strip())
    return (int(m["version"]), int(m["index"])) if m else None


class PlayCog(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="move", description="Make your move in this channel's game")
    @app_commands.describe(action="Start typing: your legal moves are listed")
    async def move(self, interaction: discord.Interaction, action: str) -> None:
        async def work():
            host = host_of(interaction)
            table = await host.table_in(interaction.channel_id)
            if table.game is None:
                raise UserError("The game has not started yet.")
            seat = table.seat_of(interaction.user.id)
            if seat is None:
                raise UserError("You are not playing in this game.")
            if seat not in table.game.to_act():
                raise UserError("It is not your turn.")
            await interaction.response.defer(ephemeral=True, thinking=True)
            choices = menus.flat_choices(table.game, seat, table.names())
            parsed = _parse_choice(action)
            version = table.version
            if parsed is not None:
                version, index = parsed
                if version != table.version:
                    raise UserError("That move was offered for an earlier position; type it again.")
                if not 0 <= index < len(choices):
                    raise UserError("That is not one of your moves; pick one from the list.")
                chosen = choices[index][1]
            else:
                wanted = action.strip().lower()
                matches = [a for label, a in choices if label.lower() == wanted]
                if len(matches) != 1:
                    raise UserError(f"I don't know the move {action[:80]!r}; pick one from the list as you type.")
                chosen = matches[0]
            outcome = await host.act(table.id, interaction.user.id, chosen, version=version)
            await reply(interaction, f"✅ Played: {outcome.applied}")

        await guarded(interaction, work)

    @move.autocomplete("action")
    async def move_autocomplete(self, interaction: discord.Interaction, current: str):
        host = host_of(interaction)
        try:
            table = await host.table_in(interaction.channel_id)
        except UserError:
            return []
        seat = table.seat_of(interaction.user.id)
        if table.game is None or seat is None or table.game.is_over or seat not in table.game.to_act():
            return []
        words = current.lower().split()
        out = []
        for index, (label, _) in enumerate(menus.flat_choices(table.game, seat, table.names())):
            if all(w in label.lower() for w in words):
                out.append(app_commands.Choice(name=label[:100], value=f"v{table.version}:{index}"))
                if len(out) == 25:
                    break
        return out


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(PlayCog(bot))
