"""Ratings as people read them, on a real database (SQLite and PostgreSQL): the leaderboard of settled
players (provisional ones counted, not ranked; an idle player's rating rusting off it), the rest a
rating takes into a game, the rating changes a finished game's publish loads with it, the lobby's
standings, and /stats' record: pace (the median turn) and reliability (finished, timed out,
resigned) in one query."""

from __future__ import annotations

import json
import time

import pytest

from bot import rating_scale
from bot.rating_scale import DAY, PROVISIONAL_SIGMA, Standing
from bot.ratings import MU, SIGMA, outcome

GUILD = 1


async def _game(store, seats, *, guild=GUILD, channel=10, key="enemy-lines", status="finished", result=None):
    gid = await store.create_game(
        guild_id=guild, channel_id=channel, game_key=key, options={}, seed=1, host_id=seats[0][0]
    )
    for user_id, name in seats:
        await store.add_seat(gid, user_id=user_id, is_ai=user_id is None, name=name)
    await store.start_game(gid, json.dumps({"players": len(seats)}))
    if status != "running":
        await store.set_status(gid, status, result=result if result is not None else {"winners": [0]})
    return gid


async def _rated(store, winner, loser, channel=10):
    gid = await _game(store, [winner, loser], channel=channel)
    assert await store.record_rating(gid, outcome([winner, loser], {"winners": [0]}))
    return gid


async def _set(sql, player, *, mu, sigma, updated_at):
    await sql(
        "UPDATE ratings SET mu = ?, sigma = ?, updated_at = ? WHERE player = ?", mu, sigma, updated_at, player
    )


async def test_leaderboard_ranks_settled_players_and_counts_provisional_ones(store, sql):
    now = time.time()
    for i in range(4):
        await _rated(store, (100 + i, f"W{i}"), (200 + i, f"L{i}"), channel=10 + i)
    # three settled players (sigma 3), one just under the line, the rest newcomers
    await _set(sql, "100", mu=30.0, sigma=3.0, updated_at=now)
    await _set(sql, "101", mu=35.0, sigma=3.0, updated_at=now)
    await _set(sql, "200", mu=28.0, sigma=3.0, updated_at=now)
    await _set(sql, "201", mu=40.0, sigma=PROVISIONAL_SIGMA - 0.01, updated_at=now)
    board = await store.leaderboard(GUILD, "enemy-lines", 0, 10, now=now)
    assert [r.player for r, _ in board.rows] == ["101", "201", "100", "200"]
    assert (board.total, board.provisional) == (4, 4)
    assert [s.points for _, s in board.rows] == sorted((s.points for _, s in board.rows), reverse=True)
    assert all(not s.provisional and str(s) == str(s.points) for _, s in board.rows)
    page = await store.leaderboard(GUILD, "enemy-lines", 2, 2, now=now)
    assert [r.player for r, _ in page.rows] == ["100", "200"] and page.total == 4

    # a month later, the player who had just settled has rusted back to provisional: off the board
    later = await store.leaderboard(GUILD, "enemy-lines", 0, 10, now=now + 30 * DAY)
    assert [r.player for r, _ in later.rows] == ["101", "100", "200"] and later.provisional == 5
    # the others read lower: the same mu, a wider sigma
    before = {r.player: s.points for r, s in board.rows}
    assert all(s.points < before[r.player] for r, s in later.rows)


async def test_an_ai_does_not_rust(store, sql):
    gid = await _game(store, [(11, "Ann"), (None, "Nelson (AI)")], result={"winners": [1]})
    assert await store.record_rating(gid, outcome([(11, "Ann"), (None, "Nelson (AI)")], {"winners": [1]}))
    long_ago = time.time() - 3 * 365 * DAY
    await _set(sql, "ai:Nelson:normal", mu=30.0, sigma=2.0, updated_at=long_ago)
    await _set(sql, "11", mu=30.0, sigma=2.0, updated_at=long_ago)
    board = await store.leaderboard(GUILD, "enemy-lines")
    assert [(r.player, s.sigma) for r, s in board.rows] == [("ai:Nelson:normal", 2.0)]
    assert board.provisional == 1  # Ann has been away three years: a newcomer's uncertainty again
    [ann] = await store.player_stats(GUILD, "11")
    assert ann.standing(time.time()).sigma == SIGMA


async def test_a_rating_rests_before_the_game_is_rated(store, sql, raw_sql):
    """Rated after a long rest, the update starts from the sigma grown since the player's last game (as
    the rating read then showed it), and the event records that as the "before"."""
    await _rated(store, (11, "Ann"), (12, "Bob"))
    away = 200 * DAY
    last = time.time() - away
    await _set(sql, "11", mu=30.0, sigma=3.0, updated_at=last)
    gid = await _rated(store, (11, "Ann"), (13, "Cid"), channel=11)
    [(mu0, s0)] = await sql(
        "SELECT mu_before, sigma_before FROM rating_events WHERE game_id = ? AND player = '11'", gid
    )
    finished = (await store.get_game(gid)).finished_at
    assert mu0 == 30.0 and s0 == pytest.approx(rating_scale.rested(3.0, finished - last))
    assert 3.0 < s0 < SIGMA


def same(a, b) -> bool:
    """The same changes (SQLite's JSON keeps 15 significant digits of a number)."""
    flat = [
        [
            c.seat,
            c.player,
            str(c.before),
            str(c.after),
            pytest.approx([c.before.mu, c.before.sigma, c.after.mu, c.after.sigma]),
        ]
        for c in b
    ]
    return [
        [
            c.seat,
            c.player,
            str(c.before),
            str(c.after),
            [c.before.mu, c.before.sigma, c.after.mu, c.after.sigma],
        ]
        for c in a
    ] == flat


