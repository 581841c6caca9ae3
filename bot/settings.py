"""Settings from the environment, or from a `.env` file in the working directory.

Every setting is listed, with a comment, in `.env.example`. Values already in
the environment win over the file.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path


class SettingsError(Exception):
    """A setting is missing or malformed; the message says which and what to do."""


def read_env_file(path: Path) -> dict[str, str]:
    """Parse KEY=VALUE lines; blank lines and # comments are skipped; quotes stripped."""
    values: dict[str, str] = {}
    if not path.is_file():
        return values
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("export "):
            line = line[len("export "):]
        key, sep, value = line.partition("=")
        if not sep:
            continue
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
            value = value[1:-1]
        elif " #" in value:
            value = value.split(" #", 1)[0].rstrip()
        values[key.strip()] = value
    return values


def _duration(name: str, text: str) -> float:
    """Seconds from '90', '90s', '15m', '2h', '1d'."""
    text = text.strip().lower()
    units = {"s": 1, "m": 60, "h": 3600, "d": 86400}
    try:
        if text and text[-1] in units:
            return float(text[:-1]) * units[text[-1]]
        return float(text)
    except ValueError:
        raise SettingsError(f"{name} must be a duration like 90, 15m, 12h or 1d, not {text!r}") from None


def _database(text: str) -> str | Path:
    """ADMIRALTY_DB: a postgresql:// (or postgres://) URL stays a string; anything else is a file path."""
    text = text.strip() or "admiralty.db"
    if text.lower().startswith(("postgresql://", "postgres://")):
        return text
    if "://" in text:
        raise SettingsError(f"ADMIRALTY_DB must be a file path or a postgresql:// URL, not {text.split('://')[0]}://…")
    return Path(text)


@dataclass(frozen=True)
class Settings:
    token: str | None
    database: str | Path  # a SQLite file path, or a postgresql:// URL (ADMIRALTY_DB)
    dev_guild: int | None
    turn_timeout: float  # seconds; 0 = no timer
    ai_delay: float  # seconds an AI seat waits before it moves
    log_level: str

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
        return cls(
            token=token,
            database=_database(values.get("ADMIRALTY_DB", "admiralty.db")),
            dev_guild=int(guild) if guild else None,
            turn_timeout=_duration("ADMIRALTY_TURN_TIMEOUT", values.get("ADMIRALTY_TURN_TIMEOUT", "24h")),
            ai_delay=_duration("ADMIRALTY_AI_DELAY", values.get("ADMIRALTY_AI_DELAY", "1.5")),
            log_level=level,
        )
