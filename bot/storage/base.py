"""Storage: one interface (:class:`Storage`), two backends.

``await Storage.open(target)`` gives a :class:`SqliteStorage` for a file path (the default: one
SQLite file, aiosqlite, WAL mode; described below) or a :class:`PostgresStorage` for a
``postgresql://`` URL (asyncpg; see its docstring). The domain logic — every check, error and SQL
statement — is written once in :class:`Storage`; SQL uses ``?`` placeholders, turned into ``$n`` for
PostgreSQL. Migrations are plain SQL per dialect, version for version: ``bot/migrations/sqlite/`` and
``bot/migrations/postgres/`` (the same numbers and names).

SQLite
------

Durability. The file runs in WAL mode with ``synchronous=NORMAL`` by default: a
transaction is committed once its frames are written to the WAL file, so a
committed action survives a crash of the process (Ctrl-C, ``kill -9``, an
exception) — the OS already holds the write. What NORMAL does not promise is
the last transactions after a power cut or a kernel crash; pass
``synchronous="FULL"`` to :meth:`Storage.open` for that (one fsync per commit;
see ``bench/bench_storage.py`` for what it costs).

Every write is one explicit transaction (``BEGIN IMMEDIATE`` … ``COMMIT``,
``ROLLBACK`` on any error) run under an :class:`asyncio.Lock`; reads take the
same lock, so a reader never sees another coroutine's uncommitted writes on the
shared connection. A write transaction is shielded from cancellation: if the
awaiting task is cancelled, the transaction still finishes (committed or rolled
back as a whole) and the lock is released; the caller then reloads the game.

Group commit. :meth:`Storage.record_action` calls made at the same time share one transaction: each
call queues its write; a leader task takes the lock, then every write queued by then, and commits
them together — on SQLite in ONE call on aiosqlite's thread (one round trip for the whole group,
instead of one per statement). Each write still checks its own expected version and status, and
each caller gets its own result or exception: a write refused after its reads (StaleVersion,
WrongStatus, NoSuchGame) is left out of the group; one that fails after it wrote (a broken
constraint) makes the group run again with a savepoint around each write, so that only that one is
undone. A failing COMMIT fails every write of the group (none of it committed). On PostgreSQL several
groups (of different games) run at once, one per connection of its pool; see :class:`PostgresStorage`.
Reads of several tables that belong together come in one query (:meth:`Storage.load_table`).

Schema. Numbered plain-SQL files ``bot/migrations/sqlite/NNNN_name.sql`` are applied in
order, each in its own transaction that also sets ``PRAGMA user_version = NNNN``;
re-opening applies only the new ones. Foreign keys are off while migrating (so a
migration may rebuild a table, as SQLite recommends) and checked with
``PRAGMA foreign_key_check`` before each migration commits; they are on for
everything else.

Jobs (migration 0006): what a running game waits for without a click — its half-time reminder, its
turn timeout, an AI seat's move — is a row of ``jobs`` with a due time and the game version it was
armed for, re-armed in the transaction of every change that moves it (:meth:`Storage._arm_steps`).
Any process claims due jobs with a lease (:meth:`Storage.claim_jobs`; PostgreSQL ``FOR UPDATE SKIP
LOCKED``) and drops them when done (:meth:`Storage.complete_job`); see ``bot/scheduler.py``.

One active game per place: the *place* of a game is its thread if it has one,
else its channel (``GameRow.place``). At most one lobby-or-running game per
place (a partial unique index); a game that moves into a thread it created
(:meth:`Storage.set_thread`) frees its parent channel for another game.
"""

from __future__ import annotations

import asyncio
import json
import math
import re
import sqlite3
import time
from collections.abc import Awaitable, Callable, Generator, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from bot.games.base import Game, GameSpec, canonical
from bot.settings import TURN_TIMEOUT_MAX

MIGRATIONS_ROOT = Path(__file__).resolve().parent.parent / "migrations"
MIGRATIONS_DIR = MIGRATIONS_ROOT / "sqlite"  # the SQLite dialect
PG_MIGRATIONS_DIR = MIGRATIONS_ROOT / "postgres"  # the same schema, version for version, in PostgreSQL's

STATUSES = ("lobby", "running", "finished", "abandoned", "suspended")
ACTIVE = ("lobby", "running")
TERMINAL = ("finished", "abandoned")
# A suspended game (its channel was deleted) is neither: it blocks no place and is not resumed, but
# it is kept (and listed) until someone abandons it.
SUSPENDED = "suspended"
# status changes allowed through set_status (lobby → running goes through start_game)
_TRANSITIONS = {
    ("lobby", "abandoned"),
    ("running", "finished"),
    ("running", "abandoned"),
    ("running", SUSPENDED),
    (SUSPENDED, "abandoned"),
}
_SEAT_FIELDS = ("user_id", "is_ai", "name", "dm_ok", "missed")
_SYNCHRONOUS = ("OFF", "NORMAL", "FULL", "EXTRA")

T = TypeVar("T")

# A write written once for every backend as a generator of steps: it yields ``(kind, sql, params)``
# and receives the answer — _ONE: the first row or None, _EXEC: the rowcount, _MANY: None — and returns
# its result. The backend drives it: PostgreSQL statement by statement, SQLite a whole group of them in
# one call on its connection's thread (see Storage._grouped).
_ONE, _EXEC, _MANY = "one", "exec", "many"
Steps = Generator[tuple[str, str, Any], Any, T]


# ----- errors ------------------------------------------------------------------
class StorageError(Exception):
    """Base of the errors raised by Storage for domain reasons."""


class StaleVersion(StorageError):
    """record_action with an expected version that is no longer the game's version."""

    def __init__(self, game_id: int, expected: int, current: int):
        super().__init__(f"game {game_id}: expected version {expected}, it is at {current}")
        self.game_id, self.expected, self.current = game_id, expected, current


class ChannelBusy(StorageError):
    """A game is already in the lobby or running in that channel or thread."""

    def __init__(self, place: int, game_id: int):
        super().__init__(f"channel {place} already has an active game ({game_id})")
        self.place, self.game_id = place, game_id


class WrongStatus(StorageError):
    """The game's status does not allow this change (e.g. removing a seat of a running game)."""

    def __init__(self, game_id: int, status: str, wanted: str):
        super().__init__(f"game {game_id} is {status}: cannot {wanted}")
        self.game_id, self.status, self.wanted = game_id, status, wanted


class DatabaseUnusable(StorageError):
    """The database file cannot be used as it is: not a database, damaged, written by a newer Admiralty,
    or not openable. The message is one sentence saying what is wrong and what to do; the file was
    left exactly as it was."""


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


class NoSuchGame(StorageError, LookupError):
    def __init__(self, game_id: int):
        super().__init__(f"no game {game_id}")
        self.game_id = game_id


class NoSuchSeat(StorageError, LookupError):
    def __init__(self, game_id: int, seat: int):
        super().__init__(f"game {game_id} has no seat {seat}")
        self.game_id, self.seat = game_id, seat


# ----- rows --------------------------------------------------------------------
def _loads(text: str | None) -> Any:
    return None if text is None else json.loads(text)


def _timer(
    turn_timeout: float | None, deadline: float | None, updated_at: float
) -> tuple[float | None, float | None]:
    """A stored turn timer made harmless: a turn timeout or deadline that is not a finite number is
    dropped (no timer); a turn timeout over ``TURN_TIMEOUT_MAX`` counts as that, and a deadline lies at
    most that far after the row's last change. (Such values came from before the timer was bounded.)"""
    if turn_timeout is not None:
        turn_timeout = min(turn_timeout, TURN_TIMEOUT_MAX) if math.isfinite(turn_timeout) else None
    if deadline is not None:
        deadline = min(deadline, updated_at + TURN_TIMEOUT_MAX) if math.isfinite(deadline) else None
    return turn_timeout, deadline


