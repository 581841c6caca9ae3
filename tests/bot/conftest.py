"""Fixtures of the host tests."""

from __future__ import annotations

import pytest

from bot.storage import Storage


@pytest.fixture
async def storage(db_target):  # a SQLite file, then a PostgreSQL database (tests/conftest.py)
    s = await Storage.open(db_target)
    yield s
    await s.close()
