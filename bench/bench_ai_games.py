"""bench_ai's matches one game a line: each game's outcome is printed as it ends (JSON), so that a run
stopped early (a shared, busy machine; a hard stop) still counts the games it finished, and a summary of
any such lines (several runs' together) gives the win rate, its 95 % Wilson interval and think times.

    nice python bench/bench_ai_games.py --game enemy-in-sight --players 2 --vs hard today --games 20 \\
        --cpu-clock --jobs 2 > run.jsonl
    python bench/bench_ai_games.py --summary run.jsonl [more.jsonl ...]
    python bench/bench_ai_games.py --players 6 --vs hard --think 60 --cpu-clock   # think times alone
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.bench_ai import _play_one, make_player, markdown_row, seat_orders, summary, think_lines  # noqa: E402


def run(args: argparse.Namespace) -> None:
    from bot.games import registry

    others = args.vs[1:]
    opponents = [others[i % len(others)] for i in range(args.players - 1)]
    options: dict = {}
    for item in args.option:
        name, _, value = item.partition("=")
        options[name] = {"true": True, "false": False}.get(value, int(value) if value.isdigit() else value)
    jobs = [
        (
            args.game,
            opponents[:own] + [args.vs[0]] + opponents[own:],
            own,
            options,
            seed,
            args.iterations,
            5000,
            args.cpu_clock,
        )
        for seed in range(args.seed, args.seed + args.games)
        # a cooperative crew whose seats all play the measured player: every seat order is one game
        for own in range(
            seat_orders(bool(registry.get(args.game).extra.get("cooperative")), args.vs[0], opponents)
        )
    ]
    with multiprocessing.get_context("spawn").Pool(args.jobs) as pool:
        for (own, result, times), job in zip(pool.imap(_play_one, jobs), jobs, strict=True):
            line = {
                "game": args.game,
                "players": args.players,
                "measured": args.vs[0],
                "opponents": opponents,
                "options": options,
                "seed": job[4],
                "seat": own,
                "result": result,
                "times": times,
            }
            print(json.dumps(line), flush=True)


def think_only(args: argparse.Namespace) -> None:
    """The measured level's think time alone: ``today`` plays every seat (cheap), and at each decision of
    seat 0 the level is asked too (its answer timed, not played), ``--think`` decisions in all."""
    import random
    import time

    from bot.games import registry
    from bot.games.ai import BUDGETS, Budget

    options = dict(item.partition("=")[::2] for item in args.option)
    today = make_player(args.game, "today", None)
    budget = Budget(BUDGETS[args.vs[0]].seconds, args.iterations, args.cpu_clock)
    clock = time.process_time if args.cpu_clock else time.perf_counter
    spent: list[float] = []
    seed = args.seed
    while len(spent) < args.think:
        game = registry.get(args.game).new(players=args.players, options=options, seed=seed)
        rng = random.Random(seed)
        while not game.is_over and len(spent) < args.think:
            seat = game.to_act()[0]
            if seat == 0:
                started = clock()
                game.ai_action(seat, random.Random(len(spent)), args.vs[0], budget)
                spent.append(clock() - started)
            game.apply(seat, today(game, seat, rng))
        seed += 1
    print("\n".join(think_lines({args.vs[0]: spent})))


def summarize(paths: list[str]) -> None:
    wins = 0.0
    played = stalls = 0
    think: dict[str, list[float]] = {}
    first = None
    for path in paths:
        for text in Path(path).read_text().splitlines():
            line = json.loads(text)
            first = first or line
            for name, spent in line["times"].items():
                think.setdefault(name, []).extend(spent)
            if line["result"] is None:
                stalls += 1
                continue
            played += 1
            winners = line["result"]["winners"]
            if line["seat"] in winners:
                wins += 1.0 / len(winners)
    if first is None:
        raise SystemExit("no games")
    s = summary(
        first["game"], first["players"], first["measured"], first["opponents"], wins, played, stalls, think
    )
    print(
        f"{s['measured']} vs {' '.join(s['opponents'])}: {played} games, {stalls} stalls, wins {s['rate']:.1%} "
        f"(95 % interval {s['low']:.1%}–{s['high']:.1%})"
    )
    for line in think_lines(think):
        print(line)
    print(markdown_row(s))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--summary", nargs="+", help="JSON-line files of earlier runs: their figures")
    ap.add_argument("--game", default="enemy-in-sight")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--vs", nargs="+", default=["hard", "today"])
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--iterations", type=int, default=None)
    ap.add_argument("--cpu-clock", action="store_true")
    ap.add_argument("--option", action="append", default=[])
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--think", type=int, default=0, help="only time this many decisions of the level")
    args = ap.parse_args()
    if args.summary:
        summarize(args.summary)
    elif args.think:
        think_only(args)
    else:
        run(args)


if __name__ == "__main__":
    main()
