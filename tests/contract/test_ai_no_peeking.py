"""No AI peeks (issue 22), for every game and every level: the move an AI seat makes depends on what
that seat knows (its Situation: view and legal actions) and the generator it is given, never on the
hidden state. Checked at positions of seeded playouts, with an iteration cap (so that a search is
repeatable), three ways: the Situation sent through JSON (what a worker process gets) gives the same
move; the game's future randomness changed (its generator reseeded: the deck's next card, the next
dice) gives the same move; and, for a game that can deal one, a whole hidden state resampled from the
seat's view (``Game.resample``) gives the same move, the sample showing the seat exactly its view."""

from __future__ import annotations

import json
import random

import pytest

from bot.games import registry
from bot.games.ai import LEVELS, Budget, Situation
from tests.games.playouts import positions

KEYS = registry.keys()
CAP = Budget(seconds=1.0, iterations=8)  # small: the whole suite stays quick


def resampled(game, seat: int, seed: int):
    """A state dealt from ``seat``'s view, or None where the game has no resample yet."""
    try:
        return type(game).resample(game.view(seat), seat, random.Random(seed))
    except NotImplementedError:
        return None


@pytest.mark.parametrize("key", KEYS)
@pytest.mark.parametrize("level", LEVELS)
def test_no_ai_peeks_at_the_hidden_state(key, level):
    spec = registry.get(key)
    checked = resamples = 0
    for seed, players in ((1, spec.min_players), (2, min(spec.max_players, spec.min_players + 1))):
        for n, (game, seat) in enumerate(positions(key, seed, 24, players=players)):
            if n % 3:  # every third position: enough of each phase, and quick
                continue
            move = game.ai_action(seat, random.Random(n), level, CAP)
            situation = game.situation(seat)
            sent = Situation.from_json(json.loads(json.dumps(situation.to_json())))
            cls = type(game)
            assert cls.think(sent, level, CAP, random.Random(n)) == move, (
                "the move read more than its Situation"
            )
            reseeded = spec.from_json(game.to_json())
            reseeded.rng.seed(seed * 1000 + n + 1)  # hidden: every draw and roll to come
            assert reseeded.view(seat) == game.view(seat)
            assert reseeded.ai_action(seat, random.Random(n), level, CAP) == move, "the move read the future"
            other = resampled(game, seat, seed * 1000 + n)
            if other is not None:
                assert other.view(seat) == game.view(seat), "a resampled state shows the seat another view"
                assert other.ai_action(seat, random.Random(n), level, CAP) == move, (
                    "the move read hidden state"
                )
                resamples += 1
            checked += 1
    assert checked >= 4, f"only {checked} positions checked"
    # (a game with no resample yet is checked the first two ways; each game's own tests cover its resample)
    assert resamples in (0, checked)
