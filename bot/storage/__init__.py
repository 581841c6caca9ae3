"""Storage: one interface, two backends.

- :mod:`bot.storage.base`: :class:`Storage` (every check, error and SQL statement, written once),
  the row types, the errors, migrations and :func:`rebuild` (a game from its seed and action log);
- :mod:`bot.storage.sqlite`: :class:`SqliteStorage`, the embedded default (one file, WAL);
- :mod:`bot.storage.postgres`: :class:`PostgresStorage`, for several processes on one database.

``await Storage.open(path_or_url)`` picks the backend.
"""

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
    GameRow,
    HistoryEntry,
    JobRow,
    Migration,
    NoSuchGame,
    NoSuchSeat,
    PastGame,
    RatingRow,
    SeatRow,
    StaleVersion,
    Storage,
    StorageError,
    WrongStatus,
    is_host_action,
    is_postgres_url,
    live_moves,
    load_migrations,
    rebuild,
    replay_matches,
    split_sql,
    undone_seqs,
)
from bot.storage.postgres import PostgresStorage, pg_sql
from bot.storage.sqlite import SqliteStorage

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
    "GameRow",
    "HistoryEntry",
    "JobRow",
    "Migration",
    "NoSuchGame",
    "NoSuchSeat",
    "PastGame",
    "PostgresStorage",
    "RatingRow",
    "SeatRow",
    "SqliteStorage",
    "StaleVersion",
    "Storage",
    "StorageError",
    "WrongStatus",
    "is_host_action",
    "is_postgres_url",
    "load_migrations",
    "pg_sql",
    "live_moves",
    "rebuild",
    "replay_matches",
    "split_sql",
    "undone_seqs",
]
