"""The Everrain AI at levels normal and hard (issue 22): resample keeps what the crews see and varies
what they cannot, the planner compares orders by rollouts scored on the race of the two tracks, it never
peeks at the deck or the dice, and all-AI crews finish their games at every level."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.games import canonical, registry
from bot.games.ai import LEVELS, Budget
from bot.games.everrain import planner
from bot.games.everrain.game import EverrainGame
from tests.games.playouts import positions

CAP = Budget(seconds=1.0, iterations=6)
EVERY_ORDER = frozenset({"nav", "fire", "explore", "crew", "end_turn", "omen", "activate"})


@pytest.fixture
def overriding(monkeypatch):
    """The planner allowed to put any order in place of the crewmate's choice (its machinery under test;
    the game ships with no order type shown to help: planner.OVERRIDES)."""
    monkeypatch.setattr(planner, "OVERRIDES", EVERY_ORDER)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(1, 4), length=st.sampled_from(["short", "long"]))
def test_resample_gives_back_the_view_at_every_position_of_a_playout(seed, players, length):
    for game, seat in positions("everrain", seed, 200, players=players, options={"length": length}):
        view = game.view(seat)
        sample = EverrainGame.resample(view, seat, random.Random(seed))
        assert sample.view(seat) == view
        assert sorted(sample.state["deck"]) == sorted(game.state["deck"])  # the same unseen cards


def test_resample_varies_the_deck_order_and_the_dice_the_crews_cannot_know():
    game = registry.get("everrain").new(2, {"length": "short"}, seed=4)
    view = game.view(0)
    rng = random.Random(1)
    samples = [EverrainGame.resample(view, 0, rng) for _ in range(12)]
    assert len({tuple(s.state["deck"]) for s in samples}) > 1
    assert len({s.rng.random() for s in samples}) > 1


def test_race_counts_discovery_up_and_enemy_discovery_down():
    game = registry.get("everrain").new(2, {"length": "short"}, seed=2)
    base = planner.race(game)
    game.state["discovery"] += 2
    assert planner.race(game) > base
    game.state["discovery"] -= 2
    game.state["agenda"] += 3
    assert planner.race(game) < base
    game.state["enemy_discovery"] = game.enemy_discovery_end() - 1
    assert planner.race(game) < base


def test_race_scores_a_won_game_above_and_a_lost_one_below_any_other():
    game = registry.get("everrain").new(2, {"length": "short"}, seed=2)
    game.state["result"] = {"winners": [0, 1]}
    assert planner.race(game) == planner.WIN
    game.state["result"] = {"winners": []}
    assert planner.race(game) == planner.LOSS


def test_candidates_start_with_the_race_aware_crewmates_choice_and_skip_crewing_blank_nodes():
    from bot.games.everrain import ai

    game = registry.get("everrain").new(2, {"length": "short"}, seed=3)
    seat = game.to_act()[0]
    view, legal = game.view(seat), game.legal_actions(seat)
    options = planner.candidates(view, legal, random.Random(0))
    assert options[0] == ai.crewmate(view, legal, random.Random(0))
    assert 1 < len(options) <= planner.MAX_CANDIDATES
    assert all(a in legal for a in options)
    board = view["board"]
    assert not any(a["type"] == "crew" and board[a["to"]]["kind"] == "blank" for a in options)


@pytest.mark.parametrize("level", LEVELS)
def test_planner_never_peeks_at_the_deck_or_the_dice(level):
    """The hidden information changed (the deck reshuffled, the dice generator reseeded): the same
    order, with the same rng and an iteration cap, at every level."""
    checked = 0
    for game, seat in positions("everrain", 8, 60, players=2):
        if len(game.legal_actions(seat)) < 2:
            continue
        first = game.ai_action(seat, random.Random(5), level, CAP)
        game.state["deck"].reverse()
        game.rng.seed(12345)
        assert game.ai_action(seat, random.Random(5), level, CAP) == first
        checked += 1
        if checked >= 6:
            break
    assert checked >= 3


def test_planner_is_repeatable_with_an_iteration_cap():
    game = registry.get("everrain").new(3, {"length": "short"}, seed=6)
    seat = game.to_act()[0]
    picks = {canonical(game.ai_action(seat, random.Random(2), "normal", CAP)) for _ in range(3)}
    assert len(picks) == 1


def test_all_ai_crews_finish_their_games_at_every_level_with_small_caps():
    for seed, level in enumerate(("easy", "normal", "hard")):
        game = registry.get("everrain").new(2, {"length": "short"}, seed=seed)
        rng = random.Random(seed)
        for _ in range(3000):
            if game.is_over:
                break
            seat = game.to_act()[0]
            game.apply(seat, game.ai_action(seat, rng, level, Budget(1.0, iterations=2)))
        assert game.is_over


def test_race_crewmate_carries_its_clues_to_a_port_in_time():
    """With clues aboard far from a port and the Enemy Discovery track about to end, the race-aware
    crewmate heads for a port; with many rounds left it does not have to."""
    from bot.games.everrain import ai

    game = registry.get("everrain").new(2, {"length": "long"}, seed=1)
    view = game.view(0)
    me = dict(view["my_ship"], clues=1)
    far = max(game.map.terrain, key=lambda h: min(ai.distance(h, p) for p in game.map.ports))
    me["q"], me["r"] = far
    assert not ai.race_to_port(view, me)  # a long game just begun: many rounds left
    view["tracks"] = dict(view["tracks"], enemy_discovery=view["tracks"]["enemy_discovery_end"] - 1, agenda=8)
    assert ai.rounds_left(view) < 1
    assert ai.race_to_port(view, me)
    assert not ai.race_to_port(view, dict(me, clues=0))


def test_planner_keeps_the_crewmates_choice_when_no_order_beats_it_by_the_margin(overriding, monkeypatch):
    monkeypatch.setattr(planner, "race", lambda game: 0.0)  # every rollout scores the same
    game = registry.get("everrain").new(2, {"length": "short"}, seed=3)
    seat = game.to_act()[0]
    situation = game.situation(seat)
    options = planner.candidates(situation.view, situation.legal, random.Random(4))
    assert planner.plan(situation, CAP, random.Random(4), EverrainGame.resample) == options[0]


def test_planner_takes_another_order_only_when_its_gain_is_clear_over_the_samples():
    """A gain above the margin on average but spread wide over the samples decides nothing; the same
    gain in every sample, or a large one with a small spread, is taken; fewer than MIN_SAMPLES samples
    are never enough."""
    n = planner.MIN_SAMPLES
    assert planner.clear_gain(total=n * 0.5, squares=n * 0.25, n=n)  # +0.5 every time
    noisy = ([3.0, -2.5, 2.0, -2.0, 0.5, 1.5, -1.0, 0.1] * n)[:n]  # mean about +0.2, spread about 2
    assert sum(noisy) / n > planner.MARGIN
    assert not planner.clear_gain(sum(noisy), sum(g * g for g in noisy), len(noisy))
    steady = ([0.4, 0.6, 0.5, 0.7, 0.3] * n)[:n]
    assert planner.clear_gain(sum(steady), sum(g * g for g in steady), len(steady))
    assert not planner.clear_gain(total=(n - 1) * 0.5, squares=(n - 1) * 0.25, n=n - 1)  # too few samples
    assert not planner.clear_gain(total=n * 0.05, squares=n * 0.0025, n=n)  # below the margin


def test_planner_keeps_the_crewmates_choice_when_the_rollouts_disagree(overriding, monkeypatch):
    """Rollouts that score the same order far apart from sample to sample (pure luck) never overturn
    the crewmate's choice."""
    luck = random.Random(9)
    monkeypatch.setattr(planner, "race", lambda game: luck.choice([-5.0, 5.0]))
    game = registry.get("everrain").new(2, {"length": "short"}, seed=3)
    seat = game.to_act()[0]
    situation = game.situation(seat)
    options = planner.candidates(situation.view, situation.legal, random.Random(4))
    picks = {
        canonical(
            planner.plan(
                situation,
                Budget(1.0, iterations=planner.MIN_SAMPLES * len(options)),
                random.Random(s),
                EverrainGame.resample,
            )
        )
        for s in range(3)
    }
    assert picks == {canonical(options[0])}


