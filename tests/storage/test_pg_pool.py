"""PostgreSQL on a pool of connections (ADMIRALTY_DB_POOL): writes of different games run at once, and
what one connection guaranteed still holds: a read sees the writes started before it, one game's writes
keep their order (and their version checks), a cancelled caller's transaction stays whole, close()
waits for writes in flight, groups cannot deadlock; a pool of one runs every write after the other."""

from __future__ import annotations

import asyncio
import time

import asyncpg
import pytest

from bot.storage import PostgresStorage, StaleVersion, Storage, StorageError
from bot.storage.postgres import _cut, _Queued
from tests.storage.test_group_commit import record, spy_groups

pytestmark = pytest.mark.postgres

WAIT = 30.0  # generous: the machine may be loaded


@pytest.fixture
async def store_of(pg_url):
    """Open PostgreSQL stores on the test's schema (pool size as asked); closed at the end."""
    stores: list[Storage] = []

    async def make(pool_size: int) -> PostgresStorage:
        store = await Storage.open(pg_url, pool_size=pool_size)
        stores.append(store)
        return store

    yield make
    for store in stores:
        await store.close()


class RowLock:
    """Another session holding a game's row (``SELECT … FOR UPDATE``) until released: this process's
    write of that game waits for it, mid-transaction."""

    def __init__(self, url: str, game_id: int):
        self.url, self.game_id = url, game_id
        self.released = False

    async def __aenter__(self) -> RowLock:
        self.conn = await asyncpg.connect(self.url)
        self.pid = self.conn.get_server_pid()
        self.tr = self.conn.transaction()
        await self.tr.start()
        await self.conn.execute("SELECT 1 FROM games WHERE id = $1 FOR UPDATE", self.game_id)
        return self

    async def blocked(self) -> int:
        """How many sessions wait for this one now."""
        return await self.conn.fetchval(
            "SELECT count(*) FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))", self.pid
        )

    async def wait_blocked(self, n: int = 1) -> None:
        deadline = time.monotonic() + WAIT
        while await self.blocked() < n:
            assert time.monotonic() < deadline, f"no write of game {self.game_id} came to wait for its row"
            await asyncio.sleep(0.02)

    async def release(self) -> None:
        if not self.released:
            self.released = True
            await self.tr.rollback()

    async def __aexit__(self, *exc: object) -> None:
        await self.release()
        await self.conn.close()


async def version_outside(url: str, gid: int) -> int:
    conn = await asyncpg.connect(url)
    try:
        return await conn.fetchval("SELECT version FROM games WHERE id = $1", gid)
    finally:
        await conn.close()


async def test_writes_of_different_games_run_at_once_on_several_connections(store_of, new_running_game):
    store = await store_of(4)
    gids = [(await new_running_game(store, channel_id=600 + g))[0] for g in range(4)]
    inside: list[int] = []
    all_in = asyncio.Event()

    def body_for(gid: int):
        async def body(db) -> int:
            pid = (await db.execute_fetchall("SELECT pg_backend_pid()"))[0][0]
            await db.execute("UPDATE games SET updated_at = updated_at + 1 WHERE id = ?", (gid,))
            inside.append(pid)
            if len(inside) == len(gids):
                all_in.set()
            await asyncio.wait_for(all_in.wait(), WAIT)  # every transaction open at the same time
            return pid

        return body

    pids = await asyncio.gather(*(store._write(body_for(g), games=(g,)) for g in gids))
    assert len(set(pids)) == 4  # four transactions at once, on four connections
    assert not store.in_transaction


async def test_a_game_waiting_for_its_row_does_not_hold_up_another_games_move(
    store_of, new_running_game, pg_url
):
    store = await store_of(4)
    a, _ = await new_running_game(store, channel_id=501)
    b, _ = await new_running_game(store, channel_id=502)
    async with RowLock(pg_url, a) as lock:
        first = asyncio.ensure_future(record(store, a, 0))
        await lock.wait_blocked()  # a's group is mid-transaction, waiting for the row
        assert store.in_transaction
        assert await asyncio.wait_for(record(store, b, 0), WAIT) == 1  # b commits meanwhile
        assert await version_outside(pg_url, b) == 1 and await version_outside(pg_url, a) == 0
        assert not first.done()
        await lock.release()
        assert await asyncio.wait_for(first, WAIT) == 1
    assert (await store.get_game(a)).version == 1
    assert not store.in_transaction


