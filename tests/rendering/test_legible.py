"""Chat images are legible on a phone: at most 800 px wide, every piece of text at least 12 px high
when the image is shown 400 px wide, valid PNGs; and renderers only ever see a view."""

from __future__ import annotations

import inspect
import io
from collections import defaultdict

import pytest
from PIL import Image, ImageDraw

import rendering
from bot.games import registry
from rendering import theme
from tests.rendering.samples import CASES, cold, sample_views

GAMES = sorted(CASES)


@pytest.fixture
def text_sizes(monkeypatch):
    """Every font size any renderer draws text with, however it got the font (real measurement: the
    ``font`` argument of each ``ImageDraw.text`` call with a non-blank string)."""
    seen: list[int] = []
    real = ImageDraw.ImageDraw.text

    def text(self, xy, text, fill=None, font=None, *args, **kwargs):
        if str(text).strip():
            seen.append(getattr(font, "size", 10) if font is not None else 10)  # Pillow's default: ~10 px
        return real(self, xy, text, fill, font, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", text)
    return seen


def test_every_game_has_cases():
    assert set(GAMES) == {s.key for s in registry.all() if rendering.has_renderer(s.key)}
    counts, options, _ = CASES["enemy-in-sight"]
    assert counts == (2, 3, 4, 5, 6) and {"variant": "advanced"} in options


@pytest.mark.parametrize("key", GAMES)
def test_images_fit_a_chat_column_and_text_is_legible_at_400px(key, text_sizes):
    smallest: dict[str, float] = defaultdict(lambda: 999.0)
    kinds = set()
    for _, label, view, names in sample_views([key]):
        text_sizes.clear()
        cold(key)  # cached layers draw their text once: measure it every time
        png = rendering.render(key, view, names)
        assert png[:8] == b"\x89PNG\r\n\x1a\n", label
        img = Image.open(io.BytesIO(png))
        img.load()  # decodes
        assert img.width <= theme.MAX_WIDTH, (label, img.size)
        # a channel image stays about a phone screen tall; a seat's own (DM) image may add its hand/board
        limit = 2 * img.width + 200 if view.get("seat") is None else 2800
        assert img.height <= limit, (label, img.size)
        assert text_sizes, label
        shown = min(text_sizes) * theme.SHOWN_WIDTH / img.width
        assert shown >= theme.MIN_SHOWN_PX, (label, min(text_sizes), img.width)
        kind = "public" if view.get("seat") is None else "private"
        kinds.add(kind)
        smallest[kind] = min(smallest[kind], shown)
    assert kinds == {"public", "private"} or not registry.get(key).has_private_view


def test_renderers_only_take_a_view_and_names():
    """The bot hands a renderer ``game.view(seat)`` and the names, never the game or its full state."""
    for key in GAMES:
        module = rendering._module(key)
        params = list(inspect.signature(module.render).parameters)
        assert params == ["view", "names"], key
        src = inspect.getsource(module)
        assert ".state" not in src and "game.state" not in src, key
    delivery = inspect.getsource(__import__("bot.delivery.transport", fromlist=["x"]))
    assert "view = table.engine.view(seat)" in delivery  # or the caller's copy of that same view
    assert "self.drawing.picture(key, view, table.names(), game_id=table.id, urgent=urgent)" in delivery
    drawing = inspect.getsource(__import__("bot.drawing", fromlist=["x"]))
    assert "png = rendering.render(game_key, view, names)" in drawing


@pytest.mark.parametrize("key", GAMES)
def test_a_seat_image_shows_no_other_seats_hidden_info(key):
    """A seat's image is drawn from its own view only: the same view gives the same image, whatever
    the hidden cards of the others; and two seats' private views differ only where their views do."""
    spec = registry.get(key)
    if not spec.has_private_view:
        pytest.skip("no private view")
    n = max(2, spec.min_players)
    game = spec.new(players=n, options={}, seed=11)
    v0, v1 = game.view(0), game.view(1)
    png0 = rendering.render(key, v0, None)
    assert rendering.render(key, dict(v0), None) == png0  # deterministic: a function of the view alone
    if v0 != v1:
        assert rendering.render(key, v1, None) != png0


def test_replay_frames_and_their_captions_are_legible_at_400px(text_sizes):
    """A replay frame (a drawn view with its caption strip: "Move 12 of 80 · …", the hands at the end)
    is shown in the chat like a board: its caption is as legible at 400 px as the board's text."""
    from rendering import replay as anim

    key = "enemy-lines"
    _, _, view, names = next(iter(sample_views([key])))
    png = rendering.render(key, view, names)
    text_sizes.clear()
    caption = [
        "Move 12 of 80 · Alice moves a ship F16→G15.",
        "Final position",
        "Alice's hand at the end: " + ", ".join(["Refuse Battle"] * 12),
    ]
    img = anim.frame(png, caption)
    assert img.width <= theme.MAX_WIDTH
    assert text_sizes, "the caption was drawn"
    assert min(text_sizes) * theme.SHOWN_WIDTH / img.width >= theme.MIN_SHOWN_PX, (min(text_sizes), img.width)
