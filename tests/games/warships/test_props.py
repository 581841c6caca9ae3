"""Property tests: playouts end, JSON round trip, determinism, illegal actions, no leaks."""

from __future__ import annotations

import contextlib
import random

from hypothesis import Phase, given, settings
from hypothesis import strategies as st

from bot.games import IllegalAction, registry
from bot.games.warships.board import board

SPEC = registry.get("warships")
B = board()
TYPE_NAMES = [B.name_of(t) for t in B.order if t != "battery"]
OPTS = st.fixed_dictionaries(
    {
        "harder-attack": st.booleans(),
        "greater-mobility": st.booleans(),
        "initial-manoeuvres": st.booleans(),
        "quick-setup": st.booleans(),
    }
)


@contextlib.contextmanager
def short_limit(n: int):
    old = B.move_limit
    B.move_limit = n
    try:
        yield
    finally:
        B.move_limit = old


def random_action(g, seat, r):
    acts = g.legal_actions(seat)
    if g.state["phase"] == "setup" and r.random() < 0.3:
        return {"type": "submit"}
    return r.choice(acts)


def step(g, r):
    seat = r.choice(g.to_act())
    a = random_action(g, seat, r)
    return seat, a, g.apply(seat, a)


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10**6), opts=OPTS)
def test_random_playouts_never_crash_and_end(seed, opts):
    with short_limit(120):
        g = SPEC.new(2, opts, seed=seed)
        r = random.Random(seed)
        n = 0
        while not g.is_over:
            step(g, r)
            n += 1
            assert n < 5000
        res = g.result
        assert set(res["winners"]) <= {0, 1} and g.to_act() == [] and g.legal_actions(0) == []


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6), k=st.integers(0, 60), opts=OPTS)
def test_json_round_trip_exact(seed, k, opts):
    g = SPEC.new(2, opts, seed=seed)
    r = random.Random(seed)
    for _ in range(k):
        if g.is_over:
            break
        step(g, r)
    text = g.to_json()
    h = SPEC.from_json(text)
    assert h.to_json() == text
    r1, r2 = random.Random(seed + 1), random.Random(seed + 1)
    for _ in range(15):
        if g.is_over:
            break
        s1, a1, e1 = step(g, r1)
        s2, a2, e2 = step(h, r2)
        assert (s1, a1, e1) == (s2, a2, e2)
        assert g.to_json() == h.to_json()
    assert (
        g.ai_action(g.to_act()[0], random.Random(3)) == h.ai_action(h.to_act()[0], random.Random(3))
        if not g.is_over
        else True
    )


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10**6), opts=OPTS)
def test_determinism(seed, opts):
    def play():
        g = SPEC.new(2, opts, seed=seed)
        r = random.Random(seed)
        for _ in range(50):
            if g.is_over:
                break
            step(g, r)
        return g.to_json()

    assert play() == play()


GARBAGE = [
    {"type": "move"},
    {"type": "move", "from": "Z99", "to": "A1"},
    {"type": "attack", "from": ["x"]},
    {"type": "fly", "from": "A1"},
    {"type": "lay_mine", "at": 5},
    {"type": "swap", "a": "A1", "b": "A1"},
    {"type": "battery", "from": "C5", "target": "B4"},
    {"type": "defuse", "from": "A16", "target": "A1"},
    {"type": "submit", "extra": 1},
    {},
    {"type": "keep_mine", "at": "L16"},
    {"type": "put_mine", "to": "A1"},
]


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6), k=st.integers(0, 40), data=st.data())
def test_illegal_actions_raise_and_change_nothing(seed, k, data):
    g = SPEC.new(2, {}, seed=seed)
    r = random.Random(seed)
    for _ in range(k):
        if g.is_over:
            break
        step(g, r)
    before = g.to_json()
    seat = data.draw(st.sampled_from([0, 1]))
    legal = g.legal_actions(seat) if seat in g.to_act() else []
    candidates = [a for a in GARBAGE if a not in legal]
    # a legal action of the other seat, or a real action out of turn
    other = 1 - seat
    if other in g.to_act():
        candidates += [a for a in g.legal_actions(other)[:5] if a not in legal]
    sq = data.draw(st.sampled_from(B.names))
    sq2 = data.draw(st.sampled_from(B.names))
    for kind in ("move", "attack"):
        a = {"type": kind, "from": sq, ("to" if kind == "move" else "target"): sq2}
        if a not in legal:
            candidates.append(a)
    for a in candidates:
        try:
            g.apply(seat, a)
        except IllegalAction:
            pass
        else:
            raise AssertionError(f"accepted {a}")
        assert g.to_json() == before


def check_view(g, viewer):
    """No unrevealed type of another seat in view(viewer)."""
    v = g.view(viewer)
    state_units = {u["sq"]: u for u in g.state["units"] if not u["dead"] and u["sq"] >= 0}
    for u in v["units"]:
        su = state_units[B.index[u["sq"]]]
        assert su["o"] == u["owner"]
        if su["o"] != viewer:
            if g.state["phase"] == "setup":
                assert su["t"] == "battery"
            if u["type"] is not None:
                assert su["rv"] and u["type"] == su["t"]
        else:
            assert u["type"] == su["t"]
    # hidden units of the other side are all there (as face-down tokens) once play started
    if g.state["phase"] != "setup":
        assert len(v["units"]) == len(state_units)
    for p in (0, 1):
        if p != viewer:
            pub = [t for t, public in g.state["lost"][str(p)] if public]
            assert sum(v["lost"][str(p)]["types"].values()) == len(pub)
    if g.state["phase"] == "setup":
        assert set(v["off_board_mines"]) <= ({str(viewer)} if viewer is not None else set())


def check_events(g, seat, events, known_before):
    for e in events:
        if "private_to" in e:
            continue
        assert e.get("text") and e.get("type")
        if e["type"] in ("clash", "game_over"):
            continue
        text = e["text"]
        for name in TYPE_NAMES:
            if name in text:
                # only a unit whose type was already known to both may be named
                assert e["type"] == "move" and e["from"] in known_before, text


@settings(max_examples=6, deadline=None, phases=[Phase.explicit, Phase.reuse, Phase.generate])
@given(seed=st.integers(0, 10**6), opts=OPTS, ai_seat=st.sampled_from([0, 1, None]))
def test_no_hidden_data_in_views_or_public_events(seed, opts, ai_seat):
    with short_limit(160):
        g = SPEC.new(2, opts, seed=seed)
        r = random.Random(seed)
        while not g.is_over:
            for viewer in (None, 0, 1):
                check_view(g, viewer)
            seat = r.choice(g.to_act())
            a = g.ai_action(seat, r) if seat == ai_seat else random_action(g, seat, r)
            known = {B.names[u["sq"]] for u in g.state["units"] if not u["dead"] and u["sq"] >= 0 and u["rv"]}
            events = g.apply(seat, a)
            check_events(g, seat, events, known)
        for viewer in (None, 0, 1):
            check_view(g, viewer)
