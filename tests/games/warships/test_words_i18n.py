"""Warships in the reader's language (issue 21): its units' names are messages matching the unit table,
its events and its end are Phrases (stored as data, said in any language later), and its texts for
the table, the key and the text board speak through the reader's speaker, English unchanged."""

from __future__ import annotations

import random

from bot.games import registry
from bot.games.names import fill_names, who
from bot.games.phrase import Phrase
from bot.games.warships import texts
from bot.games.warships.board import board
from bot.i18n import PSEUDO, Speaker

POLISH, ITALIAN = Speaker("pl"), Speaker("it")


def played(seed: int, moves: int):
    game = registry.get("warships").new(2, {"quick-setup": True}, seed=seed)
    rng = random.Random(seed)
    events: list[dict] = []
    for _ in range(moves):
        if game.is_over:
            break
        seat = game.to_act()[0]
        events += game.apply(seat, game.ai_action(seat, rng))
    return game, events


def test_the_units_names_are_the_unit_tables():
    b = board()
    assert set(texts.UNIT_NAMES) == set(b.types)
    for t, name in texts.UNIT_NAMES.items():
        assert name == b.name_of(t)
    assert POLISH.gettext(texts.UNIT_NAMES["battleship"]) == "Pancernik"
    assert ITALIAN.gettext(texts.UNIT_NAMES["minesweeper"]) == "Dragamine"


def test_every_event_is_a_phrase_that_survives_storage_and_reads_in_polish():
    game, events = played(3, 120)
    spoken = [e for e in events if e.get("text")]
    assert len(spoken) > 20
    for e in spoken:
        text = e["text"]
        assert isinstance(text, Phrase), text
        again = Phrase.from_json(text.to_json())
        assert str(again) == str(text)  # the English, as it was
        polish = POLISH.say(again)
        assert polish and "{" not in polish
    moves = [POLISH.say(e["text"]) for e in spoken if e["type"] == "move"]
    assert moves and all(" przesuwa jednostkę (" in m for m in moves), moves[:3]


def test_the_end_reads_in_the_readers_language():
    game, events = played(5, 2000)
    assert game.is_over
    view = game.view(None)
    english = texts.end_of(view)
    assert english == game.result["reason"] and english
    polish = texts.end_of(view, POLISH)
    assert polish != english and "{" not in polish
    words = texts.view_text(view, ["Ann", "Bob"], speaker=POLISH)
    assert polish.replace(who(0), "Ann").replace(who(1), "Bob") in words
    over = POLISH.say(Phrase.from_json(game.result["reason_phrase"]))
    assert over == polish


def test_table_texts_in_polish_and_english_as_before():
    game, _ = played(7, 30)
    view = game.view(None)
    english = texts.view_text(view, ["Ann", "Bob"])
    assert "**Lost:**" in english and "**Exits:**" in english
    polish = texts.view_text(view, ["Ann", "Bob"], speaker=POLISH)
    assert "**Straty:**" in polish and "**Wyjścia:**" in polish and "Niebieskie koła" in polish
    alt = texts.alt_text(view, ["Ann", "Bob"], speaker=POLISH)
    assert alt.startswith(
        "Manewry Morskie (Niebieskie koła, port po prawej; Czerwone kwadraty, port po lewej)"
    )
    assert len(alt) <= 256
    key = texts.key_text(view, speaker=ITALIAN)
    assert key.startswith("**Warships: legenda del tabellone**") and "Corazzata" in key
    lines = game.read_board(view, speaker=POLISH)
    assert lines[0].startswith(f"Jednostki gracza {who(0)} (Niebieskie koła)")
    assert fill_names(game.prompt(game.to_act()[0], speaker=POLISH), ["Ann", "Bob"]).startswith("Twój ruch")


def test_the_pseudo_locale_transforms_every_table_text():
    game, _ = played(9, 40)
    view, pseudo = game.view(None), Speaker(PSEUDO)
    for text in (
        texts.view_text(view, ["Ann", "Bob"], speaker=pseudo),
        texts.alt_text(view, ["Ann", "Bob"], speaker=pseudo),
        texts.key_text(view, speaker=pseudo),
        "\n".join(game.read_board(view, speaker=pseudo)),
    ):
        words = [w for w in text.replace("Ann", "").replace("Bob", "").split() if w.isascii() and w.isalpha()]
        assert [
            w for w in words if len(w) > 2 and w not in ("BB", "CR", "DD", "SS", "ES", "MS", "MI", "LS")
        ] == [], text
