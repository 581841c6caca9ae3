"""Clocks in storage (migration 0010), on both backends: a game's clock written with its move, changed by
agreement (pause, extension) with its deadline and timeout job in one transaction; vacations spend each
server's yearly allowance, stop every clock of the player and give unused whole days back."""

from __future__ import annotations

import pytest

from bot.clocks import DAY, Clock
from bot.storage import Storage
from bot.storage.clocks import VACATION_DAYS_DEFAULT, NoClock, VacationRefused

HOUR = 3600.0
ALICE, BOB = 42, 43


async def _running(store: Storage, channel_id: int = 500, guild_id: int = 1, *, now: float = 0.0) -> int:
    """A running two-player game with a 3-day bank, Alice (seat 0) to act since ``now``."""
    gid = await store.create_game(
        guild_id=guild_id,
        channel_id=channel_id,
        game_key="x",
        options={},
        seed=3,
        host_id=ALICE,
        clock=Clock("bank", 3 * DAY, DAY).to_json(),
    )
    await store.add_seat(gid, user_id=ALICE, is_ai=False, name="Alice")
    await store.add_seat(gid, user_id=BOB, is_ai=False, name="Bob")
    clock = Clock("bank", 3 * DAY, DAY).sync([0], now)
    await store.start_game(gid, '{"players": 2}', deadline=clock.deadline(), clock=clock.to_json())
    return gid


async def timeout_due(store: Storage, gid: int) -> float | None:
    jobs = [j for j in await store.jobs(gid) if j.kind == "timeout"]
    return jobs[0].due if jobs else None


async def test_a_games_clock_is_stored_with_its_start_and_each_move(store):
    gid = await _running(store)
    row = await store.get_game(gid)
    assert Clock.from_json(row.clock).running() == [0]
    assert row.deadline == 3 * DAY and await timeout_due(store, gid) == 3 * DAY
    moved = Clock.from_json(row.clock).sync([1], now=DAY)
    await store.record_action(
        gid,
        expected_version=0,
        seat=0,
        action={"t": 1},
        state_json='{"players": 2}',
        deadline=moved.deadline(),
        clock=moved.to_json(),
    )
    row = await store.get_game(gid)
    assert Clock.from_json(row.clock) == moved
    assert Clock.from_json(row.clock).seat(0).left == 3 * DAY  # 3d - 1d used + 1d increment
    assert await timeout_due(store, gid) == DAY + 3 * DAY


async def test_a_pause_drops_the_timeout_and_a_resume_arms_it_again(store):
    gid = await _running(store)
    paused = await store.change_clock(gid, lambda c: c.pause(HOUR), now=HOUR)
    assert paused.paused
    row = await store.get_game(gid)
    assert row.deadline is None and await timeout_due(store, gid) is None
    await store.change_clock(gid, lambda c: c.resume(DAY), now=DAY)
    assert (await store.get_game(gid)).deadline == pytest.approx(DAY + 3 * DAY - HOUR)
    assert await timeout_due(store, gid) == pytest.approx(DAY + 3 * DAY - HOUR)


async def test_an_extension_moves_the_deadline_and_the_timeout_job_together(store):
    gid = await _running(store)
    await store.change_clock(gid, lambda c: c.extend(0, DAY), now=HOUR)
    assert (await store.get_game(gid)).deadline == 4 * DAY
    assert await timeout_due(store, gid) == 4 * DAY


async def test_a_clock_change_that_fails_changes_nothing(store):
    gid = await _running(store)

    def refuse(clock: Clock) -> Clock:
        raise ValueError("no")

    with pytest.raises(ValueError):
        await store.change_clock(gid, refuse, now=HOUR)
    assert (await store.get_game(gid)).deadline == 3 * DAY
    plain = await store.create_game(guild_id=1, channel_id=900, game_key="x", options={}, seed=1, host_id=1)
    await store.add_seat(plain, user_id=1, is_ai=False, name="Ann")
    await store.start_game(plain, '{"players": 1}')
    with pytest.raises(NoClock):
        await store.change_clock(plain, lambda c: c.pause(0.0), now=0.0)


