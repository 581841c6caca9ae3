"""/move: play by typing, with autocomplete of every legal move of the caller."""

from __future__ import annotations

import difflib
import re

import discord
from discord import app_commands
from discord.ext import commands

from bot import menus
from bot.host import UserError
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

CHOICE_RE = re.compile(r"v(?P<version>[0-9]{1,9}):(?P<index>[0-9]{1,5})", re.ASCII)


def rank(labels: list[str], typed: str, limit: int = 25) -> list[int]:
    """Indices of the labels that match what was typed, best first: every typed word found in the
    label (case-insensitive) comes first, ranked by closeness; then near misses (typos)."""
    words = typed.lower().split()
    if not words:
        return list(range(min(limit, len(labels))))
    text = " ".join(words)

    def score(label: str) -> float:
        return difflib.SequenceMatcher(None, text, label.lower()).ratio()

    full = [i for i, label in enumerate(labels) if all(w in label.lower() for w in words)]
    full.sort(key=lambda i: (-score(labels[i]), i))
    if len(full) >= limit:
        return full[:limit]
    # Near misses: each typed word close to some word of the label ("brodside" → "Broadside").
    rest = []
    for i, label in enumerate(labels):
        if i in full:
            continue
        parts = label.lower().replace("›", " ").split()
        close = sum(
            1 for w in words if w in label.lower() or difflib.get_close_matches(w, parts, n=1, cutoff=0.75)
        )
        if close == len(words):
            rest.append(i)
    rest.sort(key=lambda i: (-score(labels[i]), i))
    return (full + rest)[:limit]


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
            table = await host.table_in(channel_of(interaction))
            why = why_no_moves(table, interaction.user.id)
            if why:
                raise UserError(no_moves_refusal(why))
            if action.strip() == NOTHING:
                raise UserError(
                    Phrase(N_("There is no move to make: pick one of your moves from the list as you type."))
                )
            seat = table.seat_of(interaction.user.id)
            assert seat is not None  # why_no_moves refused anyone without a seat
            await interaction.response.defer(ephemeral=True, thinking=True)
            speaker = await speaker_of(interaction)
            choices = menus.flat_choices(table.engine, seat, table.names(speaker), speaker)
            parsed = _parse_choice(action)
            version = table.version
            if parsed is not None:
                version, index = parsed
                if version != table.version:
                    raise UserError(
                        Phrase(N_("That move was offered for an earlier position; type it again."))
                    )
                if not 0 <= index < len(choices):
                    raise UserError(Phrase(N_("That is not one of your moves; pick one from the list.")))
                chosen = choices[index][1]
            else:
                wanted = action.strip().lower()
                matches = [a for label, a in choices if label.lower() == wanted]
                if len(matches) != 1:
                    raise UserError(
                        Phrase(
                            N_("I don't know the move {move}; pick one from the list as you type."),
                            move=repr(action[:80]),
                        )
                    )
                chosen = matches[0]
            outcome = await host.act(table.id, interaction.user.id, chosen, version=version, speaker=speaker)
            await outcome.shown()  # the table shows it (published after the commit)
            played = speaker.gettext("✅ Played: {move}", move=speaker.say(outcome.applied or ""))
            await reply(interaction, played, **undo_offer(outcome, interaction, speaker))

        await guarded(interaction, work)

    @move.autocomplete("action")
    async def move_autocomplete(self, interaction: discord.Interaction, current: str):
        host = host_of(interaction)
        try:
            table = await host.table_in(channel_of(interaction))
        except UserError as e:
            said = (await speaker_of(interaction)).say(e.args[0] if e.args else str(e))
            return [app_commands.Choice(name=said[:100], value=NOTHING)]
        why = why_no_moves(table, interaction.user.id)
        if why:
            return [app_commands.Choice(name=(await speaker_of(interaction)).say(why)[:100], value=NOTHING)]
        seat = table.seat_of(interaction.user.id)
        assert seat is not None  # why_no_moves refused anyone without a seat
        speaker = await speaker_of(interaction)
        choices = menus.flat_choices(table.engine, seat, table.names(speaker), speaker)
        labels = [label for label, _ in choices]
        return [
            app_commands.Choice(name=labels[i][:100], value=f"v{table.version}:{i}")
            for i in rank(labels, current)
        ]


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(PlayCog(bot))
