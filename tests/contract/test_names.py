"""Seats are named by people's names: engines write ``who(seat)``, ``fill_names`` fills them in.

A property over random playouts of every game: once filled with names, no text a player reads
(event texts, describe, menu labels and titles, prompts, texts inside views, results, text boards)
still names a seat by its colour."""

from __future__ import annotations

import random
import re

import pytest

from bot.games import colour, fill_names, registry, who
from bot.games.names import NAME_MAX, clean_name, fill_all, fill_board, markdown_name

NAMES = [f"Zed{i}" for i in range(6)]
COLOUR_WORD = re.compile(r"\b(Blue|Red|Green|Yellow|Pink|Sky|Amber|Purple|Teal)\b")
# Colour words that are part of a game itself, not a seat: none found so far. Each entry is a regex of
# the allowed phrase.
GAME_WORDS: list[str] = []


def test_who_is_a_token_that_fill_names_replaces():
    assert who(0) == "⟨0⟩" and who(5) == "⟨5⟩"
    text = f"{who(0)} fires at {who(1)}'s Essex; {who(0)} wins."
    assert fill_names(text, None) == "Blue fires at Red's Essex; Blue wins."
    assert fill_names(text, ["Ann", "Bob (AI)"]) == "Ann fires at Bob (AI)'s Essex; Ann wins."
    assert fill_names(text, ["Ann"]) == "Ann fires at Red's Essex; Ann wins."  # short list: colour
    assert fill_names(text, ["", "Bob"]) == "Blue fires at Bob's Essex; Blue wins."  # empty name: colour
    assert fill_names(f"{who(3)} {who(5)}", []) == "Yellow Sky"
    assert fill_names(who(7), None) == colour(7) == "Seat 8"
    assert fill_names("no seats ⟨here⟩ 1", ["Ann"]) == "no seats ⟨here⟩ 1"
    assert fill_names("", ["Ann"]) == ""
    assert fill_names(who(0), ["  Ann \n Lee "]) == "Ann Lee"  # one line, as a label needs


def test_fill_all_and_fill_board():
    view = {"last_events": [f"{who(1)} moves"], "n": 3, "seat": 1, "t": (who(0),)}
    assert fill_all(view, ["A", "B"]) == {"last_events": ["B moves"], "n": 3, "seat": 1, "t": ("A",)}
    board = "```\n" + who(0) * 700 + "\n```"
    out = fill_board(board, ["x" * 30], limit=1900)
    assert len(out) == 1900 and out.startswith("```\nxxx") and out.endswith("...\n```")


def _strings(obj):
    if isinstance(obj, str):
        yield obj
    elif isinstance(obj, dict):
        for v in obj.values():
            yield from _strings(v)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            yield from _strings(v)


def _bare_colours(text: str) -> list[str]:
    filled = fill_names(text, NAMES)
    for allowed in GAME_WORDS:
        filled = re.sub(allowed, "", filled)
    return COLOUR_WORD.findall(filled)


def _options(spec, rnd: random.Random) -> dict:
    opts = {"quick-setup": True} if spec.option("quick-setup") else {}
    variant = spec.option("variant")
    if variant is not None and variant.choices:
        opts["variant"] = rnd.choice(list(variant.choices))
    return opts


def playout_texts(key: str, seed: int, max_steps: int = 250):
    """Every text a player reads along a random playout, with where it came from."""
    spec = registry.get(key)
    rnd = random.Random(seed)
    n = rnd.randint(spec.min_players, spec.max_players)
    game = spec.new(players=n, options=_options(spec, rnd), seed=seed)
    steps = 0
    while not game.is_over and steps < max_steps:
        to_act = game.to_act()
        for seat in to_act:
            yield "prompt", game.prompt(seat)
            for title in game.menu_titles(seat):
                yield "menu title", title
            legal = game.legal_actions(seat)
            for a in rnd.sample(legal, min(len(legal), 25)):
                yield "describe", game.describe(a)
                for _, label in game.action_path(seat, a):
                    yield "label", label
        if steps % 5 == 0:
            for seat in [None, *range(n)]:
                view = game.view(seat)
                for s in _strings(view):
                    yield f"view({seat})", s
                yield "text board", type(game).text_view(view, NAMES)  # as the host asks for it
        seat = rnd.choice(to_act)
        action = game.ai_action(seat, rnd) if steps % 2 else rnd.choice(game.legal_actions(seat))
        for e in game.apply(seat, action):
            if e.get("text"):
                yield "event", e["text"]
        steps += 1
    for s in _strings(game.result or {}):
        yield "result", s
    for s in _strings(game.view(None)):
        yield "final view", s


@pytest.mark.parametrize("key", registry.keys())
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_no_colour_names_a_seat_once_filled(key, seed):
    found = {}
    tokens = 0
    for where, text in playout_texts(key, seed):
        tokens += "⟨" in text
        bad = _bare_colours(text)
        if bad:
            found.setdefault(where, fill_names(text, NAMES))
    assert not found, f"{key}: colour words naming seats: {found}"
    assert tokens, f"{key}: no text names a seat at all"


@pytest.mark.parametrize("key", registry.keys())
def test_text_boards_name_the_players(key):
    spec = registry.get(key)
    game = spec.new(players=spec.min_players, options=_options(spec, random.Random(0)), seed=5)
    text = type(game).text_view(game.view(None), NAMES)
    plain = type(game).text_view(game.view(None))
    assert "⟨" not in text and "⟨" not in plain
    assert text.startswith("```") and len(text) <= 1900


HOSTILE = [
    "<@123456789012345678>",
    "<@&123456789012345678>",
    "@everyone",
    "@here",
    "**bold**",
    "__under__ ~~gone~~ ||spoiler|| `code`",
    "[x](https://e.vil)",
    "https://e.vil",
    "> quoted",
    "# Heading",
    "- listed",
    "1. first",
]


@pytest.mark.parametrize("name", HOSTILE)
def test_a_name_in_markdown_is_escaped_so_it_shows_as_typed(name):
    shown = markdown_name(name)
    unescaped = re.sub(r"\\(.)", r"\1", shown).replace("\u200b", "")
    assert unescaped == name, "escaping only adds backslashes (and a zero-width space after @)"
    assert not re.search(r"(?<!\\)[*_~`|\[\]<:]", shown), f"a markdown character is left bare: {shown!r}"
    assert not re.match(r"\s*([>#+-]|\d+\.)", shown), f"it would start a quote, heading or list: {shown!r}"
    assert "@everyone" not in shown and "@here" not in shown
    assert fill_names("⟨0⟩ moved.", [name], markdown=True) == f"{shown} moved."
    assert fill_names("⟨0⟩ moved.", [name]) == f"{name} moved.", "labels and images get the name as typed"


def test_a_name_loses_invisible_and_reversing_characters_and_is_at_most_32_characters():
    assert clean_name("\u202eevil\u200b na\u200dme\u2066\ufeff") == "evil name"
    assert clean_name("a\x00b\tc\n d") == "ab c d"
    assert clean_name("x" * 40) == "x" * NAME_MAX == "x" * 32
    assert clean_name("\u200b\u200b") == "Player", "nothing visible left: a placeholder"


def test_a_backtick_in_a_name_cannot_break_out_of_a_text_board():
    board = fill_board("```\n⟨0⟩ | ⟨1⟩\n```", ["```evil", "ok"])
    assert board.count("```") == 2 and board.startswith("```\n") and board.endswith("\n```")
