"""Warships benchmark: AI vs a random player, AI vs AI colour balance, game lengths, move time.

    .venv/bin/python bench/bench_warships.py [--games 200] [--aiai 200] [--jobs 2] [--options k=v,...]

The random player picks uniformly among its legal actions; in the secret setup it submits the
random arrangement it was dealt (picking uniformly among ~900 setup steps would take
hundreds of steps before it happens to submit).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.games import registry  # noqa: E402

SPEC = registry.get("warships")


def play(args):
    seed, ai_seats, options = args
    g = SPEC.new(2, options, seed=seed)
    r = random.Random(seed)
    ai_time, ai_moves = 0.0, 0
    while not g.is_over:
        seat = g.to_act()[0]
        if seat in ai_seats:
            t0 = time.perf_counter()
            a = g.ai_action(seat, r)
            ai_time += time.perf_counter() - t0
            ai_moves += 1
        elif g.state["phase"] == "setup":
            a = {"type": "submit"}
        else:
            a = r.choice(g.legal_actions(seat))
        g.apply(seat, a)
    return {
        "seed": seed,
        "winners": g.result["winners"],
        "reason": g.result["reason"],
        "plies": g.state["ply"],
        "first": g.state["first"],
        "ai_time": ai_time,
        "ai_moves": ai_moves,
    }


def reason_key(text: str) -> str:
    for key in (
        "enters the enemy port",
        "Landing ship is destroyed",
        "Missile ship",
        "move limit",
        "no legal move",
    ):
        if key in text:
            return key
    return text[:40]


def summary(results, label):
    plies = [x["plies"] for x in results]
    t = sum(x["ai_time"] for x in results)
    n = sum(x["ai_moves"] for x in results) or 1
    print(
        f"  game length (moves): mean {statistics.mean(plies):.0f}, median {statistics.median(plies):.0f}, "
        f"min {min(plies)}, max {max(plies)}"
    )
    print(f"  AI move time: mean {1000 * t / n:.1f} ms over {n} AI moves")
    print(
        "  endings: "
        + ", ".join(f"{k}: {v}" for k, v in Counter(reason_key(x["reason"]) for x in results).most_common())
    )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--aiai", type=int, default=200)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--options", default="")
    a = ap.parse_args()
    options = {}
    for part in filter(None, a.options.split(",")):
        k, _, v = part.partition("=")
        options[k] = v or "yes"
    options = SPEC.normalize_options(options)
    t0 = time.time()
    with Pool(a.jobs) as pool:
        vs_random = pool.map(play, [(s, {s % 2}, options) for s in range(a.games)])
        aiai = pool.map(play, [(10_000 + s, {0, 1}, options) for s in range(a.aiai)])
    wins = sum(1 for x in vs_random if x["winners"] == [x["seed"] % 2])
    draws = sum(1 for x in vs_random if not x["winners"])
    print(f"Warships bench (options: {options})")
    print(f"AI vs random, {a.games} seeded games (AI alternates Blue/Red):")
    print(
        f"  AI wins {wins}/{a.games} = {100 * wins / max(1, a.games):.1f}%  (draws {draws}, "
        f"losses {a.games - wins - draws})"
    )
    summary(vs_random, "random")
    blue = sum(1 for x in aiai if x["winners"] == [0])
    red = sum(1 for x in aiai if x["winners"] == [1])
    first = sum(1 for x in aiai if x["winners"] == [x["first"]])
    n = max(1, a.aiai)
    print(f"AI vs AI, {a.aiai} seeded games:")
    print(
        f"  Blue wins {blue} ({100 * blue / n:.1f}%), Red wins {red} ({100 * red / n:.1f}%), "
        f"draws {a.aiai - blue - red}; the first player wins {first} ({100 * first / n:.1f}%)"
    )
    summary(aiai, "aiai")
    print(f"total bench time {time.time() - t0:.0f} s")


if __name__ == "__main__":
    main()
