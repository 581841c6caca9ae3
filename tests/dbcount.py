"""Counting a Storage's database round trips (for tests and bench/bench_table.py).

:class:`RoundTrips` wraps one open Storage instance while it is in use (``with RoundTrips(store) as
rt:``), and counts:

- ``calls``: the Storage's public async methods called (a Counter by name: which reads and writes);
- ``trips``: on SQLite, the calls handed to aiosqlite's thread (``store._db._execute``: one round trip
  each, as tests/storage/test_group_commit.py counts them); on PostgreSQL, the Storage calls (each
  read is one statement; a write is one transaction).

Nested public calls (one public method calling another) are counted each. The wrappers are instance
attributes: leaving the ``with`` removes them. What runs inside :func:`unseen` (a context variable:
the tasks it starts inherit it) is not counted: a test's or bench's own reads, not the bot's.
"""

from __future__ import annotations

import contextlib
import inspect
from collections import Counter
from collections.abc import Iterator
from contextvars import ContextVar
from typing import Any

from bot.storage import Storage

SKIP = frozenset({"open", "close", "listen_jobs"})
_UNSEEN: ContextVar[bool] = ContextVar("dbcount_unseen", default=False)


@contextlib.contextmanager
def unseen() -> Iterator[None]:
    """Calls made in this context (and tasks started from it) are not counted."""
    token = _UNSEEN.set(True)
    try:
        yield
    finally:
        _UNSEEN.reset(token)


class RoundTrips:
    def __init__(self, store: Storage) -> None:
        self.store = store
        self.calls: Counter[str] = Counter()
        self.hand_offs = 0  # SQLite: calls on aiosqlite's thread
        self._wrapped: list[tuple[Any, str]] = []

    @property
    def trips(self) -> int:
        """The database round trips: SQLite thread hand-offs, else Storage calls."""
        if self.store.backend == "sqlite":
            return self.hand_offs
        return sum(self.calls.values())

    def reset(self) -> None:
        self.calls.clear()
        self.hand_offs = 0

    def snapshot(self) -> tuple[int, Counter[str]]:
        return self.trips, Counter(self.calls)

    def __enter__(self) -> RoundTrips:
        store = self.store
        for name, _fn in inspect.getmembers(type(store), inspect.iscoroutinefunction):
            if name.startswith("_") or name in SKIP:
                continue
            setattr(store, name, self._counted(name, getattr(store, name)))
            self._wrapped.append((store, name))
        db = getattr(store, "_db", None)
        if db is not None:
            execute = db._execute

            async def counted_execute(fn, *args, **kwargs):
                if not _UNSEEN.get():
                    self.hand_offs += 1
                return await execute(fn, *args, **kwargs)

            db._execute = counted_execute
            self._wrapped.append((db, "_execute"))
        return self

    def _counted(self, name: str, method):
        async def counted(*args, **kwargs):
            if not _UNSEEN.get():
                self.calls[name] += 1
            return await method(*args, **kwargs)

        counted.__name__ = name
        return counted

    def __exit__(self, *exc: object) -> None:
        for obj, name in reversed(self._wrapped):
            try:
                delattr(obj, name)
            except AttributeError:
                pass
        self._wrapped.clear()
