"""A publish overtaken by a newer change of its game (issue 19, the load): the publisher says so (its
``successor`` waits), and the Discord delivery then leaves the table, which only shows the state, to
the publish that follows at once. The DMs still go (they answer clicks and carry each seat's private
events), so does a table that a click waits for, and so do the pings (a turn that began is pinged
once)."""

from __future__ import annotations

import asyncio
import types

from bot.delivery import DiscordDelivery
from bot.host import Host, NullDelivery
from tests.bot.test_round_trips import enemy_lines


class Overtaken(NullDelivery):
    """Once armed, holds the next publish until told; records what its successor said (``waiting``)
    and the events of each publish."""

    def __init__(self) -> None:
        super().__init__()
        self.armed = False
        self.gate = asyncio.Event()
        self.entered = asyncio.Event()
        self.said: list[bool] = []
        self.events: list[list[str]] = []

    async def publish(self, table, events, note="", actors=(), vias=(), successor=None):
        if self.armed and not self.entered.is_set():
            self.entered.set()
            await self.gate.wait()
        if self.armed:
            self.said.append(successor.waiting())
            self.events.append([e.get("text") for e in events])
        await super().publish(table, events, note, actors, vias)


async def test_the_publisher_tells_a_publish_that_a_newer_change_waits(storage):
    delivery = Overtaken()
    host = Host(storage, delivery, ai_delay=0.0)
    try:
        game_id = (await enemy_lines(host)).id
        await host.idle()
        delivery.armed = True
        held = host.publisher.request(game_id, [], actor=0)
        await asyncio.wait_for(delivery.entered.wait(), 10)
        newer = host.publisher.request(game_id, [{"type": "x", "text": "own"}], actor=1)  # meanwhile
        delivery.gate.set()
        assert await asyncio.wait_for(held, 10) and await asyncio.wait_for(newer, 10)
        assert delivery.said == [True, False]  # the held one was overtaken; the newer one was not
        assert delivery.events[1] == ["own"]
    finally:
        await host.close()


def stub_delivery(storage) -> tuple[DiscordDelivery, list[str]]:
    """A Discord delivery whose steps only record that they ran (a DM: ``dm<seat>``)."""
    delivery = DiscordDelivery(None, storage)
    ran: list[str] = []

    def step(name):
        async def run(*args):
            ran.append(name)

        return run

    async def dm(table, seat, private, **kwargs):
        ran.append(f"dm{seat}")
        return False

    delivery.table_message.publish = step("table")
    delivery.pings.publish = step("pings")
    delivery.follows.publish = step("follows")
    delivery.dms.update = dm
    return delivery, ran


class Next:
    """A successor that waits, or not."""

    def __init__(self, waiting: bool) -> None:
        self._waiting = waiting

    def waiting(self) -> bool:
        return self._waiting


class Stored:
    async def flush(self):
        return None


def a_table(private: bool = False) -> object:
    seats = [types.SimpleNamespace(seat=s, is_ai=False, user_id=100 + s) for s in (0, 1, 2)]
    return types.SimpleNamespace(id=1, spec=types.SimpleNamespace(has_private_view=private), seats=seats)


async def test_an_overtaken_publish_leaves_the_table_to_the_next(storage):
    delivery, ran = stub_delivery(storage)
    await delivery._publish_with(a_table(), [], (0,), (), Stored(), Next(True))
    assert ran == ["pings", "follows"]


async def test_a_publish_not_overtaken_shows_everything(storage):
    delivery, ran = stub_delivery(storage)
    await delivery._publish_with(a_table(), [], (0,), (), Stored(), Next(False))
    assert ran == ["table", "pings", "follows"]


async def test_an_overtaken_publish_still_shows_the_table_a_click_waits_for(storage, monkeypatch):
    from bot.delivery import discord_delivery

    monkeypatch.setattr(discord_delivery, "awaited", lambda vias: bool(vias))
    delivery, ran = stub_delivery(storage)
    await delivery._publish_with(a_table(), [], (0,), ("a click",), Stored(), Next(True))
    assert ran == ["table", "pings", "follows"]


EVENTS = [
    {"type": "x", "text": "public"},
    {"type": "x", "text": "to the mover", "private_to": 0},
    {"type": "x", "text": "to seat 1", "private_to": 1},
    {"type": "x", "text": "to seat 2", "private_to": 2},
]


async def test_an_overtaken_publish_still_draws_every_dm(storage):
    delivery, ran = stub_delivery(storage)
    await delivery._publish_with(a_table(private=True), EVENTS, (1,), (), Stored(), Next(True))
    assert ran == ["dm1", "dm0", "dm2", "pings", "follows"]  # the mover's first


async def test_a_publish_not_overtaken_draws_the_dms_the_movers_first_then_the_table(storage):
    delivery, ran = stub_delivery(storage)
    await delivery._publish_with(a_table(private=True), EVENTS, (1,), (), Stored(), Next(False))
    assert ran == ["dm1", "dm0", "dm2", "table", "pings", "follows"]
