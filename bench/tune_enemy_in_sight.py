"""Fit the weights of Enemy in Sight's heuristic (``ai.TODAY``'s keys) against today's AI, frozen in
bench/baselines/enemy_in_sight_today.py: a coordinate search, each weight scaled in turn, a change kept
when it wins more of the same seeded games (every seat order, 2 and 4 players) than the best so far.
The heuristic plays a game in about a tenth of a second, so a few thousand games a step fit.

    nice python bench/tune_enemy_in_sight.py --seeds 150 --jobs 2 [--start '{"bank": 60}']
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.baselines.enemy_in_sight_today import today  # noqa: E402
from bot.games import registry  # noqa: E402
from bot.games.enemy_in_sight import ai  # noqa: E402

SCALES = "0.5,2"


def play(job: tuple) -> float:
    """One game, the tuned heuristic in ``own`` seat, today's in the others: its share of the win."""
    weights, players, own, seed, options = job
    game = registry.get("enemy-in-sight").new(players=players, options=options, seed=seed)
    rng = random.Random(seed * 7919 + 1)
    for _ in range(5000):
        if game.is_over:
            winners = game.result["winners"]
            return 1.0 / len(winners) if own in winners else 0.0
        seat = game.to_act()[0]
        view, legal = game.view(seat), game.legal_actions(seat)
        game.apply(
            seat, ai.choose(view, legal, rng, weights) if seat == own else today(view, legal, seat, rng)
        )
    return 0.0


def score(pool, weights: dict, seeds: int) -> tuple[float, float]:
    """(2-player, 4-player) win rates of ``weights`` against today's AI on the same seeds."""
    rates = []
    for players, n, options in ((2, seeds, {}), (4, seeds // 3, {})):
        jobs = [(weights, players, own, s, options) for s in range(1, n + 1) for own in range(players)]
        rates.append(sum(pool.map(play, jobs, chunksize=8)) / len(jobs))
    return rates[0], rates[1]


def merit(rates: tuple[float, float]) -> float:
    return rates[0] + 2 * rates[1]  # 4 players: parity 25 %, 2 players 50 %


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=150)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--start", default="{}", help="JSON: weights to start from (over ai.TODAY)")
    ap.add_argument("--keys", default="", help="comma-separated: only these weights")
    ap.add_argument("--scales", default=SCALES, help="comma-separated: the factors each weight is tried at")
    args = ap.parse_args()
    best = {**ai.TODAY, **json.loads(args.start)}
    keys = args.keys.split(",") if args.keys else list(ai.TODAY)
    with multiprocessing.get_context("spawn").Pool(args.jobs) as pool:
        # today against itself wins exactly its share: each seed is played in every seat order
        rates = (0.5, 0.25) if best == ai.TODAY else score(pool, best, args.seeds)
        print(f"start {rates[0]:.3f} {rates[1]:.3f}", flush=True)
        for key in keys:
            for scale in map(float, args.scales.split(",")):
                trial = {**best, key: best[key] * scale if best[key] else scale * 10}
                r = score(pool, trial, args.seeds)
                print(f"{key}={trial[key]:g}: {r[0]:.3f} {r[1]:.3f}", flush=True)
                if merit(r) > merit(rates) + 0.02:
                    best, rates = trial, r
                    print(
                        f"  kept {json.dumps({k: v for k, v in best.items() if v != ai.TODAY[k]})}",
                        flush=True,
                    )
    print(json.dumps({k: v for k, v in best.items() if v != ai.TODAY[k]}))


if __name__ == "__main__":
    main()
