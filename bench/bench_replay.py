"""Benchmark: how long a replay takes to draw, and how big it is, per game.

Plays a whole AI game of each game (seeded), then makes its replay (at most ``--frames`` frames) two
ways: on one thread (``bot.replay.replay``, as /game replay did before the drawing pool) and as the bot
makes it now (``bot.replay.make`` with a pool of ``--workers`` drawing processes, by default one per
core; cold: nothing in the cache). It prints the moves, frames, seconds each way, the longest time the
event loop waited for a 5 ms tick meanwhile (a click's answer waits as long), the GIF size and the
size of its frames (the largest, width × height: landscape, at most 800 × 600). With ``--out DIR`` the GIFs are written there to look at.

    .venv/bin/python bench/bench_replay.py [--seed 3] [--frames 80] [--games enemy-lines,warships] [--players N] [--workers N] [--out DIR]
"""

from __future__ import annotations

import argparse
import asyncio
import io
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PIL import Image  # noqa: E402

from bot import replay  # noqa: E402
from bot.drawing import Drawing, machine_cores  # noqa: E402
from bot.games import registry  # noqa: E402

OPTIONS = {
    "enemy-lines": {"quick-setup": True},
    "warships": {"quick-setup": True},
    "everrain": {"length": "short"},
}


def play(key: str, seed: int, players: int | None = None) -> replay.Record:
    spec = registry.get(key)
    players = min(spec.max_players, players) if players else max(2, spec.min_players)
    game = spec.new(players, OPTIONS.get(key, {}), seed)
    rng = random.Random(seed)
    actions = []
    while not game.is_over:
        seat = game.to_act()[0]
        action = game.ai_action(seat, rng)
        game.apply(seat, action)
        actions.append((seat, action))
    names = ["Alice", "Bob", "Carol", "Dan", "Eve", "Fay"][:players]
    return replay.Record(None, key, game.options, seed, names, actions, game.result, True)


async def timed(make) -> tuple[replay.Replay, float, float, float]:
    """``make()``'s replay, its seconds, the CPU seconds of this process (the bot's: its event loop's
    GIL) and the longest wait of the event loop for a 5 ms tick meanwhile."""
    worst = 0.0

    async def ticks() -> None:
        nonlocal worst
        while True:
            t = time.perf_counter()
            await asyncio.sleep(0.005)
            worst = max(worst, time.perf_counter() - t - 0.005)

    ticker = asyncio.ensure_future(ticks())
    await asyncio.sleep(0)
    t, cpu = time.perf_counter(), time.process_time()
    made = await make()
    dt, cpu = time.perf_counter() - t, time.process_time() - cpu
    ticker.cancel()
    return made, dt, cpu, worst


async def run(args: argparse.Namespace) -> None:
    drawing = Drawing(args.workers)
    drawing.start()
    await asyncio.gather(*(drawing.run(len, b"warm") for _ in range(drawing.workers)))  # started, warm
    print(f"drawing processes: {drawing.workers} (cores: {machine_cores()})")
    print(
        "| game | moves | frames | thread: s | bot CPU s | loop stall ms | pool: s | bot CPU s | loop stall ms "
        "| GIF MiB | frame px |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    try:
        for key in args.games.split(","):
            record = play(key, args.seed, args.players)
            before, before_s, before_cpu, before_stall = await timed(
                lambda record=record: asyncio.to_thread(replay.replay, record, max_frames=args.frames)
            )
            drawing._cache.clear()  # cold: as for a game the table did not show in this process
            made, dt, cpu, stall = await timed(
                lambda record=record: replay.make(record, drawing, max_frames=args.frames)
            )
            assert made.animation == before.animation
            sizes = [Image.open(io.BytesIO(p)).size for p in made.frames]
            largest = f"{max(w for w, _ in sizes)}×{max(h for _, h in sizes)}"
            print(
                f"| {registry.get(key).title} | {made.moves} | {made.frame_count} | {before_s:.1f} | "
                f"{before_cpu:.1f} | {before_stall * 1000:.0f} | {dt:.1f} | {cpu:.1f} | {stall * 1000:.0f} | "
                f"{len(made.animation) / 2**20:.2f} | {largest} |",
                flush=True,
            )
            if args.out:
                Path(args.out).mkdir(parents=True, exist_ok=True)
                (Path(args.out) / f"{key}.gif").write_bytes(made.animation)
    finally:
        await drawing.close()


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--frames", type=int, default=replay.MAX_FRAMES)
    ap.add_argument("--games", default=",".join(registry.keys()))
    ap.add_argument("--players", type=int, default=None, help="players (default: the fewest, 2 at least)")
    ap.add_argument("--workers", type=int, default=None, help="drawing processes (default: one per core)")
    ap.add_argument("--out", default=None)
    asyncio.run(run(ap.parse_args()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
