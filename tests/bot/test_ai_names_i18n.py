"""An AI seat's name in the reader's language wherever a seat is named (issue 21): the table's status line
("is thinking…"), the waiting refusal, the end summary, the key, /leaderboard; notes stored before their
reader is known keep the name as data; the stored name never changes. And the lobby's own words: its
options and its turn timer in the server's language."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from bot.ai_seats import joined_names, name_phrase, said_name
from bot.delivery.lobby import options_text, timer_words
from bot.delivery.table import TableMessage
from bot.delivery.words import said
from bot.games import registry, who
from bot.games.names import markdown_name
from bot.games.phrase import N_, Phrase
from bot.i18n import ENGLISH, PSEUDO, Speaker
from bot.rating_scale import Standing
from bot.storage import Leaderboard, SeatRow
from bot.storage.loglines import NOTE, stored
from bot.storage.loglines import read as loaded
from bot.summary import summary_text
from bot.tables import Table
from cogs.stats import leaderboard_text
from tests.hosting import game_row

ITALIAN, POLISH = Speaker("it"), Speaker("pl")


def ai_table(*, over: bool = False) -> Table:
    """Alice against a hard AI in Enemy Lines, the AI to act (or the game won by it)."""
    game = registry.get("enemy-lines").new(players=2, options={"quick-setup": True}, seed=3)
    row = game_row(status="finished" if over else "running", result={"winners": [1]} if over else None)
    seats = [
        SeatRow(game_id=1, seat=0, user_id=100, is_ai=False, name="Alice", dm_ok=True, missed=0),
        SeatRow(game_id=1, seat=1, user_id=None, is_ai=True, name="Nelson (AI, hard)", dm_ok=None, missed=0),
    ]
    return Table(row, seats, game)


def test_a_seats_name_is_said_in_the_readers_language_and_escaped_for_markdown():
    table = ai_table()
    assert table.shown_name(1, ITALIAN) == "Nelson (IA, difficile)"
    assert table.shown_name(1) == "Nelson (AI, hard)"  # English, as before
    assert table.names(POLISH) == ["Alice", "Nelson (SI, trudny)"]
    assert table.names() == ["Alice", "Nelson (AI, hard)"]
    assert said(table, f"{who(1)} fires.", ITALIAN) == "Nelson (IA, difficile) fires."  # a log line's name
    assert said_name("Ann (AI)", POLISH) == "Ann (SI)"  # a seat the AI took over, no level
    assert said_name("*Bold* (AI, easy)", ITALIAN) == "*Bold* (IA, facile)"
    assert name_phrase("*Bold* (AI, easy)", markdown=True) == markdown_name("*Bold* (AI, easy)")
    assert name_phrase("(AI)") == "(AI)"  # nothing but the tail: a name as typed


def test_the_status_line_says_the_ai_is_thinking_in_the_servers_language():
    table = ai_table()
    if table.engine.to_act() != [1]:  # the AI to act: a move of Alice's first
        table.engine.apply(0, table.engine.ai_action(0, random.Random(0)))
    assert table.engine.to_act() == [1]
    status = TableMessage.status_text(None, table, 1, POLISH)  # type: ignore[arg-type]
    assert status == "🟥 **Nelson (SI, trudny)** myśli…"


def test_a_refusal_made_before_its_reader_is_known_names_the_ai_in_each_readers_language():
    waiting = Phrase(
        N_("It is not your turn — waiting for {names}."),
        names=joined_names([name_phrase("Ann"), name_phrase("Nelson (AI, hard)")]),
    )
    assert str(waiting) == "It is not your turn — waiting for Ann, Nelson (AI, hard)."
    assert ITALIAN.say(waiting).endswith("Ann, Nelson (IA, difficile).")
    assert joined_names(["Ann", "Bob"]) == "Ann, Bob"  # no AI: the plain text
    note = Phrase(N_("{name} takes a seat."), name=name_phrase("Nelson (AI, easy)", markdown=True))
    kept = loaded(stored(note, NOTE))  # a lobby note or a log line keeps the name as data
    assert POLISH.say(kept) == "Nelson (SI, łatwy) zajmuje miejsce."
    assert ENGLISH.say(kept) == "Nelson (AI, easy) takes a seat."


def test_the_end_summary_names_the_winning_ai_in_the_readers_language():
    text = summary_text(ai_table(over=True), 12, 600, speaker=ITALIAN)
    assert "Nelson (IA, difficile)" in text and "(AI" not in text, text
    assert "Nelson (AI, hard)" in summary_text(ai_table(over=True), 12, 600)


def test_the_leaderboard_names_an_ai_in_the_readers_language():
    from bot.storage import RatingRow

    row = RatingRow(1, "enemy-lines", "ai:Nelson:hard", "Nelson (AI, hard)", 30.0, 2.0, 20, 15, 5, 0, 0.0)
    board = Leaderboard(rows=[(row, Standing(30.0, 2.0))], total=1, provisional=0)
    assert "1. Nelson (IA, difficile) — " in leaderboard_text("enemy-lines", board, 0, ITALIAN)
    assert "1. Nelson (AI, hard) — " in leaderboard_text("enemy-lines", board, 0)


def test_the_lobbys_options_and_turn_timer_in_the_servers_language():
    options = {"quick-setup": True, "harder-attack": False, "variant": "advanced", "length": 3}
    assert (
        options_text(options) == "`quick-setup`: yes, `harder-attack`: no, `variant`: advanced, `length`: 3"
    )
    assert options_text(options, POLISH) == (
        "`szybki-start`: tak, `harder-attack`: nie, `wariant`: zaawansowane, `długość`: 3"
    )
    assert options_text({}, POLISH) == "domyślne"
    assert [timer_words(s) for s in (0, None, 0.3, 45, 1800, 7200, 5400, 2 * 86400)] == [
        "none",
        "none",
        "0.3 s",
        "45 s",
        "30 min",
        "2 h",
        "1h 30m",
        "48 h",
    ]
    assert timer_words(7200, POLISH) == "2 godz."


@given(st.integers(min_value=30, max_value=30 * 86400))
def test_a_turn_timer_in_the_pseudo_locale_has_no_english_letters(seconds):
    shown = timer_words(seconds, Speaker(PSEUDO))
    assert shown and not any(c in "hdmins" for c in shown), shown


def test_the_history_list_names_an_ai_in_the_readers_language():
    from bot.history import entry_line
    from bot.storage import HistoryEntry

    entry = HistoryEntry(
        7,
        "enemy-lines",
        1,
        2,
        None,
        "finished",
        9,
        0.0,
        {"winners": [1]},
        ("Ann", "Nelson (AI, easy)"),
        (5, None),
    )
    assert "Ann, Nelson (SI, łatwy)" in entry_line(entry, POLISH)
    assert "Ann, Nelson (AI, easy)" in entry_line(entry)
