"""A small discord.py bot that exercises what Admiralty's bot will use, to prove the fake against the
real client: slash command group with options + autocomplete, views with buttons and a select, a
DynamicItem, DMs, file uploads, ephemeral replies, deferred responses + follow-ups, edits, threads, modals."""

from __future__ import annotations

import asyncio
import io

import discord
from discord import app_commands
from discord.ext import commands

GAMES = ["enemy-lines", "enemy-in-sight", "warships", "everrain"]


class Tile(discord.ui.DynamicItem[discord.ui.Button], template=r"tile:(?P<x>\d+):(?P<y>\d+)"):
    def __init__(self, x: int, y: int) -> None:
        super().__init__(discord.ui.Button(label=f"{x},{y}", custom_id=f"tile:{x}:{y}"))
        self.x, self.y = x, y

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["x"]), int(match["y"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        interaction.client.seen.append(("tile", interaction.user.name, self.x, self.y))
        await interaction.response.defer()  # type 6: deferred update of the board message
        await interaction.edit_original_response(content=f"{interaction.user.name} hit {self.x},{self.y}")


class SecretView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Peek", custom_id="secret:peek")
    async def peek(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        interaction.client.seen.append(("peek", interaction.user.name))
        await interaction.response.edit_message(content="peeked", view=None)


class GameView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Fire", custom_id="game:fire", style=discord.ButtonStyle.danger)
    async def fire(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        interaction.client.seen.append(("fire", interaction.user.name))
        button.label = "Fired"
        await interaction.response.edit_message(content=f"{interaction.user.name} fired", view=self)

    @discord.ui.button(label="Secret", custom_id="game:secret")
    async def secret(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.send_message("only you can see this", ephemeral=True, view=SecretView())

    @discord.ui.select(
        custom_id="game:pick",
        placeholder="Pick a square",
        options=[discord.SelectOption(label=s.upper(), value=s) for s in ("a1", "b2", "c3")],
    )
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        interaction.client.seen.append(("pick", interaction.user.name, list(select.values)))
        await interaction.response.send_message(f"{interaction.user.name} picked {', '.join(select.values)}")


class BadView(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)
        self.add_item(discord.ui.Button(label="bad", custom_id="x" * 101))


class NameModal(discord.ui.Modal, title="Name your fleet"):
    fleet = discord.ui.TextInput(label="Fleet name", custom_id="fleet")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        interaction.client.seen.append(("modal", interaction.user.name, self.fleet.value))
        await interaction.response.send_message(f"Fleet {self.fleet.value} ready", ephemeral=True)


class SampleBot(commands.Bot):
    def __init__(
        self, guild_id: int | None = None, upload: bytes = b"", intents: discord.Intents | None = None
    ) -> None:
        super().__init__(command_prefix="!", intents=intents or discord.Intents.default())
        self.guild_id = guild_id
        self.seen: list[tuple] = []
        self.errors: list[Exception] = []
        self.upload = upload
        self.slow_delay = 0.0
        self.later_delay = 0.0
        self.resumed_count = 0
        self._install()

    async def setup_hook(self) -> None:
        self.add_dynamic_items(Tile)
        self.add_view(GameView())
        await self.tree.sync()
        if self.guild_id:
            await self.tree.sync(guild=discord.Object(self.guild_id))

    async def before_identify_hook(self, shard_id, *, initial: bool = False) -> None:
        # discord.py sleeps 5 s before a non-initial IDENTIFY; the sample bot skips that to keep tests fast
        return None

    async def on_resumed(self) -> None:
        self.resumed_count += 1

    def _install(self) -> None:
        bot = self
        game = app_commands.Group(name="game", description="Naval games")

        @game.command(name="new", description="Start a game")
        @app_commands.describe(game="Which game", players="How many seats")
        async def game_new(
            interaction: discord.Interaction, game: str, players: app_commands.Range[int, 2, 4] = 2
        ) -> None:
            bot.seen.append(("new", interaction.user.name, game, players))
            await interaction.response.send_message(f"New {game} for {players} players", view=GameView())

        @game_new.autocomplete("game")
        async def game_ac(interaction: discord.Interaction, current: str):
            return [app_commands.Choice(name=g, value=g) for g in GAMES if current.lower() in g]

        self.tree.add_command(game)

        @self.tree.command(name="move", description="Make a move")
        async def move(interaction: discord.Interaction, action: str) -> None:
            await interaction.response.send_message(f"moved {action}", ephemeral=True)

        @move.autocomplete("action")
        async def move_ac(interaction: discord.Interaction, current: str):
            return [app_commands.Choice(name=f"{current}{i}", value=f"{current}{i}") for i in range(1, 4)]

        @self.tree.command(name="secret", description="Ephemeral reply")
        async def secret(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("shh", ephemeral=True)

        @self.tree.command(name="think", description="Deferred reply then follow-up")
        async def think(interaction: discord.Interaction) -> None:
            await interaction.response.defer(thinking=True)
            await asyncio.sleep(0.05)
            await interaction.followup.send("thought about it")
            await interaction.followup.send("and one more thing")

        @self.tree.command(name="rethink", description="Deferred reply then edit original")
        async def rethink(interaction: discord.Interaction) -> None:
            await interaction.response.defer(thinking=True, ephemeral=True)
            await interaction.edit_original_response(content="edited original")

        @self.tree.command(name="board", description="Post a board with dynamic buttons")
        async def board(interaction: discord.Interaction) -> None:
            view = discord.ui.View(timeout=None)
            for x in range(3):
                view.add_item(Tile(x, 0))
            await interaction.channel.send("board", view=view)
            await interaction.response.send_message("posted", ephemeral=True)

        @self.tree.command(name="dm", description="DM me")
        async def dm(interaction: discord.Interaction) -> None:
            try:
                await interaction.user.send("hello in private", view=SecretView())
            except discord.Forbidden as exc:
                bot.errors.append(exc)
                await interaction.response.send_message("your DMs are closed", ephemeral=True)
                return
            await interaction.response.send_message("check your DMs", ephemeral=True)

        @self.tree.command(name="upload", description="Upload a file to the channel")
        async def upload(interaction: discord.Interaction) -> None:
            await interaction.response.defer(ephemeral=True)
            try:
                await interaction.channel.send(
                    "board image", file=discord.File(io.BytesIO(bot.upload), "board.png")
                )
            except discord.HTTPException as exc:
                bot.errors.append(exc)
                await interaction.followup.send("could not upload", ephemeral=True)
                return
            await interaction.followup.send("uploaded", ephemeral=True)

        @self.tree.command(name="reply_file", description="File in the interaction reply")
        async def reply_file(interaction: discord.Interaction) -> None:
            await interaction.response.send_message(
                "here", file=discord.File(io.BytesIO(bot.upload), "r.bin")
            )

        @self.tree.command(name="badview", description="A view with a too long custom_id")
        async def badview(interaction: discord.Interaction) -> None:
            try:
                await interaction.response.send_message("bad", view=BadView())
            except discord.HTTPException as exc:
                bot.errors.append(exc)
                await interaction.response.send_message("the view was refused")

        @self.tree.command(name="slow", description="Answers too late")
        async def slow(interaction: discord.Interaction) -> None:
            await asyncio.sleep(bot.slow_delay)
            try:
                await interaction.response.send_message("too late?")
            except discord.HTTPException as exc:
                bot.errors.append(exc)

        @self.tree.command(name="later", description="Follow-up after a delay")
        async def later(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("first")
            await asyncio.sleep(bot.later_delay)
            try:
                await interaction.followup.send("second")
            except discord.HTTPException as exc:
                bot.errors.append(exc)

        @self.tree.command(name="post", description="Post then edit a channel message")
        async def post(interaction: discord.Interaction) -> None:
            await interaction.response.defer(ephemeral=True)
            msg = await interaction.channel.send("draft")
            await msg.edit(content="final")
            await interaction.followup.send("done", ephemeral=True)

        @self.tree.command(name="thread", description="Open a thread")
        async def thread(interaction: discord.Interaction) -> None:
            th = await interaction.channel.create_thread(
                name="match-1", type=discord.ChannelType.private_thread
            )
            await th.add_user(interaction.user)
            await th.send("welcome to the match")
            await interaction.response.send_message(f"thread {th.id}", ephemeral=True)

        @self.tree.command(name="form", description="Open a modal")
        async def form(interaction: discord.Interaction) -> None:
            await interaction.response.send_modal(NameModal())

        @self.tree.command(name="fleet", description="Guild-only command with a user option")
        async def fleet(interaction: discord.Interaction, rival: discord.Member, size: int = 3) -> None:
            await interaction.response.send_message(f"{interaction.user.name} vs {rival.name} size {size}")

        self._fleet = fleet

        @self.tree.command(name="whereami", description="User-installable: says where it was used")
        @app_commands.allowed_installs(guilds=True, users=True)
        @app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
        async def whereami(interaction: discord.Interaction) -> None:
            owners = {int(k): v for k, v in interaction._integration_owners.items()}
            ctx = interaction.context
            where = 0 if ctx.guild else 1 if ctx.dm_channel else 2 if ctx.private_channel else None
            bot.seen.append(("whereami", where, owners, type(interaction.channel).__name__))
            await interaction.response.send_message(
                f"context {where}, guild install {interaction.is_guild_integration()}, "
                f"user install {interaction.is_user_integration()}",
                ephemeral=True,
            )

    async def on_ready(self) -> None:
        pass


def make_bot(
    guild_id: int | None = None, upload: bytes = b"", intents: discord.Intents | None = None
) -> SampleBot:
    bot = SampleBot(guild_id=guild_id, upload=upload, intents=intents)
    if guild_id:
        # /fleet only in the guild (tests guild-command sync)
        bot.tree.remove_command("fleet")
        bot.tree.add_command(bot._fleet, guild=discord.Object(guild_id))
    return bot


if __name__ == "__main__":  # run in a subprocess through tests.fakediscord.launch
    import sys

    make_bot(int(sys.argv[1])).run("fake-token", log_handler=None)
