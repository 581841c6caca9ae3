"""Turn alert preferences and the jobs that wait for a time (migration 0009), on both backends: stored
by user id, the digest armed with them, held alerts claimed once with a lease, released at shutdown."""

from __future__ import annotations

import asyncio

import pytest

from bot.notify import DEFAULT, Prefs
from bot.storage import Storage


async def test_nobody_has_preferences_until_they_set_some(store):
    assert await store.notify_prefs([1, 2, 3]) == {}
    assert await store.notify_prefs([]) == {}


async def test_preferences_are_stored_by_user_and_replaced_whole(store):
    mine = Prefs(route="dm", tz="Europe/Paris", quiet_start=22 * 60, quiet_end=7 * 60, heads_up=True)
    await store.set_notify_prefs(2**62 + 5, mine, None)
    await store.set_notify_prefs(7, Prefs(route="none"), None)
    got = await store.notify_prefs([2**62 + 5, 7, 8])
    assert got == {2**62 + 5: mine, 7: Prefs(route="none")}
    await store.set_notify_prefs(7, DEFAULT, None)
    assert (await store.notify_prefs([7]))[7] == DEFAULT


async def test_a_route_outside_the_four_is_refused_before_any_write(store):
    with pytest.raises(ValueError):
        await store.set_notify_prefs(1, Prefs(route="carrier pigeon"), None)
    assert await store.notify_prefs([1]) == {}


async def test_the_digest_is_armed_with_the_preferences_and_dropped_with_them(store):
    await store.set_notify_prefs(5, Prefs(digest_at=8 * 60), 1000.0)
    (job,) = await store.notify_jobs(5)
    assert (job.kind, job.game_id, job.due, job.claimed_by) == ("digest", 0, 1000.0, None)
    await store.set_notify_prefs(5, Prefs(digest_at=9 * 60), 2000.0)
    assert [j.due for j in await store.notify_jobs(5)] == [2000.0]
    await store.set_notify_prefs(5, Prefs(), None)
    assert await store.notify_jobs(5) == []


async def test_a_held_alert_is_one_per_person_and_game_and_the_newer_replaces_it(store):
    await store.hold_alert(5, 40, 1, 300.0)
    await store.hold_alert(5, 40, 1, 500.0)
    await store.hold_alert(5, 41, 0, 400.0)
    await store.hold_alert(6, 40, 0, 100.0)
    jobs = await store.notify_jobs()
    assert [(j.user_id, j.kind, j.game_id, j.seat, j.due) for j in jobs] == [
        (6, "alert", 40, 0, 100.0),
        (5, "alert", 41, 0, 400.0),
        (5, "alert", 40, 1, 500.0),
    ]
    assert await store.next_notify_at() == 100.0


async def test_due_jobs_are_claimed_once_and_a_dead_claimers_lease_runs_out(store):
    await store.hold_alert(5, 40, 1, 100.0)
    await store.hold_alert(6, 40, 0, 900.0)
    assert await store.claim_notify_jobs("a", now=50.0, lease=15.0) == []
    (job,) = await store.claim_notify_jobs("a", now=150.0, lease=15.0)
    assert (job.user_id, job.claimed_by, job.claimed_until) == (5, "a", 165.0)
    assert await store.claim_notify_jobs("b", now=160.0, lease=15.0) == []  # held by a
    assert await store.next_notify_at() == 165.0
    (again,) = await store.claim_notify_jobs("b", now=170.0, lease=15.0)  # a died
    assert again.claimed_by == "b"
    assert not await store.complete_notify_job(job, "a")  # no longer a's
    assert await store.complete_notify_job(again, "b")
    assert [j.user_id for j in await store.notify_jobs()] == [6]


async def test_a_job_armed_anew_while_claimed_is_not_dropped_by_its_old_claim(store):
    await store.hold_alert(5, 40, 1, 100.0)
    (job,) = await store.claim_notify_jobs("a", now=100.0, lease=15.0)
    await store.hold_alert(5, 40, 1, 700.0)  # a newer turn, held again
    assert not await store.complete_notify_job(job, "a")
    assert [(j.due, j.claimed_by) for j in await store.notify_jobs(5)] == [(700.0, None)]


