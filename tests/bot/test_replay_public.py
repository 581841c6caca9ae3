"""The public replay of a game: at most one every ``PUBLIC_REPLAY_EVERY`` seconds, held in the database so
that two processes asking at once post one (``replay.claim_public``)."""

from __future__ import annotations

import asyncio

import pytest

from bot import replay
from bot.storage import Storage


@pytest.fixture
async def second(db_target):
    s = await Storage.open(db_target)
    yield s
    await s.close()


async def test_one_public_replay_a_game_every_ten_minutes_across_processes(storage, second):
    now = 1_000_000.0
    together = await asyncio.gather(*(replay.claim_public(s, 7, now) for s in (storage, second, storage)))
    assert together.count(None) == 1, "of asks at once in two processes, one posts in the channel"
    assert all(last == now for last in together if last is not None)
    assert await replay.claim_public(second, 7, now + replay.PUBLIC_REPLAY_EVERY - 1) == now
    assert await replay.claim_public(storage, 8, now) is None, "another game has its own"
    assert await replay.claim_public(storage, 7, now + replay.PUBLIC_REPLAY_EVERY) is None
    # a replay that could not be made gives its turn back
    await replay.release_public(storage, 8, now)
    assert await replay.claim_public(second, 8, now + 1) is None
