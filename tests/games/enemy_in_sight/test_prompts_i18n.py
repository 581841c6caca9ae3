"""Enemy in Sight's prompts, menu titles, multi-selects and card names in the reader's language (issue 21): Italian
words for the cards, and no untransformed English in the pseudo-locale along AI playouts of both
variants (ship names, the game's proper nouns, aside)."""

from __future__ import annotations

import random
import re

from bot.games import registry
from bot.games.base import choice_fields
from bot.games.enemy_in_sight.data import card_list, card_name
from bot.i18n import PSEUDO, Speaker


def english_left(text: str, ships: set[str]) -> list[str]:
    for ship in sorted(ships, key=len, reverse=True):
        text = text.replace(ship, " ")
    return re.findall(r"[A-Za-z]{2,}", text)


def test_card_names_in_italian():
    it = Speaker("it")
    names = {card_name(c, it) for c in card_list()}
    assert {"Bordata 3 (rango 1)", "Sopravvento", "Ordini dell'Ammiragliato", "Brulotto"} <= names
    assert all(card_name(c) == c["name"] for c in card_list())  # English: the printed names


def test_prompts_and_titles_in_the_pseudo_locale_along_playouts():
    speaker = Speaker(PSEUDO)
    for variant, seed in (("base", 1), ("advanced", 2)):
        game = registry.get("enemy-in-sight").new(3, {"variant": variant}, seed=seed)
        ships = {s["name"] for s in game.state["ships"].values()}
        rng = random.Random(seed)
        for _ in range(80):
            if game.is_over:
                break
            for seat in game.to_act():
                texts = [game.prompt(seat, speaker=speaker), *game.menu_titles(seat, speaker=speaker)]
                for action in game.legal_actions(seat):
                    if choice_fields(action):  # a multi-select of ships: its title, passages, none button
                        menu = game.choice_menu(seat, action, speaker=speaker)
                        texts += [menu.title, menu.none_label, *(label for label, _ in menu.options)]
                for text in texts:
                    assert english_left(text, ships) == [], text
                    assert text != game.prompt(seat) or not text
            seat = game.to_act()[0]
            game.apply(seat, game.ai_action(seat, rng))
