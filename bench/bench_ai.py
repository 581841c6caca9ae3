"""AI strength and think time (issue 22): seeded games between players, every seat order, with 95 %
Wilson intervals, and each AI's think time a move at the median and p99.

A player is ``random`` (a uniformly random legal action), an AI level (``easy``, ``normal``, ``hard``:
``Game.ai_action`` with that level's budget), or a game's own baseline named in its ``ai`` module's
``BASELINES`` (e.g. a one-move ``greedy`` player: ``{"greedy": choose(game_view, legal, seat, rng)}``).
The first player named is the one measured; the others fill the remaining seats. Each seed is played
once per seat the measured player can take, so no seat order favours it. A game that passes
``--max-steps`` is a stall, counted apart (and a failure of the AI).

    python bench/bench_ai.py --game enemy-lines --players 2 --vs hard greedy --games 100
    python bench/bench_ai.py --game enemy-in-sight --players 4 --vs hard easy easy easy --games 40
    python bench/bench_ai.py --game everrain --players 3 --vs hard hard hard --games 60 --option length=short

Cooperative games (The Everrain) count a win when the crew wins. ``--iterations N`` caps every search at N
iterations instead of its time (repeatable runs). Defaults are small so ``make bench`` stays short.
``--cpu-clock`` counts each budget (and the think times printed) on the process's CPU clock: the strength
of an AI on a core of its own, which a shared, busy machine can still measure.

``--jobs N`` plays the games in N processes at once (the results are the same as with one: each game is
seeded on its own; think times are measured per move, so on a machine that is busy they grow). ``--json``
adds one line ``{"game": …, "wins": …, "low": …, "high": …, "think": {name: {"p50_ms": …}}}`` for scripts;
``--markdown`` one table row for bench/RESULTS.md (its header with ``--markdown-header``).

    python bench/bench_ai.py --game warships --vs hard easy --games 100 --jobs 2 --json
"""

from __future__ import annotations

import argparse
import importlib
import json
import math
import multiprocessing
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bot.games import registry  # noqa: E402
from bot.games.ai import BUDGETS, LEVELS, Budget  # noqa: E402
from bot.games.base import Game  # noqa: E402

Player = Callable[[Game, int, random.Random], dict]


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a proportion ``wins / n`` (draws count a half)."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def baselines(key: str) -> dict[str, Callable]:
    """A game's ``BASELINES`` and, when the game's AI has moved on from today's, its frozen copy in
    ``bench/baselines/<game>_today.py`` as ``today``."""
    name = key.replace("-", "_")
    found = dict(getattr(importlib.import_module(f"bot.games.{name}.ai"), "BASELINES", {}))
    if (ROOT / "bench" / "baselines" / f"{name}_today.py").exists():
        found["today"] = importlib.import_module(f"bench.baselines.{name}_today").today
    return found


def make_player(key: str, name: str, iterations: int | None, cpu: bool = False) -> Player:
    if name == "random":
        return lambda game, seat, rng: rng.choice(game.legal_actions(seat))
    if name in LEVELS:
        budget = Budget(BUDGETS[name].seconds, iterations, cpu)
        return lambda game, seat, rng: game.ai_action(seat, rng, name, budget)
    found = baselines(key).get(name)
    if found is None:
        raise SystemExit(f"unknown player {name!r}: random, {', '.join(LEVELS)} or {sorted(baselines(key))}")
    return lambda game, seat, rng: found(game.view(seat), game.legal_actions(seat), seat, rng)


def play(
    key: str,
    seats: list[str],
    options: dict,
    seed: int,
    iterations: int | None,
    max_steps: int,
    cpu: bool = False,
):
    """One game; returns (result or None for a stall, think times by player name: CPU seconds when
    ``cpu``, else wall seconds)."""
    spec = registry.get(key)
    game = spec.new(players=len(seats), options=options, seed=seed)
    players = [make_player(key, name, iterations, cpu) for name in seats]
    clock = time.process_time if cpu else time.perf_counter
    rng = random.Random(seed * 7919 + 1)
    times: dict[str, list[float]] = {}
    for _ in range(max_steps):
        if game.is_over:
            return game.result, times
        seat = game.to_act()[0]
        started = clock()
        action = players[seat](game, seat, rng)
        times.setdefault(seats[seat], []).append(clock() - started)
        game.apply(seat, action)
    return (game.result if game.is_over else None), times


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def think_lines(think: dict[str, list[float]]) -> list[str]:
    """Each player's think time a move, median and p99, one line each (the benches' common report)."""
    return [
        f"  think {name}: median {statistics.median(spent) * 1000:.1f} ms, "
        f"p99 {pct(spent, 0.99) * 1000:.1f} ms over {len(spent)} moves"
        for name, spent in sorted(think.items())
        if spent
    ]


def _play_one(job: tuple) -> tuple[int, dict | None, dict[str, list[float]]]:
    """One game of a run (in this process or a worker of ``--jobs``): (the measured seat, result, times)."""
    key, seats, own_seat, options, seed, iterations, max_steps, cpu = job
    result, times = play(key, seats, options, seed, iterations, max_steps, cpu)
    return own_seat, result, times


