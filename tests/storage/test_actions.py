"""The action log: append, versions, stale versions, concurrency, replay equals snapshot."""

from __future__ import annotations

import asyncio
import dataclasses
import random

import pytest

from bot.games import registry
from bot.storage import (
    ActionRow,
    NoSuchGame,
    StaleVersion,
    Storage,
    WrongStatus,
    rebuild,
    replay_matches,
)


async def _counts(store, gid):
    row = await store.get_game(gid)
    return row.version, len(await store.actions(gid))


async def test_record_action_appends_and_bumps_version(store, new_running_game, fake_spec):
    gid, game = await new_running_game(store)
    await store.mark_reminded(gid)
    snapshots = []
    for expected in range(3):
        seat = game.to_act()[0]
        action = {"type": "add", "n": expected + 1}
        game.apply(seat, action)
        snapshots.append(game.to_json())
        new = await store.record_action(
            gid,
            expected_version=expected,
            seat=seat,
            action=action,
            state_json=game.to_json(),
            deadline=500.0 + expected,
        )
        assert new == expected + 1
        row = await store.get_game(gid)
        assert (row.version, row.state_json, row.deadline, row.reminded) == (
            new,
            snapshots[-1],
            500.0 + expected,
            False,
        )
    log = await store.actions(gid)
    assert [(a.seq, a.action) for a in log] == [
        (1, {"type": "add", "n": 1}),
        (2, {"type": "add", "n": 2}),
        (3, {"type": "add", "n": 3}),
    ]
    assert all(isinstance(a, ActionRow) and a.game_id == gid and a.created_at > 0 for a in log)
    assert [a.seq for a in await store.actions(gid, since=2)] == [3]
    assert fake_spec.from_json((await store.get_game(gid)).state_json).to_json() == game.to_json()


async def test_stale_expected_version_raises_and_writes_nothing(store, new_running_game):
    gid, game = await new_running_game(store)
    seat = game.to_act()[0]
    game.apply(seat, {"type": "add", "n": 1})
    await store.record_action(
        gid, expected_version=0, seat=seat, action={"type": "add", "n": 1}, state_json=game.to_json()
    )
    before = await store.get_game(gid)
    for stale in (0, 2, -1):
        with pytest.raises(StaleVersion) as err:
            await store.record_action(
                gid,
                expected_version=stale,
                seat=1 - seat,
                action={"type": "add", "n": 3},
                state_json='{"bad": 1}',
            )
        assert (err.value.expected, err.value.current) == (stale, 1)
    assert await store.get_game(gid) == before  # snapshot, version, updated_at: untouched
    assert len(await store.actions(gid)) == 1
    with pytest.raises(NoSuchGame):
        await store.record_action(999, expected_version=0, seat=0, action={"type": "x"}, state_json="{}")


async def test_error_inside_the_transaction_writes_nothing(store, new_running_game, integrity_error):
    gid, _game = await new_running_game(store)
    before = await store.get_game(gid)
    with pytest.raises(integrity_error):  # the snapshot is not JSON: CHECK fails after the INSERT
        await store.record_action(
            gid, expected_version=0, seat=0, action={"type": "add", "n": 1}, state_json="{not json"
        )
    assert await store.get_game(gid) == before
    assert await store.actions(gid) == []
    assert not store.in_transaction
    assert (
        await store.record_action(
            gid, expected_version=0, seat=0, action={"type": "add", "n": 1}, state_json="{}"
        )
        == 1
    )


async def test_actions_only_on_running_games(store, new_running_game, fake_spec):
    gid = await store.create_game(
        guild_id=1, channel_id=1, game_key=fake_spec.key, options={"length": 3}, seed=1, host_id=1
    )
    with pytest.raises(WrongStatus):
        await store.record_action(
            gid, expected_version=0, seat=0, action={"type": "add", "n": 1}, state_json="{}"
        )
    run, _ = await new_running_game(store, channel_id=2)
    await store.record_action(
        run,
        expected_version=0,
        seat=0,
        action={"type": "add", "n": 1},
        state_json="{}",
        status="finished",
        deadline=99.0,
        result={"winners": [0]},
    )
    row = await store.get_game(run)
    assert (row.status, row.deadline, row.result, row.version) == ("finished", None, {"winners": [0]}, 1)
    with pytest.raises(WrongStatus):
        await store.record_action(
            run, expected_version=1, seat=1, action={"type": "add", "n": 1}, state_json="{}"
        )
    with pytest.raises(ValueError):
        await store.record_action(
            run, expected_version=1, seat=1, action={"type": "x"}, state_json="{}", status="lobby"
        )


async def test_the_action_log_is_append_only(store, new_running_game, integrity_error):
    gid, _ = await new_running_game(store)
    await store.record_action(
        gid, expected_version=0, seat=0, action={"type": "add", "n": 1}, state_json="{}"
    )

    async def rewrite(db):
        await db.execute('UPDATE actions SET action = \'{"type": "cheat"}\' WHERE game_id = ?', (gid,))

    with pytest.raises(integrity_error, match="append-only"):
        await store._write(rewrite)
    assert (await store.actions(gid))[0].action == {"type": "add", "n": 1}


