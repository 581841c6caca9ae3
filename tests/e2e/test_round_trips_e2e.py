"""Database round trips of moves played by clicks through Discord (issue 12: "a click makes about 27
database round trips"), the real bot and delivery: an upper bound per move, so that a regression shows.
SQLite counts the calls handed to aiosqlite's thread; PostgreSQL (ADMIRALTY_TEST_E2E_BACKEND) the
Storage calls. bench/bench_table.py prints the figures of every game."""

from __future__ import annotations

import random

from bot.storage import Storage
from tests.dbcount import RoundTrips, unseen

MOVES = 6
# Warships by DM clicks, per move on average: 39 round trips (28 Storage calls) before issue 12's
# second round, about 9 after (bench/RESULTS.md "Database round trips per click"). The bound leaves
# room for wake-ups and publishes that fall differently.
ROUND_TRIPS_PER_MOVE = 13


async def started_by_clicks(d, game: str) -> None:
    """Alice opens a 2-player ``game`` (quick setup), Bob joins and Alice starts it, by the lobby's buttons."""
    await d.new_game("alice", game=game, quick_setup=True)
    r = await d.member("bob").click(d.lobby_message(), "Join")
    assert not r.failed, r.text
    r = await d.member("alice").click(d.lobby_message(), "Start")
    assert not r.failed and "started" in r.text, r.text


async def test_a_move_by_dm_clicks_stays_within_its_database_round_trips(driver):
    d = driver
    await started_by_clicks(d, "warships")
    rng = random.Random(3)
    store = d.bot.storage
    played = 0
    # the bot's round trips only: what the test reads to find the turn and waits with is unseen
    with RoundTrips(store) as rt, unseen():
        for _ in range(MOVES):
            await d.host.idle()
            await d.settle()
            table = await d.table()
            if table.over:
                break
            seat = table.human_to_act()[0]
            member = next(
                m for m in (d.member("alice"), d.member("bob")) if m.id == table.seat_row(seat).user_id
            )
            _, result = await d.play_by_dm(member, seat, rng)
            assert result is not None and "✅ Played" in result.text, result and result.text
            played += 1
        await d.host.idle()
        await d.settle()
        await d.host.idle()
    assert played >= 3
    calls = rt.calls

    # a publish reads the game, the log lines and messages (table, DMs, their digests, pings) it shows
    # in ONE query
    assert calls["get_message"] == calls["messages"] == 0, calls
    assert 1 <= calls["load_table_view"] <= played + 1, calls
    assert calls["seats"] == 0, calls  # no DM was refused: the seats are not read again
    assert calls["recent_log"] == 0, calls
    assert calls["record_action"] == played, calls
    assert "claim_jobs" not in calls, calls  # no job was due: the scheduler only looked
    # nobody has turn alert preferences (/notify): read once in the game's life, at its first turn
    assert calls["notify_prefs"] <= 1, calls
    # the messages a publish stores or forgets: a group commit each (one round trip on SQLite)
    assert calls["set_message"] == calls["delete_message"] == 0, calls
    assert rt.trips <= ROUND_TRIPS_PER_MOVE * played, (rt.trips / played, calls)
    assert sum(calls.values()) <= ROUND_TRIPS_PER_MOVE * played, (sum(calls.values()) / played, calls)


async def test_a_move_by_table_clicks_stays_within_its_database_round_trips(driver):
    """Enemy Lines, played on the table: a sub-menu shown in the table's controls redraws the table with
    the log lines read with the game (no read of its own)."""
    d = driver
    await started_by_clicks(d, "enemy-lines")
    rng = random.Random(5)
    played = 0
    with RoundTrips(d.bot.storage) as rt, unseen():
        for _ in range(MOVES):
            member, _, result = await d.play_ai_move(rng)
            if member is None:
                break
            played += 1
        await d.host.idle()
        await d.settle()
        await d.host.idle()
    assert played >= 3
    calls = rt.calls
    assert calls["recent_log"] == calls["get_message"] == calls["messages"] == 0, calls
    assert calls["record_action"] == played and "claim_jobs" not in calls, calls
    assert rt.trips <= ROUND_TRIPS_PER_MOVE * played, (rt.trips / played, calls)


async def test_each_publish_reads_the_messages_another_process_changed(driver, e2e_database):
    """A publish reads the game's messages once, at its start, from the database (its copy lives for that
    publish only): a change another process made since (here: the table's message forgotten) is seen by
    the next publish, which posts the table anew."""
    d = driver
    await d.new_game("alice", game="enemy-lines", quick_setup=True)
    await d.member("bob").click(d.lobby_message(), "Join")
    r = await d.member("alice").click(d.lobby_message(), "Start")
    assert not r.failed and "started" in r.text, r.text
    rng = random.Random(7)
    await d.play_ai_move(rng)
    await d.host.idle()
    await d.settle()
    table = await d.table()
    first = d.table_message()
    assert (await d.bot.storage.messages(table.id))["table"][1] == first.id
    other = await Storage.open(e2e_database)  # another process's connection
    try:
        await other.save_messages(table.id, {"table": None})
    finally:
        await other.close()
    await d.play_ai_move(rng)
    await d.host.idle()
    await d.settle()
    newest = d.table_message()
    assert newest.id != first.id  # posted anew: this publish did not use what an earlier one read
    assert (await d.bot.storage.messages(table.id))["table"][1] == newest.id
