"""Login, READY/GUILD_CREATE, command registration, REST basics, gateway resume/reconnect."""

import asyncio
import subprocess
import sys

import discord
import pytest

from tests.fakediscord import FakeDiscord, running_bot
from tests.fakediscord_tests.conftest import ROOT
from tests.fakediscord_tests.sample_bot import make_bot


async def test_bot_logs_in_and_sees_the_guild(fd, bot):
    assert bot.user.id == fd.bot_user.id
    assert bot.application_id == fd.application_id
    guild = bot.get_guild(fd.guild.id)
    assert guild is not None and guild.name == "Fake Guild"
    assert {c.name for c in guild.text_channels} == {"general", "games"}
    assert guild.member_count == 5  # bot, owner, alice, bob, carol
    # without the members intent Discord sends only the bot's own member
    assert guild.get_member(fd.user("alice").id) is None
    me = guild.me
    assert me is not None and me.id == fd.bot_user.id
    perms = guild.get_channel(fd.channel("general").id).permissions_for(me)
    assert perms.send_messages and perms.attach_files and perms.embed_links


async def test_commands_registered_by_bulk_overwrite(fd, bot):
    global_names = {c["name"] for c in fd.commands(guild=False)}
    assert {"game", "move", "think", "dm", "upload"} <= global_names
    assert "fleet" not in global_names
    assert [c["name"] for c in fd.commands(guild=True)] == ["fleet"]
    game = next(c for c in fd.global_commands if c["name"] == "game")
    new = game["options"][0]
    assert new["type"] == 1 and new["name"] == "new"
    assert {o["name"]: o["type"] for o in new["options"]} == {"game": 3, "players": 4}
    # discord.py can read them back
    fetched = await bot.tree.fetch_commands()
    assert {c.name for c in fetched} == global_names


async def test_re_sync_keeps_command_ids(fd, bot):
    before = {c["name"]: c["id"] for c in fd.global_commands}
    await bot.tree.sync()
    assert {c["name"]: c["id"] for c in fd.global_commands} == before


async def test_rest_json_has_exact_content_type_and_discord_error_shape(fd):
    status, headers, body = await fd.bot_request("GET", "/users/@me")
    assert status == 200 and headers["Content-Type"] == "application/json"
    assert body["id"] == str(fd.bot_user.id) and body["bot"] is True
    ch = fd.channel("general").id
    status, _, body = await fd.bot_request("GET", f"/channels/{ch}/messages/123456789012345678")
    assert status == 404 and body == {"code": 10008, "message": "Unknown Message"}
    status, _, body = await fd.bot_request("GET", "/users/@me", auth=False)
    assert status == 401
    status, _, body = await fd.bot_request("GET", "/gateway/bot")
    assert body["url"] == fd.gateway_url and body["shards"] == 1


async def test_unserved_route_is_recorded(fd):
    status, _, _ = await fd.bot_request("GET", "/guilds/1/audit-logs")
    assert status == 404
    assert fd.unhandled == ["GET /guilds/1/audit-logs"]


async def test_bad_token_style_is_refused_at_login(fd):
    b = make_bot(fd.guild.id)
    with pytest.raises(discord.LoginFailure):
        async with running_bot(b, fd, token=""):
            pass


async def test_discord_addresses_restored_after_run(fd):
    real_base = discord.http.Route.BASE
    real_gw = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    b = make_bot(fd.guild.id)
    async with running_bot(b, fd):
        assert discord.http.Route.BASE == fd.api_base
    assert discord.http.Route.BASE == real_base
    assert discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY == real_gw
    assert b.is_closed()


async def test_gateway_drop_resumes_and_replays_missed_interactions(fd, bot):
    alice = fd.user("alice")
    game = await alice.slash("game new", game="warships")
    # drop the socket and click while the bot is away: the INTERACTION_CREATE is replayed on RESUME
    await fd.drop_gateway(wait=False)
    clicked = await alice.click(game.message, "Fire")
    assert clicked.response_type == 7 and clicked.message.content == "alice fired"
    assert fd.gateway.resumes == 1 and fd.gateway.identifies == 1
    await fd.wait_for(lambda: bot.resumed_count == 1, 5)
    # and the next click still works on the resumed session
    picked = await alice.select(game.message, ["c3"])
    assert picked.message.content == "alice picked c3"
    assert ("pick", "alice", ["c3"]) in bot.seen


async def test_op7_reconnect_resumes(fd, bot):
    await fd.request_reconnect()
    assert fd.gateway.resumes == 1
    result = await fd.user("bob").slash("secret")
    assert result.message.content == "shh"


async def test_invalid_session_reidentifies(fd, bot):
    await fd.invalidate_session()
    assert fd.gateway.identifies == 2
    await fd.wait_for(lambda: bot.is_ready(), 5)
    result = await fd.user("bob").slash("secret")
    assert result.message.content == "shh"


async def test_heartbeats_are_acked():
    async with FakeDiscord(heartbeat_interval=0.05) as fd:
        b = make_bot(fd.guild.id)
        async with running_bot(b, fd):
            await asyncio.sleep(0.3)
            assert b.latency < 1.0  # finite: heartbeats sent and acked
            assert fd.gateway.resumes == 0


def test_importable_from_a_plain_script():
    code = (
        "import sys; sys.path.insert(0, sys.argv[1]); "
        "from tests.fakediscord import FakeDiscord, running_bot; print(FakeDiscord.__name__)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, str(ROOT)], capture_output=True, text=True, cwd="/", timeout=60
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "FakeDiscord"


async def test_members_intent_gets_all_members_and_message_events(fd):
    intents = discord.Intents.default()
    intents.members = True
    b = make_bot(fd.guild.id, intents=intents)
    seen = []

    async def on_message(message):
        seen.append(message.content)

    b.add_listener(on_message)
    async with running_bot(b, fd):
        guild = b.get_guild(fd.guild.id)
        assert guild.get_member(fd.user("alice").id).name == "alice"
        assert guild.chunked
        await fd.user("alice").say("general", "hello bot")
        await fd.user("alice").say("general", f"<@{fd.bot_user.id}> hi")
        await fd.wait_for(lambda: len(seen) == 2, 5)
        # no message content intent: content only where the bot is mentioned
        assert seen == ["", f"<@{fd.bot_user.id}> hi"]