async def test_a_pool_of_one_runs_every_write_after_the_other(store_of, new_running_game, pg_url):
    store = await store_of(1)
    a, _ = await new_running_game(store, channel_id=501)
    b, _ = await new_running_game(store, channel_id=502)
    async with RowLock(pg_url, a) as lock:
        first = asyncio.ensure_future(record(store, a, 0))
        await lock.wait_blocked()
        second = asyncio.ensure_future(record(store, b, 0))
        done, _ = await asyncio.wait([second], timeout=0.5)
        assert not done  # b waits for the one connection
        assert await version_outside(pg_url, b) == 0
        await lock.release()
        assert await asyncio.wait_for(asyncio.gather(first, second), WAIT) == [1, 1]
    # and the writes called at once still share one transaction (group commit)
    sizes = spy_groups(store)
    assert await asyncio.gather(record(store, a, 1), record(store, b, 1), record(store, a, 2)) == [2, 2, 3]
    assert sizes == [3]


async def test_a_read_sees_every_write_called_before_it(store_of, new_running_game, pg_url):
    store = await store_of(8)
    gids = [(await new_running_game(store, channel_id=600 + g))[0] for g in range(20)]
    writes = [asyncio.ensure_future(record(store, gid, 0, log=[(None, f"move of {gid}")])) for gid in gids]
    await asyncio.sleep(0)  # every write called (none committed yet)
    for gid in gids:  # not awaited: each read must see its game's write all the same
        row, _ = await store.load_table(gid)
        assert row.version == 1 and await store.recent_log(gid) == [f"move of {gid}"]
    assert await asyncio.gather(*writes) == [1] * len(gids)
    # a read waits for a write held up mid-transaction, and then sees it
    async with RowLock(pg_url, gids[0]) as lock:
        held = asyncio.ensure_future(store.set_status(gids[0], "abandoned"))
        await lock.wait_blocked()
        read = asyncio.ensure_future(store.get_game(gids[0]))
        done, _ = await asyncio.wait([read], timeout=0.5)
        assert not done
        await lock.release()
        assert (await asyncio.wait_for(read, WAIT)).status == "abandoned"
        await held


async def test_one_games_writes_keep_their_order_and_version_checks_across_groups(store_of, new_running_game):
    store = await store_of(8)
    gids = [(await new_running_game(store, channel_id=600 + g))[0] for g in range(10)]
    running: set[int] = set()  # the games of the groups in flight
    overlaps: list[int] = []
    order: dict[int, list[int]] = {g: [] for g in gids}  # each game's versions, in the order committed
    real_run = store._run_group

    async def run_group(group):
        mine = {item.game_id for item in group}
        overlaps.extend(mine & running)
        running.update(mine)
        try:
            await real_run(group)
        finally:
            running.difference_update(mine)
        for item in group:
            if not item.fut.exception():
                order[item.game_id].append(item.fut.result())

    store._run_group = run_group
    calls = []
    for wave in range(6):  # each wave is called while the groups of the one before are still running
        for g, gid in enumerate(gids):
            expected = 99 if (g % 3 == 1 and wave == 2) else (wave if g % 3 != 1 or wave < 2 else wave - 1)
            calls.append((gid, expected, asyncio.ensure_future(record(store, gid, expected))))
            if g % 3 == 2:  # a write through _write between two moves of the same game
                calls.append((gid, None, asyncio.ensure_future(store.add_log(gid, f"after wave {wave}"))))
        await asyncio.sleep(0)
    await asyncio.wait_for(asyncio.gather(*(c[2] for c in calls), return_exceptions=True), WAIT)

    assert overlaps == []  # no game in two transactions of this process at once
    for gid, expected, fut in calls:
        if expected == 99:
            assert isinstance(fut.exception(), StaleVersion) and fut.exception().current == 2
        elif expected is not None:
            assert fut.result() == expected + 1, (gid, expected, fut.exception())
    for g, gid in enumerate(gids):
        top = 5 if g % 3 == 1 else 6
        assert order[gid] == list(range(1, top + 1))  # committed in the order called
        assert (await store.get_game(gid)).version == top
        assert [a.seq for a in await store.actions(gid)] == list(range(1, top + 1))
        if g % 3 == 2:  # each note landed right after the move called before it
            rows = await store._fetchall(
                "SELECT version, text FROM log WHERE game_id = ? ORDER BY id", (gid,)
            )
            assert [(r[0], r[1]) for r in rows] == [(w + 1, f"after wave {w}") for w in range(6)]
    assert await store.integrity_check() == "ok"
    assert not store.in_transaction


