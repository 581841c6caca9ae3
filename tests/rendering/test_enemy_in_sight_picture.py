"""Enemy in Sight's picture (issue 19): landscape within 800×600 for every view of 2 to 6 players,
base and Advanced, channel and every seat, from the start to the end and the replay's final reveal;
no player's name in it; drawn from cached layers; a pure function of the view."""

from __future__ import annotations

import copy
import io

import pytest
from PIL import Image, ImageDraw

from rendering import enemy_in_sight as eis
from tests.games.enemy_in_sight.playthrough import positions

HOSTILE = ["@everyone", "ﷺ𒐫", "Zoë **bold**", "李小龍", "🏴‍☠️ Pirate", "x" * 32]
PLAIN = ["Ann", "Bob", "Cy", "Dee", "Ed", "Flo"]


def size(png: bytes) -> tuple[int, int]:
    img = Image.open(io.BytesIO(png))
    img.load()
    return img.size


def assert_landscape(png: bytes, label: str) -> None:
    width, height = size(png)
    assert width <= 800 and height <= 600 and height <= width * 3 / 4, (label, width, height)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("options", [{}, {"variant": "advanced"}], ids=["base", "advanced"])
def test_every_view_is_landscape_within_800_by_600(players, options):
    kinds = set()
    for label, game in positions(players, options, seed=players, every=120):
        kinds.add(label.rsplit("-", 1)[1])
        for seat in [None, *range(players)]:
            assert_landscape(eis.render(game.view(seat), PLAIN[:players]), f"{label} seat {seat}")
        if game.is_over:
            assert_landscape(eis.render(game.final_reveal(), PLAIN[:players]), f"{label} final reveal")
    assert {"turn", "over"} <= kinds
    if options:
        assert {"arrange", "revise"} <= kinds


def test_a_fleet_longer_than_any_layout_still_fits(monkeypatch):
    """Prizes and Additional Ships can make a fleet long: six fleets of 14 ships stay within 800×600,
    each panel showing what fits and a "+n" card for the rest."""
    game = next(g for label, g in positions(6, {}, seed=3, every=40) if "move40" in label)
    view = copy.deepcopy(game.view(None))
    for fleet in view["fleets"]:
        fleet["line"] = (fleet["line"] * 14)[:14]
    more: list[int] = []
    eis._palette()  # built once a process, from a sheet with a "+n" card of its own: not this picture's
    real = eis._more
    monkeypatch.setattr(eis, "_more", lambda hidden, w, h: more.append(hidden) or real(hidden, w, h))
    assert_landscape(eis.render(view, None), "six fleets of 14 ships")
    more.clear()
    eis.draw(view)  # the RGB drawing: the palette one keeps each "+n" card it reduced
    counts = [len(eis._cards(view, f)) for f in view["fleets"]]
    lay = eis.layout(6, tuple(counts))
    assert more == [n - (lay.grid_for(n).places - 1) for n in counts]


def test_a_line_reads_in_one_row_where_it_can():
    """Two or three players: a Line of up to 7 ships stands in one row (station order, left to right)
    with its ships' names; four to six players: up to 8 ships named in two rows."""
    for players in (2, 3):
        for ships in (6, 7):
            cards = eis.layout(players, (ships, 6, 4)[:players]).cards
            assert cards.card_rows == 1 and cards.named and cards.per_row >= ships, (players, ships, cards)
    for players in (4, 5, 6):
        cards = eis.layout(players, (8,) * players).cards
        assert cards.named and cards.places >= 8, (players, cards)


def test_a_short_fleet_keeps_its_names_beside_a_long_one():
    """Six players, one fleet of 9 ships (unnamed cards): the fleets of 8 or fewer keep named cards in
    the same panel height; with one or two columns of wide panels all fleets share one grid."""
    lay = eis.layout(6, (9, 8, 6, 6, 7, 5))
    assert not lay.cards.named
    assert lay.grid_for(8).named and lay.grid_for(8).places >= 8
    assert lay.grid_for(8).height <= lay.panel_h - 2 * eis.PAD
    three = eis.layout(3, (9, 4, 4))
    assert three.grid_for(4) == three.cards


@pytest.mark.parametrize("options", [{}, {"variant": "advanced"}], ids=["base", "advanced"])
def test_the_picture_holds_no_name(options, drawn):
    """A seat is its badge in the picture: the same bytes whatever the names (plain, hostile, none),
    and no name is drawn as text."""
    drawn.clear()  # what is drawn from here on
    eis._face.cache_clear()  # the card faces draw their text once: draw them all again here
    checked = 0
    for label, game in positions(6, options, seed=11, every=90):
        for seat in (None, 0, 5):
            view = game.view(seat)
            drawn.clear()
            png = eis.render(view, PLAIN)
            assert eis.render(view, HOSTILE) == png == eis.render(view, None), label
            assert not any(name in t for t in drawn for name in PLAIN + HOSTILE), (label, drawn)
            assert not any("⟨" in t for t in drawn), label
            checked += 1
    assert checked > 10


def test_a_mid_game_picture_is_pasted_from_cached_layers(monkeypatch):
    """After the first picture, a 6-player mid-game view draws almost no text: card faces, Hull and
    Rigging rows and the panels' frames are pasted; the PNG is a palette one (a fast encoding)."""
    views = [g.view(None) for label, g in positions(6, {}, seed=3, every=40) if "move40" in label]
    view = views[0]
    eis.render(view, None)  # warm the caches
    calls = []
    real = ImageDraw.ImageDraw.text
    monkeypatch.setattr(
        ImageDraw.ImageDraw, "text", lambda self, *a, **k: calls.append(a) or real(self, *a, **k)
    )
    png = eis.render(view, None)
    assert len(calls) <= 12, len(calls)  # the strips' tags at most
    assert Image.open(io.BytesIO(png)).mode == "P"


def test_the_picture_is_a_function_of_the_view_alone():
    """Caches hold only what sizes and the ship list decide: drawing other games in between changes
    nothing in a picture."""
    games = [g.view(None) for label, g in positions(4, {}, seed=8, every=50) if "move50" in label]
    other = [
        g.view(0) for label, g in positions(6, {"variant": "advanced"}, seed=9, every=70) if "move70" in label
    ]
    first = eis.render(games[0], None)
    eis.render(other[0], None)
    assert eis.render(games[0], None) == first


def test_a_spectator_sees_face_down_ships_during_the_secret_set_up():
    """Advanced game, 4.4: the channel shows how many ships each fleet arranges, face down; the owner's
    own view shows its arrangement."""
    label, game = next(iter(positions(3, {"variant": "advanced"}, seed=4)))
    assert label.endswith("arrange")
    public = eis._cards(game.view(None), game.view(None)["fleets"][0])
    assert public and all(ship is None for ship, _, _ in public)
    own_view = game.view(0)
    own = eis._cards(own_view, own_view["fleets"][0])
    assert [ship["id"] for ship, _, _ in own] == [s["id"] for s in own_view["arrange"]["line"]]
