"""AI (hidden information, strength smoke test), renderer and many-seed leak test."""

from __future__ import annotations

import importlib.util
import json
import random
from pathlib import Path

from bot.games import registry
from bot.games.warships.board import board
from rendering.warships import render
from tests.games.warships.conftest import shuffle_hidden_types

SPEC = registry.get("warships")
B = board()
_props_path = Path(__file__).with_name("test_props.py")
_spec = importlib.util.spec_from_file_location("ws_props_helpers", _props_path)
props = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(props)


def play(seed, ai_seats, limit=None, opts=None):
    g = SPEC.new(2, opts or {}, seed=seed)
    r = random.Random(seed)
    with props.short_limit(limit or B.move_limit):
        while not g.is_over:
            seat = g.to_act()[0]
            if seat in ai_seats:
                a = g.ai_action(seat, r)
            elif g.state["phase"] == "setup":
                a = {"type": "submit"}
            else:
                a = r.choice(g.legal_actions(seat))
            assert a in g.legal_actions(seat)
            g.apply(seat, a)
    return g


def test_ai_actions_are_legal_in_setup_and_play():
    g = SPEC.new(2, {}, seed=11)
    r = random.Random(1)
    for _ in range(80):
        if g.is_over:
            break
        seat = g.to_act()[0]
        a = g.ai_action(seat, r)
        assert a in g.legal_actions(seat)
        g.apply(seat, a)
    assert g.state["phase"] == "play"
    # the AI sets up with its Landing ship on the back row of its port
    ls = next(u for u in g.state["units"] if u["o"] == 0 and u["t"] == "landing")
    assert ls["dead"] or B.xy(ls["sq"])[1] >= 14 or B.port_of[ls["sq"]] != 0


def test_ai_reads_only_its_view():
    """Two states that differ only in hidden enemy types give the same AI move."""
    for seed in (2, 5, 9):
        g = SPEC.new(2, {"quick-setup": True}, seed=seed)
        r = random.Random(seed)
        for _ in range(30):
            seat = g.to_act()[0]
            g.apply(seat, r.choice(g.legal_actions(seat)))
        seat = g.to_act()[0]
        h = SPEC.from_json(g.to_json())
        shuffle_hidden_types(h, seat, seed)
        assert json.dumps(g.view(seat), sort_keys=True) == json.dumps(h.view(seat), sort_keys=True)
        assert g.legal_actions(seat) == h.legal_actions(seat)
        assert g.ai_action(seat, random.Random(7)) == h.ai_action(seat, random.Random(7))


def test_ai_beats_random_player():
    wins = 0
    seeds = (0, 1, 2, 3)
    for seed in seeds:
        ai = seed % 2
        g = play(seed, {ai})
        wins += g.result["winners"] == [ai]
    assert wins >= 3  # bench/bench_warships.py measures 200 games


def test_no_leak_over_many_seeded_games():
    for seed in range(6):
        g = SPEC.new(2, {"quick-setup": seed % 2 == 0}, seed=100 + seed)
        r = random.Random(seed)
        with props.short_limit(120):
            while not g.is_over:
                for viewer in (None, 0, 1):
                    props.check_view(g, viewer)
                seat = g.to_act()[0]
                a = g.ai_action(seat, r) if seat == seed % 2 else props.random_action(g, seat, r)
                known = {
                    B.names[u["sq"]] for u in g.state["units"] if not u["dead"] and u["sq"] >= 0 and u["rv"]
                }
                props.check_events(g, seat, g.apply(seat, a), known)


def _png_ok(data: bytes):
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) < 500_000
    import io

    from PIL import Image

    img = Image.open(io.BytesIO(data))
    assert max(img.size) <= 1600
    return img


def test_render_setup_play_and_end_views(tmp_path):
    g = SPEC.new(2, {"initial-manoeuvres": True}, seed=4)
    _png_ok(render(g.view(0), ["Ann", "Bob"]))
    _png_ok(render(g.view(None)))
    g = play(4, {0, 1}, limit=90)
    for viewer in (None, 0, 1):
        _png_ok(render(g.view(viewer), ["Ann", "Bob"]))
    assert g.is_over


def test_render_differs_between_private_and_public_view():
    g = SPEC.new(2, {"quick-setup": True}, seed=6)
    assert render(g.view(0)) != render(g.view(None))
    text = g.text_view(g.view(None))
    assert text.startswith("```") and len(text) <= 1900
    assert not any(B.abbr(t) in text for t in B.order if t not in ("battery",))
