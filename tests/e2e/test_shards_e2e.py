"""Two bot processes on one PostgreSQL database, each running one shard of two, against the sharded
loopback Discord: a game in a guild of each shard, DM clicks (which Discord sends to shard 0's process
only, whatever guild the game is in), a restart of both; every game is played to its end.

In one test process: two unmodified Admiralty bots (``ADMIRALTY_SHARDS=0/2`` and ``1/2``), each with its
own discord.py client, gateway session, caches, host and storage connection pool, as two processes have.
One SQLite file cannot serve two processes (one writer), so this runs on PostgreSQL only."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import random

import pytest

from bot.app import Admiralty
from bot.delivery.stored import Stored, dm_digest
from bot.settings import Settings
from tests.e2e.conftest import Driver
from tests.fakediscord import FakeDiscord, running_bot

pytestmark = pytest.mark.postgres

RESTART_NOTE = "Admiralty restarted"


def sharded(url: str, shard: int) -> Admiralty:
    return Admiralty(
        Settings(
            token="fake",
            database=url,
            dev_guild=None,
            turn_timeout=0,
            ai_delay=0.0,
            log_level="INFO",
            shard_ids=(shard,),
            shard_count=2,
        )
    )


@contextlib.asynccontextmanager
async def two_processes(fd, url):
    a, b = sharded(url, 0), sharded(url, 1)
    async with running_bot(a, fd, ready_timeout=30), running_bot(b, fd, ready_timeout=30):
        yield a, b


async def open_everrain(d: Driver, who: str) -> int:
    """``who`` opens a short Everrain with an AI crewmate and starts it; -> the game id."""
    await d.new_game(who, game="everrain", length="short")
    await d.add_ai(who)
    started = await d.member(who).click(d.lobby_message(), "Start")
    assert not started.failed
    return (await d.table()).id


async def play(
    d: Driver, bots, who: str, rng: random.Random, *, by_dm: bool, moves: int | None = None
) -> int:
    """Play ``who``'s turns (the AI's choice for them) until the game ends, or ``moves`` of them: by
    clicks on the table in its channel, or with ``by_dm`` every other move by clicks in their DMs.
    -> the moves made."""
    member = d.member(who)
    made = 0
    for _ in range(2000):
        if moves is not None and made >= moves:
            break
        await asyncio.gather(*(bot.host.idle() for bot in bots))
        table = await d.table()
        if table.game.is_over:
            break
        if not table.human_to_act():
            await asyncio.sleep(0.02)  # an AI seat moves in whichever process made the move before it
            continue
        seat = table.human_to_act()[0]
        before = table.version
        if by_dm and made % 2 == 0:
            _, result = await d.play_by_dm(member, seat, rng)
        else:
            _, _, result = await d.play_ai_move(rng)
        if result is None:  # an AI seat ended the game meanwhile
            continue
        assert "✅ Played" in result.text, result.text
        assert (await d.table()).version > before
        made += 1
    return made


async def test_two_shard_processes_play_a_game_in_each_shards_guild_and_by_dm_to_the_end(pg_url):
    async with FakeDiscord(users=["alice", "bob"], shards=2, deferred_update_wait=10.0) as fd:
        other = fd.add_guild("Other", shard=1, channels=["other-games"])
        games, other_games = fd.channel("games"), fd.channel("other-games")
        async with two_processes(fd, pg_url) as (a, b):
            # each process sees only the guild of its shard
            assert [g.id for g in a.guilds] == [fd.guild.id] and [g.id for g in b.guilds] == [other.id]
            assert a.get_channel(other_games.id) is None and b.get_channel(games.id) is None
            d0, d1 = Driver(fd, a, games), Driver(fd, b, other_games)
            g0 = await open_everrain(d0, "alice")  # shard 0's guild: process A
            g1 = await open_everrain(d1, "bob")  # shard 1's guild: process B
            rng = random.Random(12)
            assert await play(d0, (a, b), "alice", rng, by_dm=False, moves=2) == 2
            # Bob plays from his DMs: the clicks reach process A only, which acts on a game of B's shard
            # and shows it in a channel it has no cache of (REST by channel id)
            dm_before = len([i for i in fd.interactions.values() if i.guild_id is None])
            assert await play(d1, (a, b), "bob", rng, by_dm=True, moves=3) == 3
            await d1.settle()
            dm_clicks = [i for i in fd.interactions.values() if i.guild_id is None][dm_before:]
            assert dm_clicks, "some moves were made in DMs"
        # both processes stop; new ones start: each resumes (and announces) the game of its own shard only
        async with two_processes(fd, pg_url) as (a, b):
            assert [r.id for r in a.games_to_resume()] == [g0]
            assert [r.id for r in b.games_to_resume()] == [g1]
            d0.bot, d1.bot = a, b
            for gid in (g0, g1):  # the resume notes (written after on_ready)
                for _ in range(300):
                    if any(RESTART_NOTE in t for t in await a.storage.recent_log(gid, 200)):
                        break
                    await asyncio.sleep(0.05)
            bots = (a, b)
            await play(d0, bots, "alice", rng, by_dm=True)
            await play(d1, bots, "bob", rng, by_dm=True)
            assert (await d0.table()).game.is_over and (await d1.table()).game.is_over
            assert await d0.game_over_announced() and await d1.game_over_announced()
            for gid in (g0, g1):
                notes = [t for t in await a.storage.recent_log(gid, 500) if RESTART_NOTE in t]
                assert len(notes) == 1, f"game {gid} resumed by one process, once: {notes}"
        # every click reached a process, the one of its shard (DMs: shard 0), and none failed
        assert not fd.undelivered
        assert not [i for i in fd.interactions.values() if i.failed]
        shard_of = fd.gateway.shard_of_session
        want = {None: (0, 2), fd.guild.id: (0, 2), other.id: (1, 2)}
        for i in fd.interactions.values():
            assert i.delivered_to and {shard_of[s] for s in i.delivered_to} == {want[i.guild_id]}, i.guild_id
        assert len([i for i in fd.interactions.values() if i.guild_id is None]) > 5
        # every message was deleted once: no delete found it gone already (another process had)
        twice = [
            (route, status) for route, status in fd.requests if route.startswith("DELETE ") and status == 404
        ]
        assert not twice, f"{len(twice)} deletes of messages already deleted: {twice[:5]}"


async def bobs_turn(fd, a, b):
    """Bob opens a short Everrain in shard 1's guild (process B); -> (driver, Bob, the table) once it
    is his turn and his DM carries his controls."""
    d1 = Driver(fd, b, fd.channel("other-games"))
    await open_everrain(d1, "bob")
    bob = d1.member("bob")
    for _ in range(600):  # the AI crewmate may move first
        await asyncio.gather(a.host.idle(), b.host.idle())
        table = await d1.table()
        if table.human_to_act():
            break
        await asyncio.sleep(0.02)
    await d1.settle()
    seat, version = table.human_to_act()[0], table.version
    await fd.wait_for(lambda: d1.dm_controls(bob, version, seat) is not None, timeout=15)
    return d1, bob, table


def turn_played(table, seat: int):
    """``table`` with ``seat``'s turn played on a copy of its game (nothing is committed)."""
    game = table.spec.from_json(table.game.to_json())
    rng = random.Random(3)
    while seat in game.to_act() and not game.is_over:
        game.apply(seat, game.ai_action(seat, rng))
    return dataclasses.replace(table, game=game)


