"""``canonical``: the text that states are stored as (``to_json`` at every commit) and actions compared
by. It is written by orjson (issue 19, the CPU a move costs: the state's JSON at each commit was ~3 %
of the bot's CPU), and must stay exactly the json module's text: stored snapshots are compared with a
rebuilt game's (``bot/storage/replay.py``) and menus' digests, in buttons already posted, hash it."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.games import registry
from bot.games.base import canonical
from tests.games.playouts import positions


def json_module(obj) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"))


scalars = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text()
    | st.sampled_from(["\x7f", '\x00\x1f\n\t\b\f\r"\\/', "1e5", "Жора ⚓ 🚢"])
)
json_data = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.text(max_size=6) | st.sampled_from(["a", "é", "\x7f", "1e3"]), inner, max_size=4)
    ),
    max_leaves=30,
)


@given(json_data)
def test_canonical_is_the_json_modules_text(obj):
    assert canonical(obj) == json_module(obj)


@pytest.mark.parametrize(
    "obj",
    [
        {2: "a", 10: "b"},  # integer keys: sorted as numbers, then written as strings
        {"n": 1 << 70, "m": -(1 << 64)},  # beyond 64 bits
        {"x": 1e16, "y": 1e-05, "z": 1.5e300, "w": 0.1, "v": 100.0, "u": 0.0001},
        [1.5e-07, -2e-05, 1e-06, 5e-324, -0.00012],
        {"name": "Zoë", "del": "\x7f"},
        (1, [2, (3,)]),
    ],
)
def test_what_orjson_writes_otherwise_is_written_by_the_json_module(obj):
    assert canonical(obj) == json_module(obj)


@pytest.mark.parametrize("key", sorted(registry.keys()))
def test_every_games_states_are_written_as_before_and_by_orjson(key, monkeypatch):
    """Along a playout of each game, its snapshot is the json module's text, and orjson wrote it."""
    texts = [(game.to_json(), json.loads(game.to_json())) for game, _ in positions(key, seed=7, steps=60)]
    assert len(texts) > 10
    for text, data in texts:
        assert text == json_module(data)
    calls = []
    real = json.dumps
    monkeypatch.setattr(json, "dumps", lambda *a, **k: calls.append(1) or real(*a, **k))
    fell_back = 0
    for game, _ in positions(key, seed=7, steps=60):
        before = len(calls)
        game.to_json()
        fell_back += len(calls) - before
    assert fell_back == 0


def test_a_state_is_written_by_orjson_not_the_json_module(monkeypatch):
    """The stored snapshot at a commit: one orjson call, the json module not called (it was)."""
    game = registry.get("warships").new(2, {}, seed=3)
    expected = json_module(json.loads(game.to_json()))

    def refuse(*args, **kwargs):
        raise AssertionError("the json module was called")

    monkeypatch.setattr(json, "dumps", refuse)
    assert game.to_json() == expected
