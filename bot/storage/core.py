"""The plumbing every part of :class:`bot.storage.base.Storage` stands on: the dialect's details, transactions
(:meth:`StorageCore._write`), group commit (:meth:`StorageCore._grouped`) and reads. A backend supplies the
connection; see bot.storage.base."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Generator, Iterable, Sequence
from pathlib import Path
from typing import Any, ClassVar, Self, TypeVar

from bot.storage.errors import NoSuchGame, StorageError
from bot.storage.rows import Row

T = TypeVar("T")


# A write written once for every backend as a generator of steps: it yields ``(kind, sql, params)``
# and receives the answer — _ONE: the first row or None, _EXEC: the rowcount, _MANY: None — and returns
# its result. The backend drives it: PostgreSQL statement by statement, SQLite a whole group of them in
# one call on its connection's thread (see StorageCore._grouped).
_ONE, _EXEC, _MANY = "one", "exec", "many"
Steps = Generator[tuple[str, str, Any], Any, T]

# What a write transaction's body receives: an aiosqlite.Connection (SQLite), or a _PgConn (PostgreSQL)
# with the same three methods: ``execute`` (→ an object with ``rowcount``), ``execute_fetchall`` and
# ``executemany``; SQL is written once, with ``?`` placeholders. Rows are sqlite3.Row or asyncpg.Record:
# both are read by column name or index.
Conn = Any

POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def is_postgres_url(target: str | Path) -> bool:
    """True when ``target`` (ADMIRALTY_DB) names a PostgreSQL database rather than a SQLite file."""
    return isinstance(target, str) and target.strip().lower().startswith(POSTGRES_SCHEMES)


class _Retry(Exception):
    """A group's write failed after it wrote: the group runs again, a savepoint around each write."""


