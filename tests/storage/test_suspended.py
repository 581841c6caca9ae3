"""The 'suspended' status (a game whose channel was deleted) and migration 0002 that allows it."""

from __future__ import annotations

import shutil

import pytest

from bot.storage import ChannelBusy, Storage, WrongStatus


async def _running(store: Storage, channel_id: int = 500) -> int:
    gid = await store.create_game(
        guild_id=1, channel_id=channel_id, game_key="x", options={"o": 1}, seed=3, host_id=42, turn_timeout=60
    )
    await store.add_seat(gid, user_id=42, is_ai=False, name="Alice")
    await store.add_seat(gid, user_id=None, is_ai=True, name="Nelson (AI)")
    await store.start_game(gid, '{"players": 2}', deadline=1234.5)
    return gid


async def test_suspended_status_blocks_nothing_and_can_only_be_abandoned(store):
    gid = await _running(store)
    await store.set_status(gid, "suspended")
    row = await store.get_game(gid)
    assert (row.status, row.deadline, row.active) == ("suspended", None, False)
    assert await store.active_game(500) is None
    assert await store.running_games() == []
    assert [g.id for g in await store.list_games(1, statuses=("suspended",))] == [gid]
    other = await store.create_game(guild_id=1, channel_id=500, game_key="x", options={}, seed=1, host_id=7)
    assert (await store.active_game(500)).id == other  # the place is free
    for status in ("running", "lobby", "finished"):
        with pytest.raises(WrongStatus):
            await store.set_status(gid, status)
    with pytest.raises(WrongStatus):
        await store.set_status(other, "suspended")  # a lobby is not suspended
    await store.set_status(gid, "abandoned")
    assert (await store.get_game(gid)).status == "abandoned"


async def test_migration_0002_keeps_every_game_and_allows_suspended(
    tmp_path, db_path, migrations_dir, integrity_error, backend, raw_sql, schema_objects
):
    old = tmp_path / "migrations"
    old.mkdir()
    shutil.copy(migrations_dir / "0001_initial.sql", old)
    path = db_path
    store = await Storage.open(path, migrations_dir=old)
    gid = await _running(store)
    await store.record_action(
        gid, expected_version=0, seat=0, action={"t": 1}, state_json='{"players": 2}', deadline=99.0
    )
    await store.set_message(gid, "board", 500, 9001)
    lobby = await store.create_game(guild_id=1, channel_id=600, game_key="y", options={}, seed=4, host_id=43)
    with pytest.raises(integrity_error):  # schema 1 does not know the status
        await store.set_status(gid, "suspended")
    before = [await store.get_game(gid), await store.get_game(lobby)]
    seats, actions = await store.seats(gid), await store.actions(gid)
    await store.close()

    store = await Storage.open(path)
    try:
        assert await store.schema_version() >= 2
        assert await store.integrity_check() == "ok"
        assert [await store.get_game(gid), await store.get_game(lobby)] == before
        assert await store.seats(gid) == seats and await store.actions(gid) == actions
        assert await store.messages(gid) == {"board": (500, 9001)}
        with pytest.raises(ChannelBusy):  # still one active game per place
            await store.create_game(guild_id=1, channel_id=600, game_key="y", options={}, seed=1, host_id=1)
        await store.set_status(gid, "suspended")
        assert (await store.get_game(gid)).status == "suspended"
        with pytest.raises(integrity_error):  # the CHECK still holds for anything else

            async def bad(db):
                await db.execute("UPDATE games SET status = 'paused' WHERE id = ?", (gid,))

            await store._write(bad)

        async def drop(db):  # the seats, actions and messages still belong to their game
            await db.execute("DELETE FROM games WHERE id = ?", (gid,))

        await store._write(drop)
        assert (
            await store.seats(gid) == []
            and await store.actions(gid) == []
            and await store.messages(gid) == {}
        )
    finally:
        await store.close()
    assert {"games_one_active_per_place", "games_status", "games_guild_status"} <= await schema_objects(
        "index"
    )
    if backend == "sqlite":
        assert await raw_sql("PRAGMA foreign_key_check") == []