def summary(
    key: str,
    players: int,
    measured: str,
    opponents: list[str],
    wins: float,
    played: int,
    stalls: int,
    think: dict[str, list[float]],
) -> dict:
    """A run's figures as plain data (``--json``, ``--markdown``)."""
    low, high = wilson(wins, played)
    return {
        "game": key,
        "players": players,
        "measured": measured,
        "opponents": opponents,
        "games": played,
        "stalls": stalls,
        "wins": wins,
        "rate": wins / played if played else None,
        "low": low,
        "high": high,
        "think": {
            name: {
                "moves": len(spent),
                "p50_ms": statistics.median(spent) * 1000,
                "p99_ms": pct(spent, 0.99) * 1000,
            }
            for name, spent in sorted(think.items())
            if spent
        },
    }


MARKDOWN_HEADER = (
    "| game | players | measured vs | games | stalls | wins | 95 % interval | think p50 / p99 ms (measured) |\n"
    "|---|---|---|---|---|---|---|---|"
)


def markdown_row(s: dict) -> str:
    mine = s["think"].get(s["measured"])
    think = f"{mine['p50_ms']:.1f} / {mine['p99_ms']:.1f}" if mine else "–"
    rate = "–" if s["rate"] is None else f"{s['rate']:.1%}"
    return (
        f"| {s['game']} | {s['players']} | {s['measured']} vs {' '.join(s['opponents'])} | {s['games']} | "
        f"{s['stalls']} | {rate} | {s['low']:.1%}–{s['high']:.1%} | {think} |"
    )


def seat_orders(cooperative: bool, measured: str, opponents: list[str]) -> int:
    """How many seat orders a seed is played in: every seat of the measured player, but once for a
    cooperative crew whose seats all play the same player (every seat order is then the same game)."""
    if cooperative and set(opponents) <= {measured}:
        return 1
    return len(opponents) + 1


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="enemy-lines")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument(
        "--vs", nargs="+", default=["easy", "random"], help="measured player first, then the others"
    )
    ap.add_argument("--games", type=int, default=10, help="seeds (each played in every seat order)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--iterations", type=int, default=None)
    ap.add_argument(
        "--cpu-clock",
        action="store_true",
        help="budgets and think times on each process's CPU clock: the strength an AI has on a core of its "
        "own, measurable on a shared machine",
    )
    ap.add_argument("--max-steps", type=int, default=5000)
    ap.add_argument("--option", action="append", default=[], help="name=value, a game option")
    ap.add_argument("--jobs", type=int, default=1, help="processes playing games at once")
    ap.add_argument("--json", action="store_true", help="also print the figures as one JSON line")
    ap.add_argument("--markdown", action="store_true", help="also print them as a Markdown table row")
    ap.add_argument("--markdown-header", action="store_true", help="print the Markdown table's header first")
    args = ap.parse_args(argv)
    others = args.vs[1:] or ["random"]
    opponents = [others[i % len(others)] for i in range(args.players - 1)]
    options: dict = {}
    for item in args.option:
        name, _, value = item.partition("=")
        options[name] = {"true": True, "false": False}.get(value, int(value) if value.isdigit() else value)
    measured = args.vs[0]
    cooperative = bool(registry.get(args.game).extra.get("cooperative"))
    wins = 0.0
    played = stalls = 0
    think: dict[str, list[float]] = {}
    jobs = [
        # every seat order: the measured player in each seat
        (
            args.game,
            opponents[:own] + [measured] + opponents[own:],
            own,
            options,
            seed,
            args.iterations,
            args.max_steps,
            args.cpu_clock,
        )
        for seed in range(args.seed, args.seed + args.games)
        for own in range(seat_orders(cooperative, measured, opponents))
    ]
    if args.jobs > 1:
        with multiprocessing.get_context("spawn").Pool(args.jobs) as pool:
            outcomes = pool.map(_play_one, jobs, chunksize=1)
    else:
        outcomes = [_play_one(job) for job in jobs]
    for own_seat, result, times in outcomes:
        for name, spent in times.items():
            think.setdefault(name, []).extend(spent)
        if result is None:
            stalls += 1
            continue
        played += 1
        winners = result.get("winners", [])
        if own_seat in winners:
            wins += 1.0 if cooperative else 1.0 / len(winners)  # a shared win is a draw
    low, high = wilson(wins, played)
    rate = wins / played if played else float("nan")
    print(
        f"{args.game}, {args.players} players: {measured} vs {' '.join(opponents)}; {played} games, {stalls} stalls"
    )
    print(f"  {measured} wins {rate:.1%} (95 % interval {low:.1%}–{high:.1%})")
    for line in think_lines(think):
        print(line)
    figures = summary(args.game, args.players, measured, opponents, wins, played, stalls, think)
    if args.json:
        print(json.dumps(figures, ensure_ascii=False))
    if args.markdown_header:
        print(MARKDOWN_HEADER)
    if args.markdown:
        print(markdown_row(figures))


if __name__ == "__main__":
    main()
