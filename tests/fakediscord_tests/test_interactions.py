"""Slash commands, autocomplete, buttons, selects, DynamicItems, ephemerals, deferrals, modals, DMs,
files, threads and message edits: the sample discord.py bot against the fake."""

import asyncio

import aiohttp
import pytest

from tests.fakediscord import FakeDiscordError
from tests.fakediscord_tests.conftest import UPLOAD


async def test_slash_command_with_options_reaches_bot_and_reply_arrives(fd, bot):
    result = await fd.user("alice").slash("game new", game="enemy-lines", players=3)
    assert ("new", "alice", "enemy-lines", 3) in bot.seen
    assert result.response_type == 4 and not result.failed
    msg = result.message
    assert msg.content == "New enemy-lines for 3 players"
    assert msg.channel_id == fd.channel("general").id and not msg.ephemeral
    assert [b.label for b in msg.buttons] == ["Fire", "Secret"]
    assert msg.selects[0].values == ["a1", "b2", "c3"] and msg.selects[0].placeholder == "Pick a square"
    assert fd.channel_messages("general") == [msg]
    # option payload was built from the registered definition: default applies when omitted
    result = await fd.user("bob").slash("game new", game="warships", channel="games")
    assert ("new", "bob", "warships", 2) in bot.seen
    assert result.message.channel_id == fd.channel("games").id


async def test_slash_refuses_what_discord_clients_refuse(fd, bot):
    alice = fd.user("alice")
    with pytest.raises(FakeDiscordError, match="no slash command"):
        await alice.slash("nosuch")
    with pytest.raises(FakeDiscordError, match="required"):
        await alice.slash("game new")
    with pytest.raises(FakeDiscordError, match="out of range"):
        await alice.slash("game new", game="warships", players=9)
    with pytest.raises(FakeDiscordError, match="no option"):
        await alice.slash("game new", game="warships", colour="red")


async def test_guild_command_with_member_option(fd, bot):
    result = await fd.user("alice").slash("fleet", rival=fd.user("bob"), size=4)
    assert result.message.content == "alice vs bob size 4"


async def test_autocomplete_returns_bot_choices(fd, bot):
    alice = fd.user("alice")
    choices = await alice.autocomplete("game new", "game", "enemy")
    assert [c["value"] for c in choices] == ["enemy-lines", "enemy-in-sight"]
    assert await alice.autocomplete("move", "action", "C") == [
        {"name": "C1", "value": "C1"},
        {"name": "C2", "value": "C2"},
        {"name": "C3", "value": "C3"},
    ]
    with pytest.raises(FakeDiscordError, match="no autocomplete"):
        await alice.autocomplete("game new", "players", "2", game="warships")


async def test_button_click_dispatches_to_view_and_edit_arrives(fd, bot):
    alice = fd.user("alice")
    game = await alice.slash("game new", game="warships")
    result = await alice.click(game.message, "Fire")
    assert ("fire", "alice") in bot.seen
    assert result.response_type == 7 and result.updated
    msg = game.message
    assert msg.content == "alice fired"
    assert [b.label for b in msg.buttons] == ["Fired", "Secret"]
    assert msg.edits[0]["content"] == "New warships for 2 players"
    # the same custom_id still works (click by custom_id now that the label changed)
    await fd.user("bob").click(msg, "game:fire")
    assert msg.content == "bob fired" and len(msg.edits) == 2


async def test_select_dispatches_values(fd, bot):
    game = await fd.user("carol").slash("game new", game="everrain")
    result = await fd.user("carol").select(game.message, ["b2"])
    assert ("pick", "carol", ["b2"]) in bot.seen
    assert result.message.content == "carol picked b2"
    with pytest.raises(FakeDiscordError, match="not options"):
        await fd.user("carol").select(game.message, ["z9"])


async def test_ephemeral_reply_visible_only_to_the_clicker(fd, bot):
    alice, bob = fd.user("alice"), fd.user("bob")
    game = await alice.slash("game new", game="warships")
    secret = await alice.click(game.message, "Secret")
    assert secret.ephemeral and secret.message.ephemeral_for == alice.id
    assert secret.message in alice.visible("general")
    assert secret.message not in bob.visible("general")
    assert secret.message not in fd.channel_messages("general")
    with pytest.raises(FakeDiscordError, match="cannot see"):
        await bob.click(secret.message, "Peek")
    # the owner can use the ephemeral's own view
    peek = await alice.click(secret.message, "Peek")
    assert peek.response_type == 7 and secret.message.content == "peeked" and secret.message.buttons == []
    assert ("peek", "alice") in bot.seen
    # ephemeral messages do not exist for the bot's channel routes
    ch = fd.channel("general").id
    status, _, body = await fd.bot_request("GET", f"/channels/{ch}/messages/{secret.message.id}")
    assert status == 404 and body["code"] == 10008


async def test_ephemeral_slash_reply(fd, bot):
    result = await fd.user("bob").slash("secret")
    assert result.ephemeral and result.message.content == "shh"
    assert fd.user("alice").visible("general") == []


async def test_dynamic_item_deferred_update_then_edit_original(fd, bot):
    alice, bob = fd.user("alice"), fd.user("bob")
    posted = await alice.slash("board")
    assert posted.ephemeral and posted.message.content == "posted"
    board = fd.channel_messages("general")[-1]
    assert [b.custom_id for b in board.buttons] == ["tile:0:0", "tile:1:0", "tile:2:0"]
    result = await bob.click(board, "2,0")
    assert ("tile", "bob", 2, 0) in bot.seen
    assert result.response_type == 6 and result.updated
    assert board.content == "bob hit 2,0" and result.original is board


