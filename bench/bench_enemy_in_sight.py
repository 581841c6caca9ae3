"""Enemy in Sight benchmark: the heuristic AI against random seats, and the length of games.

Prints
* the AI's win rate over 200 seeded 4-player games, 1 AI seat against 3 random seats (the AI seat
  rotates: seed % 4), with rounds per game;
* rounds per game over 200 seeded 4-player games with 4 AI seats (the tuning target of the decks:
  100 VP in roughly 3-8 rounds), turns per round and where the VP came from.

Run: .venv/bin/python bench/bench_enemy_in_sight.py [games]
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


def play(seed: int, ai_seats: set[int], players: int = 4):
    spec = registry.get("enemy-in-sight")
    g = spec.new(players, {}, seed)
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
    return (f"mean {statistics.mean(rounds):.2f}, median {statistics.median(rounds)}, "
            f"min {min(rounds)}, max {max(rounds)}, "
            f"3-8 rounds: {sum(3 <= r <= 8 for r in rounds) / len(rounds):.0%}")


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    t0 = time.time()
    wins = 0.0
    rounds = []
    for seed in range(games):
        ai = seed % 4
        g, _, _ = play(seed, {ai})
        winners = g.result["winners"]
        if ai in winners:
            wins += 1 / len(winners)
        rounds.append(g.state["round"])
    print(f"Enemy in Sight — 1 AI vs 3 random seats, {games} seeded 4-player games:")
    print(f"  AI win rate {wins / games:.1%} (a random seat would win 25%)")
    print(f"  rounds per game: {summary(rounds)}")
    t1 = time.time()
    rounds, turns, sinks, prizes = [], [], 0, 0
    for seed in range(games):
        g, _, kinds = play(seed, {0, 1, 2, 3})
        rounds.append(g.state["round"])
        turns.append(g.state["turns"] / g.state["round"])
        sinks += kinds["sink"]
        prizes += kinds["prize_port"]
    print(f"Enemy in Sight — 4 AI seats, {games} seeded 4-player games:")
    print(f"  rounds per game: {summary(rounds)}")
    print(f"  turns per round {statistics.mean(turns):.1f}, ships sunk per game {sinks / games:.1f}, "
          f"prizes brought to port per game {prizes / games:.1f}")
    print(f"  time {t1 - t0:.1f}s + {time.time() - t1:.1f}s")


if __name__ == "__main__":
    main()
