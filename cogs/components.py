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
            table = await host.table(self.game_id)
            if table.row.status != "lobby":
                raise UserError("This lobby is closed.")
            text = await lobby_op(self.op, host, table.channel_id, user)
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
                    text += f"\n**Next** — {following.table.game.prompt(following.seat)}"
                except UserError:
                    view = None
            await interaction.edit_original_response(content=text, view=view, attachments=[])
        else:
            # In the channel (a public turn message) or in a DM, whose message the host has just
            # updated in place: a short private confirmation.
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


class PlayAgainButton(discord.ui.DynamicItem[discord.ui.Button], template=ui.AGAIN_RE.pattern):
    """"Play again" on a finished game: a rematch lobby in the same place, the clicker its host."""

    def __init__(self, game_id: int) -> None:
        super().__init__(ui.play_again_button(game_id))
        self.game_id = game_id

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work():
            await interaction.response.defer(ephemeral=True, thinking=True)
            table = await host_of(interaction).play_again(self.game_id, interaction.user.id,
                                                          interaction.user.display_name)
            await reply(interaction, f"Rematch lobby opened (game #{table.id}) with the same players; "
                                     "press **Start** when everyone is ready.")

        await guarded(interaction, work)


class ResignButton(discord.ui.DynamicItem[discord.ui.Button], template=ui.RESIGN_RE.pattern):
    """The confirm step of /game resign: Resign (op yes) or Keep playing (op no), for one user only."""

    def __init__(self, game_id: int, user_id: int, op: str) -> None:
        super().__init__(discord.ui.Button(label=op, custom_id=ui.resign_id(game_id, user_id, op)))
        self.game_id, self.user_id, self.op = game_id, user_id, op

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["game"]), int(match["user"]), match["op"])

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work():
            if interaction.user.id != self.user_id:
                raise UserError("This confirmation belongs to another player.")
            await interaction.response.defer()  # the (ephemeral) confirmation is edited in place
            if self.op == "no":
                await interaction.edit_original_response(content="You keep playing.", view=None)
                return
            table = await host_of(interaction).resign(self.game_id, interaction.user.id)
            text = (f"You resigned from game #{table.id}."
                    + (" The game is over." if table.over else " An AI plays your seat from now on."))
            await interaction.edit_original_response(content=text, view=None)

        await guarded(interaction, work)


async def setup(bot: commands.Bot) -> None:
    bot.add_dynamic_items(LobbyButton, MenuButton, MenuSelect, MyViewButton, PlayAgainButton, ResignButton)
