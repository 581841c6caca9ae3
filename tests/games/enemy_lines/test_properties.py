"""Hypothesis properties of the Enemy Lines engine: playouts, round-trips, determinism, illegal actions."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.games import IllegalAction, canonical, registry
from bot.games.enemy_lines import board as B
from bot.games.enemy_lines.board import LAYOUT

SPEC = registry.get("enemy-lines")
SETTINGS = settings(max_examples=25, deadline=None)
seeds = st.integers(min_value=0, max_value=2**31 - 1)


def step(game, rng):
    seat = game.to_act()[0]
    action = rng.choice(game.legal_actions(seat))
    return seat, action, game.apply(seat, action)


@SETTINGS
@given(seed=seeds, play_seed=seeds, quick=st.booleans())
def test_random_playouts_end_without_error(seed, play_seed, quick):
    game = SPEC.new(2, {"quick-setup": quick}, seed=seed)
    rng = random.Random(play_seed)
    log = []
    while not game.is_over and len(log) < 1000:
        log.append(step(game, rng))
    assert game.is_over
    assert len(log) <= 10 + LAYOUT.turn_limit  # placements + the turn limit
    res = game.result
    pts = B.scores(game.ships())
    assert res["scores"] == {"0": pts[0], "1": pts[1]}
    assert res["winners"] == [s for s in (0, 1) if pts[s] == max(pts)]
    assert log[-1][2][-1]["type"] == "game_over"
    for _, _, events in log:
        for ev in events:
            assert ev["type"] and ev["text"] and "private_to" not in ev  # no hidden information
    json.dumps(game.view(None))


@SETTINGS
@given(seed=seeds, play_seed=seeds, cut=st.integers(min_value=0, max_value=120))
def test_json_round_trip_is_exact(seed, play_seed, cut):
    game = SPEC.new(2, {}, seed=seed)
    rng = random.Random(play_seed)
    for _ in range(cut):
        if game.is_over:
            break
        step(game, rng)
    text = game.to_json()
    copy = SPEC.from_json(text)
    assert copy.to_json() == text
    assert copy.view(None) == game.view(None)
    # continuing play gives identical results (random generator state included)
    r1, r2 = random.Random(play_seed + 1), random.Random(play_seed + 1)
    for _ in range(60):
        if game.is_over:
            break
        e1, e2 = step(game, r1), step(copy, r2)
        assert e1 == e2
    assert game.to_json() == copy.to_json()
    # quick setup draws from the stored generator too
    q = SPEC.new(2, {"quick-setup": True}, seed=seed)
    assert SPEC.from_json(q.to_json()).to_json() == q.to_json()


@SETTINGS
@given(seed=seeds, play_seed=seeds)
def test_determinism_same_seed_same_actions(seed, play_seed):
    a = SPEC.new(2, {"quick-setup": True}, seed=seed)
    b = SPEC.new(2, {"quick-setup": True}, seed=seed)
    assert a.to_json() == b.to_json()
    rng = random.Random(play_seed)
    for _ in range(80):
        if a.is_over:
            break
        seat = a.to_act()[0]
        action = rng.choice(a.legal_actions(seat))
        assert a.apply(seat, action) == b.apply(seat, action)
        assert a.to_json() == b.to_json()


def junk_actions(game, seat, rng):
    """Actions that look plausible but are not legal now."""
    legal = {canonical(a) for a in game.legal_actions(seat)}
    other = 1 - seat
    own = [s for s in LAYOUT.fleet[seat]]
    cands = [
        {"type": "pass"},
        {"type": "travel", "ship": rng.choice(LAYOUT.fleet[other]), "dir": "N", "dist": 1},
        {"type": "travel", "ship": rng.choice(own), "dir": rng.choice("NSEW"), "dist": rng.randint(5, 9)},
        {"type": "travel", "ship": rng.choice(own), "dir": "NE", "dist": 1},
        {"type": "travel", "ship": rng.choice(own), "dir": "N", "dist": 0},
        {"type": "rotate", "ship": rng.choice(own), "pivot": "X", "to": "N"},
        {"type": "place", "ship": rng.choice(own), "col": rng.randint(-2, 9), "row": rng.randint(-1, 8)},
        {"type": "place", "ship": rng.choice(LAYOUT.fleet[other]), "col": 0, "row": 0},
        {"type": "fire", "at": "C4"},
        {"type": "travel", "ship": "zz9", "dir": "N", "dist": 1},
    ]
    anchored = game.state["anchor"][str(seat)]
    if anchored:
        cands.append({"type": "travel", "ship": anchored, "dir": "N", "dist": 1})
    return [c for c in cands if canonical(c) not in legal]


@SETTINGS
@given(seed=seeds, play_seed=seeds, cut=st.integers(min_value=0, max_value=80))
def test_illegal_actions_raise_and_change_nothing(seed, play_seed, cut):
    game = SPEC.new(2, {}, seed=seed)
    rng = random.Random(play_seed)
    for _ in range(cut):
        if game.is_over:
            break
        step(game, rng)
    if game.is_over:
        return
    seat = game.to_act()[0]
    before = game.to_json()
    for bad in junk_actions(game, seat, rng):
        with pytest.raises(IllegalAction):
            game.apply(seat, bad)
        assert game.to_json() == before
    with pytest.raises(IllegalAction):  # not your turn
        game.apply(1 - seat, game.legal_actions(seat)[0])
    for bad in (None, "pass", {}, {"ship": "b4"}):
        with pytest.raises(IllegalAction):
            game.apply(seat, bad)
    assert game.to_json() == before


@SETTINGS
@given(seed=seeds, play_seed=seeds, cut=st.integers(min_value=0, max_value=100))
def test_views_hold_no_hidden_data(seed, play_seed, cut):
    """Enemy Lines has no hidden information: every seat and spectators see the same board,
    and a view holds nothing beyond the public state (no generator, no seed)."""
    game = SPEC.new(2, {}, seed=seed)
    rng = random.Random(play_seed)
    for _ in range(cut):
        if game.is_over:
            break
        step(game, rng)
    views = [game.view(s) for s in (None, 0, 1)]
    for v in views:
        v.pop("seat")
        json.dumps(v)
        assert "rng" not in v and "seed" not in v
    assert views[0] == views[1] == views[2]
