"""The words beside the Enemy Lines picture: view_text, alt_text and key_text, from the view alone."""

from __future__ import annotations

import inspect
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.games import registry
from bot.games.enemy_lines import texts
from bot.games.enemy_lines.game import EnemyLinesGame
from bot.games.names import markdown_name
from rendering import theme
from tests.games import playouts

HOOKS = ("view_text", "alt_text", "key_text")


def played(spec, seed: int, moves: int, options: dict | None = None):
    return playouts.played(spec.key, seed, moves, options=options)


def finished(spec, seed: int = 4):
    game = played(spec, seed, 10_000, {"quick-setup": True})
    assert game.is_over
    return game


def stages(spec):
    """A view of every stage: set-up (empty, part placed), quick set-up, mid-game, final turn, game over."""
    yield "set-up", spec.new(2, {}, seed=1)
    yield "placing", played(spec, 1, 3)
    yield "quick-setup", spec.new(2, {"quick-setup": True}, seed=2)
    yield "mid-game", played(spec, 3, 40, {"quick-setup": True})
    yield "over", finished(spec)


def test_hooks_are_overridden_and_take_only_the_view():
    for hook in HOOKS:
        fn = inspect.getattr_static(EnemyLinesGame, hook)
        assert isinstance(fn, staticmethod), hook  # no game, no state: a view (and names) in
        assert getattr(EnemyLinesGame, hook) is not getattr(EnemyLinesGame.__mro__[1], hook), hook
        # (and, by keyword, the reader's language: issue 21's ``speaker``, no state either)
        params = [p for p in inspect.signature(getattr(EnemyLinesGame, hook)).parameters if p != "speaker"]
        assert params == (["view"] if hook == "key_text" else ["view", "names"]), hook


def test_view_text_names_scores_turn_and_last_move(position):
    game = position({"b3a": "C4-E4", "r2a": "F6-G6", "b2a": "A6-B6"}, turn=0)
    game.apply(0, {"type": "travel", "ship": "b3a", "dir": "N", "dist": 1})  # C5-E5
    text = EnemyLinesGame.view_text(game.view(None), ["Alice", "Bob"])
    lines = text.splitlines()
    # each side: its mark, its name, its score and its ships in enemy lines (Blue's 2-ship on A6-B6: 2 × 2)
    assert lines[0] == "🔵 **Alice** · 4 pts · 1/3 in enemy lines"
    assert lines[1] == "🟥 **Bob** · 0 pts · 0/3 in enemy lines"
    assert lines[2].startswith("**Bob to move** · ") and lines[2].endswith(" turns left")
    assert lines[3] == "Last: Alice's 3-ship travelled C4–E4 → C5–E5."
    assert "⟨" not in text and len(text) <= 600


def test_view_text_in_placement_and_at_the_end(spec):
    game = played(spec, 1, 3)
    text = EnemyLinesGame.view_text(game.view(None), ["Alice", "Bob"])
    left = {s: len(game.unplaced(s)) for s in (0, 1)}
    assert f"🔵 **Alice** · {left[0]} ships to place" in text
    assert f"🟥 **Bob** · {left[1]} ships to place" in text
    assert "**Placement**: " + ("Alice" if game.to_act() == [0] else "Bob") + " places a ship" in text
    assert "Last: " in text and " placed a " in text
    game = finished(spec)
    res = game.result
    text = EnemyLinesGame.view_text(game.view(None), ["Alice", "Bob"])
    assert "**Game over**: " in text
    for seat, name in enumerate(("Alice", "Bob")):
        line = next(line for line in text.splitlines() if f"**{name}**" in line)
        assert f"{res['scores'][str(seat)]} pts" in line
        assert ("**winner**" in line) == (seat in res["winners"])


def test_view_text_keeps_escaped_names_as_given(spec):
    game = played(spec, 3, 40, {"quick-setup": True})
    hostile = [markdown_name("**bold** @everyone"), markdown_name("Ёжик 🦔 `x`")]
    text = EnemyLinesGame.view_text(game.view(None), hostile)
    assert hostile[0] in text and hostile[1] in text
    assert "@everyone" not in text  # escaped by the caller, not undone here


