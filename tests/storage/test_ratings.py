"""Ratings on a real database (SQLite and PostgreSQL): record_rating in one transaction, rated once,
abandoned games never, player_stats, leaderboard pages and last_games."""

from __future__ import annotations

import json

import pytest

from bot import ratings
from bot.ratings import Place, outcome
from bot.storage import NoSuchGame


async def _finished(store, seats, result, *, guild_id=1, channel_id=10, status="finished", coop=False):
    gid = await store.create_game(
        guild_id=guild_id,
        channel_id=channel_id,
        game_key="enemy-lines",
        options={},
        seed=1,
        host_id=seats[0][0],
    )
    for user_id, name in seats:
        await store.add_seat(gid, user_id=user_id, is_ai=user_id is None, name=name)
    await store.start_game(gid, json.dumps({"players": len(seats)}))
    await store.set_status(gid, status, result=result)
    return gid, outcome(seats, result, cooperative=coop)


async def test_rate_two_players_once(store, raw_sql):
    gid, places = await _finished(store, [(11, "Ann"), (12, "Bob")], {"winners": [0]})
    assert await store.record_rating(gid, places) is True
    assert await store.record_rating(gid, places) is False  # rated once
    assert await store.is_rated(gid)
    [ann] = await store.player_stats(1, "11")
    [bob] = await store.player_stats(1, "12", "enemy-lines")
    assert (ann.games, ann.wins, ann.losses, ann.draws, ann.name) == (1, 1, 0, 0, "Ann")
    assert (bob.games, bob.wins, bob.losses, bob.draws) == (1, 0, 1, 0)
    assert ann.ordinal > ratings.ordinal(ratings.MU, ratings.SIGMA) > bob.ordinal
    assert len(await raw_sql("SELECT * FROM rating_events")) == 2
    assert await store.player_stats(1, "11", "warships") == []
    assert await store.player_stats(2, "11") == []  # per server


async def test_abandoned_and_running_not_rated(store):
    gid, places = await _finished(store, [(11, "Ann"), (12, "Bob")], {"winners": [0]}, status="abandoned")
    assert await store.record_rating(gid, places) is False
    assert await store.player_stats(1, "11") == []
    assert await store.unrated_games() == []
    with pytest.raises(NoSuchGame):
        await store.record_rating(gid + 100, places)


async def test_ai_rated_and_unrated_games_listed(store):
    gid, places = await _finished(store, [(11, "Ann"), (None, "Nelson (AI)")], {"winners": [1]})
    assert await store.unrated_games() == [gid]
    assert await ratings.rate_game(store, gid) is True
    assert await store.unrated_games() == []
    # a seat stored before levels (no level) is rated as the Normal AI of its name
    [ai] = await store.player_stats(1, "ai:Nelson:normal")
    assert (ai.wins, ai.name) == (1, "Nelson (AI, normal)")


async def test_leaderboard_pages_and_last_games(store):
    ids = []
    for i in range(5):  # Ann beats five different players
        gid, places = await _finished(
            store, [(11, "Ann"), (20 + i, f"P{i}")], {"winners": [0]}, channel_id=100 + i
        )
        assert await store.record_rating(gid, places)
        ids.append(gid)
    gid, places = await _finished(store, [(11, "Ann"), (20, "P0")], {"winners": []}, channel_id=200)  # a draw
    assert await store.record_rating(gid, places)
    # everyone has a provisional rating after so few games (Ann's six were against newcomers): nobody
    # is ranked yet, and the board says how many wait (settled players: tests/storage/test_rating_standing.py)
    board = await store.leaderboard(1, "enemy-lines", 0, 4)
    assert (board.rows, board.total, board.provisional) == ([], 0, 6)
    everyone = await store.leaderboard(1, "enemy-lines", 0, 4, rated=False)  # a cooperative game's board
    assert everyone.total == 6 and len(everyone.rows) == 4 and everyone.rows[0][0].player == "11"
    rest = await store.leaderboard(1, "enemy-lines", 4, 4, rated=False)
    assert rest.total == 6 and len(rest.rows) == 2
    assert {r.player for r, _ in everyone.rows + rest.rows} == {"11", "20", "21", "22", "23", "24"}
    empty = await store.leaderboard(1, "warships")
    assert (empty.rows, empty.total, empty.provisional) == ([], 0, 0)
    last = await store.last_games(1, "11", limit=3)
    assert [g.game_id for g in last] == [gid, ids[4], ids[3]]
    assert (last[0].outcome, last[0].opponents) == ("draw", ("P0",))
    assert (last[1].outcome, last[1].opponents, last[1].game_key) == ("win", ("P4",), "enemy-lines")
    [ann] = await store.player_stats(1, "11")
    assert (ann.games, ann.wins, ann.draws) == (6, 5, 1)
    seen = await store.last_games(1, "11", limit=5, channels=[101, 200, 999])  # what the asker can see
    assert [g.game_id for g in seen] == [gid, ids[1]]
    assert await store.last_games(1, "11", channels=[]) == []


async def test_cooperative_counts_only(store):
    gid, places = await _finished(store, [(11, "Ann"), (12, "Bob")], {"winners": [0, 1]}, coop=True)
    assert await store.record_rating(gid, places, cooperative=True)
    for player in ("11", "12"):
        [row] = await store.player_stats(1, player)
        assert (row.mu, row.sigma, row.wins, row.games) == (ratings.MU, ratings.SIGMA, 1, 1)
    gid, places = await _finished(
        store, [(11, "Ann"), (12, "Bob")], {"winners": []}, coop=True, channel_id=11
    )
    assert [p.outcome for p in places] == ["loss", "loss"]
    assert await store.record_rating(gid, places, cooperative=True)
    [row] = await store.player_stats(1, "11")
    assert (row.wins, row.losses, row.mu) == (1, 1, ratings.MU)


async def test_duplicate_player_rated_once(store):
    gid, _ = await _finished(store, [(11, "Ann"), (12, "Bob")], {"winners": [0]})
    places = [Place("11", "Ann", 0, 0, "win"), Place("11", "Ann", 1, 1, "loss")]
    assert await store.record_rating(gid, places)
    [row] = await store.player_stats(1, "11")
    assert row.games == 1
