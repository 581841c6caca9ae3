"""Fixtures shared by every test directory: the database backends.

``db_target`` is what ``Storage.open`` gets: a SQLite file in tmp_path, or (the ``postgres``
parameter, marked ``postgres``) the URL of a fresh schema (search_path) on a PostgreSQL server
(ADMIRALTY_TEST_DATABASE_URL, or a throw-away server started once per session: tests/pg.py).
Without PostgreSQL the postgres parameters are skipped with the reason, unless
ADMIRALTY_REQUIRE_POSTGRES=1 (CI), where they fail. ADMIRALTY_TEST_BACKENDS=sqlite (or postgres)
runs one backend only.

The end-to-end tests (tests/e2e) run the whole bot on ``e2e_database``: a SQLite file, or with
ADMIRALTY_TEST_E2E_BACKEND=postgres a PostgreSQL schema (that run keeps only the tests that use it:
`make test` runs it after the main run).
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests import pg  # noqa: E402

_ALL = ("sqlite", "postgres")
BACKENDS = tuple(b for b in _ALL if b in os.environ.get("ADMIRALTY_TEST_BACKENDS", ",".join(_ALL)).split(","))
E2E_BACKEND = os.environ.get("ADMIRALTY_TEST_E2E_BACKEND", "sqlite").strip() or "sqlite"
BACKEND_PARAMS = [pytest.param(b, marks=pytest.mark.postgres) if b == "postgres" else b for b in BACKENDS]


def pytest_configure(config):
    # SIGTERM (a CI job cancelled, `kill`, tests/gate.py passing one on) ends a run the way Ctrl-C does:
    # fixtures are torn down (the PostgreSQL server stops), pytest-xdist stops its workers, and the
    # summary so far is printed. (If the process dies harder, tests/pg.py's watchdog still stops the server.)
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGTERM, _interrupt)


def _interrupt(signum, frame):
    raise KeyboardInterrupt(f"signal {signum}")


@pytest.fixture(scope="session")
def pg_server():
    """The admin URL of a PostgreSQL server (skips, or fails under ADMIRALTY_REQUIRE_POSTGRES=1)."""
    try:
        url, server = pg.start()
    except pg.Unavailable as err:
        if os.environ.get("ADMIRALTY_REQUIRE_POSTGRES") == "1":
            pytest.fail(f"PostgreSQL is required (ADMIRALTY_REQUIRE_POSTGRES=1) but unavailable: {err}")
        pytest.skip(f"PostgreSQL unavailable: {err}")
    try:
        yield url
    finally:
        if server is not None:
            server.stop()


@pytest.fixture
async def pg_url(pg_server):
    """A fresh schema on the test PostgreSQL server (dropped at the end): a URL for Storage.open."""
    url, name = await pg.create_schema(pg_server)
    try:
        yield url
    finally:
        await pg.drop_schema(pg_server, name)


@pytest.fixture(params=BACKEND_PARAMS)
def backend(request) -> str:
    return request.param


@pytest.fixture
async def db_target(backend, tmp_path, request):
    """What Storage.open takes, for the backend of this parameter: a file path or a URL."""
    if backend == "sqlite":
        yield tmp_path / "admiralty.db"
        return
    server = request.getfixturevalue("pg_server")  # a sync fixture: fine from here
    url, name = await pg.create_schema(server)
    try:
        yield url
    finally:
        await pg.drop_schema(server, name)


@pytest.fixture
async def e2e_database(tmp_path, request):
    """The ADMIRALTY_DB of an end-to-end test's bot (the same for every restart within the test)."""
    if E2E_BACKEND == "sqlite":
        yield tmp_path / "e2e.db"
        return
    server = request.getfixturevalue("pg_server")
    url, name = await pg.create_schema(server)
    try:
        yield url
    finally:
        await pg.drop_schema(server, name)


def pytest_collection_modifyitems(config, items):
    if E2E_BACKEND == "sqlite":
        return
    if E2E_BACKEND != "postgres":
        raise pytest.UsageError(f"ADMIRALTY_TEST_E2E_BACKEND must be sqlite or postgres, not {E2E_BACKEND!r}")
    # the PostgreSQL run of the end-to-end tests: only those that store through e2e_database
    keep = [item for item in items if "e2e_database" in getattr(item, "fixturenames", ())]
    dropped = [item for item in items if item not in keep]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = keep
    for item in keep:
        item.add_marker(pytest.mark.postgres)