def test_race_counts_clues_held_in_a_port_below_clues_next_to_one():
    """Clues count on entering a port: clues held in a port are worth less than the same clues one
    hex out (the ship must still leave and come back in)."""
    game = registry.get("everrain").new(1, {"length": "short"}, seed=1)
    s = game.ship(0)
    s["clues"] = 2
    assert game.in_port(s)
    in_port = planner.race(game)
    port = (s["q"], s["r"])
    s["q"], s["r"] = next(
        h for h in game.map.terrain if game.map.sea(h) and h != port and planner.distance(h, port) == 1
    )
    assert planner.race(game) > in_port


def test_planner_takes_an_order_that_is_clearly_better_over_enough_samples(overriding, monkeypatch):
    """An order whose rollouts score higher in every sample replaces the crewmate's choice once
    MIN_SAMPLES samples agree, not before."""
    game = registry.get("everrain").new(2, {"length": "short"}, seed=3)
    seat = game.to_act()[0]
    situation = game.situation(seat)
    options = planner.candidates(situation.view, situation.legal, random.Random(4))
    assert options[0] != {"type": "end_turn"} and {"type": "end_turn"} in options
    monkeypatch.setattr(
        planner,
        "rollout",
        lambda g, horizon, rng, watch=None: float((g.state["last"] or {}).get("type") == "end_turn"),
    )

    def pick(samples: int) -> dict:
        cap = Budget(1.0, iterations=samples * len(options))
        return planner.plan(situation, cap, random.Random(4), EverrainGame.resample)

    assert pick(planner.MIN_SAMPLES) == {"type": "end_turn"}
    assert pick(planner.MIN_SAMPLES - 1) == options[0]


