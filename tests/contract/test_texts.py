"""Texts a player reads, in every game: a counted noun agrees with its number ("2 orders left",
"1 clue", never "order(s)" or "hex(es)")."""

from __future__ import annotations

import inspect
import random
import re

import pytest

from bot.games import registry
from bot.games.names import fill_names
from bot.games.warships.texts import last_move

HEDGED_PLURAL = re.compile(r"\w\((?:s|es)\)")
SETUPS = [
    ("enemy-in-sight", {}),
    ("enemy-in-sight", {"variant": "advanced"}),
    ("enemy-lines", {}),
    ("warships", {}),
    ("warships", {"quick-setup": True}),
    ("everrain", {}),
]


def texts_of_a_game(key: str, options: dict, players: int, seed: int, steps: int = 300) -> list[str]:
    """Every event text and prompt of a seeded AI game (its first ``steps``), with the menu titles and
    labels of every third position (building every menu is the slow part)."""
    game = registry.get(key).new(players=players, options=dict(options), seed=seed)
    rng = random.Random(seed)
    texts: list[str] = []
    for step in range(steps):
        if game.is_over:
            break
        for seat in game.to_act():
            texts.append(game.prompt(seat))
            if step % 3 == 0:
                texts += game.menu_titles(seat)
                texts += [str(item[1]) for _, path in game.menu_entries(seat) for item in path]
        seat = game.to_act()[0]
        texts += [e["text"] for e in game.apply(seat, game.ai_action(seat, rng)) if e.get("text")]
    return texts


@pytest.mark.parametrize(("key", "options"), SETUPS)
def test_counted_nouns_agree_with_their_number_in_every_game(key, options):
    spec = registry.get(key)
    for players in sorted({spec.min_players, spec.max_players}):
        for seed in range(2):
            hedged = [t for t in texts_of_a_game(key, options, players, seed) if HEDGED_PLURAL.search(t)]
            assert not hedged, (key, options, players, seed, hedged[:5])


def test_warships_board_says_mine_or_mines():
    def said(last):
        return [fill_names(line, ["Ann", "Bob"]) for line in last_move(last)]

    assert said({"seat": 0, "kind": "lay_mine", "mines": ["C3"]}) == ["Ann laid 1 mine at C3"]
    assert said({"seat": 1, "kind": "lay_mine", "mines": ["C3", "D4"]}) == ["Bob laid 2 mines at C3, D4"]


TEXT_FUNCTIONS = (
    "view_text",
    "alt_text",
    "key_text",
    "text_view",
    "read_board",
    "prompt",
    "describe",
    "action_path",
    "menu_entries",
    "menu_titles",
    "choice_menu",
)


@pytest.mark.parametrize(
    ("key", "function"),
    [(key, function) for key in sorted({key for key, _options in SETUPS}) for function in TEXT_FUNCTIONS],
)
def test_every_text_function_of_every_game_takes_the_readers_speaker(key, function):
    """The core says a game's texts in the reader's language by passing ``speaker`` by keyword
    (``menus.in_language``: for any reader but an English one), so every game's takes it."""
    method = getattr(registry.get(key).cls, function)
    parameter = inspect.signature(method).parameters.get("speaker")
    assert parameter is not None and parameter.kind is inspect.Parameter.KEYWORD_ONLY, (key, function)