async def test_a_digest_is_armed_again_for_the_next_day_by_its_holder_only(store):
    await store.set_notify_prefs(5, Prefs(digest_at=0), 100.0)
    (job,) = await store.claim_notify_jobs("a", now=100.0, lease=15.0)
    assert not await store.rearm_notify_job(job, "b", 86500.0)
    assert await store.rearm_notify_job(job, "a", 86500.0)
    assert [(j.due, j.claimed_by) for j in await store.notify_jobs(5)] == [(86500.0, None)]


async def test_released_jobs_are_claimed_at_once_by_another_process(store):
    await store.hold_alert(5, 40, 1, 100.0)
    await store.claim_notify_jobs("a", now=100.0, lease=600.0)
    await store.release_notify_jobs("a")
    assert [j.claimed_by for j in await store.claim_notify_jobs("b", now=101.0, lease=15.0)] == ["b"]


async def test_two_connections_claiming_at_once_get_each_job_once(db_path):
    first = await Storage.open(db_path)
    second = await Storage.open(db_path)
    try:
        for user in range(20):
            await first.hold_alert(user + 1, 40, 0, 10.0)
        a, b = await asyncio.gather(
            first.claim_notify_jobs("a", now=20.0, lease=60.0, limit=15),
            second.claim_notify_jobs("b", now=20.0, lease=60.0, limit=15),
        )
        users = [j.user_id for j in a + b]
        assert sorted(users) == list(range(1, 21))
    finally:
        await first.close()
        await second.close()


async def test_the_games_of_a_player_are_their_running_games_where_they_still_sit(store):
    async def game(channel: int, *, start: bool, ai: bool = False) -> int:
        gid = await store.create_game(
            guild_id=1, channel_id=channel, game_key="x", options={}, seed=1, host_id=42
        )
        await store.add_seat(gid, user_id=42, is_ai=ai, name="Alice")
        await store.add_seat(gid, user_id=43, is_ai=False, name="Bob")
        if start:
            await store.start_game(gid, '{"players": 2}')
        return gid

    running = await game(500, start=True)
    await game(501, start=False)  # a lobby
    handed = await game(502, start=True, ai=True)  # their seat went to the AI
    assert await store.games_of_player(42) == [running]
    assert await store.games_of_player(43) == [running, handed]
    assert await store.games_of_player(44) == []


async def test_new_preferences_make_the_held_alerts_due_now_to_be_looked_at_again(store):
    await store.hold_alert(5, 40, 1, 5000.0)
    await store.hold_alert(6, 40, 0, 5000.0)
    await store.set_notify_prefs(5, Prefs(), None, now=100.0)  # quiet hours turned off
    assert [(j.user_id, j.due) for j in await store.notify_jobs()] == [(5, 100.0), (6, 5000.0)]


async def test_preferences_mark_their_persons_seats_in_lobbies_and_running_games_only(store):
    async def game(channel: int, status: str) -> int:
        gid = await store.create_game(
            guild_id=1, channel_id=channel, game_key="x", options={}, seed=1, host_id=42
        )
        await store.add_seat(gid, user_id=43, is_ai=False, name="Bob")
        await store.add_seat(gid, user_id=42, is_ai=False, name="Alice")
        if status != "lobby":
            await store.start_game(gid, '{"players": 2}')
        if status == "finished":
            await store.set_status(gid, "finished", {"winners": [0]})
        return gid

    lobby, running, finished = (
        await game(500, "lobby"),
        await game(501, "running"),
        await game(502, "finished"),
    )
    await store.set_message(running, "table", 501, 9)
    await store.set_notify_prefs(42, Prefs(route="dm"), None)
    assert (await store.messages(lobby)).get("notify:1") == (0, 1)
    assert await store.messages(running) == {"notify:1": (0, 1), "table": (501, 9)}
    assert await store.messages(finished) == {}
    await store.set_notify_prefs(42, Prefs(heads_up=True), None)  # marked still (and not twice)
    assert (await store.messages(running))["notify:1"] == (0, 1)
    await store.set_notify_prefs(42, Prefs(digest_at=60), None)  # no alert preferences: unmarked
    assert await store.messages(running) == {"table": (501, 9)}
    assert await store.messages(lobby) == {}
