"""Logging: the text or JSON format on stdout, and the game a log line is about.

``ADMIRALTY_LOG_FORMAT=json`` writes one JSON object a line: ``time``, ``level``, ``logger``,
``message`` and, when known, ``game``, ``guild``, ``shard`` and ``version`` (the game's state version),
plus ``exc`` (the traceback) for an exception. Those fields come from the context: code that works
on one game wraps the work in ``with log_context(game=…, guild=…, version=…):`` (a ``contextvars``
value, so tasks started inside inherit it), or passes ``extra={"game": …}`` to one log call. The shard
is worked out from the guild when the process runs shards (``configure(shard_count=…)``).

Only those named fields are added to a line, never a record's other attributes: what a line says is
its message, which already shows only what the channel is shown (see ``bot/turns.py``).
"""

from __future__ import annotations

import contextvars
import datetime
import json
import logging

from bot.settings import shard_of

FIELDS = ("game", "guild", "shard", "version")
FORMATS = ("text", "json")
TEXT_FORMAT = "%(asctime)s %(levelname)-7s %(name)s: %(message)s"

_context: contextvars.ContextVar[dict[str, int] | None] = contextvars.ContextVar(
    "admiralty_log_context", default=None
)
_shard_count: int | None = None


class log_context:  # noqa: N801 - used like a function: ``with log_context(game=…):``
    """Within the block (and the tasks created in it), log lines carry these fields; ``None`` values
    are left out. Nested blocks add to (and override) the outer one. Usable as ``with`` and as
    ``async with`` (so it joins a lock in one statement: ``async with lock, log_context(game=…):``)."""

    def __init__(self, **fields: int | None) -> None:
        unknown = set(fields) - set(FIELDS)
        if unknown:
            raise TypeError(
                f"unknown log {'field' if len(unknown) == 1 else 'fields'}: {', '.join(sorted(unknown))}"
            )
        self.fields = {k: v for k, v in fields.items() if v is not None}
        self._tokens: list[contextvars.Token] = []

    def __enter__(self) -> None:
        self._tokens.append(_context.set({**(_context.get() or {}), **self.fields}))

    def __exit__(self, *exc: object) -> None:
        _context.reset(self._tokens.pop())

    async def __aenter__(self) -> None:
        self.__enter__()

    async def __aexit__(self, *exc: object) -> None:
        self.__exit__()


def current() -> dict[str, int]:
    """The fields of the current context (a copy)."""
    return dict(_context.get() or {})


def configure(*, shard_count: int | None) -> None:
    """With shards, a line about a guild also names its shard (Discord's ``(guild >> 22) % count``)."""
    global _shard_count
    _shard_count = shard_count or None


class ContextFilter(logging.Filter):
    """Puts the context's fields on every record that does not carry them already (``extra=`` wins)."""

    def filter(self, record: logging.LogRecord) -> bool:
        for key, value in (_context.get() or {}).items():
            if getattr(record, key, None) is None:
                setattr(record, key, value)
        guild = getattr(record, "guild", None)
        if _shard_count and getattr(record, "shard", None) is None and isinstance(guild, int) and guild > 0:
            record.shard = shard_of(guild, _shard_count)
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object a line (UTF-8, not ASCII-escaped)."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, object] = {
            "time": datetime.datetime.fromtimestamp(record.created, datetime.UTC).isoformat(
                timespec="milliseconds"
            ),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for key in FIELDS:
            value = getattr(record, key, None)
            if isinstance(value, bool) or not isinstance(value, int | str):
                continue
            line[key] = value
        if record.exc_info:
            if not record.exc_text:
                record.exc_text = self.formatException(record.exc_info)
        if record.exc_text:
            line["exc"] = record.exc_text
        if record.stack_info:
            line["stack"] = self.formatStack(record.stack_info)
        return json.dumps(line, ensure_ascii=False, default=str)


def make_handler(fmt: str, stream) -> logging.Handler:
    """A stream handler in format ``fmt`` (``text`` or ``json``) that adds the context's fields."""
    if fmt not in FORMATS:
        raise ValueError(f"log format must be one of {FORMATS}, not {fmt!r}")
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter() if fmt == "json" else logging.Formatter(TEXT_FORMAT))
    handler.addFilter(ContextFilter())
    return handler
