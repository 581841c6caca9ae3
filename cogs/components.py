"""Buttons and selects: persistent DynamicItems that parse the custom ids built in bot/ui.py.

They work on any message Admiralty ever sent, across restarts, because the
state they need (game id, version, seat, menu position) is in the custom id.
"""

from __future__ import annotations

import discord
from discord.ext import commands

from bot import menus, ui
from bot.host import UserError
from cogs.common import fresh_controls, guarded, host_of, lobby_op, reply


class LobbyButton(discord.ui.DynamicItem[discord.ui.Button], template=ui.LOBBY_RE.pattern):
    def __init__(self, game_id: int, op: str) -> None:
        super().__init__(discord.ui.Button(label=op, custom_id=ui.lobby_id(game_id, op)))
        self.game_id = game_id
        self.op = op

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["game"]), match["op"])

    async def callback(self, interaction: discord.Interaction) -> None:
        host = host_of(interaction)
        user = interaction.user

        async def work():
            await interaction.response.defer(ephemeral=True, thinking=True)
            # The host checks, under the game's lock, that this button's game is still in the
            # lobby; a click that lost a race (Start against Cancel) is told why.
            table = await host.table(self.game_id)
            text = await lobby_op(self.op, host, table.channel_id, user, game_id=self.game_id)
            await reply(interaction, text)

        await guarded(interaction, work)


async def _show_choice(interaction: discord.Interaction, game_id: int, version: int, seat: int,
                       prefix: tuple[int, ...], page: int, digest: str | None = None) -> None:
    """A click on a menu entry: the next menu, or the action applied.

    Every click is acknowledged as a deferred update of the clicked message, which is then edited
    through the interaction (not counted against Discord's global rate limit): the table itself
    (a sub-menu of a public-controls game shows in its controls; an applied move redraws it), a
    player's DM, or their private (ephemeral) menu."""
    host = host_of(interaction)
    message = interaction.message
    ephemeral = message is not None and message.flags.ephemeral
    on_table = interaction.guild_id is not None and not ephemeral

    async def work():
        await interaction.response.defer()
        outcome = await host.choose(game_id, interaction.user.id, version, prefix, page, seat=seat,
                                    digest=digest, via=None if ephemeral else interaction)
        if outcome.level is not None:
            if on_table:
                await interaction.client.delivery.show_level(outcome.table, outcome.level, interaction)
                return outcome
            view = ui.menu_view(game_id, outcome.table.version, outcome.seat, outcome.level)
            crumbs = " › ".join(outcome.level.breadcrumb)
            text = f"{crumbs + ' › ' if crumbs else ''}**{outcome.level.title}**"
            await interaction.edit_original_response(content=text, view=view)
            return outcome
        text = f"✅ Played: {outcome.applied}"
        if ephemeral:
            # A private menu in the channel: show what comes next for this player right here.
            view = None
            game = outcome.table.game
            if not game.is_over and outcome.seat in game.to_act():
                try:
                    following = await host.menu(game_id, interaction.user.id)
                    view = ui.menu_view(game_id, following.table.version, following.seat, following.level)
                    text += f"\n**Next** — {following.table.game.prompt(following.seat)}"
                except UserError:
                    view = None
            await interaction.edit_original_response(content=text, view=view, attachments=[])
        else:
            # The table or the DM was just redrawn through this interaction: a short private word.
            await interaction.followup.send(text, ephemeral=True)
        return outcome

    await guarded(interaction, work)


class MenuButton(discord.ui.DynamicItem[discord.ui.Button], template=ui.BUTTON_RE.pattern):
    def __init__(self, game_id: int, version: int, seat: int, prefix: tuple[int, ...], digest: str | None) -> None:
        super().__init__(discord.ui.Button(
            label="…", custom_id=ui.button_id(game_id, version, seat, prefix, digest or "")))
        self.game_id, self.version, self.seat, self.prefix, self.digest = game_id, version, seat, prefix, digest

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["game"]), int(match["version"]), int(match["seat"]),
                   menus.decode_prefix(match["prefix"]), match["digest"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await _show_choice(interaction, self.game_id, self.version, self.seat, self.prefix, 0, self.digest)


class MenuSelect(discord.ui.DynamicItem[discord.ui.Select], template=ui.SELECT_RE.pattern):
    def __init__(self, game_id: int, version: int, seat: int, prefix: tuple[int, ...], page: int,
                 digest: str | None) -> None:
        super().__init__(discord.ui.Select(custom_id=ui.select_id(game_id, version, seat, prefix, page, digest or ""),
                                           options=[discord.SelectOption(label="…")]))
        self.game_id, self.version, self.seat, self.prefix, self.page = game_id, version, seat, prefix, page
        self.digest = digest

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["game"]), int(match["version"]), int(match["seat"]),
                   menus.decode_prefix(match["prefix"]), int(match["page"]), match["digest"])

    async def callback(self, interaction: discord.Interaction) -> None:
        values = (interaction.data or {}).get("values") or []
        value = values[0] if values else ""
        if value.startswith("p") and value[1:].isdigit():
            await _show_choice(interaction, self.game_id, self.version, self.seat, self.prefix, int(value[1:]),
                               self.digest)
        elif value.isdigit():
            await _show_choice(interaction, self.game_id, self.version, self.seat,
                               self.prefix + (int(value),), 0, self.digest)
        else:
            await reply(interaction, "That choice is not on the menu.")


class MyViewButton(discord.ui.DynamicItem[discord.ui.Button], template=ui.VIEW_RE.pattern):
    def __init__(self, game_id: int) -> None:
        super().__init__(discord.ui.Button(label="My view", custom_id=ui.view_id(game_id)))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work():
            await interaction.response.defer(ephemeral=True, thinking=True)
            table = await host_of(interaction).table(self.game_id)
            text, view, file = await fresh_controls(interaction, table)
            await reply(interaction, text, view=view, file=file)

        await guarded(interaction, work)


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(LobbyButton, MenuButton, MenuSelect, MyViewButton)