async def test_concurrent_record_action_same_version_exactly_one_wins(store, new_running_game):
    gid, _ = await new_running_game(store)
    attempts = [
        store.record_action(
            gid, expected_version=0, seat=0, action={"type": "add", "n": n}, state_json=f'{{"by": {n}}}'
        )
        for n in range(8)
    ]
    outcomes = await asyncio.gather(*attempts, return_exceptions=True)
    winners = [i for i, o in enumerate(outcomes) if o == 1]
    assert len(winners) == 1
    assert all(isinstance(o, StaleVersion) for i, o in enumerate(outcomes) if i not in winners)
    (n,) = winners
    row = await store.get_game(gid)
    assert (row.version, row.state) == (1, {"by": n})
    assert [a.action for a in await store.actions(gid)] == [{"type": "add", "n": n}]


async def test_two_connections_on_one_database_exactly_one_wins(db_path, store, new_running_game):
    gid, _ = await new_running_game(store)
    other = await Storage.open(db_path)
    try:
        for version in range(5):  # each round both connections race for the same version
            outcomes = await asyncio.gather(
                store.record_action(
                    gid,
                    expected_version=version,
                    seat=0,
                    action={"type": "add", "n": 1},
                    state_json='{"c": 1}',
                ),
                other.record_action(
                    gid,
                    expected_version=version,
                    seat=0,
                    action={"type": "add", "n": 2},
                    state_json='{"c": 2}',
                ),
                return_exceptions=True,
            )
            assert sorted(type(o).__name__ for o in outcomes) == ["StaleVersion", "int"]
        assert await _counts(store, gid) == (5, 5)
        assert await _counts(other, gid) == (5, 5)
    finally:
        await other.close()


async def test_cancelled_caller_leaves_a_whole_transaction(store, new_running_game):
    gid, _ = await new_running_game(store)
    cancelled = 0
    for i in range(20):
        task = asyncio.ensure_future(
            store.record_action(
                gid, expected_version=i, seat=0, action={"type": "add", "n": 1}, state_json=f'{{"i": {i}}}'
            )
        )
        await asyncio.sleep(0)
        task.cancel()
        try:
            await task
        except asyncio.CancelledError:
            cancelled += 1
        # the caller was cancelled mid-flight, but its transaction finished as a whole (committed),
        # and the lock is free again
        assert await _counts(store, gid) == (i + 1, i + 1)
    assert cancelled == 20  # every caller was cancelled while its transaction was in flight
    assert await _counts(store, gid) == (20, 20)
    assert not store.in_transaction


async def test_replay_equals_snapshot(store, new_running_game, play_moves, fake_spec):
    gid, game = await new_running_game(store, players=3, length=40, seed=2024)
    rng = random.Random(5)
    for _ in range(8):  # check at several points, not only at the end
        await play_moves(store, gid, game, 5, rng)
        row = await store.get_game(gid)
        log = await store.actions(gid)
        rebuilt = rebuild(row, log, await store.seats(gid), spec=fake_spec)
        assert rebuilt.to_json() == row.state_json == game.to_json()
        assert replay_matches(row, log, spec=fake_spec)
    row = await store.get_game(gid)
    assert row.status == "finished" and row.version == 40
    assert row.result == game.result and row.result is not None
    assert (
        rebuild(row, await store.actions(gid), spec=fake_spec).result == row.result
    )  # players from the snapshot


async def test_replay_detects_a_wrong_log(store, new_running_game, play_moves, fake_spec):
    gid, game = await new_running_game(store, length=10)
    await play_moves(store, gid, game, 6)
    row = await store.get_game(gid)
    log = await store.actions(gid)
    assert not replay_matches(row, log[:-1], spec=fake_spec)  # a missing action
    other_n = 1 if log[2].action["n"] != 1 else 2
    changed = [*log[:2], ActionRow(gid, 3, log[2].seat, {"type": "add", "n": other_n}, 0.0), *log[3:]]
    assert not replay_matches(row, changed, spec=fake_spec)  # a different action
    with pytest.raises(ValueError, match="seq"):
        rebuild(row, log[1:], spec=fake_spec)
    with pytest.raises(ValueError, match="cannot rebuild"):
        rebuild(dataclasses.replace(row, game_key="other"), log, spec=fake_spec)


@pytest.mark.skipif("enemy-lines" not in registry, reason="the enemy-lines game is not written yet")
async def test_replay_equals_snapshot_enemy_lines(store):
    spec = registry.get("enemy-lines")
    options = spec.normalize_options({})
    gid = await store.create_game(
        guild_id=1, channel_id=77, game_key=spec.key, options=options, seed=31, host_id=1
    )
    await store.add_seat(gid, user_id=1, is_ai=False, name="Red")
    await store.add_seat(gid, user_id=None, is_ai=True, name="Blue")
    game = spec.new(2, options, 31)
    await store.start_game(gid, game.to_json())
    rng = random.Random(8)
    for _ in range(300):
        if game.is_over:
            break
        seat = game.to_act()[0]
        action = rng.choice(game.legal_actions(seat))
        version = (await store.get_game(gid)).version
        game.apply(seat, action)
        await store.record_action(
            gid,
            expected_version=version,
            seat=seat,
            action=action,
            state_json=game.to_json(),
            status="finished" if game.is_over else "running",
            result=game.result,
        )
    row = await store.get_game(gid)
    rebuilt = rebuild(row, await store.actions(gid), await store.seats(gid))
    assert rebuilt.to_json() == row.state_json == game.to_json()
