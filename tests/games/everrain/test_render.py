"""The renderer sees only views: map, tracks, trace and ship board, small PNGs."""

from __future__ import annotations

import io
import random
import re

from PIL import Image, ImageDraw

from bot.games import registry
from rendering import has_renderer, render


def _png(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    img.load()
    return img


def test_render_spectator_and_seat_views_through_a_game():
    assert has_renderer("everrain")
    spec = registry.get("everrain")
    for scenario in ("strait", "archipelago"):
        g = spec.new(players=3, options={"scenario": scenario}, seed=3)
        rng = random.Random(3)
        shots = 0
        while not g.is_over:
            seat = g.to_act()[0]
            g.apply(seat, g.ai_action(seat, rng))
            if g.state["last_activation"] and shots < 3 and rng.random() < 0.1:
                shots += 1
                public = render("everrain", g.view(None), ["Ann", "Bo", "Cy"])
                mine = render("everrain", g.view(1), None)
                a, b = _png(public), _png(mine)
                assert a.width <= 800 and a.height <= 1800 and b.height > a.height
                assert len(public) < 500_000 and len(mine) < 500_000
        final = _png(render("everrain", g.view(0), ["Ann", "Bo", "Cy"]))
        assert final.width <= 800 and final.height <= 2800


def test_trace_of_an_attack_is_drawn(kit):
    g = kit.make(1)
    f = kit.Forced(g)
    kit.place(g, 0, (8, 2), crew=[1, 0, 2])
    e = kit.add_enemy(g, "cutter", (5, 2), facing=0)
    f.faces["enemy"].append(["move", "damage", "damage"])
    f.faces["evasion"].append(["evade"])
    g._activate(e["uid"])
    v = g.view(0)
    la = v["last_activation"]
    assert la["path"] == [[5, 2], [6, 2]] and la["evasion"] == ["evade"] and la["evaded"] == 1
    with_trace = _png(render("everrain", v))
    v2 = dict(v, last_activation=None)
    without = _png(render("everrain", v2))
    assert with_trace.tobytes() != without.tobytes()


# ------------------------------------------------------------------ the landscape picture (issue 19)
HOSTILE = ["Аня ⟨1⟩ **bold**", "李雷 🚢", "@everyone", "x" * 32]


def _played(players: int, moves: int, seed: int):
    g = registry.get("everrain").new(players=players, options={}, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        seat = g.to_act()[0]
        g.apply(seat, g.ai_action(seat, rng))
    return g


def _views_of_a_game(players: int, scenario: str, seed: int = 5):
    """Every view (channel and every seat) at the start, mid-game and at the end of a seeded game."""
    g = registry.get("everrain").new(players=players, options={"scenario": scenario}, seed=seed)
    rng = random.Random(seed)
    moves = 0
    for stage in ("start", "mid", "over"):
        target = {"start": 0, "mid": 40, "over": 10_000}[stage]
        while moves < target and not g.is_over:
            seat = g.to_act()[0]
            g.apply(seat, g.ai_action(seat, rng))
            moves += 1
        for seat in [None, *range(players)]:
            yield f"{players}p {scenario} {stage} seat {seat}", g.view(seat)
    assert g.is_over


def test_every_view_is_landscape_for_every_player_count():
    """Every picture, channel and seat, 1 to 4 players, both maps, start to game over: at most 800 px
    wide and at most three quarters of its width tall, so the chat preview shows it whole."""
    seen = 0
    for players, scenario in ((1, "strait"), (2, "archipelago"), (3, "strait"), (4, "archipelago")):
        for label, view in _views_of_a_game(players, scenario):
            img = _png(render("everrain", view, HOSTILE[:players]))
            assert img.width <= 800 and img.height <= 600, (label, img.size)
            assert img.height * 4 <= img.width * 3, (label, img.size)
            seen += 1
    assert seen == 3 * (2 + 3 + 4 + 5)


def test_the_picture_holds_no_names():
    """Names are never drawn (the font has no Cyrillic, CJK or emoji): any names, or none, give the
    very same bytes; the text beside the picture says which badge is whose."""
    g = _played(4, 50, seed=9)
    for seat in (None, 0, 3):
        view = g.view(seat)
        plain = render("everrain", view, None)
        assert render("everrain", view, HOSTILE) == plain
        assert render("everrain", view, ["Alice", "Bob", "Carol", "Dan"]) == plain


def test_player_ships_are_their_seat_badges_on_the_map(monkeypatch):
    """Each player ship is drawn as its seat's badge (shape and colour, rendering.theme) on its own hex,
    never as a colour alone."""
    from rendering import everrain as pic
    from rendering import theme

    badges: list[tuple[float, float, int]] = []
    real = theme.seat_badge

    def badge(draw, cx, cy, seat, *args, **kwargs):
        badges.append((cx, cy, seat))
        return real(draw, cx, cy, seat, *args, **kwargs)

    monkeypatch.setattr(theme, "seat_badge", badge)
    g = _played(4, 25, seed=2)
    view = g.view(None)
    render("everrain", view, None)
    for s in view["ships"]:
        cx, cy = pic._centre((s["q"], s["r"]))
        assert any(
            seat == s["seat"] and abs(x - cx) <= pic.R and abs(y - cy) <= pic.R for x, y, seat in badges
        ), s


def test_the_map_is_drawn_once_per_scenario_and_pasted():
    """The terrain layer (sea, islands, ports, coordinates) is cached by the map alone: other views
    and other games on the same scenario reuse it (the channel view draws in about the baseline's
    time, bench/bench_render.py)."""
    from rendering import everrain as pic

    pic._terrain_layer.cache_clear()
    for seed in (1, 2):
        g = registry.get("everrain").new(players=2, options={"scenario": "strait"}, seed=seed)
        rng = random.Random(seed)
        for _ in range(3):
            render("everrain", g.view(None), None)
            render("everrain", g.view(1), None)
            seat = g.to_act()[0]
            g.apply(seat, g.ai_action(seat, rng))
    info = pic._terrain_layer.cache_info()
    assert info.misses == 1 and info.hits == 11


def test_ships_sharing_a_port_each_show_their_badge(monkeypatch):
    """Four ships in one port: four badges side by side, none hidden under another."""
    from rendering import theme

    badges: list[tuple[float, float, int]] = []
    real = theme.seat_badge

    def badge(draw, cx, cy, seat, *args, **kwargs):
        badges.append((cx, cy, seat))
        return real(draw, cx, cy, seat, *args, **kwargs)

    monkeypatch.setattr(theme, "seat_badge", badge)
    g = registry.get("everrain").new(players=4, options={}, seed=1)
    for s in g.state["ships"]:
        s["q"], s["r"] = 0, 0  # the port at A1
    render("everrain", g.view(None), None)
    on_map = [(x, y) for x, y, _ in badges[:4]]
    assert sorted(seat for _, _, seat in badges[:4]) == [0, 1, 2, 3]
    for i, (x, y) in enumerate(on_map):
        for x2, y2 in on_map[i + 1 :]:
            assert (x - x2) ** 2 + (y - y2) ** 2 >= 26**2


# ------------------------------------------------------------------ no words in the picture (issues 19, 21)
# What the renderer may still write: numbers (the round, the tracks' values, the ship board's Fate Die
# faces, clue counts, seat numbers) and single letters that name no word in any language (the map's
# column letters, as the text's coordinates; an enemy ship's letter, as its menus name it).
DRAWN = re.compile(r"\??[0-9/]*|[A-Za-z]")


def _texts_drawn(monkeypatch, views, fresh: bool = True) -> list[str]:
    """Every string the Everrain renderer hands to ImageDraw.text for ``views``, its cached layers (map,
    ship board, palette) drawn afresh unless not ``fresh``."""
    from rendering import everrain as pic

    drawn: list[str] = []
    real = ImageDraw.ImageDraw.text

    def text(self, xy, text, *args, **kwargs):
        drawn.append(text)
        return real(self, xy, text, *args, **kwargs)

    with monkeypatch.context() as patched:
        patched.setattr(ImageDraw.ImageDraw, "text", text)
        if fresh:
            for cached in (pic._terrain_layer, pic._ship_layer, pic._palette):
                cached.cache_clear()
        for view in views:
            render("everrain", view, None)
    return drawn


def test_the_picture_draws_no_words_only_digits_and_single_letters(monkeypatch):
    """The picture is the same in every language, so it says nothing in one: no "Round", "to act",
    track names or station names; every state of the column (a seat to act, the enemy phase, won,
    lost) and both views, channel and seat."""
    views = [view for _, view in _views_of_a_game(2, "strait")]
    enemy_phase = next(
        v for v in (_played(1, n, seed=4).view(0) for n in range(1, 40)) if v["phase"] == "enemy"
    )
    drawn = _texts_drawn(monkeypatch, [*views, enemy_phase])
    assert drawn and any(t.isdigit() for t in drawn)
    words = sorted({t for t in drawn if not DRAWN.fullmatch(t)})
    assert words == []
    for gone in ("Round", "to act", "Agenda", "Discovery", "Enemy disc.", "Crews win", "Stern", "Helm"):
        assert gone not in drawn


def test_the_ship_board_numbers_its_nodes_by_their_fate_die_faces(monkeypatch):
    g = _played(2, 10, seed=6)
    assert {str(face) for face in range(10)} <= set(_texts_drawn(monkeypatch, [g.view(0)]))
    intact = _texts_drawn(monkeypatch, [g.view(0)], fresh=False)
    g.state["ships"][0]["destroyed"][4] = True
    wrecked = _texts_drawn(monkeypatch, [g.view(0)], fresh=False)
    assert wrecked.count("4") == intact.count("4") + 1  # the destroyed node keeps its number on the wreck


# Each mark the picture draws (beside the map, on the ship board) and how the key names it.
MARKS = {
    "en": [
        "hourglass: the round",
        "badge in a gold ring: the seat to act",
        "dark hull: the enemy phase",
        "green tick: won",
        "red cross: lost",
        "purple eye: the Agenda",
        "gold magnifying glass: Discovery",
        "red-edged hull: Enemy Discovery",
        "0 Bow gun",
        "9 Stern gun",
        "crossed: destroyed",
        "1 pip: Mate",
        "3 pips: Bosun",
    ],
    "it": [
        "clessidra: il round",
        "distintivo in un anello dorato: il posto di turno",
        "scafo scuro: la fase nemica",
        "spunta verde: vittoria",
        "croce rossa: sconfitta",
        "occhio viola: l'Agenda",
        "lente d'ingrandimento dorata: Scoperta",
        "scafo dal bordo rosso: Scoperta Nemica",
        "0 Cannone di prua",
        "9 Cannone di poppa",
        "barrato: distrutto",
        "1 pallino: Secondo",
        "3 pallini: Nostromo",
    ],
}


def test_the_key_names_every_mark_in_english_and_italian():
    """The channel's Key, a seat's and /game rules' (no game) explain each symbol, each numbered node
    and the crew's pips (the ship board is each seat's own picture; every reader may be a captain)."""
    from bot.i18n import Speaker

    g = registry.get("everrain").new(players=2, options={}, seed=1)
    for lang, marks in MARKS.items():
        for view in ({}, g.view(None), g.view(0)):
            key = g.key_text(view, speaker=Speaker(lang))
            assert [m for m in marks if m not in key] == [], (lang, key)


def test_the_key_with_its_seats_fits_one_message_uncut_in_every_language():
    """/game rules and the Key send the game's key and the seats in one message (cut if too long): the
    Everrain's, with its ship board, fits whole in every language and the pseudo-locale (a third
    longer)."""
    from bot import i18n
    from bot.delivery.words import rules_key
    from bot.i18n import PSEUDO, Speaker

    spec = registry.get("everrain")
    for lang in {*i18n.languages(), PSEUDO}:
        speaker = Speaker(lang)
        key = rules_key(spec, speaker)
        bosun = speaker.ngettext(
            "{n} pip: {member}", "{n} pips: {member}", 3, member=speaker.gettext("Bosun")
        )
        assert len(key) <= 2000 and f"{bosun})" in key, (lang, len(key))
