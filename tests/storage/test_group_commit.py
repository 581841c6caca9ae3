"""Fewer round trips: group commit of record_action, and load_table (a game and its seats in one query)."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest

from bot.storage import NoSuchGame, StaleVersion, Storage, WrongStatus
from tests.dbcount import RoundTrips


def spy_groups(store: Storage) -> list[int]:
    """Record the size of every group the store commits (one transaction each)."""
    sizes: list[int] = []
    commit = store._commit_group

    async def counted(makers):
        sizes.append(len(makers))
        return await commit(makers)

    store._commit_group = counted
    return sizes


def count_queries(store: Storage) -> list[str]:
    """The SQL of every read the store makes from now on (until ``del store._fetchall``)."""
    calls: list[str] = []
    fetchall = store._fetchall

    async def counted(sql, params=()):
        calls.append(sql)
        return await fetchall(sql, params)

    store._fetchall = counted
    return calls


def record(store: Storage, gid: int, expected: int, **kwargs):
    kwargs.setdefault("state_json", f'{{"at": {expected + 1}}}')
    return store.record_action(
        gid, expected_version=expected, seat=0, action={"type": "add", "n": expected + 1}, **kwargs
    )


async def test_group_commit_keeps_each_callers_version_check(store, new_running_game, raw_sql):
    gids = [(await new_running_game(store, channel_id=600 + g))[0] for g in range(10)]
    sizes = spy_groups(store)
    # 50 calls at once, 5 per game; in every odd game the third names a version the game is not at
    plan = [
        (gid, 99 if g % 2 and i == 2 else (i if not g % 2 or i < 2 else i - 1))
        for g, gid in enumerate(gids)
        for i in range(5)
    ]
    outcomes = await asyncio.gather(*(record(store, gid, v) for gid, v in plan), return_exceptions=True)

    assert len(outcomes) == 50
    assert max(sizes) > 1 and sum(sizes) == 50  # they did share transactions
    for (gid, expected), out in zip(plan, outcomes, strict=True):
        if expected == 99:
            assert isinstance(out, StaleVersion) and (out.game_id, out.expected, out.current) == (gid, 99, 2)
        else:
            assert out == expected + 1, (gid, expected, out)
    for g, gid in enumerate(gids):
        top = 4 if g % 2 else 5
        row = await store.get_game(gid)
        assert (row.version, row.state_json) == (top, f'{{"at": {top}}}')
        assert [a.seq for a in await store.actions(gid)] == list(range(1, top + 1))  # no gaps
    assert await store.integrity_check() == "ok"
    assert not store.in_transaction
    # a stale caller of a group is told so even when the group's other writes go to the same game
    stale, ok = await asyncio.gather(
        record(store, gids[0], 3), record(store, gids[0], 5), return_exceptions=True
    )
    assert isinstance(stale, StaleVersion) and ok == 6


async def test_group_commit_is_all_or_nothing_per_action(store, new_running_game, integrity_error):
    gids = [(await new_running_game(store, channel_id=700 + g))[0] for g in range(5)]
    await store.set_status(gids[4], "abandoned")
    before = {gid: await store.get_game(gid) for gid in gids}
    sizes = spy_groups(store)
    outcomes = await asyncio.gather(
        record(store, gids[0], 0, log=[(None, "one")]),
        record(store, gids[1], 0, state_json="{not json"),  # CHECK fails after its action row was written
        record(store, gids[2], 0, log=[(None, "ok"), (None, None)]),  # fails at its second log line
        record(store, gids[3], 0, status="finished", result={"winner": 0}),
        record(store, gids[4], 0),  # abandoned
        record(store, 10**9, 0),  # no such game
        return_exceptions=True,
    )
    assert sizes == [6]
    assert outcomes[0] == 1 and outcomes[3] == 1
    assert isinstance(outcomes[1], integrity_error) and isinstance(outcomes[2], integrity_error)
    assert isinstance(outcomes[4], WrongStatus) and isinstance(outcomes[5], NoSuchGame)
    for gid in (gids[1], gids[2], gids[4]):  # nothing of theirs: no action, no log line, the row untouched
        assert await store.get_game(gid) == before[gid]
        assert await store.actions(gid) == []
        assert await store.recent_log(gid) == []
    assert await store.recent_log(gids[0]) == ["one"]
    assert [a.seq for a in await store.actions(gids[0])] == [1]
    done = await store.get_game(gids[3])
    assert (done.status, done.version, done.result) == ("finished", 1, {"winner": 0})
    assert not store.in_transaction
    assert await store.integrity_check() == "ok"


async def test_load_table_reads_game_and_seats_in_one_round_trip(store, new_running_game, backend):
    gid, _ = await new_running_game(store, players=3)
    await store.update_seat(gid, 1, is_ai=True, name='Bot "ü" 🚢', dm_ok=False, missed=2, user_id=None)
    await store.update_seat(gid, 2, dm_ok=True, user_id=2**63 - 1)
    lobby = await store.create_game(
        guild_id=1, channel_id=900, game_key="x", options={}, seed=1, host_id=None
    )

    calls = count_queries(store)
    with RoundTrips(store) as trips:  # on SQLite, the real round trips: calls on aiosqlite's thread
        row, seats = await store.load_table(gid)
    assert len(calls) == 1 and trips.hand_offs == (1 if backend == "sqlite" else 0)
    del store._fetchall
    assert row == await store.get_game(gid)
    assert seats == await store.seats(gid)
    assert (
        [s.seat for s in seats] == [0, 1, 2]
        and seats[1].name == 'Bot "ü" 🚢'
        and seats[2].user_id == 2**63 - 1
    )
    assert (seats[1].is_ai, seats[1].dm_ok, seats[1].missed, seats[0].dm_ok) == (True, False, 2, None)
    assert await store.load_table(lobby) == (await store.get_game(lobby), [])
    assert await store.load_table(10**9) is None


async def test_record_action_is_one_round_trip_on_sqlite(store, new_running_game, backend):
    if backend != "sqlite":
        pytest.skip("a round trip to aiosqlite's thread is SQLite's")
    gid, _ = await new_running_game(store)
    with RoundTrips(store) as trips:
        assert await record(store, gid, 0, log=[(None, "a"), (1, "b")]) == 1
        assert trips.hand_offs == 1
        with pytest.raises(StaleVersion):
            await record(store, gid, 0)
        assert trips.hand_offs == 2
    assert (await store.get_game(gid)).version == 1


async def test_a_cancelled_caller_of_a_group_still_commits_whole(store, new_running_game):
    gid, _ = await new_running_game(store)
    other, _ = await new_running_game(store, channel_id=501)
    first = asyncio.ensure_future(record(store, gid, 0, log=[(None, "x")]))
    second = asyncio.ensure_future(record(store, other, 0))
    await asyncio.sleep(0)
    first.cancel()
    assert await second == 1
    with pytest.raises(asyncio.CancelledError):
        await first
    for _ in range(50):
        if (await store.get_game(gid)).version == 1:
            break
        await asyncio.sleep(0.01)
    assert (await store.get_game(gid)).version == 1
    assert await store.recent_log(gid) == ["x"]


async def test_save_messages_stores_and_forgets_several_in_one_transaction(
    store, new_running_game, backend, integrity_error
):
    gid, _ = await new_running_game(store)
    other, _ = await new_running_game(store, channel_id=501)
    await store.set_message(gid, "ping:1", 5, 50)
    with RoundTrips(store) as trips:  # on SQLite, the real round trips: calls on aiosqlite's thread
        await store.save_messages(gid, {"table": (5, 51), "dm:0": (6, 60), "ping:1": None, "ping:0": None})
        await store.save_messages(gid, {"table": (5, 52)})  # stored again: replaced
        await store.save_messages(gid, {})  # nothing to do
    if backend == "sqlite":
        assert trips.hand_offs == 2  # one each; nothing for no change
    assert await store.messages(gid) == {"table": (5, 52), "dm:0": (6, 60)}
    assert await store.messages(other) == {}
    # a broken constraint (no such game) fails the whole call and writes nothing of it
    with pytest.raises(integrity_error):
        await store.save_messages(10**9, {"table": (1, 2)})
    assert await store.messages(10**9) == {}
    # calls at once for several games share groups; each keeps its own
    await asyncio.gather(*(store.save_messages(g, {f"k{n}": (n, n)}) for n in range(5) for g in (gid, other)))
    assert await store.messages(other) == {f"k{n}": (n, n) for n in range(5)}
    assert not store.in_transaction


async def test_load_table_log_reads_game_seats_and_the_last_log_lines_in_one_query(
    store, new_running_game, backend
):
    gid, _ = await new_running_game(store, players=3)
    other, _ = await new_running_game(store, channel_id=501)
    await store.update_seat(gid, 1, is_ai=True, name='Bot "ü" 🚢')
    for n in range(10):
        await store.add_log(gid, f"line {n} 'quoted' \"ü\"")
        await store.add_log(gid, f"secret {n}", seat=0)
    await store.add_log(other, "elsewhere")
    calls = count_queries(store)
    row, seats, log = await store.load_table_log(gid, 6)
    assert len(calls) == 1
    del store._fetchall
    assert (row, seats) == await store.load_table(gid, moves=True)  # (the move number comes with it)
    assert log == await store.recent_log(gid, 6) == [f"line {n} 'quoted' \"ü\"" for n in range(4, 10)]
    assert (await store.load_table_log(gid, 0))[2] == []
    assert (await store.load_table_log(other, 6))[2] == ["elsewhere"]
    lobby = await store.create_game(
        guild_id=1, channel_id=900, game_key="x", options={}, seed=1, host_id=None
    )
    assert await store.load_table_log(lobby, 6) == (replace(await store.get_game(lobby), moves=0), [], [])
    assert await store.load_table_log(10**9, 6) is None


async def test_load_table_view_adds_the_games_messages_to_the_same_query(store, new_running_game):
    gid, _ = await new_running_game(store)
    other, _ = await new_running_game(store, channel_id=501)
    await store.add_log(gid, "hello")
    big = 2**63 - 1  # a snowflake or a 60-bit digest stays exact through the JSON
    await store.save_messages(gid, {"table": (5, big), "dmview:1": (1, 2**60 - 3), "ping:0": (5, 7)})
    await store.save_messages(other, {"table": (6, 8)})
    calls = count_queries(store)
    row, seats, log, messages = await store.load_table_view(gid, 6)
    assert len(calls) == 1
    del store._fetchall
    # and its followers' counts (bot/storage/follows.py), which only this read of the game brings
    assert (row.followers, row.move_followers) == (0, 0)
    assert (replace(row, followers=None, move_followers=None), seats, log) == await store.load_table_log(
        gid, 6
    )
    assert (
        messages
        == await store.messages(gid)
        == {"dmview:1": (1, 2**60 - 3), "ping:0": (5, 7), "table": (5, big)}
    )
    assert (await store.load_table_view(other, 6))[3] == {"table": (6, 8)}
    lobby = await store.create_game(
        guild_id=1, channel_id=900, game_key="x", options={}, seed=1, host_id=None
    )
    assert await store.load_table_view(lobby, 6) == (
        replace(await store.get_game(lobby), moves=0, followers=0, move_followers=0),
        [],
        [],
        {},
    )
    assert await store.load_table_view(10**9, 6) is None


async def test_a_stored_message_is_claimed_for_deleting_once(store, new_running_game, backend):
    """Two processes that both saw a ping stored both mean to delete it: the one whose claim forgets
    the row deletes it on Discord; the other's claim finds it gone (no second DELETE, no 404)."""
    gid, _ = await new_running_game(store)
    await store.set_message(gid, "ping:0", 5, 50)
    claims = await asyncio.gather(
        store.claim_message(gid, "ping:0", 50), store.claim_message(gid, "ping:0", 50)
    )
    assert sorted(claims) == [False, True]
    assert await store.messages(gid) == {}
    # a newer ping stored since: the claim of the older one forgets nothing
    await store.set_message(gid, "ping:0", 5, 51)
    assert await store.claim_message(gid, "ping:0", 50) is False
    assert await store.messages(gid) == {"ping:0": (5, 51)}
    # with the writes that wait (a DM's digest), in the same transaction
    with RoundTrips(store) as trips:
        assert await store.claim_message(gid, "ping:0", 51, {"dmview:0": (1, 7), "ping:0": None}) is True
    if backend == "sqlite":
        assert trips.hand_offs == 1
    assert await store.messages(gid) == {"dmview:0": (1, 7)}
