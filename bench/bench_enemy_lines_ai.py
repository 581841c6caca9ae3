"""Enemy Lines AI targets (issue 22), counted as the issue counts them: a game that reaches the turn
limit is not won, whoever leads. Reuses ``bench_ai.play`` (seeded games, both seat orders).

    python bench/bench_enemy_lines_ai.py --vs hard greedy --games 50
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_ai import play, think_lines, wilson  # noqa: E402


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--vs", nargs=2, default=["hard", "greedy"], help="measured player, then its opponent")
    ap.add_argument("--games", type=int, default=10, help="seeds (each played in both seat orders)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--iterations", type=int, default=None)
    args = ap.parse_args(argv)
    measured, other = args.vs
    wins = limit = draws = losses = stalls = 0
    think: dict[str, list[float]] = {}
    for seed in range(args.seed, args.seed + args.games):
        for own in (0, 1):
            seats = [measured, other] if own == 0 else [other, measured]
            result, times = play("enemy-lines", seats, {}, seed, args.iterations, 5000)
            for name, spent in times.items():
                think.setdefault(name, []).extend(spent)
            if result is None:
                stalls += 1
            elif "turn limit" in result["reason"]:
                limit += 1
            elif result["winners"] == [own]:
                wins += 1
            elif len(result["winners"]) == 2:
                draws += 1
            else:
                losses += 1
            print(
                f"seed {seed} seat {own}: {result and result['reason']} {result and result['winners']}",
                flush=True,
            )
    played = wins + limit + draws + losses
    low, high = wilson(wins, played)
    print(f"enemy-lines: {measured} vs {other}; {played} games, {stalls} stalls")
    print(
        f"  {measured} wins {wins}/{played} = {wins / max(1, played):.1%} (95 % interval {low:.1%}–{high:.1%}); "
        f"{losses} lost, {draws} drawn, {limit} at the turn limit (not won)"
    )
    for line in think_lines(think):
        print(line)


if __name__ == "__main__":
    main()
