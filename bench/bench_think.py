"""How long each AI level thinks a move, for every game: median and p99, wall clock and CPU.

Whole games at the hard level take minutes each (a second a decision), so this bench times single
decisions instead: positions are taken from seeded playouts between easy AIs (every ``--every``-th
position where the seat to act has a real choice), and each level decides at each of them with its own
budget (``BUDGETS``). Run it on a quiet machine: the wall clock is what a player waits, and on a busy
machine it measures the other load (the CPU time beside it says how much).

    python bench/bench_think.py [--positions 40] [--levels normal hard] [--games ...] [--markdown]

Lines: enemy-lines, enemy-in-sight (2, 4 and 6 players), enemy-in-sight Advanced (4 players), warships,
everrain (2 captains). Warships starts from its quick set-up, so that its decisions are those of play.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bot.games import registry  # noqa: E402
from bot.games.ai import BUDGETS, LEVELS  # noqa: E402

# (label, game, players, options)
LINES = [
    ("Enemy Lines", "enemy-lines", 2, {}),
    ("Enemy in Sight, 2 players", "enemy-in-sight", 2, {}),
    ("Enemy in Sight, 4 players", "enemy-in-sight", 4, {}),
    ("Enemy in Sight, 6 players", "enemy-in-sight", 6, {}),
    ("Enemy in Sight Advanced, 4 players", "enemy-in-sight", 4, {"variant": "advanced"}),
    ("Warships (in play: quick set-up)", "warships", 2, {"quick-setup": True}),
    ("The Everrain, 2 captains", "everrain", 2, {}),
]


def positions(key: str, players: int, options: dict, count: int, every: int, seed: int):
    """Up to ``count`` (game, seat) positions with a choice, every ``every``-th of seeded easy playouts."""
    found = 0
    while found < count:
        game = registry.get(key).new(players=players, options=options, seed=seed)
        rng = random.Random(seed)
        step = 0
        while not game.is_over and found < count and step < 2000:
            seat = game.to_act()[0]
            if step % every == 0 and len(game.legal_actions(seat)) > 1:
                found += 1
                yield game, seat
            game.apply(seat, game.ai_action(seat, rng, "easy"))
            step += 1
        seed += 1


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=40, help="decisions timed a line and level")
    ap.add_argument("--every", type=int, default=5, help="time every n-th position of the playouts")
    ap.add_argument("--levels", nargs="+", default=list(LEVELS), choices=LEVELS)
    ap.add_argument("--games", nargs="+", default=None, help="only lines whose label contains one of these")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--markdown", action="store_true", help="print a Markdown table")
    args = ap.parse_args()
    rows = []
    for label, key, players, options in LINES:
        if args.games and not any(g.lower() in label.lower() for g in args.games):
            continue
        for level in args.levels:
            wall, cpu = [], []
            for game, seat in positions(key, players, options, args.positions, args.every, args.seed):
                rng = random.Random(len(wall))
                started, started_cpu = time.perf_counter(), time.process_time()
                game.ai_action(seat, rng, level)
                wall.append(time.perf_counter() - started)
                cpu.append(time.process_time() - started_cpu)
            row = (
                label,
                level,
                BUDGETS[level].seconds,
                len(wall),
                pct(wall, 0.5),
                pct(wall, 0.99),
                pct(cpu, 0.99),
            )
            rows.append(row)
            print(
                f"{label}, {level} (budget {row[2] * 1000:.0f} ms): {row[3]} decisions, wall median "
                f"{row[4] * 1000:.0f} ms, p99 {row[5] * 1000:.0f} ms; CPU p99 {row[6] * 1000:.0f} ms",
                flush=True,
            )
    if args.markdown:
        print("\n| line | level | budget ms | decisions | wall median ms | wall p99 ms | CPU p99 ms |")
        print("|---|---|---|---|---|---|---|")
        for label, level, budget, n, p50, p99, cpu99 in rows:
            print(
                f"| {label} | {level} | {budget * 1000:.0f} | {n} | {p50 * 1000:.0f} | {p99 * 1000:.0f} | "
                f"{cpu99 * 1000:.0f} |"
            )


if __name__ == "__main__":
    main()