@dataclass(frozen=True)
class GameRow:
    id: int
    guild_id: int | None
    channel_id: int
    thread_id: int | None
    game_key: str
    options: dict
    seed: int
    host_id: int | None
    status: str
    version: int
    state_json: str | None  # the snapshot as stored (Game.to_json text); None in the lobby
    deadline: float | None
    reminded: bool
    turn_timeout: float | None
    created_at: float
    updated_at: float
    result: dict | None
    started_at: float | None = None  # when the lobby became a game (migration 0003)
    finished_at: float | None = None  # when it finished or was abandoned

    @property
    def place(self) -> int:
        """Where the game is played: its thread, else its channel."""
        return self.thread_id if self.thread_id is not None else self.channel_id

    @property
    def active(self) -> bool:
        return self.status in ACTIVE

    @property
    def state(self) -> dict | None:
        """The snapshot parsed (a new dict at every access)."""
        return _loads(self.state_json)

    @classmethod
    def _from(cls, r: Row) -> GameRow:
        turn_timeout, deadline = _timer(r["turn_timeout"], r["deadline"], r["updated_at"])
        return cls(
            id=r["id"],
            guild_id=r["guild_id"],
            channel_id=r["channel_id"],
            thread_id=r["thread_id"],
            game_key=r["game_key"],
            options=json.loads(r["options"]),
            seed=r["seed"],
            host_id=r["host_id"],
            status=r["status"],
            version=r["version"],
            state_json=r["state"],
            deadline=deadline,
            reminded=bool(r["reminded"]),
            turn_timeout=turn_timeout,
            created_at=r["created_at"],
            updated_at=r["updated_at"],
            result=_loads(r["result"]),
            started_at=r["started_at"] if "started_at" in r.keys() else None,
            finished_at=r["finished_at"] if "finished_at" in r.keys() else None,
        )


@dataclass(frozen=True)
class SeatRow:
    game_id: int
    seat: int
    user_id: int | None
    is_ai: bool
    name: str
    dm_ok: bool | None  # None = not checked yet
    missed: int

    @classmethod
    def _from(cls, r: Row) -> SeatRow:
        return cls(
            game_id=r["game_id"],
            seat=r["seat"],
            user_id=r["user_id"],
            is_ai=bool(r["is_ai"]),
            name=r["name"],
            dm_ok=None if r["dm_ok"] is None else bool(r["dm_ok"]),
            missed=r["missed"],
        )


@dataclass(frozen=True)
class ActionRow:
    game_id: int
    seq: int
    seat: int
    action: dict
    created_at: float

    @classmethod
    def _from(cls, r: Row) -> ActionRow:
        return cls(
            game_id=r["game_id"],
            seq=r["seq"],
            seat=r["seat"],
            action=json.loads(r["action"]),
            created_at=r["created_at"],
        )


@dataclass(frozen=True)
class RatingRow:
    """A player's standing in one game of one server (migration 0005)."""

    guild_id: int
    game_key: str
    player: str  # a user id in decimal, or "ai:<name>"
    name: str
    mu: float
    sigma: float
    games: int
    wins: int
    losses: int
    draws: int
    updated_at: float

    @property
    def ordinal(self) -> float:
        """The rating shown: mu - 3 sigma (0 for a new player)."""
        return self.mu - 3 * self.sigma

    @classmethod
    def _from(cls, r: Row) -> RatingRow:
        return cls(
            **{
                f: r[f]
                for f in (
                    "guild_id",
                    "game_key",
                    "player",
                    "name",
                    "mu",
                    "sigma",
                    "games",
                    "wins",
                    "losses",
                    "draws",
                    "updated_at",
                )
            }
        )


JOB_KINDS = ("reminder", "timeout", "ai")
JOBS_CHANNEL = "admiralty_jobs"  # PostgreSQL: the LISTEN/NOTIFY channel that wakes the schedulers


@dataclass(frozen=True)
class JobRow:
    """Something a game waits for that no click brings (migration 0006): the half-time ``reminder``, the
    ``timeout`` at its deadline, an ``ai`` seat's move; due at ``due``, armed for game ``version``.
    ``claimed_by``/``claimed_until``: the process that runs it and until when its lease holds."""

    game_id: int
    kind: str
    due: float
    version: int
    claimed_by: str | None = None
    claimed_until: float | None = None

    @classmethod
    def _from(cls, r: Row) -> JobRow:
        return cls(
            game_id=r["game_id"],
            kind=r["kind"],
            due=r["due"],
            version=r["version"],
            claimed_by=r["claimed_by"],
            claimed_until=r["claimed_until"],
        )


@dataclass(frozen=True)
class PastGame:
    """One rated game of a player: when, which game, how it went, against whom."""

    game_id: int
    game_key: str
    when: float
    outcome: str  # "win", "loss" or "draw"
    rank: int
    opponents: tuple[str, ...]  # the other seats' names


@dataclass(frozen=True)
class HistoryEntry:
    """One past game as /game history lists it: when, which game, who sat, how it ended."""

    game_id: int
    game_key: str
    guild_id: int | None
    channel_id: int
    thread_id: int | None
    status: str  # "finished" or "abandoned"
    version: int
    when: float  # its end (else its last change)
    result: dict | None
    names: tuple[str, ...]  # the seats' names, in seat order
    user_ids: tuple[int | None, ...]

    @property
    def place(self) -> int:
        return self.thread_id if self.thread_id is not None else self.channel_id

    @classmethod
    def _from(cls, r: Row) -> HistoryEntry:
        seats = sorted(
            json.loads(r["seats_json"] or "[]")
            if isinstance(r["seats_json"], str)
            else (r["seats_json"] or []),
            key=lambda s: s[0],
        )
        when = r["finished_at"] if r["finished_at"] is not None else r["updated_at"]
        return cls(
            game_id=r["id"],
            game_key=r["game_key"],
            guild_id=r["guild_id"],
            channel_id=r["channel_id"],
            thread_id=r["thread_id"],
            status=r["status"],
            version=r["version"],
            when=when,
            result=_loads(r["result"]),
            names=tuple(s[3] for s in seats),
            user_ids=tuple(s[1] for s in seats),
        )


# ----- migrations --------------------------------------------------------------
@dataclass(frozen=True)
class Migration:
    number: int
    name: str
    statements: tuple[str, ...]  # split for SQLite; () when loaded with split=False
    script: str = ""  # the whole file (PostgreSQL runs it in one call)


_MIGRATION_NAME = re.compile(r"^(\d{4})_[A-Za-z0-9_\-]+\.sql$")


def split_sql(script: str) -> list[str]:
    """Split a script into complete statements (quotes, comments and trigger bodies respected)."""
    statements: list[str] = []
    start = 0
    for i, ch in enumerate(script):
        if ch == ";" and sqlite3.complete_statement(script[start : i + 1]):
            statements.append(script[start : i + 1].strip())
            start = i + 1
    rest = "\n".join(
        line for line in script[start:].splitlines() if line.strip() and not line.strip().startswith("--")
    )
    if rest.strip():
        raise ValueError(f"incomplete SQL statement at the end of the script: {rest.strip()[:80]!r}")
    return statements


def load_migrations(directory: Path | str = MIGRATIONS_DIR, *, split: bool = True) -> list[Migration]:
    """The migrations of a directory, numbered 1..n without gaps (``split``: into SQLite statements)."""
    found: list[Migration] = []
    for path in sorted(Path(directory).glob("*.sql")):
        m = _MIGRATION_NAME.match(path.name)
        if not m:
            raise ValueError(f"migration file name must be NNNN_name.sql: {path.name}")
        script = path.read_text("utf-8")
        found.append(Migration(int(m.group(1)), path.stem, tuple(split_sql(script)) if split else (), script))
    found.sort(key=lambda mig: mig.number)
    for expected, mig in enumerate(found, start=1):
        if mig.number != expected:
            raise ValueError(
                f"migrations must be numbered 1..n without gaps: {mig.name} should be {expected:04d}"
            )
    return found


# ----- storage -----------------------------------------------------------------
# What a write transaction's body receives: an aiosqlite.Connection (SQLite), or a _PgConn (PostgreSQL)
# with the same three methods: ``execute`` (→ an object with ``rowcount``), ``execute_fetchall`` and
# ``executemany``; SQL is written once, with ``?`` placeholders. Rows are sqlite3.Row or asyncpg.Record:
# both are read by column name or index.
Conn = Any
Row = Any

POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def is_postgres_url(target: str | Path) -> bool:
    """True when ``target`` (ADMIRALTY_DB) names a PostgreSQL database rather than a SQLite file."""
    return isinstance(target, str) and target.strip().lower().startswith(POSTGRES_SCHEMES)