async def test_deferred_thinking_then_followups(fd, bot):
    result = await fd.user("alice").slash("think")
    assert result.response_type == 5
    # the first follow-up replaces the "thinking" message; the second is a new message
    await result.wait_for(lambda r: len(r.messages) == 2)
    first, second = result.messages
    assert first is result.original and not first.loading and first.content == "thought about it"
    assert second.content == "and one more thing"
    assert [m.content for m in fd.channel_messages("general")] == ["thought about it", "and one more thing"]


async def test_deferred_ephemeral_then_edit_original(fd, bot):
    result = await fd.user("alice").slash("rethink")
    assert result.response_type == 5 and not result.pending
    assert result.message.ephemeral and result.message.content == "edited original"
    assert result.message.edits[0]["flags"] & 128  # it was a loading message


async def test_message_edit_keeps_history(fd, bot):
    result = await fd.user("alice").slash("post")
    assert result.message.content == "done" and result.ephemeral
    posted = fd.channel_messages("general")
    assert [m.content for m in posted] == ["final"]
    assert [e["content"] for e in posted[0].edits] == ["draft"]
    assert posted[0].author_id == fd.bot_user.id


async def test_dm_is_sent_and_its_buttons_work_only_for_the_recipient(fd, bot):
    alice, bob = fd.user("alice"), fd.user("bob")
    result = await alice.slash("dm")
    assert result.message.content == "check your DMs"
    dms = alice.dms()
    assert [m.content for m in dms] == ["hello in private"]
    assert bob.dms() == []
    with pytest.raises(FakeDiscordError, match="cannot see"):
        await bob.click(dms[0], "Peek")
    peek = await alice.click(dms[0], "Peek")  # a DM interaction (user, no member)
    assert peek.response_type == 7 and dms[0].content == "peeked"


async def test_file_upload_bytes_intact(fd, bot):
    result = await fd.user("alice").slash("upload")
    assert result.text == "uploaded"
    msg = fd.channel_messages("general")[-1]
    att = msg.attachment("board.png")
    assert att.data == UPLOAD and att.size == len(UPLOAD) and att.content_type == "image/png"
    async with aiohttp.ClientSession() as session, session.get(att.url) as resp:
        assert await resp.read() == UPLOAD


async def test_file_in_interaction_reply(fd, bot):
    result = await fd.user("alice").slash("reply_file")
    assert result.message.content == "here"
    assert result.message.attachments[0].filename == "r.bin"
    assert result.message.attachments[0].data == UPLOAD


async def test_private_thread_created_and_member_added(fd, bot):
    result = await fd.user("alice").slash("thread")
    thread_id = int(result.message.content.split()[1])
    thread = fd.channels[thread_id]
    assert thread.type == 12 and thread.parent_id == fd.channel("general").id
    assert fd.user("alice").id in thread.thread_members
    [welcome] = fd.channel_messages(thread)
    assert welcome.content == "welcome to the match"
    assert fd.user("alice").can_see(welcome) and not fd.user("bob").can_see(welcome)
    assert bot.get_channel(thread_id) is not None  # THREAD_CREATE reached discord.py's cache


async def test_modal_opened_and_submitted(fd, bot):
    alice = fd.user("alice")
    shown = await alice.slash("form")
    assert shown.response_type == 9 and shown.modal["title"] == "Name your fleet"
    submitted = await alice.submit_modal(shown, {"fleet": "Red Squadron"})
    assert ("modal", "alice", "Red Squadron") in bot.seen
    assert submitted.message.content == "Fleet Red Squadron ready" and submitted.ephemeral


async def test_bot_can_fetch_and_delete_its_messages(fd, bot):
    game = await fd.user("alice").slash("game new", game="warships")
    channel = bot.get_channel(fd.channel("general").id)
    fetched = await channel.fetch_message(game.message.id)
    assert fetched.content == game.message.content
    assert [c.custom_id for row in fetched.components for c in row.children][:2] == [
        "game:fire",
        "game:secret",
    ]
    history = [m.id async for m in channel.history(limit=10)]
    assert history == [game.message.id]
    await fetched.delete()
    assert game.message.deleted and fd.channel_messages("general") == []
    with pytest.raises(FakeDiscordError):
        await fd.user("alice").click(game.message, "Fire")


async def test_slash_inside_a_thread(fd, bot):
    result = await fd.user("alice").slash("thread")
    thread = fd.channels[int(result.message.content.split()[1])]
    inside = await fd.user("alice").slash("secret", channel=thread)
    assert inside.message.channel_id == thread.id and inside.message.content == "shh"
    with pytest.raises(FakeDiscordError, match="cannot see"):
        await fd.user("bob").slash("secret", channel=thread)


async def test_two_members_click_the_same_button_at_once(fd, bot):
    game = await fd.user("alice").slash("game new", game="warships")
    a, b = await asyncio.gather(
        fd.user("alice").click(game.message, "Fire"), fd.user("bob").click(game.message, "Fire")
    )
    assert a.response_type == b.response_type == 7
    assert sorted(s[1] for s in bot.seen if s[0] == "fire") == ["alice", "bob"]
    assert len(game.message.edits) == 2 and game.message.content in ("alice fired", "bob fired")
