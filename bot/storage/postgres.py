"""The PostgreSQL backend (asyncpg), for several bot processes on one database; see bot.storage.base."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from bot.storage.base import (
    JOBS_CHANNEL,
    PG_MIGRATIONS_DIR,
    Conn,
    Migration,
    Steps,
    Storage,
    StorageError,
    T,
    _Retry,
    load_migrations,
)

_PG_PLACEHOLDER = re.compile(r"'(?:[^']|'')*'|\?")
_PG_SQL: dict[str, str] = {}
# pg_advisory_xact_lock keys: migrations take one of their own; places take their snowflake
_PG_MIGRATION_LOCK = 0x41444D4952414C  # "ADMIRAL"


def pg_sql(sql: str) -> str:
    """``?`` placeholders → ``$1``, ``$2``… (not inside quoted literals); cached."""
    out = _PG_SQL.get(sql)
    if out is None:
        n = 0

        def number(m: re.Match[str]) -> str:
            nonlocal n
            if m.group(0) != "?":
                return m.group(0)
            n += 1
            return f"${n}"

        out = _PG_SQL[sql] = _PG_PLACEHOLDER.sub(number, sql)
    return out


class _Done:
    __slots__ = ("rowcount",)

    def __init__(self, rowcount: int):
        self.rowcount = rowcount


class _PgConn:
    """An asyncpg connection inside a transaction, with aiosqlite's three methods the bodies use."""

    __slots__ = ("conn",)

    def __init__(self, conn: Any):
        self.conn = conn

    async def execute(self, sql: str, params: Iterable[Any] = ()) -> _Done:
        status = await self.conn.execute(pg_sql(sql), *params)
        last = status.rsplit(" ", 1)[-1]  # "UPDATE 1", "INSERT 0 1", "DELETE 0"
        return _Done(int(last) if last.isdigit() else -1)

    async def execute_fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[Any]:
        return await self.conn.fetch(pg_sql(sql), *params)

    async def executemany(self, sql: str, seq: Iterable[Iterable[Any]]) -> None:
        await self.conn.executemany(pg_sql(sql), [tuple(p) for p in seq])


