"""Pictures name no player (issue 19): a seat is its badge in the picture, and the words beside it, drawn
by Discord in any script, say whose badge is whose."""

from __future__ import annotations

import itertools

import pytest

import rendering
from bot.games import registry, who
from tests.rendering.samples import CASES, sample_views

NAMES = [f"Zed{i}" for i in range(6)]


@pytest.mark.parametrize("key", sorted(CASES))
def test_pictures_draw_no_names_nor_tokens(key, drawn):
    cases = 0
    for _, label, view, names in itertools.islice(sample_views([key]), 0, None, 3):  # a third, for time
        names = NAMES[: len(names)]
        drawn.clear()
        rendering.render(key, view, names)
        joined = "\n".join(drawn)
        assert "⟨" not in joined, f"{label}: a seat reference was drawn as it is"
        assert not any(n in joined for n in names), f"{label}: a player's name in the image"
        cases += 1
    assert cases


def test_view_texts_are_filled_with_names(drawn):
    """Enemy in Sight's events are words beside its picture (issue 19), filled with the names there;
    the picture draws neither the event nor a name."""
    key, _, view, names = next(iter(sample_views(["enemy-in-sight"])))
    game = registry.get(key).cls
    view = dict(view, last_events=[f"{who(1)} fires at {who(0)}'s Victory."])
    rendering.render(key, view, ["Ann", "Bob (AI)"] + NAMES[2 : len(names)])
    assert "Bob (AI) fires at Ann's Victory." in game.alt_text(view, ["Ann", "Bob (AI)"])
    assert "Red fires at Blue's Victory." in game.alt_text(view, None)  # no names: the colours stand in
    assert not any("Victory." in t or "Ann" in t for t in drawn)
