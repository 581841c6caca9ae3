"""Pixels of the Enemy Lines board at known cells."""

from __future__ import annotations

import io
import random

from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from rendering import enemy_lines as R
from rendering import render, theme
from tests.games import playouts
from tests.rendering.samples import cold


def image_of(view, names=None):
    data = R.render(view, names)
    return Image.open(io.BytesIO(data)).convert("RGB"), data


def centre(box):
    return ((box[0] + box[2]) // 2, (box[1] + box[3]) // 2)


def near(a, b, tol=12):
    return all(abs(x - y) <= tol for x, y in zip(a, b, strict=True))


def test_cells_show_sea_home_tints_and_ships(position):
    game = position({"b3a": "C4-E4", "r2a": "F6-G6", "b2a": "A1-B1"}, turn=1)
    img, data = image_of(game.view(None), ["Alice", "Bob"])
    assert img.getpixel(centre(R.cell_box(7, 4))) == theme.SEA  # H5: empty neutral water
    assert img.getpixel(centre(R.cell_box(7, 0))) == R.home_tint(0)  # H1: Blue's back row
    assert img.getpixel(centre(R.cell_box(0, 7))) == R.home_tint(1)  # A8: Red's back row
    x0, y0, _, _ = R.cell_box(3, 3)
    r, g, b = img.getpixel((x0 + 16, y0 + 20))
    assert b > r + 60  # D4 is under Blue's 3-ship: bluish
    px = img.getpixel((R.cell_box(5, 5)[0] + 40, R.cell_box(5, 5)[1] + 20))
    assert px[0] > px[2] + 60  # F6 is under Red's 2-ship: reddish
    assert img.size[0] <= 1600 and img.size[1] <= 1600 and len(data) < 500_000


def test_last_move_highlight(position):
    game = position({"b3a": "C4-E4", "r2a": "F6-G6"}, turn=0)
    game.apply(0, {"type": "travel", "ship": "b3a", "dir": "N", "dist": 1})  # C5-E5
    img, _ = image_of(game.view(None))
    x0, y0, x1, y1 = R.cell_box(2, 4)  # C5: a destination square glows around the hull
    assert near(img.getpixel((x0 + 2, y0 + 2)), R.mix(theme.SEA, theme.HIGHLIGHT, R.GLOW), 2)
    x0, y0, x1, y1 = R.cell_box(3, 3)  # D4: a square it left is outlined in the highlight colour
    assert img.getpixel((x0 + 5, (y0 + y1) // 2)) == theme.HIGHLIGHT
    assert img.getpixel(centre((x0, y0, x1, y1))) == theme.SEA


def test_anchor_drawn_on_anchored_ship(position):
    game = position({"b3a": "C4-E4", "r2a": "F6-G6"}, turn=0)
    game.apply(0, {"type": "travel", "ship": "b3a", "dir": "N", "dist": 1})  # anchored: stern at C5
    img, _ = image_of(game.view(None))
    cx, cy = centre(R.cell_box(2, 4))
    pixels = [img.getpixel((cx + dx, cy + dy)) for dx in range(-10, 11) for dy in range(-10, 11)]
    assert any(near(p, theme.GOLD, 30) for p in pixels)  # the gold anchor on its dark disc
    assert any(near(p, theme.INK, 10) for p in pixels)
    cx, cy = centre(R.cell_box(5, 5))  # Red's ship is not anchored: no gold there
    pixels = [img.getpixel((cx + dx, cy + dy)) for dx in range(-10, 11) for dy in range(-10, 11)]
    assert not any(near(p, theme.GOLD, 30) for p in pixels)


def test_render_every_phase_through_the_registry_entry(spec):
    game = spec.new(2, {}, seed=7)
    rng = random.Random(7)
    shots = [render("enemy-lines", game.view(None), ["A", "B"])]
    while not game.is_over:
        seat = game.to_act()[0]
        game.apply(seat, rng.choice(game.legal_actions(seat)))
        if game.state["moves"] in (0, 30):
            shots.append(render("enemy-lines", game.view(seat), None))
    shots.append(render("enemy-lines", game.view(None), ["A very long player name indeed", ""]))
    for data in shots:
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) < 500_000


# ----- issue 19: landscape, no names, the side to move --------------------------------------------------
HOSTILE = ["Ёжик 🦔 ⟨1⟩ **x**", "\u202eevil\u202c @everyone `y`"]


def every_view(spec):
    """Views of every stage, channel and both seats: set-up, placing, quick set-up, mid-game, game over."""
    for options in ({}, {"quick-setup": True}):
        game = None
        for step, (game, _) in enumerate(playouts.positions(spec.key, 9, 10_000, options=options)):
            if step in (0, 3, 12, 40):
                for seat in (None, 0, 1):
                    yield f"{options} step {step} seat {seat}", game.view(seat)
        assert game is not None and game.is_over
        for seat in (None, 0, 1):
            yield f"{options} over seat {seat}", game.view(seat)


def test_every_view_is_landscape_within_800_by_600(spec):
    phases = set()
    for label, view in every_view(spec):
        phases.add(view["phase"])
        img, _ = image_of(view, ["Alice", "Bob"])
        w, h = img.size
        assert w <= 800 and h <= 600 and h <= w * 3 / 4, (label, img.size)
    assert phases == {"placement", "play", "over"}


def test_no_names_in_the_picture(spec, drawn):
    """A seat is its badge: the picture is the same whatever the names, and draws no words at all."""
    drawn.clear()  # what is drawn from here on
    cold("enemy-lines")  # the cached layer's and sprites' words are drawn here too
    for label, view in every_view(spec):
        png = R.render(view, ["Alice", "Bob"])
        assert R.render(view, HOSTILE) == png, label
        assert R.render(view, None) == png, label
        assert render("enemy-lines", view, ["A very long player name indeed", ""]) == png, label
    allowed = {chr(65 + c) for c in range(8)} | {str(n) for n in range(1, 9)} | {""}
    assert set(drawn) <= allowed, set(drawn) - allowed  # coordinates, marks and ship sizes only


def _dock_edge(img, seat: int, view) -> tuple[int, int, int]:
    x0, y0, x1, y1 = R.dock_box(seat, view["row_info"], 8, 8)
    return img.getpixel((x0 + 1, (y0 + y1) // 2))


def test_the_side_to_move_is_ringed_and_the_winner_gold(spec, position):
    game = position({"b3a": "C4-E4", "r2a": "F6-G6"}, turn=1)
    img, _ = image_of(game.view(None))
    assert _dock_edge(img, 1, game.view(None)) == theme.HIGHLIGHT
    assert _dock_edge(img, 0, game.view(None)) != theme.HIGHLIGHT
    game = position({"b3a": "C4-E4", "r2a": "F6-G6"}, turn=0)
    img, _ = image_of(game.view(None))
    assert _dock_edge(img, 0, game.view(None)) == theme.HIGHLIGHT
    game = played_to_the_end(spec)
    view = game.view(None)
    img, _ = image_of(view)
    for seat in (0, 1):
        assert (_dock_edge(img, seat, view) == theme.GOLD) == (seat in view["winners"]), seat


def played_to_the_end(spec):
    game = spec.new(2, {"quick-setup": True}, seed=4)
    rng = random.Random(4)
    while not game.is_over:
        seat = game.to_act()[0]
        game.apply(seat, game.ai_action(seat, rng))
    return game


def test_dock_slots_fill_with_ships_in_enemy_lines(position):
    """Beside each badge, one filled slot per ship lying in enemy lines (three bring the end)."""
    game = position({"b2a": "A6-B6", "b3a": "C7-E7", "r2a": "F4-G4"}, turn=1)
    view = game.view(None)
    assert view["in_enemy_lines"] == {"0": 2, "1": 0}
    img, _ = image_of(view)

    def slots(seat):
        x0, y0, x1, _ = R.dock_box(seat, view["row_info"], 8, 8)
        cx = (x0 + x1) / 2
        return [img.getpixel((round(cx + (k - 1) * R.SLOT_STEP), y0 + R.SLOT_Y)) for k in range(3)]

    assert slots(0)[:2] == [R.SIDE_COLOURS[0]] * 2 and slots(0)[2] != R.SIDE_COLOURS[0]
    assert all(px != R.SIDE_COLOURS[1] for px in slots(1))


def test_harbour_shows_the_ships_still_to_place(spec):
    """While placing, a side's dock shows one small hull per ship it has yet to place."""
    game = spec.new(2, {}, seed=1)
    before = game.view(None)
    seat = game.to_act()[0]
    game.apply(seat, game.legal_actions(seat)[0])
    after = game.view(None)

    def harbour_pixels(view, img):
        x0, y0, x1, y1 = R.dock_box(seat, view["row_info"], 8, 8)
        return sum(
            1
            for x in range(x0 + 6, x1 - 6)
            for y in range(y0 + R.HARBOUR_Y, y1 - 6)
            if img.getpixel((x, y)) == R.SIDE_COLOURS[seat]
        )

    full = harbour_pixels(before, image_of(before)[0])
    less = harbour_pixels(after, image_of(after)[0])
    assert full > less > 0  # one ship fewer waiting


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10_000), moves=st.integers(0, 150), seat=st.sampled_from([None, 0, 1]))
def test_any_playout_draws_a_landscape_picture_without_names(seed, moves, seat):
    game = playouts.played("enemy-lines", seed, moves, options={"quick-setup": bool(seed % 2)})
    view = game.view(seat)
    png = R.render(view, ["Alice", "Bob"])
    assert R.render(view, HOSTILE) == png
    w, h = Image.open(io.BytesIO(png)).size
    assert w <= 800 and h <= w * 3 / 4


# ----- speed: what a move draws and how it is packed ------------------------------------------------------
def test_a_move_draws_no_text_and_packs_a_palette_png(spec, drawn):
    """The coordinates, marks and ships' digits are drawn once (cached layer and ship sprites): a move
    only pastes and fills. The PNG is indexed (no per-row filter, a third of the bytes)."""
    game = played_to_the_end(spec)
    R.render(game.view(None), None)  # warm: the layout's layer, its palette and the ships it shows
    drawn.clear()  # what is drawn from here on
    for _, view in every_view(spec):
        png = R.render(view, None)
        assert Image.open(io.BytesIO(png)).mode == "P"
    assert [c for c in drawn if c] == []  # the docks' badges have no label; nothing else is written


def test_the_palette_keeps_every_flat_colour_exact(spec):
    """The palette PNG shows every colour the picture fills with exactly; only the soft edges of digits
    may shift to a near colour."""
    for label, view in every_view(spec):
        if view["seat"] is not None:
            continue
        drawn = R.draw_picture(view)
        shown = Image.open(io.BytesIO(R.render(view, None))).convert("RGB")
        row_info = tuple((ri["row"], ri["side"], ri["mark"]) for ri in view["row_info"])
        flat = set(R._flat_colours(row_info))
        a_bytes, b_bytes = drawn.tobytes(), shown.tobytes()
        changed = [
            (tuple(a_bytes[i : i + 3]), tuple(b_bytes[i : i + 3]))
            for i in range(0, len(a_bytes), 3)
            if a_bytes[i : i + 3] != b_bytes[i : i + 3]
        ]
        assert not [a for a, _ in changed if a in flat], label
        assert len(changed) < drawn.width * drawn.height // 100, label  # soft edges only
