"""Settings from the environment, or from a `.env` file in the working directory.

Every setting is listed, with a comment, in `.env.example`. Values already in
the environment win over the file. The file is read by python-dotenv, in the format Docker Compose
and most tools read: quotes, `# comments`, `export KEY=…` and `${VAR}` work as they do there.
"""

from __future__ import annotations

import importlib.util
import math
import os
from dataclasses import dataclass
from pathlib import Path

from dotenv import dotenv_values


class SettingsError(Exception):
    """A setting is missing or malformed; the message says which and what to do."""


# The turn timer: 0 (no timer), or from TURN_TIMEOUT_MIN to TURN_TIMEOUT_MAX seconds.
TURN_TIMEOUT_MIN = 30.0
TURN_TIMEOUT_MAX = 30 * 86400.0
TURN_TIMEOUT_RANGE = "0 (no timer) or between 30s and 30d"

# A running game with no human player left (every seat handed to the AI after missed turns) is paused,
# and abandoned when nobody came back within this time (ADMIRALTY_ABANDON_AFTER): 0 (at once) up to 30d.
ABANDON_AFTER_DEFAULT = 3 * 86400.0
ABANDON_AFTER_MAX = 30 * 86400.0

# PostgreSQL: the connections a process opens for reads and writes (ADMIRALTY_DB_POOL); writes of
# different games run at once, one transaction per connection (bot.storage.postgres).
DB_POOL_DEFAULT = 8
DB_POOL_MAX = 100

# The processes that draw the boards (ADMIRALTY_DRAW_WORKERS): empty = one per core, 0 = a thread of the
# bot's process instead (bot.drawing).
DRAW_WORKERS_MAX = 64
# The processes where AI seats think (ADMIRALTY_AI_WORKERS): empty = one per core, 0 = a thread of the
# bot's process instead (bot.thinking).
AI_WORKERS_MAX = 64


def turn_timeout_problem(seconds: float, minimum: float = TURN_TIMEOUT_MIN) -> str | None:
    """Why ``seconds`` cannot be a turn timeout (None when it can). ``minimum`` is lowered by tests only."""
    if seconds == 0:
        return None
    if not math.isfinite(seconds) or not minimum <= seconds <= TURN_TIMEOUT_MAX:
        return f"must be {TURN_TIMEOUT_RANGE}"
    return None


def read_env_file(path: Path) -> dict[str, str]:
    """The settings of a `.env` file (none when there is no such file), read by python-dotenv: quotes
    and comments are not part of a value. A name without ``=`` sets nothing."""
    if not path.is_file():
        return {}
    return {key: value for key, value in dotenv_values(path, encoding="utf-8").items() if value is not None}


def _duration(name: str, text: str) -> float:
    """Seconds from '90', '90s', '15m', '2h', '1d' (a finite number: not 'inf' nor 'nan')."""
    text = text.strip().lower()
    units = {"s": 1, "m": 60, "h": 3600, "d": 86400}
    try:
        if text and text[-1] in units:
            seconds = float(text[:-1]) * units[text[-1]]
        else:
            seconds = float(text)
    except ValueError:
        seconds = math.nan
    if not math.isfinite(seconds):
        raise SettingsError(f"{name} must be a duration like 90, 15m, 12h or 1d, not {text!r}")
    return seconds


def _turn_timeout(text: str) -> float:
    seconds = _duration("ADMIRALTY_TURN_TIMEOUT", text)
    problem = turn_timeout_problem(seconds)
    if problem:
        raise SettingsError(f"ADMIRALTY_TURN_TIMEOUT {problem}, not {text.strip()!r}")
    return seconds


def _ai_delay(text: str) -> float:
    """ADMIRALTY_AI_DELAY: seconds (or 2s, 1m…) an AI seat waits before it moves, 0 or more."""
    seconds = _duration("ADMIRALTY_AI_DELAY", text)
    if seconds < 0:
        raise SettingsError(
            f"ADMIRALTY_AI_DELAY is how long an AI seat waits before it moves: 0 or more seconds, not {text.strip()!r}"
        )
    return seconds


def _abandon_after(text: str) -> float:
    seconds = _duration("ADMIRALTY_ABANDON_AFTER", text)
    if not 0 <= seconds <= ABANDON_AFTER_MAX:
        raise SettingsError(
            f"ADMIRALTY_ABANDON_AFTER must be between 0 (at once) and 30d, e.g. 12h or 3d, not {text.strip()!r}"
        )
    return seconds


def shard_of(guild_id: int, shard_count: int) -> int:
    """The shard Discord sends a guild's events (and clicks) to: ``(guild_id >> 22) % shard_count``."""
    return (guild_id >> 22) % shard_count