class PostgresStorage(Storage):
    """A PostgreSQL database through asyncpg: one connection (an asyncpg pool of one, which
    replaces a broken connection), used under an :class:`asyncio.Lock` like the SQLite one, so a
    read sees every write this process started before it, and a cancelled caller's transaction still
    finishes as a whole before the next statement runs.

    Each write is one transaction (READ COMMITTED). Other processes (other machines) write at the
    same time; against them, writers that read
    then change a game lock its row (``SELECT … FOR UPDATE``), so a record_action racing another
    (in this process or another machine) waits and then sees the new version: StaleVersion, as with
    SQLite. Writers that check whether a place is free take a transaction-level advisory lock on the
    place first; the partial unique index stays the last word. Group commit as with SQLite (statement
    by statement on the connection, a savepoint per write only when one failed after writing); a
    group locks its games in ascending id, so two groups (two processes) cannot deadlock. A transaction that
    arms jobs sends ``NOTIFY admiralty_jobs``; :meth:`listen_jobs` hears every process's on a second
    connection of its own. Migrations: plain SQL files in
    ``bot/migrations/postgres/``, each run in one transaction under an advisory lock, the version
    kept in the one-row table ``schema_version``.
    """

    backend = "postgres"
    _IS = "IS NOT DISTINCT FROM"
    _STATUS_SQL = "SELECT status, version FROM games WHERE id = ? FOR UPDATE"
    _JSON_HOST = "(action::json ->> 'host')"
    _COLUMN_SQL = ("SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema() "
                   "AND table_name = ? AND column_name = ?")
    _SKIP_LOCKED = " FOR UPDATE SKIP LOCKED"
    _NOTIFY_SQL = f"SELECT pg_notify('{JOBS_CHANNEL}', '')"
    _SEATS_JSON = ("(SELECT coalesce(json_agg(json_build_array(seat, user_id, is_ai, name, dm_ok, missed) "
                   "ORDER BY seat), '[]'::json) FROM seats WHERE seats.game_id = games.id)")

    def __init__(self, pool: Any, url: str):
        super().__init__()
        self._pool = pool
        self.path = url
        self._lock = asyncio.Lock()
        self._closed = False
        self._busy = 0  # write transactions in flight
        self._times: bool | None = None  # whether games has started_at / finished_at (known at first use)
        self._url = url  # with its password: the LISTEN connection opens it again
        self._listener: Any = None  # the connection that LISTENs for armed jobs (listen_jobs)

    @classmethod
    async def open(
        cls,
        url: str,
        *,
        migrations_dir: str | Path | None = None,
        timeout: float = 10.0,
    ) -> PostgresStorage:
        """Connect to ``url`` (``postgresql://user:password@host:port/database``) and apply new migrations."""
        try:
            import asyncpg
        except ImportError as err:  # pragma: no cover - asyncpg is a dependency
            raise StorageError("a postgresql:// database needs the asyncpg package (pip install asyncpg)") from err
        migrations = load_migrations(migrations_dir or PG_MIGRATIONS_DIR, split=False)
        try:
            pool = await asyncpg.create_pool(url, min_size=1, max_size=1, timeout=timeout,
                                             command_timeout=None)
        except (TimeoutError, OSError, asyncpg.PostgresError) as err:
            raise StorageError(f"cannot connect to PostgreSQL at {_redact(url)}: {err}") from err
        storage = cls(pool, url)
        storage.path = _redact(url)
        try:
            await storage._migrate(migrations)
        except BaseException:
            await pool.close()
            raise
        return storage

    async def close(self) -> None:
        if self._closed:
            return
        async with self._lock:  # a shielded write in flight finishes first
            self._closed = True
            listener, self._listener = self._listener, None
            if listener is not None:
                try:
                    await listener.close(timeout=5)
                except Exception:  # noqa: BLE001 - closing anyway
                    listener.terminate()
            await self._pool.close()

    async def listen_jobs(self) -> None:
        """LISTEN on a connection of its own for the NOTIFY that every transaction arming jobs sends
        (in any process): each wakes :meth:`on_jobs`' callbacks. A lost connection is opened again at the
        next call (the scheduler's poll covers the gap)."""
        if self._closed or (self._listener is not None and not self._listener.is_closed()):
            return
        import asyncpg

        conn = await asyncpg.connect(self._url, timeout=10)
        await conn.add_listener(JOBS_CHANNEL, lambda *_: self._jobs_changed())
        if self._closed:
            await conn.close()
            return
        self._listener = conn

    @property
    def in_transaction(self) -> bool:
        return self._busy > 0

    async def _migrate(self, migrations: Sequence[Migration]) -> None:
        async with self._pool.acquire() as conn:
            for mig in [None, *migrations]:
                async with conn.transaction():
                    await conn.execute("SELECT pg_advisory_xact_lock($1)", _PG_MIGRATION_LOCK)
                    current = await self._read_version(conn)
                    if current is None:  # a new database
                        await conn.execute(
                            "CREATE TABLE schema_version (version integer NOT NULL CHECK (version >= 0), "
                            "only_row boolean PRIMARY KEY DEFAULT true CHECK (only_row))"
                        )
                        await conn.execute("INSERT INTO schema_version (version) VALUES (0)")
                        current = 0
                    if current > len(migrations):
                        raise StorageError(
                            f"the database is at schema version {current}, newer than this code "
                            f"({len(migrations)}); refusing to open it"
                        )
                    if mig is None or current >= mig.number:  # another process may have migrated
                        continue
                    await conn.execute(mig.script)
                    await conn.execute("UPDATE schema_version SET version = $1", mig.number)

    async def _read_version(self, conn: Any) -> int | None:
        """The schema version; None for a database Admiralty never touched; StorageError if damaged."""
        if await conn.fetchval("SELECT to_regclass('schema_version')") is None:
            if await conn.fetchval("SELECT to_regclass('games')") is not None:
                raise StorageError(
                    f"{self.path} has a games table but no schema_version table; the database is damaged "
                    "(or belongs to something else)"
                )
            return None
        rows = await conn.fetch("SELECT version FROM schema_version")
        if len(rows) != 1 or rows[0][0] is None or rows[0][0] < 0:
            raise StorageError(
                f"{self.path}: schema_version should hold one version, it holds {[r[0] for r in rows]}; "
                "the database is damaged"
            )
        return rows[0][0]

    async def _lock_place(self, db: Conn, place: int) -> None:
        await db.execute_fetchall("SELECT pg_advisory_xact_lock(?)", (place,))

    async def _write(self, body: Callable[[Conn], Awaitable[T]]) -> T:
        """Run ``body`` in one transaction on a connection of the pool."""

        async def run() -> T:
            async with self._lock:
                if self._closed:
                    raise StorageError("storage is closed")
                self._busy += 1
                try:
                    async with self._pool.acquire() as conn, conn.transaction():
                        return await body(_PgConn(conn))
                finally:
                    self._busy -= 1

        task = asyncio.ensure_future(run())
        # as with SQLite: a cancelled caller does not cut its transaction in half
        task.add_done_callback(lambda t: t.cancelled() or t.exception())
        return await asyncio.shield(task)

    async def _commit_group(self, makers: Sequence[Callable[[], Steps[Any]]]) -> list[Any]:
        self._busy += 1
        try:
            async with self._pool.acquire() as conn:
                db = _PgConn(conn)
                if len(makers) == 1:
                    try:
                        async with conn.transaction():
                            return [await self._drive(db, makers[0]())]
                    except Exception as err:
                        return [err]
                try:
                    return await self._group(conn, makers, savepoints=False)
                except _Retry:  # a write failed half-way: again, with a savepoint around each
                    return await self._group(conn, makers, savepoints=True)
        finally:
            self._busy -= 1

    async def _group(self, conn: Any, makers: Sequence[Callable[[], Steps[Any]]], *, savepoints: bool) -> list[Any]:
        """As SqliteStorage._group_sync: without ``savepoints``, a write that fails after reads only is
        left out, one that fails later (or on a database error, which aborts the transaction) raises
        _Retry."""
        db = _PgConn(conn)
        out: list[Any] = []
        async with conn.transaction():
            for make in makers:
                wrote = [False]
                try:
                    if savepoints:
                        async with conn.transaction():  # a savepoint
                            out.append(await self._drive(db, make()))
                    else:
                        out.append(await self._drive(db, make(), wrote))
                except Exception as err:
                    if not savepoints and (wrote[0] or not isinstance(err, StorageError)):
                        raise _Retry from err
                    out.append(err)
        return out

    async def _fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[Any]:
        async with self._lock:
            if self._closed:
                raise StorageError("storage is closed")
            async with self._pool.acquire() as conn:
                return await conn.fetch(pg_sql(sql), *params)

    # --- schema ---
    async def schema_version(self) -> int:
        return (await self._fetchall("SELECT version FROM schema_version"))[0][0]

    async def integrity_check(self) -> str:
        """PostgreSQL keeps its own files sound; this checks what is ours: one schema version, and
        every game's action log running 1..version. "ok" when both hold."""
        problems: list[str] = []
        rows = await self._fetchall("SELECT version FROM schema_version")
        if len(rows) != 1:
            problems.append(f"schema_version has {len(rows)} rows")
        bad = await self._fetchall(
            "SELECT g.id FROM games g LEFT JOIN (SELECT game_id, count(*) AS n, max(seq) AS top FROM actions "
            "GROUP BY game_id) a ON a.game_id = g.id "
            "WHERE g.state IS NOT NULL AND (coalesce(a.n, 0) <> g.version OR coalesce(a.top, 0) <> g.version)"
        )
        problems += [f"game {r[0]}: the action log does not run 1..version" for r in bad]
        return "\n".join(problems) or "ok"


def _redact(url: str) -> str:
    """The URL without its password, for messages and logs."""
    return re.sub(r"(://[^:/@]*):[^@/]*@", r"\1:***@", url)


