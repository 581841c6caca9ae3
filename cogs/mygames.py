"""/games: the caller's lobbies and running games in every server, the ones waiting for them first.

It answers privately, wherever it is used: a server channel, the bot's DMs, a group DM or a server
without the bot (the command is user-installable too). ◀ ▶ (``adm:mine:p:<page>``) page through the
list in place; **Next game where it's my turn** (``adm:mine:n:<game>``: the game shown last, 0 at first)
answers privately with the next such game, round-robin: its link, and the caller's menu where the game's
controls work (its channel, DMs), else the way to them (the table's "My view" button). Both buttons
read the list again for whoever clicks: an id names no one, so a forged one shows the clicker's own.
"""

from __future__ import annotations

import re
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import mygames
from bot.delivery import my_view_label
from bot.host import UserError
from bot.i18n import N_, Speaker
from bot.mygames import MyGame, Place
from bot.storage import SeatedGame
from cogs import clicks
from cogs.common import ByGame, bot_of, fresh_controls, guarded, host_of, reply, speaker_of

PAGE_RE = re.compile(r"adm:mine:p:(?P<page>[0-9]{1,4})", re.ASCII)
NEXT_RE = re.compile(r"adm:mine:n:(?P<game>[0-9]{1,19})", re.ASCII)
NEXT_LABEL = N_("Next game where it's my turn")
NO_TURN = N_("No game is waiting for your move right now. 🎉")
NO_MENTIONS = discord.AllowedMentions.none()


def page_id(page: int) -> str:
    return f"adm:mine:p:{page}"


def next_id(game_id: int) -> str:
    return f"adm:mine:n:{game_id}"


def _view(
    speaker: Speaker, *, page: int | None = None, pages: int = 1, after: int | None = None
) -> discord.ui.View | None:
    """The buttons of a /games answer: ◀ ▶ when the list has more than one page, **Next game where it's
    my turn** (after game ``after``) when one waits. Inert: the dynamic items below answer the clicks."""
    view = discord.ui.View(timeout=None)
    if after is not None:
        view.add_item(
            discord.ui.Button(
                label=speaker.gettext(NEXT_LABEL), style=discord.ButtonStyle.primary, custom_id=next_id(after)
            )
        )
    if page is not None and pages > 1:
        for label, target, off in (("◀", page - 1, page <= 0), ("▶", page + 1, page >= pages - 1)):
            custom_id = page_id(min(max(target, 0), 9999))
            view.add_item(
                discord.ui.Button(
                    label=label, style=discord.ButtonStyle.secondary, disabled=off, custom_id=custom_id
                )
            )
    view.stop()
    return view if view.children else None


async def _games(interaction: discord.Interaction) -> list[MyGame]:
    """The clicker's games, in /games order: ONE query."""
    seated = await host_of(interaction).storage.seated_games(interaction.user.id)
    return mygames.my_games(seated, interaction.user.id)


def _place_of(interaction: discord.Interaction):
    """How this process's cache names a game's server and channel (None where it does not know)."""
    client = bot_of(interaction)

    def place(game: SeatedGame) -> Place:
        guild = client.get_guild(game.guild_id) if game.guild_id is not None else None
        if guild is None:
            return Place(None, None)
        channel = guild.get_channel_or_thread(game.place)
        return Place(guild.name, getattr(channel, "name", None))

    return place


async def games_page(interaction: discord.Interaction, page: int) -> tuple[str, discord.ui.View | None]:
    speaker = await speaker_of(interaction)
    games = await _games(interaction)
    texts = mygames.pages(games, _place_of(interaction), speaker)
    page = min(max(page, 0), len(texts) - 1)  # the list shrank since (or a forged page): the last one
    after = 0 if any(g.my_turn for g in games) else None
    return texts[page], _view(speaker, page=page, pages=len(texts), after=after)


class MyGamesCog(commands.Cog):
    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(
        name="games",
        description="Your games in every server, those awaiting your move first (private)",
    )
    @app_commands.allowed_installs(guilds=True, users=True)
    @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
    async def games(self, interaction: discord.Interaction) -> None:
        async def work():
            text, view = await games_page(interaction, 0)
            kwargs: dict[str, Any] = {"view": view} if view is not None else {}
            await interaction.response.send_message(
                text, ephemeral=True, allowed_mentions=NO_MENTIONS, **kwargs
            )

        await guarded(interaction, work)


class GamesPageButton(discord.ui.DynamicItem[discord.ui.Button], template=PAGE_RE.pattern):
    """◀ ▶ of /games: that page of the clicker's list, edited in place."""

    def __init__(self, page: int) -> None:
        super().__init__(discord.ui.Button(label="…", custom_id=page_id(page)))
        self.page = page

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["page"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work():
            text, view = await games_page(interaction, self.page)
            await interaction.response.edit_message(content=text, view=view, allowed_mentions=NO_MENTIONS)

        await guarded(interaction, work)


class NextTurnButton(ByGame, discord.ui.DynamicItem[discord.ui.Button], template=NEXT_RE.pattern):
    """**Next game where it's my turn**: the game after ``after`` (round-robin), privately."""

    def __init__(self, after: int) -> None:
        super().__init__(discord.ui.Button(label=NEXT_LABEL, custom_id=next_id(after)))
        self.after = after

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work():
            speaker = await speaker_of(interaction)
            games = await _games(interaction)
            chosen = mygames.next_turn(games, self.after)
            if chosen is None:
                await reply(interaction, speaker.gettext(NO_TURN))
                return
            await interaction.response.defer(ephemeral=True, thinking=True)
            await _show(interaction, chosen, speaker, more=sum(g.my_turn for g in games) > 1)

        await guarded(interaction, work)


async def _show(interaction: discord.Interaction, chosen: MyGame, speaker: Speaker, *, more: bool) -> None:
    """The game ``chosen``: where it is and its link (with the Next button when another game waits),
    then the caller's menu where its controls work, else the way to them."""
    _ = speaker.gettext
    game = chosen.game
    place = _place_of(interaction)(game)
    address = mygames.link(game)
    lines = [
        f"▶ {mygames.headline(chosen, place, speaker)}",
        _("Table: {link}", link=address)
        if address
        else _("Its table message is gone: `/game status` in its channel posts it again."),
    ]
    table = await host_of(interaction).table(game.id)
    try:
        table.check_place(interaction.channel_id, interaction.user.id, dm=interaction.guild_id is None)
        controls = True
    except UserError:  # another channel: the game's controls work in its channel and in DMs only
        controls = False
        lines.append(
            _(
                "Press **{button}** under the table to see your view and move (or use `/games` in my DMs "
                "to move from there).",
                button=my_view_label(table, speaker),
            )
        )
    await reply(interaction, "\n".join(lines), view=_view(speaker, after=game.id if more else None))
    if controls:
        text, view, file = await fresh_controls(interaction, table)
        await reply(interaction, text, view=view, file=file)


async def setup(bot: commands.Bot) -> None:
    await bot.add_cog(MyGamesCog(bot))
    await clicks.route(bot, GamesPageButton, NextTurnButton)
