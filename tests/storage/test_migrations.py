"""Migrations: from empty to the current version, idempotent reopening, one transaction each.

On both backends (SQLite: PRAGMA user_version; PostgreSQL: the schema_version table), plus the
things only one of them has (WAL and PRAGMAs; the dialects' migration files kept in step)."""

from __future__ import annotations

import shutil
import sqlite3

import pytest

from bot.storage import (
    MIGRATIONS_DIR,
    PG_MIGRATIONS_DIR,
    PostgresStorage,
    SqliteStorage,
    Storage,
    StorageError,
    is_postgres_url,
    load_migrations,
    pg_sql,
    split_sql,
)

TABLES = {"games", "seats", "actions", "messages", "meta", "log"}


@pytest.fixture
def version_on_disk(backend, raw_sql):
    async def read() -> int:
        if backend == "sqlite":
            return (await raw_sql("PRAGMA user_version"))[0][0]
        return (await raw_sql("SELECT version FROM schema_version"))[0][0]

    return read


@pytest.fixture
def set_version(backend, raw_sql):
    async def write(n: int) -> None:
        if backend == "sqlite":
            await raw_sql(f"PRAGMA user_version = {n}")
        else:
            await raw_sql("UPDATE schema_version SET version = $1", n)

    return write


@pytest.fixture
def broken_sql_error(backend):
    if backend == "sqlite":
        return sqlite3.OperationalError
    import asyncpg

    return asyncpg.PostgresError


async def test_migrations_from_empty_give_current_version_and_tables(
    db_path, backend, migrations_dir, version_on_disk, schema_objects
):
    store = await Storage.open(db_path)
    try:
        assert store.backend == backend
        assert isinstance(store, SqliteStorage if backend == "sqlite" else PostgresStorage)
        current = len(load_migrations(migrations_dir, split=backend == "sqlite"))
        assert current >= 1
        assert await store.schema_version() == current
        assert await store.integrity_check() == "ok"
    finally:
        await store.close()
    assert TABLES <= await schema_objects("table")
    assert await version_on_disk() == current
    assert "games_one_active_per_place" in await schema_objects("index")


def test_both_dialects_have_the_same_migrations():
    """Schema version N means the same schema on both backends."""
    sqlite_names = [m.name for m in load_migrations(MIGRATIONS_DIR)]
    pg_names = [m.name for m in load_migrations(PG_MIGRATIONS_DIR, split=False)]
    assert sqlite_names == pg_names


def test_the_factory_tells_urls_from_paths():
    assert is_postgres_url("postgresql://u:p@db.example:5432/admiralty")
    assert is_postgres_url("postgres://localhost/admiralty")
    assert not is_postgres_url("admiralty.db")
    assert not is_postgres_url("/var/lib/admiralty/postgresql.db")
    assert pg_sql("SELECT ? WHERE x = '?' AND y = ?") == "SELECT $1 WHERE x = '?' AND y = $2"


async def test_wal_foreign_keys_and_busy_timeout_are_on(tmp_path):
    path = tmp_path / "a.db"
    store = await Storage.open(path)
    try:
        assert (await store._fetchall("PRAGMA foreign_keys"))[0][0] == 1
        assert (await store._fetchall("PRAGMA busy_timeout"))[0][0] == 5000
        assert (await store._fetchall("PRAGMA synchronous"))[0][0] == 1  # NORMAL
    finally:
        await store.close()
    with sqlite3.connect(path) as con:  # WAL is a property of the file: another connection sees it
        assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


async def test_foreign_keys_are_enforced(store, integrity_error):
    async def orphan(db):
        await db.execute("INSERT INTO seats (game_id, seat, is_ai, name) VALUES (999, 0, 1, 'ghost')")

    with pytest.raises(integrity_error):
        await store._write(orphan)
    assert await store.seats(999) == []


