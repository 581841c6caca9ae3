"""SQLite's reads on the shared connection (bot/storage/sqlite.py): a read never sees rows a transaction
has not committed, and waits for nothing else, neither the lock of a group commit nor other reads."""

from __future__ import annotations

import asyncio

from bot.storage import Storage

READ = "SELECT value FROM meta WHERE key = 'k'"


async def open_sqlite(tmp_path) -> Storage:
    store = await Storage.open(tmp_path / "reads.db")
    assert store.backend == "sqlite"
    return store


async def a_write_held_open(store: Storage, gate: asyncio.Event, *, fail: bool = False):
    """A write transaction of several calls: it inserts a row, then waits for ``gate`` before it
    commits (or fails, and is rolled back)."""

    async def body(db):
        await db.execute("INSERT INTO meta (key, value) VALUES ('k', 'uncommitted')")
        await gate.wait()
        if fail:
            raise RuntimeError("the write fails after its insert")

    return await store._write(body)


async def test_a_read_waits_for_an_open_transaction_and_sees_only_what_it_committed(tmp_path):
    store = await open_sqlite(tmp_path)
    try:
        gate = asyncio.Event()
        writing = asyncio.ensure_future(a_write_held_open(store, gate))
        await asyncio.sleep(0.05)  # the insert is made, not committed
        reading = asyncio.ensure_future(store._fetchall(READ))
        await asyncio.sleep(0.05)
        assert not reading.done()  # it would have seen the uncommitted row
        gate.set()
        await writing
        assert [tuple(r) for r in await reading] == [("uncommitted",)]  # (now committed)
    finally:
        await store.close()


async def test_a_read_never_sees_the_rows_of_a_transaction_rolled_back(tmp_path):
    store = await open_sqlite(tmp_path)
    try:
        gate = asyncio.Event()
        writing = asyncio.ensure_future(a_write_held_open(store, gate, fail=True))
        await asyncio.sleep(0.05)
        reading = asyncio.ensure_future(store._fetchall(READ))
        await asyncio.sleep(0.05)
        gate.set()
        assert isinstance((await asyncio.gather(writing, return_exceptions=True))[0], RuntimeError)
        assert await reading == []
    finally:
        await store.close()


async def test_a_read_does_not_wait_for_the_lock_of_a_group_commit(tmp_path):
    # a group commit is one call on the connection's thread, made under the lock: a read queued
    # before or after it sees all of it or none, so it need not wait for the lock (under load, reads
    # taking the lock in turn queued for it, each hand-over a turn of the busy event loop)
    store = await open_sqlite(tmp_path)
    try:
        await store.set_meta("k", "v")
        async with store._lock:
            assert [tuple(r) for r in await asyncio.wait_for(store._fetchall(READ), 5)] == [("v",)]
    finally:
        await store.close()


async def test_a_read_after_the_close_is_refused(tmp_path):
    from bot.storage import StorageError

    store = await open_sqlite(tmp_path)
    await store.close()
    try:
        await store._fetchall(READ)
    except StorageError:
        pass
    else:
        raise AssertionError("a read after close() was not refused")