async def test_a_cancelled_caller_leaves_its_transaction_whole(store_of, new_running_game, pg_url):
    store = await store_of(4)
    a, _ = await new_running_game(store, channel_id=501)
    async with RowLock(pg_url, a) as lock:
        move = asyncio.ensure_future(record(store, a, 0, log=[(None, "x"), (None, "y")]))
        note = asyncio.ensure_future(store.add_log(a, "note"))
        await lock.wait_blocked()
        move.cancel()
        note.cancel()
        with pytest.raises(asyncio.CancelledError):
            await move
        with pytest.raises(asyncio.CancelledError):
            await note
        await lock.release()
    row = await store.get_game(a)  # a read waits for both: they finished as wholes
    assert row.version == 1
    assert await store.recent_log(a) == ["x", "y", "note"]
    assert [x.seq for x in await store.actions(a)] == [1]
    assert not store.in_transaction


async def test_close_waits_for_the_writes_in_flight_and_refuses_new_calls(store_of, new_running_game, pg_url):
    store = await store_of(4)
    a, _ = await new_running_game(store, channel_id=501)
    async with RowLock(pg_url, a) as lock:
        move = asyncio.ensure_future(record(store, a, 0))
        await lock.wait_blocked()
        closing = asyncio.ensure_future(store.close())
        done, _ = await asyncio.wait([closing], timeout=0.5)
        assert not done and store.in_transaction  # close() waits for the move
        with pytest.raises(StorageError, match="closed"):
            await store.get_game(a)
        with pytest.raises(StorageError, match="closed"):
            await record(store, a, 1)
        await lock.release()
        await asyncio.wait_for(closing, WAIT)
    assert move.result() == 1 and await version_outside(pg_url, a) == 1
    assert store.closed and not store.in_transaction


async def test_two_pooled_processes_writing_the_same_games_never_deadlock(store_of, new_running_game, pg_url):
    one = await store_of(4)
    two = await store_of(4)
    gids = [(await new_running_game(one, channel_id=600 + g))[0] for g in range(12)]

    async def play(store: Storage, gid: int, moves: int) -> int:
        won = 0
        for _ in range(moves):
            version = (await store.get_game(gid)).version
            try:
                await record(store, gid, version)
                won += 1
            except StaleVersion:
                pass  # the other process moved first: look again
        return won

    wins = await asyncio.wait_for(
        asyncio.gather(*(play(s, gid, 6) for gid in gids for s in (one, two))), WAIT * 2
    )
    for g, gid in enumerate(gids):
        assert (await one.get_game(gid)).version == wins[2 * g] + wins[2 * g + 1]
    assert await one.integrity_check() == "ok" and await two.integrity_check() == "ok"


def test_groups_are_cut_at_game_boundaries_with_ascending_disjoint_games():
    def queued(game_ids):
        return [_Queued(None, gid, None, None) for gid in game_ids]  # type: ignore[arg-type]

    ready = queued([1, 1, 2, 3, 3, 3, 4, 5, 6, 7, 7, 8])
    for parts in range(1, 8):
        groups = _cut(ready, parts)
        assert 1 <= len(groups) <= parts and [i for g in groups for i in g] == ready
        games = [[i.game_id for i in g] for g in groups]
        assert all(g == sorted(g) for g in games)
        seen = [set(g) for g in games]
        assert all(not (seen[i] & seen[j]) for i in range(len(seen)) for j in range(i + 1, len(seen)))
    assert [len(g) for g in _cut(queued(range(1, 10)), 3)] == [3, 3, 3]  # even
    assert [len(g) for g in _cut(ready, 3)] == [6, 3, 3]  # game 3's writes are not split
    assert len(_cut(queued([5, 5, 5]), 4)) == 1  # one game: one group


async def test_a_pool_size_below_one_is_refused(pg_url):
    for bad in (0, -1, 2.5, True, "8"):
        with pytest.raises(ValueError, match="pool_size"):
            await Storage.open(pg_url, pool_size=bad)


async def test_close_waits_for_the_reads_in_flight(store_of, new_running_game, pg_url):
    store = await store_of(1)  # one connection: the reads queue for it
    a, _ = await new_running_game(store, channel_id=501)
    async with RowLock(pg_url, a) as lock:
        move = asyncio.ensure_future(record(store, a, 0))
        await lock.wait_blocked()
        reads = [asyncio.ensure_future(store.get_game(a)) for _ in range(3)]  # each waits for the move
        await asyncio.sleep(0)
        closing = asyncio.ensure_future(store.close())
        await lock.release()
        await asyncio.wait_for(closing, WAIT)
        assert move.done() and all(r.done() for r in reads)  # all ended before the pool was closed
    assert move.result() == 1 and [r.result().version for r in reads] == [1, 1, 1]
