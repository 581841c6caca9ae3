"""Buttons and selects: persistent DynamicItems that parse the custom ids built in bot/ui.py.

They work on any message Admiralty ever sent, across restarts, because the
state they need (game id, version, seat, menu position) is in the custom id.
"""

from __future__ import annotations

import discord
from discord.ext import commands

from bot import ui
from bot.games import fill_names
from bot.host import UserError
from cogs.common import fresh_controls, guarded, host_of, lobby_op, reply, table_here

MALFORMED = "That control is not one of mine (or it is damaged). Use the buttons under the current board."


async def refuse_malformed(interaction: discord.Interaction) -> None:
    await guarded(interaction, lambda: reply(interaction, MALFORMED))


class LobbyButton(discord.ui.DynamicItem[discord.ui.Button], template=ui.LOBBY_ANY):
    def __init__(self, custom_id: str) -> None:
        super().__init__(discord.ui.Button(label="…", custom_id=custom_id))
        parsed = ui.parse_lobby(custom_id)
        self.game_id, self.op = parsed if parsed is not None else (None, None)

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(match[0])

    async def callback(self, interaction: discord.Interaction) -> None:
        if self.game_id is None:
            return await refuse_malformed(interaction)
        host = host_of(interaction)
        user = interaction.user

        async def work():
            await interaction.response.defer(ephemeral=True, thinking=True)
            # The host checks, under the game's lock, that this button's game is still in the
            # lobby; a click that lost a race (Start against Cancel) is told why.
            table = await table_here(interaction, self.game_id)
            text = await lobby_op(self.op, host, table.channel_id, user, game_id=self.game_id)
            await reply(interaction, text)

        await guarded(interaction, work)


async def _show_choice(interaction: discord.Interaction, game_id: int, version: int, seat: int,
                       prefix: tuple[int, ...], page: int, digest: str | None = None) -> None:
    """A click on a menu entry: the next menu, or the action applied."""
    host = host_of(interaction)
    in_place = interaction.guild_id is None or (interaction.message is not None
                                                and interaction.message.flags.ephemeral)

    async def work():
        if in_place:
            await interaction.response.defer()  # we edit the clicked (private) message itself
        else:
            await interaction.response.defer(ephemeral=True, thinking=True)
        await table_here(interaction, game_id)
        outcome = await host.choose(game_id, interaction.user.id, version, prefix, page, seat=seat,
                                    digest=digest)
        if outcome.level is not None:
            view = ui.menu_view(game_id, outcome.table.version, outcome.seat, outcome.level)
            crumbs = " › ".join(outcome.level.breadcrumb)
            text = f"{crumbs + ' › ' if crumbs else ''}**{outcome.level.title}**"
            if in_place:
                await interaction.edit_original_response(content=text, view=view)
            else:
                await interaction.followup.send(text, view=view, ephemeral=True)
            return outcome
        text = f"✅ Played: {outcome.applied}"
        if in_place and interaction.guild_id is not None:
            # A private menu in the channel: show what comes next for this player right here.
            view = None
            game = outcome.table.game
            if not game.is_over and outcome.seat in game.to_act():
                try:
                    following = await host.menu(game_id, interaction.user.id)
                    view = ui.menu_view(game_id, following.table.version, following.seat, following.level)
                    prompt = following.table.game.prompt(following.seat)
                    text += f"\n**Next** — {fill_names(prompt, following.table.names())}"
                except UserError:
                    view = None
            await interaction.edit_original_response(content=text, view=view, attachments=[])
        else:
            # In the channel (a public turn message) or in a DM, whose message the host has just
            # updated in place: a short private confirmation.
            await interaction.followup.send(text, ephemeral=True)
        return outcome

    await guarded(interaction, work)


class MenuButton(discord.ui.DynamicItem[discord.ui.Button], template=ui.BUTTON_ANY):
    def __init__(self, custom_id: str) -> None:
        super().__init__(discord.ui.Button(label="…", custom_id=custom_id))
        self.menu = ui.parse_button(custom_id)

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(match[0])

    async def callback(self, interaction: discord.Interaction) -> None:
        m = self.menu
        if m is None:
            return await refuse_malformed(interaction)
        await _show_choice(interaction, m.game, m.version, m.seat, m.prefix, 0, m.digest)


class MenuSelect(discord.ui.DynamicItem[discord.ui.Select], template=ui.SELECT_ANY):
    def __init__(self, custom_id: str) -> None:
        super().__init__(discord.ui.Select(custom_id=custom_id, options=[discord.SelectOption(label="…")]))
        self.menu = ui.parse_select(custom_id)

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(match[0])

    async def callback(self, interaction: discord.Interaction) -> None:
        m = self.menu
        values = (interaction.data or {}).get("values") or []
        value = ui.parse_select_value(values[0]) if len(values) == 1 and isinstance(values[0], str) else None
        if m is None:
            await refuse_malformed(interaction)
        elif value is None:
            await guarded(interaction, lambda: reply(interaction, "That choice is not on the menu."))
        elif value[0] == "page":
            await _show_choice(interaction, m.game, m.version, m.seat, m.prefix, value[1], m.digest)
        else:
            await _show_choice(interaction, m.game, m.version, m.seat, m.prefix + (value[1],), 0, m.digest)


class MyViewButton(discord.ui.DynamicItem[discord.ui.Button], template=ui.VIEW_ANY):
    def __init__(self, custom_id: str) -> None:
        super().__init__(discord.ui.Button(label="My view", custom_id=custom_id))
        self.game_id = ui.parse_view(custom_id)

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(match[0])

    async def callback(self, interaction: discord.Interaction) -> None:
        if self.game_id is None:
            return await refuse_malformed(interaction)

        async def work():
            await interaction.response.defer(ephemeral=True, thinking=True)
            table = await table_here(interaction, self.game_id)
            text, view, file = await fresh_controls(interaction, table)
            await reply(interaction, text, view=view, file=file)

        await guarded(interaction, work)


class OtherComponent(discord.ui.DynamicItem[discord.ui.Button], template=ui.OTHER_ANY):
    """Any other id under "adm:": none of ours, so refused (rather than left unanswered)."""

    def __init__(self, custom_id: str) -> None:
        super().__init__(discord.ui.Button(label="…", custom_id=custom_id))

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(match[0])

    async def callback(self, interaction: discord.Interaction) -> None:
        await refuse_malformed(interaction)


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(LobbyButton, MenuButton, MenuSelect, MyViewButton, OtherComponent)