class StorageCore:
    """What every part of the storage uses: transactions, group commit, reads, and the dialect's
    details below (SQLite's here; a backend overrides what differs). The parts (games, seats, the action
    log, …) are mixins on top of it, composed into :class:`bot.storage.base.Storage`; a backend
    subclasses that and supplies the connection, transactions and migrations.
    """

    backend = "?"
    # null-safe equality (SQLite's "IS" is not PostgreSQL's)
    _IS = "IS NOT DISTINCT FROM"
    # the read of a game's status in a write: PostgreSQL locks the row (SQLite's
    # BEGIN IMMEDIATE already serialises every writer)
    _STATUS_SQL = "SELECT status, version FROM games WHERE id = ?"
    # an action row's "host" field (a host action such as a resignation; NULL for a game action)
    _JSON_HOST = "json_extract(action, '$.host')"
    # whether a table has a column: (table, column) -> a row when it has
    _COLUMN_SQL = "SELECT 1 FROM pragma_table_info(?) WHERE name = ?"

    def _moves_sql(self, game: str = "games.id") -> str:
        """``move_number`` (bot/storage/replay.py) in SQL: the sum of each action row's ``move_step`` (an
        engine move +1, an undo -1, another host row 0) over the actions of game ``game`` (an SQL term)."""
        return (
            f"(SELECT coalesce(sum(CASE WHEN {self._JSON_HOST} IS NULL THEN 1 "
            f"WHEN {self._JSON_HOST} = 'undo' THEN -1 ELSE 0 END), 0) FROM actions "
            f"WHERE actions.game_id = {game})"
        )

    # a game's seats as one JSON array of [seat, user_id, is_ai, name, dm_ok, missed, ai_level]
    # (load_table)
    _SEATS_JSON = (
        "(SELECT json_group_array(json_array(seat, user_id, is_ai, name, dm_ok, missed, ai_level)) "
        "FROM (SELECT * FROM seats WHERE seats.game_id = games.id ORDER BY seat))"
    )
    # claiming jobs: PostgreSQL skips rows another process is claiming (SQLite's writers are serial)
    _SKIP_LOCKED = ""
    # sent in a transaction that armed jobs, to wake other processes' schedulers (None: one process)
    _NOTIFY_SQL: str | None = None

    _closed = False
    _lock: asyncio.Lock  # the backend's: SQLite takes it around each transaction (see _lead)

    @property
    def closed(self) -> bool:
        """Closed (:meth:`close`): every later call fails with StorageError."""
        return self._closed

    def __init__(self) -> None:
        self._queue: list[tuple[int, Callable[[], Steps[Any]], asyncio.Future[Any]]] = []
        self._job_callbacks: list[Callable[[], None]] = []
        self._has_jobs: bool | None = None  # whether the schema has the jobs table (known at first use)
        self._leader: asyncio.Task[None] | None = None
        self._times: bool | None = None  # whether games has started_at / finished_at (known at first use)

    # --- lifecycle ---
    # Opening: the package (bot/storage/__init__.py), which knows the backends, registers the function
    # that picks one for a target; this class knows none of them.
    _opener: ClassVar[Callable[..., Awaitable[Any]] | None] = None

    @classmethod
    def register_opener(cls, opener: Callable[..., Awaitable[Any]]) -> None:
        """Make ``Storage.open`` call ``opener(target, **options)`` (see bot.storage.open_storage)."""
        StorageCore._opener = opener

    @classmethod
    async def open(cls, target: str | Path, **options: Any) -> Self:
        """Open (or create) the database: a SQLite file path or a ``postgresql://`` URL, with the backend
        that :func:`bot.storage.open_storage` picks for it. A backend overrides this with its own.

        Options go to the backend's ``open`` (SQLite: ``synchronous``, ``busy_timeout``,
        ``migrations_dir``; PostgreSQL: ``migrations_dir``, ``timeout``, ``pool_size``)."""
        opener = StorageCore._opener
        if opener is None:
            raise NotImplementedError(f"{cls.__name__} must implement open (or import bot.storage)")
        storage = await opener(target, **options)
        if not isinstance(storage, cls):
            await storage.close()
            raise TypeError(f"{cls.__name__}.open: {target!r} is for {type(storage).__name__}")
        return storage

    async def close(self) -> None:
        raise NotImplementedError

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # --- plumbing (the backend's) ---
    async def _write(self, body: Callable[[Conn], Awaitable[T]], *, games: Iterable[int] | None = None) -> T:
        """Run ``body`` in one transaction; it commits as a whole or not at all. ``games``: the games it
        writes (``()``: no game's row, e.g. a new game or the job rows it claims), for a backend that runs
        writes of different games at once (PostgreSQL's pool): it keeps each game's writes in the order
        they were called; None (unknown, or many) makes it wait for every earlier write and every later
        one for it. SQLite runs every write one after the other anyway."""
        raise NotImplementedError

    async def _fetchall(self, sql: str, params: Iterable[Any] = ()) -> list[Row]:
        raise NotImplementedError

    async def _commit_group(self, makers: Sequence[Callable[[], Steps[Any]]]) -> list[Any]:
        """Run every maker's steps in ONE transaction, each as a whole or not at all (a savepoint
        each): a list with each one's result, or the exception it raised (its writes undone, the
        others' kept). Raises when the transaction itself fails (nothing of it committed)."""
        raise NotImplementedError

    @staticmethod
    async def _drive(db: Conn, steps: Steps[T], wrote: list[bool] | None = None) -> T:
        """Run a generator of steps on ``db`` (an async connection), statement by statement;
        ``wrote[0]`` becomes True once a write is attempted."""
        value: Any = None
        while True:
            try:
                kind, sql, params = steps.send(value)
            except StopIteration as stop:
                return stop.value
            if kind != _ONE and wrote is not None:
                wrote[0] = True
            if kind == _ONE:
                rows = await db.execute_fetchall(sql, tuple(params))
                value = rows[0] if rows else None
            elif kind == _EXEC:
                value = (await db.execute(sql, tuple(params))).rowcount
            else:
                await db.executemany(sql, params)
                value = None

    async def _grouped(self, game_id: int, make: Callable[[], Steps[T]]) -> T:
        """Group commit: queue ``make`` (a write's steps); the first caller to find no leader at work
        starts one, which takes the storage lock, then EVERY write queued by then, and runs them in one
        transaction (:meth:`_commit_group`), each with its own checks, each as a whole or not at all;
        each
        caller gets its own result or exception. Like :meth:`_write`, a cancelled caller's write still
        runs as a whole (or not at all). (PostgresStorage runs several groups at once on its pool.)"""
        fut: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        fut.add_done_callback(lambda f: f.cancelled() or f.exception())
        self._queue.append((game_id, make, fut))
        if self._leader is None:
            self._leader = asyncio.ensure_future(self._lead())
        return await asyncio.shield(fut)

    async def _lead(self) -> None:
        batch: list[tuple[int, Callable[[], Steps[Any]], asyncio.Future[Any]]] = []
        try:
            while self._queue:
                async with self._lock:
                    # by game (stable: one game's writes keep their order), so that concurrent groups
                    # (PostgreSQL: other processes) lock games in one order and cannot deadlock
                    batch = sorted(self._queue, key=lambda item: item[0])
                    self._queue = []
                    if self._closed:
                        outcomes: list[Any] = [StorageError("storage is closed")] * len(batch)
                    else:
                        try:
                            outcomes = await self._commit_group([make for _, make, _ in batch])
                        except Exception as err:  # the transaction failed: nothing of it committed
                            outcomes = [err] * len(batch)
                    for (_, _, fut), out in zip(batch, outcomes, strict=True):
                        if not fut.done():
                            if isinstance(out, BaseException):
                                fut.set_exception(out)
                            else:
                                fut.set_result(out)
                    batch = []
        finally:
            self._leader = None
            for _, _, fut in [*batch, *self._queue]:  # only when the leader itself was cancelled
                if not fut.done():
                    fut.set_exception(StorageError("the write was interrupted (storage shutting down)"))
            self._queue = []

    async def _fetchone(self, sql: str, params: Iterable[Any] = ()) -> Row | None:
        rows = await self._fetchall(sql, params)
        return rows[0] if rows else None

    @staticmethod
    async def _one(db: Conn, sql: str, params: Iterable[Any] = ()) -> Row | None:
        rows = await db.execute_fetchall(sql, tuple(params))
        return rows[0] if rows else None

    async def _stamp(self, db: Conn, game_id: int, column: str, when: float) -> None:
        """Set the game's ``started_at`` or ``finished_at`` (migration 0004; skipped on an older schema,
        which tests open with today's code)."""
        if self._times is None:
            self._times = await self._one(db, self._COLUMN_SQL, ("games", "finished_at")) is not None
        if self._times:
            await db.execute(f"UPDATE games SET {column} = ? WHERE id = ?", (when, game_id))

    async def _status(self, db: Conn, game_id: int) -> Row:
        row = await self._one(db, self._STATUS_SQL, (game_id,))
        if row is None:
            raise NoSuchGame(game_id)
        return row

    async def _lock_place(self, db: Conn, place: int) -> None:
        """Serialise writers that check, then take, a place (a no-op where writers are serial)."""

    async def _active_in(self, db: Conn, place: int) -> int | None:
        await self._lock_place(db, place)
        row = await self._one(
            db,
            "SELECT id FROM games WHERE coalesce(thread_id, channel_id) = ? AND status IN ('lobby', 'running')",
            (place,),
        )
        return None if row is None else row["id"]

    def _stamp_steps(self, game_id: int, column: str, when: float) -> Steps[None]:
        """:meth:`_stamp` as steps."""
        if self._times is None:
            self._times = (yield (_ONE, self._COLUMN_SQL, ("games", "finished_at"))) is not None
        if self._times:
            yield (_EXEC, f"UPDATE games SET {column} = ? WHERE id = ?", (when, game_id))

    # --- schema ---
    async def schema_version(self) -> int:
        raise NotImplementedError

    async def integrity_check(self) -> str:
        """ "ok" when the database is sound."""
        raise NotImplementedError
