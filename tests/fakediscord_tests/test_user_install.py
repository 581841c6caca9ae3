"""User installs: the fake records a command's integration_types and contexts as synced, offers a command
only where they allow it, and delivers interactions from the bot's DM and from a group DM with
Discord's shape (context, authorizing_integration_owners, a group DM channel the bot cannot read)."""

import discord
import pytest

from tests.fakediscord import FakeDiscordError
from tests.fakediscord.errors import ApiError
from tests.fakediscord.server import _check_install_fields


async def test_synced_commands_keep_their_integration_types_and_contexts(fd, bot):
    by_name = {c["name"]: c for c in fd.commands(False)}
    assert by_name["whereami"]["integration_types"] == [0, 1]
    assert by_name["whereami"]["contexts"] == [0, 1, 2]
    # a command that says nothing: the app's default (guild install), contexts null
    assert by_name["secret"]["integration_types"] == [0] and by_name["secret"]["contexts"] is None


def test_invalid_integration_types_or_contexts_are_refused_as_discord_does():
    for bad in ({"integration_types": [2]}, {"contexts": [0, 3]}, {"contexts": [1, 1]}, {"contexts": "0"}):
        with pytest.raises(ApiError) as err:
            _check_install_fields({"name": "x", **bad})
        assert err.value.code == 50035
    _check_install_fields({"name": "x", "integration_types": [0, 1], "contexts": None})


async def test_a_guild_channel_interaction_is_authorised_by_the_guild(fd, bot):
    result = await fd.user("alice").slash("whereami")
    assert result.text == "context 0, guild install True, user install False"
    assert bot.seen[-1][:3] == ("whereami", 0, {0: fd.guild.id})


async def test_the_bots_dm_is_authorised_by_the_guild_install_as_0_and_by_the_user_once_installed(fd, bot):
    alice = fd.user("alice")
    alice.open_dm()
    result = await alice.slash("whereami", channel="dm")
    assert result.ephemeral and result.text == "context 1, guild install False, user install False"
    assert bot.seen[-1] == ("whereami", 1, {0: 0}, "DMChannel")
    alice.install_app()
    result = await alice.slash("whereami", channel="dm")
    assert result.text == "context 1, guild install False, user install True"
    assert bot.seen[-1][2] == {0: 0, 1: alice.id}


async def test_a_group_dm_needs_the_users_install_and_comes_as_a_private_channel(fd, bot):
    alice, bob = fd.user("alice"), fd.user("bob")
    group = fd.group_dm(["alice", "bob"], name="friends")
    with pytest.raises(FakeDiscordError, match="installed the app"):
        await alice.slash("whereami", channel=group)
    alice.install_app()
    result = await alice.slash("whereami", channel=group)
    assert result.ephemeral and result.text == "context 2, guild install False, user install True"
    assert bot.seen[-1] == (
        "whereami",
        2,
        {1: alice.id},
        "GroupChannel",
    )
    assert alice.can_see(result.message) and not bob.can_see(result.message)
    with pytest.raises(FakeDiscordError, match="not in the group DM"):
        await fd.user("carol").slash("whereami", channel=group)
    # a command of the guild install only is not offered in a group DM, nor one without that context
    with pytest.raises(FakeDiscordError, match="not offered here"):
        await alice.slash("secret", channel=group)
    # the bot is no recipient: it cannot read or post in the group DM
    with pytest.raises(discord.Forbidden):
        await bot.http.send_message(group.id, params=discord.http.handle_message_parameters(content="hi"))


async def test_a_server_without_the_bot_reaches_it_only_through_a_users_install(fd, bot):
    alice = fd.user("alice")
    other = fd.add_guild("Elsewhere", channels=("lounge",), bot=False)
    lounge = fd.channel("lounge")
    assert bot.get_guild(other.id) is None  # no GUILD_CREATE: the bot did not join it
    with pytest.raises(FakeDiscordError, match="installed the app"):
        await alice.slash("whereami", channel=lounge)
    with pytest.raises(FakeDiscordError, match="installed the app"):
        await alice.slash("secret", channel=lounge)  # a guild-install command: not there at all
    alice.install_app()
    result = await alice.slash("whereami", channel=lounge)
    assert result.ephemeral and result.text == "context 0, guild install False, user install True"
    assert bot.seen[-1][:3] == ("whereami", 0, {1: alice.id})
    with pytest.raises(discord.Forbidden):  # its channels and the server itself stay closed to the bot
        await bot.http.send_message(lounge.id, params=discord.http.handle_message_parameters(content="hi"))
    with pytest.raises((discord.Forbidden, discord.NotFound)):  # as for a server that does not exist
        await bot.fetch_guild(other.id)
