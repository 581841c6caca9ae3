"""The small texts of issue 21's last slice in the reader's language: an export's refusal reasons
(``replay.read_export``), where an imported game came from (``imports.origin_text``), why a game
cannot be played (``GameUnavailable``, its reason a Phrase inside a Phrase), and a clock's durations
(the seat lines' "2d 4h", **Give more time**'s buttons, a time bank's refusal), and the seat colours
of /game rules' Key."""

from __future__ import annotations

import json
import re

import pytest

from bot import imports, replay
from bot.ai_seats import said_name
from bot.clock_ui import clock_words, more_time_view
from bot.clocks import DAY, Clock, bank_problem, duration_phrase, new_clock, short_duration
from bot.delivery.words import rules_key
from bot.games import registry
from bot.games.phrase import Phrase
from bot.i18n import PSEUDO, Speaker
from bot.storage import GameRow
from bot.tables import GameUnavailable

ITALIAN = Speaker("it")
POLISH = Speaker("pl")
GOOD = {
    "format": replay.FORMAT,
    "version": replay.FORMAT_VERSION,
    "game": "warships",
    "players": ["alice", "bob"],
    "options": {},
    "seed": 7,
    "actions": [],
}
BAD_EXPORTS = [
    ("{", "non è un file JSON (riga 1, colonna 2)"),
    (b"\x80{}", "non è un file JSON (il testo non è UTF-8)"),
    (json.dumps({**GOOD, "format": "chess"}), "non è un'esportazione di partita di Admiralty"),
    (json.dumps({**GOOD, "version": 99}), "versione del formato di esportazione 99"),
    (json.dumps({**GOOD, "game": "chess"}), "gioco sconosciuto 'chess'"),
    (json.dumps({**GOOD, "players": ["solo"]}), '"players" deve contenere da 2 a 2 nomi'),
    (json.dumps({**GOOD, "seed": "1"}), '"options" deve essere un oggetto e "seed" un numero intero'),
    (json.dumps({**GOOD, "actions": {}}), '"actions" deve essere una lista di {"seat": n, "action": {...}}'),
    (json.dumps({**GOOD, "actions": [{"seat": "0"}]}), 'azione 1: atteso {"seat": n, "action": {...}}'),
]


def _refusal(data: str | bytes) -> Phrase:
    with pytest.raises(replay.ReplayError) as caught:
        replay.read_export(data)
    (reason,) = caught.value.args
    assert isinstance(reason, Phrase), reason
    return reason


@pytest.mark.parametrize(("data", "italian"), BAD_EXPORTS)
def test_each_export_refusal_is_a_phrase_said_in_the_readers_language(data, italian):
    reason = _refusal(data)
    assert italian in ITALIAN.say(reason)
    # inside the import's refusal, as the person reads it
    with pytest.raises(imports.ImportRefused) as caught:
        imports.check(data if isinstance(data, bytes) else data.encode())
    said = ITALIAN.say(caught.value.args[0])
    assert said.startswith("Non è un'esportazione di partita che so leggere: ") and italian in said


def test_export_refusals_keep_their_english():
    assert str(_refusal(json.dumps({**GOOD, "game": "chess"}))) == "unknown game 'chess'"
    assert str(_refusal(json.dumps({**GOOD, "players": ["solo"]}))) == '"players" must be 2–2 names'


def test_no_export_refusal_keeps_untransformed_english_in_the_pseudo_locale():
    pseudo = Speaker(PSEUDO)
    for data, _ in BAD_EXPORTS:
        reason = _refusal(data)
        said = pseudo.say(reason)
        assert said != str(reason)
        # the sentence's own words are transformed; only its placeholders' values (from the file) stay
        english = set(re.findall(r"[A-Za-z]{3,}", re.sub(r"\{\w+\}", "", reason.msgid)))
        for value in reason.params.values():
            said = said.replace(str(value), "")
        assert english and not english & set(re.findall(r"[A-Za-z]{3,}", said)), said


def test_an_imports_origin_reads_in_the_readers_language():
    mark = {"origin": {"app": "Admiralty", "server": "Fake Guild"}, "id": 12}
    assert imports.origin_text(mark) == "Admiralty on Fake Guild, game #12"
    assert imports.origin_text(mark, POLISH) == "Admiralty na serwerze Fake Guild, gra #12"
    assert imports.origin_text(mark, ITALIAN) == "Admiralty sul server Fake Guild, partita #12"
    assert imports.origin_text({"origin": {"server": "Fake Guild"}}, ITALIAN) == "il server Fake Guild"
    assert imports.origin_text({"origin": {"app": "Admiralty"}}, POLISH) == "Admiralty"
    assert imports.origin_text({"origin": {}, "id": 3}, POLISH) == "gra #3"
    assert imports.origin_text({"origin": {}}, POLISH) == ""
    assert imports.origin_text(None, POLISH) == ""


