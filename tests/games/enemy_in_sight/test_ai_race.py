"""The hard and normal search of Enemy in Sight (issue 22, third round): its rollouts read
:meth:`policy_view` (the part of the view the heuristic reads, equal to it), and a lone candidate is
answered at once."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from bot.games.ai import Budget
from bot.games.base import IllegalAction
from bot.games.enemy_in_sight import ai, search
from tests.games.enemy_in_sight.helpers import SPEC
from tests.games.enemy_in_sight.test_ai import _walk


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hs.integers(2, 6), hs.sampled_from(["base", "advanced"]), hs.integers(0, 10_000), hs.integers(0, 300))
def test_policy_view_is_the_view_key_for_key_and_the_heuristic_ranks_the_same(players, variant, seed, steps):
    g = _walk(players, variant, seed, steps)
    for seat in range(players):
        view, lean = g.view(seat), g.policy_view(seat)
        assert {k: view[k] for k in lean if k != "fleets"} == {k: v for k, v in lean.items() if k != "fleets"}
        for full, part in zip(view["fleets"], lean["fleets"], strict=True):
            assert {k: full[k] for k in part} == part
        legal = g.legal_actions(seat)
        if legal:
            first, second = random.Random(seed), random.Random(seed)
            assert ai.rank(lean, legal, first) == ai.rank(view, legal, second)
            assert first.getstate() == second.getstate()


def _full_rollout(game, me: int, rng: random.Random, horizon: int) -> float:
    """The rollout as it was (the whole view at every step): the reference the search's must equal."""
    round_no = game.state["round"]
    for _ in range(horizon):
        if game.is_over or game.state["round"] != round_no:
            break
        seat = game.to_act()[0]
        action = ai.choose(game.view(seat), game.legal_actions(seat), rng)
        try:
            game._apply(seat, action)
        except IllegalAction:
            break
    return search.evaluate(game, me)


def test_rollout_on_the_policy_view_ends_as_the_full_view_rollout():
    checked = 0
    for players, variant, seed in ((2, "base", 3), (4, "base", 5), (3, "advanced", 7), (5, "advanced", 2)):
        g = _walk(players, variant, seed, 40 + 10 * seed)
        if g.is_over:
            continue
        for k in range(4):
            fast, full = g.copy(), g.copy()
            value = search._rollout(fast, 0, random.Random(k), 8 * players + 8)
            assert value == _full_rollout(full, 0, random.Random(k), 8 * players + 8)
            assert fast.state == full.state
            checked += 1
    assert checked >= 12


def test_a_lone_candidate_is_answered_without_a_rollout(monkeypatch):
    def no_rollout(*args):
        raise AssertionError("a rollout for a decision with one candidate")

    monkeypatch.setattr(search, "_rollout", no_rollout)
    g = SPEC.new(2, {}, 1)
    rng = random.Random(1)
    while not g.is_over:
        seat = g.to_act()[0]
        legal = g.legal_actions(seat)
        if len(legal) == 1 and g.state["phase"] == "turn":
            assert g.ai_action(seat, random.Random(0), "hard", Budget(30.0, 400)) == legal[0]
            return
        g.apply(seat, ai.choose(g.view(seat), legal, rng))
    raise AssertionError("no position with a single legal action in the seeded game")