def parse_shards(text: str) -> tuple[tuple[int, ...], int] | None:
    """``ADMIRALTY_SHARDS``: ``A-B/N`` (shards A to B of N) or ``A/N`` (shard A of N); empty = no
    sharding (one process, one connection). Returns (shard ids, shard count)."""
    text = text.strip()
    if not text:
        return None
    hint = (
        "ADMIRALTY_SHARDS must be the shards this process runs, out of the total: "
        f"'0-1/4' (shards 0 and 1 of 4) or '2/4' (shard 2 of 4), not {text!r}"
    )
    ids, sep, count = text.partition("/")
    first, dash, last = ids.partition("-")
    parts = [first, last, count] if dash else [first, count]
    if not sep or not all(p.strip().isascii() and p.strip().isdigit() for p in parts):
        raise SettingsError(hint)
    a, n = int(first), int(count)
    b = int(last) if dash else a
    if n < 1:
        raise SettingsError(f"ADMIRALTY_SHARDS: the shard count must be at least 1, not {n} ({text!r})")
    if a > b:
        raise SettingsError(f"ADMIRALTY_SHARDS: the first shard must not be after the last ({text!r})")
    if b >= n:
        raise SettingsError(
            f"ADMIRALTY_SHARDS: shards are numbered 0 to {n - 1} of {n}; {b} is not one ({text!r})"
        )
    return tuple(range(a, b + 1)), n


def _port(name: str, text: str) -> int | None:
    text = text.strip()
    if not text:
        return None
    if not (text.isascii() and text.isdigit()) or not 0 < int(text) < 65536:
        raise SettingsError(f"{name} must be a TCP port (1-65535), or empty to turn it off, not {text!r}")
    return int(text)


def _db_pool(text: str) -> int:
    """ADMIRALTY_DB_POOL: connections to PostgreSQL, 1 to DB_POOL_MAX (empty: the default)."""
    text = text.strip()
    if not text:
        return DB_POOL_DEFAULT
    if not (text.isascii() and text.isdigit()) or not 1 <= int(text) <= DB_POOL_MAX:
        raise SettingsError(
            f"ADMIRALTY_DB_POOL must be a number of connections from 1 to {DB_POOL_MAX}, not {text!r}"
        )
    return int(text)


def _workers(key: str, text: str, most: int, what: str) -> int | None:
    """A number of worker processes, 0 to ``most`` (empty: one per core, None); ``what`` says what
    they are and what 0 does, for the error."""
    text = text.strip()
    if not text:
        return None
    if not (text.isascii() and text.isdigit()) or not 0 <= int(text) <= most:
        raise SettingsError(
            f"{key} must be a number of {what} to {most}, or empty for one per core, not {text!r}"
        )
    return int(text)


def _draw_workers(text: str) -> int | None:
    """ADMIRALTY_DRAW_WORKERS: 0 to DRAW_WORKERS_MAX processes (empty: one per core, None)."""
    return _workers(
        "ADMIRALTY_DRAW_WORKERS", text, DRAW_WORKERS_MAX, "drawing processes from 0 (draw in a thread)"
    )


def _ai_workers(text: str) -> int | None:
    """ADMIRALTY_AI_WORKERS: 0 to AI_WORKERS_MAX processes (empty: one per core, None)."""
    return _workers(
        "ADMIRALTY_AI_WORKERS", text, AI_WORKERS_MAX, "processes for the AI from 0 (think in a thread)"
    )


def _database(text: str) -> str | Path:
    """ADMIRALTY_DB: a postgresql:// (or postgres://) URL stays a string; anything else is a file path."""
    text = text.strip() or "admiralty.db"
    if text.lower().startswith(("postgresql://", "postgres://")):
        return text
    if "://" in text:
        raise SettingsError(
            f"ADMIRALTY_DB must be a file path or a postgresql:// URL, not {text.split('://')[0]}://…"
        )
    return Path(text)


def _event_loop(text: str) -> str:
    name = text.strip().lower()
    if name not in ("", "uvloop", "asyncio"):
        raise SettingsError(f"ADMIRALTY_EVENT_LOOP must be uvloop or asyncio, not {text.strip()!r}")
    installed = importlib.util.find_spec("uvloop") is not None
    if name == "uvloop" and not installed:
        raise SettingsError("ADMIRALTY_EVENT_LOOP is uvloop but uvloop is not installed (pip install uvloop)")
    return name or ("uvloop" if installed else "asyncio")