async def test_a_dm_another_process_changed_is_not_taken_as_unchanged(pg_url):
    """What a seat's DM shows is recorded in the database, not in the memory of the process that wrote
    it: process A wrote Bob's controls, process B then took them off (an edit in place), and A's next
    publish, with the same menu as A last showed, still puts the controls back."""
    async with FakeDiscord(users=["alice", "bob"], shards=2, deferred_update_wait=10.0) as fd:
        fd.add_guild("Other", shard=1, channels=["other-games"])
        async with two_processes(fd, pg_url) as (a, b):
            d1, bob, table = await bobs_turn(fd, a, b)
            seat, version = table.human_to_act()[0], table.version
            await a.delivery.dms.update(table, seat, [], in_place=True)  # A shows Bob his controls
            # B shows a state where Bob is not asked (his turn played, on a copy: nothing is committed)
            await b.delivery.dms.update(turn_played(table, seat), seat, [], in_place=True)
            assert d1.dm_controls(bob, version, seat) is None, "B took the controls off"
            # A publishes the real table again (not Bob's move, nothing private): his controls come back
            await a.delivery.dms.update(table, seat, [])
            assert d1.dm_controls(bob, version, seat) is not None


async def test_a_dm_drawn_by_two_processes_at_once_is_recorded_as_the_one_drawn_last(pg_url):
    """Two processes publish one game at once (a DM click in A, an AI move in B): each read what Bob's
    DM shows before either drew it. A draws his controls, then B draws its (stale) view over them; what
    the DM shows must then be recorded as B's drawing, not A's: recorded as A's, every later publish
    took the DM for up to date and it kept neither controls nor button (the two-shard game above
    stopped on a 15 s wait for them now and then)."""
    async with FakeDiscord(users=["alice", "bob"], shards=2, deferred_update_wait=10.0) as fd:
        fd.add_guild("Other", shard=1, channels=["other-games"])
        async with two_processes(fd, pg_url) as (a, b):
            d1, bob, table = await bobs_turn(fd, a, b)
            seat, version = table.human_to_act()[0], table.version
            not_asked = turn_played(table, seat)  # a state where Bob is not asked
            await b.delivery.dms.update(not_asked, seat, [], in_place=True)
            assert d1.dm_controls(bob, version, seat) is None
            # both publishes read the game's messages, then A draws his controls, then B its view
            seen_by_a = await Stored.read(a.storage, table.id)
            seen_by_b = await Stored.read(b.storage, table.id)
            await a.delivery.dms.update(table, seat, [], messages=seen_by_a)
            assert d1.dm_controls(bob, version, seat) is not None
            await b.delivery.dms.update(not_asked, seat, [], in_place=True, messages=seen_by_b)
            await seen_by_b.flush()
            await seen_by_a.flush()  # (A's publish ends last)
            assert d1.dm_controls(bob, version, seat) is None, "B drew last"
            # the next publish of the real table shows Bob his controls again
            await a.delivery.dms.update(table, seat, [])
            assert d1.dm_controls(bob, version, seat) is not None, "the DM was taken as showing them"


