"""The engine contract, checked on every registered game with random legal playouts."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.games import IllegalAction, canonical, registry

KEYS = registry.keys()
MAX_STEPS = 4000


def players_for(spec, rnd: random.Random) -> int:
    return rnd.randint(spec.min_players, spec.max_players)


def quick_options(spec) -> dict:
    return {"quick-setup": True} if spec.option("quick-setup") else {}


def test_all_four_games_are_registered():
    assert {"enemy-lines", "enemy-in-sight", "warships", "everrain"} <= set(KEYS)


@pytest.mark.parametrize("key", KEYS)
def test_spec_fields(key):
    spec = registry.get(key)
    assert spec.key == key and spec.title and 1 <= spec.min_players <= spec.max_players
    with pytest.raises(IllegalAction):
        spec.new(players=spec.max_players + 1, options={}, seed=1)
    with pytest.raises(IllegalAction):
        spec.new(players=spec.min_players, options={"no-such-option": True}, seed=1)


def playout(key: str, seed: int, check_every: int = 1):
    """Play random legal actions to the end, checking the contract along the way."""
    spec = registry.get(key)
    rnd = random.Random(seed)
    n = players_for(spec, rnd)
    game = spec.new(players=n, options=quick_options(spec), seed=seed)
    steps = 0
    while not game.is_over and steps < MAX_STEPS:
        to_act = game.to_act()
        assert to_act and all(0 <= s < n for s in to_act)
        seat = rnd.choice(to_act)
        legal = game.legal_actions(seat)
        assert legal, f"{key}: seat {seat} must act but has no legal action"
        if steps % check_every == 0:
            for a in legal[:3]:
                json.dumps(a)
                assert "type" in a
            json.dumps(game.view(None))
            before = game.to_json()
            with pytest.raises(IllegalAction):
                game.apply(seat, {"type": "no-such-action-type"})
            idle = [s for s in range(n) if s not in to_act]
            if idle:
                with pytest.raises(IllegalAction):
                    game.apply(idle[0], legal[0])
            assert game.to_json() == before, "an illegal action changed the state"
            clone = spec.from_json(before)
            assert clone.to_json() == before
        action = rnd.choice(legal)
        events = game.apply(seat, action)
        for e in events:
            assert "type" in e
            json.dumps(e)
        steps += 1
    return game, steps


@pytest.mark.parametrize("key", KEYS)
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6))
def test_random_playouts_keep_the_contract(key, seed):
    game, steps = playout(key, seed, check_every=7)
    if game.is_over:
        result = game.result
        assert set(result) >= {"scores", "winners"}
        assert json.loads(json.dumps(result)) == result, "result must be plain JSON (string keys)"
        assert game.to_act() == []


@pytest.mark.parametrize("key", KEYS)
def test_same_seed_and_actions_give_the_same_state(key):
    spec = registry.get(key)
    a = spec.new(
        players=spec.min_players if spec.min_players > 1 else 2, options=quick_options(spec), seed=11
    )
    b = spec.new(players=a.players, options=quick_options(spec), seed=11)
    rnd = random.Random(3)
    for _ in range(60):
        if a.is_over:
            break
        seat = a.to_act()[0]
        action = rnd.choice(a.legal_actions(seat))
        assert canonical(a.apply(seat, action)) == canonical(b.apply(seat, action))
        assert a.to_json() == b.to_json()


@pytest.mark.parametrize("key", KEYS)
def test_round_trip_then_play_on_identically(key):
    spec = registry.get(key)
    game = spec.new(
        players=spec.max_players if spec.max_players <= 4 else 4, options=quick_options(spec), seed=21
    )
    rnd = random.Random(21)
    for _ in range(25):
        if game.is_over:
            break
        seat = game.to_act()[0]
        game.apply(seat, rnd.choice(game.legal_actions(seat)))
    copy = spec.from_json(game.to_json())
    for _ in range(25):
        if game.is_over:
            break
        seat = game.to_act()[0]
        action = rnd.choice(game.legal_actions(seat))
        assert canonical(game.apply(seat, action)) == canonical(copy.apply(seat, action))
    assert copy.to_json() == game.to_json()


@pytest.mark.parametrize("key", KEYS)
def test_ai_actions_are_legal_and_menus_cover_every_action(key):
    from bot import menus

    spec = registry.get(key)
    game = spec.new(
        players=spec.min_players if spec.min_players > 1 else 2, options=quick_options(spec), seed=5
    )
    for step in range(40):
        if game.is_over:
            break
        seat = game.to_act()[0]
        legal = game.legal_actions(seat)
        paths = [tuple(k for k, _ in game.action_path(seat, a)) for a in legal]
        assert len(set(paths)) == len(paths), f"{key}: two actions share one menu path"
        for a in legal[:20]:
            assert 0 < len(game.describe(a)) <= 100
            assert all(0 < len(label) <= 100 for _, label in game.action_path(seat, a))
        root = menus.build_tree(game, seat)
        assert root.children
        action = game.ai_action(seat, random.Random(step))
        assert game.is_legal(seat, action), f"{key}: the AI chose an illegal action {action}"
        assert isinstance(game.prompt(seat), str) and game.prompt(seat)
        game.apply(seat, action)
        text = type(game).text_view(game.view(None))
        assert 0 < len(text) <= 1900
