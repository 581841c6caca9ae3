"""Property tests: random and AI playouts, JSON round trip, determinism, illegal actions, views, menus."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.games import IllegalAction, canonical, registry

SPEC = registry.get("everrain")
SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _new(players, scenario, seed, length="short"):
    return SPEC.new(players=players, options={"scenario": scenario, "length": length}, seed=seed)


def _play(game, rng, mode="random", cap=4000):
    n = 0
    while not game.is_over:
        seat = game.to_act()[0]
        legal = game.legal_actions(seat)
        assert legal, "a seat to act always has a legal action"
        action = rng.choice(legal) if mode == "random" else game.ai_action(seat, rng)
        events = game.apply(seat, action)
        for e in events:
            assert isinstance(e["type"], str) and isinstance(e["text"], str) and e["text"]
            assert "private_to" not in e
        n += 1
        assert n < cap, "game did not end"
    return n


@SETTINGS
@given(
    seed=st.integers(0, 10**6),
    players=st.integers(1, 4),
    scenario=st.sampled_from(["strait", "archipelago"]),
    ai_share=st.floats(0, 1),
)
def test_random_legal_playouts_never_crash_and_end(seed, players, scenario, ai_share):
    g = _new(players, scenario, seed)
    rng = random.Random(seed)
    n = 0
    while not g.is_over:
        seat = g.to_act()[0]
        legal = g.legal_actions(seat)
        a = g.ai_action(seat, rng) if rng.random() < ai_share else rng.choice(legal)
        assert a in legal
        g.apply(seat, a)
        n += 1
        assert n < 5000
    res = g.result
    assert res["winners"] in ([], list(range(players)))
    assert set(res["scores"]) == {str(s) for s in range(players)}
    json.dumps(g.view(None))


@pytest.mark.parametrize("length", ["short", "medium", "long"])
@pytest.mark.parametrize("scenario", ["strait", "archipelago"])
def test_all_ai_games_end(scenario, length):
    for seed in range(3):
        g = _new(1 + seed, scenario, seed, length)
        _play(g, random.Random(seed), mode="ai")
        assert g.is_over


@SETTINGS
@given(seed=st.integers(0, 10**6), players=st.integers(1, 4), cut=st.integers(0, 120))
def test_json_round_trip_is_exact_and_play_continues_identically(seed, players, cut):
    g = _new(players, "archipelago", seed)
    rng = random.Random(seed)
    for _ in range(cut):
        if g.is_over:
            break
        seat = g.to_act()[0]
        g.apply(seat, rng.choice(g.legal_actions(seat)))
    text = g.to_json()
    h = SPEC.from_json(text)
    assert h.to_json() == text
    assert h.view(0) == g.view(0) and h.legal_actions(0) == g.legal_actions(0)
    r1, r2 = random.Random(seed + 1), random.Random(seed + 1)
    for _ in range(60):
        if g.is_over:
            break
        seat = g.to_act()[0]
        a = r1.choice(g.legal_actions(seat))
        assert a == r2.choice(h.legal_actions(seat))
        assert g.apply(seat, a) == h.apply(seat, a)
    assert g.to_json() == h.to_json()


@SETTINGS
@given(seed=st.integers(0, 10**6), players=st.integers(1, 4))
def test_same_seed_and_actions_give_the_same_state(seed, players):
    a, b = _new(players, "strait", seed), _new(players, "strait", seed)
    assert a.to_json() == b.to_json()
    rng = random.Random(seed)
    for _ in range(80):
        if a.is_over:
            break
        seat = a.to_act()[0]
        act = rng.choice(a.legal_actions(seat))
        a.apply(seat, act)
        b.apply(seat, act)
    assert a.to_json() == b.to_json()


BAD = [
    {"type": "nav", "move": "backward"},
    {"type": "fire", "node": 6, "enemy": 1},
    {"type": "fire", "node": 0, "enemy": 999},
    {"type": "crew", "member": 5, "to": 0},
    {"type": "crew", "member": 0, "to": 12},
    {"type": "explore", "site": "99,99"},
    {"type": "activate", "enemy": 1},
    {"type": "omen", "convert": True},
    {"type": "bogus"},
    {"nottype": 1},
    "end_turn",
]


@SETTINGS
@given(seed=st.integers(0, 10**6), players=st.integers(1, 4), cut=st.integers(0, 80))
def test_illegal_actions_raise_and_change_nothing(seed, players, cut):
    g = _new(players, "strait", seed)
    rng = random.Random(seed)
    for _ in range(cut):
        if g.is_over:
            break
        seat = g.to_act()[0]
        g.apply(seat, rng.choice(g.legal_actions(seat)))
    before = g.to_json()
    acting = g.to_act()
    for seat in range(players):
        for bad in BAD + ([{"type": "end_turn"}] if seat not in acting else []):
            if isinstance(bad, dict) and bad in g.legal_actions(seat):
                continue
            with pytest.raises(IllegalAction):
                g.apply(seat, bad)
            assert g.to_json() == before


@SETTINGS
@given(seed=st.integers(0, 10**6), players=st.integers(1, 4), cut=st.integers(0, 100))
def test_views_hold_no_hidden_data_and_menus_stay_small(seed, players, cut):
    g = _new(players, "archipelago", seed)
    rng = random.Random(seed)
    for _ in range(cut):
        if g.is_over:
            break
        seat = g.to_act()[0]
        g.apply(seat, rng.choice(g.legal_actions(seat)))
    for seat in [None, *range(players)]:
        v = g.view(seat)
        text = canonical(v)
        assert "deck" not in v and "rng" not in text and '"state"' not in text
        assert v["deck_size"] == len(g.state["deck"])
        if seat is None:
            assert "my_ship" not in v
        else:
            assert v["my_ship"]["seat"] == seat
        tv = g.text_view(v)
        assert tv.startswith("```") and len(tv) <= 1900
    for seat in g.to_act():
        legal = g.legal_actions(seat)
        paths = [g.action_path(seat, a) for a in legal]
        assert len({canonical(p) for p in paths}) == len(legal)  # every action has its own path
        assert len(g.menu_titles(seat)) == 2 and all(len(p) == 2 for p in paths)
        first = {p[0][0] for p in paths}
        assert len(first) <= 25
        for k in first:
            assert len([p for p in paths if p[0][0] == k]) <= 25
        for a, p in zip(legal, paths, strict=True):
            assert all(len(lbl) <= 100 and lbl for _, lbl in p)
            assert 0 < len(g.describe(a)) <= 100
        assert g.prompt(seat)
        assert g.timeout_action(seat, random.Random(1)) in legal
