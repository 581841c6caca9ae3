"""The boards' fixed palettes (``rendering/palette.py``): every board is reduced to 256 colours by a
palette chosen once a process, not per picture (Pillow's octree per picture was half of an Enemy in
Sight or Everrain picture's CPU); its flat colours stay exact and its text's soft edges close to what
was drawn."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageChops

import rendering
from rendering import enemy_in_sight, enemy_lines, everrain, palette, theme, warships
from tests.rendering.samples import sample_views

WITH_THEIR_OWN_PALETTE = {"enemy-in-sight": enemy_in_sight, "everrain": everrain}
# the boards drawn straight into their palette: (the RGB drawing they stand for, a view's palette)
IN_PALETTE = {
    "enemy-in-sight": (enemy_in_sight.draw, lambda view: enemy_in_sight._palette()),
    "enemy-lines": (
        enemy_lines.draw_picture,
        lambda view: enemy_lines._palette(*enemy_lines._layer_key(view)),
    ),
    "warships": (warships.draw, lambda view: warships._palette()),
}
EDGE_ERROR = 24  # the most a soft edge's channel may move (Pillow's octree per picture: up to 50)
MEAN_ERROR = 0.3  # per channel over a whole picture (the octree: 0.5-0.6 on these boards)


def _kept_exact(flat: list[tuple[int, int, int]], colours: Image.Image) -> bool:
    """Whether every colour of ``flat`` comes out of the palette as it went in."""
    img = Image.new("RGB", (len(flat), 1))
    img.putdata(flat)
    return img.quantize(palette=colours, dither=Image.Dither.NONE).convert("RGB").tobytes() == img.tobytes()


@pytest.mark.parametrize("key", sorted(WITH_THEIR_OWN_PALETTE))
def test_a_boards_palette_keeps_every_flat_colour_exact(key):
    module = WITH_THEIR_OWN_PALETTE[key]
    flat = module._flat_colours()
    assert _kept_exact(flat, module._palette())
    assert module._palette() is module._palette()  # chosen once a process


def test_no_entry_is_kept_so_close_to_a_flat_colour_that_it_takes_its_pixels():
    flat = [(49, 51, 56), (43, 45, 49), (250, 250, 250)]
    sample, draw = theme.canvas(60, 20, flat[0])
    draw.rectangle((0, 0, 9, 19), fill=(52, 53, 57))  # within KEEP_CLEAR of the first: left out
    draw.rectangle((10, 0, 19, 19), fill=flat[1])
    draw.text((22, 2), "Ag", font=theme.font(16), fill=flat[2])  # soft edges between the two
    colours = palette.fixed(flat, sample)
    entries = [tuple(colours.getpalette()[i : i + 3]) for i in range(0, 768, 3)]  # type: ignore[index]
    assert entries[:3] == flat and (52, 53, 57) not in entries
    others = set(entries[3:]) - set(flat)
    assert others and all(
        max(abs(a - b) for a, b in zip(c, f, strict=True)) > palette.KEEP_CLEAR for c in others for f in flat
    )
    assert _kept_exact(flat, colours)


def test_the_rarest_edge_far_from_every_entry_is_served_before_a_common_near_one():
    """Chosen by how badly the palette so far serves a colour's pixels, not by how many there are: a
    few pixels of an unusual shade get their own entry."""
    flat = [(0, 0, 0)]
    sample = Image.new("RGB", (1000, 1), (0, 0, 0))
    sample.putdata([(12, 12, 12)] * 900 + [(200, 40, 40)] * 5 + [(0, 0, 0)] * 95)
    entries = palette.fixed(flat, sample).getpalette()[:9]  # type: ignore[index]
    assert entries == [0, 0, 0, 200, 40, 40, 12, 12, 12]


def test_a_palette_does_not_depend_on_the_order_pillow_counts_colours_in(monkeypatch):
    """Ties (a cell's commonest colour, the worst-served colour) go by colour, not by the order of
    Pillow's count, which changes with the size of its table."""
    flat = [(49, 51, 56), (250, 250, 250)]
    sample, draw = theme.canvas(200, 40, flat[0])
    for k, text in enumerate(("Ag", "Wy", "Ło")):
        draw.text((4 + 64 * k, 4), text, font=theme.font(20), fill=flat[1] if k % 2 else (200, 60, 40))
    first = palette.fixed(flat, sample).getpalette()
    counted = Image.Image.getcolors
    monkeypatch.setattr(Image.Image, "getcolors", lambda self, maxcolors=256: counted(self, maxcolors)[::-1])
    assert palette.fixed(flat, sample).getpalette() == first


@pytest.mark.parametrize("key", ["enemy-in-sight", "everrain", "enemy-lines"])
def test_a_boards_soft_edges_stay_close_to_what_was_drawn(monkeypatch, key):
    drawn: list[tuple[Image.Image, Image.Image | None]] = []
    real = theme.to_png
    monkeypatch.setattr(
        theme, "to_png", lambda img, colours=None: drawn.append((img, colours)) or real(img, colours)
    )
    checked = 0
    for _, label, view, names in sample_views([key]):
        drawn.clear()
        png = rendering.render(key, view, names)
        ((picture, colours),) = drawn
        if picture.mode == "P":  # drawn in its palette: what it stands for is the RGB drawing
            rgb, colours_of = IN_PALETTE[key]
            assert picture.getpalette() == colours_of(view).getpalette(), label
            picture, colours = rgb(view), picture.palette
        assert colours is not None, label  # a fixed palette: no octree per picture
        sent = Image.open(io.BytesIO(png))
        assert sent.mode == "P", label
        diff = ImageChops.difference(picture, sent.convert("RGB"))
        assert max(high for _, high in diff.getextrema()) <= EDGE_ERROR, label
        assert (
            sum(sum(h * i for i, h in enumerate(diff.histogram()[c * 256 : (c + 1) * 256])) for c in range(3))
            / (3 * picture.width * picture.height)
            <= MEAN_ERROR
        ), label
        checked += 1
    assert checked >= 18


def test_warships_and_enemy_lines_keep_their_fixed_palettes(monkeypatch):
    """Handed to the encoder with their palette, or drawn in it already (mode "P": Warships)."""
    drawn = []
    real = theme.to_png
    monkeypatch.setattr(
        theme, "to_png", lambda img, colours=None: drawn.append((img, colours)) or real(img, colours)
    )
    for key in ("warships", "enemy-lines"):
        for _, _, view, names in sample_views([key]):
            drawn_before = len(drawn)
            rendering.render(key, view, names)
            for img, _ in drawn[drawn_before:]:
                if img.mode == "P":
                    assert img.getpalette() == IN_PALETTE[key][1](view).getpalette()
    assert drawn and all(c is not None or img.mode == "P" for img, c in drawn)
