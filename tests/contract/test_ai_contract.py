"""The AI interface (bot.games.ai): every game's AI decides from a Situation (view and legal actions,
JSON-able for a worker process) at every level, and an iteration budget makes its choice repeatable."""

from __future__ import annotations

import json
import random

import pytest

from bot.games import registry
from bot.games.ai import BUDGETS, LEVELS, Budget, Situation
from tests.games.playouts import positions

KEYS = registry.keys()


def test_budgets_exist_for_every_level_and_grow():
    assert list(BUDGETS) == list(LEVELS)
    assert BUDGETS["easy"].seconds < BUDGETS["normal"].seconds < BUDGETS["hard"].seconds <= 1.0


def test_stopwatch_with_an_iteration_cap_ignores_the_clock():
    ticks = iter(range(100))
    watch = Budget(seconds=0.0, iterations=3).start(clock=lambda: float(next(ticks)))
    assert [watch.more(i) for i in range(5)] == [True, True, True, False, False]
    timed = Budget(seconds=2.0).start(clock=iter([0.0, 1.0, 3.0]).__next__)
    assert timed.more(0) and not timed.more(1)


@pytest.mark.parametrize("key", KEYS)
def test_situation_is_what_the_seat_sees_and_round_trips_through_json(key):
    for game, seat in positions(key, seed=3, steps=30):
        situation = game.situation(seat)
        assert situation.game_key == key and situation.seat == seat
        assert situation.view == game.view(seat) and situation.legal == game.legal_actions(seat)
        assert Situation.from_json(json.loads(json.dumps(situation.to_json()))) == situation


@pytest.mark.parametrize("key", KEYS)
@pytest.mark.parametrize("level", LEVELS)
def test_ai_action_is_legal_and_repeatable_at_every_level(key, level):
    budget = Budget(seconds=0.05, iterations=20)
    for game, seat in positions(key, seed=5, steps=12):
        first = game.ai_action(seat, random.Random(9), level, budget)
        assert first in game.legal_actions(seat) or game.is_legal(seat, first)
        assert game.ai_action(seat, random.Random(9), level, budget) == first


# the heuristic without the easy level's slips, by game, as each game's ai module names it
HEURISTICS = {
    "enemy-lines": lambda s, rng: __import__("bot.games.enemy_lines.ai", fromlist=["ai"]).choose_action(
        s.view, s.legal, s.seat, rng
    ),
    "warships": lambda s, rng: __import__("bot.games.warships.ai", fromlist=["ai"]).choose(
        s.view, s.legal, s.seat, s.options, rng
    ),
    "enemy-in-sight": lambda s, rng: __import__("bot.games.enemy_in_sight.ai", fromlist=["ai"]).choose(
        s.view, s.legal, rng
    ),
}


# phases where a timed-out seat gets what the rules name instead (Warships' set-up as it stands, Enemy in
# Sight's boarding with no card and its capture as a Prize, Advanced's Line & Reserve as arranged)
RULES_DEFAULTS = {"setup", "boarding", "capture", "arrange", "revise"}


@pytest.mark.parametrize("key", sorted(HEURISTICS))
def test_a_timed_out_turn_plays_the_heuristic_without_the_easy_levels_slips(key):
    """A player whose turn timer ran out gets the heuristic's own move, never the easy AI's deliberate
    slip; the easy level does slip on some of the same positions and seeds."""
    slips = 0
    quick = {"quick-setup": True} if key == "warships" else {}  # (past the set-up, where slips are)
    for game, seat in positions(key, seed=11, steps=40, options=quick):
        if len(game.legal_actions(seat)) < 2 or game.state.get("phase") in RULES_DEFAULTS:
            continue
        before = game.to_json()
        for k in range(8):
            played = game.timeout_action(seat, random.Random(k))
            assert played == HEURISTICS[key](game.situation(seat), random.Random(k))
            slips += game.ai_action(seat, random.Random(k), "easy") != played
        assert game.to_json() == before
    assert slips > 0  # the comparison can tell a slip apart
