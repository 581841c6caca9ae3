"""Enemy in Sight benchmark: the heuristic AI against random seats, and the length of games.

Prints
* the AI's win rate over 200 seeded 4-player games, 1 AI seat against 3 random seats (the AI seat
  rotates: seed % 4), with rounds per game;
* rounds per game over 200 seeded 4-player games with 4 AI seats (the tuning target of the decks:
  100 VP in roughly 3-8 rounds), turns per round and where the VP came from.

The same figures for the Advanced variant (secret Line & Reserve, stations) with `advanced`; it also
counts Line/Reserve transfers and Reserves that replaced an empty Line.

Run: .venv/bin/python bench/bench_enemy_in_sight.py [games] [base|advanced|both]
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.games import registry  # noqa: E402


def play(seed: int, ai_seats: set[int], players: int = 4, variant: str = "base"):
    spec = registry.get("enemy-in-sight")
    g = spec.new(players, {"variant": variant}, seed)
    rng = random.Random(seed * 7919 + 1)
    steps = 0
    kinds: Counter = Counter()
    while not g.is_over:
        seats = g.to_act()
        seat = seats[rng.randrange(len(seats))]
        if seat in ai_seats:
            action = g.ai_action(seat, rng)
        else:
            action = rng.choice(g.legal_actions(seat))
        for e in g.apply(seat, action):
            if "private_to" not in e:
                kinds[e["type"]] += 1
        steps += 1
    return g, steps, kinds


def summary(rounds: list[int]) -> str:
    return (
        f"mean {statistics.mean(rounds):.2f}, median {statistics.median(rounds)}, "
        f"min {min(rounds)}, max {max(rounds)}, "
        f"3-8 rounds: {sum(3 <= r <= 8 for r in rounds) / len(rounds):.0%}"
    )


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    which = sys.argv[2] if len(sys.argv) > 2 else "both"
    for variant in ("base", "advanced") if which == "both" else (which,):
        bench(games, variant)


def bench(games: int, variant: str) -> None:
    title = "Enemy in Sight" + (" (Advanced)" if variant == "advanced" else "")
    t0 = time.time()
    wins = 0.0
    rounds = []
    for seed in range(games):
        ai = seed % 4
        g, _, _ = play(seed, {ai}, variant=variant)
        winners = g.result["winners"]
        if ai in winners:
            wins += 1 / len(winners)
        rounds.append(g.state["round"])
    print(f"{title} — 1 AI vs 3 random seats, {games} seeded 4-player games:")
    print(f"  AI win rate {wins / games:.1%} (a random seat would win 25%)")
    print(f"  rounds per game: {summary(rounds)}")
    t1 = time.time()
    rounds, turns, sinks, prizes = [], [], 0, 0
    extra: Counter = Counter()
    for seed in range(games):
        g, _, kinds = play(seed, {0, 1, 2, 3}, variant=variant)
        rounds.append(g.state["round"])
        turns.append(g.state["turns"] / g.state["round"])
        sinks += kinds["sink"]
        prizes += kinds["prize_port"]
        for k in ("to_reserve", "from_reserve", "reserve_to_line", "revised_line"):
            extra[k] += kinds[k]
    print(f"{title} — 4 AI seats, {games} seeded 4-player games:")
    print(f"  rounds per game: {summary(rounds)}")
    print(
        f"  turns per round {statistics.mean(turns):.1f}, ships sunk per game {sinks / games:.1f}, "
        f"prizes brought to port per game {prizes / games:.1f}"
    )
    if variant == "advanced":
        print(
            f"  per game: Line->Reserve transfers {extra['to_reserve'] / games:.1f}, Reserve->Line "
            f"{extra['from_reserve'] / games:.1f}, Reserve replaced an empty Line "
            f"{extra['reserve_to_line'] / games:.1f}"
        )
    print(f"  time {t1 - t0:.1f}s + {time.time() - t1:.1f}s")


if __name__ == "__main__":
    main()