async def test_open_creates_missing_parent_directories(tmp_path):
    path = tmp_path / "data" / "nested" / "bot.db"
    store = await Storage.open(path)
    await store.close()
    assert path.exists()


async def test_synchronous_full_can_be_chosen(tmp_path):
    path = tmp_path / "s.db"
    store = await Storage.open(path, synchronous="full")
    try:
        assert (await store._fetchall("PRAGMA synchronous"))[0][0] == 2  # FULL
    finally:
        await store.close()
    with pytest.raises(ValueError):
        await Storage.open(path, synchronous="sometimes")


async def test_reopening_is_idempotent(db_path, version_on_disk):
    store = await Storage.open(db_path)
    gid = await store.create_game(guild_id=1, channel_id=2, game_key="x", options={}, seed=1, host_id=3)
    version = await store.schema_version()
    await store.close()
    for _ in range(3):
        store = await Storage.open(db_path)
        assert await store.schema_version() == version
        assert (await store.get_game(gid)).game_key == "x"
        await store.close()
    assert await version_on_disk() == version


def _copy_migrations(tmp_path, migrations_dir):
    mig = tmp_path / "migrations"
    shutil.copytree(migrations_dir, mig)
    return mig


async def test_reopening_applies_only_new_migrations(tmp_path, db_path, migrations_dir, schema_objects):
    mig = _copy_migrations(tmp_path, migrations_dir)
    store = await Storage.open(db_path, migrations_dir=mig)
    base = await store.schema_version()
    await store.close()
    # if an old migration ran again, this broken text would fail the open
    (mig / "0001_initial.sql").write_text("THIS IS NOT SQL;")
    (mig / f"{base + 1:04d}_extra.sql").write_text(
        "-- a new table and a row\nCREATE TABLE extra (x INTEGER);\nINSERT INTO meta (key, value) VALUES ('m', 'v;1');\n"
    )
    store = await Storage.open(db_path, migrations_dir=mig)
    try:
        assert await store.schema_version() == base + 1
        assert await store.get_meta("m") == "v;1"
    finally:
        await store.close()
    assert "extra" in await schema_objects("table")


async def test_failed_migration_rolls_back_whole(
    tmp_path, db_path, migrations_dir, version_on_disk, schema_objects, broken_sql_error
):
    mig = _copy_migrations(tmp_path, migrations_dir)
    await (await Storage.open(db_path, migrations_dir=mig)).close()
    base = await version_on_disk()
    (mig / f"{base + 1:04d}_broken.sql").write_text(
        "CREATE TABLE half (x INTEGER);\nINSERT INTO no_such_table VALUES (1);\n"
    )
    with pytest.raises(broken_sql_error):
        await Storage.open(db_path, migrations_dir=mig)
    assert await version_on_disk() == base
    assert "half" not in await schema_objects("table")


async def test_database_newer_than_code_is_refused(db_path, set_version):
    await (await Storage.open(db_path)).close()
    await set_version(9999)
    with pytest.raises(StorageError, match="newer"):
        await Storage.open(db_path)


async def test_a_damaged_schema_version_is_refused(db_path, backend, raw_sql, set_version):
    await (await Storage.open(db_path)).close()
    if backend == "sqlite":
        await set_version(0)  # the tables are there, their version is gone
    else:
        await raw_sql(
            "INSERT INTO schema_version (version, only_row) VALUES (1, true) ON CONFLICT DO NOTHING"
        )  # the one row holds: then drop it
        await raw_sql("DELETE FROM schema_version")
    with pytest.raises(StorageError, match="damaged"):
        await Storage.open(db_path)
    if backend == "postgres":
        await raw_sql("DROP TABLE schema_version")
        with pytest.raises(StorageError, match="damaged"):
            await Storage.open(db_path)


async def test_a_file_that_is_not_a_database_is_refused(tmp_path):
    path = tmp_path / "junk.db"
    path.write_bytes(b"this is not SQLite at all, " * 100)
    with pytest.raises(StorageError, match="is not an SQLite database"):
        await Storage.open(path)


