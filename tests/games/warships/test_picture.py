"""The Warships picture on its side and the words beside it (issue 19).

The picture is landscape (16 squares across, 12 down) in every view, draws no names, puts each square
where its name says, marks the last move; view_text/alt_text/key_text are built from the view alone, and a
spectator's picture and texts say nothing about a face-down unit's type."""

from __future__ import annotations

import io
import random
from functools import cache

from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

import rendering
from bot.games import registry
from bot.games.names import who
from bot.games.warships.board import board
from bot.games.warships.texts import MARKS, last_move
from rendering import theme
from rendering import warships as picture
from tests.games.warships.test_props import short_limit

SPEC = registry.get("warships")
B = board()
HOSTILE = ["<@&123> @everyone **Алиса** 王 🚢" + "x" * 8, "‮Bob‬ \u200b`` ||spoiler||" + "y" * 12]
LONG = ["A" * 32, "B" * 32]


def _game(seed: int, steps: int, options: dict | None = None):
    game = SPEC.new(players=2, options=dict(options or {}), seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over:
            break
        seat = game.to_act()[0]
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    return game


def _finished(seed: int, options: dict | None = None):
    with short_limit(80):
        game = _game(seed, 100_000, options)
    assert game.is_over
    return game


@cache
def _views() -> tuple[tuple[str, dict], ...]:
    """(label, view) for set-up, the first moves, mid-game and the end, with and without options, for
    both seats and the spectators."""
    games = [
        ("setup", _game(5, 0)),
        ("setup-placing", _game(5, 3)),
        ("setup-manoeuvres", _game(6, 4, {"initial-manoeuvres": True})),
        ("first-moves", _game(5, 6, {"quick-setup": True})),
        ("mid", _game(9, 80, {"quick-setup": True})),
        ("mid-manoeuvres", _game(4, 60, {"quick-setup": True, "initial-manoeuvres": True})),
        ("over", _finished(3, {"quick-setup": True})),
    ]
    return tuple((f"{label}-{seat}", game.view(seat)) for label, game in games for seat in (None, 0, 1))


def _image(view: dict, names=None) -> Image.Image:
    return Image.open(io.BytesIO(rendering.render("warships", view, names)))


def test_every_view_is_landscape_within_800_by_600():
    for label, view in _views():
        width, height = _image(view, ["Ann", "Bob"]).size
        assert width <= theme.MAX_WIDTH and height <= 600, (label, width, height)
        assert height <= width * 3 // 4, (label, width, height)


def test_the_picture_draws_no_names():
    """Names in any script (or none) give the same bytes: a side is its mark, the names are text."""
    for label, view in _views():
        plain = rendering.render("warships", view, None)
        assert rendering.render("warships", view, HOSTILE) == plain, label
        assert rendering.render("warships", view, ["Ann", "Bob"]) == plain, label


def test_a_board_is_pasted_from_cached_layers(drawn):
    """Water, ports, coordinates and unit sprites are drawn once: a further board, even of another
    game, draws no text and no new layer or sprite (the channel view's speed, bench/bench_render.py)."""
    for _, view in _views():
        rendering.render("warships", view, None)  # every layer and sprite these views need, once
    drawn.clear()  # what is drawn from here on
    misses = picture._layer.cache_info().misses, picture._ship.cache_info().misses
    for _, view in _views():
        rendering.render("warships", view, None)
    assert drawn == []
    assert (picture._layer.cache_info().misses, picture._ship.cache_info().misses) == misses


def _cell_pixels(img: Image.Image, row: int, column: int) -> list:
    """The pixels inside the picture square of board row ``row`` (1-16) and column ``column`` (0-11)."""
    x0, y0 = picture.LEFT + (row - 1) * picture.CELL, picture.TOP + column * picture.CELL
    return [
        img.getpixel((x, y))
        for x in range(x0 + 8, x0 + picture.CELL - 8)
        for y in range(y0 + 8, y0 + picture.CELL - 8)
    ]


def test_squares_keep_their_names_on_the_turned_board():
    """J15 is drawn where letter J (down the side) meets number 15 (across the top), and nowhere else
    changes: the picture turns, the names players type stay."""
    game = SPEC.new(players=2, options={"quick-setup": True}, seed=2)
    view = game.view(None)
    empty = dict(view, units=[], last=None)
    ship = {"sq": "J15", "owner": 0, "type": "battleship", "revealed": True, "nw": 0}
    bare = _image(empty).convert("RGB")
    shown = _image(dict(empty, units=[ship])).convert("RGB")
    assert _cell_pixels(bare, 15, 9) != _cell_pixels(shown, 15, 9)
    changed = {
        (r, c)
        for r in range(1, 17)
        for c in range(12)
        if _cell_pixels(bare, r, c) != _cell_pixels(shown, r, c)
    }
    assert changed == {(15, 9)}
    assert shown.width > shown.height


def _near(pixel, colour, tolerance: int = 40) -> bool:
    return sum(abs(a - b) for a, b in zip(pixel, colour, strict=False)) <= tolerance


def test_the_last_move_is_marked_from_and_to():
    """A move's two squares are framed in the highlight colour and an arrow crosses the water between."""
    game = SPEC.new(players=2, options={"quick-setup": True}, seed=2)
    base = game.view(None)
    view = dict(base, units=[{"sq": "F9", "owner": 0, "type": None, "revealed": False, "nw": 0}])
    moved = dict(view, last={"seat": 0, "kind": "move", "from": "F12", "to": "F9"})
    still, marked = _image(view).convert("RGB"), _image(moved).convert("RGB")
    for row in (12, 9):  # the frame's edge, on both squares
        x, y = picture.LEFT + (row - 1) * picture.CELL + 2, picture.TOP + 5 * picture.CELL + picture.CELL // 2
        assert _near(marked.getpixel((x, y)), theme.HIGHLIGHT), row
        assert not _near(still.getpixel((x, y)), theme.HIGHLIGHT), row
    # the arrow over row 10 and 11's water, between the two squares
    x, y = (
        picture.LEFT + 10 * picture.CELL + picture.CELL // 2,
        picture.TOP + 5 * picture.CELL + picture.CELL // 2,
    )
    assert _near(marked.getpixel((x, y)), theme.HIGHLIGHT)


def test_both_sides_have_their_own_shape_and_colour():
    """A face-down Blue unit and a face-down Red unit differ in outline (circle vs square), not only in
    colour: their corners differ in the picture."""
    game = SPEC.new(players=2, options={"quick-setup": True}, seed=2)
    view = dict(game.view(None), last=None)
    blue = dict(view, units=[{"sq": "F9", "owner": 0, "type": None, "revealed": False, "nw": 0}])
    red = dict(view, units=[{"sq": "F9", "owner": 1, "type": None, "revealed": False, "nw": 0}])
    # 8 px in: inside a square's fill, past its anti-aliased rim (whose blend depends on the palette)
    corner = (picture.LEFT + 8 * picture.CELL + 8, picture.TOP + 5 * picture.CELL + 8)
    water = _image(dict(view, units=[])).convert("RGB").getpixel(corner)
    assert _image(blue).convert("RGB").getpixel(corner) == water  # a circle leaves its corners to the water
    assert _near(_image(red).convert("RGB").getpixel(corner), theme.SEAT_COLOURS[1], 90)


def test_view_text_says_whose_turn_the_last_move_losses_and_exits():
    game = _game(9, 80, {"quick-setup": True})
    view = game.view(None)
    text = SPEC.cls.view_text(view, ["Ann", "Bob"])
    turn = view["turn"]
    assert f"{['Ann', 'Bob'][turn]} to move" in text
    assert MARKS[0] in text and MARKS[1] in text and "circles" in text and "squares" in text
    assert "**Last:**" in text and view["last"]["from"] in text
    assert "**Lost:**" in text and "**Exits:**" in text
    assert "⟨" not in text


def test_view_text_in_set_up_and_at_the_end():
    setup = SPEC.new(players=2, options={}, seed=5)
    text = SPEC.cls.view_text(setup.view(None), ["Ann", "Bob"])
    assert "Secret set-up" in text and "arranging" in text
    over = _finished(3, {"quick-setup": True})
    text = SPEC.cls.view_text(over.view(None), ["Ann", "Bob"])
    winners = over.view(None)["winners"]
    assert (f"**{['Ann', 'Bob'][winners[0]]} wins!**" if winners else "**Draw.**") in text


def test_a_seat_sees_itself_named_first_in_its_view_text():
    game = _game(9, 20, {"quick-setup": True})
    text = SPEC.cls.view_text(game.view(1), ["Ann", "Bob"])
    assert text.startswith(f"{MARKS[1]} **Bob** (you)")


def test_key_text_explains_every_mark_and_the_turned_coordinates():
    key = SPEC.cls.key_text(SPEC.new(players=2, options={}, seed=1).view(None))
    for t in B.order:
        if t not in ("battery", "mine"):
            assert f"**{B.abbr(t)}** {B.name_of(t)}" in key
    for words in (
        "circles",
        "squares",
        "tower",
        "spiked ball",
        "gold rim",
        "neutral waters",
        "J15",
        "/ws move",
    ):
        assert words in key, words


def test_channel_view_text_stays_short_with_long_names():
    for label, view in _views():
        if view["seat"] is None:
            assert len(SPEC.cls.view_text(view, LONG)) <= 600, label


def test_last_move_words_say_mine_or_mines():
    assert last_move({"seat": 0, "kind": "lay_mine", "mines": ["C3"]}) == [f"{who(0)} laid 1 mine at C3"]
    assert last_move({"seat": 1, "kind": "lay_mine", "mines": ["C3", "D4"]}) == [
        f"{who(1)} laid 2 mines at C3, D4"
    ]


def test_last_move_without_removals():
    last = {
        "seat": 1,
        "kind": "battery",
        "from": "B2",
        "target": "C3",
        "clash": {"attacker": "battery", "defender": "missile", "removed": []},
    }
    lines = last_move(last)
    assert lines[0].startswith(f"{who(1)} B2 hits the battery at C3")
    assert not any(line.startswith("removed") for line in lines)


def _hide_differently(game, seed: int):
    """The same game with the face-down types shuffled among each side's face-down units (the spectator
    cannot tell the two apart)."""
    other = SPEC.from_json(game.to_json())
    rng = random.Random(seed)
    for side in (0, 1):
        hidden = [
            u
            for u in other.state["units"]
            if u["o"] == side and not u["dead"] and not u["rv"] and u["t"] != "battery"
        ]
        types = [u["t"] for u in hidden]
        rng.shuffle(types)
        for u, t in zip(hidden, types, strict=True):
            u["t"] = t
    return other


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 120), quick=st.booleans())
def test_spectator_picture_and_texts_show_no_hidden_type(seed, steps, quick):
    """Over seeded playouts: shuffling the hidden types changes nothing a spectator gets, picture or
    words; the alt text stays within 256 characters with the longest names; the texts are not empty."""
    game = _game(seed, steps, {"quick-setup": quick})
    other = _hide_differently(game, seed)
    mine, theirs = game.view(None), other.view(None)
    for hook in (SPEC.cls.view_text, SPEC.cls.alt_text):
        assert hook(mine, LONG) == hook(theirs, LONG)
        assert hook(mine, LONG)
    assert rendering.render("warships", mine, None) == rendering.render("warships", theirs, None)
    for seat in (None, 0, 1):
        alt = SPEC.cls.alt_text(game.view(seat), LONG)
        assert len(alt) <= 256 and "⟨" not in alt, alt
    # a face-down unit is never named: the alt text names the mover only when the view shows its type
    last = mine.get("last") or {}
    end = last.get("to") or last.get("via") or last.get("from")
    shown = {u["sq"]: u.get("type") for u in mine["units"]}
    if end in shown and shown[end] is None and not last.get("clash"):
        assert "'s unit " in SPEC.cls.alt_text(mine, ["Ann", "Bob"])


def test_text_marks_match_the_picture_and_the_table():
    """The words name each side by the mark the picture draws (theme) and the table shows (layout)."""
    from bot.games.warships.texts import SIDES
    from bot.layout import SEAT_MARKS

    assert MARKS == tuple(SEAT_MARKS[:2])
    for seat, words in enumerate(SIDES):
        assert words == f"{theme.SEAT_NAMES[seat]} {theme.SEAT_SHAPES[seat]}s"
