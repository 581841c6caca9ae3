"""A game with no human player left (every seat handed to the AI after missed turns) is paused, not
played out by the AI seats: a player takes their seat back with `/game join`, else the game is
abandoned after ``abandon_after`` and rated for nobody. The state is the database's (seats, deadline,
jobs), so another process, or the next start, keeps to it."""

from __future__ import annotations

import asyncio
import time

from bot.host import Host, NullDelivery
from bot.storage import Storage
from tests.bot.test_multi_process import running_game

CHANNEL, ALICE = 10, 100
TIMEOUT = 0.3  # a sub-second turn timer, for speed only


def make_host(storage, **kw) -> Host:
    kw.setdefault("ai_delay", 0.0)
    kw.setdefault("min_turn_timeout", 0.1)
    kw.setdefault("job_poll", 0.1)
    kw.setdefault("abandon_after", 3600.0)
    return Host(storage, NullDelivery(), **kw)


async def wait_until(predicate, timeout: float = 30.0) -> None:
    end = time.monotonic() + timeout
    while not await predicate():
        assert time.monotonic() < end, "timed out waiting"
        await asyncio.sleep(0.05)


async def alice_against_the_ai(host: Host) -> int:
    """Alice and an AI seat, a short turn timer; nobody plays for Alice."""
    return await running_game(host, CHANNEL, timeout=TIMEOUT, ai=True)


async def paused(storage: Storage, game_id: int) -> bool:
    return any("the game is paused" in line for line in await storage.recent_log(game_id, 50))


async def test_a_game_whose_last_player_was_handed_to_the_ai_is_paused_not_played_out(storage):
    host = make_host(storage)
    game_id = await alice_against_the_ai(host)
    await wait_until(lambda: paused(storage, game_id))
    seats = await storage.seats(game_id)
    assert all(s.is_ai for s in seats), "3 missed turns handed Alice's seat to the AI"
    version = (await storage.get_game(game_id)).version
    await asyncio.sleep(1.0)  # the AI seats would have played dozens of moves by now
    row = await storage.get_game(game_id)
    assert row.status == "running" and row.version == version, "the AI seats played on alone"
    table = await host.table(game_id)
    assert table.deserted and not table.over
    assert [j.kind for j in await storage.jobs(game_id)] == ["timeout"], "no AI move is armed"
    assert row.deadline > time.time() + 3000, "the deadline is when it is abandoned, not a turn's"
    assert not await storage.is_rated(game_id)
    await host.close()


async def test_a_player_who_joins_again_takes_the_seat_back_and_the_game_goes_on(storage):
    host = make_host(storage)
    game_id = await alice_against_the_ai(host)
    await wait_until(lambda: paused(storage, game_id))
    version = (await storage.get_game(game_id)).version
    table, _ = await host.join(CHANNEL, ALICE, "Alice")
    assert not table.deserted and table.seat_of(ALICE) is not None
    await host.idle()
    table = await host.table(game_id)
    if table.game.to_act() == [table.seat_of(ALICE)]:
        assert table.row.deadline is not None and table.row.deadline < time.time() + 10 * TIMEOUT, (
            "her turn has a turn's deadline again"
        )
        await host.act(game_id, ALICE, table.game.legal_actions(table.seat_of(ALICE))[0])
    await host.idle()
    assert (await storage.get_game(game_id)).version > version, "the game goes on"
    assert any("is back" in line for line in await storage.recent_log(game_id, 50))
    await host.close()


async def test_a_paused_game_nobody_comes_back_to_is_abandoned_and_rated_for_nobody(storage):
    host = make_host(storage, abandon_after=0.5)
    game_id = await alice_against_the_ai(host)
    await wait_until(lambda: paused(storage, game_id))

    async def abandoned() -> bool:
        return (await storage.get_game(game_id)).status == "abandoned"

    await wait_until(abandoned, timeout=10)
    assert not await storage.is_rated(game_id) and not await storage.unrated_games()
    assert not await storage.jobs(game_id)
    assert any(c[0] == "ended" and "no player came back" in c[2] for c in host.delivery.calls)
    await host.close()


async def test_the_pause_holds_in_another_process_and_after_a_restart(storage, db_target):
    first = make_host(storage)
    game_id = await alice_against_the_ai(first)
    await wait_until(lambda: paused(storage, game_id))
    version = (await storage.get_game(game_id)).version
    await first.close()
    other = await Storage.open(db_target)
    second = make_host(other, abandon_after=0.5)
    try:
        await second.resume_all()  # arms an AI job for the game's AI seats: it must not move them
        await asyncio.sleep(0.5)
        assert (await other.get_game(game_id)).version == version, "the AI played on after a restart"
        # the bound armed by the first process holds (1 h): nothing is abandoned early
        assert (await other.get_game(game_id)).status == "running"
        # the first process's deadline comes due: the second abandons it
        await other.set_deadline(game_id, time.time() + 0.2, reminded=True)

        async def abandoned() -> bool:
            return (await other.get_game(game_id)).status == "abandoned"

        await wait_until(abandoned, timeout=10)
        assert not await other.is_rated(game_id)
    finally:
        await second.close()
        await other.close()
