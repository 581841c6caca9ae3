"""The hard and normal search of Enemy in Sight spends its budget where the choice is open (issue 22,
third round): its rollouts read :meth:`policy_view` (the part of the view the heuristic reads, equal to
it), candidates that cannot overrule the heuristic's choice drop out of the race, the search stops once
its choice is settled, and a lone candidate is answered at once."""

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


HEURISTIC = {"type": "play", "card": "C1", "ship": "S1"}
OTHER = {"type": "discard", "card": "C2"}
SHIFT = {"type": "transfer", "ship": "S2", "station": 1}


def test_a_candidate_far_behind_the_heuristics_choice_drops_out_of_the_race():
    base = [0.0, 1.0, 2.0, 0.5] * 2
    behind = [x - 5 for x in base]
    close = [x + 0.5 + (0.3 if j % 2 else -0.3) for j, x in enumerate(base)]
    results = [base, behind, close]
    candidates = [HEURISTIC, OTHER, dict(OTHER, card="C3")]
    assert search._trails(candidates, results, 1)
    assert not search._trails(candidates, results, 2)  # a contender: it goes on being dealt
    assert not search._trails(candidates, results, 0)  # the heuristic's own choice is never dropped
    # a shift needs a wide margin: even level with the heuristic's choice it cannot overrule it
    assert search._trails([HEURISTIC, SHIFT], [base, [x + 0.01 for x in base]], 1)


def test_search_stops_when_its_choice_is_settled_and_not_while_it_is_open():
    base = [0.0, 1.0, 2.0, 0.5] * 3
    assert search._settled([HEURISTIC, OTHER], [base, [x - 4 for x in base]])
    # far ahead of the heuristic's choice: settled for the other candidate
    ahead = [x + 6 + (0.2 if j % 2 else -0.2) for j, x in enumerate(base)]
    assert search._best([HEURISTIC, OTHER], [base, ahead]) == OTHER
    assert search._settled([HEURISTIC, OTHER], [base, ahead])
    # two contenders a hair apart: open
    near = [x + 1 + (0.8 if j % 2 else -0.8) for j, x in enumerate(base)]
    assert not search._settled([HEURISTIC, OTHER, dict(OTHER, card="C3")], [base, ahead, [*ahead[:-1], 0.0]])
    assert not search._settled([HEURISTIC, OTHER], [base, near])


def _count_rollouts(monkeypatch) -> list[int]:
    calls: list[int] = []
    real = search._rollout

    def counted(game, me, rng, horizon):
        calls.append(1)
        return real(game, me, rng, horizon)

    monkeypatch.setattr(search, "_rollout", counted)
    return calls


def test_search_stops_before_its_iteration_cap_once_the_choice_is_settled(monkeypatch):
    """A cap above what a second allows on a quiet core (~15 deals): decisions whose choice is settled
    stop well before it (the others use it all), with the same move every time for the same generator."""
    calls = _count_rollouts(monkeypatch)
    cap = 150  # 25 deals of 6 candidates
    used = []
    g, rng = SPEC.new(2, {}, 1), random.Random(1)
    for seat in (g.to_act()[0] for _ in range(30)):  # today's heuristic for both seats
        g.apply(seat, g.steady(g.situation(seat), rng))
    while not g.is_over and len(used) < 6:
        seat = g.to_act()[0]
        if g.state["phase"] == "turn" and len(g.legal_actions(seat)) > 3:
            calls.clear()
            move = g.ai_action(seat, random.Random(len(used)), "hard", Budget(30.0, cap))
            used.append(len(calls))
            if len(used) == 1:
                assert g.ai_action(seat, random.Random(0), "hard", Budget(30.0, cap)) == move
        g.apply(seat, ai.choose(g.view(seat), g.legal_actions(seat), random.Random(0)))
    assert len(used) == 6
    assert any(n < cap // 2 for n in used), used


def test_search_deals_on_to_the_contenders_only(monkeypatch):
    """Candidates that drop out get fewer deals than the heuristic's own choice, which meets every deal."""
    dealt: dict[str, int] = {}
    real_apply = type(_walk(2, "base", 1, 0)).apply
    g = _walk(2, "base", 4, 60)
    while g.state["phase"] != "turn" or len(g.legal_actions(g.to_act()[0])) < 6:
        seat = g.to_act()[0]
        g.apply(seat, ai.choose(g.view(seat), g.legal_actions(seat), random.Random(0)))
    seat = g.to_act()[0]

    def counted(game, s, action):
        dealt[repr(action)] = dealt.get(repr(action), 0) + 1
        return real_apply(game, s, action)

    monkeypatch.setattr(type(g), "apply", counted)
    search.think(type(g), g.situation(seat), "hard", Budget(30.0, 120), random.Random(0))
    counts = list(dealt.values())
    heuristic_deals = max(counts)
    assert len(counts) >= 3
    assert min(counts) < heuristic_deals  # some candidate left the race


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
