"""A database that cannot be used (garbage, newer than this code, truncated) stops `python -m bot run`
with one sentence on stderr, a non-zero exit and no traceback, before anything connects to Discord;
the file is left byte for byte as it was."""

from __future__ import annotations

import asyncio
import os
import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.storage import DatabaseUnusable, Storage

ROOT = Path(__file__).resolve().parents[2]


def _garbage(path: Path) -> None:
    path.write_bytes(random.Random(1).randbytes(20000))


def _newer(path: Path) -> None:
    con = sqlite3.connect(path)  # an ordinary (rollback-journal) SQLite file: switching it to WAL would write
    with con:
        con.execute("CREATE TABLE games (id INTEGER PRIMARY KEY)")
        con.execute("PRAGMA user_version = 9999")
    con.close()


def _real_database(path: Path) -> None:
    async def fill() -> None:
        storage = await Storage.open(path)
        for i in range(40):
            gid = await storage.create_game(
                guild_id=1,
                channel_id=100 + i,
                game_key="enemy-lines",
                options={"note": "x" * 300},
                seed=i,
                host_id=1,
            )
            await storage.add_seat(gid, user_id=7, is_ai=False, name="n" * 200)
        await storage.close()

    asyncio.run(fill())


def _truncated(path: Path) -> None:
    _real_database(path)
    size = path.stat().st_size
    with open(path, "r+b") as f:
        f.truncate(size // 2 // 4096 * 4096)


def _truncated_inside_header(path: Path) -> None:
    _real_database(path)
    with open(path, "r+b") as f:
        f.truncate(50)


def _truncated_to_one_byte(path: Path) -> None:
    """SQLite takes a file this short for an empty database (and would write a new one over it)."""
    _real_database(path)
    with open(path, "r+b") as f:
        f.truncate(1)


CASES = {
    "garbage": (_garbage, "is not an SQLite database"),
    "newer": (_newer, "newer Admiralty"),
    "truncated": (_truncated, "is damaged"),
    "truncated-header": (_truncated_inside_header, "is damaged"),
    "truncated-one-byte": (_truncated_to_one_byte, "is not an SQLite database"),
}


@pytest.mark.parametrize("case", list(CASES))
def test_damaged_or_newer_database_at_start_gives_one_sentence_not_a_traceback(tmp_path, case):
    make, words = CASES[case]
    db = tmp_path / "data" / "admiralty.db"
    db.parent.mkdir()
    make(db)
    before = db.read_bytes()
    files_before = sorted(os.listdir(db.parent))
    env = {
        "PATH": "/usr/bin:/bin",
        "PYTHONPATH": str(ROOT),
        "DISCORD_TOKEN": "not-a-real-token",
        "ADMIRALTY_DB": str(db),
    }
    proc = subprocess.run(
        [sys.executable, "-m", "bot", "run"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode != 0
    assert "Traceback" not in proc.stderr + proc.stdout, proc.stderr
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, proc.stderr
    assert str(db) in lines[0] and words in lines[0], lines[0]
    assert db.read_bytes() == before, "the database file was changed"
    assert sorted(os.listdir(db.parent)) == files_before


async def test_opening_a_database_newer_than_the_code_leaves_it_untouched(tmp_path):
    db = tmp_path / "newer.db"
    _newer(db)
    before = db.read_bytes()
    with pytest.raises(DatabaseUnusable, match="newer"):
        await Storage.open(db)
    assert db.read_bytes() == before


async def test_an_empty_file_is_still_a_new_database(tmp_path):
    db = tmp_path / "empty.db"
    db.write_bytes(b"")
    storage = await Storage.open(db)
    assert await storage.schema_version() >= 1
    await storage.close()
