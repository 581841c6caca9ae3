"""The drawing pool's own cost per picture: N distinct views through ``bot.drawing.Drawing`` with a
stubbed renderer (the same PNG for every view of a game) against the same calls made directly, CPU of
this process and of the drawing processes per picture.

    python bench/bench_pool.py [--pictures 400] [--workers 2]

Views are real (each game's channel and seat views along a seeded playout), so what crosses to the
workers is what the bot sends; the stub returns one real PNG per game, so what comes back is too.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import rendering  # noqa: E402
from bot import drawing  # noqa: E402
from bot.games import registry  # noqa: E402

_PNGS: dict[str, bytes] = {}


def stub_draw(game_key: str, view: dict, names: list[str] | None) -> tuple[bytes, float, float]:
    """``drawing.draw`` with the renderer stubbed: one real PNG per game, drawn once per process."""
    start, cpu = time.perf_counter(), time.thread_time()
    png = _PNGS.get(game_key)
    if png is None:
        png = _PNGS[game_key] = rendering.render(game_key, view, names)
    return png, time.perf_counter() - start, time.thread_time() - cpu


def views(count: int, seed: int = 1) -> list[tuple[str, dict, list[str]]]:
    """``count`` views of seeded playouts of every game (distinct: each after another move)."""
    rng = random.Random(seed)
    keys = [k for k in registry.keys() if rendering.has_renderer(k)]
    out: list[tuple[str, dict, list[str]]] = []
    games = {k: registry.get(k).new(2, {}, seed) for k in keys}
    while len(out) < count:
        for key in keys:
            game = games[key]
            if game.is_over:
                game = games[key] = registry.get(key).new(2, {}, rng.randrange(1 << 30))
            for seat in (None, *range(2)):
                out.append((key, game.view(seat), ["Alice", "Bob"]))
            seat = game.to_act()[0] if game.to_act() else None
            if seat is not None:
                game.apply(seat, rng.choice(game.legal_actions(seat)))
    return out[:count]


def proc_cpu(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def through_pool(items: list, workers: int) -> tuple[float, float]:
    pool = drawing.Drawing(workers, drawer=stub_draw, warm=False)
    pool.start()
    for key in {k for k, _, _ in items}:  # each worker's stub PNG drawn before the clock starts
        for _ in range(workers * 2):
            await pool.run(stub_draw, key, next(v for k, v, _ in items if k == key), None)
    await asyncio.sleep(1)
    pids = pool.worker_pids()
    main0, kids0 = time.process_time(), sum(proc_cpu(p) for p in pids)
    for i in range(0, len(items), 8):  # a few at a time, as moves of several games would
        await asyncio.gather(*(pool.picture(k, v, n, game_id=i) for k, v, n in items[i : i + 8]))
    main, kids = time.process_time() - main0, sum(proc_cpu(p) for p in pids) - kids0
    await pool.close()
    return main, kids


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pictures", type=int, default=400)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    items = views(args.pictures)
    for key, view, names in items[:8]:
        stub_draw(key, view, names)
    t0 = time.process_time()
    for key, view, names in items:
        stub_draw(key, view, names)
    direct = time.process_time() - t0
    main_s, kids_s = asyncio.run(through_pool(items, args.workers))
    n = len(items)
    print(f"{n} pictures, stubbed renderer, {args.workers} workers: ms CPU a picture")
    print(f"  direct call            {1000 * direct / n:7.3f}")
    print(f"  pool: this process     {1000 * main_s / n:7.3f}")
    print(f"  pool: drawing processes{1000 * kids_s / n:7.3f}")
    print(f"  pool: total            {1000 * (main_s + kids_s) / n:7.3f}")


if __name__ == "__main__":
    main()
