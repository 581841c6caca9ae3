"""Fixtures for the loopback Discord's own tests: a FakeDiscord and the sample discord.py bot running on it."""

import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.fakediscord import FakeDiscord, running_bot  # noqa: E402
from tests.fakediscord_tests.sample_bot import make_bot  # noqa: E402

UPLOAD = os.urandom(300_000)


@pytest.fixture
async def fd():
    async with FakeDiscord(
        users=["alice", "bob", "carol"], channels=["general", "games"], reply_timeout=5.0
    ) as server:
        yield server


@pytest.fixture
async def bot(fd):
    b = make_bot(fd.guild.id, upload=UPLOAD)
    async with running_bot(b, fd):
        yield b
    assert fd.unhandled == [], f"routes the fake does not serve: {fd.unhandled}"
