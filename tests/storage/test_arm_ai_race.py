"""arm_ai racing another process's move of the same game (PostgreSQL: the processes really overlap).

The move re-arms the game's jobs for its new version in its transaction; an arm_ai for the version
before, called meanwhile by another process (a seat handed to an AI there), must not write its older
version over the move's job: that job would then be dropped as out of date by whoever claims it, and
the AI seat would wait with no job (what the scheduler's sweep reports as "no job armed")."""

from __future__ import annotations

import asyncio
import time

import asyncpg
import pytest

from bot.storage import JobRow

pytestmark = pytest.mark.postgres


async def test_arm_ai_does_not_overwrite_the_job_of_a_move_committed_meanwhile(
    store, new_running_game, db_target, backend
):
    if backend != "postgres":
        pytest.skip("SQLite has one writer: the two cannot overlap")
    gid, _ = await new_running_game(store)
    assert await store.arm_ai(gid, 0, 5.0)
    other = await asyncpg.connect(db_target)  # another process, in the middle of its move v0 -> v1
    try:
        tr = other.transaction()
        await tr.start()
        await other.execute("SELECT 1 FROM games WHERE id = $1 FOR UPDATE", gid)
        await other.execute("UPDATE games SET version = 1 WHERE id = $1", gid)
        await other.execute("DELETE FROM jobs WHERE game_id = $1", gid)
        await other.execute("INSERT INTO jobs (game_id, kind, due, version) VALUES ($1, 'ai', 7.0, 1)", gid)
        stale = asyncio.ensure_future(store.arm_ai(gid, 0, 9.0))  # this process still sees version 0
        deadline = time.monotonic() + 30
        while not await other.fetchval(
            "SELECT count(*) FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))",
            other.get_server_pid(),
        ):
            assert time.monotonic() < deadline, "arm_ai never came to wait for the move"
            await asyncio.sleep(0.02)
        await tr.commit()
        assert await asyncio.wait_for(stale, 30) is False  # the game moved on: nothing armed for v0
    finally:
        await other.close()
    assert await store.jobs(gid) == [
        JobRow(game_id=gid, kind="ai", due=7.0, version=1)
    ]  # the move's job stands
