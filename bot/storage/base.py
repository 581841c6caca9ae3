"""Storage: one interface (:class:`Storage`), two backends.

``await Storage.open(target)`` (that is :func:`bot.storage.open_storage`: the package knows the
backends, this module knows none) gives a :class:`SqliteStorage` for a file path (the default: one
SQLite file, aiosqlite, WAL mode; described below) or a :class:`PostgresStorage` for a
``postgresql://`` URL (asyncpg; see its docstring). The domain logic — every check, error and SQL
statement — is written once, in the parts :class:`Storage` is composed of (one module each, below);
SQL uses ``?`` placeholders, turned into ``$n`` for PostgreSQL.

Parts. ``core`` (transactions, group commit, reads, the dialect's details), ``games`` (a game's row,
its status and timer, the table's reads), ``seats``, ``stats`` (a player's record for /stats),
``actions`` (the action log), ``replay`` (:func:`rebuild` from the log), ``tablelog`` (the lines the
table shows), ``messages``, ``meta``, ``jobs``, ``ratings``, ``history``, ``mygames`` (a member's games
everywhere), ``follows``, ``imports``, ``notify`` (turn alerts), ``clocks`` (clocks changed by
agreement, vacations); ``rows``, ``errors`` and ``migrations`` hold what they share. Migrations are
plain SQL per dialect, version for version: ``bot/migrations/sqlite/`` and ``bot/migrations/postgres/``
(the same numbers and names).

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

from bot.storage.actions import ActionLogStore
from bot.storage.clocks import ClocksStore
from bot.storage.core import POSTGRES_SCHEMES, StorageCore, is_postgres_url
from bot.storage.errors import (
    ChannelBusy,
    DatabaseUnusable,
    NoSuchGame,
    NoSuchSeat,
    StaleVersion,
    StorageError,
    WrongStatus,
)
from bot.storage.follows import FollowRow, FollowsStore
from bot.storage.games import GamesStore
from bot.storage.history import HistoryStore
from bot.storage.imports import ImportsStore
from bot.storage.jobs import JOB_KINDS, JOBS_CHANNEL, JobsStore
from bot.storage.locales import LocalesStore
from bot.storage.messages import MessagesStore
from bot.storage.meta import MetaStore
from bot.storage.migrations import (
    MIGRATIONS_DIR,
    MIGRATIONS_ROOT,
    PG_MIGRATIONS_DIR,
    Migration,
    load_migrations,
    split_sql,
)
from bot.storage.mygames import MyGamesStore, SeatedGame
from bot.storage.notify import NOTIFY_JOB_KINDS, NotifyJob, NotifyStore
from bot.storage.ratings import RatingsStore
from bot.storage.replay import (
    HOST_ACTIONS,
    is_host_action,
    live_moves,
    move_number,
    move_step,
    rebuild,
    replay_matches,
    undone_seqs,
)
from bot.storage.rows import (
    ACTIVE,
    STATUSES,
    SUSPENDED,
    TERMINAL,
    ActionRow,
    GameRow,
    HistoryEntry,
    JobRow,
    Leaderboard,
    PastGame,
    RatingChange,
    RatingRow,
    SeatRow,
)
from bot.storage.seats import SeatsStore
from bot.storage.stats import PlayerRecord, StatsStore
from bot.storage.tablelog import TableLogStore


class Storage(
    GamesStore,
    SeatsStore,
    ActionLogStore,
    TableLogStore,
    MessagesStore,
    MetaStore,
    ClocksStore,
    JobsStore,
    RatingsStore,
    StatsStore,
    HistoryStore,
    MyGamesStore,
    FollowsStore,
    ImportsStore,
    NotifyStore,
    LocalesStore,
    StorageCore,
):
    """The storage interface: games, seats, the action log, the table's log, messages, meta, jobs,
    ratings, a player's record (stats), history and turn alerts (``notify``), one part each (see the
    module's docstring).

    ``await Storage.open(path_or_url)`` opens the right backend: :class:`SqliteStorage` for a file
    path (or ``:memory:``), :class:`PostgresStorage` for a ``postgresql://`` URL. The domain logic
    (checks, errors, SQL) lives in the parts, once; a backend supplies the connection, transactions,
    migrations and the few dialect details of :class:`StorageCore`.
    """


__all__ = [
    "ACTIVE",
    "HOST_ACTIONS",
    "JOB_KINDS",
    "JOBS_CHANNEL",
    "MIGRATIONS_DIR",
    "MIGRATIONS_ROOT",
    "PG_MIGRATIONS_DIR",
    "POSTGRES_SCHEMES",
    "STATUSES",
    "SUSPENDED",
    "TERMINAL",
    "ActionRow",
    "ChannelBusy",
    "DatabaseUnusable",
    "FollowRow",
    "GameRow",
    "HistoryEntry",
    "Leaderboard",
    "JobRow",
    "Migration",
    "NoSuchGame",
    "NoSuchSeat",
    "NOTIFY_JOB_KINDS",
    "NotifyJob",
    "PastGame",
    "PlayerRecord",
    "RatingChange",
    "RatingRow",
    "SeatRow",
    "SeatedGame",
    "StaleVersion",
    "Storage",
    "StorageCore",
    "StorageError",
    "WrongStatus",
    "is_host_action",
    "is_postgres_url",
    "live_moves",
    "move_number",
    "move_step",
    "load_migrations",
    "rebuild",
    "replay_matches",
    "split_sql",
    "undone_seqs",
]