async def test_an_unreachable_server_is_a_clear_error():
    import socket

    with socket.socket() as s:  # a port with nobody listening
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(StorageError, match="cannot connect to PostgreSQL") as err:
        await Storage.open(f"postgresql://someone:secret@127.0.0.1:{port}/nothing", timeout=5)
    assert "secret" not in str(err.value)


def test_migration_files_are_numbered_without_gaps(tmp_path):
    migrations = load_migrations()
    assert [m.number for m in migrations] == list(range(1, len(migrations) + 1))
    (tmp_path / "0001_a.sql").write_text("SELECT 1;")
    (tmp_path / "0003_c.sql").write_text("SELECT 1;")
    with pytest.raises(ValueError, match="without gaps"):
        load_migrations(tmp_path)


def test_split_sql_keeps_trigger_bodies_and_quoted_semicolons():
    script = (
        "-- head\nCREATE TABLE t (x TEXT);\n"
        "CREATE TRIGGER tr BEFORE UPDATE ON t BEGIN SELECT RAISE(ABORT, 'no; never'); END;\n"
        "INSERT INTO t VALUES ('a;b');\n-- tail comment\n"
    )
    parts = split_sql(script)
    assert len(parts) == 3
    assert parts[1].startswith("CREATE TRIGGER") and parts[1].endswith("END;")
    with pytest.raises(ValueError, match="incomplete"):
        split_sql("SELECT 1; SELECT 2")


async def test_migration_0007_keeps_every_game_and_checks_only_the_snapshots_shape(
    tmp_path, db_path, migrations_dir, integrity_error, schema_objects, raw_sql
):
    old = tmp_path / "upto6"
    old.mkdir()
    for path in sorted(migrations_dir.glob("000[1-6]_*.sql")):
        shutil.copy(path, old)
    store = await Storage.open(db_path, migrations_dir=old)
    big = '{"board": [' + ",".join(["[1, 2, 3]"] * 2000) + "]}"
    gid = await store.create_game(
        guild_id=1, channel_id=700, game_key="x", options={"a": 1}, seed=3, host_id=42, turn_timeout=60
    )
    await store.add_seat(gid, user_id=42, is_ai=False, name="Alice")
    await store.start_game(gid, big, deadline=500.0)
    before = await store.get_game(gid)
    await store.close()

    store = await Storage.open(db_path)
    try:
        assert await store.schema_version() >= 7
        assert await store.get_game(gid) == before, "a game changed in the migration"
        assert [s.name for s in await store.seats(gid)] == ["Alice"]
        assert {"games_one_active_per_place", "games_status", "games_guild_status"} <= await schema_objects(
            "index"
        )
        with pytest.raises(integrity_error):  # a snapshot cut short is still refused
            await store.record_action(gid, expected_version=0, seat=0, action={"t": 1}, state_json=big[:-1])
        assert (
            await store.record_action(gid, expected_version=0, seat=0, action={"t": 1}, state_json=big) == 1
        )
        with pytest.raises(integrity_error):  # a snapshot is one JSON object
            await store.record_action(gid, expected_version=1, seat=0, action={"t": 1}, state_json="[]")
        assert (await store.get_game(gid)).version == 1
    finally:
        await store.close()
    with pytest.raises(integrity_error):  # the index (one active game per place) came back with the table
        await raw_sql(
            "INSERT INTO games (channel_id, game_key, seed, status, created_at, updated_at) "
            "VALUES (700, 'x', 1, 'lobby', 0, 0)"
        )
    with pytest.raises(integrity_error):  # and the options keep their full JSON check
        await raw_sql(
            "INSERT INTO games (channel_id, game_key, options, seed, created_at, updated_at) "
            "VALUES (701, 'x', '{no', 1, 0, 0)"
        )