@pytest.mark.parametrize("better", [True, False])
def test_planner_stops_early_once_its_choice_is_clear(overriding, monkeypatch, better):
    """After MIN_SAMPLES samples the planner stops when one order is clearly ahead (taken) or when no
    order is within reach of a clear gain (the crewmate's choice): the rest of the budget is not spent."""
    game = registry.get("everrain").new(2, {"length": "short"}, seed=3)
    seat = game.to_act()[0]
    situation = game.situation(seat)
    options = planner.candidates(situation.view, situation.legal, random.Random(4))
    played = []

    def rollout(g, horizon, rng, watch=None):
        played.append(1)
        return float(better and (g.state["last"] or {}).get("type") == "end_turn")

    monkeypatch.setattr(planner, "rollout", rollout)
    cap = Budget(1.0, iterations=5 * planner.MIN_SAMPLES * len(options))
    choice = planner.plan(situation, cap, random.Random(4), EverrainGame.resample)
    assert choice == ({"type": "end_turn"} if better else options[0])
    assert len(played) == planner.MIN_SAMPLES * len(options)
    assert not planner.settled([0.0] * len(options), [0.0] * len(options), planner.MIN_SAMPLES - 1)


def test_a_crews_normal_and_hard_play_the_crewmates_choice_while_no_order_type_is_shown_to_help(monkeypatch):
    """planner.OVERRIDES is empty (no override shown to win games in a crew at the real budget): a crew's
    planner answers the crewmate's choice at once, without a rollout, at every position of a playout."""
    from bot.games.everrain import ai

    assert planner.OVERRIDES == frozenset()

    def no_rollout(*args, **kwargs):
        raise AssertionError("no rollout while no order type may override the crewmate")

    monkeypatch.setattr(planner, "rollout", no_rollout)
    for game, seat in positions("everrain", 12, 40, players=2):
        situation = game.situation(seat)
        for level in ("normal", "hard"):
            choice = EverrainGame.think(situation, level, Budget(1.0), random.Random(3))
            assert choice == ai.crewmate(
                situation.view, situation.legal, random.Random(random.Random(3).random())
            )


def test_the_planner_may_override_the_crewmate_for_a_lone_captain_only(monkeypatch):
    """A lone captain's planner may take any order type in place of the crewmate's choice
    (planner.LONE_OVERRIDES, shown to help at the real budget); a crew's may not (planner.OVERRIDES)."""
    monkeypatch.setattr(
        planner,
        "rollout",
        lambda g, horizon, rng, watch=None: float((g.state["last"] or {}).get("type") == "end_turn"),
    )
    for players, overrides in ((1, True), (2, False)):
        game = registry.get("everrain").new(players, {"length": "long", "scenario": "archipelago"}, seed=3)
        seat = game.to_act()[0]
        situation = game.situation(seat)
        options = planner.candidates(situation.view, situation.legal, random.Random(4))
        assert options[0] != {"type": "end_turn"} and {"type": "end_turn"} in options
        assert planner.overrides(situation.view) == (
            planner.LONE_OVERRIDES if overrides else planner.OVERRIDES
        )
        cap = Budget(1.0, iterations=planner.MIN_SAMPLES * len(options))
        choice = planner.plan(situation, cap, random.Random(4), EverrainGame.resample)
        assert choice == ({"type": "end_turn"} if overrides else options[0])
    assert planner.LONE_OVERRIDES == EVERY_ORDER


def test_a_lone_captains_planner_never_peeks_at_the_deck_or_the_dice_with_enough_samples_to_override():
    """The no-peeking check for a lone captain, whose planner may override: an iteration cap that reaches
    MIN_SAMPLES samples, the hidden information changed, the same order."""
    cap = Budget(seconds=5.0, iterations=planner.MIN_SAMPLES * planner.MAX_CANDIDATES)
    checked = 0
    for game, seat in positions("everrain", 9, 60, players=1):
        if len(game.legal_actions(seat)) < 2:
            continue
        first = game.ai_action(seat, random.Random(5), "hard", cap)
        game.state["deck"].reverse()
        game.rng.seed(12345)
        assert game.ai_action(seat, random.Random(5), "hard", cap) == first
        checked += 1
        if checked >= 3:
            break
    assert checked >= 3
