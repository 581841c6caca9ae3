"""Enemy Lines benchmark: render time and PNG size of a mid-game board, AI move time and
its win rate against a uniformly random player over 200 seeded games.

Run: python bench/bench_enemy_lines.py [--games N]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bot.games import registry  # noqa: E402
from rendering import render  # noqa: E402


def mid_game(spec, seed: int = 3, moves: int = 30):
    game = spec.new(2, {"quick-setup": True}, seed=seed)
    rng = random.Random(seed)
    while not game.is_over and game.state["moves"] < moves:
        seat = game.to_act()[0]
        game.apply(seat, game.ai_action(seat, rng))
    return game


def bench_render(spec, reps: int = 20) -> None:
    game = mid_game(spec)
    view = game.view(None)
    render("enemy-lines", view, ["Alice", "Bob"])  # warm up (fonts)
    times = []
    for _ in range(reps):
        t = time.perf_counter()
        data = render("enemy-lines", view, ["Alice", "Bob"])
        times.append(time.perf_counter() - t)
    print(
        f"render: mean {statistics.mean(times) * 1000:.1f} ms, max {max(times) * 1000:.1f} ms, "
        f"PNG {len(data) / 1024:.1f} KB (mid-game, move {view['move_number']})"
    )


def bench_ai(spec, games: int) -> None:
    wins = draws = 0
    move_times: list[float] = []
    lengths = []
    for seed in range(games):
        ai_seat = seed % 2  # alternate colours; the starting player is drawn from the seed
        game = spec.new(2, {}, seed=seed)
        rai, rrand = random.Random(10_000 + seed), random.Random(20_000 + seed)
        while not game.is_over:
            seat = game.to_act()[0]
            if seat == ai_seat:
                t = time.perf_counter()
                action = game.ai_action(seat, rai)
                move_times.append(time.perf_counter() - t)
            else:
                action = rrand.choice(game.legal_actions(seat))
            game.apply(seat, action)
        winners = game.result["winners"]
        wins += winners == [ai_seat]
        draws += len(winners) == 2
        lengths.append(game.state["moves"])
    print(
        f"AI vs random: won {wins}/{games} ({100 * wins / games:.1f}%), draws {draws}, "
        f"losses {games - wins - draws}; mean game length {statistics.mean(lengths):.1f} turns"
    )
    print(
        f"AI move time: mean {statistics.mean(move_times) * 1000:.2f} ms, "
        f"max {max(move_times) * 1000:.2f} ms over {len(move_times)} moves"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200)
    args = parser.parse_args()
    spec = registry.get("enemy-lines")
    bench_render(spec)
    bench_ai(spec, args.games)


if __name__ == "__main__":
    main()
