"""Sharding in the loopback Discord, against real discord.py AutoShardedClient instances: IDENTIFY's
``shard``, GET /gateway/bot, READY and GUILD_CREATE per shard, guild events to the owning shard
``(guild_id >> 22) % shard_count``, DMs to shard 0, several processes (clients) at once, and interactions
no process takes."""

from __future__ import annotations

import asyncio
import contextlib
import json

import aiohttp
import discord
import pytest
from discord.ext import commands

from tests.fakediscord import FakeDiscord, running_bot
from tests.fakediscord.gateway import Session
from tests.fakediscord.models import PUBLIC_THREAD, Snowflakes, shard_of


class ShardClient(commands.AutoShardedBot):
    """A process running some shards: records what reached it; `/where` answers with its label."""

    def __init__(self, label: str, **options) -> None:
        super().__init__(command_prefix="!", intents=discord.Intents.default(), **options)
        self.label = label
        self.seen: list[tuple] = []

        @self.tree.command(name="where", description="which process answers")
        async def where(interaction: discord.Interaction) -> None:
            shard = interaction.guild.shard_id if interaction.guild is not None else None
            self.seen.append(("where", interaction.guild_id, shard))
            await interaction.response.send_message(f"{self.label} shard {shard}")

    async def setup_hook(self) -> None:
        await self.tree.sync()

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        return None  # discord.py waits 5 s between a process's shards (Discord's identify limit); not here

    async def on_message(self, message: discord.Message) -> None:
        self.seen.append(("message", message.guild.id if message.guild else None, message.channel.id))

    async def on_guild_channel_create(self, channel) -> None:
        self.seen.append(("channel_create", channel.guild.id, channel.id))

    async def on_thread_create(self, thread) -> None:
        self.seen.append(("thread_create", thread.guild.id, thread.id))

    async def on_guild_join(self, guild) -> None:
        self.seen.append(("guild_join", guild.id))


@pytest.fixture
async def fd2():
    """Two shards: the default guild "Fake Guild" (channels general, games) on shard 0, "Other" (channel
    other-games) on shard 1."""
    async with FakeDiscord(users=["alice", "bob"], shards=2, reply_timeout=5.0) as server:
        server.add_guild("Other", shard=1, channels=["other-games"])
        yield server


@contextlib.asynccontextmanager
async def two_processes(fd):
    a = ShardClient("A", shard_ids=[0], shard_count=2)
    b = ShardClient("B", shard_ids=[1], shard_count=2)
    async with running_bot(a, fd), running_bot(b, fd):
        yield a, b


def other_guild(fd):
    return next(g for g in fd.guilds.values() if g.name == "Other")


def test_snowflake_on_shard_lands_on_that_shard():
    snow = Snowflakes()
    ids = set()
    for count in (1, 2, 3, 8, 16):
        for sid in range(count):
            gid = snow.on_shard(sid, count)
            assert shard_of(gid, count) == sid and (gid >> 22) > 0
            ids.add(gid)
    assert len(ids) == 1 + 2 + 3 + 8 + 16  # all distinct
    with pytest.raises(ValueError):
        snow.on_shard(2, 2)


async def test_add_guild_puts_the_guild_on_the_shard_asked(fd2):
    assert shard_of(fd2.guild.id, 2) == 0
    assert shard_of(other_guild(fd2).id, 2) == 1
    g = fd2.add_guild("Third", shard=5, shard_count=8, channels=["third"])
    assert shard_of(g.id, 8) == 5 and fd2.guild_of("third") is g


async def test_gateway_bot_reports_the_shard_count_and_session_start_limit(fd2):
    status, _, body = await fd2.bot_request("GET", "/gateway/bot")
    assert status == 200 and body["url"] == fd2.gateway_url and body["shards"] == 2
    limit = body["session_start_limit"]
    assert limit["total"] >= limit["remaining"] > 0 and limit["max_concurrency"] == 1


async def test_client_without_shard_count_runs_the_shards_gateway_bot_recommends(fd2):
    client = ShardClient("all")
    async with running_bot(client, fd2):
        assert client.shard_count == 2 and sorted(client.shards) == [0, 1]
        assert fd2.gateway.shards() == {(0, 2): 1, (1, 2): 1}
        assert "GET /gateway/bot" in [k for k, _ in fd2.requests]
        # one process with every shard sees every guild, each on its own shard
        assert {g.id: g.shard_id for g in client.guilds} == {fd2.guild.id: 0, other_guild(fd2).id: 1}


async def test_ready_has_only_the_guilds_of_the_identified_shard(fd2):
    async with two_processes(fd2) as (a, b):
        assert [g.id for g in a.guilds] == [fd2.guild.id]
        assert [g.id for g in b.guilds] == [other_guild(fd2).id]
        assert a.get_channel(fd2.channel("other-games").id) is None
        assert b.get_channel(fd2.channel("games").id) is None
        assert fd2.gateway.shards() == {(0, 2): 1, (1, 2): 1}


async def test_guild_events_go_only_to_the_owning_shard(fd2):
    async with two_processes(fd2) as (a, b):
        other = other_guild(fd2)
        # a member's message (MESSAGE_CREATE)
        await fd2.user("alice").say("other-games", "hello")
        await fd2.user("bob").say("games", "hi")
        await fd2.wait_for(
            lambda: (
                ("message", other.id, fd2.channel("other-games").id) in b.seen
                and ("message", fd2.guild.id, fd2.channel("games").id) in a.seen
            )
        )
        # a new channel (CHANNEL_CREATE) and a thread (THREAD_CREATE)
        ch = fd2.add_channel("late", guild=other)
        status, _, th = await fd2.bot_request(
            "POST",
            f"/channels/{fd2.channel('games').id}/threads",
            json_body={"name": "t", "type": PUBLIC_THREAD},
        )
        assert status == 200
        await fd2.wait_for(
            lambda: (
                ("channel_create", other.id, ch.id) in b.seen
                and ("thread_create", fd2.guild.id, int(th["id"])) in a.seen
            )
        )
        # nothing of the other shard's guild reached either process
        assert all(e[1] != other.id for e in a.seen if e[0] != "where")
        assert all(e[1] != fd2.guild.id for e in b.seen if e[0] != "where")