async def test_a_vacation_stops_the_players_clocks_in_every_server_and_spends_each_allowance(store):
    here = await _running(store, 500, guild_id=1)
    there = await _running(store, 501, guild_id=2)
    vacation, changed = await store.take_vacation(ALICE, 5, now=HOUR, year=2026, guild_id=1)
    assert sorted(changed) == [here, there]
    assert vacation.until == HOUR + 5 * DAY and vacation.guilds == (1, 2)
    for gid in (here, there):
        row = await store.get_game(gid)
        clock = Clock.from_json(row.clock)
        assert clock.seat(0).since == HOUR + 5 * DAY
        assert row.deadline == pytest.approx(HOUR + 5 * DAY + 3 * DAY - HOUR)
        assert await timeout_due(store, gid) == row.deadline
    assert await store.vacation_days_left(ALICE, 1, 2026) == VACATION_DAYS_DEFAULT - 5
    assert await store.vacation_days_left(ALICE, 2, 2026) == VACATION_DAYS_DEFAULT - 5
    assert await store.vacation_days_left(ALICE, 1, 2027) == VACATION_DAYS_DEFAULT
    assert await store.vacation_days_left(BOB, 1, 2026) == VACATION_DAYS_DEFAULT
    with pytest.raises(VacationRefused):  # one at a time
        await store.take_vacation(ALICE, 1, now=2 * HOUR, year=2026, guild_id=1)


async def test_ending_a_vacation_early_gives_back_the_unused_whole_days(store):
    gid = await _running(store)
    await store.take_vacation(ALICE, 5, now=0.0, year=2026, guild_id=1)
    back, changed = await store.end_vacation(ALICE, now=1.5 * DAY)
    assert back == 3 and changed == [gid]  # 3.5 days unused: 3 whole days back
    assert await store.vacation_days_left(ALICE, 1, 2026) == VACATION_DAYS_DEFAULT - 2
    clock = Clock.from_json((await store.get_game(gid)).clock)
    assert clock.seat(0).since == 1.5 * DAY and 0 not in clock.away
    with pytest.raises(VacationRefused):
        await store.end_vacation(ALICE, now=2 * DAY)


async def test_a_vacation_larger_than_a_servers_allowance_is_refused_and_changes_nothing(store):
    gid = await _running(store, 500, guild_id=1)
    await _running(store, 501, guild_id=2)
    await store.set_vacation_allowance(2, 3)
    assert await store.vacation_allowance(2) == 3
    with pytest.raises(VacationRefused) as refused:
        await store.take_vacation(ALICE, 5, now=0.0, year=2026, guild_id=1)
    assert refused.value.short == ((2, 3),)
    assert await store.vacation(ALICE) is None
    assert await store.vacation_days_left(ALICE, 1, 2026) == VACATION_DAYS_DEFAULT
    assert (await store.get_game(gid)).deadline == 3 * DAY


async def test_who_is_on_vacation_is_read_for_a_game_that_starts(store):
    await store.take_vacation(ALICE, 2, now=0.0, year=2026, guild_id=1)
    assert await store.away_until([ALICE, BOB], now=DAY) == {ALICE: 2 * DAY}
    assert await store.away_until([ALICE, BOB], now=3 * DAY) == {}
    assert await store.away_until([], now=0.0) == {}


async def test_a_time_bank_gets_its_reminder_at_half_the_turns_time(store):
    gid = await _running(store, now=0.0)  # Alice has 3 days
    assert sorted((j.kind, j.due) for j in await store.jobs(gid)) == [
        ("reminder", 1.5 * DAY),
        ("timeout", 3 * DAY),
    ]
    await store.change_clock(gid, lambda c: c.extend(0, DAY), now=HOUR)  # 4 days in all: half is 2
    assert sorted((j.kind, j.due) for j in await store.jobs(gid)) == [
        ("reminder", 2 * DAY),
        ("timeout", 4 * DAY),
    ]
