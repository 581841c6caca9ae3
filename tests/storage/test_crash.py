"""kill -9 between (and during) actions loses no committed action and leaves a sound database
(a SQLite file, or a PostgreSQL database whose client was killed)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from bot.storage import Storage, rebuild, replay_matches

REPO = Path(__file__).resolve().parents[2]

# The child process: open the database, play moves of the fake game, print "ok" after each
# committed record_action, then (in "self" mode) SIGKILL itself without closing anything.
CHILD = textwrap.dedent(
    """
    import asyncio, importlib.util, os, signal, sys
    sys.path.insert(0, {repo!r})
    from bot.storage import Storage

    spec = importlib.util.spec_from_file_location("fake", {fake!r})
    fake = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fake)

    async def main():
        store = await Storage.open({db!r})
        row = await store.get_game({gid})
        game = fake.SPEC.from_json(row.state_json)
        for _ in range({moves}):
            seat = game.to_act()[0]
            action = game.legal_actions(seat)[row.version % 3]
            game.apply(seat, action)
            new = await store.record_action(
                row.id, expected_version=row.version, seat=seat, action=action, state_json=game.to_json()
            )
            row = await store.get_game(row.id)
            assert row.version == new
            print("ok", new, flush=True)
        if {suicide}:
            os.kill(os.getpid(), signal.SIGKILL)
        await asyncio.sleep(3600)

    asyncio.run(main())
    """
)


def _child(db: Path, gid: int, fake: Path, moves: int, suicide: bool) -> list[str]:
    code = CHILD.format(repo=str(REPO), fake=str(fake), db=str(db), gid=gid, moves=moves, suicide=suicide)
    return [sys.executable, "-c", code]


async def _setup(db_path, new_running_game, length):
    store = await Storage.open(db_path)
    try:
        gid, _ = await new_running_game(store, length=length)
    finally:
        await store.close()
    return gid


async def _check_after_crash(db_path, gid, fake_spec, at_least):
    wal = Path(str(db_path) + "-wal")
    store = await Storage.open(db_path)
    try:
        row = await store.get_game(gid)
        log = await store.actions(gid)
        assert row.version >= at_least
        assert [a.seq for a in log] == list(range(1, row.version + 1))
        assert replay_matches(row, log, spec=fake_spec)
        assert rebuild(row, log, spec=fake_spec).to_json() == row.state_json
        assert await store.integrity_check() == "ok"
    finally:
        await store.close()
    return row, wal


async def test_crash_between_two_actions_loses_neither(
    db_path, backend, new_running_game, fake_path, fake_spec
):
    gid = await _setup(db_path, new_running_game, length=10)
    proc = subprocess.run(
        _child(db_path, gid, fake_path, moves=2, suicide=True), capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == -signal.SIGKILL, proc.stderr
    assert proc.stdout.split("\n")[:2] == ["ok 1", "ok 2"]
    # the process died without closing: the two commits live in the WAL file, not yet checkpointed
    if backend == "sqlite":
        wal = Path(str(db_path) + "-wal")
        assert wal.exists() and wal.stat().st_size > 0
    row, _ = await _check_after_crash(db_path, gid, fake_spec, at_least=2)
    assert row.version == 2
    assert row.status == "running"


async def test_kill_9_at_a_random_moment_keeps_every_reported_action(
    db_path, new_running_game, fake_path, fake_spec
):
    gid = await _setup(db_path, new_running_game, length=10_000)
    for round_ in range(3):
        before = (await _check_after_crash(db_path, gid, fake_spec, at_least=0))[0].version
        proc = subprocess.Popen(
            _child(db_path, gid, fake_path, moves=5000, suicide=False), stdout=subprocess.PIPE, text=True
        )
        reported = 0
        target = 30 + 17 * round_
        deadline = time.monotonic() + 60
        while reported < before + target and time.monotonic() < deadline:
            line = proc.stdout.readline()
            if not line:
                break
            reported = int(line.split()[1])
        os.kill(proc.pid, signal.SIGKILL)  # very likely in the middle of a later transaction
        proc.wait(timeout=30)
        proc.stdout.close()
        assert reported >= before + target, "the child did not get going"
        row, _ = await _check_after_crash(db_path, gid, fake_spec, at_least=reported)
