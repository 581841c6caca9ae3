"""Boards drawn straight into their palette (``rendering/paletted.py``): the very pixels of the RGB
drawing reduced to the palette at the end, over every sample view and a whole played game, and the
caches of reduced pieces kept apart by what they show."""

from __future__ import annotations

import random

import pytest
from PIL import Image

from bot.games import registry
from rendering import enemy_in_sight, paletted, warships
from tests.rendering.samples import sample_views

# game key -> (the RGB drawing, the palette drawing, the palette)
DRAWN_IN_PALETTE = {
    "warships": (warships.draw, warships.picture, warships._palette),
    "enemy-in-sight": (enemy_in_sight.draw, enemy_in_sight.picture, enemy_in_sight._palette),
}


def _played_views(key: str, options: dict, seed: int, moves: int):
    """Every view (the channel's and each seat's) after each of ``moves`` moves of a seeded game."""
    game = registry.get(key).new(2, options, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if game.is_over:
            return
        seat = game.to_act()[0]
        game.apply(seat, game.ai_action(seat, rng))
        for seat in (None, *range(game.players)):
            yield game.view(seat)


def _same_pixels(key: str, view: dict) -> bool:
    rgb, drawn, colours = DRAWN_IN_PALETTE[key]
    got = drawn(view)
    return got.mode == "P" and got.tobytes() == paletted.reduce(rgb(view), colours()).tobytes()


@pytest.mark.parametrize("key", sorted(DRAWN_IN_PALETTE))
def test_a_board_drawn_in_its_palette_has_the_pixels_of_its_rgb_drawing_reduced(key):
    views = [view for _, _, view, _ in sample_views([key])]
    assert len(views) >= 12
    for view in views:
        assert _same_pixels(key, view)


def test_warships_over_a_played_game_every_view_has_the_pixels_of_its_rgb_drawing_reduced():
    """Every move moves a unit onto the last move's arrow, shoots, lays mines or loses batteries: the
    units drawn over those in RGB, the others as tiles."""
    checked = 0
    for view in _played_views("warships", {"quick-setup": True}, seed=5, moves=120):
        assert _same_pixels("warships", view)
        checked += 1
    assert checked > 200


def test_inks_map_a_colour_as_reducing_a_picture_does():
    colours = warships._palette()
    inks = paletted.Inks(colours)
    for colour in [(0, 0, 0), (255, 214, 90), (28, 66, 102), (7, 200, 13)]:
        reduced = paletted.reduce(Image.new("RGB", (3, 3), colour), colours)
        assert set(reduced.tobytes()) == {inks(colour)}


def test_a_warships_tile_is_kept_per_square_sprite_and_tag_and_never_stands_for_another():
    """The tile cache: a unit's tile is the layer of its own square with its own sprite and tag; a
    hidden ship's tile (a seat's view hides its type) is not the tile of the same ship seen."""
    b = warships.board()
    hidden = warships._tile(False, 40, ("ship", 1, None, False), None)
    seen = warships._tile(False, 40, ("ship", 1, b.abbr("battleship"), False), None)
    tagged = warships._tile(False, 40, ("ship", 1, None, False), (2, False))
    elsewhere = warships._tile(False, 41, ("ship", 1, None, False), None)
    other_option = warships._tile(True, 40, ("ship", 1, None, False), None)
    assert warships._tile(False, 40, ("ship", 1, None, False), None) is hidden
    tiles = [hidden, seen, tagged, elsewhere, other_option]
    assert len({t.tobytes() for t in tiles[:3]}) == 3
    for tile, (on, i, key, badge) in zip(
        tiles,
        [
            (False, 40, ("ship", 1, None, False), None),
            (False, 40, ("ship", 1, b.abbr("battleship"), False), None),
            (False, 40, ("ship", 1, None, False), (2, False)),
            (False, 41, ("ship", 1, None, False), None),
            (True, 40, ("ship", 1, None, False), None),
        ],
        strict=True,
    ):
        x, y = warships._origin(b, i)
        rgb = warships._layer(on).crop((x, y, x + warships.CELL, y + warships.CELL))
        warships._dress(rgb, 0, 0, key, badge)
        assert tile.tobytes() == paletted.reduce(rgb, warships._palette()).tobytes()
