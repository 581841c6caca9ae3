"""The text board (``Game.read_board`` and bot/textboard.py): every game's position in words, for every
kind of view (the spectators', each seat's own) along AI playouts: complete (every unit, ship, enemy,
card the view shows is named), in reading order, within Discord's limits, and, for the spectators,
holding nothing hidden from them."""

from __future__ import annotations

import json
import random
import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot import layout
from bot.games import registry
from bot.games.enemy_in_sight.data import NATION_NAMES
from bot.games.everrain.board import label
from bot.games.names import colour, fill_names
from bot.games.warships.board import board as warships_board
from bot.storage.rows import SeatRow
from bot.tables import Table
from bot.textboard import MAX_PAGES, PAGE, W_CUT, text_board
from tests.hosting import game_row

# (game, players, options): every game, its largest tables and its variants
SETUPS = [
    ("warships", 2, {}),
    ("enemy-lines", 2, {}),
    ("everrain", 1, {}),
    ("everrain", 4, {}),
    ("enemy-in-sight", 2, {"variant": "base"}),
    ("enemy-in-sight", 6, {"variant": "base"}),
    ("enemy-in-sight", 6, {"variant": "advanced"}),
]
NAMES = ["Ann", "Bob", "Cleo", "Dan", "Eve", "Fay"]


def playout(key: str, players: int, options: dict, seed: int, stops: int = 6):
    """A game played by its AI, yielded at ``stops`` positions spread over it (and at the end)."""
    spec = registry.get(key)
    game = spec.new(players, options, seed=seed)
    rng = random.Random(seed)
    moves = 0
    yield game
    while not game.is_over and moves < 400:
        seat = game.to_act()[0]
        game.apply(seat, game.ai_action(seat, rng))
        moves += 1
        if moves % max(1, 400 // stops) == 0 or game.is_over:
            yield game


def viewers(game) -> list[int | None]:
    return [None, *range(game.players)]


def reading(game, seat) -> str:
    return "\n".join(game.read_board(game.view(seat)))


# ----- completeness and order, per game ------------------------------------------------------------


def check_warships(game, seat, text: str) -> None:
    b = warships_board()
    view = game.view(seat)
    for unit in view["units"]:
        name = b.name_of(unit["type"]) if unit["type"] else "unknown unit"
        assert re.search(rf"\b{unit['sq']} {re.escape(name)}\b", text), (unit, text)
    # rows top to bottom within each side
    for side in text.split("'s units (")[1:]:
        rows = [int(r) for r in re.findall(r"^row (\d+):", side, re.M)]
        assert rows == sorted(rows) and len(set(rows)) == len(rows)


def check_enemy_lines(game, seat, text: str) -> None:
    view = game.view(seat)
    for ship in view["ships"]:
        for c, r in ship["cells"]:
            assert f"{chr(65 + c)}{r + 1}" in text
    placed = [line for line in text.splitlines() if "-ship on " in line]
    assert len(placed) == sum(1 for s in view["ships"] if s["cells"])
    for side in re.split(r"'s ships, \d+:", text)[1:]:
        tops = [
            max(int(n) for n in re.findall(r"[A-Z](\d+)", line))
            for line in side.splitlines()
            if "-ship on" in line
        ]
        assert tops == sorted(tops, reverse=True)


def check_everrain(game, seat, text: str) -> None:
    view = game.view(seat)
    rows = [int(r) for r in re.findall(r"^row (\d+):", text, re.M)]
    assert rows == list(range(1, view["map"]["height"] + 1))
    for ship in view["ships"]:
        assert f"ship at {label((ship['q'], ship['r']))}" in text
        assert f"{ship['intact']} of 10 nodes intact" in text
    for enemy in view["enemies"]:
        assert f"{enemy['tag']}: {enemy['name']} at {label((enemy['q'], enemy['r']))}" in text
    tr = view["tracks"]
    assert f"Agenda {tr['agenda']} of {tr['agenda_length']}" in text
    for q, r, _n in view["sites"]:
        assert f"{label((q, r))} " in text


def check_enemy_in_sight(game, seat, text: str) -> None:
    view = game.view(seat)
    for fleet in view["fleets"]:
        for ship in fleet["line"] + fleet.get("reserve", []) + fleet["prizes"] + fleet["port"]:
            assert ship["name"] in text
        for n, ship in enumerate(fleet["line"], 1):
            assert f"{n}. {ship['name']}, " in text
    for card in view.get("hand") or []:
        assert card["name"] in text.split("Your hand: ")[1]
    order = [text.index(fill_names(f"⟨{f['seat']}⟩") + ": ") for f in view["fleets"]]
    assert order == sorted(order)


CHECKS = {
    "warships": check_warships,
    "enemy-lines": check_enemy_lines,
    "everrain": check_everrain,
    "enemy-in-sight": check_enemy_in_sight,
}


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), which=st.sampled_from(SETUPS))
def test_text_board_names_every_piece_in_reading_order_for_every_view(seed, which):
    key, players, options = which
    for game in playout(key, players, options, seed):
        for seat in viewers(game):
            text = fill_names(reading(game, seat))
            assert text.strip()
            assert "⟨" not in text
            CHECKS[key](game, seat, text)


