"""Clicks per move through the real menus (bot/menus.py), for every game.

    .venv/bin/python bench/bench_clicks.py [--seeds 5] [--moves 400]

Each game is played by its AI on every seat, for several seeds. For every move the AI makes, we
count the clicks a person would need to make the same move through the menu tree the bot shows:
one per level with a real choice from the root to the entry (levels of a single group are skipped,
as the bot skips them), plus the page turns of long selects. A menu entry may play several engine
actions at once (an Enemy in Sight card and its target): it is one move, counted once. An entry with an
open choice (the ships of a Break the Line) takes one more click: its multi-select (or its "none").
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot import menus  # noqa: E402
from bot.games import canonical, registry  # noqa: E402
from bot.games.base import fits  # noqa: E402

# (name, game key, options, players)
GAMES = [
    ("Enemy in Sight (base)", "enemy-in-sight", {"variant": "base"}, 4),
    ("Enemy in Sight (advanced)", "enemy-in-sight", {"variant": "advanced"}, 4),
    ("Enemy Lines", "enemy-lines", {}, 2),
    ("Warships", "warships", {}, 2),
    ("The Everrain", "everrain", {}, 2),
]


def move_clicks(game, seat: int, rng: random.Random) -> int:
    """Play the AI's next move for ``seat`` and return the clicks it takes through the menus."""
    root = menus.build_tree(game, seat)
    action = game.ai_action(seat, rng)
    key = canonical(action)
    found = [
        (p, node)
        for p, node, _ in menus.leaves(root)
        if canonical(node.action) == key
        or (menus.choice_of(node) is not None and not node.then and fits(node.action or {}, action))
    ]
    if not found:
        raise AssertionError(f"{game.key}: the AI's move {action} is not on the menu")
    game.apply(seat, action)
    prefix, node = found[0]
    if len(found) > 1 or node.then:
        # A chained entry (a card and its target): the AI picks the follow-up as its next action.
        if not game.is_over and seat in game.to_act():
            follow = game.ai_action(seat, rng)
            match = [(p, n) for p, n in found if n.then and canonical(n.then[0]) == canonical(follow)]
            if match:
                prefix = match[0][0]
                game.apply(seat, follow)
    return menus.clicks(root, prefix) + (1 if menus.choice_of(node) is not None else 0)


def measure(key: str, options: dict, players: int, seeds, max_moves: int = 400) -> list[int]:
    """Clicks of every move of AI-played games of ``key``, one game per seed."""
    spec = registry.get(key)
    out: list[int] = []
    for seed in seeds:
        game = spec.new(players, options, seed=seed)
        rng = random.Random(seed)
        for _ in range(max_moves):
            if game.is_over:
                break
            seat = game.to_act()[0]
            out.append(move_clicks(game, seat, rng))
    return out


def summary(clicks: list[int]) -> dict:
    ordered = sorted(clicks)
    return {
        "moves": len(ordered),
        "median": statistics.median(ordered),
        "mean": statistics.fmean(ordered),
        "p90": ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))],
        "max": ordered[-1],
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--moves", type=int, default=400, help="moves per game at most")
    args = parser.parse_args()
    print(f"{'game':28} {'moves':>6} {'median':>7} {'mean':>6} {'p90':>4} {'max':>4}")
    for name, key, options, players in GAMES:
        s = summary(measure(key, options, players, range(args.seeds), args.moves))
        print(f"{name:28} {s['moves']:6} {s['median']:7} {s['mean']:6.2f} {s['p90']:4} {s['max']:4}")


if __name__ == "__main__":
    main()
