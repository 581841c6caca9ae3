"""All-AI games of The Everrain: win rate and game length per scenario, length and player count.

Usage: .venv/bin/python bench/bench_everrain.py [games per cell, default 20]
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.games import registry  # noqa: E402
from bot.games.everrain.board import scenario_ids  # noqa: E402


def play(players: int, options: dict, seed: int, cap: int = 20000) -> tuple[dict, int, int]:
    game = registry.get("everrain").new(players=players, options=options, seed=seed)
    rng = random.Random(seed)
    actions = 0
    while not game.is_over:
        seat = game.to_act()[0]
        game.apply(seat, game.ai_action(seat, rng))
        actions += 1
        if actions > cap:
            raise RuntimeError(f"game did not end: {options} players={players} seed={seed}")
    return game.result, game.result["rounds"], actions


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    t0 = time.time()
    print(f"{'scenario':<12} {'length':<7} {'pl':>2} {'win%':>5} {'rounds(mean/min/max)':>21} {'actions':>8}")
    for sid in scenario_ids():
        for length in ("short", "medium", "long"):
            for players in (1, 2, 3, 4):
                wins, rounds, acts = 0, [], []
                for seed in range(n):
                    res, r, a = play(players, {"length": length, "scenario": sid}, seed)
                    wins += bool(res["winners"])
                    rounds.append(r)
                    acts.append(a)
                print(
                    f"{sid:<12} {length:<7} {players:>2} {100 * wins / n:>5.0f} "
                    f"{statistics.mean(rounds):>9.1f} /{min(rounds):>3} /{max(rounds):>3}    "
                    f"{statistics.mean(acts):>8.0f}"
                )
    print(f"{n} games per line, {time.time() - t0:.1f} s")


if __name__ == "__main__":
    main()