class Storage:
    """The storage interface: games, seats, the action log, messages, meta and the table's log.

    ``await Storage.open(path_or_url)`` opens the right backend: :class:`SqliteStorage` for a file
    path (or ``:memory:``), :class:`PostgresStorage` for a ``postgresql://`` URL. The domain logic
    (checks, errors, SQL) lives here, once; a backend supplies the connection, transactions,
    migrations and the few dialect details below.
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
    # a game's seats as one JSON array of [seat, user_id, is_ai, name, dm_ok, missed] (load_table)
    _SEATS_JSON = (
        "(SELECT json_group_array(json_array(seat, user_id, is_ai, name, dm_ok, missed)) "
        "FROM (SELECT * FROM seats WHERE seats.game_id = games.id ORDER BY seat))"
    )
    # claiming jobs: PostgreSQL skips rows another process is claiming (SQLite's writers are serial)
    _SKIP_LOCKED = ""
    # sent in a transaction that armed jobs, to wake other processes' schedulers (None: one process)
    _NOTIFY_SQL: str | None = None

    _closed = False

    @property
    def closed(self) -> bool:
        """Closed (:meth:`close`): every later call fails with StorageError."""
        return self._closed

    def __init__(self) -> None:
        self._queue: list[tuple[int, Callable[[], Steps[Any]], asyncio.Future[Any]]] = []
        self._job_callbacks: list[Callable[[], None]] = []
        self._has_jobs: bool | None = None  # whether the schema has the jobs table (known at first use)
        self._leader: asyncio.Task[None] | None = None

    # --- lifecycle ---
    @classmethod
    async def open(cls, target: str | Path, **options: Any) -> Storage:
        """Open (or create) the database: a SQLite file path or a ``postgresql://`` URL.

        Options go to the backend's ``open`` (SQLite: ``synchronous``, ``busy_timeout``,
        ``migrations_dir``; PostgreSQL: ``migrations_dir``, ``timeout``, ``pool_size``)."""
        if cls is not Storage:
            raise NotImplementedError(f"{cls.__name__} must implement open")
        if is_postgres_url(target):
            from bot.storage.postgres import PostgresStorage

            return await PostgresStorage.open(str(target).strip(), **options)
        from bot.storage.sqlite import SqliteStorage

        return await SqliteStorage.open(target, **options)

    async def close(self) -> None:
        raise NotImplementedError

    async def __aenter__(self) -> Storage:
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

    # --- schema ---
    async def schema_version(self) -> int:
        raise NotImplementedError

    async def integrity_check(self) -> str:
        """ "ok" when the database is sound."""
        raise NotImplementedError

    # --- games ---
    async def create_game(
        self,
        *,
        guild_id: int | None,
        channel_id: int,
        game_key: str,
        options: dict,
        seed: int,
        host_id: int | None,
        thread_id: int | None = None,
        turn_timeout: float | None = None,
    ) -> int:
        """A new game in the lobby. Raises ChannelBusy if its place already has an active game."""
        place = thread_id if thread_id is not None else channel_id
        options_text = canonical(options or {})

        async def body(db: Conn) -> int:
            existing = await self._active_in(db, place)
            if existing is not None:
                raise ChannelBusy(place, existing)
            now = time.time()
            rows = await db.execute_fetchall(
                "INSERT INTO games (guild_id, channel_id, thread_id, game_key, options, seed, host_id, "
                "status, version, turn_timeout, created_at, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, 'lobby', 0, ?, ?, ?) RETURNING id",
                (
                    guild_id,
                    channel_id,
                    thread_id,
                    game_key,
                    options_text,
                    int(seed),
                    host_id,
                    turn_timeout,
                    now,
                    now,
                ),
            )
            return rows[0][0]

        return await self._write(body, games=())

    async def get_game(self, game_id: int) -> GameRow | None:
        row = await self._fetchone("SELECT * FROM games WHERE id = ?", (game_id,))
        return None if row is None else GameRow._from(row)

    async def load_table(self, game_id: int) -> tuple[GameRow, list[SeatRow]] | None:
        """The game and its seats (in seat order) in ONE query; None if there is no such game."""
        row = await self._fetchone(
            f"SELECT games.*, {self._SEATS_JSON} AS seats_json FROM games WHERE id = ?", (game_id,)
        )
        if row is None:
            return None
        return GameRow._from(row), self._seat_rows(game_id, row["seats_json"])

    @staticmethod
    def _seat_rows(game_id: int, seats_json: str | None) -> list[SeatRow]:
        return sorted(
            (
                SeatRow(
                    game_id=game_id,
                    seat=seat,
                    user_id=user_id,
                    is_ai=bool(is_ai),
                    name=name,
                    dm_ok=None if dm_ok is None else bool(dm_ok),
                    missed=missed,
                )
                for seat, user_id, is_ai, name, dm_ok, missed in json.loads(seats_json or "[]")
            ),
            key=lambda s: s.seat,
        )

    # the last ``?`` public lines of a game's log as one JSON array of [id, text] (load_table_log); the
    # PostgreSQL dialect sits here too (json_agg for json_group_array)
    _LOG_JSON = (
        "(SELECT json_group_array(json_array(id, text)) FROM (SELECT id, text FROM log "
        "WHERE log.game_id = games.id AND log.seat IS NULL ORDER BY log.id DESC LIMIT ?))"
    )
    _PG_LOG_JSON = (
        "(SELECT coalesce(json_agg(json_build_array(l.id, l.text)), '[]'::json) FROM (SELECT id, text "
        "FROM log WHERE log.game_id = games.id AND log.seat IS NULL ORDER BY log.id DESC LIMIT ?) l)"
    )

    # a game's stored messages as one JSON array of [kind, channel_id, message_id] (load_table_view)
    _MESSAGES_JSON = (
        "(SELECT json_group_array(json_array(kind, channel_id, message_id)) FROM messages "
        "WHERE messages.game_id = games.id)"
    )
    _PG_MESSAGES_JSON = (
        "(SELECT coalesce(json_agg(json_build_array(m.kind, m.channel_id, m.message_id)), "
        "'[]'::json) FROM messages m WHERE m.game_id = games.id)"
    )

    async def load_table_log(
        self, game_id: int, lines: int
    ) -> tuple[GameRow, list[SeatRow], list[str]] | None:
        """:meth:`load_table` and the last ``lines`` public lines of the game's log (oldest first, as
        :meth:`recent_log` gives them), in ONE query: what the table shows. None if there is no such game."""
        loaded = await self._load_view(game_id, lines, messages=False)
        return None if loaded is None else loaded[:3]

    async def load_table_view(
        self, game_id: int, lines: int
    ) -> tuple[GameRow, list[SeatRow], list[str], dict[str, tuple[int, int]]] | None:
        """:meth:`load_table_log` and the game's stored messages (as :meth:`messages` gives them), in ONE
        query: what a publish needs to show the game. None if there is no such game."""
        return await self._load_view(game_id, lines, messages=True)

    async def _load_view(self, game_id: int, lines: int, *, messages: bool) -> tuple[Any, ...] | None:
        pg = self.backend == "postgres"
        log_json = self._PG_LOG_JSON if pg else self._LOG_JSON
        extra = (
            f", {self._PG_MESSAGES_JSON if pg else self._MESSAGES_JSON} AS messages_json" if messages else ""
        )
        row = await self._fetchone(
            f"SELECT games.*, {self._SEATS_JSON} AS seats_json, {log_json} AS log_json"
            f"{extra} FROM games WHERE id = ?",
            (max(0, int(lines)), game_id),
        )
        if row is None:
            return None
        log = [text for _, text in sorted(json.loads(row["log_json"] or "[]"))]
        loaded = (GameRow._from(row), self._seat_rows(game_id, row["seats_json"]), log)
        if not messages:
            return loaded
        stored = {
            kind: (channel_id, message_id)
            for kind, channel_id, message_id in json.loads(row["messages_json"] or "[]")
        }
        return (*loaded, dict(sorted(stored.items())))

    async def active_game(self, channel_id: int) -> GameRow | None:
        """The lobby-or-running game whose place (thread, else channel) is ``channel_id``."""
        row = await self._fetchone(
            "SELECT * FROM games WHERE coalesce(thread_id, channel_id) = ? AND status IN ('lobby', 'running')",
            (channel_id,),
        )
        return None if row is None else GameRow._from(row)

    async def list_games(self, guild_id: int | None, statuses: Iterable[str] = ACTIVE) -> list[GameRow]:
        statuses = tuple(statuses)
        if not statuses:
            return []
        marks = ", ".join("?" * len(statuses))
        rows = await self._fetchall(
            f"SELECT * FROM games WHERE guild_id {self._IS} ? AND status IN ({marks}) ORDER BY id",
            (guild_id, *statuses),
        )
        return [GameRow._from(r) for r in rows]

    async def running_games(self) -> list[GameRow]:
        """Every running game (of every server), for resuming at start."""
        rows = await self._fetchall("SELECT * FROM games WHERE status = 'running' ORDER BY id")
        return [GameRow._from(r) for r in rows]

    async def set_thread(self, game_id: int, thread_id: int | None) -> None:
        """Move an active game into a thread (or back to its channel with None)."""

        async def body(db: Conn) -> None:
            await self._status(db, game_id)
            row = await self._one(db, "SELECT channel_id FROM games WHERE id = ?", (game_id,))
            place = thread_id if thread_id is not None else row["channel_id"]
            existing = await self._active_in(db, place)
            if existing is not None and existing != game_id:
                raise ChannelBusy(place, existing)
            await db.execute(
                "UPDATE games SET thread_id = ?, updated_at = ? WHERE id = ?",
                (thread_id, time.time(), game_id),
            )

        await self._write(body, games=(game_id,))

    async def start_game(
        self,
        game_id: int,
        state_json: str,
        deadline: float | None = None,
        seed: int | None = None,
        ai_due: float | None = None,
    ) -> None:
        """lobby → running at version 0 with the initial snapshot (and the seed it was made with); its
        jobs armed in the same transaction (its timer; ``ai_due``: when an AI seat is to move)."""

        async def body(db: Conn) -> None:
            row = await self._status(db, game_id)
            if row["status"] != "lobby":
                raise WrongStatus(game_id, row["status"], "start it")
            now = time.time()
            await db.execute(
                "UPDATE games SET status = 'running', version = 0, state = ?, seed = coalesce(?, seed), "
                "deadline = ?, reminded = 0, updated_at = ? WHERE id = ?",
                (state_json, seed, deadline, now, game_id),
            )
            await self._stamp(db, game_id, "started_at", now)
            await self._drive(db, self._arm_steps(game_id, ai_due=ai_due))

        await self._write(body, games=(game_id,))
        self._jobs_changed()

    async def record_action(
        self,
        game_id: int,
        *,
        expected_version: int,
        seat: int,
        action: dict,
        state_json: str,
        status: str = "running",
        deadline: float | None = None,
        result: dict | None = None,
        log: Sequence[tuple[int | None, str]] = (),
        ai_due: float | None = None,
    ) -> int:
        """Append one accepted action and its new snapshot in ONE committed transaction.

        The game's jobs are re-armed in it (migration 0006): a reminder and a timeout for the new
        deadline, and with ``ai_due`` an AI seat's move at that time; every older job is dropped.

        ``log`` holds the action's events in words, ``(seat or None for public, text)``, written
        to the table's log in the same transaction.

        Raises StaleVersion (and writes nothing) unless the game is at ``expected_version``;
        WrongStatus unless it is running. ``status`` is the status after the action
        ("finished" when it ended the game; the deadline is then cleared). The reminder
        flag is reset for a new deadline (kept with the same one: the same turn goes on). Returns the new version (= the action's seq).
        """
        if status not in ("running", *TERMINAL):
            raise ValueError(f"bad status after an action: {status!r}")
        action_text = canonical(action)
        result_text = None if result is None else canonical(result)
        if status != "running":
            deadline = None

        lines = [(game_id, expected_version + 1, line_seat, text) for line_seat, text in log]

        def steps() -> Steps[int]:
            row = yield (_ONE, self._STATUS_SQL, (game_id,))
            if row is None:
                raise NoSuchGame(game_id)
            if row["version"] != expected_version:
                raise StaleVersion(game_id, expected_version, row["version"])
            if row["status"] != "running":
                raise WrongStatus(game_id, row["status"], "record an action")
            new = expected_version + 1
            now = time.time()
            yield (
                _EXEC,
                "INSERT INTO actions (game_id, seq, seat, action, created_at) VALUES (?, ?, ?, ?, ?)",
                (game_id, new, seat, action_text, now),
            )
            count = yield (
                _EXEC,
                # the reminder flag stays when the deadline does (the same turn goes on: its reminder
                # was for this deadline); a new deadline gets its own reminder
                "UPDATE games SET version = ?, state = ?, status = ?, deadline = ?, "
                "reminded = CASE WHEN deadline = ? THEN reminded ELSE 0 END, "
                "result = ?, updated_at = ? WHERE id = ? AND version = ?",
                (new, state_json, status, deadline, deadline, result_text, now, game_id, expected_version),
            )
            if count != 1:  # cannot happen: the row is locked (or writers serial); never commit a half
                raise StaleVersion(game_id, expected_version, -1)
            if lines:
                yield (_MANY, "INSERT INTO log (game_id, version, seat, text) VALUES (?, ?, ?, ?)", lines)
            if status != "running":
                yield from self._stamp_steps(game_id, "finished_at", now)
            yield from self._arm_steps(game_id, ai_due=ai_due)
            return new

        new = await self._grouped(game_id, steps)
        self._jobs_changed()
        return new

    def _stamp_steps(self, game_id: int, column: str, when: float) -> Steps[None]:
        """:meth:`_stamp` as steps."""
        if self._times is None:
            self._times = (yield (_ONE, self._COLUMN_SQL, ("games", "finished_at"))) is not None
        if self._times:
            yield (_EXEC, f"UPDATE games SET {column} = ? WHERE id = ?", (when, game_id))

    @staticmethod
    async def _insert_log(
        db: Conn, game_id: int, version: int, lines: Sequence[tuple[int | None, str]]
    ) -> None:
        if lines:
            await db.executemany(
                "INSERT INTO log (game_id, version, seat, text) VALUES (?, ?, ?, ?)",
                [(game_id, version, seat, text) for seat, text in lines],
            )

    async def add_log(
        self, game_id: int, text: str, seat: int | None = None, version: int | None = None
    ) -> None:
        """A host's note on the table's log (a timer ran out, a seat changed hands), at ``version`` (the
        move it explains; another process may have moved since), by default the current version."""

        async def body(db: Conn) -> None:
            row = await self._status(db, game_id)
            at = row["version"] if version is None else min(version, row["version"])
            await self._insert_log(db, game_id, at, [(seat, text)])

        await self._write(body, games=(game_id,))

    async def recent_log(self, game_id: int, limit: int = 8, seat: int | None = None) -> list[str]:
        """The last ``limit`` public lines of the table's log, oldest first; with ``seat``, that
        seat's private lines instead."""
        where = "seat IS NULL" if seat is None else "seat = ?"
        params: list[Any] = [game_id] + ([] if seat is None else [seat]) + [limit]
        rows = await self._fetchall(
            f"SELECT text FROM log WHERE game_id = ? AND {where} ORDER BY id DESC LIMIT ?", params
        )
        return [r["text"] for r in reversed(rows)]

    async def record_resign(
        self,
        game_id: int,
        *,
        expected_version: int,
        seat: int,
        action: dict,
        result: dict | None = None,
        ai_name: str | None = None,
        deadline: float | None = None,
        ai_due: float | None = None,
    ) -> int:
        """Log that the player of ``seat`` resigned, in ONE committed transaction: a host action row
        (``action`` must be one :func:`is_host_action` knows; the engine and its snapshot are unchanged,
        and :func:`rebuild` skips the row), then either ``result``: the game is finished with it, or
        ``ai_name``: an AI takes the seat under that name and the game goes on with ``deadline``.
        Raises StaleVersion / WrongStatus like :meth:`record_action`. Returns the new version."""
        if not is_host_action(action):
            raise ValueError(f"not a host action: {action!r}")
        if (result is None) == (ai_name is None):
            raise ValueError("record_resign needs exactly one of result and ai_name")
        action_text = canonical(action)
        result_text = None if result is None else canonical(result)

        async def body(db: aiosqlite.Connection) -> int:
            row = await self._status(db, game_id)
            if row["version"] != expected_version:
                raise StaleVersion(game_id, expected_version, row["version"])
            if row["status"] != "running":
                raise WrongStatus(game_id, row["status"], "record a resignation")
            new = expected_version + 1
            now = time.time()
            await db.execute(
                "INSERT INTO actions (game_id, seq, seat, action, created_at) VALUES (?, ?, ?, ?, ?)",
                (game_id, new, seat, action_text, now),
            )
            if result is not None:
                await db.execute(
                    "UPDATE games SET version = ?, status = 'finished', deadline = NULL, reminded = 0, result = ?, "
                    "updated_at = ? WHERE id = ?",
                    (new, result_text, now, game_id),
                )
                await self._stamp(db, game_id, "finished_at", now)
            else:
                cur = await db.execute(
                    "UPDATE seats SET is_ai = 1, name = ?, missed = 0 WHERE game_id = ? AND seat = ?",
                    (ai_name, game_id, seat),
                )
                if cur.rowcount == 0:
                    raise NoSuchSeat(game_id, seat)
                await db.execute(
                    "UPDATE games SET version = ?, deadline = ?, reminded = 0, updated_at = ? WHERE id = ?",
                    (new, deadline, now, game_id),
                )
            await self._drive(db, self._arm_steps(game_id, ai_due=ai_due))
            return new

        new = await self._write(body, games=(game_id,))
        self._jobs_changed()
        return new

    async def resigned(self, game_id: int) -> list[ActionRow]:
        """The resignations logged for a game (host action rows), in order."""
        rows = await self._fetchall(
            f"SELECT * FROM actions WHERE game_id = ? AND {self._JSON_HOST} = 'resign' ORDER BY seq",
            (game_id,),
        )
        return [ActionRow._from(r) for r in rows]

    async def count_moves(self, game_id: int) -> int:
        """The number of logged game actions that stand (host action rows such as a resignation not
        counted, nor a move taken back by an undo: each undo row takes back one move)."""
        row = await self._fetchone(
            f"SELECT coalesce(sum(CASE WHEN {self._JSON_HOST} IS NULL THEN 1 "
            f"WHEN {self._JSON_HOST} = 'undo' THEN -1 ELSE 0 END), 0) FROM actions WHERE game_id = ?",
            (game_id,),
        )
        return int(row[0])

    async def set_deadline(self, game_id: int, deadline: float | None, reminded: bool = False) -> None:
        async def body(db: Conn) -> None:
            cur = await db.execute(
                "UPDATE games SET deadline = ?, reminded = ?, updated_at = ? WHERE id = ?",
                (deadline, int(bool(reminded)), time.time(), game_id),
            )
            if cur.rowcount == 0:
                raise NoSuchGame(game_id)
            await self._drive(db, self._arm_steps(game_id, keep_ai=True))

        await self._write(body, games=(game_id,))
        self._jobs_changed()

    async def mark_reminded(self, game_id: int, deadline: float | None = None) -> bool:
        """Note that the half-time reminder was sent. With ``deadline``, only if the game still
        has that deadline (a move may have set a new one meanwhile). True if it was marked."""

        async def body(db: Conn) -> bool:
            if deadline is None:
                cur = await db.execute("UPDATE games SET reminded = 1 WHERE id = ?", (game_id,))
            else:
                cur = await db.execute(
                    "UPDATE games SET reminded = 1 WHERE id = ? AND deadline = ?", (game_id, deadline)
                )
            if cur.rowcount == 0:
                await self._status(db, game_id)  # NoSuchGame if it does not exist
                return False
            await self._drive(db, self._drop_jobs_steps(game_id, kind="reminder"))
            return True

        return await self._write(body, games=(game_id,))

    async def set_status(self, game_id: int, status: str, result: dict | None = None) -> None:
        """lobby → abandoned, running → finished / abandoned / suspended, suspended → abandoned (or the
        same status, to set the result). A finished, abandoned or suspended game has no deadline.
        ``result`` is kept unless given."""
        if status not in STATUSES:
            raise ValueError(f"unknown status {status!r}")
        result_text = None if result is None else canonical(result)

        async def body(db: Conn) -> None:
            row = await self._status(db, game_id)
            current = row["status"]
            if current != status and (current, status) not in _TRANSITIONS:
                raise WrongStatus(game_id, current, f"make it {status}")
            now = time.time()
            await db.execute(
                "UPDATE games SET status = ?, result = coalesce(?, result), "
                "deadline = CASE WHEN ? IN ('finished', 'abandoned', 'suspended') THEN NULL ELSE deadline END, "
                "updated_at = ? WHERE id = ?",
                (status, result_text, status, now, game_id),
            )
            if status in TERMINAL and current != status:
                await self._stamp(db, game_id, "finished_at", now)
            if status != "running":  # no timer, no AI move any more
                await self._drive(db, self._drop_jobs_steps(game_id))

        await self._write(body, games=(game_id,))

    async def actions(self, game_id: int, since: int = 0) -> list[ActionRow]:
        """The logged actions with seq > ``since``, in order."""
        rows = await self._fetchall(
            "SELECT * FROM actions WHERE game_id = ? AND seq > ? ORDER BY seq", (game_id, since)
        )
        return [ActionRow._from(r) for r in rows]

    # --- seats ---
    async def add_seat(
        self, game_id: int, *, user_id: int | None, is_ai: bool, name: str, dm_ok: bool | None = None
    ) -> int:
        """Add a seat to a game in the lobby; returns its number (0, 1, …)."""

        async def body(db: Conn) -> int:
            row = await self._status(db, game_id)
            if row["status"] != "lobby":
                raise WrongStatus(game_id, row["status"], "add a seat")
            nxt = (
                await self._one(
                    db, "SELECT coalesce(max(seat) + 1, 0) FROM seats WHERE game_id = ?", (game_id,)
                )
            )[0]
            await db.execute(
                "INSERT INTO seats (game_id, seat, user_id, is_ai, name, dm_ok, missed) VALUES (?, ?, ?, ?, ?, ?, 0)",
                (game_id, nxt, user_id, int(bool(is_ai)), name, None if dm_ok is None else int(bool(dm_ok))),
            )
            return nxt

        return await self._write(body, games=(game_id,))

    async def remove_seat(self, game_id: int, seat: int) -> None:
        """Remove a seat of a game in the lobby; later seats move down so seats stay 0..n-1."""

        async def body(db: Conn) -> None:
            row = await self._status(db, game_id)
            if row["status"] != "lobby":
                raise WrongStatus(game_id, row["status"], "remove a seat")
            cur = await db.execute("DELETE FROM seats WHERE game_id = ? AND seat = ?", (game_id, seat))
            if cur.rowcount == 0:
                raise NoSuchSeat(game_id, seat)
            later = await db.execute_fetchall(
                "SELECT seat FROM seats WHERE game_id = ? AND seat > ? ORDER BY seat", (game_id, seat)
            )
            for r in later:  # ascending, so each target number is free
                await db.execute(
                    "UPDATE seats SET seat = ? WHERE game_id = ? AND seat = ?", (r[0] - 1, game_id, r[0])
                )

        await self._write(body, games=(game_id,))

    async def seats(self, game_id: int) -> list[SeatRow]:
        rows = await self._fetchall("SELECT * FROM seats WHERE game_id = ? ORDER BY seat", (game_id,))
        return [SeatRow._from(r) for r in rows]

    async def update_seat(self, game_id: int, seat: int, **fields: Any) -> None:
        """Change user_id, is_ai, name, dm_ok (None = unknown) and/or missed of one seat."""
        unknown = set(fields) - set(_SEAT_FIELDS)
        if unknown:
            raise TypeError(f"update_seat: unknown fields {sorted(unknown)}")
        if not fields:
            return
        values = []
        for key, value in fields.items():
            if key == "is_ai" or (key == "dm_ok" and value is not None):
                value = int(bool(value))
            values.append(value)
        assignments = ", ".join(f"{key} = ?" for key in fields)

        async def body(db: Conn) -> None:
            cur = await db.execute(
                f"UPDATE seats SET {assignments} WHERE game_id = ? AND seat = ?", (*values, game_id, seat)
            )
            if cur.rowcount == 0:
                raise NoSuchSeat(game_id, seat)

        await self._write(body, games=(game_id,))

    # --- messages ---
    async def set_message(self, game_id: int, kind: str, channel_id: int, message_id: int) -> None:
        async def body(db: Conn) -> None:
            await db.execute(
                "INSERT INTO messages (game_id, kind, channel_id, message_id) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (game_id, kind) DO UPDATE SET channel_id = excluded.channel_id, "
                "message_id = excluded.message_id",
                (game_id, kind, channel_id, message_id),
            )

        await self._write(body, games=(game_id,))

    async def get_message(self, game_id: int, kind: str) -> tuple[int, int] | None:
        row = await self._fetchone(
            "SELECT channel_id, message_id FROM messages WHERE game_id = ? AND kind = ?", (game_id, kind)
        )
        return None if row is None else (row[0], row[1])

    async def messages(self, game_id: int) -> dict[str, tuple[int, int]]:
        """Every stored message of a game: kind → (channel_id, message_id)."""
        rows = await self._fetchall(
            "SELECT kind, channel_id, message_id FROM messages WHERE game_id = ? ORDER BY kind", (game_id,)
        )
        return {r[0]: (r[1], r[2]) for r in rows}

    async def save_messages(self, game_id: int, changes: dict[str, tuple[int, int] | None]) -> None:
        """Store (kind → (channel_id, message_id)) or forget (kind → None) messages of a game, all in ONE
        transaction: a group commit like :meth:`record_action`'s (on SQLite one round trip, not the
        three of BEGIN, the statement and COMMIT)."""
        stored = [(game_id, kind, pair[0], pair[1]) for kind, pair in changes.items() if pair is not None]
        gone = [(game_id, kind) for kind, pair in changes.items() if pair is None]

        def steps() -> Steps[None]:
            if stored:
                yield (
                    _MANY,
                    "INSERT INTO messages (game_id, kind, channel_id, message_id) VALUES (?, ?, ?, ?) "
                    "ON CONFLICT (game_id, kind) DO UPDATE SET channel_id = excluded.channel_id, "
                    "message_id = excluded.message_id",
                    stored,
                )
            if gone:
                yield (_MANY, "DELETE FROM messages WHERE game_id = ? AND kind = ?", gone)

        if changes:
            await self._grouped(game_id, steps)

    async def delete_message(self, game_id: int, kind: str) -> None:
        async def body(db: Conn) -> None:
            await db.execute("DELETE FROM messages WHERE game_id = ? AND kind = ?", (game_id, kind))

        await self._write(body, games=(game_id,))

    # --- meta ---
    async def get_meta(self, key: str) -> str | None:
        row = await self._fetchone("SELECT value FROM meta WHERE key = ?", (key,))
        return None if row is None else row[0]

    async def delete_meta(self, key: str) -> None:
        async def body(db: Conn) -> None:
            await db.execute("DELETE FROM meta WHERE key = ?", (key,))

        await self._write(body)

    async def set_meta(self, key: str, value: str) -> None:
        async def body(db: Conn) -> None:
            await db.execute(
                "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (key, str(value)),
            )

        await self._write(body)

    async def swap_meta(self, key: str, old: str | None, new: str | None) -> bool:
        """Compare-and-set: make ``key`` hold ``new`` (None: no row) only if it holds ``old`` now (None:
        no row); True when it did. Two processes changing one value at once: one wins, the other gets
        False and reads again (a plain ``set_meta`` would let the later write drop the earlier)."""

        async def body(db: Conn) -> bool:
            if old is None and new is None:
                rows = await db.execute_fetchall("SELECT 1 FROM meta WHERE key = ?", (key,))
                return not rows
            if old is None:
                cur = await db.execute(
                    "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING",
                    (key, str(new)),
                )
            elif new is None:
                cur = await db.execute("DELETE FROM meta WHERE key = ? AND value = ?", (key, old))
            else:
                cur = await db.execute(
                    "UPDATE meta SET value = ? WHERE key = ? AND value = ?", (str(new), key, old)
                )
            return cur.rowcount == 1

        return await self._write(body)

    # --- jobs (migration 0006) ---
    def on_jobs(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` (no arguments, not awaited) whenever jobs may have been armed: after this
        storage committed such a write and, on PostgreSQL once :meth:`listen_jobs` ran, when another
        process did (NOTIFY)."""
        if callback not in self._job_callbacks:
            self._job_callbacks.append(callback)

    def _jobs_changed(self) -> None:
        for callback in list(self._job_callbacks):
            callback()

    async def listen_jobs(self) -> None:
        """Hear other processes arm jobs (PostgreSQL: LISTEN on a connection of its own). SQLite has one
        process: nothing to hear."""

    def _arm_steps(self, game_id: int, *, ai_due: float | None = None, keep_ai: bool = False) -> Steps[None]:
        """Re-arm the game's jobs from its row as just written (in the writer's transaction): drop its
        jobs (but its ``ai`` job with ``keep_ai``), then a ``timeout`` at its deadline and a ``reminder``
        at half time (unless sent), and an ``ai`` job at ``ai_due``, all for its current version."""
        if not (yield from self._drop_jobs_steps(game_id, keep_ai=keep_ai)):
            return
        row = yield (
            _ONE,
            "SELECT status, version, deadline, reminded, turn_timeout, updated_at FROM games WHERE id = ?",
            (game_id,),
        )
        if row is None or row["status"] != "running":
            return
        jobs: list[tuple[str, float]] = []
        turn_timeout, deadline = _timer(row["turn_timeout"], row["deadline"], row["updated_at"])
        if deadline is not None:
            jobs.append(("timeout", deadline))
            if turn_timeout and not row["reminded"]:
                jobs.append(("reminder", deadline - turn_timeout / 2))
        if ai_due is not None and not keep_ai:
            jobs.append(("ai", ai_due))
        if jobs:
            yield (
                _MANY,
                "INSERT INTO jobs (game_id, kind, due, version) VALUES (?, ?, ?, ?)",
                [(game_id, kind, due, row["version"]) for kind, due in jobs],
            )
            if self._NOTIFY_SQL:
                yield (_ONE, self._NOTIFY_SQL, ())

    def _drop_jobs_steps(
        self, game_id: int, *, keep_ai: bool = False, kind: str | None = None
    ) -> Steps[bool]:
        """Drop the game's jobs (but its ``ai`` one with ``keep_ai``; only those of ``kind`` with it).
        False on a schema older than migration 0006 (no jobs table: tests open such with today's code)."""
        if self._has_jobs is None:
            self._has_jobs = (yield (_ONE, self._COLUMN_SQL, ("jobs", "kind"))) is not None
        if not self._has_jobs:
            return False
        sql = "DELETE FROM jobs WHERE game_id = ?" + (" AND kind <> 'ai'" if keep_ai else "")
        yield (_EXEC, sql + (" AND kind = ?" if kind else ""), (game_id, kind) if kind else (game_id,))
        return True

    async def arm_ai(self, game_id: int, version: int, due: float) -> bool:
        """Arm an AI seat's move of game ``game_id`` at ``version`` (a seat changed hands without a move).
        An ``ai`` job already armed for that version is left as it is, unless a process holds it: that
        one may have looked before the seat changed hands ("no AI seat to move") and would drop it, so it
        is let go (armed again, unclaimed: whoever claims it next looks again; should the holder move
        meanwhile, its move re-arms the game's jobs anyway). True if a job was armed.

        The game's row is locked first (PostgreSQL): a move of another process committing meanwhile is
        waited for and then seen (nothing armed), rather than its new job overwritten with this older
        version (which whoever claims it would drop as out of date, leaving the AI seat with no job)."""

        async def body(db: Conn) -> bool:
            game = await self._one(db, self._STATUS_SQL, (game_id,))
            if game is None or game["version"] != version or game["status"] != "running":
                return False
            rows = await db.execute_fetchall(
                "INSERT INTO jobs (game_id, kind, due, version) SELECT id, 'ai', CAST(? AS DOUBLE PRECISION), version "
                "FROM games WHERE id = ? AND version = ? AND status = 'running' "
                "ON CONFLICT (game_id, kind) DO UPDATE SET due = excluded.due, version = excluded.version, "
                "claimed_by = NULL, claimed_until = NULL "
                "WHERE jobs.version <> excluded.version OR jobs.claimed_by IS NOT NULL "
                "RETURNING game_id",
                (due, game_id, version),
            )
            if rows and self._NOTIFY_SQL:
                await db.execute_fetchall(self._NOTIFY_SQL)
            return bool(rows)

        armed = await self._write(body, games=(game_id,))
        if armed:
            self._jobs_changed()
        return armed

    async def claim_jobs(self, owner: str, now: float, lease: float, limit: int = 50) -> list[JobRow]:
        """Claim up to ``limit`` jobs due at ``now`` that nobody holds (never claimed, or their lease ran
        out: the process that held them died), for ``owner`` until ``now + lease``; soonest first. Two
        processes never claim one job at once (PostgreSQL: FOR UPDATE SKIP LOCKED; SQLite: one writer)."""

        async def body(db: Conn) -> list[JobRow]:
            rows = await db.execute_fetchall(
                "UPDATE jobs SET claimed_by = ?, claimed_until = ? WHERE (game_id, kind) IN ("
                "SELECT game_id, kind FROM jobs WHERE due <= ? AND (claimed_until IS NULL OR claimed_until < ?) "
                f"ORDER BY due LIMIT ?{self._SKIP_LOCKED}) "
                "RETURNING game_id, kind, due, version, claimed_by, claimed_until",
                (owner, now + lease, now, now, int(limit)),
            )
            return sorted((JobRow._from(r) for r in rows), key=lambda j: (j.due, j.game_id))

        return await self._write(body, games=())

    async def complete_job(self, job: JobRow, owner: str, *, reminded: bool = False) -> bool:
        """The job is done: drop it, if ``owner`` still holds it as claimed (a move since re-armed the
        game's jobs, or the lease ran out and another took it: then nothing). ``reminded``: mark the
        game's reminder as sent in the same transaction. True if it was ours."""

        async def body(db: Conn) -> bool:
            cur = await db.execute(
                "DELETE FROM jobs WHERE game_id = ? AND kind = ? AND version = ? AND claimed_by = ?",
                (job.game_id, job.kind, job.version, owner),
            )
            if cur.rowcount != 1:
                return False
            if reminded:
                await db.execute("UPDATE games SET reminded = 1 WHERE id = ?", (job.game_id,))
            return True

        return await self._write(body, games=(job.game_id,))

    async def release_jobs(self, owner: str) -> None:
        """Give up every job ``owner`` holds (a process shutting down): another may claim them at once."""

        async def body(db: Conn) -> None:
            await db.execute(
                "UPDATE jobs SET claimed_by = NULL, claimed_until = NULL WHERE claimed_by = ?", (owner,)
            )

        await self._write(body, games=())

    async def rearm_jobs(self, game_id: int) -> None:
        """Arm the game's timer jobs again from its row (its ``ai`` job is kept)."""

        async def body(db: Conn) -> None:
            await self._drive(db, self._arm_steps(game_id, keep_ai=True))

        await self._write(body, games=(game_id,))
        self._jobs_changed()

    async def next_job_at(self) -> float | None:
        """When a job can next be claimed: the soonest due time, or for a claimed job the end of its
        lease when that is later. None: no job."""
        row = await self._fetchone(
            "SELECT min(CASE WHEN claimed_until IS NOT NULL AND claimed_until > due THEN claimed_until "
            "ELSE due END) FROM jobs"
        )
        return None if row is None else row[0]

    async def unarmed_games(self, quiet_since: float, limit: int = 200) -> list[tuple[int, int, int]]:
        """(id, version, AI seats) of running games with an AI seat, no turn deadline and no job at all,
        unchanged since ``quiet_since``: where an AI seat may be due with nothing armed for it (the
        scheduler's sweep looks at each). A human's turn without a timer looks the same; the caller
        tells them apart."""
        rows = await self._fetchall(
            "SELECT g.id, g.version, (SELECT count(*) FROM seats s WHERE s.game_id = g.id AND s.is_ai = 1) AS ais "
            "FROM games g WHERE g.status = 'running' AND g.deadline IS NULL AND g.updated_at < ? "
            "AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.game_id = g.id) "
            "AND EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.is_ai = 1) ORDER BY g.id LIMIT ?",
            (quiet_since, int(limit)),
        )
        return [(int(r[0]), int(r[1]), int(r[2])) for r in rows]

    async def jobs(self, game_id: int | None = None, kind: str | None = None) -> list[JobRow]:
        """The armed jobs (of one game, of one kind), soonest first."""
        rows = await self._fetchall(
            "SELECT * FROM jobs WHERE game_id = coalesce(?, game_id) AND kind = coalesce(?, kind) "
            "ORDER BY due, game_id, kind",
            (game_id, kind),
        )
        return [JobRow._from(r) for r in rows]

    async def resume_games(self, game_ids: Sequence[int], note: str, ai_due: float) -> None:
        """After a start, in ONE transaction: a ``note`` on each game's log (at its version), and an
        ``ai`` job at ``ai_due`` for each that has an AI seat and none armed (it does nothing when no AI
        seat is to move). Timers need nothing: their jobs are rows already."""
        if not game_ids:
            return

        async def body(db: Conn) -> None:
            await db.executemany(
                "INSERT INTO log (game_id, version, seat, text) SELECT id, version, NULL, CAST(? AS TEXT) FROM games WHERE id = ?",
                [(note, gid) for gid in game_ids],
            )
            await db.executemany(
                "INSERT INTO jobs (game_id, kind, due, version) SELECT id, 'ai', CAST(? AS DOUBLE PRECISION), version "
                "FROM games g WHERE id = ? AND status = 'running' AND EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id "
                "AND s.is_ai = 1) ON CONFLICT (game_id, kind) DO NOTHING",
                [(ai_due, gid) for gid in game_ids],
            )
            if self._NOTIFY_SQL:
                await db.execute_fetchall(self._NOTIFY_SQL)

        await self._write(body)
        self._jobs_changed()

    # --- ratings (migration 0005) ---
    async def record_rating(self, game_id: int, places: Sequence[Any], *, cooperative: bool = False) -> bool:
        """Rate finished game ``game_id`` in ONE transaction: each player's rating row is read (or
        starts at openskill's default), updated from ``places`` (:class:`bot.ratings.Place`, one per
        seat) and written with its games/wins/losses/draws, and a ``rating_events`` row per player
        records the change. ``cooperative``: counts only, mu and sigma stay as they are.

        A game is rated at most once (the events' primary key; a second call finds them and returns
        False); a game that is not finished (abandoned, running…) or outside a server is not rated
        (False). True when this call rated it."""
        from bot import ratings

        seen: set[str] = set()
        places = [p for p in places if not (p.player in seen or seen.add(p.player))]

        async def body(db: Conn) -> bool:
            game = await self._one(
                db,
                "SELECT guild_id, game_key, status, finished_at, updated_at FROM games WHERE id = ?",
                (game_id,),
            )
            if game is None:
                raise NoSuchGame(game_id)
            if game["status"] != "finished" or game["guild_id"] is None or len(places) < 1:
                return False
            if await self._one(db, "SELECT 1 FROM rating_events WHERE game_id = ?", (game_id,)):
                return False
            guild, key = game["guild_id"], game["game_key"]
            when = game["finished_at"] if game["finished_at"] is not None else game["updated_at"]
            now = time.time()
            current = []
            for p in places:
                row = await self._one(
                    db,
                    "SELECT mu, sigma FROM ratings WHERE guild_id = ? AND game_key = ? AND player = ?",
                    (guild, key, p.player),
                )
                current.append((ratings.MU, ratings.SIGMA) if row is None else (row["mu"], row["sigma"]))
            new = (
                current
                if cooperative or len(places) < 2
                else ratings.update(current, [p.rank for p in places])
            )
            for p, (mu0, s0), (mu1, s1) in zip(places, current, new, strict=True):
                counts = (int(p.outcome == "win"), int(p.outcome == "loss"), int(p.outcome == "draw"))
                await db.execute(
                    "INSERT INTO ratings (guild_id, game_key, player, name, mu, sigma, games, wins, losses, draws, "
                    "updated_at) VALUES (?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?) "
                    "ON CONFLICT (guild_id, game_key, player) DO UPDATE SET name = excluded.name, "
                    "mu = excluded.mu, sigma = excluded.sigma, games = ratings.games + 1, "
                    "wins = ratings.wins + excluded.wins, losses = ratings.losses + excluded.losses, "
                    "draws = ratings.draws + excluded.draws, updated_at = excluded.updated_at",
                    (guild, key, p.player, p.name, mu1, s1, *counts, now),
                )
                await db.execute(
                    "INSERT INTO rating_events (game_id, player, guild_id, game_key, seat, name, rank, outcome, "
                    "mu_before, sigma_before, mu_after, sigma_after, created_at) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        game_id,
                        p.player,
                        guild,
                        key,
                        p.seat,
                        p.name,
                        p.rank,
                        p.outcome,
                        mu0,
                        s0,
                        mu1,
                        s1,
                        when,
                    ),
                )
            return True

        return await self._write(body)

    async def is_rated(self, game_id: int) -> bool:
        return await self._fetchone("SELECT 1 FROM rating_events WHERE game_id = ?", (game_id,)) is not None

    async def unrated_games(self, since: float = 0.0) -> list[int]:
        """Finished games of a server, ended after ``since``, that have no rating yet (a crash between
        the finish and its rating), oldest first."""
        rows = await self._fetchall(
            "SELECT id FROM games g WHERE status = 'finished' AND guild_id IS NOT NULL "
            "AND coalesce(finished_at, updated_at) >= ? "
            "AND NOT EXISTS (SELECT 1 FROM rating_events e WHERE e.game_id = g.id) ORDER BY id",
            (since,),
        )
        return [r[0] for r in rows]

    async def player_stats(self, guild_id: int, player: str, game_key: str | None = None) -> list[RatingRow]:
        """A player's rating rows in a server (every game they played, or one), by game key."""
        rows = await self._fetchall(
            "SELECT * FROM ratings WHERE guild_id = ? AND player = ? AND game_key = coalesce(?, game_key) "
            "ORDER BY game_key",
            (guild_id, player, game_key),
        )
        return [RatingRow._from(r) for r in rows]

    _BOARD_ORDER = "ORDER BY mu - 3 * sigma DESC, wins DESC, games DESC, player"

    async def leaderboard(
        self, guild_id: int, game_key: str, offset: int = 0, limit: int = 10
    ) -> tuple[list[RatingRow], int]:
        """One page of a server's ranking for a game (best ordinal first; then wins) and how many
        players it holds in all."""
        rows = await self._fetchall(
            f"SELECT * FROM ratings WHERE guild_id = ? AND game_key = ? {self._BOARD_ORDER} LIMIT ? OFFSET ?",
            (guild_id, game_key, max(0, int(limit)), max(0, int(offset))),
        )
        total = await self._fetchone(
            "SELECT count(*) FROM ratings WHERE guild_id = ? AND game_key = ?", (guild_id, game_key)
        )
        return [RatingRow._from(r) for r in rows], total[0]

    async def last_games(
        self, guild_id: int, player: str, limit: int = 5, game_key: str | None = None
    ) -> list[PastGame]:
        """A player's last rated games in a server, newest first, with their opponents' names."""
        mine = await self._fetchall(
            "SELECT game_id, game_key, created_at, outcome, rank FROM rating_events WHERE guild_id = ? "
            "AND player = ? AND game_key = coalesce(?, game_key) "
            "ORDER BY created_at DESC, game_id DESC LIMIT ?",
            (guild_id, player, game_key, max(0, int(limit))),
        )
        if not mine:
            return []
        ids = [r["game_id"] for r in mine]
        others = await self._fetchall(
            f"SELECT game_id, name FROM rating_events WHERE game_id IN ({', '.join('?' * len(ids))}) "
            "AND player <> ? ORDER BY game_id, seat",
            (*ids, player),
        )
        names: dict[int, list[str]] = {}
        for r in others:
            names.setdefault(r["game_id"], []).append(r["name"])
        return [
            PastGame(
                r["game_id"],
                r["game_key"],
                r["created_at"],
                r["outcome"],
                r["rank"],
                tuple(names.get(r["game_id"], ())),
            )
            for r in mine
        ]

    # --- history (issue 13) ---
    _HISTORY_COLUMNS = (
        "id, guild_id, channel_id, thread_id, game_key, status, version, created_at, updated_at, "
        "started_at, finished_at, result"
    )

    async def history(
        self,
        guild_id: int | None,
        *,
        place: int | None = None,
        user_id: int | None = None,
        channels: Iterable[int] | None = None,
        offset: int = 0,
        limit: int = 10,
    ) -> list[HistoryEntry]:
        """Past games (finished or abandoned, that were started) of a server, newest first, in ONE query
        each: those of a channel (``place``: games opened in that channel, their threads included, or
        played in that thread) or those a member (``user_id``) had a seat in. ``channels``: only games
        opened in those channels (the ones the person asking can see). Each entry carries its seats'
        names. Ask for ``limit + 1`` to know whether another page follows."""
        if (place is None) == (user_id is None):
            raise ValueError("history: give exactly one of place and user_id")
        if place is not None:
            where, arg = "(channel_id = ? OR thread_id = ?)", (place, place)
        else:
            where, arg = (
                "EXISTS (SELECT 1 FROM seats s WHERE s.game_id = games.id AND s.user_id = ?)",
                (user_id,),
            )
        if channels is not None:
            seen = sorted({int(c) for c in channels})
            if not seen:
                return []
            where += f" AND channel_id IN ({', '.join('?' * len(seen))})"
            arg = (*arg, *seen)
        rows = await self._fetchall(
            f"SELECT {self._HISTORY_COLUMNS}, {self._SEATS_JSON} AS seats_json FROM games "
            f"WHERE guild_id {self._IS} ? AND status IN ('finished', 'abandoned') AND state IS NOT NULL "
            f"AND {where} ORDER BY coalesce(finished_at, updated_at) DESC, id DESC LIMIT ? OFFSET ?",
            (guild_id, *arg, max(0, int(limit)), max(0, int(offset))),
        )
        return [HistoryEntry._from(r) for r in rows]


class _Retry(Exception):
    """A group's write failed after it wrote: the group runs again, a savepoint around each write."""


# ----- replay ------------------------------------------------------------------
HOST_ACTIONS = ("resign", "undo")


def is_host_action(action: dict) -> bool:
    """An action row the host logged that is no move of the engine: ``{"host": "resign", ...}``, or
    ``{"host": "undo", "undoes": seq}`` (the move ``seq`` was taken back by agreement; no game's
    actions have a "host" key). The engine does not apply it."""
    return action.get("host") in HOST_ACTIONS


def undone_seqs(actions: Sequence[ActionRow]) -> set[int]:
    """The seqs of the moves taken back by an undo row of ``actions`` (each undo names an earlier seq)."""
    return {
        a.action["undoes"]
        for a in actions
        if a.action.get("host") == "undo"
        and isinstance(a.action.get("undoes"), int)
        and 0 < a.action["undoes"] < a.seq
    }


def live_moves(actions: Sequence[ActionRow]) -> list[ActionRow]:
    """The engine moves of a log that stand: host rows left out, and the moves an undo took back."""
    undone = undone_seqs(actions)
    return [a for a in actions if not is_host_action(a.action) and a.seq not in undone]


def rebuild(
    row: GameRow,
    actions: Sequence[ActionRow],
    seats: int | Sequence[SeatRow] | None = None,
    *,
    spec: GameSpec | None = None,
) -> Game:
    """The game rebuilt from its seed and its action log.

    ``spec.new(players, row.options, row.seed)``, then every logged action applied in order
    (seq must run 1, 2, …). ``seats`` is the number of players (or the seat rows); without it
    the number is read from the snapshot. ``spec`` defaults to ``registry.get(row.game_key)``.
    Raises IllegalAction if the log does not replay (the rules changed, or the log is wrong).
    """
    if spec is None:
        from bot.games import registry

        spec = registry.get(row.game_key)
    if spec.key != row.game_key:
        raise ValueError(f"spec {spec.key!r} cannot rebuild a {row.game_key!r} game")
    if seats is None:
        if row.state_json is None:
            raise ValueError(f"game {row.id} has no snapshot: pass the number of seats")
        players = json.loads(row.state_json)["players"]
    elif isinstance(seats, int):
        players = seats
    else:
        players = len(seats)
    game = spec.new(players, row.options, row.seed)
    undone = undone_seqs(actions)
    for expected, act in enumerate(actions, start=1):
        if act.seq != expected:
            raise ValueError(f"game {row.id}: action log has seq {act.seq} where {expected} was expected")
        if is_host_action(act.action) or act.seq in undone:
            continue  # a resignation or an undo: the host's record; a move taken back by an undo
        game.apply(act.seat, act.action)
    return game


def replay_matches(row: GameRow, actions: Sequence[ActionRow], **kwargs: Any) -> bool:
    """True when the log rebuilds exactly the stored snapshot (and covers all of it)."""
    if row.state_json is None or len(actions) != row.version:
        return False
    return rebuild(row, actions, **kwargs).to_json() == row.state_json
