"""Games, seats, statuses, messages, meta and deadlines on a real database (SQLite and PostgreSQL)."""

from __future__ import annotations

import asyncio
import time

import pytest

from bot.storage import ChannelBusy, NoSuchGame, NoSuchSeat, WrongStatus


async def _game(store, channel_id=10, guild_id=1, **kw):
    return await store.create_game(
        guild_id=guild_id,
        channel_id=channel_id,
        game_key="enemy-lines",
        options={"quick-setup": True},
        seed=1234,
        host_id=77,
        **kw,
    )


async def test_create_get_active_list(store):
    before = time.time()
    gid = await _game(store, turn_timeout=300)
    row = await store.get_game(gid)
    assert (row.id, row.guild_id, row.channel_id, row.thread_id) == (gid, 1, 10, None)
    assert (row.game_key, row.options, row.seed, row.host_id) == (
        "enemy-lines",
        {"quick-setup": True},
        1234,
        77,
    )
    assert (row.status, row.version, row.state_json, row.state, row.result) == ("lobby", 0, None, None, None)
    assert (row.deadline, row.reminded, row.turn_timeout) == (None, False, 300)
    assert before <= row.created_at == row.updated_at <= time.time()
    assert row.place == 10 and row.active
    assert await store.get_game(gid + 1) is None

    assert (await store.active_game(10)).id == gid
    assert await store.active_game(11) is None

    other = await _game(store, channel_id=11)
    elsewhere = await _game(store, channel_id=12, guild_id=2)
    assert [g.id for g in await store.list_games(1)] == [gid, other]
    assert [g.id for g in await store.list_games(2)] == [elsewhere]
    assert await store.list_games(3) == []

    await store.start_game(other, '{"s": 1}')
    await store.set_status(gid, "abandoned")
    assert [g.id for g in await store.list_games(1)] == [other]
    assert [g.id for g in await store.list_games(1, statuses=("abandoned",))] == [gid]
    assert [g.id for g in await store.running_games()] == [other]
    assert await store.active_game(10) is None


async def test_one_active_game_per_channel(store):
    first = await _game(store)
    with pytest.raises(ChannelBusy) as err:
        await _game(store)
    assert err.value.game_id == first and err.value.place == 10
    assert [g.id for g in await store.list_games(1)] == [first]  # nothing written

    await store.start_game(first, "{}")
    with pytest.raises(ChannelBusy):
        await _game(store)
    await store.set_status(first, "finished", result={"winners": [0]})
    second = await _game(store)  # a finished game no longer holds the channel
    assert (await store.active_game(10)).id == second


async def test_the_database_itself_refuses_two_active_games_in_a_channel(store, integrity_error):
    await _game(store)

    async def sneak(db):  # bypass the check in create_game: the partial unique index must hold
        await db.execute(
            "INSERT INTO games (channel_id, game_key, seed, created_at, updated_at) VALUES (10, 'x', 1, 0, 0)"
        )

    with pytest.raises(integrity_error):
        await store._write(sneak)


async def test_game_in_a_thread_frees_its_channel(store):
    gid = await _game(store)
    await store.set_thread(gid, 9001)
    row = await store.get_game(gid)
    assert (row.channel_id, row.thread_id, row.place) == (10, 9001, 9001)
    assert (await store.active_game(9001)).id == gid
    assert await store.active_game(10) is None
    other = await _game(store)  # the channel itself is free again
    with pytest.raises(ChannelBusy):
        await store.set_thread(other, 9001)
    with pytest.raises(ChannelBusy):
        await _game(store, thread_id=9001)
    assert (await store.active_game(10)).id == other


async def test_seats_add_remove_renumber(store):
    gid = await _game(store)
    numbers = [await store.add_seat(gid, user_id=100 + i, is_ai=False, name=f"P{i}") for i in range(3)]
    numbers.append(await store.add_seat(gid, user_id=None, is_ai=True, name="AI", dm_ok=None))
    assert numbers == [0, 1, 2, 3]

    await store.remove_seat(gid, 1)
    seats = await store.seats(gid)
    assert [(s.seat, s.name, s.user_id, s.is_ai) for s in seats] == [
        (0, "P0", 100, False),
        (1, "P2", 102, False),
        (2, "AI", None, True),
    ]
    await store.remove_seat(gid, 2)
    await store.remove_seat(gid, 0)
    assert [(s.seat, s.name) for s in await store.seats(gid)] == [(0, "P2")]
    with pytest.raises(NoSuchSeat):
        await store.remove_seat(gid, 5)
    assert await store.add_seat(gid, user_id=7, is_ai=False, name="late", dm_ok=True) == 1

    await store.start_game(gid, "{}")
    with pytest.raises(WrongStatus):
        await store.add_seat(gid, user_id=8, is_ai=False, name="too late")
    with pytest.raises(WrongStatus):
        await store.remove_seat(gid, 0)
    assert len(await store.seats(gid)) == 2
    with pytest.raises(NoSuchGame):
        await store.add_seat(999, user_id=1, is_ai=False, name="x")


async def test_update_seat_fields_round_trip(store):
    gid = await _game(store)
    await store.add_seat(gid, user_id=5, is_ai=False, name="Ann")
    seat = (await store.seats(gid))[0]
    assert (seat.dm_ok, seat.missed) == (None, 0)
    await store.update_seat(gid, 0, dm_ok=False, missed=2)
    seat = (await store.seats(gid))[0]
    assert (seat.dm_ok, seat.missed) == (False, 2)
    await store.update_seat(gid, 0, dm_ok=True)
    assert (await store.seats(gid))[0].dm_ok is True
    await store.update_seat(gid, 0, is_ai=True, name="Ann (AI)", missed=0, dm_ok=None)
    seat = (await store.seats(gid))[0]
    assert (seat.user_id, seat.is_ai, seat.name, seat.dm_ok, seat.missed) == (5, True, "Ann (AI)", None, 0)
    with pytest.raises(TypeError):
        await store.update_seat(gid, 0, seat=3)
    with pytest.raises(NoSuchSeat):
        await store.update_seat(gid, 4, missed=1)


