"""Migrations: from empty to the current version, idempotent reopening, one transaction each."""

from __future__ import annotations

import shutil
import sqlite3

import pytest

from bot.storage import MIGRATIONS_DIR, Storage, StorageError, load_migrations, split_sql

TABLES = {"games", "seats", "actions", "messages", "meta"}


def _tables(path) -> set[str]:
    with sqlite3.connect(path) as con:
        return {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def _user_version(path) -> int:
    with sqlite3.connect(path) as con:
        return con.execute("PRAGMA user_version").fetchone()[0]


async def test_migrations_from_empty_give_current_version_and_tables(db_path):
    assert not db_path.exists()
    store = await Storage.open(db_path)
    try:
        current = len(load_migrations())
        assert current >= 1
        assert await store.schema_version() == current
        assert await store.integrity_check() == "ok"
    finally:
        await store.close()
    assert TABLES <= _tables(db_path)
    assert _user_version(db_path) == current
    with sqlite3.connect(db_path) as con:  # WAL is a property of the file: another connection sees it
        assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        indexes = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
    assert "games_one_active_per_place" in indexes


async def test_open_creates_missing_parent_directories(tmp_path):
    path = tmp_path / "data" / "nested" / "bot.db"
    store = await Storage.open(path)
    await store.close()
    assert path.exists()


async def test_foreign_keys_and_busy_timeout_are_on(store):
    assert (await store._fetchall("PRAGMA foreign_keys"))[0][0] == 1
    assert (await store._fetchall("PRAGMA busy_timeout"))[0][0] == 5000
    assert (await store._fetchall("PRAGMA synchronous"))[0][0] == 1  # NORMAL

    async def orphan(db):
        await db.execute("INSERT INTO seats (game_id, seat, is_ai, name) VALUES (999, 0, 1, 'ghost')")

    with pytest.raises(sqlite3.IntegrityError):
        await store._write(orphan)
    assert await store.seats(999) == []


async def test_synchronous_full_can_be_chosen(db_path):
    store = await Storage.open(db_path, synchronous="full")
    try:
        assert (await store._fetchall("PRAGMA synchronous"))[0][0] == 2  # FULL
    finally:
        await store.close()
    with pytest.raises(ValueError):
        await Storage.open(db_path, synchronous="sometimes")


async def test_reopening_is_idempotent(db_path):
    store = await Storage.open(db_path)
    gid = await store.create_game(guild_id=1, channel_id=2, game_key="x", options={}, seed=1, host_id=3)
    version = await store.schema_version()
    await store.close()
    for _ in range(3):
        store = await Storage.open(db_path)
        assert await store.schema_version() == version
        assert (await store.get_game(gid)).game_key == "x"
        await store.close()
    assert _user_version(db_path) == version


def _copy_migrations(tmp_path):
    mig = tmp_path / "migrations"
    shutil.copytree(MIGRATIONS_DIR, mig)
    return mig


async def test_reopening_applies_only_new_migrations(tmp_path):
    mig = _copy_migrations(tmp_path)
    path = tmp_path / "m.db"
    store = await Storage.open(path, migrations_dir=mig)
    base = await store.schema_version()
    await store.close()
    # if an old migration ran again, this broken text would fail the open
    (mig / "0001_initial.sql").write_text("THIS IS NOT SQL;")
    (mig / f"{base + 1:04d}_extra.sql").write_text(
        "-- a new table and a row\nCREATE TABLE extra (x INTEGER);\nINSERT INTO meta (key, value) VALUES ('m', 'v;1');\n"
    )
    store = await Storage.open(path, migrations_dir=mig)
    try:
        assert await store.schema_version() == base + 1
        assert await store.get_meta("m") == "v;1"
    finally:
        await store.close()
    assert "extra" in _tables(path)


async def test_failed_migration_rolls_back_whole(tmp_path):
    mig = _copy_migrations(tmp_path)
    path = tmp_path / "m.db"
    await (await Storage.open(path, migrations_dir=mig)).close()
    base = _user_version(path)
    (mig / f"{base + 1:04d}_broken.sql").write_text(
        "CREATE TABLE half (x INTEGER);\nINSERT INTO no_such_table VALUES (1);\n"
    )
    with pytest.raises(sqlite3.OperationalError):
        await Storage.open(path, migrations_dir=mig)
    assert _user_version(path) == base
    assert "half" not in _tables(path)


async def test_database_newer_than_code_is_refused(db_path):
    await (await Storage.open(db_path)).close()
    with sqlite3.connect(db_path) as con:
        con.execute("PRAGMA user_version = 9999")
    with pytest.raises(StorageError, match="newer"):
        await Storage.open(db_path)


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
