"""Enemy in Sight's words in the reader's language (issue 21): the text board (``read_board``), the words
beside the picture (``view_text``), its alt text and its key. Polish sentences with Polish plurals and
nation names, English unchanged, and no untransformed English in the pseudo-locale along AI playouts of
both variants, for the table's view and each player's own (ship names, nation codes, the game's name and
the events' log lines, translated apart, aside)."""

from __future__ import annotations

import random
import re

from bot.games import registry
from bot.games.enemy_in_sight import texts
from bot.games.enemy_in_sight.data import NATION_NAMES, nation_name, nations
from bot.games.names import who
from bot.i18n import PSEUDO, Speaker

POLISH = Speaker("pl")


NAMES = ["Ann", "Bob", "Cy"]


def english_left(text: str, ships: set[str]) -> list[str]:
    for ship in sorted(ships, key=len, reverse=True):
        text = text.replace(ship, " ")
    words = re.findall(r"[A-Za-z]{2,}", text)
    return [w for w in words if w not in nations() and w not in NAMES]


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


def test_the_words_beside_the_picture_in_polish():
    game = registry.get("enemy-in-sight").new(2, {}, seed=4)
    own = game.view_text(game.view(0), NAMES[:2], speaker=POLISH)
    assert own.startswith("**Runda 1**, do 100 PZ: ruch ma ")
    assert "`1` Ann: **0 PZ** · " in own and "**Twoja ręka**: " in own and "Twoje okręty: " in own
    assert "Okręty " in own and " · akcje " in own
    alt = game.alt_text(game.view(None), NAMES[:2], speaker=POLISH)
    assert alt.startswith("Enemy in Sight, 2 floty, runda 1: ruch ma ") and len(alt) <= texts.ALT_MAX
    key = game.key_text(game.view(None), speaker=POLISH)
    assert "GB Wielka Brytania (czerwony)" in key and "Kremowy: w Linii" in key
    assert game.view_text(game.view(0), NAMES[:2]).startswith("**Round 1**, first to 100 VP: ")  # English


def test_a_winner_and_the_final_reveal_in_polish():
    view = {"over": True, "result": {"winners": [0, 1]}, "scores": [104, 104]}
    assert texts.status(view, POLISH) == "**Koniec gry**: ⟨0⟩ i ⟨1⟩ wygrywają z 104 PZ"
    assert texts.status(view) == "**Game over**: ⟨0⟩ and ⟨1⟩ win with 104 VP"
    lines = texts.reveal_lines(
        {"hands": {"0": [], "1": [{"type": "fire_ship", "name": "Fire Ship"}]}}, POLISH
    )
    assert lines[0] == "Ręka gracza ⟨0⟩ na koniec: brak kart"
    assert lines[1].startswith("Ręka gracza ⟨1⟩ na koniec: ") and "Fire Ship" not in lines[1]


def _pseudo_texts(game, seat, speaker) -> list[str]:
    view = game.view(seat)
    alt = game.alt_text(view, NAMES, speaker=speaker)  # the last event's log line in it too
    assert len(game.alt_text(view, NAMES, speaker=speaker)) <= texts.ALT_MAX
    alt = re.sub(r"\S+…$", "…", alt)  # a ship's name cut at the limit is no English left
    return [game.view_text(view, NAMES, speaker=speaker), alt.replace("Enemy in Sight", " ")]


def test_the_words_beside_the_picture_in_the_pseudo_locale_along_playouts():
    speaker = Speaker(PSEUDO)
    for variant, seed in (("base", 7), ("advanced", 8)):
        game = registry.get("enemy-in-sight").new(3, {"variant": variant}, seed=seed)
        ships = {s["name"] for s in game.state["ships"].values()} | set(nations())  # GB, FR…
        key = game.key_text(game.view(None), speaker=speaker).replace("Enemy in Sight", " ")
        assert english_left(key, ships) == [], key
        rng = random.Random(seed)
        for _ in range(150):
            if game.is_over:
                break
            for seat in (None, *game.to_act()):
                for text in _pseudo_texts(game, seat, speaker):
                    assert english_left(text, ships) == [], text
            seat = game.to_act()[0]
            game.apply(seat, game.ai_action(seat, rng))


def test_the_actions_described_in_polish():
    game = registry.get("enemy-in-sight").new(2, {}, seed=4)
    seat = game.to_act()[0]
    said = {game.describe(a, speaker=POLISH) for a in game.legal_actions(seat)}
    assert any(label.startswith("Odrzuć ") for label in said), said
    assert not any("Discard" in label or "{" in label for label in said), said


def test_the_actions_described_in_the_pseudo_locale_along_playouts():
    speaker = Speaker(PSEUDO)
    for variant, seed in (("base", 9), ("advanced", 10)):
        game = registry.get("enemy-in-sight").new(3, {"variant": variant}, seed=seed)
        ships = {s["name"] for s in game.state["ships"].values()}
        rng = random.Random(seed)
        for _ in range(150):
            if game.is_over:
                break
            for seat in game.to_act():
                for action in game.legal_actions(seat):
                    label = game.describe(action, speaker=speaker)
                    assert label and len(label) <= 100, label
                    assert english_left(label, ships) == [], (action, label)
            seat = game.to_act()[0]
            game.apply(seat, game.ai_action(seat, rng))