# ----- hidden information ----------------------------------------------------------------------------


def hidden_words(game) -> set[str]:
    """Names (of cards, units, ships) some seat sees and the spectators do not, anywhere in their view."""
    public = json.dumps(game.view(None), ensure_ascii=False)
    out: set[str] = set()
    if game.key == "warships":
        b = warships_board()
        shown = {u["sq"]: u["type"] for u in game.view(None)["units"]}
        for seat in range(game.players):
            for unit in game.view(seat)["units"]:
                if unit["type"] and shown.get(unit["sq"], "x") is None:
                    out.add(f"{unit['sq']} {b.name_of(unit['type'])}")
        return out
    for seat in range(game.players):
        view = game.view(seat)
        names = [c["name"] for c in view.get("hand") or []]
        mine = view.get("arrange") or {}
        names += [s["name"] for s in mine.get("line", []) + mine.get("reserve", [])]
        if (view.get("boarding") or {}).get("my_choice"):
            names.append(view["boarding"]["my_choice"]["name"])
        out |= {n for n in names if f'"{n}"' not in public and n not in public}
    # a ship named after a nation ("United States") cannot be told from the nation's name, which the text
    # board says (Break the Line names its nations): only names that are not also a nation's are sought
    return out - set(NATION_NAMES.values())


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), which=st.sampled_from(SETUPS))
def test_spectators_text_board_holds_nothing_hidden_from_them(seed, which):
    key, players, options = which
    for game in playout(key, players, options, seed, stops=10):
        hidden = hidden_words(game)
        pages = "\n".join(text_board(table_of(game), None, [], 1))
        for word in hidden:
            assert word not in pages, (word, key)


def test_warships_spectators_read_unknown_units_as_unknown():
    game = next(g for g in playout("warships", 2, {}, 5, stops=4) if g.view(None)["phase"] == "play")
    text = reading(game, None)
    hidden = sum(1 for u in game.view(None)["units"] if u["type"] is None)
    assert hidden > 0 and text.count("unknown unit") == hidden
    assert reading(game, 0).count("unknown unit") < hidden  # Blue sees its own units


# ----- the pages: order, limits ----------------------------------------------------------------------


def table_of(game, ai: tuple[int, ...] = ()) -> Table:
    row = game_row(
        id=42,
        game_key=game.key,
        options=game.options,
        seed=game.seed,
        status="finished" if game.is_over else "running",
        version=1,
    )
    seats = [
        SeatRow(
            game_id=42,
            seat=s,
            user_id=None if s in ai else 100 + s,
            is_ai=s in ai,
            name=NAMES[s],
            dm_ok=True,
            missed=0,
        )
        for s in range(game.players)
    ]
    return Table(row, seats, game)


LONG_LOG = ["⟨0⟩'s " + "very long move " * 20] * layout.LOG_LINES


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), which=st.sampled_from(SETUPS))
def test_text_board_pages_fit_discord_and_keep_the_reading_order(seed, which):
    key, players, options = which
    for game in playout(key, players, options, seed, stops=4):
        table = table_of(game, ai=(players - 1,) if players > 1 else ())
        for seat in viewers(game):
            pages = text_board(table, seat, LONG_LOG, 17)
            assert 1 <= len(pages) <= MAX_PAGES
            assert all(len(p) <= PAGE for p in pages)
            assert not any(W_CUT in p for p in pages)  # the largest positions fit whole
            joined = "\n".join(pages)
            heads = ["**Seats:**", "**Now:**", "**Position:**", "**Last public moves"]
            at = [joined.index(h) for h in heads]
            assert at == sorted(at)
            for line in game.read_board(game.view(seat)):
                assert fill_names(line, table.names(), markdown=True) in joined
            if len(pages) > 1:
                assert all(f"(page {k} of {len(pages)})" in p for k, p in enumerate(pages, 1))
            who = "your own view" if seat is not None else "what everyone at the table sees"
            assert all(who in p for p in pages)


