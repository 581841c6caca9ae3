"""Follow a game: the table's **Follow** button, the follower's choices and **Unfollow** (in the private
answer and in every follow DM), and /game follow and /game unfollow (their commands live in
cogs/game.py and call these). Thin: the work is in bot/follows.py."""

from __future__ import annotations

import discord
from discord.ext import commands

from bot import ui
from bot.delivery import clip
from bot.follows import Follows
from cogs import clicks
from cogs.common import channel_of, delivery_of, guarded, host_of, reply, speaker_of, table_here


def follows_of(interaction: discord.Interaction) -> Follows:
    host, delivery = host_of(interaction), delivery_of(interaction)
    return Follows(host.storage, host.publisher, delivery.follows.welcome)


async def follow(interaction: discord.Interaction, game_id: int | None = None) -> None:
    """Follow the game of this channel (or of the table clicked): the first DM goes now, and the private
    answer holds the follower's choices and Unfollow."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    host = host_of(interaction)
    if game_id is None:
        table = await host.table_in(channel_of(interaction))
    else:
        table = await table_here(interaction, game_id)  # the table of a game in this channel
    # remembered before the first DM goes: the follow DMs come in the follower's language
    speaker = await speaker_of(interaction, remember=True)
    text, every_move = await follows_of(interaction).follow(table, interaction.user.id)
    await reply(interaction, speaker.say(text), view=ui.follow_view(table.id, every_move, speaker=speaker))


async def unfollow(interaction: discord.Interaction, game_id: int | None = None) -> None:
    """/game unfollow: this channel's game, or game ``game_id`` (from anywhere: only the caller's own
    follow is touched)."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    if game_id is None:
        game_id = (await host_of(interaction).table_in(channel_of(interaction))).id
    speaker = await speaker_of(interaction)
    await reply(
        interaction, speaker.say(await follows_of(interaction).unfollow(game_id, interaction.user.id))
    )


async def change(interaction: discord.Interaction, game_id: int, op: str) -> None:
    """Every move / Only when it ends / Unfollow, clicked in the private answer or in a follow DM: the
    clicked message shows the new choice (a DM keeps its text, with a line saying what changed)."""
    follows = follows_of(interaction)
    user_id = interaction.user.id
    speaker = await speaker_of(interaction)
    if op == "off":
        text, view = speaker.say(await follows.unfollow(game_id, user_id)), None
    else:
        text = speaker.say(await follows.choose(game_id, user_id, op == "every"))
        view = ui.follow_view(game_id, op == "every", speaker=speaker)
    message = interaction.message
    if message is not None and not message.flags.ephemeral and interaction.guild_id is None:
        text = clip(message.content.split("\n-# ")[0] + f"\n-# {text}")
    await interaction.response.edit_message(content=text, view=view)


class FollowButton(discord.ui.DynamicItem[discord.ui.Button], template=ui.FOLLOW_RE.pattern):
    """``adm:follow:<game>:<op>``: Follow on the table (on), and a follower's choices (every, end, off)."""

    def __init__(self, game_id: int, op: str) -> None:
        super().__init__(discord.ui.Button(label="Follow", custom_id=ui.follow_id(game_id, op)))
        self.game_id, self.op = game_id, op

    @classmethod
    async def from_custom_id(cls, interaction, item, match):
        return cls(int(match["game"]), match["op"])

    async def callback(self, interaction: discord.Interaction) -> None:
        if self.op == "on":
            await guarded(interaction, lambda: follow(interaction, self.game_id))
        else:
            await guarded(interaction, lambda: change(interaction, self.game_id, self.op))


async def setup(bot: commands.Bot) -> None:
    await clicks.route(bot, FollowButton)
