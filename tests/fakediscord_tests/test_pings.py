"""Mentions that notify: fd.pings lists (user_id, message_id, channel_id, time) for every created bot
message whose content or v2 text displays mention a user that allowed_mentions lets through."""

from __future__ import annotations

import discord

from tests.fakediscord import FakeDiscord, Ping, running_bot
from tests.fakediscord.models import SEND_MESSAGES, VIEW_CHANNEL


async def post(fd, body, channel="general"):
    ch = fd.channel(channel).id
    status, _, data = await fd.bot_request("POST", f"/channels/{ch}/messages", json_body=body)
    assert status == 200, data
    return fd.message(int(data["id"]))


async def test_mentions_ping_as_allowed_mentions_allow():
    now = [50.0]
    async with FakeDiscord(users=["alice", "bob", "carol"], clock=lambda: now[0]) as fd:
        alice, bob, carol = (fd.user(n).user.id for n in ("alice", "bob", "carol"))
        m1 = await post(fd, {"content": f"<@{alice}> your turn"})  # no allowed_mentions: users parse
        assert fd.pings == [Ping(alice, m1.id, m1.channel_id, 50.0)]
        await post(fd, {"content": f"<@{alice}> quiet", "allowed_mentions": {"parse": []}})
        await post(fd, {"content": f"<@{alice}>", "allowed_mentions": {}})
        now[0] = 51.0
        m2 = await post(
            fd,
            {"content": f"<@!{alice}> and <@{bob}> and <@{bob}>", "allowed_mentions": {"users": [str(bob)]}},
        )
        m3 = await post(fd, {"content": f"<@{carol}>", "allowed_mentions": {"parse": ["users"]}})
        assert fd.pings[1:] == [
            Ping(bob, m2.id, m2.channel_id, 51.0),
            Ping(carol, m3.id, m3.channel_id, 51.0),
        ]
        assert [p.message_id for p in fd.pings_for("bob")] == [m2.id]


async def test_v2_text_displays_ping_edits_silent_and_hidden_do_not():
    async with FakeDiscord(users=["alice", "bob"]) as fd:
        alice, bob = fd.user("alice").user.id, fd.user("bob").user.id
        m = await post(
            fd,
            {
                "flags": 1 << 15,
                "components": [
                    {"type": 17, "components": [{"type": 10, "content": f"Your turn, <@{alice}>"}]}
                ],
            },
        )
        assert [(p.user_id, p.message_id) for p in fd.pings] == [(alice, m.id)]
        ch = fd.channel("general").id
        status, _, _ = await fd.bot_request(
            "PATCH",
            f"/channels/{ch}/messages/{m.id}",
            json_body={"components": [{"type": 10, "content": f"Now <@{bob}>"}]},
        )
        assert status == 200 and len(fd.pings) == 1  # an edit notifies nobody
        await post(fd, {"content": f"<@{bob}> (silent)", "flags": 1 << 12})
        fd.set_overwrite("games", bob, deny=VIEW_CHANNEL | SEND_MESSAGES)
        await post(fd, {"content": f"<@{bob}> cannot see this"}, channel="games")
        await post(fd, {"content": f"<@{fd.bot_user.id}> talking to myself"})
        await fd.user("alice").say("general", f"<@{bob}> from a member")  # only bot messages are tracked
        assert len(fd.pings) == 1


async def test_interaction_replies_and_followups_ping_ephemerals_do_not(fd, bot):
    alice = fd.user("alice")
    app = fd.application_id
    rec = fd._new_interaction(
        alice.user, fd.channel("general"), 2, {"id": "1", "name": "x", "type": 1}, command_name="x"
    )
    bob = fd.user("bob").user.id
    await fd.bot_request(
        "POST",
        f"/interactions/{rec.id}/{rec.token}/callback",
        auth=False,
        json_body={"type": 4, "data": {"content": f"<@{bob}> public"}},
    )
    await fd.bot_request(
        "POST",
        f"/webhooks/{app}/{rec.token}",
        auth=False,
        json_body={"content": f"<@{bob}> hidden", "flags": 64},
    )
    await fd.bot_request(
        "POST", f"/webhooks/{app}/{rec.token}", auth=False, json_body={"content": f"<@{bob}> follow-up"}
    )
    assert [fd.message(p.message_id).content for p in fd.pings] == [f"<@{bob}> public", f"<@{bob}> follow-up"]


async def test_a_discord_py_bot_pings_only_whom_it_allows():
    async with FakeDiscord(users=["alice", "bob"]) as fd:
        client = discord.Client(
            intents=discord.Intents.default(), allowed_mentions=discord.AllowedMentions.none()
        )
        async with running_bot(client, fd):
            channel = client.get_channel(fd.channel("games").id)
            alice = discord.Object(fd.user("alice").user.id)
            bob_id = fd.user("bob").user.id
            await channel.send(f"<@{alice.id}> <@{bob_id}> board updated")  # client default: nobody
            msg = await channel.send(
                f"<@{alice.id}> it is your turn (<@{bob_id}> waits)",
                allowed_mentions=discord.AllowedMentions(users=[alice]),
            )
            assert [(p.user_id, p.message_id) for p in fd.pings] == [(alice.id, msg.id)]
