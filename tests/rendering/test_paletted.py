"""Boards drawn straight into their palette (``rendering/paletted.py``): the very pixels of the RGB
drawing reduced to the palette at the end, over every sample view and a whole played game, and the
caches of reduced pieces kept apart by what they show."""

from __future__ import annotations

import pytest
from PIL import Image

from rendering import enemy_in_sight, enemy_lines, paletted, warships
from tests.games.playouts import ai_positions
from tests.rendering.samples import sample_views

# game key -> (the RGB drawing, the palette drawing, a view's palette)
DRAWN_IN_PALETTE = {
    "warships": (warships.draw, warships.picture, lambda view: warships._palette()),
    "enemy-in-sight": (enemy_in_sight.draw, enemy_in_sight.picture, lambda view: enemy_in_sight._palette()),
    "enemy-lines": (
        enemy_lines.draw_picture,
        enemy_lines.picture,
        lambda view: enemy_lines._palette(*enemy_lines._layer_key(view)),
    ),
}


def _played_views(key: str, options: dict, seed: int, moves: int):
    """Every view (the channel's and each seat's) after each of ``moves`` moves of a seeded game."""
    for game in ai_positions(key, seed, moves, options=options):
        for seat in (None, *range(game.players)):
            yield game.view(seat)


def _same_pixels(key: str, view: dict) -> bool:
    rgb, drawn, colours = DRAWN_IN_PALETTE[key]
    got = drawn(view)
    return got.mode == "P" and got.tobytes() == paletted.reduce(rgb(view), colours(view)).tobytes()


@pytest.mark.parametrize("key", sorted(DRAWN_IN_PALETTE))
def test_a_board_drawn_in_its_palette_has_the_pixels_of_its_rgb_drawing_reduced(key):
    views = [view for _, _, view, _ in sample_views([key])]
    assert len(views) >= 12
    for view in views:
        assert _same_pixels(key, view)


@pytest.mark.parametrize(
    ("key", "options"), [("warships", {"quick-setup": True}), ("enemy-lines", {}), ("enemy-in-sight", {})]
)
def test_over_a_played_game_every_view_has_the_pixels_of_its_rgb_drawing_reduced(key, options):
    """Every move puts a piece on the last move's marks (Warships: its arrows, shots, mines, lost
    batteries; Enemy Lines: the squares it left and went to): the pieces over them drawn in RGB, the
    others as tiles; docks, tags and panels in every state the game goes through."""
    checked = 0
    for view in _played_views(key, options, seed=5, moves=120):
        assert _same_pixels(key, view)
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


def test_enemy_in_sight_keeps_each_reduced_piece_by_the_piece_and_everything_it_is_drawn_from():
    """A card's face struck and not, a Hull/Rigging row at other values: each its own reduced piece,
    the very reduction of its RGB drawing."""
    colours = enemy_in_sight._palette()
    args = [
        ("Victory", "GB", 1, "line", "", False, 124, 86, True),
        ("Victory", "GB", 1, "line", "", True, 124, 86, True),
        ("Victory", "FR", 1, "line", "", False, 124, 86, True),
    ]
    faces = [enemy_in_sight._reduced(enemy_in_sight._face, a) for a in args]
    assert len({f.tobytes() for f in faces}) == 3
    for face, a in zip(faces, args, strict=True):
        assert face.tobytes() == paletted.reduce(enemy_in_sight._face(*a), colours).tobytes()
    rows = [
        enemy_in_sight._reduced(enemy_in_sight._stats, (h, 17, 9, 10, 124, (246, 238, 218))) for h in (3, 4)
    ]
    assert rows[0].tobytes() != rows[1].tobytes()


def test_enemy_lines_keeps_a_dock_per_state_and_a_ship_per_place():
    view = next(v for _, label, v, _ in sample_views(["enemy-lines"]) if label.endswith("_60_public"))
    layer = enemy_lines._layer_key(view)
    state = enemy_lines._dock_state(view, 0)
    patch, corner = enemy_lines._dock_reduced(layer, 0, state)
    assert enemy_lines._dock_reduced(layer, 0, state)[0] is patch
    phase, turn, winners, waiting, done = state
    other, _ = enemy_lines._dock_reduced(layer, 0, (phase, turn, winners, waiting, (done or 0) + 1))
    assert other.tobytes() != patch.tobytes()  # one more ship in enemy lines: another dock
    x0, y0 = corner
    reference = paletted.reduce(enemy_lines.draw_picture(view), enemy_lines._palette(*layer))
    assert reference.crop((x0, y0, x0 + patch.width, y0 + patch.height)).tobytes() == patch.tobytes()
    key = (0, 3, "row", False, False, enemy_lines._font_px(layer[0], layer[1]))
    here = enemy_lines._ship_tile(layer, key, 30, 70)
    assert enemy_lines._ship_tile(layer, key, 30, 70) is here
    assert enemy_lines._ship_tile(layer, (1, *key[1:]), 30, 70).tobytes() != here.tobytes()
