"""The lobby through the host: races between lobby operations, the host's powers, and `/game new`
checks that must all pass before anything (a thread, a lobby row) is made."""

from __future__ import annotations

import asyncio
import contextlib

import pytest

from bot.host import Host, NullDelivery, UserError
from tests import hosting
from tests.hosting import ALICE, BOB, CAROL, CHANNEL


@pytest.fixture
async def host(storage):
    h = Host(storage, NullDelivery(), ai_delay=0.0)
    yield h
    await h.close()


async def open_lobby(host: Host, game_key: str = "enemy-lines"):
    """Alice's lobby of ``game_key``, nobody else seated yet."""
    options = {"quick-setup": True} if game_key == "enemy-lines" else {}
    return await hosting.open_lobby(host, game_key, others=(), options=options, seed=3)


async def race(host: Host, game_id: int, *ops):
    """Run ``ops`` so that each has passed whatever it checks before taking the game's lock, and then
    gets the lock in the order given: the worst interleaving of two clicks, made deterministic.
    Returns each op's result or exception."""
    real = host.tables.lock
    waiting: list[int] = []

    @contextlib.asynccontextmanager
    async def counting(gid):
        waiting.append(gid)
        async with real(gid):
            yield

    host.tables.lock = counting
    try:
        async with real(game_id):
            tasks = []
            for op in ops:
                tasks.append(asyncio.create_task(op()))
                for _ in range(500):
                    if waiting.count(game_id) >= len(tasks):
                        break
                    await asyncio.sleep(0.01)
                else:
                    raise AssertionError("an operation never reached the game's lock")
        return await asyncio.gather(*tasks, return_exceptions=True)
    finally:
        host.tables.lock = real


# ------------------------------------------------------------------ races (point 11)
async def test_start_racing_cancel_start_first_cancel_is_refused_and_the_game_runs(host):
    table = await open_lobby(host)
    await host.join(CHANNEL, BOB, "Bob")
    started, cancelled = await race(
        host, table.id, lambda: host.start(CHANNEL, ALICE), lambda: host.cancel(CHANNEL, ALICE)
    )
    assert not isinstance(started, Exception), started
    assert isinstance(cancelled, UserError) and "already started" in str(cancelled)
    row = await host.storage.get_game(table.id)
    assert row.status == "running"
    assert ("lobby_closed", table.id, "The lobby was cancelled.") not in host.delivery.calls


async def test_start_racing_cancel_cancel_first_start_is_told_the_lobby_was_cancelled(host):
    table = await open_lobby(host)
    await host.join(CHANNEL, BOB, "Bob")
    cancelled, started = await race(
        host, table.id, lambda: host.cancel(CHANNEL, ALICE), lambda: host.start(CHANNEL, ALICE)
    )
    assert not isinstance(cancelled, Exception), cancelled
    assert isinstance(started, UserError) and "lobby was cancelled" in str(started)
    row = await host.storage.get_game(table.id)
    assert row.status == "abandoned" and row.state_json is None
    assert not [c for c in host.delivery.calls if c[0] == "publish"]


@pytest.mark.parametrize("op", ["leave", "add_ai", "join", "kick"])
async def test_lobby_operation_racing_start_gets_a_clear_reply_not_an_error(host, op):
    table = await open_lobby(host)
    await host.join(CHANNEL, BOB, "Bob")
    calls = {
        "leave": lambda: host.leave(CHANNEL, BOB),
        "add_ai": lambda: host.add_ai(CHANNEL, ALICE),
        "join": lambda: host.join(CHANNEL, CAROL, "Carol"),
        "kick": lambda: host.kick(CHANNEL, ALICE, player_id=BOB),
    }
    started, loser = await race(host, table.id, lambda: host.start(CHANNEL, ALICE), calls[op])
    assert not isinstance(started, Exception), started
    assert isinstance(loser, UserError), repr(loser)
    assert "already started" in str(loser)
    after = await host.table(table.id)
    assert after.row.status == "running" and [s.user_id for s in after.seats] == [ALICE, BOB]


@pytest.mark.parametrize("op", ["leave", "add_ai", "join", "start", "kick"])
async def test_lobby_operation_racing_cancel_is_told_the_lobby_was_cancelled(host, op):
    table = await open_lobby(host)
    await host.join(CHANNEL, BOB, "Bob")
    calls = {
        "leave": lambda: host.leave(CHANNEL, BOB),
        "add_ai": lambda: host.add_ai(CHANNEL, ALICE),
        "join": lambda: host.join(CHANNEL, CAROL, "Carol"),
        "start": lambda: host.start(CHANNEL, ALICE),
        "kick": lambda: host.kick(CHANNEL, ALICE, player_id=BOB),
    }
    cancelled, loser = await race(host, table.id, lambda: host.cancel(CHANNEL, ALICE), calls[op])
    assert not isinstance(cancelled, Exception), cancelled
    assert isinstance(loser, UserError) and "lobby was cancelled" in str(loser), repr(loser)
    after = await host.table(table.id)
    assert after.row.status == "abandoned" and [s.user_id for s in after.seats] == [ALICE, BOB]