def test_text_board_names_every_seat_with_its_mark_and_whose_turn_it_is():
    game = registry.get("enemy-in-sight").new(6, {"variant": "base"}, seed=3)
    table = table_of(game, ai=(5,))
    page = text_board(table, None, ["⟨2⟩ fires."], 3)[0]
    for seat in range(6):
        colour, shape = layout.MARK_WORDS[layout.seat_mark(seat)]
        assert f"{layout.seat_mark(seat)} {NAMES[seat]}" in page
        assert f"the {colour} {shape}" in page
    assert "Fay (AI)" in page
    to_act = game.to_act()[0]
    assert f"**Now:** {layout.seat_mark(to_act)} {NAMES[to_act]} to act." in page
    assert "- Cleo fires." in "\n".join(text_board(table, None, ["⟨2⟩ fires."], 3))


def test_a_game_without_a_reading_shows_its_text_board(monkeypatch):
    game = registry.get("enemy-lines").new(2, {}, seed=1)
    monkeypatch.setattr(type(game), "read_board", staticmethod(lambda view: []))
    pages = text_board(table_of(game), None, [], 0)
    assert "```" in pages[0]


def test_pages_cut_a_position_longer_than_the_pages_allow():
    from bot.textboard import _pages

    pages = _pages("head", [f"line {k} " + "x" * 300 for k in range(200)])
    assert len(pages) == MAX_PAGES and pages[-1].endswith(W_CUT)
    assert all(len(p) <= PAGE for p in pages)


# ----- no meaning by colour or shape alone -------------------------------------------------------------


def lone_marks(text: str, names: list[str], *, key: bool = False) -> list[str]:
    """Every seat mark in ``text`` not followed by its seat's name (bold or not); in a ``key`` to the
    picture (which speaks of seats before players, and lists the players under it), its colour name."""
    out = []
    for seat, mark in enumerate(layout.SEAT_MARKS[: len(names)]):
        for m in re.finditer(re.escape(mark), text):
            after = text[m.end() :].lstrip(" ").lstrip("*")
            if not (after.startswith(names[seat]) or key and after.startswith(colour(seat))):
                out.append(text[max(0, m.start() - 20) : m.end() + 30])
    return out


def test_lone_marks_finds_a_mark_without_its_name():
    assert lone_marks("**Lost:** 🔵 1 · 🟥 Bob 2", ["Ann", "Bob"]) == ["**Lost:** 🔵 1 · 🟥 Bob 2"]
    assert lone_marks("🔵 **Ann** · 🟥 Bob", ["Ann", "Bob"]) == []
    assert lone_marks("🔵 **Blue**: a circle", ["Ann", "Bob"]) and not lone_marks(
        "🔵 **Blue**", ["Ann"], key=True
    )


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), which=st.sampled_from(SETUPS))
def test_every_games_texts_pair_each_seat_mark_with_the_seats_name(seed, which):
    """What the table, the DMs and the end summary show of a game: its words beside the picture (every
    view), its key, its alt text, the text board, the seat key and the summary."""
    from bot.summary import summary_text

    key, players, options = which
    for game in playout(key, players, options, seed, stops=5):
        table = table_of(game)
        names = table.names()
        assert not lone_marks(game.key_text(game.view(None)), names, key=True)
        texts = [layout.seat_key(names)]
        for seat in viewers(game):
            view = game.view(seat)
            texts += [
                game.view_text(view, names),
                game.alt_text(view, names),
                *text_board(table, seat, [], 1),
            ]
        if game.is_over:
            texts.append(summary_text(table, 10, 60.0, rated=()))
        lone = [x for t in texts for x in lone_marks(t, names)]
        assert not lone, lone