@dataclass(frozen=True)
class Settings:
    token: str | None
    database: str | Path  # a SQLite file path, or a postgresql:// URL (ADMIRALTY_DB)
    dev_guild: int | None
    turn_timeout: float  # seconds; 0 = no timer
    ai_delay: float  # seconds an AI seat waits before it moves
    log_level: str
    log_format: str = "text"  # "text" or "json" (one JSON object a line)
    metrics_port: int | None = None  # Prometheus metrics on this port; None = off
    metrics_addr: str = "127.0.0.1"
    shard_ids: tuple[int, ...] | None = None  # the shards this process runs; None = not sharded
    shard_count: int | None = None
    db_pool: int = DB_POOL_DEFAULT  # PostgreSQL: connections for reads and writes (ADMIRALTY_DB_POOL)
    # seconds a game with no human player left waits for one to come back before it is abandoned
    abandon_after: float = ABANDON_AFTER_DEFAULT
    # processes drawing the boards: None = one per core (ADMIRALTY_DRAW_WORKERS empty, its default);
    # 0 = a thread. Settings made in code (tests) draw in a thread unless they ask for processes.
    draw_workers: int | None = 0
    # processes where the AI seats think: None = one per core (ADMIRALTY_AI_WORKERS empty, its default);
    # 0 = a thread. Settings made in code (tests) think in a thread unless they ask for processes.
    ai_workers: int | None = 0
    # the event loop `make run` runs on: "uvloop" (libuv: 15-20 % less CPU a REST call than asyncio's own
    # loop, bench/bench_event_loop.py) or "asyncio". ADMIRALTY_EVENT_LOOP empty: uvloop where installed.
    event_loop: str = "asyncio"

    def storage_options(self) -> dict[str, int]:
        """What Storage.open takes besides the database: the pool size, for PostgreSQL only."""
        return {"pool_size": self.db_pool} if isinstance(self.database, str) else {}

    @property
    def shares_games(self) -> bool:
        """Whether other processes run the other shards on the same database (``ADMIRALTY_SHARDS`` names
        fewer than all): any of them may then publish a game this one publishes, its DMs included."""
        return bool(self.shard_count) and set(self.shard_ids or ()) != set(range(self.shard_count or 0))

    def runs_guild(self, guild_id: int | None) -> bool:
        """Whether this process runs the shard of ``guild_id`` (None: DMs, which Discord sends to shard 0).
        Not sharded: every guild."""
        if not self.shard_count:
            return True
        return (0 if guild_id is None else shard_of(guild_id, self.shard_count)) in (self.shard_ids or ())

    @classmethod
    def load(cls, env: dict[str, str] | None = None, env_file: Path | None = None) -> Settings:
        values = read_env_file(env_file if env_file is not None else Path(".env"))
        values.update(os.environ if env is None else env)
        token = values.get("DISCORD_TOKEN", "").strip() or None
        guild = values.get("ADMIRALTY_DEV_GUILD", "").strip()
        if guild and not guild.isdigit():
            raise SettingsError(f"ADMIRALTY_DEV_GUILD must be a server id (digits), not {guild!r}")
        level = values.get("ADMIRALTY_LOG_LEVEL", "INFO").strip().upper() or "INFO"
        if level not in ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"):
            raise SettingsError(f"ADMIRALTY_LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR, not {level!r}")
        fmt = values.get("ADMIRALTY_LOG_FORMAT", "text").strip().lower() or "text"
        if fmt not in ("text", "json"):
            raise SettingsError(f"ADMIRALTY_LOG_FORMAT must be text or json, not {fmt!r}")
        shards = parse_shards(values.get("ADMIRALTY_SHARDS", ""))
        return cls(
            token=token,
            database=_database(values.get("ADMIRALTY_DB", "admiralty.db")),
            dev_guild=int(guild) if guild else None,
            turn_timeout=_turn_timeout(values.get("ADMIRALTY_TURN_TIMEOUT", "24h")),
            ai_delay=_ai_delay(values.get("ADMIRALTY_AI_DELAY", "1.5")),
            log_level=level,
            log_format=fmt,
            metrics_port=_port("ADMIRALTY_METRICS_PORT", values.get("ADMIRALTY_METRICS_PORT", "")),
            metrics_addr=values.get("ADMIRALTY_METRICS_ADDR", "").strip() or "127.0.0.1",
            shard_ids=shards[0] if shards else None,
            shard_count=shards[1] if shards else None,
            db_pool=_db_pool(values.get("ADMIRALTY_DB_POOL", "")),
            abandon_after=_abandon_after(values.get("ADMIRALTY_ABANDON_AFTER", "").strip() or "3d"),
            draw_workers=_draw_workers(values.get("ADMIRALTY_DRAW_WORKERS", "")),
            ai_workers=_ai_workers(values.get("ADMIRALTY_AI_WORKERS", "")),
            event_loop=_event_loop(values.get("ADMIRALTY_EVENT_LOOP", "")),
        )
