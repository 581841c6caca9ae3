"""Pixels of the Enemy Lines board at known cells."""

from __future__ import annotations

import io
import random

from PIL import Image

from rendering import enemy_lines as R
from rendering import render, theme


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
