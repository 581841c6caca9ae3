"""Images name the players: every seat reference in a view's texts is drawn as the player's name."""

from __future__ import annotations

import itertools

import pytest
from PIL import ImageDraw

import rendering
from bot.games import registry, who
from rendering import theme
from tests.rendering.samples import CASES, NAMELESS, sample_views

NAMES = [f"Zed{i}" for i in range(6)]


@pytest.fixture
def drawn(monkeypatch):
    """Every string any renderer draws."""
    seen: list[str] = []
    real = ImageDraw.ImageDraw.text

    def text(self, xy, text, *args, **kwargs):
        seen.append(str(text))
        return real(self, xy, text, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", text)
    return seen


@pytest.mark.parametrize("key", sorted(set(CASES) - NAMELESS))
def test_images_draw_names_never_tokens(key, drawn):
    cases = 0
    for _, label, view, names in itertools.islice(sample_views([key]), 0, None, 3):  # a third, for time
        names = NAMES[: len(names)]
        drawn.clear()
        rendering.render(key, view, names)
        joined = "\n".join(drawn)
        assert "⟨" not in joined, f"{label}: a seat reference was drawn as it is"
        if key in NAMELESS:
            assert not any(n in joined for n in names), f"{label}: a player's name in the image"
        else:
            assert any(n in joined for n in names), f"{label}: no player's name in the image"
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


def test_filled_view_cuts_long_names():
    view = theme.filled({"t": [who(0)]}, ["A very long display name indeed"])
    assert view["t"][0] == theme.display_name(["A very long display name indeed"], 0)
