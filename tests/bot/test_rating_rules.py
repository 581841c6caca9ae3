"""Unit tests of the rating rules (bot/ratings.py): places from a result, openskill updates."""

from __future__ import annotations

from bot.ratings import MU, SIGMA, ordinal, outcome, player_key, update

START = ordinal(MU, SIGMA)


def _after(places):
    return update([(MU, SIGMA)] * len(places), [p.rank for p in places])


def test_winner_rises_loser_falls():
    places = outcome([(1, "Ann"), (2, "Bob")], {"winners": [1], "scores": {"0": 5, "1": 9}})
    assert [(p.rank, p.outcome) for p in places] == [(1, "loss"), (0, "win")]
    (ann, bob) = _after(places)
    assert ordinal(*bob) > START and ordinal(*ann) < START and ordinal(*ann) < ordinal(*bob)


def test_draw():
    for result in ({"winners": []}, {"winners": [0, 1]}, None):
        places = outcome([(1, "Ann"), (2, "Bob")], result)
        assert [(p.rank, p.outcome) for p in places] == [(0, "draw"), (0, "draw")]
        a, b = _after(places)
        assert abs(a[0] - b[0]) < 1e-9 and a[1] < SIGMA  # surer, equal


def test_three_players_ranks_by_score_and_resigned_last():
    seats = [(1, "Ann"), (2, "Bob (AI)"), (3, "Cy"), (None, "Nelson (AI)")]
    result = {"winners": [2], "scores": {"0": 10, "1": 30, "2": 40, "3": 20}}
    places = outcome(seats, result, resigned=[1])
    assert [p.rank for p in places] == [2, 3, 0, 1]
    assert [p.outcome for p in places] == ["loss", "loss", "win", "loss"]
    assert places[1].player == "2" and places[1].name == "Bob"  # a resigned seat stays its player's
    assert places[3].player == "ai:Nelson:normal"  # stored before levels: plays and is rated at Normal
    new = _after(places)
    ords = [ordinal(*r) for r in new]
    assert ords[2] > ords[3] > ords[0] > ords[1]


def test_ties_share_a_rank():
    places = outcome([(1, "A"), (2, "B"), (3, "C")], {"winners": [0], "scores": {"0": 9, "1": 3, "2": 3}})
    assert [p.rank for p in places] == [0, 1, 1]
    _, b, c = _after(places)
    assert abs(b[0] - c[0]) < 1e-9


def test_player_keys():
    assert player_key(123, "Ann") == "123"
    assert player_key(123, "Ann (AI)") == "123"
    # one rating per AI name and level; a seat stored before levels plays (and is rated) at Normal
    assert player_key(None, "Nelson (AI, hard)", "hard") == "ai:Nelson:hard"
    assert player_key(None, "Nelson (AI, easy)", "easy") == "ai:Nelson:easy"
    assert player_key(None, "Nelson (AI)") == "ai:Nelson:normal"


def test_cooperative_all_win_or_all_lose():
    seats = [(1, "Ann"), (2, "Bob")]
    assert [p.outcome for p in outcome(seats, {"winners": [0, 1]}, cooperative=True)] == ["win", "win"]
    assert [p.outcome for p in outcome(seats, {"winners": []}, cooperative=True)] == ["loss", "loss"]


def test_ai_seats_are_rated_per_name_and_level():
    seats = [(1, "Ann"), (None, "Nelson (AI, hard)"), (None, "Nelson (AI, easy)"), (None, "Gravina (AI)")]
    places = outcome(seats, {"winners": [1]}, levels=[None, "hard", "easy", None])
    assert [p.player for p in places] == ["1", "ai:Nelson:hard", "ai:Nelson:easy", "ai:Gravina:normal"]
    # the ratings show the level in the name, a seat stored before levels too
    assert [p.name for p in places] == [
        "Ann",
        "Nelson (AI, hard)",
        "Nelson (AI, easy)",
        "Gravina (AI, normal)",
    ]
