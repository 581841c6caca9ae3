"""Migrations: numbered plain-SQL files, one directory per dialect and version for version
(``bot/migrations/sqlite/``, ``bot/migrations/postgres/``)."""

from __future__ import annotations

import re
import sqlite3
from dataclasses import dataclass
from pathlib import Path

MIGRATIONS_ROOT = Path(__file__).resolve().parent.parent / "migrations"
MIGRATIONS_DIR = MIGRATIONS_ROOT / "sqlite"  # the SQLite dialect
PG_MIGRATIONS_DIR = MIGRATIONS_ROOT / "postgres"  # the same schema, version for version, in PostgreSQL's


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