async def test_abandon_racing_abandon_closes_the_game_once(host):
    table = await open_lobby(host)
    await host.join(CHANNEL, BOB, "Bob")
    await host.start(CHANNEL, ALICE)
    first, second = await race(
        host,
        table.id,
        lambda: host.abandon(CHANNEL, ALICE, is_admin=False),
        lambda: host.abandon(CHANNEL, BOB, is_admin=True),
    )
    assert not isinstance(first, Exception), first
    assert isinstance(second, UserError) and "already abandoned" in str(second), repr(second)
    assert len([c for c in host.delivery.calls if c[0] == "ended"]) == 1


# ------------------------------------------------------------ the host's powers (point 19)
async def test_only_the_host_adds_ai_seats(host):
    table = await open_lobby(host, "everrain")
    await host.join(CHANNEL, BOB, "Bob")
    with pytest.raises(UserError, match="Only the host"):
        await host.add_ai(CHANNEL, BOB)
    with pytest.raises(UserError, match="Only the host"):
        await host.add_ai(CHANNEL, CAROL)
    assert [s.is_ai for s in (await host.table(table.id)).seats] == [False, False]
    table = await host.add_ai(CHANNEL, ALICE)
    assert [s.is_ai for s in table.seats] == [False, False, True]


async def test_the_host_removes_an_ai_seat_and_a_player_and_others_may_not(host):
    table = await open_lobby(host, "everrain")
    await host.join(CHANNEL, BOB, "Bob")
    await host.join(CHANNEL, CAROL, "Carol")
    table = await host.add_ai(CHANNEL, ALICE)
    ai_name = table.seats[-1].name
    with pytest.raises(UserError, match="Only the host"):
        await host.kick(CHANNEL, BOB, ai_name=ai_name)
    with pytest.raises(UserError, match="Only the host"):
        await host.kick(CHANNEL, BOB, player_id=CAROL)
    assert len((await host.table(table.id)).seats) == 4
    assert ai_name == "Nelson (AI, normal)"
    table, removed = await host.kick(CHANNEL, ALICE, ai_name="nelson")  # its name without the tail will do
    assert removed == ai_name and [s.user_id for s in table.seats] == [ALICE, BOB, CAROL]
    table, removed = await host.kick(CHANNEL, ALICE, player_id=BOB)
    assert removed == "Bob" and [s.user_id for s in table.seats] == [ALICE, CAROL]
    assert ("lobby", table.id, "Bob was removed by the host.") in host.delivery.calls
    with pytest.raises(UserError, match="not in this lobby"):
        await host.kick(CHANNEL, ALICE, player_id=BOB)
    with pytest.raises(UserError, match="no AI seat"):
        await host.kick(CHANNEL, ALICE, ai_name="Nobody")
    with pytest.raises(UserError, match="yourself"):
        await host.kick(CHANNEL, ALICE, player_id=ALICE)
    with pytest.raises(UserError, match="Name"):
        await host.kick(CHANNEL, ALICE)
    assert [s.user_id for s in (await host.table(table.id)).seats] == [ALICE, CAROL]


async def test_kick_after_the_start_is_refused(host):
    table = await open_lobby(host)
    await host.join(CHANNEL, BOB, "Bob")
    await host.start(CHANNEL, ALICE)
    with pytest.raises(UserError, match="already started"):
        await host.kick(CHANNEL, ALICE, player_id=BOB)
    assert [s.user_id for s in (await host.table(table.id)).seats] == [ALICE, BOB]


# --------------------------------------------------- /game new: check first (points 14, 16)
async def test_check_new_refuses_bad_options_timeout_and_busy_channel_before_anything_is_made(host):
    with pytest.raises(UserError, match="unknown game"):
        await host.check_new(channel_id=CHANNEL, game_key="chess")
    with pytest.raises(UserError, match="no option"):
        await host.check_new(channel_id=CHANNEL, game_key="enemy-lines", options={"colour": "green"})
    with pytest.raises(UserError, match="negative"):
        await host.check_new(channel_id=CHANNEL, game_key="enemy-lines", turn_timeout=-5)
    assert await host.storage.list_games(None) == []
    spec, options = await host.check_new(
        channel_id=CHANNEL, game_key="enemy-lines", options={"quick-setup": True}
    )
    assert spec.key == "enemy-lines" and options["quick-setup"] is True
    await open_lobby(host)
    with pytest.raises(UserError, match="already has a game"):
        await host.check_new(channel_id=CHANNEL, game_key="enemy-lines")
    # A game in a new thread does not need this channel to be free.
    await host.check_new(channel_id=CHANNEL, game_key="enemy-lines", thread=True)


class LobbyPostFails(NullDelivery):
    async def lobby(self, table, note=""):
        raise RuntimeError("Discord said no")


async def test_a_lobby_that_cannot_be_posted_leaves_no_open_lobby(storage):
    host = Host(storage, LobbyPostFails(), ai_delay=0.0)
    with pytest.raises(UserError, match="could not post the lobby") as refused:
        await open_lobby(host)
    assert "no game was opened" in str(refused.value)
    assert await storage.active_game(CHANNEL) is None
    await host.close()
    # The channel is free: a new /game new works once Discord takes the post.
    host = Host(storage, NullDelivery(), ai_delay=0.0)
    table = await open_lobby(host)
    assert table.row.status == "lobby"
    await host.close()
