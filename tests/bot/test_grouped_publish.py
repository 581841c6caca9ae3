"""One publish may show several actions (those committed while the one before was being shown): every
delivery gets who acted and through which clicks as tuples, whether one action, several or none caused
the publish. (A delivery that took a grouped publish for one seat failed one CI run in three:
tests/bot/test_scheduler_idle.py, when two AI moves landed in one publish.)"""

from __future__ import annotations

import asyncio

import pytest

from bot.host import Host, NullDelivery
from bot.storage import Storage
from tests.bot.test_lost_games import GoneDelivery
from tests.bot.test_publish_off_lock import HeldDelivery
from tests.bot.test_round_trips import enemy_lines
from tests.bot.test_scheduler_idle import GatedDelivery


@pytest.fixture
async def storage(tmp_path):
    s = await Storage.open(tmp_path / "grouped.db")
    yield s
    await s.close()


class Recording(NullDelivery):
    """Records what each publish was told of its cause."""

    def __init__(self) -> None:
        super().__init__()
        self.causes: list[tuple[object, object]] = []

    async def publish(self, table, events, note="", actors=(), vias=(), successor=None):
        self.causes.append((actors, vias))
        await super().publish(table, events, note, actors, vias)


async def two_humans(host: Host) -> int:
    """test_round_trips' two-player Enemy Lines game, started and shown."""
    table = await enemy_lines(host)
    await host.idle()
    return table.id


def grouped(host: Host, game_id: int) -> list[asyncio.Future]:
    """Two requests in the same tick (seat 0's click, then seat 1's): they wait together for one publish."""
    return [
        host.publisher.request(game_id, [{"type": "x", "text": "first"}], actor=0, via="click-0"),
        host.publisher.request(game_id, [{"type": "x", "text": "second"}], actor=1, via="click-1"),
    ]


async def test_a_delivery_gets_the_seats_and_clicks_as_tuples_for_one_several_or_no_actions(storage):
    delivery = Recording()
    host = Host(storage, delivery, ai_delay=0.0)
    try:
        game_id = await two_humans(host)
        delivery.causes.clear()
        assert await host.publisher.request(game_id, [], actor=1, via="click")  # one action
        assert all(await asyncio.gather(*grouped(host, game_id)))  # two, in one publish
        assert await host.publisher.request(game_id, [])  # none (a retry, a catch-up)
        assert delivery.causes == [
            ((1,), ("click",)),
            ((0, 1), ("click-0", "click-1")),
            ((), ()),
        ]
    finally:
        await host.close()


@pytest.mark.parametrize("make", [NullDelivery, GatedDelivery, GoneDelivery, HeldDelivery])
async def test_every_delivery_takes_a_grouped_publish(storage, make):
    delivery = make()
    if isinstance(delivery, GatedDelivery):
        delivery.gate.set()
    host = Host(storage, delivery, ai_delay=0.0)
    try:
        game_id = await two_humans(host)
        shown = await asyncio.wait_for(asyncio.gather(*grouped(host, game_id)), 10)
        assert shown == [True, True], "a publish covering two seats' actions was not delivered"
        last = [c for c in delivery.calls if c[0] == "publish"][-1]
        assert last[3] == ["first", "second"], "one publish shows both actions"
    finally:
        await host.close()


async def test_a_seat_the_game_does_not_have_is_a_key_error_not_a_stop_iteration(storage):
    """``Table.seat_row`` of a missing seat raised StopIteration, which a coroutine turns into a bare
    RuntimeError ("coroutine raised StopIteration") that hid the cause of the flake."""
    host = Host(storage, NullDelivery(), ai_delay=0.0)
    try:
        table = await host.table(await two_humans(host))
        with pytest.raises(KeyError, match="no seat"):
            table.seat_row(2)
    finally:
        await host.close()
