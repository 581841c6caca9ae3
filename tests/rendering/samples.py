"""Real views of every game for the renderer tests: start, mid-game and end, public and private.

``sample_views()`` plays seeded random legal actions through the registry, so the views are the ones
the bot would hand to ``rendering.render`` (never a full state).
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Iterator

from bot.games import registry

NAMES = ["Ann", "Bartholomew Fitzwilliam-Jones", "Cy", "Dominique-Alexandrine", "Ed", "Flo"]

# game key -> (player counts, option sets, mid-game action counts)
CASES: dict[str, tuple[tuple[int, ...], tuple[dict, ...], tuple[int, ...]]] = {
    "enemy-in-sight": ((2, 3, 4, 5, 6), ({}, {"variant": "advanced"}), (0, 60, 400)),
    "enemy-lines": ((2,), ({}, {"quick-setup": True}), (0, 12, 60)),
    "warships": ((2,), ({}, {"quick-setup": True}), (0, 2, 80)),
    "everrain": ((1, 2, 4), ({}, {"scenario": "archipelago"}), (0, 30, 120)),
}


def cold(key: str) -> None:
    """Empty the renderer's caches (layers, sprites) so that the next drawing draws everything again:
    its text too, for the tests that measure every piece of text drawn."""
    module = importlib.import_module(f"rendering.{key.replace('-', '_')}")
    for value in vars(module).values():
        if (
            callable(getattr(value, "cache_clear", None))
            and getattr(value, "__module__", "") == module.__name__
        ):
            value.cache_clear()


def _play(game, rng: random.Random, steps: int) -> None:
    for _ in range(steps):
        if game.is_over:
            return
        seats = game.to_act()
        if not seats:
            return
        seat = rng.choice(seats)
        actions = game.legal_actions(seat)
        if not actions:
            return
        game.apply(seat, rng.choice(actions))


def sample_views(keys=None, seed: int = 7) -> Iterator[tuple[str, str, dict, list[str]]]:
    """(game key, label, view, names) for every case; the label names the case for messages and files."""
    for key, (counts, option_sets, stops) in CASES.items():
        if keys and key not in keys:
            continue
        spec = registry.get(key)
        for n in counts:
            for options in option_sets:
                game = spec.new(players=n, options=dict(options), seed=seed)
                rng = random.Random(seed * 31 + n)
                done = 0
                opt = "-".join(f"{k}={v}" for k, v in options.items()) or "base"
                for stop in stops:
                    _play(game, rng, stop - done)
                    done = stop
                    label = f"{key}_{n}p_{opt}_{stop}"
                    names = NAMES[:n]
                    yield key, f"{label}_public", game.view(None), names
                    for seat in sorted({0, n - 1}):
                        yield key, f"{label}_seat{seat}", game.view(seat), names
