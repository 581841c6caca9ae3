"""The PostgreSQL backend (asyncpg), for several bot processes on one database; see bot.storage.base."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from bot.settings import DB_POOL_DEFAULT
from bot.storage.base import Storage
from bot.storage.core import Conn, Steps, T, _Retry
from bot.storage.errors import StorageError
from bot.storage.jobs import JOBS_CHANNEL
from bot.storage.migrations import PG_MIGRATIONS_DIR, Migration, load_migrations

_PG_PLACEHOLDER = re.compile(r"'(?:[^']|'')*'|\?")
_PG_SQL: dict[str, str] = {}
# pg_advisory_xact_lock keys: migrations take one of their own; places take their snowflake
_PG_MIGRATION_LOCK = 0x41444D4952414C  # "ADMIRAL"
# Group commit on the pool: the writes ready at once are spread over the free connections, about this
# many (or more) per group; fewer share one transaction (its BEGIN and COMMIT are round trips too)
GROUP_MIN = 8


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


class _Ticket:
    """One write of this process, from the call that starts it until its transaction has ended."""

    __slots__ = ("after", "done", "games")

    def __init__(self, games: frozenset[int] | None, after: list[_Ticket], done: asyncio.Future[None]):
        self.games = (
            games  # the games it writes; None: unknown (it follows every earlier write, every later one it)
        )
        self.after = after  # the earlier writes it must wait for
        self.done = done  # set when its transaction has ended (committed or rolled back)


class _Queued:
    """A record_action waiting for its group (group commit)."""

    __slots__ = ("fut", "game_id", "make", "ticket")

    def __init__(
        self, ticket: _Ticket, game_id: int, make: Callable[[], Steps[Any]], fut: asyncio.Future[Any]
    ):
        self.ticket, self.game_id, self.make, self.fut = ticket, game_id, make, fut


class PostgresStorage(Storage):
    """A PostgreSQL database through asyncpg, on a pool of ``pool_size`` connections
    (``ADMIRALTY_DB_POOL``, default :data:`bot.settings.DB_POOL_DEFAULT`; asyncpg replaces a broken one),
    so that writes of different games run at once, each in its own transaction on a connection of
    its own. What the one-connection design guaranteed still holds, through the order kept below:

    - Every write of this process gets a place in line when it is CALLED (before its first await): its
      *ticket*, with the games it writes (``games`` of :meth:`_write`; one game for record_action) or
      "unknown" (a write whose games are not named, or that spans many: a barrier). A write waits
      until every earlier write of one of its games, and every earlier barrier, has ended; a barrier
      waits for every earlier write, and every later write waits for it. So one game is never in two
      transactions of this process at once, and its writes commit in the order they were called (as
      with one connection); only writes of different games overlap. A write naming no game
      (``games=()``: create_game, claim_jobs, release_jobs, which other processes race anyway) waits
      for barriers only.
    - A read sees every write this process started before it: it first waits until every write whose
      ticket existed when the read was called has ended (committed or not), then runs on any free
      connection (READ COMMITTED). It does not wait for writes started after it.
    - A cancelled caller does not cut its transaction in half: the write runs in a task of its own,
      shielded, to its COMMIT or ROLLBACK; its ticket ends only then.
    - Group commit: record_action calls queue; whenever fewer than ``pool_size`` groups are running,
      the writes whose turn has come (see the first point; writes of one game queued together go in one
      group, in their order) are taken, sorted by game id, and cut at game boundaries into up to as many
      groups as connections are free, of about :data:`GROUP_MIN` writes or more (a few writes at once
      share one transaction, as before; many are spread over the free connections). Each group is one
      transaction (statement by statement; a savepoint per write only when one failed after writing).
      A group locks its games in ascending id, and two groups of this process hold different games, so
      groups (of this process or of others) cannot deadlock.
    - :meth:`close` refuses new calls at once, waits until every write and read already called has
      ended, then closes the pool and the LISTEN connection. :attr:`in_transaction`: a write
      transaction is open now.

    With ``pool_size`` 1 everything runs one after the other on one connection, as before the pool.

    Each write is one transaction (READ COMMITTED). Other processes (other machines) write at the
    same time; against them, writers that read
    then change a game lock its row (``SELECT … FOR UPDATE``), so a record_action racing another
    (in another process) waits and then sees the new version: StaleVersion, as with
    SQLite. Writers that check whether a place is free take a transaction-level advisory lock on the
    place first; the partial unique index stays the last word. A transaction that
    arms jobs sends ``NOTIFY admiralty_jobs``; :meth:`listen_jobs` hears every process's on a
    connection of its own (outside the pool). Migrations: plain SQL files in
    ``bot/migrations/postgres/``, each run in one transaction under an advisory lock, the version
    kept in the one-row table ``schema_version``.
    """

    backend = "postgres"
    _IS = "IS NOT DISTINCT FROM"
    _STATUS_SQL = "SELECT status, version FROM games WHERE id = ? FOR UPDATE"
    _JSON_HOST = "(action::json ->> 'host')"
    _COLUMN_SQL = (
        "SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema() "
        "AND table_name = ? AND column_name = ?"
    )
    _SKIP_LOCKED = " FOR UPDATE SKIP LOCKED"
    _NOTIFY_SQL = f"SELECT pg_notify('{JOBS_CHANNEL}', '')"
    _SEATS_JSON = (
        "(SELECT coalesce(json_agg(json_build_array(seat, user_id, is_ai, name, dm_ok, missed, ai_level) "
        "ORDER BY seat), '[]'::json) FROM seats WHERE seats.game_id = games.id)"
    )

    def __init__(self, pool: Any, url: str, pool_size: int = 1):
        super().__init__()
        self._pool = pool
        self.path = url
        self.pool_size = pool_size
        self._closed = False
        self._closing: asyncio.Future[None] | None = None  # close() under way (shared by concurrent calls)
        self._busy = 0  # write transactions in flight
        self._url = url  # with its password: the LISTEN connection opens it again
        self._listener: Any = None  # the connection that LISTENs for armed jobs (listen_jobs)
        # the order of this process's writes (see the class docstring)
        self._pending: dict[_Ticket, None] = {}  # every write called and not ended, in call order
        self._last: dict[int, _Ticket] = {}  # each game's latest pending write
        self._barrier: _Ticket | None = None  # the latest pending write of unknown games
        self._waiting: list[_Queued] = []  # record_action calls not yet in a group
        self._groups = 0  # groups running
        self._group_tasks: set[asyncio.Task[None]] = set()
        self._dispatch_at: asyncio.Handle | None = None
        self._readers = 0  # reads called and not ended
        self._no_readers: asyncio.Future[None] | None = None

    @classmethod
    # Storage.open dispatches any target with any backend's options; a backend takes only its own.
    async def open(  # type: ignore[override]
        cls,
        url: str,
        *,
        migrations_dir: str | Path | None = None,
        timeout: float = 10.0,
        pool_size: int = DB_POOL_DEFAULT,
    ) -> PostgresStorage:
        """Connect to ``url`` (``postgresql://user:password@host:port/database``) and apply new
        migrations. ``pool_size``: the most connections it opens for reads and writes (they are opened
        as needed; the LISTEN connection of :meth:`listen_jobs` is one more)."""
        if isinstance(pool_size, bool) or not isinstance(pool_size, int) or pool_size < 1:
            raise ValueError(
                f"pool_size must be a whole number of connections, at least 1, not {pool_size!r}"
            )
        try:
            import asyncpg
        except ImportError as err:  # pragma: no cover - asyncpg is a dependency
            raise StorageError(
                "a postgresql:// database needs the asyncpg package (pip install asyncpg)"
            ) from err
        migrations = load_migrations(migrations_dir or PG_MIGRATIONS_DIR, split=False)
        try:
            pool = await asyncpg.create_pool(
                url, min_size=1, max_size=pool_size, timeout=timeout, command_timeout=None
            )
        except (TimeoutError, OSError, asyncpg.PostgresError) as err:
            raise StorageError(f"cannot connect to PostgreSQL at {_redact(url)}: {err}") from err
        storage = cls(pool, url, pool_size)
        storage.path = _redact(url)
        try:
            await storage._migrate(migrations)
        except BaseException:
            await pool.close()
            raise
        return storage

    async def close(self) -> None:
        """Refuse new calls; wait for every write and read already called; then close."""
        if self._closing is None:
            self._closed = True
            self._closing = asyncio.ensure_future(self._close())
        await asyncio.shield(self._closing)

    async def _close(self) -> None:
        loop = asyncio.get_running_loop()
        while self._pending or self._readers:  # a shielded write in flight finishes first
            waits: list[asyncio.Future[Any]] = [t.done for t in self._pending]
            if self._readers:
                if self._no_readers is None or self._no_readers.done():
                    self._no_readers = loop.create_future()
                waits.append(self._no_readers)
            await asyncio.wait(waits)
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

    # --- the order of this process's writes ---
    def _ticket(self, games: frozenset[int] | None) -> _Ticket:
        """A write's place in line, taken when it is called (see the class docstring)."""
        if games is None:
            ticket = _Ticket(None, list(self._pending), asyncio.get_running_loop().create_future())
            self._barrier = ticket
        else:
            after = [self._last[g] for g in games if g in self._last]
            if self._barrier is not None:
                after.append(self._barrier)
            ticket = _Ticket(games, after, asyncio.get_running_loop().create_future())
            for g in games:
                self._last[g] = ticket
        self._pending[ticket] = None
        return ticket

    def _ended(self, ticket: _Ticket) -> None:
        if ticket.done.done():
            return
        ticket.done.set_result(None)
        ticket.after = []  # nothing to wait for any more (and no chain of ended writes kept alive)
        del self._pending[ticket]
        for g in ticket.games or ():
            if self._last.get(g) is ticket:
                del self._last[g]
        if self._barrier is ticket:
            self._barrier = None
        if self._waiting:
            self._dispatch_soon()

    @staticmethod
    async def _wait_for(tickets: Iterable[_Ticket]) -> None:
        waits = [t.done for t in tickets if not t.done.done()]
        if waits:
            await asyncio.wait(waits)

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

    async def _write(self, body: Callable[[Conn], Awaitable[T]], *, games: Iterable[int] | None = None) -> T:
        """Run ``body`` in one transaction on a connection of the pool, once the earlier writes of
        ``games`` (None: of every game) have ended."""
        if self._closed:
            raise StorageError("storage is closed")
        ticket = self._ticket(None if games is None else frozenset(games))

        async def run() -> T:
            try:
                await self._wait_for(ticket.after)
                self._busy += 1
                try:
                    async with self._pool.acquire() as conn, conn.transaction():
                        return await body(_PgConn(conn))
                finally:
                    self._busy -= 1
            finally:
                self._ended(ticket)

        task = asyncio.ensure_future(run())
        # as with SQLite: a cancelled caller does not cut its transaction in half
        task.add_done_callback(lambda t: t.cancelled() or t.exception())
        return await asyncio.shield(task)

    async def _grouped(self, game_id: int, make: Callable[[], Steps[T]]) -> T:
        """Group commit on the pool (see the class docstring): queue the write; it runs in a group
        once the earlier writes of its game have ended and a group may start."""
        if self._closed:
            raise StorageError("storage is closed")
        fut: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        fut.add_done_callback(lambda f: f.cancelled() or f.exception())
        self._waiting.append(_Queued(self._ticket(frozenset((game_id,))), game_id, make, fut))
        self._dispatch_soon()
        return await asyncio.shield(fut)

    def _dispatch_soon(self) -> None:
        # at the loop's next turn, so that the writes queued meanwhile join the same groups
        if self._dispatch_at is None:
            self._dispatch_at = asyncio.get_running_loop().call_soon(self._dispatch)

    def _dispatch(self) -> None:
        """Start groups of the queued writes whose turn has come, while fewer than pool_size run."""
        self._dispatch_at = None
        free = self.pool_size - self._groups
        if free <= 0 or not self._waiting:
            return
        ready: list[_Queued] = []
        taken: set[_Ticket] = set()
        rest: list[_Queued] = []
        for item in self._waiting:  # in call order: a game's later write never passes its earlier one
            if all(t in taken or t.done.done() for t in item.ticket.after):
                ready.append(item)
                taken.add(item.ticket)
            else:
                rest.append(item)
        if not ready:
            return
        self._waiting = rest
        ready.sort(key=lambda item: item.game_id)  # stable: one game's writes keep their order
        for group in _cut(ready, min(free, max(1, len(ready) // GROUP_MIN))):
            self._groups += 1
            task = asyncio.ensure_future(self._run_group(group))
            self._group_tasks.add(task)
            task.add_done_callback(self._group_tasks.discard)

    async def _run_group(self, group: list[_Queued]) -> None:
        try:
            try:
                outcomes = await self._commit_group([item.make for item in group])
            except Exception as err:  # the transaction failed: nothing of it committed
                outcomes = [err] * len(group)
            for item, out in zip(group, outcomes, strict=True):
                if not item.fut.done():
                    if isinstance(out, BaseException):
                        item.fut.set_exception(out)
                    else:
                        item.fut.set_result(out)
        finally:
            for item in group:  # only when this task itself was cancelled (the loop shutting down)
                if not item.fut.done():
                    item.fut.set_exception(StorageError("the write was interrupted (storage shutting down)"))
            self._groups -= 1
            for item in group:
                self._ended(item.ticket)
            if self._waiting:
                self._dispatch_soon()

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

    async def _group(
        self, conn: Any, makers: Sequence[Callable[[], Steps[Any]]], *, savepoints: bool
    ) -> list[Any]:
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
        """A read, after every write this process started before it has ended (see the class docstring)."""
        if self._closed:
            raise StorageError("storage is closed")
        before = list(self._pending)
        self._readers += 1
        try:
            await self._wait_for(before)
            async with self._pool.acquire() as conn:
                return await conn.fetch(pg_sql(sql), *params)
        finally:
            self._readers -= 1
            if not self._readers and self._no_readers is not None and not self._no_readers.done():
                self._no_readers.set_result(None)

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


def _cut(ready: list[_Queued], parts: int) -> list[list[_Queued]]:
    """``ready`` (sorted by game) cut into at most ``parts`` groups of about the same size, at game
    boundaries (one game's writes stay in one group): each group's games ascend, and no two share one."""
    if parts <= 1:
        return [ready]
    groups: list[list[_Queued]] = [[]]
    for i, item in enumerate(ready):
        current = groups[-1]
        share = -(
            -(len(current) + len(ready) - i) // (parts - len(groups) + 1)
        )  # of what is left, rounded up
        if current and item.game_id != current[-1].game_id and len(groups) < parts and len(current) >= share:
            groups.append([])
        groups[-1].append(item)
    return groups


def _redact(url: str) -> str:
    """The URL without its password, for messages and logs."""
    return re.sub(r"(://[^:/@]*):[^@/]*@", r"\1:***@", url)
