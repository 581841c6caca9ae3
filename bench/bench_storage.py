"""Benchmark: time from an accepted action to its committed transaction.

Plays N actions through Storage.record_action (the call the host awaits before it
tells Discord anything), each with a fresh ~5 KB JSON snapshot, on a real file, and
prints p50 / p90 / p99 / max latency per ``synchronous`` mode. A second run
interleaves several games at once (concurrent coroutines on one Storage: their
record_action calls share transactions, group commit) to show the throughput when
many channels play together. Beside them, in the same run, a raw ``sqlite3`` loop
with the same pragmas, the same schema, the same statements and the same snapshot
(one transaction per action, no asyncio): the ceiling the Storage figures are a
share of.

    .venv/bin/python bench/bench_storage.py [--actions 2000] [--size 22000] [--games 50] [--dir DIR]

With ``--postgres`` (optionally ``--postgres URL``; without a URL a throw-away local server is started
as the tests do, tests/pg.py) the same two runs go through PostgresStorage on a fresh schema (once per
``--pool`` size, e.g. ``--pool 1,4,8``; by default ADMIRALTY_DB_POOL's default), beside a raw asyncpg
loop (the same statements, one transaction per action, one connection) and the same loop on
``--games`` connections at once: the pgbench-style ceiling.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.settings import DB_POOL_DEFAULT  # noqa: E402
from bot.storage import Storage  # noqa: E402


class Snapshots:
    """JSON texts of about ``size`` bytes shaped like a game state (board, ships, generator state).

    A pool is built once, so that making a snapshot costs the benchmark (almost) nothing: the
    clock must measure the database, not this generator; each text also carries its version.
    """

    def __init__(self, size: int, pool: int = 64):
        rng = random.Random(size)
        self.texts = []
        for _ in range(pool):
            state = {
                "key": "bench",
                "players": 2,
                "seed": 7,
                "rng": [3, [rng.getrandbits(32) for _ in range(40)], None],
                "state": {"version": "@V@", "turn": 0, "board": [], "ships": {}},
            }
            board = state["state"]["board"]
            while len(json.dumps(state, separators=(",", ":"))) < size:
                board.append([rng.randrange(12) for _ in range(12)])
                state["state"]["ships"][str(len(board))] = {
                    "at": [rng.randrange(9), rng.randrange(9)],
                    "size": 3,
                }
            self.texts.append(json.dumps(state, sort_keys=True, separators=(",", ":")))

    def get(self, version: int) -> str:
        return self.texts[version % len(self.texts)].replace('"@V@"', str(version))


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


async def new_game(store: Storage, channel: int, snaps: Snapshots) -> int:
    gid = await store.create_game(
        guild_id=1, channel_id=channel, game_key="bench", options={}, seed=7, host_id=1
    )
    await store.add_seat(gid, user_id=1, is_ai=False, name="A")
    await store.add_seat(gid, user_id=2, is_ai=True, name="B")
    await store.start_game(gid, snaps.get(0))
    return gid


async def play(store: Storage, gid: int, n: int, snaps: Snapshots, seed: int) -> list[float]:
    rng = random.Random(seed)
    timings = []
    for version in range(n):
        action = {"type": "move", "ship": rng.randrange(5), "to": [rng.randrange(9), rng.randrange(9)]}
        state = snaps.get(version + 1)  # made before the clock starts: that is the engine's work
        t0 = time.perf_counter()
        await store.record_action(
            gid,
            expected_version=version,
            seat=version % 2,
            action=action,
            state_json=state,
            deadline=time.time() + 300,
        )
        timings.append(time.perf_counter() - t0)
    return timings


def raw_sqlite(path: Path, sync: str, n: int, snaps: Snapshots) -> float:
    """Commits/s of a plain sqlite3 loop on a database made by Storage (same schema and pragmas): per
    action BEGIN IMMEDIATE, the version check, the action row, the game row, COMMIT."""
    con = sqlite3.connect(str(path), isolation_level=None)
    try:
        con.execute("PRAGMA journal_mode = WAL")
        con.execute(f"PRAGMA synchronous = {sync}")
        con.execute("PRAGMA foreign_keys = ON")
        now = time.time()
        con.execute(
            "INSERT INTO games (guild_id, channel_id, game_key, options, seed, host_id, status, version, "
            "state, created_at, updated_at) VALUES (1, 999999, 'bench', '{}', 7, 1, 'running', 0, ?, ?, ?)",
            (snaps.get(0), now, now),
        )
        gid = con.execute("SELECT max(id) FROM games").fetchone()[0]
        rng = random.Random(5)
        states = [snaps.get(v + 1) for v in range(n)]
        t0 = time.perf_counter()
        for version in range(n):
            action = json.dumps({"type": "move", "ship": rng.randrange(5), "to": [1, 2]}, sort_keys=True)
            con.execute("BEGIN IMMEDIATE")
            status, current = con.execute("SELECT status, version FROM games WHERE id = ?", (gid,)).fetchone()
            assert status == "running" and current == version
            now = time.time()
            con.execute(
                "INSERT INTO actions (game_id, seq, seat, action, created_at) VALUES (?, ?, ?, ?, ?)",
                (gid, version + 1, version % 2, action, now),
            )
            con.execute(
                "UPDATE games SET version = ?, state = ?, status = 'running', deadline = ?, reminded = 0, "
                "result = NULL, updated_at = ? WHERE id = ? AND version = ?",
                (version + 1, states[version], now + 300, now, gid, version),
            )
            con.execute("COMMIT")
        wall = time.perf_counter() - t0
        con.execute("UPDATE games SET status = 'abandoned' WHERE id = ?", (gid,))
    finally:
        con.close()
    return n / wall


STATE_CHECK = "CHECK (state IS NULL OR (substr(state, 1, 1) = '{' AND substr(state, -1, 1) = '}'))"
OLD_STATE_CHECK = "CHECK (state IS NULL OR json_valid(state))"


async def fresh_db(path: Path, sync: str, json_check: bool) -> Storage:
    """A new database at ``path``: as the migrations make it, or (``json_check`` True, for comparison)
    with the CHECK that migration 0007 replaced, ``json_valid(state)``, which parsed the whole snapshot
    on every write."""
    for p in (path, path.with_name(path.name + ".tmpl")):
        for suffix in ("", "-wal", "-shm"):
            Path(str(p) + suffix).unlink(missing_ok=True)
    if json_check:
        template = path.with_name(path.name + ".tmpl")
        await (await Storage.open(template)).close()
        src = sqlite3.connect(str(template))
        objects = src.execute(
            "SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL "
            "AND name NOT LIKE 'sqlite_%' ORDER BY type <> 'table', rowid"
        ).fetchall()
        version = src.execute("PRAGMA user_version").fetchone()[0]
        src.close()
        dst = sqlite3.connect(str(path))
        for kind, name, sql in objects:
            if kind == "table" and name == "games":
                assert STATE_CHECK in sql, "the games table changed: update bench_storage.py"
                sql = sql.replace(STATE_CHECK, OLD_STATE_CHECK)
            dst.execute(sql)
        dst.execute(f"PRAGMA user_version = {version}")
        dst.commit()
        dst.close()
    return await Storage.open(path, synchronous=sync)


def line(label: str, timings: list[float], wall: float | None = None) -> str:
    ms = [t * 1000 for t in timings]
    text = (
        f"{label:<42} n={len(ms):>5}  p50 {pct(ms, 50):7.3f} ms  p90 {pct(ms, 90):7.3f} ms  "
        f"p99 {pct(ms, 99):7.3f} ms  max {max(ms):7.3f} ms  mean {statistics.fmean(ms):7.3f} ms"
    )
    if wall is not None:
        text += f"  | {len(ms) / wall:8.0f} commits/s"
    return text


async def measure(
    store: Storage, snaps: Snapshots, args: argparse.Namespace, label: str
) -> tuple[float, float]:
    """The two runs on one store, printed: one game alone, then ``--games`` at once (group commit).
    -> (commits/s of one game, commits/s of all at once)."""
    gid = await new_game(store, 1, snaps)
    await play(store, gid, 20, snaps, seed=99)  # warm-up, not counted
    await store.set_status(gid, "abandoned")
    gid = await new_game(store, 2, snaps)
    t0 = time.perf_counter()
    timings = await play(store, gid, args.actions, snaps, seed=1)
    wall = time.perf_counter() - t0
    print(line(f"{label}, one game", timings, wall))
    one = args.actions / wall
    per_game = max(1, args.actions // args.games)
    gids = [await new_game(store, 100 + g, snaps) for g in range(args.games)]
    t0 = time.perf_counter()
    results = await asyncio.gather(*(play(store, g, per_game, snaps, seed=g) for g in gids))
    wall = time.perf_counter() - t0
    print(line(f"{label}, {args.games} games at once", [t for r in results for t in r], wall))
    many = len(results[0]) * len(results) / wall
    assert await store.integrity_check() == "ok"
    for g in [gid, *gids]:  # free the channels for the next run on the same database
        await store.set_status(g, "abandoned")
    return one, many


async def run(args: argparse.Namespace) -> None:
    base = Path(args.dir) if args.dir else Path(tempfile.mkdtemp(prefix="bench_storage_"))
    base.mkdir(parents=True, exist_ok=True)
    print(f"database directory: {base}  (filesystem matters: fsync cost is the disk's)")
    snaps = Snapshots(args.size)
    print(f"snapshot size ≈ {len(snaps.get(1))} bytes, {args.actions} actions per run")
    print(
        "(the second block, for comparison, puts back the json_valid(state) CHECK that migration 0007 "
        f"replaced: SQLite {sqlite3.sqlite_version} parsed the whole snapshot on every write)"
    )
    for sync, json_check in [(sync, check) for sync in args.sync.split(",") for check in (False, True)]:
        print(
            f"--- schema {'with the json_valid(state) CHECK of before 0007' if json_check else 'as migrated'}"
        )
        path = base / f"bench_{sync.lower()}{'_jsoncheck' if json_check else ''}.db"
        store = await fresh_db(path, sync, json_check)
        try:
            one, many = await measure(store, snaps, args, f"synchronous={sync.upper()}")
        finally:
            await store.close()
        raw = raw_sqlite(path, sync.upper(), args.actions, snaps)
        print(
            f"synchronous={sync.upper()}, raw sqlite3 loop{'':8} {raw:8.0f} commits/s  (same pragmas, schema, "
            f"statements, snapshot)"
        )
        print(
            f"{'':34} Storage: one game {100 * one / raw:5.1f} % of raw, {args.games} games at once "
            f"{100 * many / raw:5.1f} % of raw"
        )
        print(f"{'':34} file size after the runs: {path.stat().st_size / 1e6:.1f} MB")


async def raw_asyncpg(url: str, n: int, snaps: Snapshots, connections: int = 1) -> float:
    """Commits/s of plain asyncpg loops on the schema Storage made (the same statements as
    record_action: lock the game row, check the version, insert the action, update the game), one
    transaction per action, on ``connections`` connections at once (one game each)."""
    import asyncpg

    async def one(conn, gid: int, count: int) -> None:
        rng = random.Random(gid)
        for version in range(count):
            action = json.dumps({"type": "move", "ship": rng.randrange(5), "to": [1, 2]}, sort_keys=True)
            state = snaps.get(version + 1)
            async with conn.transaction():
                status, current = await conn.fetchrow(
                    "SELECT status, version FROM games WHERE id = $1 FOR UPDATE", gid
                )
                assert status == "running" and current == version
                now = time.time()
                await conn.execute(
                    "INSERT INTO actions (game_id, seq, seat, action, created_at) "
                    "VALUES ($1, $2, $3, $4, $5)",
                    gid,
                    version + 1,
                    version % 2,
                    action,
                    now,
                )
                await conn.execute(
                    "UPDATE games SET version = $1, state = $2, status = 'running', deadline = $3, "
                    "reminded = 0, result = NULL, updated_at = $4 WHERE id = $5 AND version = $6",
                    version + 1,
                    state,
                    now + 300,
                    now,
                    gid,
                    version,
                )

    conns = [await asyncpg.connect(url) for _ in range(connections)]
    try:
        gids = []
        for k, conn in enumerate(conns):
            now = time.time()
            gids.append(
                await conn.fetchval(
                    "INSERT INTO games (guild_id, channel_id, game_key, options, seed, host_id, status, version, "
                    "state, created_at, updated_at) VALUES (1, $1, 'bench', '{}', 7, 1, 'running', 0, $2, $3, $3) "
                    "RETURNING id",
                    900000 + k + connections * 1000,
                    snaps.get(0),
                    now,
                )
            )
        per = max(1, n // connections)
        t0 = time.perf_counter()
        await asyncio.gather(*(one(c, g, per) for c, g in zip(conns, gids, strict=True)))
        wall = time.perf_counter() - t0
        for conn, gid in zip(conns, gids, strict=True):
            await conn.execute("UPDATE games SET status = 'abandoned' WHERE id = $1", gid)
    finally:
        for conn in conns:
            await conn.close()
    return per * connections / wall


async def run_postgres(args: argparse.Namespace) -> None:
    from tests import pg

    server = None
    url = args.postgres if args.postgres != "local" else None
    if url is None:
        url, server = pg.start()
    schema_url, name = await pg.create_schema(url)
    try:
        snaps = Snapshots(args.size)
        print(
            f"PostgreSQL ({'a throw-away local server' if server else 'the given URL'}); snapshot size ≈ "
            f"{len(snaps.get(1))} bytes, {args.actions} actions per run"
        )
        figures = {}
        for size in [int(x) for x in args.pool.split(",")]:
            store = await Storage.open(schema_url, pool_size=size)
            try:
                figures[size] = await measure(store, snaps, args, f"PostgresStorage, pool {size}")
            finally:
                await store.close()
        raw_one = await raw_asyncpg(schema_url, args.actions, snaps, 1)
        raw_many = await raw_asyncpg(schema_url, args.actions, snaps, args.games)
        print(
            f"raw asyncpg loop, one connection{'':3} {raw_one:8.0f} commits/s  (same statements, one "
            "transaction per action)"
        )
        print(f"raw asyncpg loops, {args.games} connections {raw_many:8.0f} commits/s")
        for size, (one, many) in figures.items():
            print(
                f"{'':34} Storage, pool {size}: one game {100 * one / raw_one:5.1f} % of raw (one connection), "
                f"{args.games} games at once {100 * many / raw_one:5.1f} % of raw on one connection, "
                f"{100 * many / raw_many:5.1f} % of {args.games} connections"
            )
    finally:
        await pg.drop_schema(url, name)
        if server is not None:
            server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--actions", type=int, default=2000)
    parser.add_argument("--size", type=int, default=22000, help="snapshot size in bytes")
    parser.add_argument("--games", type=int, default=50, help="games played at once in the second run")
    parser.add_argument("--sync", default="NORMAL", help="synchronous modes to compare")
    parser.add_argument("--dir", default=None, help="where to put the database (default: a temp directory)")
    parser.add_argument(
        "--postgres",
        nargs="?",
        const="local",
        default=None,
        metavar="URL",
        help="bench PostgreSQL instead (a URL, or a throw-away local server without one)",
    )
    parser.add_argument(
        "--pool",
        default=str(DB_POOL_DEFAULT),
        help="PostgreSQL: the pool sizes to compare (ADMIRALTY_DB_POOL), e.g. 1,4,8",
    )
    args = parser.parse_args()
    asyncio.run(run_postgres(args) if args.postgres else run(args))


if __name__ == "__main__":
    main()
