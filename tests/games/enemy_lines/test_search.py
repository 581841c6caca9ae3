"""The Enemy Lines search (levels normal and hard, issue 22): its rebuilt position and move generation
match the game's, it finds what a search must find, it answers within its budget, and the AI's levels
play whole games against each other without stalling."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.games import canonical, registry
from bot.games.ai import BUDGETS, Budget
from bot.games.enemy_lines import ai, search
from bot.games.enemy_lines.game import EnemyLinesGame
from tests.games.playouts import positions

CAP = Budget(seconds=1.0, iterations=200)


def _keys(actions) -> set:
    return {canonical(a) for a in actions}


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_resample_gives_back_the_view_at_every_position_of_a_playout(seed):
    for game, seat in positions("enemy-lines", seed, 120):
        view = game.view(seat)
        rebuilt = EnemyLinesGame.resample(view, seat, random.Random(seed))
        assert rebuilt.view(seat) == view
        assert _keys(rebuilt.legal_actions(seat)) == _keys(game.legal_actions(seat))


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_search_move_generation_equals_the_legal_actions_perft(seed):
    """Perft-like: at every position of a playout, and one and two moves on, the search's moves (from
    the position rebuilt from the view) are exactly the game's legal actions."""
    for game, seat in positions("enemy-lines", seed, 150, options={"quick-setup": True}):
        pos = search.Position.from_view(game.view(seat))
        assert _keys(search.as_action(m) for m in search.legal_moves(pos)) == _keys(game.legal_actions(seat))
        for first in game.legal_actions(seat)[:3]:
            after = EnemyLinesGame.resample(game.view(seat), seat, random.Random(0))
            after.apply(seat, first)
            if after.is_over:
                continue
            nxt = after.to_act()[0]
            pos2 = search.Position.from_view(after.view(nxt))
            assert _keys(search.as_action(m) for m in search.legal_moves(pos2)) == _keys(
                after.legal_actions(nxt)
            )


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_search_rules_match_the_game_after_each_move(seed):
    """The search's own rules (turn, anchors, the extra turn, the end and its value) agree with the game
    for every legal move, so the position it reasons about is the one the game reaches."""
    rng = random.Random(seed)
    for game, seat in positions("enemy-lines", seed, 250, options={"quick-setup": True}):
        pos = search.Position.from_view(game.view(seat))
        searcher = search.Searcher(CAP.start(), rng, seat)
        for move in search.legal_moves(pos)[:: max(1, len(search.legal_moves(pos)) // 4)]:
            child, over = searcher._play(pos, move)
            real = EnemyLinesGame.resample(game.view(seat), seat, rng)
            real.apply(seat, search.as_action(move))
            assert (over is not None) == real.is_over
            if not real.is_over:
                again = search.Position.from_view(real.view(real.to_act()[0]))
                assert again.key() == child.key()
                assert abs(again.score0 - child.score0) < 1e-9


def test_search_takes_the_winning_third_ship_into_enemy_lines(position):
    """Two ships already in enemy lines and the third one move away: the search ends the game winning."""
    game = position(
        {
            "b4": "E5-H5",
            "b3a": "E4-G4",
            "b3b": "F1-F3",
            "b2a": "A1-B1",
            "b2b": "C1-D1",
            "r4": "A4-D4",
            "r3a": "E8-G8",
            "r3b": "A2-C2",
            "r2a": "G1-H1",
            "r2b": "A7-B7",
        },
        turn=1,
        start=0,
    )
    action = game.ai_action(1, random.Random(1), "hard", Budget(1.0, iterations=300))
    game.apply(1, action)
    assert game.is_over and game.result["winners"] == [1]


def test_search_is_repeatable_with_an_iteration_cap():
    game = registry.get("enemy-lines").new(2, {"quick-setup": True}, seed=7)
    seat = game.to_act()[0]
    moves = {canonical(game.ai_action(seat, random.Random(3), "hard", CAP)) for _ in range(3)}
    assert len(moves) == 1


def test_deeper_search_looks_further_than_one_move():
    game = registry.get("enemy-lines").new(2, {"quick-setup": True}, seed=11)
    seat = game.to_act()[0]
    pos = search.Position.from_view(game.view(seat))
    # an iteration cap, not a time: the same depth on a loaded machine as on an idle one
    searcher = search.Searcher(Budget(0.1, iterations=20_000).start(), random.Random(1), seat)
    _, _, depth = searcher.search(pos)
    assert depth >= 3


class _TickingClock:
    """A clock that moves on a fixed step each time it is read: how long a search takes, counted in
    clock readings, whatever the machine's load."""

    def __init__(self, step: float) -> None:
        self.now, self.step = 0.0, step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


def test_normal_level_stops_within_its_budget():
    game = registry.get("enemy-lines").new(2, {"quick-setup": True}, seed=5)
    rng = random.Random(5)
    for _ in range(6):
        seat = game.to_act()[0]
        pos = search.Position.from_view(game.view(seat))
        clock = _TickingClock(0.0005)
        budget = BUDGETS["normal"]
        searcher = search.Searcher(budget.start(clock), rng, seat)
        move, _, depth = searcher.search(pos)
        # depth 1 always completes; past it the search gives up a depth it cannot finish in time
        assert depth == 1 or clock.now <= budget.seconds, (depth, clock.now)
        action = search.as_action(move)
        assert action in game.legal_actions(seat)
        game.apply(seat, action)


def test_greedy_baseline_takes_the_best_immediate_move():
    game = registry.get("enemy-lines").new(2, {"quick-setup": True}, seed=2)
    seat = game.to_act()[0]
    view, legal = game.view(seat), game.legal_actions(seat)
    chosen = ai.greedy(view, legal, seat, random.Random(0))
    ships = ai.ships_from_view(view)

    def after(action):
        child = dict(ships)
        child[action["ship"]] = ai.B.move_result(ships, action)
        return ai.evaluate(child, seat)

    assert after(chosen) == max(after(a) for a in legal if a["type"] != "pass")
    assert "greedy" in ai.BASELINES and "today" in ai.BASELINES


def test_easy_level_sometimes_plays_a_random_move_instead_of_todays():
    game = registry.get("enemy-lines").new(2, {"quick-setup": True}, seed=3)
    seat = game.to_act()[0]
    view, legal = game.view(seat), game.legal_actions(seat)
    today = canonical(ai.choose_action(view, legal, seat, random.Random(0)))
    picks = [canonical(game.ai_action(seat, random.Random(n), "easy")) for n in range(60)]
    assert any(p != today for p in picks)


def test_ai_vs_ai_games_end_at_every_level_with_small_caps():
    for seed, levels in enumerate((("easy", "hard"), ("normal", "easy"), ("hard", "normal"))):
        game = registry.get("enemy-lines").new(2, {"quick-setup": True}, seed=seed)
        rng = random.Random(seed)
        for _ in range(400):
            if game.is_over:
                break
            seat = game.to_act()[0]
            game.apply(seat, game.ai_action(seat, rng, levels[seat], Budget(1.0, iterations=30)))
        assert game.is_over
