"""How an Enemy in Sight hard decision spends its budget: the CPU it takes and the deals (samples of the
hidden cards) that the heuristic's own move and the most dealt other candidate get, over the same seeded
positions (seat 0's decisions in games today's heuristic plays), so that two versions compare.

    nice python bench/enemy_in_sight_deals.py --players 2 --decisions 20
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bot.games import registry  # noqa: E402
from bot.games.ai import BUDGETS, Budget  # noqa: E402
from bot.games.enemy_in_sight import ai, search  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--decisions", type=int, default=20)
    parser.add_argument("--level", default="hard")
    args = parser.parse_args()
    spec = registry.get("enemy-in-sight")
    dealt: list[tuple[int, int]] = []  # per searched decision: deals of the most and second most dealt
    real = search._best

    def counted(candidates: list[dict], results: list[list[float]]) -> dict:
        most = sorted((len(r) for r in results), reverse=True) + [0]
        dealt.append((most[0], most[1]))
        return real(candidates, results)

    search._best = counted  # type: ignore[assignment]
    budget = Budget(BUDGETS[args.level].seconds, None, cpu=True)
    spent: list[float] = []
    seed = 0
    while len(spent) < args.decisions:
        seed += 1
        game = spec.new(players=args.players, options={}, seed=seed)
        rng = random.Random(seed)
        step = 0
        while not game.is_over and len(spent) < args.decisions:
            seat = game.to_act()[0]
            situation = game.situation(seat)
            step += 1
            if seat == 0 and step % 7 == 0 and situation.view["phase"] not in ("boarding", "arrange"):
                started = time.process_time()
                game.ai_action(seat, random.Random(step), args.level, budget)
                spent.append(time.process_time() - started)
            game.apply(seat, ai.choose(situation.view, situation.legal, rng))
    searched = len(dealt) or 1
    print(
        f"{args.players} players, {args.level}: {len(spent)} decisions, {sum(spent) / len(spent):.3f} s of CPU "
        f"each on average; deals to the heuristic's move {sum(d[0] for d in dealt) / searched:.1f}, "
        f"to the most dealt other {sum(d[1] for d in dealt) / searched:.1f} ({len(dealt)} searched)"
    )


if __name__ == "__main__":
    main()
