"""The text board, privately: the table's **Text board** button and ``/game board`` (its command lives
in cogs/game.py and calls :func:`show`). Thin: the words are built in bot/textboard.py."""

from __future__ import annotations

import discord
from discord.ext import commands

from bot import layout, ui
from bot.host import UserError
from bot.i18n import N_, Phrase
from bot.summary import moves_of
from bot.tables import Table
from bot.textboard import text_board
from cogs import clicks
from cogs.common import ByGame, channel_of, guarded, host_of, reply, speaker_of, table_here

NOT_STARTED = Phrase(N_("The game has not started yet."))


async def show(interaction: discord.Interaction, table: Table) -> None:
    """The text board of ``table`` for whoever asked, privately: a player's own view, else the
    spectators'; one message a page (reads: the game, its log and its move number)."""
    if table.game is None:
        raise UserError(NOT_STARTED)
    storage = host_of(interaction).storage
    log = await storage.recent_log(table.id, layout.LOG_LINES)
    moves = await moves_of(storage, table)
    speaker = await speaker_of(interaction)
    for page in text_board(table, table.seat_of(interaction.user.id), log, moves, speaker):
        await reply(interaction, page)


async def board_command(interaction: discord.Interaction) -> None:
    """``/game board``: the text board of this channel's game."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    table = await host_of(interaction).table_in(channel_of(interaction))
    await show(interaction, table)


class TextBoardButton(ByGame, discord.ui.DynamicItem[discord.ui.Button], template=ui.TEXT_BOARD_RE.pattern):
    """The table's **Text board**: the position in words, answered privately."""

    def __init__(self, game_id: int) -> None:
        super().__init__(ui.text_board_button(game_id))
        self.game_id = game_id

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work():
            await interaction.response.defer(ephemeral=True, thinking=True)
            await show(interaction, await table_here(interaction, self.game_id))

        await guarded(interaction, work)


async def setup(bot: commands.Bot) -> None:
    await clicks.route(bot, TextBoardButton)