def test_alt_text_is_one_short_sentence_with_names(spec):
    for label, game in stages(spec):
        view = game.view(None)
        alt = EnemyLinesGame.alt_text(view, ["Alice", "Bob"])
        assert alt.startswith("Enemy Lines") and alt.endswith("."), label
        assert "\n" not in alt and "⟨" not in alt and len(alt) <= 256, (label, alt)
        if view["phase"] == "over":
            assert "game over" in alt, alt
        else:
            assert ("Alice" if view["turn"] == 0 else "Bob") + " to " in alt, (label, alt)
    game = played(spec, 3, 40, {"quick-setup": True})
    alt = EnemyLinesGame.alt_text(game.view(None), ["Alice", "Bob"])
    last = texts._last(game.view(None)).replace("⟨0⟩", "Alice").replace("⟨1⟩", "Bob")
    assert last and last in alt and "score Alice " in alt


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    moves=st.integers(0, 120),
    names=st.lists(st.text(min_size=1, max_size=32), min_size=2, max_size=2),
)
def test_texts_stay_short_whatever_the_names(seed, moves, names):
    game = played(registry.get("enemy-lines"), seed, moves, {"quick-setup": bool(seed % 2)})
    alt = EnemyLinesGame.alt_text(game.view(None), names)
    assert len(alt) <= 256 and "⟨" not in alt
    text = EnemyLinesGame.view_text(game.view(None), [markdown_name(n) for n in names])
    assert len(text) <= 600 and "⟨" not in text  # it shares a message with the log, seats and controls


def test_alt_text_drops_details_before_it_cuts(spec):
    game = played(spec, 3, 40, {"quick-setup": True})
    long = ["W" * 32, "M" * 32]
    alt = EnemyLinesGame.alt_text(game.view(None), long)
    assert len(alt) <= 256 and alt.endswith(".") and not alt.endswith("…")
    assert long[game.view(None)["turn"]] + " to move" in alt


def test_key_text_explains_every_mark_of_the_picture(spec):
    key = EnemyLinesGame.key_text(spec.new(2, {}, seed=1).view(None))
    for word in ("circle", "square", "Gold rim", "Anchor", "Glowing squares", "outlined squares", "Docks"):
        assert word in key, word
    assert "4, 3, 2" in key and "⟨" not in key
    for seat in (0, 1):
        assert texts.SHAPES[seat] == theme.SEAT_SHAPES[seat]  # the words match the badges drawn


def test_text_marks_are_the_bots_seat_marks():
    from bot.layout import SEAT_MARKS

    assert list(texts.MARKS) == SEAT_MARKS[:2]


def test_hooks_see_only_the_view_and_every_seat_reads_the_same(spec):
    """Enemy Lines hides nothing: the view of each seat and the channel's differ only in "seat", and
    the hooks say the same for each; they run on the view alone (a JSON copy, no game)."""
    for label, game in stages(spec):
        views = [json.loads(json.dumps(game.view(seat))) for seat in (None, 0, 1)]
        stripped = [{k: v for k, v in view.items() if k != "seat"} for view in views]
        assert stripped[0] == stripped[1] == stripped[2], label
        for hook in ("view_text", "alt_text"):
            said = {getattr(EnemyLinesGame, hook)(view, ["Ann", "Bob"]) for view in views}
            assert len(said) == 1 and said != {""}, (label, hook)
        assert len({EnemyLinesGame.key_text(view) for view in views}) == 1


@pytest.mark.parametrize("hook", ["view_text", "alt_text"])
def test_hooks_fill_colours_without_names(spec, hook):
    game = played(spec, 3, 40, {"quick-setup": True})
    text = getattr(EnemyLinesGame, hook)(game.view(None), None)
    assert "Blue" in text and "Red" in text and "⟨" not in text
