"""`Host.idle()` waits for AI moves in flight: one being applied and published, and the AI moves it
schedules in turn (tests call it before they read the game)."""

from __future__ import annotations

import asyncio

import pytest

from bot.host import Host, NullDelivery
from bot.storage import Storage
from tests.bot.test_round_trips import enemy_lines
from tests.hosting import start_game


@pytest.fixture
async def storage(tmp_path):
    s = await Storage.open(tmp_path / "idle.db")
    yield s
    await s.close()


class GatedDelivery(NullDelivery):
    """Holds the publish of the first AI move until ``gate`` is set."""

    def __init__(self) -> None:
        super().__init__()
        self.gate = asyncio.Event()
        self.held = asyncio.Event()

    async def publish(self, table, events, note="", actors=(), vias=(), successor=None):
        if any(table.seat_row(seat).is_ai for seat in actors) and not self.gate.is_set():
            self.held.set()
            await self.gate.wait()
        await super().publish(table, events, note, actors, vias)


async def test_idle_returns_while_an_ai_move_is_in_flight_and_before_the_ai_moves_it_schedules(storage):
    delivery = GatedDelivery()
    host = Host(storage, delivery, ai_delay=0.0)
    table = await start_game(host, "everrain", seed=11)
    # Alice's seat, the first to take the helm, goes to the AI: each of its orders schedules the next,
    # until Bob's turn. (Not both seats: a game with no human player left is paused, not played out.)
    (first,) = table.game.to_act()
    await storage.update_seat(table.id, first, is_ai=True)
    host.scheduler.after_change(await host.table(table.id))
    await asyncio.wait_for(delivery.held.wait(), 10)  # the first AI move is committed, its publish held
    idle = asyncio.create_task(host.idle())
    await asyncio.sleep(0.1)
    assert not idle.done(), "idle() returned while an AI move was being published"
    delivery.gate.set()
    await asyncio.wait_for(idle, 120)
    table = await host.table(table.id)
    assert table.human_to_act() or table.over, "idle() returned before the AI seat's moves were made"
    assert table.version >= 2, "the AI seat's first move scheduled more of its own"
    published = [c for c in delivery.calls if c[0] == "publish"]
    assert published[-1][2] == table.version, "the last AI move was published before idle() returned"
    await host.close()


async def test_the_scheduler_loop_ends_when_its_storage_is_closed(storage):
    """A host nobody closed (a test, a crash in start-up) must not keep its scheduler polling a closed
    database: the loop ends by itself, so the event loop can shut down (it hung a test run once)."""
    host = Host(storage, NullDelivery(), ai_delay=0.0, job_poll=0.05)
    await start_game(host, options={"quick-setup": True}, seed=11)
    loop = host.scheduler._loop
    assert loop is not None and not loop.done(), "the scheduler runs once a game has started"
    await storage.close()
    await asyncio.wait_for(asyncio.shield(loop), 10)
    assert loop.done() and not loop.cancelled() and loop.exception() is None


async def test_idle_waits_for_the_look_the_scheduler_was_woken_for(storage):
    """A wake-up (a move, a job armed) makes the loop look at its jobs table; idle() returns only once
    that look is done and the loop waits again, so that it never falls after idle() (in what a test
    measures next: tests/bot/test_round_trips.py counted it in the next move's window now and then)."""
    host = Host(storage, NullDelivery(), ai_delay=0.0, job_poll=600.0, job_sweep=3600.0)
    await enemy_lines(host)
    await host.idle()
    looking, gate, looks = asyncio.Event(), asyncio.Event(), []
    next_job_at = storage.next_job_at

    async def slow_look():
        looking.set()
        await gate.wait()
        looks.append(await next_job_at())
        return looks[-1]

    storage.next_job_at = slow_look
    try:
        host.scheduler.wake()
        idle = asyncio.create_task(host.idle())
        await asyncio.wait_for(looking.wait(), 10)
        await asyncio.sleep(0.05)
        assert not idle.done(), "idle() returned while the scheduler was looking at its jobs"
        gate.set()
        await asyncio.wait_for(idle, 10)
        assert looks == [None], "idle() returned before the look it waited for was done"
    finally:
        del storage.next_job_at
        await host.close()