def _row(status: str) -> GameRow:
    fields = {name: None for name in GameRow.__dataclass_fields__}
    return GameRow(**{**fields, "id": 5, "status": status, "game_key": "no-such-game"})


def test_a_game_that_cannot_be_played_says_why_in_the_readers_language():
    reason = Phrase("this bot no longer has its game type ({key})", key="'no-such-game'")
    running = GameUnavailable(_row("running"), reason)
    assert str(running.args[0]).startswith("Game #5 cannot be played: this bot no longer has its game type")
    assert ITALIAN.say(running.args[0]) == (
        "La partita #5 non si può giocare: questo bot non ha più il suo tipo di gioco ('no-such-game'). "
        "L'host o chi ha il permesso Gestisci server può chiuderla con `/game abandon`."
    )
    over = GameUnavailable(_row("finished"), Phrase("its saved state cannot be read"))
    assert POLISH.say(over.args[0]) == "Gra #5 jest zakończona, a jej zapisanego stanu nie da się odczytać."


def test_a_clocks_durations_read_in_the_readers_language():
    assert [short_duration(s, ITALIAN) for s in (2 * DAY + 4 * 3600, 3 * DAY, 5 * 3600 + 600, 3600, 59)] == [
        "2 g 4 h",
        "3 g",
        "5 h 10 min",
        "1 h",
        "0 min",
    ]
    assert short_duration(2 * DAY + 4 * 3600) == "2d 4h"  # English, as before
    # stored in a log line as data: each reader reads it in their own language
    given = Phrase.from_json(duration_phrase(DAY).to_json())
    assert (str(given), POLISH.say(given), Speaker("de").say(given)) == ("1d", "1 d", "1 T")


def test_a_seats_clock_and_the_more_time_buttons_in_the_readers_language():
    clock = Clock.from_json(new_clock(None, (2 * DAY + 4 * 3600, 0)))
    assert clock is not None
    assert clock_words(clock, 0, 0.0, Speaker("de")) == " · ⏳ 2 T 4 Std."
    labels = [b.label for b in more_time_view(1, 0, ITALIAN).children]
    assert labels == ["+1 h", "+12 h", "+1 g", "+3 g"]


def test_a_time_bank_refusal_in_the_readers_language():
    problem = bank_problem(60.0, 0.0, 3600.0, 30 * DAY)
    assert problem is not None and str(problem) == "The bank must be from 1h to 30d, e.g. 3d."
    assert ITALIAN.say(problem) == "La riserva di tempo deve essere da 1 h a 30 g, ad es. 3d."
    wrong_increment = bank_problem(DAY, 2 * DAY, 3600.0, 30 * DAY)
    assert wrong_increment is not None
    assert POLISH.say(wrong_increment) == "Dodatek musi wynosić od 0 do wielkości puli, np. 1d."


@pytest.mark.parametrize("key", sorted(registry.keys()))
def test_the_rules_key_names_the_seat_colours_in_the_readers_language(key):
    spec = registry.get(key)
    italian = rules_key(spec, ITALIAN)
    assert "🔵 **Blu** — " in italian and "🟥 **Rosso** — " in italian
    pseudo = rules_key(spec, Speaker(PSEUDO))
    assert not re.search(r"\b(Blue|Red|Green|Yellow|Pink|Sky)\b", italian + pseudo)
    assert "🔵 **Blue** — " in rules_key(spec)  # English, as before


def test_an_ai_seats_level_reads_in_the_readers_language_and_its_stored_name_stays():
    assert said_name("Nelson (AI, hard)", ITALIAN) == "Nelson (IA, difficile)"
    assert said_name("Nelson (AI, easy)", POLISH) == "Nelson (SI, łatwy)"
    assert said_name("Nelson (AI, hard)") == "Nelson (AI, hard)"
    assert said_name("Ann (AI)", ITALIAN) == "Ann (IA)"  # no level: a seat the AI took over
    assert said_name("Ann", ITALIAN) == "Ann"
    pseudo = said_name("Nelson (AI, normal)", Speaker(PSEUDO))
    assert pseudo.startswith("Nelson ") and "normal" not in pseudo
