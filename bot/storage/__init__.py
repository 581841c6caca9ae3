"""Storage: one interface, two backends.

- :mod:`bot.storage.base`: :class:`Storage` (every check, error and SQL statement, written once),
  composed of one module per part: ``core`` (transactions, group commit), ``games``, ``seats``, ``stats``,
  ``actions`` (the action log), ``replay`` (:func:`rebuild`: a game from its seed and action log),
  ``tablelog``, ``messages``, ``meta``, ``jobs``, ``ratings``, ``stats``, ``history``, ``mygames``,
  ``follows``, ``imports``, ``notify``, ``clocks``; with ``rows`` (the row types), ``errors`` and
  ``migrations``;
- :mod:`bot.storage.sqlite`: :class:`SqliteStorage`, the embedded default (one file, WAL);
- :mod:`bot.storage.postgres`: :class:`PostgresStorage`, for several processes on one database.

Opening is this package's job (it alone knows the backends): :func:`open_storage` picks the backend
for a target, and ``await Storage.open(path_or_url)`` calls it.
"""

from pathlib import Path
from typing import Any

from bot.storage.base import (
    ACTIVE,
    HOST_ACTIONS,
    MIGRATIONS_DIR,
    PG_MIGRATIONS_DIR,
    STATUSES,
    SUSPENDED,
    TERMINAL,
    ActionRow,
    ChannelBusy,
    DatabaseUnusable,
    FollowRow,
    GameRow,
    HistoryEntry,
    JobRow,
    Leaderboard,
    Migration,
    NoSuchGame,
    NoSuchSeat,
    NotifyJob,
    PastGame,
    PlayerRecord,
    RatingChange,
    RatingRow,
    SeatedGame,
    SeatRow,
    StaleVersion,
    Storage,
    StorageError,
    WrongStatus,
    is_host_action,
    is_postgres_url,
    live_moves,
    load_migrations,
    move_number,
    move_step,
    rebuild,
    replay_matches,
    split_sql,
    undone_seqs,
)
from bot.storage.postgres import PostgresStorage, pg_sql
from bot.storage.sqlite import SqliteStorage


async def open_storage(target: str | Path, **options: Any) -> Storage:
    """Open (or create) the database ``target`` (ADMIRALTY_DB): a ``postgresql://`` URL with
    :class:`PostgresStorage`, anything else (a file path, ``:memory:``) with :class:`SqliteStorage`.
    ``options`` go to that backend's ``open``."""
    if is_postgres_url(target):
        return await PostgresStorage.open(str(target).strip(), **options)
    return await SqliteStorage.open(target, **options)


Storage.register_opener(open_storage)

__all__ = [
    "ACTIVE",
    "HOST_ACTIONS",
    "MIGRATIONS_DIR",
    "PG_MIGRATIONS_DIR",
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
    "NotifyJob",
    "PastGame",
    "PlayerRecord",
    "PostgresStorage",
    "RatingChange",
    "RatingRow",
    "SeatRow",
    "SeatedGame",
    "SqliteStorage",
    "StaleVersion",
    "Storage",
    "StorageError",
    "WrongStatus",
    "is_host_action",
    "is_postgres_url",
    "load_migrations",
    "open_storage",
    "pg_sql",
    "live_moves",
    "move_number",
    "move_step",
    "rebuild",
    "replay_matches",
    "split_sql",
    "undone_seqs",
]
