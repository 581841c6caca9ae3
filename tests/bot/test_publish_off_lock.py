"""Publishing holds no game lock: a move is committed under the lock, then the publisher (one task per
game) shows the newest stored version. Requests made while a publish is in flight coalesce into the
next one, and a version is never published after a newer one."""

from __future__ import annotations

import asyncio
import random

import pytest

from bot.host import Host, NullDelivery
from bot.storage import Storage
from tests.hosting import start_game


@pytest.fixture
async def storage(tmp_path):
    s = await Storage.open(tmp_path / "publish.db")
    yield s
    await s.close()


class HeldDelivery(NullDelivery):
    """Records every publish (version, the seats that acted, event texts); while ``hold`` is set, a publish waits
    for ``gate`` (``held`` says one is waiting)."""

    def __init__(self) -> None:
        super().__init__()
        self.hold = False
        self.gate = asyncio.Event()
        self.held = asyncio.Event()
        self.published: list[tuple[int, object, list]] = []
        self.jitter: random.Random | None = None

    async def publish(self, table, events, note="", actors=(), vias=(), successor=None):
        if self.hold and not self.gate.is_set():
            self.held.set()
            await self.gate.wait()
        if self.jitter is not None:
            await asyncio.sleep(self.jitter.random() * 0.01)
        self.published.append((table.version, actors, [e.get("text") for e in events]))
        await super().publish(table, events, note, actors, vias)


async def two_humans(host: Host):
    return await start_game(host, options={"quick-setup": True}, seed=11)


async def move(host: Host, game_id: int):
    """The player to act plays the move the AI would choose; the outcome."""
    table = await host.table(game_id)
    seat = table.game.to_act()[0]
    action = table.game.ai_action(seat, random.Random(table.version))
    return await host.act(game_id, table.seat_row(seat).user_id, action, version=table.version)


async def test_publish_does_not_hold_the_game_lock(storage):
    delivery = HeldDelivery()
    host = Host(storage, delivery, ai_delay=0.0)
    try:
        table = await two_humans(host)
        delivery.hold = True
        start = (await storage.get_game(table.id)).version
        first = await asyncio.wait_for(move(host, table.id), 10)  # committed; its publish is held
        await asyncio.wait_for(delivery.held.wait(), 10)
        assert (await storage.get_game(table.id)).version == start + 1
        assert not host.lock(table.id).locked(), "the game's lock is held while its table is drawn"
        assert not first.published.done()
        # Another action on the same game is committed meanwhile.
        second = await asyncio.wait_for(move(host, table.id), 10)
        newest = (await storage.get_game(table.id)).version
        assert newest == start + 2
        assert not second.published.done()
        delivery.gate.set()
        assert await asyncio.wait_for(second.shown(), 10) and first.published.done()
        await host.idle()
        assert delivery.published[-1][0] == newest, "the table shows the newest version"
    finally:
        await host.close()


async def test_burst_of_moves_coalesces_into_fewer_publishes(storage):
    delivery = HeldDelivery()
    host = Host(storage, delivery, ai_delay=0.0)
    try:
        table = await two_humans(host)
        await host.idle()
        before = len(delivery.published)
        delivery.hold = True
        await move(host, table.id)
        await asyncio.wait_for(delivery.held.wait(), 10)
        for _ in range(4):  # a burst while the first publish is held
            await move(host, table.id)
        newest = (await storage.get_game(table.id)).version
        delivery.gate.set()
        await host.idle()
        burst = delivery.published[before:]
        assert len(burst) <= 2, f"five moves made {len(burst)} publishes"
        assert burst[-1][0] == newest
        # The coalesced publish carries the events of the moves it covers and both players as actors.
        texts = [t for _, _, events in burst for t in events]
        assert len(texts) >= 5
        assert set(burst[-1][1]) == {0, 1}
    finally:
        await host.close()


async def test_old_version_never_published_after_newer(storage):
    delivery = HeldDelivery()
    delivery.jitter = random.Random(5)  # publishes take uneven time
    host = Host(storage, delivery, ai_delay=0.0)
    try:
        table = await two_humans(host)
        stale = table  # a table object of an old version, published again and again below
        for seat in (0, 1):
            await storage.update_seat(table.id, seat, is_ai=True)
        host.scheduler.after_change(await host.table(table.id))
        pokes = []
        for _ in range(30):
            pokes.append(asyncio.create_task(host.publish(stale, [], note="status")))
            await asyncio.sleep(0.005)
        await asyncio.gather(*pokes)
        await asyncio.wait_for(host.idle(), 120)
        versions = [v for v, _, _ in delivery.published]
        assert versions == sorted(versions), f"an older version was published after a newer one: {versions}"
        assert versions[-1] == (await storage.get_game(table.id)).version
    finally:
        await host.close()


async def test_idle_waits_for_pending_publishes(storage):
    delivery = HeldDelivery()
    host = Host(storage, delivery, ai_delay=0.0)
    try:
        table = await two_humans(host)
        delivery.hold = True
        outcome = await move(host, table.id)
        await asyncio.wait_for(delivery.held.wait(), 10)
        idle = asyncio.create_task(host.idle())
        await asyncio.sleep(0.05)
        assert not idle.done(), "idle() returned while a publish was pending"
        delivery.gate.set()
        await asyncio.wait_for(idle, 10)
        assert delivery.published[-1][0] == (await storage.get_game(table.id)).version
        assert outcome.published.done()
    finally:
        await host.close()


async def test_close_cancels_pending_publishes_and_resolves_their_waiters(storage):
    delivery = HeldDelivery()
    host = Host(storage, delivery, ai_delay=0.0)
    table = await two_humans(host)
    delivery.hold = True
    first = await move(host, table.id)
    await asyncio.wait_for(delivery.held.wait(), 10)
    second = await move(host, table.id)  # waits behind the held one
    await asyncio.wait_for(host.close(), 10)
    assert await asyncio.wait_for(first.shown(), 1) is False
    assert await asyncio.wait_for(second.shown(), 1) is False
    assert not host.publisher.busy()


async def test_an_older_version_landing_after_another_processes_newer_one_is_shown_again(storage):
    """Two processes (two hosts on one database, as with shards): B's publish of a version is still
    being sent when A commits and shows the next one; B's older table lands last, then B notices the
    newer stored version and shows it, so the channel ends on the newest."""
    landed: list[int] = []

    class Landing(HeldDelivery):
        async def publish(self, table, events, note="", actors=(), vias=(), successor=None):
            await super().publish(table, events, note, actors, vias)
            landed.append(table.version)

    a_delivery, b_delivery = Landing(), Landing()
    a, b = Host(storage, a_delivery, ai_delay=0.0), Host(storage, b_delivery, ai_delay=0.0)
    try:
        table = await two_humans(a)
        await a.publisher.idle()
        b_delivery.hold = True
        await asyncio.wait_for(move(b, table.id), 10)  # B commits v; its publish is held
        await asyncio.wait_for(b_delivery.held.wait(), 10)
        await asyncio.wait_for(move(a, table.id), 10)  # A commits v + 1 and shows it
        await asyncio.wait_for(a.publisher.idle(), 10)
        newest = (await storage.get_game(table.id)).version
        assert landed[-1] == newest
        b_delivery.gate.set()  # B's older version lands after A's newer one...
        await asyncio.wait_for(b.publisher.idle(), 10)
        assert landed[-3:] == [newest, newest - 1, newest], landed
        assert [v for v, _, _ in b_delivery.published] == [newest - 1, newest]  # ...then B shows the newest
    finally:
        await a.close()
        await b.close()