@pytest.mark.parametrize("a_is_behind", [False, True], ids=["same-version", "a-behind"])
async def test_a_dm_whose_older_drawing_lands_last_is_drawn_again(pg_url, a_is_behind):
    """Two processes draw Bob's DM at once, each recording its drawing before it edits: A records a view
    where he is not asked, then B records his controls and draws them; A's edit, in flight all along,
    reaches Discord last. The DM shows A's drawing while B's is recorded, and every later publish took
    the DM for up to date (the two-shard game above stopped on a 15 s wait for Bob's controls about 1
    run in 44). A reads the record again after its edit, finds B's, and draws the DM again: what the DM
    shows is what is recorded, and the next publish of the real table puts his controls back. When A's
    drawing is of a version older than the game's (``a_is_behind``), A does not draw it again over the
    newer one: it drops the record, and its next publish (the newer version, Publisher._catch_up) draws
    the DM."""
    async with FakeDiscord(users=["alice", "bob"], shards=2, deferred_update_wait=10.0) as fd:
        fd.add_guild("Other", shard=1, channels=["other-games"])
        async with two_processes(fd, pg_url) as (a, b):
            assert a.delivery.dms.shared and b.delivery.dms.shared  # other processes draw the same DMs
            d1, bob, table = await bobs_turn(fd, a, b)
            seat, version = table.human_to_act()[0], table.version
            not_asked = turn_played(table, seat)  # a state where Bob is not asked
            if a_is_behind:
                not_asked = dataclasses.replace(
                    not_asked, row=dataclasses.replace(table.row, version=table.version - 1)
                )

            # A's first edit of Bob's DM is held in flight until B has drawn it
            in_flight, b_drew = asyncio.Event(), asyncio.Event()
            edit = a.delivery.dms.transport.edit
            edits_by_a = 0

            async def late_edit(*args, **kwargs):
                nonlocal edits_by_a
                edits_by_a += 1
                if not b_drew.is_set():
                    in_flight.set()
                    await b_drew.wait()
                return await edit(*args, **kwargs)

            a.delivery.dms.transport.edit = late_edit  # type: ignore[method-assign]
            drawing = asyncio.create_task(a.delivery.dms.update(not_asked, seat, [], in_place=True))
            await asyncio.wait_for(in_flight.wait(), 15)
            assert await Stored(a.storage, table.id).dm_shown(seat) == dm_digest(False, "")  # A recorded
            await b.delivery.dms.update(table, seat, [], in_place=True)  # B records and draws the controls
            assert d1.dm_controls(bob, version, seat) is not None
            b_drew.set()  # A's edit lands last, with its older drawing
            assert await asyncio.wait_for(drawing, 15) is False
            assert d1.dm_controls(bob, version, seat) is None  # A's drawing landed last
            recorded = await Stored(a.storage, table.id).dm_shown(seat)
            if a_is_behind:
                assert edits_by_a == 1, "A drew its older version once only"
                assert recorded is None, "what the DM shows is not known: the next publish draws it"
            else:
                assert edits_by_a == 2, "A drew the DM again once it found B's drawing recorded"
                assert recorded == dm_digest(False, ""), "what the DM shows is what is recorded"
            # the next publish of the real table shows Bob his controls again
            await a.delivery.dms.update(table, seat, [])
            assert d1.dm_controls(bob, version, seat) is not None, "the DM was taken as showing them"
