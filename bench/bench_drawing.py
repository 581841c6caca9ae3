"""Benchmark: drawing many boards at once, in a thread of the bot's process (as before issue 19) or in
the drawing processes (bot/drawing.py), and what the event loop meanwhile feels.

For each game, ``--boards`` different channel views (a game's positions after 1, 2, 3 … moves past the
middle) are asked for at once, as a busy bot asks for them; meanwhile a task ticks every 5 ms and
records how late each tick comes (a click's answer waits as long). Printed per game and way: the wall
seconds, boards a second, this process's CPU milliseconds per board (the bot's own core and GIL:
what sets how many games one process serves), and the ticks' lateness at p50, p99 and worst. The last
row asks for one view ``--boards`` times at once (a table's spectators, /game status, a retry): drawn
once.

    .venv/bin/python bench/bench_drawing.py [--boards 24] [--workers N] [--games enemy-lines,warships]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_render import CASES, NAMES, mid_game  # noqa: E402

from bot.drawing import Drawing, machine_cores  # noqa: E402
from bot.games import registry  # noqa: E402


def views(key: str, players: int, moves: int, count: int) -> list[dict]:
    """``count`` different channel views of one game, from ``moves`` on."""
    game = mid_game(key, players, moves)
    out = []
    rng = random.Random(1)
    while len(out) < count and not game.is_over:
        out.append(game.view(None))
        seat = game.to_act()[0]
        game.apply(seat, game.ai_action(seat, rng))
    while len(out) < count:  # a short game: its views again, in new games (another game id each)
        out.append(out[len(out) % max(1, len(out))])
    return out


async def measure(
    drawing: Drawing, key: str, asks: list[dict], names: list[str], *, one_game: bool = False
) -> dict[str, float]:
    late: list[float] = []

    async def ticks() -> None:
        while True:
            t = time.perf_counter()
            await asyncio.sleep(0.005)
            late.append(time.perf_counter() - t - 0.005)

    ticker = asyncio.ensure_future(ticks())
    await asyncio.sleep(0.02)
    late.clear()
    drawn = drawing.drawn
    t, cpu = time.perf_counter(), time.process_time()
    pictures = await asyncio.gather(
        *(drawing.picture(key, view, names, game_id=0 if one_game else i) for i, view in enumerate(asks))
    )
    wall, cpu = time.perf_counter() - t, time.process_time() - cpu
    ticker.cancel()
    assert all(p for p in pictures)
    count = drawing.drawn - drawn
    late.sort()
    return {
        "wall": wall,
        "drawn": count,
        "per_s": len(asks) / wall,
        "cpu_ms": cpu * 1000 / len(asks),
        "p50": statistics.median(late) * 1000 if late else 0.0,
        "p99": late[min(len(late) - 1, int(len(late) * 0.99))] * 1000 if late else 0.0,
        "worst": late[-1] * 1000 if late else 0.0,
    }


def row(label: str, way: str, m: dict[str, float]) -> str:
    return (
        f"| {label} | {way} | {m['drawn']:.0f} | {m['wall']:.2f} | {m['per_s']:.0f} | {m['cpu_ms']:.1f} | "
        f"{m['p50']:.1f} | {m['p99']:.1f} | {m['worst']:.0f} |"
    )


async def run(args: argparse.Namespace) -> None:
    thread = Drawing(0)
    pool = Drawing(args.workers)
    pool.start()
    await asyncio.gather(*(pool.run(len, b"warm") for _ in range(pool.workers)))  # started and warm
    print(f"drawing processes: {pool.workers} (cores: {machine_cores()}); {args.boards} boards asked at once")
    print(
        "| board | drawn in | drawn | wall s | boards/s | bot CPU ms/board | tick late p50 ms | p99 ms | worst ms |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    wanted = set(args.games.split(","))
    try:
        for key, players, moves in CASES:
            if key not in wanted:
                continue
            label = registry.get(key).title + (f" ({players} players)" if key == "enemy-in-sight" else "")
            asks = views(key, players, moves, args.boards)
            names = NAMES[:players]
            await thread.picture(key, asks[0], names, game_id=-1)  # this process's caches warm too
            thread._cache.clear()
            print(row(label, "a thread", await measure(thread, key, asks, names)), flush=True)
            print(row(label, "the pool", await measure(pool, key, asks, names)), flush=True)
            thread._cache.clear()
            pool._cache.clear()
        key, players, moves = CASES[0]
        one = views(key, players, moves, 1) * args.boards
        shared = await measure(pool, key, one, NAMES[:players], one_game=True)
        print(
            row(f"{registry.get(key).title}, one view asked {args.boards}×", "the pool", shared), flush=True
        )
    finally:
        await pool.close()


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--boards", type=int, default=24)
    ap.add_argument("--workers", type=int, default=None, help="drawing processes (default: one per core)")
    ap.add_argument("--games", default=",".join(registry.keys()))
    asyncio.run(run(ap.parse_args()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
