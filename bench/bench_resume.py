"""Benchmark: a restart with N running games (issue 12: 1,000 games resume within 2 s).

Writes N running Enemy Lines games (two human seats, a one-hour turn timer, their jobs armed) straight
into a fresh database, then times a new ``Host.resume_all()``: every game's "resumed" note written,
its timers armed (they are rows of the jobs table already: nothing to re-arm) and the scheduler
running. Beside it, the time until every game was shown again with its note (through a delivery that
draws nothing: what is timed is the host's own work, not Discord's). Once on SQLite, once on
PostgreSQL (ADMIRALTY_TEST_DATABASE_URL, else a throw-away server as the tests start; skipped without).
Exit status 1 when ``resume_all`` takes longer than ``--limit`` seconds on a backend.

    .venv/bin/python bench/bench_resume.py [--games 1000] [--limit 2.0] [--backends sqlite,postgres]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.games import registry  # noqa: E402
from bot.host import Host, NullDelivery  # noqa: E402
from bot.storage import Storage  # noqa: E402

TIMEOUT = 3600.0


async def fill(storage: Storage, games: int) -> list[int]:
    """N running games, written in one transaction (the way there is not what is measured)."""
    spec = registry.get("enemy-lines")
    state = spec.new(2, {"quick-setup": True}, 1).to_json()
    now = time.time()

    async def body(db):
        ids = []
        for n in range(games):
            rows = await db.execute_fetchall(
                "INSERT INTO games (guild_id, channel_id, game_key, options, seed, host_id, status, version, state, "
                "deadline, turn_timeout, created_at, updated_at) VALUES (?, ?, 'enemy-lines', "
                "'{\"quick-setup\":true}', 1, 100, 'running', 0, ?, ?, ?, ?, ?) RETURNING id",
                (1, 1000 + n, state, now + TIMEOUT, TIMEOUT, now, now),
            )
            ids.append(rows[0][0])
        await db.executemany(
            "INSERT INTO seats (game_id, seat, user_id, is_ai, name) VALUES (?, ?, ?, 0, ?)",
            [(gid, seat, 100 + seat, f"P{seat}") for gid in ids for seat in (0, 1)],
        )
        await db.executemany(
            "INSERT INTO jobs (game_id, kind, due, version) VALUES (?, ?, ?, 0)",
            [
                (gid, kind, due)
                for gid in ids
                for kind, due in (("timeout", now + TIMEOUT), ("reminder", now + TIMEOUT / 2))
            ],
        )
        return ids

    return await storage._write(body)


async def run(target, games: int) -> tuple[float, float, int, int]:
    storage = await Storage.open(target)
    try:
        ids = await fill(storage, games)
        host = Host(storage, NullDelivery(), ai_delay=1.0)
        start = time.perf_counter()
        resumed = await host.resume_all()
        resumed_in = time.perf_counter() - start
        await host.publisher.idle()
        shown_in = time.perf_counter() - start
        shown = sum(1 for c in host.delivery.calls if c[0] == "publish" and c[4] == "resumed")
        notes = (await storage._fetchall("SELECT count(*) FROM log WHERE text LIKE 'Admiralty restarted%'"))[
            0
        ][0]
        jobs = (await storage._fetchall("SELECT count(*) FROM jobs"))[0][0]
        await host.close()
        assert len(resumed) == len(ids) == games and notes == games and shown == games, (
            len(resumed),
            notes,
            shown,
        )
        return resumed_in, shown_in, notes, jobs
    finally:
        await storage.close()


async def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--limit", type=float, default=2.0)
    parser.add_argument("--backends", default="sqlite,postgres")
    args = parser.parse_args()
    status = 0
    print(f"{'backend':10} {'games':>6} {'resume_all':>11} {'all shown':>10} {'notes':>6} {'jobs':>6}")
    for backend in args.backends.split(","):
        server = None
        if backend == "sqlite":
            tmp = tempfile.TemporaryDirectory()
            target = Path(tmp.name) / "resume.db"
        else:
            from tests import pg

            try:
                admin, server = pg.start()
            except pg.Unavailable as err:
                print(f"{backend:10} skipped: {err}")
                continue
            target, _ = await pg.create_schema(admin)
        try:
            resumed_in, shown_in, notes, jobs = await run(target, args.games)
        finally:
            if server is not None:
                server.stop()
        print(f"{backend:10} {args.games:6d} {resumed_in:10.3f}s {shown_in:9.3f}s {notes:6d} {jobs:6d}")
        if resumed_in > args.limit:
            print(f"  over the limit of {args.limit} s")
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