async def test_status_transitions(store):
    gid = await _game(store)
    with pytest.raises(WrongStatus):
        await store.set_status(gid, "running")  # only start_game starts a game
    await store.start_game(gid, '{"a": 1}', deadline=123.5, seed=99)
    row = await store.get_game(gid)
    assert (row.status, row.version, row.state, row.seed, row.deadline) == ("running", 0, {"a": 1}, 99, 123.5)
    with pytest.raises(WrongStatus):
        await store.start_game(gid, "{}")
    await store.set_status(gid, "finished", result={"scores": {"0": 3}, "winners": [0]})
    row = await store.get_game(gid)
    assert (row.status, row.deadline, row.result) == ("finished", None, {"scores": {"0": 3}, "winners": [0]})
    await store.set_status(gid, "finished")  # same status: the result is kept
    assert (await store.get_game(gid)).result == {"scores": {"0": 3}, "winners": [0]}
    for status in ("running", "lobby", "abandoned"):
        with pytest.raises(WrongStatus):
            await store.set_status(gid, status)
    with pytest.raises(ValueError):
        await store.set_status(gid, "paused")
    with pytest.raises(NoSuchGame):
        await store.set_status(12345, "abandoned")


async def test_deadlines_round_trip(store):
    gid = await _game(store, turn_timeout=60)
    await store.start_game(gid, "{}", deadline=1000.25)
    row = await store.get_game(gid)
    assert (row.deadline, row.reminded, row.turn_timeout) == (1000.25, False, 60)

    assert await store.mark_reminded(gid, deadline=999.0) is False  # not the current deadline
    assert (await store.get_game(gid)).reminded is False
    assert await store.mark_reminded(gid, deadline=1000.25) is True
    assert (await store.get_game(gid)).reminded is True

    await store.set_deadline(gid, 2000.5)
    row = await store.get_game(gid)
    assert (row.deadline, row.reminded) == (2000.5, False)
    await store.set_deadline(gid, 3000.0, reminded=True)
    assert (await store.get_game(gid)).reminded is True
    await store.set_deadline(gid, None)
    assert (await store.get_game(gid)).deadline is None
    assert await store.mark_reminded(gid) is True
    with pytest.raises(NoSuchGame):
        await store.set_deadline(4242, 1.0)
    with pytest.raises(NoSuchGame):
        await store.mark_reminded(4242)


async def test_deadlines_survive_reopening(db_path):
    from bot.storage import Storage

    store = await Storage.open(db_path)
    gid = await _game(store)
    await store.start_game(gid, "{}", deadline=1_795_000_000.125)
    await store.mark_reminded(gid)
    await store.close()
    store = await Storage.open(db_path)
    try:
        row = (await store.running_games())[0]
        assert (row.id, row.deadline, row.reminded) == (gid, 1_795_000_000.125, True)
    finally:
        await store.close()


async def test_messages_round_trip(store):
    gid = await _game(store)
    big = 1_234_567_890_123_456_789  # snowflakes need 64 bits
    assert await store.get_message(gid, "board") is None
    await store.set_message(gid, "board", 10, big)
    await store.set_message(gid, "dm:1", 555, 666)
    assert await store.get_message(gid, "board") == (10, big)
    await store.set_message(gid, "board", 10, big + 1)  # re-posted board replaces the old one
    assert await store.get_message(gid, "board") == (10, big + 1)
    assert await store.messages(gid) == {"board": (10, big + 1), "dm:1": (555, 666)}
    await store.delete_message(gid, "board")
    assert await store.get_message(gid, "board") is None
    await store.delete_message(gid, "board")  # deleting twice is harmless
    assert await store.messages(gid) == {"dm:1": (555, 666)}


async def test_meta_round_trip(store):
    assert await store.get_meta("commands-hash") is None
    await store.set_meta("commands-hash", "abc")
    await store.set_meta("commands-hash", "def")
    assert await store.get_meta("commands-hash") == "def"


async def test_swap_meta_sets_only_from_the_value_it_was_given(store):
    assert await store.swap_meta("undo:1", None, "a") is True  # absent → a
    assert await store.swap_meta("undo:1", None, "b") is False  # not absent any more
    assert await store.get_meta("undo:1") == "a"
    assert await store.swap_meta("undo:1", "x", "b") is False  # holds a, not x
    assert await store.get_meta("undo:1") == "a"
    assert await store.swap_meta("undo:1", "a", "b") is True
    assert await store.get_meta("undo:1") == "b"
    assert await store.swap_meta("undo:1", "a", None) is False  # a stale delete leaves b
    assert await store.get_meta("undo:1") == "b"
    assert await store.swap_meta("undo:1", "b", None) is True
    assert await store.get_meta("undo:1") is None
    assert await store.swap_meta("undo:1", None, None) is True
    await store.set_meta("undo:1", "c")
    assert await store.swap_meta("undo:1", None, None) is False


async def test_swap_meta_of_two_writers_at_once_lets_one_win(store):
    await store.set_meta("undo:2", "[]")
    wins = await asyncio.gather(
        store.swap_meta("undo:2", "[]", "[1]"), store.swap_meta("undo:2", "[]", "[2]")
    )
    assert sorted(wins) == [False, True]
    assert await store.get_meta("undo:2") == ("[1]" if wins[0] else "[2]")
