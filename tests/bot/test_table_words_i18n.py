"""The table's words in a reader's language (issue 21): the Key's badge lines name each seat's colour
and shape as the picture draws them; a log line keeps a Phrase as data and reads back in any language
(plain English lines of older games as they are); a game's text function gets the reader's speaker
(none for an English reader)."""

from __future__ import annotations

from bot import layout
from bot.games.phrase import N_, Phrase
from bot.i18n import ENGLISH, Speaker
from bot.menus import in_language
from bot.storage.loglines import EVENT, stored
from bot.storage.loglines import read as loaded
from bot.summary import duration_text
from rendering.theme import SEAT_SHAPES

POLISH = Speaker("pl")


def test_each_badge_line_names_the_seats_colour_and_its_badges_shape():
    for seat, line in enumerate(layout.BADGE_LINES):
        colour, _ = layout.MARK_WORDS[layout.seat_mark(seat)]
        assert f"the {colour} {SEAT_SHAPES[seat]} on the board" in line
    assert layout.seat_key(["Ann", "Bob"], POLISH).splitlines() == [
        "🔵 **Ann** — niebieskie koło na planszy",
        "🟥 **Bob** — czerwony kwadrat na planszy",
    ]


def test_a_log_line_keeps_its_phrase_and_reads_in_the_readers_language():
    line = Phrase(N_("{game} begins."), game=Phrase("Warships"))
    kept = stored(line, EVENT)
    assert kept.startswith('{"kind":"event","msgid"') and "Warships" in kept
    back = loaded(kept)
    assert back == "Warships begins." and isinstance(back, Phrase)
    assert POLISH.say(back) == "Manewry Morskie — początek gry."
    assert loaded(stored("Alice resigned.")) == "Alice resigned."  # an older, English line
    assert loaded('{"kind": broken') == '{"kind": broken'  # shown as stored, never an error


def test_a_games_text_function_gets_the_speaker_for_any_reader_but_an_english_one():
    def translated(view, names, *, speaker=ENGLISH):
        return speaker.gettext("Key")

    def english_only(view, names):  # a test's stand-in: spoken to in English only
        return "Key"

    assert translated({}, [], **in_language(POLISH)) == "Legenda"
    assert translated({}, [], **in_language(Speaker("en-GB"))) == "Key"
    assert english_only({}, [], **in_language(ENGLISH)) == "Key"


def test_durations_in_german_and_english():
    assert duration_text(3720) == "1 h 02 min"
    assert duration_text(3720, Speaker("de")) == "1 Std. 02 Min."
