"""Benchmark: how long a replay takes to draw, and how big it is, per game.

Plays a whole AI game of each game (seeded), then runs bot.replay.replay on it as /game replay does
(at most ``--frames`` frames) and prints the moves, frames, seconds, GIF size and the widest frame.
With ``--out DIR`` the GIFs are written there to look at.

    .venv/bin/python bench/bench_replay.py [--seed 3] [--frames 80] [--games enemy-lines,warships] [--out DIR]
"""

from __future__ import annotations

import argparse
import io
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PIL import Image  # noqa: E402

from bot import replay  # noqa: E402
from bot.games import registry  # noqa: E402

OPTIONS = {
    "enemy-lines": {"quick-setup": True},
    "warships": {"quick-setup": True},
    "everrain": {"length": "short"},
}


def play(key: str, seed: int) -> replay.Record:
    spec = registry.get(key)
    players = max(2, spec.min_players)
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


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--frames", type=int, default=replay.MAX_FRAMES)
    ap.add_argument("--games", default=",".join(registry.keys()))
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    print("| game | moves | frames | seconds | GIF MiB | widest frame px |")
    print("|---|---|---|---|---|---|")
    for key in args.games.split(","):
        record = play(key, args.seed)
        t = time.perf_counter()
        made = replay.replay(record, max_frames=args.frames)
        dt = time.perf_counter() - t
        widest = max(Image.open(io.BytesIO(p)).width for p in made.frames)
        print(
            f"| {registry.get(key).title} | {made.moves} | {made.frame_count} | {dt:.1f} | "
            f"{len(made.animation) / 2**20:.2f} | {widest} |",
            flush=True,
        )
        if args.out:
            Path(args.out).mkdir(parents=True, exist_ok=True)
            (Path(args.out) / f"{key}.gif").write_bytes(made.animation)
    return 0


if __name__ == "__main__":
    sys.exit(main())
