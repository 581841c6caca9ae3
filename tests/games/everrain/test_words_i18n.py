"""The Everrain's words in the reader's language (issue 21): the words beside the picture (``view_text``),
its alt text, the text board of a channel without pictures (``text_view``), the events' log lines and
the last enemy activation (kept as data: a game saved before keeps reading in every language). Italian
sentences with Italian plurals, English unchanged, and no untransformed English in the pseudo-locale along
AI playouts, for the table's view and each player's own."""

from __future__ import annotations

import json
import random
import re

from bot.games import registry
from bot.games.everrain import text as texts
from bot.games.everrain.words import destination, dice
from bot.games.names import fill_names, who
from bot.games.phrase import Phrase
from bot.i18n import PSEUDO, Speaker

ITALIAN = Speaker("it")
PSEUDO_SPEAKER = Speaker(PSEUDO)
NAMES = ["Ann", "Bob", "Cy", "Di"]


def english_left(text: str) -> list[str]:
    """ASCII words left in a pseudo-locale text: hex labels (C4), enemy tags, the players' names and the
    game's own name aside."""
    text = text.replace("The Everrain", " ").replace("Everrain", " ")
    text = re.sub(r"\b[A-Z]{1,2}\d{1,2}\b|\*\*[a-z]\*\*|\([A-Z]\)|⟨\d⟩", " ", text)
    return [w for w in re.findall(r"[A-Za-z]{2,}", text) if w not in NAMES]


def playout(players: int, seed: int, steps: int = 120):
    """A seeded AI game, yielding it before each move with the events of the move before."""
    game = registry.get("everrain").new(players, {}, seed=seed)
    rng = random.Random(seed)
    events: list[dict] = []
    for _ in range(steps):
        if game.is_over:
            break
        yield game, events
        seat = game.to_act()[0]
        events = game.apply(seat, game.ai_action(seat, rng))
    yield game, events


def test_dice_are_counted_in_the_readers_language_with_its_plurals():
    roll = ["move", "omen", "move", "damage", "omen", "omen"]
    assert dice(roll) == "2 Move, 1 Damage and 3 Omens"
    assert ITALIAN.say(dice(roll)) == "2 Movimenti, 1 Danno e 3 Presagi"
    assert Speaker("pl").say(dice(roll)) == "2 Ruchy, 1 Trafienie i 3 Omeny"
    assert ITALIAN.say(dice(["blank"])) == "1 vuota"


def test_destinations_as_stored_are_said_as_words():
    assert ITALIAN.say(destination("E edge")) == "il bordo est"
    assert ITALIAN.say(destination("the Rift (F5)")) == "la Faglia (F5)"
    assert ITALIAN.say(destination("port C3")) == "porto C3"
    assert destination("a hex of a test") == "a hex of a test"  # anything else as it is


def test_the_words_beside_the_picture_and_the_alt_text_in_italian():
    game = registry.get("everrain").new(2, {}, seed=3)
    view = game.view(0)
    words = texts.view_text(view, NAMES[:2], speaker=ITALIAN)
    lines = words.splitlines()
    assert lines[0] == "**Round 1** · tocca a **1** Ann (3 ordini)"
    assert lines[1].startswith("Agenda 0/") and " · Scoperta 0/" in lines[1] and "Scoperta Nemica" in lines[1]
    assert lines[2].startswith("Navi: **1** Ann ")
    assert lines[-1] == "Nessun nodo distrutto"
    assert any(line.startswith("**La tua nave (1)**: restano 3 ordini · Navigazione") for line in lines)
    alt = texts.alt_text(view, NAMES[:2], speaker=ITALIAN)
    assert alt.startswith("The Everrain, Lo Stretto Piovoso, round 1: tocca alla nave ")
    assert "2 navi giocatore" in alt and alt.endswith("la tua nave: 10 nodi su 10 intatti.")
    # English as it was
    assert texts.view_text(view, NAMES[:2]).splitlines()[1].startswith("Agenda 0/")
    assert texts.alt_text(view, NAMES[:2]).startswith("The Everrain, The Rainy Strait, round 1: ")


def test_every_text_of_a_playout_in_the_pseudo_locale_shows_no_english_and_fits():
    seen_activation = seen_events = 0
    for players, seed in ((1, 2), (3, 5)):
        for game, events in playout(players, seed):
            for e in events:
                said = PSEUDO_SPEAKER.say(e["text"])
                assert isinstance(e["text"], Phrase) and english_left(fill_names(said, NAMES)) == [], said
                seen_events += 1
            for seat in (None, *range(players)):
                view = game.view(seat)
                shown = [
                    game.view_text(view, NAMES, speaker=PSEUDO_SPEAKER),
                    game.alt_text(view, NAMES, speaker=PSEUDO_SPEAKER),
                    game.text_view(view, NAMES, speaker=PSEUDO_SPEAKER),
                    *game.read_board(view, speaker=PSEUDO_SPEAKER),
                ]
                for text in shown:
                    assert english_left(fill_names(text, NAMES)) == [], text
                assert len(shown[0]) <= 2000 and len(shown[1]) <= 256 and len(shown[2]) <= 1900
                seen_activation += bool(view["last_activation"])
    assert seen_events > 100 and seen_activation > 50


def test_the_events_log_lines_keep_their_data_and_read_in_italian():
    for _game, events in playout(2, 7, steps=80):
        for e in events:
            kept = json.loads(json.dumps(e["text"].to_json()))
            back = Phrase.from_json(kept)
            assert back == e["text"]  # the same English
            assert ITALIAN.say(back) == ITALIAN.say(e["text"])
            assert "{" not in ITALIAN.say(back)
    game = registry.get("everrain").new(2, {}, seed=3)
    (event,) = game.apply(game.to_act()[0], {"type": "nav", "move": "left"})[-1:]
    assert ITALIAN.say(event["text"]).startswith(
        f"La nave di {who(game.to_act()[0])} vira a sinistra, prua a "
    )


def test_a_game_saved_with_its_english_activation_text_reads_in_italian():
    """The state keeps the last activation's data (dice, target, damage) beside its English digest: the
    words are made from the data, so a game stored before the translation reads the same."""
    spec = registry.get("everrain")
    game = next(g for g, _ in playout(2, 4) if g.view(None)["last_activation"] and g.state["enemies"])
    state = json.loads(game.to_json())
    state_text = json.dumps(state)
    loaded = spec.from_json(state_text)
    la = loaded.view(None)["last_activation"]
    assert isinstance(la["text"], str) and not isinstance(la["text"], Phrase)  # English, as stored
    words = loaded.view_text(loaded.view(None), NAMES[:2], speaker=ITALIAN)
    last = next(line for line in words.splitlines() if line.startswith("Ultimo nemico: "))
    assert " ha tirato " in last and la["text"] not in last
    board = loaded.read_board(loaded.view(None), speaker=ITALIAN)
    assert any(line.startswith("Ultima attivazione nemica: ") and " ha tirato " in line for line in board)
