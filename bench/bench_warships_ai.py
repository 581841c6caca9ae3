"""Warships AI (issue 22): seeded matches of one player against another in both seat orders, with how
each game ended and how the measured player used its mines.

    nice .venv/bin/python bench/bench_warships_ai.py --vs hard easy --games 30 --jobs 2 [--iterations N]

Players are those of bench/bench_ai.py (``random``, ``easy``, ``normal``, ``hard``, or a baseline of
``bot/games/warships/ai.py:BASELINES`` such as ``today``, the heuristic without the easy level's slips).
Prints the measured player's wins with the 95 % Wilson interval (draws count a half), a tally of the
endings (who won how: "landing" is a Landing ship that entered the enemy port), the share of its games
in which it laid a mine in play or had one set up on the board, and think time p50/p99 per player.
``--cpu-clock`` counts every budget and think time on the process's CPU clock (``Budget(cpu=True)``, as
bench_ai.py): the strength an AI has on a core of its own, measurable on a shared machine.

Long runs: ``--jsonl FILE`` writes each game as one JSON line as it ends (a run stopped early still
counts the games it finished), and ``--summary FILE [FILE ...]`` prints the figures of such lines
(several runs' together):

    nice -n 10 .venv/bin/python bench/bench_warships_ai.py --vs hard today --games 20 --seed 101 \
        --cpu-clock --jobs 2 --jsonl run.jsonl
    .venv/bin/python bench/bench_warships_ai.py --summary run.jsonl
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from multiprocessing import Pool
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bench.bench_ai import make_player, think_lines, wilson  # noqa: E402
from bot.games import registry  # noqa: E402

ENDINGS = (
    ("enters the enemy port", "landing"),
    ("Landing ship is destroyed", "landing ship destroyed"),
    ("Missile ship", "missile ships lost"),
    ("move limit", "move limit"),
    ("no legal move", "no legal move"),
)


def ending(reason: str) -> str:
    return next((label for key, label in ENDINGS if key in reason), reason[:40])


def play(job: tuple) -> dict:
    seed, seats, iterations, max_steps, cpu = job
    game = registry.get("warships").new(players=2, options={}, seed=seed)
    players = [make_player("warships", name, iterations, cpu) for name in seats]
    clock = time.process_time if cpu else time.perf_counter
    rng = random.Random(seed * 7919 + 1)
    laid = [0, 0]
    batteries = [0, 0]  # shore batteries each side took out
    set_up = [0, 0]
    times: dict[str, list[float]] = {}
    for _ in range(max_steps):
        if game.is_over:
            break
        seat = game.to_act()[0]
        if game.state["phase"] == "play" and game.state["ply"] == 0 and not any(set_up):
            for u in game.state["units"]:
                set_up[u["o"]] += u["t"] == "mine" and u["sq"] >= 0
        started = clock()
        action = players[seat](game, seat, rng)
        times.setdefault(seats[seat], []).append(clock() - started)
        laid[seat] += action["type"] == "lay_mine"
        batteries[seat] += action["type"] == "battery"
        game.apply(seat, action)
    result = game.result if game.is_over else None
    if result is not None:
        result = {k: v for k, v in result.items() if k != "reason_phrase"}
    return {
        "seed": seed,
        "seats": seats,
        "result": result,
        "ply": game.state["ply"],
        "laid": laid,
        "batteries": batteries,
        # whether each side had opened an enemy exit (both its batteries taken out) by the end
        "opened": [any(e["open"] for e in game.view(None)["batteries"] if e["seat"] != p) for p in (0, 1)],
        "set_up": set_up,
        "times": times,
    }


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--vs", nargs=2, default=["hard", "easy"], help="measured player, then its opponent")
    ap.add_argument("--games", type=int, default=10, help="seeds (each played in both seat orders)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--iterations", type=int, default=None)
    ap.add_argument(
        "--cpu-clock",
        action="store_true",
        help="budgets and think times on each process's CPU clock (as bench_ai.py --cpu-clock)",
    )
    ap.add_argument("--max-steps", type=int, default=3000)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--progress", action="store_true", help="a line per game as it ends")
    ap.add_argument(
        "--minutes", type=float, default=None, help="stop after this long; report the games played"
    )
    ap.add_argument("--jsonl", help="write each game as a JSON line to this file as it ends")
    ap.add_argument("--summary", nargs="+", help="JSON-line files of earlier runs: their figures")
    args = ap.parse_args(argv)
    if args.summary:
        games = [json.loads(t) for path in args.summary for t in Path(path).read_text().splitlines() if t]
        report(games, *games[0]["measured_vs"])
        return
    measured, other = args.vs
    jobs = [
        (
            seed,
            [measured, other] if own == 0 else [other, measured],
            args.iterations,
            args.max_steps,
            args.cpu_clock,
        )
        for seed in range(args.seed, args.seed + args.games)
        for own in (0, 1)
    ]
    games = []
    deadline = time.monotonic() + 60 * args.minutes if args.minutes else None
    out = open(args.jsonl, "a") if args.jsonl else None  # noqa: SIM115 - kept open for the whole run
    with Pool(args.jobs) as pool:
        for g in pool.imap_unordered(play, jobs):
            games.append(g)
            if out is not None:
                out.write(json.dumps({"measured_vs": [measured, other], **g}) + "\n")
                out.flush()
            if args.progress:
                winners = g["result"]["winners"] if g["result"] else []
                won = " and ".join(g["seats"][w] for w in winners) or "nobody"
                reason = g["result"]["reason"] if g["result"] else "stalled"
                print(
                    f"  game {len(games)}/{len(jobs)} {'-'.join(g['seats'])}: {won} wins; {reason}",
                    flush=True,
                )
            if deadline is not None and time.monotonic() > deadline:
                print(f"  time is up: {len(games)} of {len(jobs)} games played", flush=True)
                pool.terminate()
                break
    if out is not None:
        out.close()
    report(games, measured, other)


def report(games: list[dict], measured: str, other: str) -> None:
    wins = 0.0
    played = stalls = laid = set_up = 0
    tally: Counter = Counter()
    think: dict[str, list[float]] = {}
    for g in games:
        own = g["seats"].index(measured) if g["seats"][0] != g["seats"][1] else 0
        for name, spent in g["times"].items():
            think.setdefault(name, []).extend(spent)
        laid += g["laid"][own] > 0
        set_up += g["set_up"][own] > 0
        if g["result"] is None:
            stalls += 1
            continue
        played += 1
        winners = g["result"]["winners"]
        if own in winners:
            wins += 1.0 / len(winners)
        elif not winners:
            wins += 0.5  # a draw counts a half (as the docstring and bench_ai.py say)
        who = "draw" if len(winners) != 1 else (measured if winners == [own] else other)
        tally[
            f"{who} wins: {ending(g['result']['reason'])}"
            if who != "draw"
            else "draw: " + ending(g["result"]["reason"])
        ] += 1
    low, high = wilson(wins, played)
    rate = wins / played if played else float("nan")
    print(f"warships: {measured} vs {other}; {played} games, {stalls} stalls")
    print(f"  {measured} wins {rate:.1%} (95 % interval {low:.1%}–{high:.1%})")
    print("  endings: " + ", ".join(f"{k}: {v}" for k, v in tally.most_common()))
    n = len(games)
    print(
        f"  {measured} laid a mine in play in {laid} of {n} games ({laid / n:.0%}), set one up in {set_up} of {n}"
    )
    if all("opened" in g for g in games):
        own_of = [g["seats"].index(measured) for g in games]
        opened = sum(g["opened"][o] for g, o in zip(games, own_of, strict=True))
        against = sum(g["opened"][1 - o] for g, o in zip(games, own_of, strict=True))
        taken = sum(g["batteries"][o] for g, o in zip(games, own_of, strict=True))
        print(
            f"  {measured} opened an enemy exit in {opened} of {n} games ({taken} batteries taken out), "
            f"{other} in {against}"
        )
    per_game = [g["laid"][g["seats"].index(measured)] for g in games]
    plies = sorted(g.get("ply", 0) for g in games)
    print(
        f"  mines {measured} laid in play per game: mean {sum(per_game) / n:.1f}, "
        f"distribution {dict(sorted(Counter(per_game).items()))}; game length median {plies[n // 2]} moves"
    )
    for line in think_lines(think):
        print(line)


if __name__ == "__main__":
    main()
