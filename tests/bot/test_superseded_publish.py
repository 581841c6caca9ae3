"""A publish overtaken by a newer change of its game (issue 19, the load): the publisher says so
(``superseded()``), and the Discord delivery then leaves the table and the pings, which only show the
state, to the publish that follows at once; the DMs still go (they answer clicks and carry each seat's
private events), and so does a table that a click waits for."""

from __future__ import annotations

import asyncio
import types

import pytest

from bot.delivery import DiscordDelivery
from bot.host import Host, NullDelivery
from bot.storage import Storage
from tests.bot.test_round_trips import enemy_lines


@pytest.fixture
async def storage(tmp_path):
    s = await Storage.open(tmp_path / "superseded.db")
    yield s
    await s.close()


class Overtaken(NullDelivery):
    """Once armed, holds the next publish until told; records what ``superseded()`` said to each."""

    def __init__(self) -> None:
        super().__init__()
        self.armed = False
        self.gate = asyncio.Event()
        self.entered = asyncio.Event()
        self.said: list[bool] = []

    async def publish(self, table, events, note="", actors=(), vias=(), superseded=None):
        if self.armed and not self.entered.is_set():
            self.entered.set()
            await self.gate.wait()
        if self.armed:
            self.said.append(superseded())
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
        newer = host.publisher.request(game_id, [], actor=1)  # a change made meanwhile
        delivery.gate.set()
        assert await asyncio.wait_for(held, 10) and await asyncio.wait_for(newer, 10)
        assert delivery.said == [True, False]  # the held one was overtaken; the newer one was not
    finally:
        await host.close()


def stub_delivery(storage) -> tuple[DiscordDelivery, list[str]]:
    """A Discord delivery whose steps only record that they ran (a game without private views)."""
    delivery = DiscordDelivery(None, storage)
    ran: list[str] = []

    def step(name):
        async def run(*args):
            ran.append(name)

        return run

    delivery.table_message.publish = step("table")
    delivery.pings.publish = step("pings")
    delivery.follows.publish = step("follows")
    return delivery, ran


class Stored:
    async def flush(self):
        return None


def a_table() -> object:
    return types.SimpleNamespace(id=1, spec=types.SimpleNamespace(has_private_view=False), seats=[])


async def test_an_overtaken_publish_leaves_the_table_and_pings_to_the_next(storage):
    delivery, ran = stub_delivery(storage)
    await delivery._publish_with(a_table(), [], (0,), (), Stored(), lambda: True)
    assert ran == ["follows"]


async def test_a_publish_not_overtaken_shows_everything(storage):
    delivery, ran = stub_delivery(storage)
    await delivery._publish_with(a_table(), [], (0,), (), Stored(), lambda: False)
    assert ran == ["table", "pings", "follows"]


async def test_an_overtaken_publish_still_shows_the_table_a_click_waits_for(storage, monkeypatch):
    from bot.delivery import discord_delivery

    monkeypatch.setattr(discord_delivery, "awaited", lambda vias: bool(vias))
    delivery, ran = stub_delivery(storage)
    await delivery._publish_with(a_table(), [], (0,), ("a click",), Stored(), lambda: True)
    assert ran == ["table", "follows"]
