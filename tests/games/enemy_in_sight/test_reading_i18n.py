"""Enemy in Sight's text board (``read_board``) in the reader's language (issue 21): Polish sentences with
Polish plurals and nation names, and no untransformed English in the pseudo-locale along AI playouts of
both variants, for the table's view and each player's own (ship names, the game's proper nouns, aside)."""

from __future__ import annotations

import random
import re

from bot.games import registry
from bot.games.enemy_in_sight.data import NATION_NAMES, nation_name, nations
from bot.games.names import who
from bot.i18n import PSEUDO, Speaker

POLISH = Speaker("pl")


def english_left(text: str, ships: set[str]) -> list[str]:
    for ship in sorted(ships, key=len, reverse=True):
        text = text.replace(ship, " ")
    return re.findall(r"[A-Za-z]{2,}", text)


def test_every_nation_of_the_decks_has_a_message():
    assert set(NATION_NAMES) == set(nations())
    assert all(nation_name(code) == name for code, name in nations().items())  # English: the data's
    assert nation_name("GB", POLISH) == "Wielka Brytania"
    assert nation_name("XX", POLISH) == "XX"  # unknown: its code


def test_the_text_board_in_polish():
    game = registry.get("enemy-in-sight").new(2, {}, seed=4)
    view = game.view(0)
    lines = game.read_board(view, speaker=POLISH)
    assert lines[0] == f"Runda 1; rozdaje {who(view['dealer'])}; wygrywa pierwszy, kto zdobędzie 100 PZ."
    hand = view["fleets"][0]["hand_count"]
    assert f"{who(0)}: 0 PZ, {hand} kart w ręce." in lines
    assert f"Linia gracza {who(0)}, 6 okrętów:" in lines
    assert any(line.startswith("1. ") and ", klasa " in line and ": kadłub " in line for line in lines)
    assert lines[-1].startswith("Twoja ręka: ")
    assert not any("{" in line for line in lines)
    english = game.read_board(view)
    assert len(english) == len(lines) and english[0].startswith("Round 1; dealer ")


def test_the_text_board_in_the_pseudo_locale_along_playouts():
    speaker = Speaker(PSEUDO)
    for variant, seed in (("base", 5), ("advanced", 6)):
        game = registry.get("enemy-in-sight").new(3, {"variant": variant}, seed=seed)
        ships = {s["name"] for s in game.state["ships"].values()}
        rng = random.Random(seed)
        for _ in range(120):
            if game.is_over:
                break
            for seat in (None, *game.to_act()):
                text = "\n".join(game.read_board(game.view(seat), speaker=speaker))
                assert english_left(text, ships) == [], text
            seat = game.to_act()[0]
            game.apply(seat, game.ai_action(seat, rng))
