"""The Enemy Lines AI: beats a random player, is deterministic, fast, and reads only the view."""

from __future__ import annotations

import random
import time

from bot.games import canonical
from bot.games.enemy_lines import ai


def play_ai_vs_random(spec, seed: int, ai_seat: int):
    game = spec.new(2, {}, seed=seed)
    rai, rrand = random.Random(1000 + seed), random.Random(2000 + seed)
    worst = 0.0
    while not game.is_over:
        seat = game.to_act()[0]
        if seat == ai_seat:
            t = time.perf_counter()
            action = game.ai_action(seat, rai)
            worst = max(worst, time.perf_counter() - t)
            assert canonical(action) in {canonical(a) for a in game.legal_actions(seat)}
        else:
            action = rrand.choice(game.legal_actions(seat))
        game.apply(seat, action)
    return game, worst


def test_ai_beats_random_player(spec):
    wins, worst = 0, 0.0
    for seed in range(10):
        ai_seat = seed % 2  # alternate colours; the starting player is random per seed
        game, w = play_ai_vs_random(spec, seed, ai_seat)
        worst = max(worst, w)
        wins += game.result["winners"] == [ai_seat]
    assert wins >= 9
    assert worst < 1.0  # move time well under a second


def test_ai_is_deterministic_for_a_given_rng(spec):
    game = spec.new(2, {"quick-setup": True}, seed=4)
    seat = game.to_act()[0]
    picks = {canonical(game.ai_action(seat, random.Random(9))) for _ in range(3)}
    assert len(picks) == 1
    a, _ = play_ai_vs_random(spec, 5, 0)
    b, _ = play_ai_vs_random(spec, 5, 0)
    assert a.to_json() == b.to_json()


def test_ai_takes_the_winning_move(position):
    # Blue did not start: moving b3a A5-C5 north 2 puts a third ship in and wins at once.
    game = position(
        {"b2a": "G6-H6", "b2b": "D6-E6", "b3a": "A5-C5", "r2a": "A2-B2", "r3a": "E3-G3"}, turn=0, start=1
    )
    action = game.ai_action(0, random.Random(0))
    game.apply(0, action)
    assert game.is_over and game.result["winners"] == [0]


def test_ai_does_not_end_the_game_when_behind(position):
    # Blue could end the game by bringing its 3-ship in (at most 8 + 12 = 20 points, on row 8),
    # but Red already has 20 (4-ship on Blue's back row, 2-ship on Blue's row marked 2):
    # ending now loses or draws, so the AI keeps playing.
    game = position(
        {"b2a": "G6-H6", "b2b": "D6-E6", "b3a": "A5-C5", "r4": "A1-D1", "r2a": "F3-G3"}, turn=0, start=1
    )
    action = game.ai_action(0, random.Random(0))
    game.apply(0, action)
    assert not game.is_over


def test_ai_places_ships_legally_and_passes_when_stuck(spec, position):
    game = spec.new(2, {}, seed=8)
    rng = random.Random(3)
    while game.state["phase"] == "placement":
        seat = game.to_act()[0]
        game.apply(seat, game.ai_action(seat, rng))
    assert all(s["placed"] for s in game.view(None)["ships"])
    ships = {
        "b4": "A1-D1",
        "r4": "E1-H1",
        "b3a": "A2-C2",
        "b3b": "D2-F2",
        "b2a": "G2-H2",
        "r3a": "A3-C3",
        "r3b": "D3-F3",
        "r2a": "G3-H3",
        "b2b": "D5-E5",
        "r2b": "A8-B8",
    }
    stuck = position(ships, turn=0, anchors=("b2b", None))
    assert stuck.ai_action(0, random.Random(0)) == {"type": "pass"}


def test_ai_uses_only_the_view(spec):
    """The search is a function of the view and the legal actions alone."""
    game = spec.new(2, {"quick-setup": True}, seed=12)
    seat = game.to_act()[0]
    view, legal = game.view(seat), game.legal_actions(seat)
    direct = ai.choose_action(view, legal, seat, random.Random(5))
    assert direct == game.ai_action(seat, random.Random(5))


def test_ai_passes_the_extra_turn_only_when_every_move_lowers_its_score(position):
    # Blue (the starting player) brings its third ship in; Red may have another turn or pass.
    blue = {"b2a": "G6-H6", "b2b": "D6-E6", "b3a": "A5-C5", "b4": "C1-F1"}
    # Red's only ship lies on Blue's back row (8 points) with the 4-ship beside it: it can only go
    # north (6 points) or rotate (0 points), so every move lowers its score and the AI passes
    game = position({**blue, "r2a": "A1-B1"}, turn=0, start=0)
    game.apply(0, {"type": "travel", "ship": "b3a", "dir": "N", "dist": 2})
    assert len(game.legal_actions(1)) > 1
    for seed in range(5):
        assert game.ai_action(1, random.Random(seed)) == {"type": "pass"}
    # one row further up it can still gain (6 → 8 points): the AI moves
    game = position({**blue, "r2a": "A2-B2"}, turn=0, start=0)
    game.apply(0, {"type": "travel", "ship": "b3a", "dir": "N", "dist": 2})
    action = game.ai_action(1, random.Random(0))
    assert action["type"] == "travel" and action["dir"] == "S"
    game.apply(1, action)
    assert game.result["scores"]["1"] == 8
    # a move that keeps its score (along the row) is played rather than a pass
    game = position({**blue, "r2a": "A1-B1", "b4": "D1-G1"}, turn=0, start=0)
    game.apply(0, {"type": "travel", "ship": "b3a", "dir": "N", "dist": 2})
    action = game.ai_action(1, random.Random(0))
    assert action == {"type": "travel", "ship": "r2a", "dir": "E", "dist": 1}
