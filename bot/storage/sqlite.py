"""The SQLite backend (the default): one file, WAL, one aiosqlite connection; see bot.storage.base."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Awaitable, Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import aiosqlite

from bot import metrics
from bot.storage.base import Storage
from bot.storage.core import _EXEC, _ONE, Steps, T, _Retry
from bot.storage.errors import DatabaseUnusable, StorageError
from bot.storage.migrations import MIGRATIONS_DIR, Migration, load_migrations

_SYNCHRONOUS = ("OFF", "NORMAL", "FULL", "EXTRA")


def _unusable(path: str, error: sqlite3.DatabaseError) -> DatabaseUnusable:
    """The sentence for an SQLite error met while opening ``path``."""
    name = getattr(error, "sqlite_errorname", "")
    if name == "SQLITE_NOTADB":
        return DatabaseUnusable(
            f"{path} is not an SQLite database (SQLite says: {error}); set ADMIRALTY_DB "
            "to the right file, or move this one away to start with an empty database"
        )
    if name.startswith("SQLITE_CORRUPT"):
        return _damaged(path, str(error))
    if name.startswith(("SQLITE_BUSY", "SQLITE_LOCKED")):
        return DatabaseUnusable(
            f"{path} is in use by another program (SQLite says: {error}); stop it "
            "(another Admiralty?) and start again"
        )
    return DatabaseUnusable(
        f"cannot open {path} (SQLite says: {error}); check that it is a database file "
        "that this user may read and write"
    )


def _damaged(path: str, detail: str) -> DatabaseUnusable:
    return DatabaseUnusable(
        f"{path} is damaged (SQLite says: {detail}); restore it from a backup, or move it "
        "away to start with an empty database (the file was left as it is)"
    )


class SqliteStorage(Storage):
    """One SQLite file in WAL mode, one aiosqlite connection (see the module's docstring)."""

    backend = "sqlite"
    _IS = "IS"

    def __init__(self, db: aiosqlite.Connection, path: str):
        super().__init__()
        self._db = db
        self.path = path
        self._lock = asyncio.Lock()
        self._closed = False

    @classmethod
    # Storage.open dispatches any target with any backend's options; a backend takes only its own.
    async def open(  # type: ignore[override]
        cls,
        path: str | Path,
        *,
        synchronous: str = "NORMAL",
        busy_timeout: float = 5.0,
        migrations_dir: str | Path | None = None,
    ) -> SqliteStorage:
        """Open (or create) the database file, switch it to WAL and apply new migrations.

        A file that is not a database, is damaged (``PRAGMA quick_check``), was written by a newer
        Admiralty or cannot be opened raises :class:`DatabaseUnusable` before anything is written to it."""
        synchronous = synchronous.upper()
        if synchronous not in _SYNCHRONOUS:
            raise ValueError(f"synchronous must be one of {_SYNCHRONOUS}")
        migrations = load_migrations(migrations_dir or MIGRATIONS_DIR)
        memory = str(path) == ":memory:"
        if not memory:
            try:
                Path(path).parent.mkdir(parents=True, exist_ok=True)
            except OSError as e:
                raise DatabaseUnusable(
                    f"cannot create the folder of {path} ({e.strerror}); set ADMIRALTY_DB "
                    "to a path this user may write"
                ) from None
        conn = aiosqlite.connect(str(path), isolation_level=None)
        # aiosqlite's worker thread is not a daemon: a Storage that is never closed would keep the
        # interpreter from exiting (Ctrl-C would hang). Dying with an open transaction is safe (WAL).
        worker = getattr(conn, "_thread", None)
        if worker is not None and not worker.is_alive():
            worker.daemon = True
        try:
            db = await conn
        except sqlite3.DatabaseError as e:
            raise _unusable(str(path), e) from None
        if worker is not None:  # all that thread does is SQLite: its CPU is the storage's
            metrics.cpu_thread("storage", worker)
        try:
            db.row_factory = sqlite3.Row
            await db.execute(f"PRAGMA busy_timeout = {int(busy_timeout * 1000)}")
            try:
                await cls._check_file(db, str(path), memory, len(migrations))
                rows = list(await db.execute_fetchall("PRAGMA journal_mode = WAL"))
            except sqlite3.DatabaseError as e:
                raise _unusable(str(path), e) from None
            mode = rows[0][0].lower()
            if mode != "wal" and not memory:
                raise StorageError(f"could not switch {path} to WAL mode (journal_mode is {mode})")
            await db.execute(f"PRAGMA synchronous = {synchronous}")
            storage = cls(db, str(path))
            await storage._migrate(migrations)
            await db.execute("PRAGMA foreign_keys = ON")
            if list(await db.execute_fetchall("PRAGMA foreign_keys"))[0][0] != 1:
                raise StorageError("this SQLite build cannot enforce foreign keys")
        except BaseException:
            await db.close()
            raise
        return storage

    @staticmethod
    async def _check_file(db: aiosqlite.Connection, path: str, memory: bool, known: int) -> None:
        """Read-only checks of a file before anything is written to it (switching to WAL already writes
        its header): that it is a database, of a schema this code knows, and sound."""
        version = await SqliteStorage._user_version(db)  # "file is not a database" shows here
        pages = list(await db.execute_fetchall("PRAGMA page_count"))[0][0]
        if not memory and pages == 0 and Path(path).is_file() and Path(path).stat().st_size > 0:
            # SQLite takes a file shorter than its header for an empty database, and would write over it.
            raise DatabaseUnusable(
                f"{path} is not an SQLite database (it is shorter than a database header: "
                "truncated?); restore it from a backup, or move it away to start with "
                "an empty database"
            )
        if version > known:
            raise DatabaseUnusable(
                f"{path} was written by a newer Admiralty (schema version {version}, this "
                f"one knows up to {known}); run the newer Admiralty, or restore a backup "
                "made with this one (the file was left as it is)"
            )
        problems = [str(r[0]) for r in await db.execute_fetchall("PRAGMA quick_check") if r[0] != "ok"]
        if problems:
            raise _damaged(path, problems[0])

    async def close(self) -> None:
        if self._closed:
            return
        async with self._lock:
            self._closed = True
            try:
                await self._db.execute("PRAGMA optimize")
            finally:
                await self._db.close()

    async def _migrate(self, migrations: Sequence[Migration]) -> None:
        db = self._db
        async with self._lock:
            await db.execute("PRAGMA foreign_keys = OFF")
            current = await self._user_version(db)
            if current < 0:
                raise StorageError(f"{self.path}: schema version {current} is not valid; the file is damaged")
            if current == 0 and await db.execute_fetchall(
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'games'"
            ):
                raise StorageError(
                    f"{self.path} has a games table but no schema version; the file is damaged"
                )
            if current > len(migrations):
                raise StorageError(
                    f"the database is at schema version {current}, newer than this code "
                    f"({len(migrations)}); refusing to open it"
                )
            for mig in migrations[current:]:
                await db.execute("BEGIN IMMEDIATE")
                try:
                    # another process may have migrated between our read and BEGIN
                    if await self._user_version(db) >= mig.number:
                        await db.execute("ROLLBACK")
                        continue
                    for stmt in mig.statements:
                        await db.execute(stmt)
                    bad = await db.execute_fetchall("PRAGMA foreign_key_check")
                    if bad:
                        raise StorageError(
                            f"migration {mig.name} breaks foreign keys: {[tuple(r) for r in bad][:5]}"
                        )
                    await db.execute(f"PRAGMA user_version = {mig.number}")
                    await db.execute("COMMIT")
                except BaseException:
                    await self._rollback()
                    raise

    @staticmethod
    async def _user_version(db: aiosqlite.Connection) -> int:
        return list(await db.execute_fetchall("PRAGMA user_version"))[0][0]

    @property
    def in_transaction(self) -> bool:
        return self._db.in_transaction

    # --- plumbing ---
    async def _rollback(self) -> None:
        # always ask: reading in_transaction here could race a COMMIT still queued on the worker
        # thread; "no transaction is active" is then the harmless answer
        try:
            await self._db.execute("ROLLBACK")
        except sqlite3.OperationalError:
            pass

    async def _write(
        self, body: Callable[[aiosqlite.Connection], Awaitable[T]], *, games: Iterable[int] | None = None
    ) -> T:
        """Run ``body`` in one BEGIN IMMEDIATE … COMMIT transaction under the lock (one writer: every
        write in call order, whatever ``games`` it names)."""

        async def run() -> T:
            async with self._lock:
                if self._closed:
                    raise StorageError("storage is closed")
                await self._db.execute("BEGIN IMMEDIATE")
                try:
                    result = await body(self._db)
                    await self._db.execute("COMMIT")
                except BaseException:
                    await self._rollback()
                    raise
                return result

        task = asyncio.ensure_future(run())
        # if our caller is cancelled the transaction still completes; retrieve its outcome so that
        # an exception is not reported as "never retrieved"
        task.add_done_callback(lambda t: t.cancelled() or t.exception())
        return await asyncio.shield(task)

    async def _commit_group(self, makers: Sequence[Callable[[], Steps[Any]]]) -> list[Any]:
        # the whole group in one call on aiosqlite's thread: one round trip, not one per statement
        return await self._db._execute(self._commit_group_sync, makers)

    def _commit_group_sync(self, makers: Sequence[Callable[[], Steps[Any]]]) -> list[Any]:
        conn: sqlite3.Connection = self._db._conn  # on its own thread (we are called through _execute)
        if len(makers) == 1:
            conn.execute("BEGIN IMMEDIATE")
            try:
                result = _drive_sync(conn, makers[0]())
                conn.execute("COMMIT")
            except Exception as err:
                _rollback_sync(conn)
                return [err]
            except BaseException:
                _rollback_sync(conn)
                raise
            return [result]
        try:
            return self._group_sync(conn, makers, savepoints=False)
        except _Retry:  # a write failed half-way: again, with a savepoint around each
            return self._group_sync(conn, makers, savepoints=True)

    @staticmethod
    def _group_sync(
        conn: sqlite3.Connection, makers: Sequence[Callable[[], Steps[Any]]], *, savepoints: bool
    ) -> list[Any]:
        """One transaction for every maker. Without ``savepoints`` (the fast way) a write that fails
        before it changed anything (StaleVersion, WrongStatus, NoSuchGame: raised after reads only) is
        simply left out; one that fails later raises _Retry (everything rolled back)."""
        conn.execute("BEGIN IMMEDIATE")
        try:
            out: list[Any] = []
            for make in makers:
                if savepoints:
                    conn.execute("SAVEPOINT one_write")
                wrote = [False]
                try:
                    out.append(_drive_sync(conn, make(), wrote))
                except Exception as err:
                    if savepoints:
                        conn.execute("ROLLBACK TO one_write")
                    elif wrote[0] or not isinstance(err, StorageError):
                        raise _Retry from err
                    out.append(err)
                if savepoints:
                    conn.execute("RELEASE one_write")
            conn.execute("COMMIT")
        except BaseException:
            _rollback_sync(conn)
            raise
        return out

    async def _fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[sqlite3.Row]:
        async with self._lock:
            if self._closed:
                raise StorageError("storage is closed")
            return list(await self._db.execute_fetchall(sql, tuple(params)))

    # --- schema ---
    async def schema_version(self) -> int:
        return (await self._fetchall("PRAGMA user_version"))[0][0]

    async def integrity_check(self) -> str:
        """``PRAGMA integrity_check``: "ok" when the file is sound."""
        rows = await self._fetchall("PRAGMA integrity_check")
        return "\n".join(str(r[0]) for r in rows)


def _rollback_sync(conn: sqlite3.Connection) -> None:
    try:
        conn.execute("ROLLBACK")
    except sqlite3.OperationalError:
        pass


def _drive_sync(conn: sqlite3.Connection, steps: Steps[T], wrote: list[bool] | None = None) -> T:
    """Run a generator of steps on a sqlite3 connection (on its thread); ``wrote[0]`` becomes True
    once a write is attempted."""
    value: Any = None
    while True:
        try:
            kind, sql, params = steps.send(value)
        except StopIteration as stop:
            return stop.value
        if kind != _ONE and wrote is not None:
            wrote[0] = True
        if kind == _ONE:
            value = conn.execute(sql, params).fetchone()
        elif kind == _EXEC:
            value = conn.execute(sql, params).rowcount
        else:
            conn.executemany(sql, params)
            value = None
