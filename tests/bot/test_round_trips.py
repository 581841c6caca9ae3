"""Database round trips of a move through the host (issue 12, "a click makes about 27 database round
trips"): an upper bound, so that a regression shows. SQLite counts the calls handed to aiosqlite's
thread; PostgreSQL the Storage calls (each a statement or one transaction). bench/bench_table.py
prints the figures of whole games through Discord."""

from __future__ import annotations

from bot.host import Host, NullDelivery
from bot.storage import Storage
from tests.dbcount import RoundTrips, unseen
from tests.hosting import start_game

# One move of Enemy Lines by two clicks (its menu's two levels), published and settled (a delivery
# that sends nothing: tests/e2e/test_round_trips_e2e.py counts Discord's). Each click loads the table
# once (1 + 1), the move's commit is one group (1), the publisher reads the newest version (1) and
# checks for a newer one (1), the scheduler looks when its next job is due (1: the commit's two
# wake-ups come in one step; host.idle() waits for that look, so none falls in the next move's
# window): 6. It was 14 on SQLite (10 Storage calls): a reload
# after the commit, and at every wake-up a claim of jobs (a write: 3 round trips on SQLite).
MOVE_ROUND_TRIPS = 6


async def enemy_lines(host: Host):
    return await start_game(host, options={"quick-setup": True}, seed=7)


async def one_move_by_clicks(host: Host, game_id: int) -> None:
    """The player to act opens their menu's first entry, then plays that level's first entry (the two
    clicks counted; what the test reads to find them is not)."""
    with unseen():
        table = await host.table(game_id)
        seat = table.game.to_act()[0]
        user = table.seat_row(seat).user_id
        first = await host.menu(game_id, user)
    second = await host.choose(
        game_id, user, table.version, first.level.prefix + (first.level.entries[0][0],)
    )
    assert second.level is not None
    done = await host.choose(
        game_id, user, table.version, second.level.prefix + (second.level.entries[0][0],)
    )
    assert done.applied and await done.shown()


async def test_a_move_by_clicks_through_the_host_makes_at_most_six_round_trips(storage):
    # (the scheduler's poll and sweep far apart: only the move's own wake-ups make it look)
    host = Host(storage, NullDelivery(), ai_delay=0.0, job_poll=600.0, job_sweep=3600.0)
    try:
        table = await enemy_lines(host)
        await one_move_by_clicks(host, table.id)  # (the scheduler's first look, its sweep, is done)
        await host.idle()
        for _ in range(4):
            with RoundTrips(storage) as rt:
                await one_move_by_clicks(host, table.id)
                with unseen():  # (what the test waits with)
                    await host.idle()
            assert rt.calls["load_table"] == 3, rt.calls  # each click once, the publisher once
            assert rt.calls["record_action"] == 1
            assert "claim_jobs" not in rt.calls, rt.calls  # nothing was due: no write to claim it
            assert rt.calls["next_job_at"] == 1, rt.calls  # the move's one wake-up, and no earlier one's
            assert rt.trips <= MOVE_ROUND_TRIPS, (rt.trips, rt.calls)  # SQLite: hand-offs; PostgreSQL: calls
            assert sum(rt.calls.values()) <= MOVE_ROUND_TRIPS, rt.calls
        assert (await storage.get_game(table.id)).version == 5
    finally:
        await host.close()


class AloneDelivery(NullDelivery):
    """A delivery of a bot that runs every shard itself (DiscordDelivery(shared=False))."""

    shared = False


async def test_a_process_alone_does_not_look_for_versions_made_elsewhere(storage):
    """The publisher looks for a newer version committed by another process after each publish only
    when other processes publish the same games (shards on one database); alone, a newer version of
    this process always has its request pending: one round trip a move less (5)."""
    host = Host(storage, AloneDelivery(), ai_delay=0.0, job_poll=600.0, job_sweep=3600.0)
    try:
        assert host.publisher.shared is False and Host(storage, NullDelivery()).publisher.shared
        table = await enemy_lines(host)
        await one_move_by_clicks(host, table.id)
        await host.idle()
        for _ in range(3):
            with RoundTrips(storage) as rt:
                await one_move_by_clicks(host, table.id)
                with unseen():
                    await host.idle()
            assert "get_game" not in rt.calls, rt.calls
            assert rt.calls["load_table"] == 3, rt.calls
            assert sum(rt.calls.values()) <= MOVE_ROUND_TRIPS - 1, rt.calls
        assert (await storage.get_game(table.id)).version == 4
    finally:
        await host.close()


async def test_round_trips_counts_hand_offs_and_calls(tmp_path):
    """The counter itself: a read is one hand-off and one call; a plain write BEGIN, its statement, COMMIT."""
    store = await Storage.open(tmp_path / "count.db")
    try:
        with RoundTrips(store) as rt:
            await store.get_meta("x")
            assert (rt.trips, dict(rt.calls)) == (1, {"get_meta": 1})
            await store.set_meta("x", "1")
            assert (rt.trips, dict(rt.calls)) == (4, {"get_meta": 1, "set_meta": 1})
        await store.get_meta("x")  # unwrapped again
        assert rt.trips == 4 and "get_meta" not in vars(store)
    finally:
        await store.close()