async def test_rating_changes_come_with_the_finished_games_publish_load(store):
    gid = await _rated(store, (11, "Ann"), (12, "Bob"))
    changes = await store.rating_changes(gid)
    assert [(c.seat, c.player) for c in changes] == [(0, "11"), (1, "12")]
    ann, bob = changes
    assert ann.before == bob.before == Standing(MU, SIGMA) and str(ann.before) == "1500?"
    assert ann.after.points > 1500 > bob.after.points
    for load in (store.load_table_view, store.load_table_log):
        row, *_ = await load(gid, 3)
        assert same(row.rated, changes)
    running = await _game(store, [(11, "Ann"), (12, "Bob")], status="running", channel=12)
    row, *_ = await store.load_table_view(running, 3)
    assert row.rated is None  # not finished
    assert await store.rating_changes(running) == ()
    plain, _ = await store.load_table(gid)
    assert plain.rated is None  # not read by a plain load


async def test_standings_of_the_seated_players(store):
    await _rated(store, (11, "Ann"), (12, "Bob"))
    known = await store.standings(GUILD, "enemy-lines", ["11", "12", "99", "ai:Nelson"])
    assert set(known) == {"11", "12"}
    assert await store.standings(GUILD, "warships", ["11"]) == {}
    assert await store.standings(GUILD + 1, "enemy-lines", ["11"]) == {}
    assert await store.standings(GUILD, "enemy-lines", []) == {}


async def _act(sql, gid, seq, seat, at, action=None):
    await sql(
        "INSERT INTO actions (game_id, seq, seat, action, created_at) VALUES (?, ?, ?, ?, ?)",
        gid,
        seq,
        seat,
        json.dumps(action or {"move": seq}),
        at,
    )


async def _note(sql, gid, version, text):
    await sql("INSERT INTO log (game_id, version, seat, text) VALUES (?, ?, NULL, ?)", gid, version, text)


async def test_player_record_pace_and_reliability(store, sql):
    ann, bob = 11, 12
    gid = await _game(store, [(ann, "Ann"), (bob, "Bob")], status="running")
    await sql("UPDATE games SET started_at = 1000 WHERE id = ?", gid)
    await _act(sql, gid, 1, 0, 1010)  # Ann: 10 s from the start
    await _act(sql, gid, 2, 1, 1040)  # Bob: 30 s
    await _act(sql, gid, 3, 0, 1100)  # Ann's next turn is two moves: 1040 -> 1105, 65 s
    await _act(sql, gid, 4, 0, 1105)
    await _act(sql, gid, 5, 1, 1200)  # Bob: 95 s
    await _act(sql, gid, 6, 0, 1230)  # Ann ran out of time: 30 s, counted, and a timed-out turn
    await _note(sql, gid, 6, "Ann ran out of time; a move was made for them (1/3 missed turns).")
    await _note(sql, gid, 5, "ran out of time; a move was made for them ( took their seat back")  # Bob's
    await _act(sql, gid, 7, 0, 1300, {"host": "resign"})
    await _act(sql, gid, 8, 0, 1301)  # the AI that took Ann's seat: not her pace
    await store.set_status(gid, "finished", result={"winners": [1], "resigned": [0]})
    assert await store.record_rating(
        gid, outcome([(ann, "Ann"), (bob, "Bob")], {"winners": [1]}, resigned=[0])
    )

    record = await store.player_record(GUILD, ann)
    assert (record.turns, record.median_turn) == (3, 30.0)
    assert (record.finished, record.timed_out, record.resigned) == (1, 1, 1)
    assert [r.player for r in record.ratings] == [str(ann)]
    record = await store.player_record(GUILD, bob)
    assert (record.turns, record.median_turn) == (2, 62.5)  # an even count: the mean of the middle two
    assert (record.finished, record.timed_out, record.resigned) == (1, 1, 0)

    # a second game of Ann's, still running, and one in another server: only the first counts there
    other = await _game(store, [(bob, "Bob"), (ann, "Ann")], status="running", channel=20)
    await sql("UPDATE games SET started_at = 2000 WHERE id = ?", other)
    await _act(sql, other, 1, 0, 2005)
    await _act(sql, other, 2, 1, 2405)  # Ann: 400 s
    await _note(sql, other, 2, "Ann missed 3 turns in a row; an AI takes over their seat.")
    await _act(sql, other, 3, 0, 2410)
    await _act(sql, other, 4, 1, 2411)  # the AI in Ann's seat: not her pace
    elsewhere = await _game(
        store, [(ann, "Ann"), (bob, "Bob")], guild=GUILD + 1, status="running", channel=30
    )
    await _act(sql, elsewhere, 1, 0, 9999999)
    record = await store.player_record(GUILD, ann)
    assert (record.turns, record.median_turn) == (4, 47.5)
    assert (record.finished, record.timed_out, record.resigned) == (1, 2, 1)
    assert (await store.player_record(GUILD, ann, "warships")).turns == 0


async def test_player_record_of_a_newcomer(store):
    record = await store.player_record(GUILD, 4242)
    assert record.ratings == [] and record.median_turn is None
    assert (record.turns, record.finished, record.timed_out, record.resigned) == (0, 0, 0, 0)
