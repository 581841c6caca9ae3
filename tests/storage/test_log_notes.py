"""The host's notes on the table's log are stored as data (a kind, a message id and its parameters), not
English (issue 21): read back as a Phrase each reader gets in their language, found by their kind by
/stats' query, while rows stored before as English are still read and counted. On both backends."""

from __future__ import annotations

from bot.i18n import N_, Phrase, Speaker
from bot.storage import loglines
from tests.storage.test_rating_standing import GUILD, _act, _game, _note

RAN_OUT = N_("{name} ran out of time; a move was made for them ({missed}/{limit} missed turns).")
TAKEN = N_("{name} missed {n} turns in a row; an AI takes over their seat.")


async def test_a_note_is_stored_as_its_kind_and_data_and_read_in_each_readers_language(store, sql):
    gid = await _game(store, [(11, "Ann"), (12, "Bob")], status="running")
    note = Phrase(RAN_OUT, name="Ann", missed=1, limit=3)
    await store.add_log(gid, note, kind=loglines.TIMED_OUT)
    await store.add_log(gid, "an old line, in English")
    rows = await sql("SELECT text FROM log WHERE game_id = ? ORDER BY id", gid)
    stored = [r[0] for r in rows]
    assert stored[0].startswith('{"kind":"timed_out",') and "Ann" in stored[0]
    assert "ran out of time;" in stored[0]  # the message id, not a finished sentence: no "1/3" glued
    assert "1/3" not in stored[0]

    lines = await store.recent_log(gid)
    assert lines == [note, "an old line, in English"]
    assert isinstance(lines[0], Phrase) and lines[0].params == {"name": "Ann", "missed": 1, "limit": 3}
    assert lines[0] == "Ann ran out of time; a move was made for them (1/3 missed turns)."
    polish = Speaker("pl").say(lines[0])
    assert "Ann" in polish and "1/3" in polish and "ran out" not in polish
    _row, _seats, log = await store.load_table_log(gid, 5)
    assert log == lines and isinstance(log[0], Phrase)


def test_a_line_that_only_looks_like_data_is_read_as_text():
    assert loglines.read('{"kind": broken') == '{"kind": broken'
    assert not isinstance(loglines.read("Ann ran out of time."), Phrase)
    assert loglines.stored("plain") == "plain"


async def test_stats_count_timed_out_turns_by_kind_and_old_english_rows_too(store, sql):
    ann, bob = 11, 12
    gid = await _game(store, [(ann, "Ann"), (bob, "Bob")], status="running")
    await sql("UPDATE games SET started_at = 1000 WHERE id = ?", gid)
    await _act(sql, gid, 1, 0, 1010)
    await _act(sql, gid, 2, 1, 1040)
    await _act(sql, gid, 3, 0, 1100)  # Ann's turn ran out (a note as data)
    await _note(
        sql, gid, 3, loglines.stored(Phrase(RAN_OUT, name="Ann", missed=1, limit=3), loglines.TIMED_OUT)
    )
    await _act(sql, gid, 4, 1, 1200)  # Bob's ran out (an English row of before)
    await _note(sql, gid, 4, "Bob ran out of time; a move was made for them (1/3 missed turns).")
    await _act(sql, gid, 5, 0, 1300)  # Ann's again: the AI takes her seat (data)
    await _note(sql, gid, 5, loglines.stored(Phrase(TAKEN, name="Ann", n=3), loglines.TAKEN_OVER))
    await _act(sql, gid, 6, 0, 1301)  # the AI in Ann's seat: not her pace
    # a note of another kind, and a player whose name is a note's words, count for nobody
    await _note(sql, gid, 6, loglines.stored(Phrase(N_("{name} resumed the game."), name="ran out of time")))
    record = await store.player_record(GUILD, ann)
    assert record.timed_out == 2
    assert record.turns == 3  # 10 s, 60 s, 100 s: the AI's move after the takeover is not hers
    assert record.median_turn == 60.0
    assert (await store.player_record(GUILD, bob)).timed_out == 1


async def test_the_record_of_a_long_game_is_read_without_a_pass_per_turn(store, sql, backend, db_target):
    """Where each seat's turns stop counting (a resignation, an AI taking over) is read once for the
    query, not once per turn: 800 moves are read in well under Discord's 3 s to answer /stats (a
    subquery per turn took 45 s)."""
    import sqlite3
    import time

    if backend != "sqlite":
        import pytest

        pytest.skip("the rows are written straight into the SQLite file")
    gid = await _game(store, [(11, "Ann"), (12, "Bob")], status="running")
    with sqlite3.connect(db_target) as con:
        con.executemany(
            "INSERT INTO actions (game_id, seq, seat, action, created_at) VALUES (?, ?, ?, '{}', ?)",
            [(gid, n, n % 2, 1000 + n) for n in range(1, 801)],
        )
        con.executemany(
            "INSERT INTO log (game_id, version, seat, text) VALUES (?, ?, NULL, ?)",
            [(gid, n, f"line {n}") for n in range(1, 801)],
        )
        con.execute(
            "INSERT INTO log (game_id, version, seat, text) VALUES (?, 401, NULL, ?)",
            (gid, loglines.stored(Phrase(TAKEN, name="Bob", n=3), loglines.TAKEN_OVER)),
        )
    started = time.perf_counter()
    ann = await store.player_record(GUILD, 11)
    bob = await store.player_record(GUILD, 12)
    assert time.perf_counter() - started < 2.0
    assert (ann.turns, ann.median_turn, ann.timed_out) == (400, 1.0, 0)
    assert (bob.turns, bob.timed_out) == (201, 1)  # his moves after the AI took over (from 401) are not his
