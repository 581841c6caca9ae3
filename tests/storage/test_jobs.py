"""The jobs table (migration 0006): timers and AI moves as rows with a due time, armed in the
transaction of the change that makes them due, claimed with a lease by one process at a time."""

from __future__ import annotations

import asyncio
import shutil

import pytest

from bot.storage import StaleVersion, Storage


async def _running(
    store: Storage, channel_id: int = 500, *, deadline: float | None = 1000.0, ai_due: float | None = None
) -> int:
    gid = await store.create_game(
        guild_id=1, channel_id=channel_id, game_key="x", options={}, seed=3, host_id=42, turn_timeout=60
    )
    await store.add_seat(gid, user_id=42, is_ai=False, name="Alice")
    await store.add_seat(gid, user_id=None, is_ai=True, name="Nelson (AI)")
    await store.start_game(gid, '{"players": 2}', deadline=deadline, ai_due=ai_due)
    return gid


def kinds(jobs) -> list[tuple[str, float, int]]:
    return sorted((j.kind, j.due, j.version) for j in jobs)


async def test_starting_a_game_arms_its_timer_reminder_and_ai_in_the_same_transaction(store):
    gid = await _running(store, deadline=1000.0, ai_due=5.0)
    assert kinds(await store.jobs(gid)) == [("ai", 5.0, 0), ("reminder", 970.0, 0), ("timeout", 1000.0, 0)]
    assert all(j.claimed_by is None for j in await store.jobs(gid))


async def test_a_move_rearms_its_games_jobs_and_drops_the_older_ones(store):
    gid = await _running(store, deadline=1000.0, ai_due=5.0)
    await store.record_action(
        gid, expected_version=0, seat=0, action={"t": 1}, state_json='{"players": 2}', deadline=2000.0
    )
    assert kinds(await store.jobs(gid)) == [("reminder", 1970.0, 1), ("timeout", 2000.0, 1)]
    await store.record_action(
        gid, expected_version=1, seat=1, action={"t": 2}, state_json='{"players": 2}', ai_due=7.0
    )
    assert kinds(await store.jobs(gid)) == [("ai", 7.0, 2)]
    await store.record_action(
        gid,
        expected_version=2,
        seat=1,
        action={"t": 3},
        state_json='{"players": 2}',
        status="finished",
        deadline=3000.0,
        ai_due=8.0,
    )
    assert await store.jobs(gid) == []  # a finished game waits for nothing


async def test_stopping_a_game_drops_its_jobs(store):
    for status, channel in (("abandoned", 500), ("suspended", 501)):
        gid = await _running(store, channel, ai_due=5.0)
        await store.set_status(gid, status)
        assert await store.jobs(gid) == []


async def test_a_refused_move_leaves_the_jobs_as_they_were(store):
    gid = await _running(store, deadline=1000.0)
    before = await store.jobs(gid)
    with pytest.raises(StaleVersion):
        await store.record_action(
            gid,
            expected_version=5,
            seat=0,
            action={"t": 1},
            state_json='{"players": 2}',
            deadline=2000.0,
            ai_due=1.0,
        )
    assert await store.jobs(gid) == before


async def test_a_due_job_is_claimed_once_until_its_lease_runs_out(store):
    gid = await _running(store, deadline=1000.0)
    assert await store.claim_jobs("p1", now=900.0, lease=10.0) == []  # nothing due yet (reminder: 970)
    [reminder] = await store.claim_jobs("p1", now=975.0, lease=10.0)
    assert (reminder.game_id, reminder.kind, reminder.claimed_by, reminder.claimed_until) == (
        gid,
        "reminder",
        "p1",
        985.0,
    )
    assert await store.claim_jobs("p2", now=980.0, lease=10.0) == []  # held by p1
    assert await store.next_job_at() == 985.0  # when p1's lease runs out
    [again] = await store.claim_jobs("p2", now=986.0, lease=10.0)  # p1 died: its lease ran out
    assert (again.kind, again.claimed_by) == ("reminder", "p2")
    assert not await store.complete_job(reminder, "p1")  # p1 no longer holds it
    assert await store.complete_job(again, "p2", reminded=True)
    assert (await store.get_game(gid)).reminded
    assert kinds(await store.jobs(gid)) == [("timeout", 1000.0, 0)]


async def test_completing_a_job_rearmed_meanwhile_drops_nothing(store):
    gid = await _running(store, deadline=1000.0)
    [reminder, timeout] = await store.claim_jobs("p1", now=1001.0, lease=10.0)
    assert (reminder.kind, timeout.kind) == ("reminder", "timeout")
    await store.record_action(
        gid, expected_version=0, seat=0, action={"t": 1}, state_json='{"players": 2}', deadline=2000.0
    )  # another process's move re-armed the game's jobs
    assert not await store.complete_job(timeout, "p1")
    assert kinds(await store.jobs(gid)) == [("reminder", 1970.0, 1), ("timeout", 2000.0, 1)]


