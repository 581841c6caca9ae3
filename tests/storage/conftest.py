"""Fixtures of the storage tests: a real database of each backend and a tiny private game.

Every test that takes ``store`` or ``db_path`` runs twice: on a SQLite file in tmp_path and on a fresh
PostgreSQL database (marked ``postgres``; see tests/conftest.py for where the server comes from).
"""

from __future__ import annotations

import importlib.util
import random
import sqlite3
from pathlib import Path

import pytest

from bot.storage import Storage

FAKE_PATH = Path(__file__).resolve().parent / "_fakegame.py"


def _load_fake():
    spec = importlib.util.spec_from_file_location("storage_tests_fakegame", FAKE_PATH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_FAKE = _load_fake()


@pytest.fixture
def fake_path() -> Path:
    return FAKE_PATH


@pytest.fixture
def fake_spec():
    return _FAKE.SPEC


@pytest.fixture
def db_path(db_target):
    """What Storage.open takes: a SQLite file path, or a PostgreSQL URL (the ``backend`` parameter)."""
    return db_target


@pytest.fixture
def integrity_error(backend):
    """The driver's error for a broken constraint (CHECK, UNIQUE, FOREIGN KEY, the append-only trigger)."""
    if backend == "sqlite":
        return sqlite3.IntegrityError
    import asyncpg

    return asyncpg.IntegrityConstraintViolationError


@pytest.fixture
def migrations_dir(backend):
    from bot.storage import MIGRATIONS_DIR, PG_MIGRATIONS_DIR

    return MIGRATIONS_DIR if backend == "sqlite" else PG_MIGRATIONS_DIR


@pytest.fixture
def raw_sql(backend, db_target):
    """Run one SQL statement straight on the database, outside Storage: list of row tuples."""

    async def run(sql: str, *params):
        if backend == "sqlite":
            with sqlite3.connect(db_target) as con:
                return [tuple(r) for r in con.execute(sql, params).fetchall()]
        import asyncpg

        conn = await asyncpg.connect(db_target)
        try:
            return [tuple(r) for r in await conn.fetch(sql, *params)]
        finally:
            await conn.close()

    return run


@pytest.fixture
def sql(backend, raw_sql):
    """:func:`raw_sql` with ``?`` placeholders on either backend (PostgreSQL's ``$n`` made for it)."""
    from bot.storage import pg_sql

    async def run(text: str, *params):
        return await raw_sql(text if backend == "sqlite" else pg_sql(text), *params)

    return run


@pytest.fixture
def schema_objects(backend, raw_sql):
    """The names of the tables (kind "table") or indexes ("index") of the database."""

    async def names(kind: str) -> set[str]:
        if backend == "sqlite":
            rows = await raw_sql("SELECT name FROM sqlite_master WHERE type = ?", kind)
        elif kind == "table":
            rows = await raw_sql("SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")
        else:
            rows = await raw_sql("SELECT indexname FROM pg_indexes WHERE schemaname = current_schema()")
        return {r[0] for r in rows}

    return names


@pytest.fixture
async def store(db_path):
    s = await Storage.open(db_path)
    try:
        yield s
    finally:
        await s.close()


@pytest.fixture
def new_running_game(fake_spec):
    """Create a game with ``players`` seats in ``store``, start it; return (game_id, Game)."""

    async def make(
        store: Storage, *, players: int = 2, seed: int = 11, channel_id: int = 500, length: int = 10
    ):
        options = fake_spec.normalize_options({"length": length})
        gid = await store.create_game(
            guild_id=1, channel_id=channel_id, game_key=fake_spec.key, options=options, seed=seed, host_id=42
        )
        for s in range(players):
            await store.add_seat(gid, user_id=1000 + s, is_ai=False, name=f"P{s}")
        game = fake_spec.new(players, options, seed)
        await store.start_game(gid, game.to_json())
        return gid, game

    return make


@pytest.fixture
def play_moves():
    """Play ``n`` random legal moves of ``game`` through ``store`` (the host's order: apply, then record)."""

    async def play(store: Storage, gid: int, game, n: int, rng: random.Random | None = None) -> None:
        rng = rng or random.Random(0)
        for _ in range(n):
            if game.is_over:
                return
            seat = game.to_act()[0]
            action = rng.choice(game.legal_actions(seat))
            row = await store.get_game(gid)
            game.apply(seat, action)
            await store.record_action(
                gid,
                expected_version=row.version,
                seat=seat,
                action=action,
                state_json=game.to_json(),
                status="finished" if game.is_over else "running",
                result=game.result,
            )

    return play
