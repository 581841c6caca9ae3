"""bot.games.phrase: a Phrase reads as its English, survives JSON with its id and parameters, and is said
in the reader's language with the Phrases inside it."""

from __future__ import annotations

import json

from bot.games.phrase import N_, Phrase
from bot.i18n import PSEUDO, Speaker, pseudo


def test_phrase_reads_as_its_english():
    assert Phrase(N_("{name} joined."), name="Bob") == "Bob joined."
    assert Phrase.ngettext("{n} ship", "{n} ships", 1) == "1 ship"
    assert Phrase.ngettext("{n} ship", "{n} ships", 3) == "3 ships"


def test_phrase_json_round_trip_keeps_id_parameters_and_nesting():
    inner = Phrase.ngettext("{n} ship", "{n} ships", 2)
    outer = Phrase("{who} lost {what}.", who="Alice", what=inner)
    again = Phrase.from_json(json.loads(json.dumps(outer.to_json())))
    assert again == outer == "Alice lost 2 ships."
    assert again.msgid == "{who} lost {what}." and again.params["who"] == "Alice"
    nested = again.params["what"]
    assert isinstance(nested, Phrase) and (nested.msgid, nested.plural, nested.n) == (
        "{n} ship",
        "{n} ships",
        2,
    )


def test_speaker_says_nested_phrases_in_its_language():
    outer = Phrase("{who} lost {what}.", who="Alice", what=Phrase.ngettext("{n} ship", "{n} ships", 2))
    said = Speaker(PSEUDO).say(outer)
    assert said == pseudo("{who} lost {what}.").format(who="Alice", what=pseudo("{n} ships").format(n=2))
    assert Speaker("en").say(outer) == "Alice lost 2 ships."


def test_english_voice_is_the_source_filled_in():
    from bot.games.phrase import ENGLISH

    assert ENGLISH.gettext("{name} joined.", name="Bob") == "Bob joined."
    assert ENGLISH.ngettext("{n} ship", "{n} ships", 2) == "2 ships"
    assert ENGLISH.say(Phrase("{name} joined.", name="Bob")) == "Bob joined."
    assert type(ENGLISH.say(Phrase("x"))) is str