async def test_two_processes_claiming_at_once_never_get_the_same_job(store, db_path):
    other = await Storage.open(db_path)
    try:
        games = [await _running(store, 600 + n, deadline=100.0 + n) for n in range(30)]
        claims = await asyncio.gather(
            *(
                s.claim_jobs(name, now=1000.0, lease=60.0, limit=4)
                for _ in range(10)
                for s, name in ((store, "a"), (other, "b"))
            )
        )
        got = [(j.game_id, j.kind) for batch in claims for j in batch]
        assert len(got) == len(set(got)) == 2 * len(games), "a job was claimed twice (or one was missed)"
        held = {(j.game_id, j.kind): j.claimed_by for j in await store.jobs()}
        for batch, owner in zip(claims, ["a", "b"] * 10, strict=True):
            assert all(held[(j.game_id, j.kind)] == owner for j in batch)
    finally:
        await other.close()


async def test_arming_an_ai_move_keeps_one_already_armed_for_that_version(store):
    gid = await _running(store, deadline=None)
    assert await store.arm_ai(gid, 0, due=5.0)
    assert not await store.arm_ai(gid, 0, due=9.0)  # already armed for version 0
    assert not await store.arm_ai(gid, 3, due=9.0)  # not the game's version
    assert kinds(await store.jobs(gid)) == [("ai", 5.0, 0)]


async def test_arming_an_ai_move_held_by_a_process_lets_it_go_so_its_holder_cannot_drop_it(store):
    """A process claimed the AI job and looked before a seat was handed to the AI ("no AI seat to
    move"); the hand-over arms the AI move again: the job is let go, so the holder's completion drops
    nothing and the next claim looks again (a lost AI job in the three-process test)."""
    gid = await _running(store, deadline=None)
    assert await store.arm_ai(gid, 0, due=5.0)
    [held] = await store.claim_jobs("x", now=6.0, lease=60.0)
    assert held.kind == "ai" and held.claimed_by == "x"
    assert await store.arm_ai(gid, 0, due=7.0)  # the seat changed hands meanwhile
    assert not await store.complete_job(held, "x")  # the holder found no AI seat: it drops nothing
    [again] = await store.claim_jobs("y", now=8.0, lease=60.0)
    assert (again.kind, again.version, again.claimed_by) == ("ai", 0, "y")


async def test_a_closing_process_gives_its_jobs_back(store):
    gid = await _running(store, deadline=1000.0)
    await store.claim_jobs("p1", now=2000.0, lease=600.0)
    await store.release_jobs("p1")
    assert [j.claimed_by for j in await store.jobs(gid)] == [None, None]
    assert len(await store.claim_jobs("p2", now=2000.0, lease=10.0)) == 2


async def test_arming_wakes_the_callbacks_of_this_process(store):
    woken = []
    store.on_jobs(lambda: woken.append(1))
    await _running(store)
    assert woken


async def test_migration_0006_arms_the_timers_and_ai_of_running_games(tmp_path, db_path, migrations_dir):
    old = tmp_path / "migrations"
    old.mkdir()
    for path in sorted(migrations_dir.glob("000[1-5]_*.sql")):
        shutil.copy(path, old)
    store = await Storage.open(db_path, migrations_dir=old)
    timed = await _running(store, 500, deadline=1000.0)  # turn timeout 60, an AI seat
    await store.mark_reminded(timed)
    humans = await store.create_game(
        guild_id=1, channel_id=501, game_key="x", options={}, seed=3, host_id=42, turn_timeout=60
    )
    await store.add_seat(humans, user_id=42, is_ai=False, name="Alice")
    await store.start_game(humans, '{"players": 1}', deadline=500.0)
    over = await _running(store, 502, deadline=1000.0)
    await store.set_status(over, "finished")
    await store.close()

    shutil.copy(next(migrations_dir.glob("0006_*.sql")), old)
    store = await Storage.open(db_path, migrations_dir=old)
    try:
        assert await store.schema_version() == 6
        assert kinds(await store.jobs(timed)) == [("ai", 0.0, 0), ("timeout", 1000.0, 0)]  # reminder was sent
        assert kinds(await store.jobs(humans)) == [("reminder", 470.0, 0), ("timeout", 500.0, 0)]
        assert await store.jobs(over) == []
    finally:
        await store.close()


async def test_a_step_of_the_same_turn_after_its_reminder_does_not_remind_again(store):
    """The defect test_three_processes found: a move that keeps the turn's deadline (the next step of
    one turn, the other half of a secret choice: the clock keeps running) reset the reminder flag and
    re-armed the reminder at its half time, long past: the player was reminded twice of one deadline."""
    gid = await _running(store, deadline=1000.0)
    [reminder] = [j for j in await store.claim_jobs("p", 975.0, 15.0) if j.kind == "reminder"]
    assert await store.complete_job(reminder, "p", reminded=True)
    await store.record_action(
        gid, expected_version=0, seat=0, action={"t": 1}, state_json='{"players": 2}', deadline=1000.0
    )  # the same turn goes on
    assert (await store.get_game(gid)).reminded
    assert kinds(await store.jobs(gid)) == [("timeout", 1000.0, 1)]
    # a new deadline (the next turn) gets its own reminder
    await store.record_action(
        gid, expected_version=1, seat=1, action={"t": 2}, state_json='{"players": 2}', deadline=2000.0
    )
    assert not (await store.get_game(gid)).reminded
    assert kinds(await store.jobs(gid)) == [("reminder", 1970.0, 2), ("timeout", 2000.0, 2)]
