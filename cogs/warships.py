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
from bot.i18n import N_, Phrase
from cogs.common import (
    NOTHING,
    channel_of,
    guarded,
    host_of,
    no_moves_refusal,
    reply,
    speaker_of,
    undo_offer,
    why_no_moves,
)

GAME = "warships"


async def _table_and_seat(interaction: discord.Interaction) -> tuple[Table, int]:
    """The channel's Warships game and the caller's seat, or a UserError saying why they have no move."""
    table = await host_of(interaction).table_in(channel_of(interaction))
    if table.row.game_key != GAME:
        raise UserError(Phrase(N_("The game in this channel is not Warships; use `/move`.")))
    why = why_no_moves(table, interaction.user.id)
    if why:
        raise NoMove(why)
    seat = table.seat_of(interaction.user.id)
    assert seat is not None
    return table, seat


class NoMove(UserError):
    """The caller has no move to make (:func:`why_no_moves`): refused in full, explained in a choice."""

    def __init__(self, why: Phrase) -> None:
        super().__init__(no_moves_refusal(why))
        self.why = why


async def _why_not(interaction: discord.Interaction, error: UserError) -> list[app_commands.Choice[str]]:
    """The one autocomplete choice that says why nothing is offered (submitted, it is refused), in the
    person's language."""
    speaker = await speaker_of(interaction)
    why = (
        speaker.say(error.why) if isinstance(error, NoMove) else speaker.say(error.args[0]).removesuffix(".")
    )
    return [app_commands.Choice(name=why[:100], value=NOTHING)]


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
            if from_.strip() == NOTHING or to.strip() == NOTHING:
                raise UserError(
                    Phrase(
                        N_("There is no move to make: pick one of your squares from the list as you type.")
                    )
                )
            if square not in units:
                raise UserError(
                    Phrase(
                        N_("None of your units on {square} can act now; pick a square from the list."),
                        square=repr(from_[:10]),
                    )
                )
            wanted = to.strip()
            matches = [
                a
                for key, label, a in units[square][1]
                if wanted in (key, label) or wanted.upper() == key.split(":", 1)[-1].upper()
            ]
            if len(matches) != 1:
                raise UserError(
                    Phrase(
                        N_("The unit on {square} cannot do {move}; pick from the list."),
                        square=square,
                        move=repr(to[:40]),
                    )
                )
            await interaction.response.defer(ephemeral=True, thinking=True)
            outcome = await host_of(interaction).act(
                table.id, interaction.user.id, matches[0], version=table.version
            )
            await outcome.shown()  # the table shows it (published after the commit)
            speaker = await speaker_of(interaction)
            played = speaker.gettext("✅ Played: {move}", move=speaker.say(outcome.applied or ""))
            await reply(interaction, played, **undo_offer(outcome, interaction, speaker))

        await guarded(interaction, work)

    @move.autocomplete("from_")
    async def from_autocomplete(self, interaction: discord.Interaction, current: str):
        try:
            table, seat = await _table_and_seat(interaction)
        except UserError as e:
            return await _why_not(interaction, e)
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
        except UserError as e:
            return await _why_not(interaction, e)
        square = str(getattr(interaction.namespace, "from", "") or "").strip().upper()
        entry = _unit_moves(table, seat).get(square)
        if entry is None:
            return await _why_not(
                interaction, UserError(Phrase(N_("Pick the square of one of your units in “from” first")))
            )
        cur = current.strip().lower()
        return [
            app_commands.Choice(name=label[:100], value=key[:100])
            for key, label, _ in entry[1]
            if cur in label.lower() or cur in key.lower()
        ][:25]


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(WarshipsCog(bot))
