"""Faults on demand: 429 storms handled transparently by discord.py, 5xx retried, 50007, 50013 and 10003."""

import discord
import pytest

from tests.fakediscord_tests.conftest import UPLOAD


async def test_route_429_handled_transparently(fd, bot):
    fd.faults.rate_limit("POST /channels/", times=2, retry_after=0.05)
    result = await fd.user("alice").slash("post")
    assert result.text == "done"
    assert [m.content for m in fd.channel_messages("general")] == ["final"]
    assert fd.faults.count("rate_limit") == 2
    assert bot.errors == []
    statuses = [s for k, s in fd.requests if k.startswith("POST /channels/")]
    assert statuses == [429, 429, 200]


async def test_global_429_carries_headers_and_is_waited_out(fd, bot):
    rule = fd.faults.rate_limit("PATCH /channels/", times=1, retry_after=0.05, is_global=True)
    result = await fd.user("alice").slash("post")
    assert result.text == "done" and rule.hits == 1
    assert fd.channel_messages("general")[-1].content == "final"
    fd.faults.rate_limit("GET /users/@me", times=1, retry_after=0.05, is_global=True)
    status, headers, body = await fd.bot_request("GET", "/users/@me")
    assert status == 429 and body["global"] is True and body["retry_after"] == 0.05
    assert headers["X-RateLimit-Global"] == "true" and headers["X-RateLimit-Scope"] == "global"
    assert headers["Retry-After"] == "1" and headers["X-RateLimit-Remaining"] == "0"


async def test_429_on_interaction_callback_and_webhooks(fd, bot):
    fd.faults.rate_limit("/callback", times=1, retry_after=0.05)
    fd.faults.rate_limit("POST /webhooks/", times=1, retry_after=0.05)
    result = await fd.user("alice").slash("think")
    await result.wait_for(lambda r: len(r.messages) == 2)
    assert [m.content for m in result.messages] == ["thought about it", "and one more thing"]
    assert fd.faults.count("rate_limit") == 2 and bot.errors == []


async def test_server_error_retried_by_discord_py(fd, bot):
    fd.faults.server_error("POST /channels/", times=1)
    result = await fd.user("alice").slash("post")
    assert result.text == "done"
    assert [m.content for m in fd.channel_messages("general")] == ["final"]
    assert fd.faults.count("server_error") == 1


async def test_closed_dms_raise_forbidden_50007(fd, bot):
    bob = fd.user("bob")
    fd.block_dms(bob)
    result = await bob.slash("dm")
    assert result.ephemeral and result.message.content == "your DMs are closed"
    [exc] = bot.errors
    assert isinstance(exc, discord.Forbidden) and exc.code == 50007 and exc.status == 403
    assert bob.dms() == []
    fd.unblock_dms(bob)
    result = await bob.slash("dm")
    assert [m.content for m in bob.dms()] == ["hello in private"]


async def test_denied_attach_files_gives_50013_and_bot_cache_knows(fd, bot):
    fd.deny_attach("general")
    channel = bot.get_channel(fd.channel("general").id)
    await fd.wait_for(lambda: not channel.permissions_for(channel.guild.me).attach_files, 5)
    assert channel.permissions_for(channel.guild.me).send_messages
    result = await fd.user("alice").slash("upload")
    assert result.text == "could not upload"
    [exc] = bot.errors
    assert isinstance(exc, discord.Forbidden) and exc.code == 50013
    assert fd.channel_messages("general") == []
    # other channels are unaffected
    result = await fd.user("alice").slash("upload", channel="games")
    assert result.text == "uploaded"
    assert fd.channel_messages("games")[-1].attachments[0].data == UPLOAD


async def test_deleted_channel_gives_10003_and_bot_cache_forgets_it(fd, bot):
    games = fd.channel("games")
    channel = bot.get_channel(games.id)
    assert channel is not None
    before = await channel.send("before")
    fd.remove_channel("games")
    await fd.wait_for(lambda: bot.get_channel(games.id) is None, 5)
    for call in (
        lambda: channel.send("after"),
        lambda: before.edit(content="edited"),
        lambda: bot.get_partial_messageable(games.id).send("partial"),
    ):
        with pytest.raises(discord.NotFound) as info:
            await call()
        assert info.value.code == 10003
    assert [m.content for m in fd.channel_messages(games)] == ["before"]
    # other channels are unaffected
    assert (await bot.get_channel(fd.channel("general").id).send("still here")).content == "still here"


async def test_interaction_webhooks_of_a_deleted_channel_give_10003(fd, bot):
    """A follow-up, or an edit of the answer, through the token of an interaction whose channel was
    deleted since is refused with 404 10003 Unknown Channel, as the channel routes are."""
    result = await fd.user("alice").slash("think")
    await result.wait_for(lambda r: len(r.messages) == 2)
    token = result.interaction.token
    fd.remove_channel("general")
    for method, path, body in (
        ("POST", f"/webhooks/{fd.application_id}/{token}", {"content": "late"}),
        ("PATCH", f"/webhooks/{fd.application_id}/{token}/messages/@original", {"content": "edited"}),
    ):
        status, _, answer = await fd.bot_request(method, path, json_body=body, auth=False)
        assert status == 404 and answer["code"] == 10003, (method, status, answer)
