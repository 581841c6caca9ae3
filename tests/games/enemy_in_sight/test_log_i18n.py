"""Enemy in Sight's log lines, refusals, menu paths, text board and final reveal in the reader's
language (issue 21): every event's text is a message (a Phrase) that the state's log keeps as plain
JSON data; said in Polish or the pseudo-locale, along whole playouts of both variants, no English is
left and Discord's limits hold."""

from __future__ import annotations

import json
import marshal
import random
import re

from bot.games import registry
from bot.games.enemy_in_sight import data
from bot.games.enemy_in_sight.terms import SEMICOLONS, listed, logged
from bot.games.phrase import N_, Phrase
from bot.i18n import PSEUDO, Speaker
from tests.e2e.test_i18n_e2e import english_left

POLISH, PSEUDO_SPEAKER = Speaker("pl"), Speaker(PSEUDO)
NAMES = ["Ann", "Bob", "Cid"]
# the values a text holds as they are: ship names, nations' codes (GB 1), the players' names
VALUES = [*(s["name"] for s in data.ship_list()), *data.nations(), *NAMES, "Enemy in Sight"]


def playout(variant: str, seed: int, players: int = 3, moves: int = 400):
    """(game, seat, action, events) along a playout of the AI's choices."""
    game = registry.get("enemy-in-sight").new(players, {"variant": variant}, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if game.is_over:
            return
        seat = game.to_act()[0]
        action = game.ai_action(seat, rng)
        events = game.apply(seat, action)
        yield game, seat, action, events


def test_every_log_line_is_a_message_said_in_polish_and_the_pseudo_locale():
    kinds = set()
    for variant, seed in (("base", 21), ("advanced", 22)):
        for game, _seat, _action, events in playout(variant, seed):
            for event in events:
                text = event.get("text")
                if not text:
                    continue
                kinds.add(event["type"])
                assert isinstance(text, Phrase), event
                polish = POLISH.say(text)
                assert "{" not in polish and polish != str(text), (text.msgid, polish)
                assert english_left(PSEUDO_SPEAKER.say(text), VALUES) == [], (event, PSEUDO_SPEAKER.say(text))
            # the state's log is plain JSON (marshal copies it at every move): its lines are data
            marshal.dumps(game.state)
            assert all(isinstance(line, (dict, str)) for line in game.state["log"])
    assert {"draw", "shot", "discard", "score", "red"} <= kinds, kinds
    assert {"arranged", "reveal", "revise"} & kinds, kinds


def test_a_log_line_stored_in_json_is_said_again_in_the_readers_language():
    game, _seat, _action, events = next(
        (g, s, a, e) for g, s, a, e in playout("base", 5) if any(x["type"] == "draw" for x in e)
    )
    line = json.loads(json.dumps(game.state["log"]))[-1]
    assert isinstance(line, dict) and "msgid" in line
    assert POLISH.say(logged(line)) == POLISH.say(Phrase.from_json(line))
    assert logged("an old game's line, kept as text") == "an old game's line, kept as text"
    drawn = next(e for e in events if e["type"] == "draw")
    assert re.fullmatch(r"⟨\d⟩ dobiera \d+ kart[ęy]?\.", POLISH.say(drawn["text"])), POLISH.say(drawn["text"])


def test_the_views_last_events_stay_plain_json_for_the_ai_and_the_pictures():
    for game, seat, _action, _events in playout("advanced", 8, moves=60):
        view = game.view(seat)
        marshal.dumps(view)  # the AI's resample copies a view with marshal
        world = type(game).resample(view, seat, random.Random(1))
        assert world.view(seat) == view


def _board_words(text: str) -> str:
    """The text board without its ships' marks (S struck, B breaking the Line, F on fire) and bars."""
    return re.sub(r" [SBF]{1,3}$", "", text, flags=re.M)


def test_menu_paths_and_the_text_board_in_the_pseudo_locale_along_playouts():
    speaker = PSEUDO_SPEAKER
    for variant, seed in (("base", 31), ("advanced", 32)):
        for game, _seat, _action, _events in playout(variant, seed, moves=150):
            for seat in game.to_act():
                for steps, path in game.menu_entries(seat, speaker=speaker):
                    assert steps
                    for step in path:
                        for text in step[1:]:
                            assert 0 < len(text) <= 100, step
                            assert english_left(text, VALUES) == [], (steps, step)
                board = game.text_view(game.view(seat), NAMES, speaker=speaker)
                assert len(board) <= 2000
                assert english_left(_board_words(board), VALUES) == [], board
            board = game.text_view(game.view(None), NAMES, speaker=speaker)
            assert english_left(_board_words(board), VALUES) == [], board


def test_the_menu_keys_are_the_same_in_every_language():
    """A click finds its move by the keys of the path: they may not depend on the reader's language."""
    for game, _seat, _action, _events in playout("advanced", 41, moves=80):
        for seat in game.to_act():
            english = [[s[0] for s in path] for _steps, path in game.menu_entries(seat)]
            polish = [[s[0] for s in path] for _steps, path in game.menu_entries(seat, speaker=POLISH)]
            assert english == polish


def test_the_final_reveal_and_the_refusals_in_polish():
    last = [game for game, *_ in playout("base", 3, players=2, moves=5000)][-1]
    assert last.is_over
    final = last.final_reveal()
    for line in final["reveal"]:
        assert POLISH.say(line).startswith("Ręka gracza ⟨"), POLISH.say(line)
    assert POLISH.say(final["reveal_short"]).startswith("Karty na ręce (wymienione w dzienniku): ⟨0⟩")
    assert str(final["reveal_short"]).startswith("Cards left in hand (named in the log): ⟨0⟩")

    game = registry.get("enemy-in-sight").new(2, {}, seed=4)
    seat = game.to_act()[0]
    discard = next(a for a in game.legal_actions(seat) if a["type"] == "discard" and "ships" not in a)
    after = type(game).from_json(game.to_json())
    events = after.apply(seat, discard)
    why = after.undo_veto(game, seat, discard, events)  # the game's own refusal: a card left a hand
    assert isinstance(why, Phrase)
    assert POLISH.say(why) != str(why) and "{" not in POLISH.say(why), why


def test_a_rounds_score_lists_its_parts_as_before_and_in_polish():
    parts = [
        Phrase.ngettext("{n} sunk ship {vp}", "{n} sunk ships {vp}", 2, vp=30),
        Phrase(N_("prize {ship} {vp}"), ship="Victory", vp=12),
        Phrase(N_("no ship in Line -{vp}"), vp=15),
    ]
    line = Phrase(
        N_("{seat} scores {vp} VP ({parts}); total {total}."),
        seat="⟨0⟩",
        vp="+27",
        parts=listed(parts, SEMICOLONS),
        total=27,
    )
    assert (
        str(line) == "⟨0⟩ scores +27 VP (2 sunk ships 30; prize Victory 12; no ship in Line -15); total 27."
    )
    assert POLISH.say(line) == (
        "⟨0⟩ zdobywa +27 PZ (2 zatopione okręty 30; pryz Victory 12; brak okrętu w Linii -15); razem 27."
    )
    assert listed([]) == "" and listed(["Victory"]) == "Victory"
