"""The Everrain's menus and prompts in the reader's language (issue 21): every label, title and prompt
said through the reader's speaker, Polish plurals, and no untransformed English in the pseudo-locale."""

from __future__ import annotations

import random
import re

from bot import menus
from bot.games import registry
from bot.i18n import PSEUDO, Speaker


def positions(seed: int, steps: int = 60):
    game = registry.get("everrain").new(2, {}, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over:
            return
        yield game
        seat = game.to_act()[0]
        game.apply(seat, game.ai_action(seat, rng))


def english_left(text: str) -> list[str]:
    """ASCII words left in a pseudo-locale text: hex labels (C4), enemy tags and placeholders aside."""
    text = re.sub(r"\b[A-Z]{1,2}\d{1,2}\b|\([A-Z]\)|⟨\d⟩", " ", text)
    return re.findall(r"[A-Za-z]{2,}", text)


def test_the_first_menu_and_prompt_in_polish():
    game = registry.get("everrain").new(2, {}, seed=3)
    seat = game.to_act()[0]
    pl = Speaker("pl")
    assert game.menu_titles(seat, speaker=pl) == ["Wybierz rozkaz", "Wybierz jak"]
    assert game.prompt(seat, speaker=pl) == "Twoja tura: zostały 3 rozkazy — wydaj rozkaz albo zakończ turę."
    level = menus.open_level(game, seat, speaker=pl)
    assert level is not None and level.title == "Wybierz rozkaz"
    labels = [label for _, label in level.entries] + [label for _, label in level.buttons]
    assert any(label.startswith("Nawigacja (nowy rozkaz: ") for label in labels), labels
    assert "Zakończ turę (przepadają 3 rozkazy)" in labels, labels


def test_every_menu_of_a_playout_is_said_in_the_pseudo_locale():
    speaker = Speaker(PSEUDO)
    for seed in (1, 2):
        for game in positions(seed):
            seat = game.to_act()[0]
            texts = [game.prompt(seat, speaker=speaker), *game.menu_titles(seat, speaker=speaker)]
            for _steps, path in game.menu_entries(seat, speaker=speaker):
                texts += [step[1] for step in path]
            for text in texts:
                assert english_left(text) == [], text
                assert len(text) <= 100 or text in texts[:1]


def test_the_text_board_and_the_key_in_the_pseudo_locale_and_in_polish():
    speaker = Speaker(PSEUDO)
    for game in positions(4, steps=40):
        for seat in (None, *range(game.players)):
            view = game.view(seat)
            reading = game.read_board(view, speaker=speaker)
            assert reading and reading != game.read_board(view)
            for line in reading:
                if line.startswith(("Ŀàšţ", "Ĺàšţ")):  # the last activation's own text is stored English
                    line = line.split(":", 1)[0]
                # the scenario's title and the enemies' destinations are the map's names
                line = line.replace(view.get("scenario_title", ""), "")
                for e in view["enemies"]:
                    line = line.replace(e["dest_label"], "")
                assert english_left(line) == [], line
            assert english_left(game.key_text(view, speaker=speaker)) == []
    game = registry.get("everrain").new(2, {}, seed=3)
    polish = game.read_board(game.view(0), speaker=Speaker("pl"))
    assert polish[1].startswith("Agenda 0 z ") and "Okręty graczy:" in polish and "Okręty wroga:" in polish
    assert game.key_text(game.view(0), speaker=Speaker("pl")).startswith("**The Everrain: legenda obrazka**")