async def test_a_new_guild_is_announced_to_its_shard_only(fd2):
    async with two_processes(fd2) as (a, b):
        g = fd2.add_guild("Joined", shard=1, channels=["joined"])
        await fd2.wait_for(lambda: ("guild_join", g.id) in b.seen)
        assert b.get_guild(g.id) is not None and b.get_guild(g.id).shard_id == 1
        assert a.get_guild(g.id) is None and ("guild_join", g.id) not in a.seen


async def test_interactions_go_to_the_process_of_the_guilds_shard(fd2):
    async with two_processes(fd2) as (a, b):
        alice = fd2.user("alice")
        r0 = await alice.slash("where", channel="games")
        r1 = await alice.slash("where", channel="other-games")
        assert r0.delivered and r0.text == "A shard 0"
        assert r1.delivered and r1.text == "B shard 1"
        assert [e for e in a.seen if e[0] == "where"] == [("where", fd2.guild.id, 0)]
        assert [e for e in b.seen if e[0] == "where"] == [("where", other_guild(fd2).id, 1)]


async def test_dm_events_go_to_shard_0_only(fd2):
    async with two_processes(fd2) as (a, b):
        alice = fd2.user("alice")
        status, _, _ = await fd2.bot_request(
            "POST", "/users/@me/channels", json_body={"recipient_id": str(alice.id)}
        )
        assert status == 200
        r = await alice.slash("where", channel="dm")
        assert r.delivered and r.text == "A shard None"
        assert ("where", None, None) in a.seen and not [e for e in b.seen if e[0] == "where"]
        assert len(r.interaction.delivered_to) == 1


async def test_interaction_on_a_shard_no_process_runs_is_not_delivered_and_fails(fd2):
    a = ShardClient("A", shard_ids=[0], shard_count=2)
    async with running_bot(a, fd2):
        r = await fd2.user("alice").slash("where", channel="other-games")
        assert not r.delivered and r.failed and r.response_type is None
        assert r.interaction in fd2.undelivered
        ok = await fd2.user("alice").slash("where", channel="games")
        assert ok.delivered and not ok.failed and ok.interaction not in fd2.undelivered


async def test_resume_keeps_the_sessions_shard(fd2):
    async with two_processes(fd2) as (a, b):
        await fd2.drop_gateway(wait=False)
        await fd2.wait_for(
            lambda: fd2.gateway.resumes >= 2 and fd2.gateway.shards() == {(0, 2): 1, (1, 2): 1}, timeout=20
        )
        r = await fd2.user("bob").slash("where", channel="other-games")
        assert r.text == "B shard 1"
        assert fd2.gateway.identifies == 2  # resumed, not identified again


async def _raw_identify(fd, shard) -> tuple[int | None, list[dict]]:
    """IDENTIFY over a bare websocket; -> (close code or None, the dispatches received in 1 s)."""
    frames: list[dict] = []
    async with aiohttp.ClientSession() as http, http.ws_connect(fd.gateway_url) as ws:
        await ws.receive_json()  # HELLO
        d = {"token": "fake", "intents": 0, "properties": {}}
        if shard is not None:
            d["shard"] = shard
        await ws.send_str(json.dumps({"op": 2, "d": d}))
        with contextlib.suppress(TimeoutError):
            while True:
                msg = await asyncio.wait_for(ws.receive(), 1.0)
                if msg.type == aiohttp.WSMsgType.TEXT:
                    frames.append(json.loads(msg.data))
                else:
                    break
        return ws.close_code, frames


async def test_identify_with_an_invalid_shard_is_closed_with_4010(fd2):
    for bad in ([2, 2], [-1, 2], [0, 0], "0/2", [0]):
        code, frames = await _raw_identify(fd2, bad)
        assert code == 4010 and not [f for f in frames if f.get("t") == "READY"]


async def test_identify_shard_field_sets_readys_shard_and_guild_creates(fd2):
    _, frames = await _raw_identify(fd2, [1, 2])
    ready = next(f["d"] for f in frames if f.get("t") == "READY")
    assert ready["shard"] == [1, 2]
    assert [g["id"] for g in ready["guilds"]] == [str(other_guild(fd2).id)]
    assert [f["d"]["id"] for f in frames if f.get("t") == "GUILD_CREATE"] == [str(other_guild(fd2).id)]
    _, frames = await _raw_identify(fd2, None)  # not sharded: every guild
    assert len([f for f in frames if f.get("t") == "GUILD_CREATE"]) == 2


def test_a_fresh_identify_replaces_old_sessions_of_the_same_shard_only():
    s0, s1, s0_again = Session(0, (0, 2)), Session(0, (1, 2)), Session(0, (0, 2))
    assert s0.overlaps(s0_again) and not s1.overlaps(s0_again)
    assert Session(0, (1, 4)).overlaps(s0_again)  # another shard count: a resharded bot
    assert Session(0, None).overlaps(s0_again) and s1.overlaps(Session(0, None))
    assert s0.owns(None) and not s1.owns(None)  # DMs: shard 0
