"""The Warships AI of issue 22: resample, the search levels, mines and landings."""

from __future__ import annotations

import json
import random
import time
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.games import registry
from bot.games.ai import LEVELS, Budget
from bot.games.warships import ai
from bot.games.warships.board import board
from bot.games.warships.game import WarshipsGame
from tests.games.warships.conftest import build, shuffle_hidden_types

SPEC = registry.get("warships")
B = board()
CAP = Budget(seconds=1.0, iterations=8)


def _playout_positions(seed: int, steps: int, options: dict, every: int = 7):
    """Positions of a seeded game between the easy AI and a random player (both seats sampled)."""
    g = SPEC.new(2, options, seed=seed)
    r = random.Random(seed)
    for step in range(steps):
        if g.is_over:
            return
        seat = g.to_act()[0]
        if step % every == 0:
            yield g
        if seat == seed % 2 or g.state["phase"] == "setup":
            a = g.ai_action(seat, r)
        else:
            a = r.choice(g.legal_actions(seat))
        g.apply(seat, a)


def _hidden_types(g: WarshipsGame, seat: int) -> list[tuple[int, str]]:
    return sorted(
        (u["sq"], u["t"])
        for u in g.state["units"]
        if u["o"] != seat and not u["dead"] and u["sq"] >= 0 and not u["rv"]
    )


# ----- the view: how each unit moved -----------------------------------------------------------
def test_view_shows_the_longest_move_of_each_unit():
    g = build([(0, "destroyer", "E10"), (1, "cruiser", "H5")])
    g.apply(0, {"type": "move", "from": "E10", "to": "E7"})
    g.apply(1, {"type": "move", "from": "H5", "to": "H6"})
    g.apply(0, {"type": "move", "from": "E7", "to": "E6"})
    for seat in (0, 1, None):
        units = {u["sq"]: u for u in g.view(seat)["units"]}
        assert units["E6"]["moved"] == 3 and units["H6"]["moved"] == 1 and units["A16"]["moved"] == 0


# ----- resample -------------------------------------------------------------------------------
@settings(max_examples=5, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    options=st.sampled_from(
        [{}, {"greater-mobility": True}, {"initial-manoeuvres": True}, {"quick-setup": True}]
    ),
)
def test_every_sample_gives_back_the_view_of_the_seat(seed, options):
    for g in _playout_positions(seed, 140, options, every=9):
        for seat in (0, 1):
            view = g.view(seat)
            for k in range(2):
                sample = WarshipsGame.resample(view, seat, random.Random(k))
                assert json.dumps(sample.view(seat), sort_keys=True) == json.dumps(view, sort_keys=True)
                if not sample.is_over and sample.to_act():
                    mover = sample.to_act()[0]
                    assert sample.legal_actions(mover) == g.legal_actions(mover) or mover != seat


@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_samples_keep_what_both_players_saw(seed):
    """Mines only on unmoved units in their own port, a moved unit's range at least its longest move, an
    enemy beside an own battery a Missile ship, the unit table's counts per type."""
    for g in _playout_positions(seed, 200, {}, every=11):
        if g.state["phase"] != "play":
            continue
        for seat in (0, 1):
            view = g.view(seat)
            guarded = {
                c
                for v in view["units"]
                if v["owner"] == seat and v["type"] == "battery"
                for c in B.near[B.index[v["sq"]]]
            }
            sample = WarshipsGame.resample(view, seat, random.Random(seed))
            enemy = [u for u in sample.state["units"] if u["o"] != seat]
            for u in enemy:
                if u["sq"] >= 0 and u["t"] == "mine" and not u["rv"]:
                    assert u["mv"] == 0 and B.port_of[u["sq"]] == 1 - seat
                if u["sq"] >= 0 and u["t"] not in ("mine", "battery"):
                    assert sample._range(u["t"]) >= u["mv"]
                if u["sq"] in guarded:
                    assert u["t"] == "missile"
            counts = Counter(u["t"] for u in enemy) + Counter(
                t for t, _ in sample.state["lost"][str(1 - seat)]
            )
            assert counts == Counter({t: int(B.types[t]["count"]) for t in B.order})


def test_samples_vary_where_the_view_hides():
    g = next(p for i, p in enumerate(_playout_positions(4, 120, {}, every=1)) if i == 80)
    seat = g.to_act()[0]
    view = g.view(seat)
    dealt = {
        tuple(_hidden_types(WarshipsGame.resample(view, seat, random.Random(k)), seat)) for k in range(8)
    }
    assert len(dealt) == 8
    # and what the view shows is the same in every sample
    assert all(len(d) == len(_hidden_types(g, seat)) for d in dealt)


def test_resample_in_setup_deals_a_whole_hidden_fleet():
    g = SPEC.new(2, {}, seed=3)
    view = g.view(0)
    sample = WarshipsGame.resample(view, 0, random.Random(1))
    assert sample.view(0) == view
    enemy = [u for u in sample.state["units"] if u["o"] == 1]
    assert Counter(u["t"] for u in enemy) == Counter({t: int(B.types[t]["count"]) for t in B.order})
    assert all(B.port_of[u["sq"]] == 1 for u in enemy)


# ----- the levels never peek ------------------------------------------------------------------
@pytest.mark.parametrize("level", LEVELS)
def test_every_level_decides_from_the_view_alone(level):
    """States that differ only in hidden enemy types give the same move (same rng, an iteration cap)."""
    for seed in (2, 5):
        g = SPEC.new(2, {"quick-setup": True}, seed=seed)
        r = random.Random(seed)
        for _ in range(40):
            seat = g.to_act()[0]
            g.apply(seat, r.choice(g.legal_actions(seat)))
        seat = g.to_act()[0]
        h = SPEC.from_json(g.to_json())
        shuffle_hidden_types(h, seat, seed)
        assert g.view(seat) == h.view(seat)
        assert g.ai_action(seat, random.Random(7), level, CAP) == h.ai_action(
            seat, random.Random(7), level, CAP
        )


# ----- mines -----------------------------------------------------------------------------------
def test_lays_a_mine_next_to_its_minesweeper_in_front_of_the_own_batteries():
    g = build([(0, "minesweeper", "B11"), (1, "destroyer", "F5")], mines_off={0: 2})
    for level in ("normal", "hard"):
        a = g.ai_action(0, random.Random(1), level, CAP)
        assert a["type"] == "lay_mine"
        q = B.index[a["at"]]
        assert q in B.near[B.index["B11"]] and q not in B.neutral
        assert any(b in B.near[q] for b in B.batteries[0][0])  # beside a battery of the exit C13
        assert q != B.entrance_front[B.index["C13"]]  # the own way out stays free


def test_never_lays_a_mine_in_neutral_waters():
    g = build([(0, "minesweeper", "D10"), (1, "destroyer", "F5")], mines_off={0: 2})
    assert any(a["type"] == "lay_mine" for a in g.legal_actions(0))
    for level in LEVELS:
        a = g.ai_action(0, random.Random(2), level, CAP)
        assert a["type"] != "lay_mine" or B.index[a["at"]] not in B.neutral


def test_minesweeper_heads_for_the_mine_squares_while_mines_are_off_the_board():
    g = build([(0, "minesweeper", "F10"), (1, "destroyer", "F3")], mines_off={0: 4})
    view = g.view(0)
    moves = [a for a in g.legal_actions(0) if a["type"] == "move" and a["from"] == "F10"]
    best = max(ai.scored(view, moves, 0, {}, random.Random(1), informed=True), key=lambda p: p[0])[1]
    dist = ai._bfs(B, [c for q in ai.mine_front(view, 0) for c in B.near[q] if B.port_of[c] == -1])
    assert dist[B.index[best["to"]]] < dist[B.index["F10"]]


def test_sets_up_mines_beside_the_landing_ship_and_keeps_four_off_the_board():
    g = SPEC.new(2, {}, seed=8)
    r = random.Random(1)
    for _ in range(200):
        if g.state["submitted"][0]:
            break
        g.apply(0, g.ai_action(0, r, "hard", CAP))
    assert g.state["submitted"][0]
    mines = [u for u in g.state["units"] if u["o"] == 0 and u["t"] == "mine"]
    ls = next(u for u in g.state["units"] if u["o"] == 0 and u["t"] == "landing")
    assert sum(u["sq"] == -1 for u in mines) == ai.MINES_KEPT_OFF
    assert all(u["sq"] in B.near[ls["sq"]] for u in mines if u["sq"] >= 0)


def test_lays_mines_in_play_in_most_games():
    laid = 0
    for seed in range(2):
        g = SPEC.new(2, {}, seed=seed)
        r = random.Random(seed)
        for _ in range(220):
            if g.is_over:
                break
            seat = g.to_act()[0]
            a = g.ai_action(seat, r, "normal", Budget(1.0, 4)) if seat == 0 else g.ai_action(seat, r, "easy")
            laid += seat == 0 and a["type"] == "lay_mine"
            g.apply(seat, a)
    assert laid >= 2


# ----- landings --------------------------------------------------------------------------------
def test_lands_when_a_way_is_open():
    g = build(
        [(0, "landing", "C5"), (1, "destroyer", "H3")],
        drop_batteries=("B4", "D4"),
    )
    for level in LEVELS:
        a = g.ai_action(0, random.Random(3), level, CAP)
        assert a == {"type": "move", "from": "C5", "to": "C4"}


def test_landing_ship_sails_for_an_open_exit_when_the_way_is_clear():
    # the enemy's face-down units far from the open exit (one beside it may be a Destroyer)
    g = build([(0, "landing", "C8"), (1, "landing", "L1"), (1, "missile", "K1")], drop_batteries=("B4", "D4"))
    for level in ("normal", "hard"):
        a = g.ai_action(0, random.Random(4), level, CAP)
        assert a["from"] == "C8" and B.xy(B.index[a["to"]])[1] < B.xy(B.index["C8"])[1]


# ----- levels ----------------------------------------------------------------------------------
def test_easy_slips_to_its_second_choice_now_and_then(monkeypatch):
    g = next(p for i, p in enumerate(_playout_positions(6, 100, {"quick-setup": True}, every=1)) if i == 40)
    seat = g.to_act()[0]
    view, legal = g.view(seat), g.legal_actions(seat)
    moves = [a for a in legal if a["type"] != "lay_mine"]
    slips = 0
    for k in range(100):
        mirror = random.Random(k)
        slipped = mirror.random() < ai.EASY_SLIP
        ranked = sorted(ai.scored(view, moves, seat, {}, mirror), key=lambda p: -p[0])
        picked = ai.easy(view, legal, seat, {}, random.Random(k))
        if slipped:
            assert picked == ranked[1][1]
            slips += 1
        else:
            assert picked == ai.choose(view, legal, seat, {}, _after_one_draw(k))
    assert 2 <= slips <= 25  # about one move in ten


def _after_one_draw(seed: int) -> random.Random:
    r = random.Random(seed)
    r.random()
    return r


def test_search_stops_when_its_time_is_up():
    g = next(p for i, p in enumerate(_playout_positions(7, 100, {"quick-setup": True}, every=1)) if i == 50)
    seat = g.to_act()[0]
    started = time.perf_counter()
    a = g.ai_action(seat, random.Random(1), "hard", Budget(0.05))
    assert g.is_legal(seat, a)
    assert time.perf_counter() - started < 1.0  # 50 ms and at most one playout over, even on a busy machine


@pytest.mark.parametrize("level", LEVELS)
def test_ai_against_ai_games_end_at_every_level(level):
    from tests.games.warships.test_props import short_limit

    with short_limit(60):
        g = SPEC.new(2, {}, seed=12)
        r = random.Random(12)
        for _ in range(400):
            if g.is_over:
                break
            seat = g.to_act()[0]
            g.apply(seat, g.ai_action(seat, r, level if seat == 0 else "easy", Budget(1.0, 3)))
        assert g.is_over


def test_search_levels_believe_a_unit_that_moved_far_is_no_missile_ship_or_mine():
    g = build([(1, "destroyer", "A5"), (0, "cruiser", "F12")], turn=1)
    g.apply(1, {"type": "move", "from": "A5", "to": "A9"})
    view = g.view(0)
    informed = ai.Brain(view, 0, {}, informed=True).probs(B.index["A9"])
    today = ai.Brain(view, 0, {}).probs(B.index["A9"])
    assert set(informed) == {"destroyer"}  # only a destroyer moves four fields
    assert "missile" in today and "landing" in today


def test_landing_ship_leaves_port_for_an_open_exit_when_no_enemy_can_reach_its_way():
    g = build([(0, "landing", "F16")], drop_batteries=("B4", "D4"))
    d = ai._bfs(B, [B.index["C4"]], 30)
    for level in ("normal", "hard"):
        a = g.ai_action(0, random.Random(5), level, CAP)
        assert a["from"] == "F16" and d[B.index[a["to"]]] < d[B.index["F16"]]


def test_landing_ship_holds_at_home_while_an_enemy_ship_could_attack_where_it_would_stop():
    for cruiser, steps_out in (("E10", False), ("L6", True)):
        g = build([(0, "landing", "C13"), (1, "cruiser", cruiser)], drop_batteries=("B4", "D4"))
        g.state["units"][-1]["rv"] = True  # a cruiser everyone saw: from E10 it reaches C12 next turn
        for level in ("normal", "hard"):
            a = g.ai_action(0, random.Random(6), level, CAP)
            assert (a == {"type": "move", "from": "C13", "to": "C12"}) == steps_out


def test_search_values_a_landing_ship_nearer_an_open_exit_and_out_of_reach():
    from bot.games.warships import search

    def value(at: str, enemy: tuple = ()) -> float:
        g = build([(0, "landing", at), *enemy], drop_batteries=("B4", "D4"))
        return search.evaluate(g, 0)

    assert value("C6") > value("C7") > value("A10") > value("A14")
    assert value("C6", ((1, "destroyer", "G6"),)) < value("C6") - 300  # the destroyer reaches C6
    far = value("C6", ((1, "destroyer", "L11"),))  # nine fields away: only its material counts
    assert far == value("C6") - ai.VALUE["destroyer"]


def test_ships_in_the_landing_ships_way_step_aside_when_an_exit_is_open():
    boxed_in = [
        (0, "landing", "F16"),
        (0, "cruiser", "E15"),
        (0, "escort", "F15"),
        (0, "submarine", "G15"),
        (0, "destroyer", "E16"),
        (0, "escort", "G16"),
    ]
    way = {"E15", "F15", "G15"}  # beside the Landing ship and nearer the exits
    for dropped, steps_aside in ((("B4", "D4"), True), ((), False)):
        g = build(boxed_in, drop_batteries=dropped)
        for level in ("normal", "hard"):
            assert (g.ai_action(0, random.Random(6), level, CAP)["from"] in way) == steps_aside


@pytest.mark.parametrize("seed", [3, 8, 11])
def test_sets_up_mines_beside_the_landing_ship_but_never_on_its_way_out(seed):
    g = SPEC.new(2, {}, seed=seed)
    r = random.Random(seed)
    for _ in range(200):
        if g.state["submitted"][1]:
            break
        g.apply(1, g.ai_action(1, r, "normal", CAP))
    ls = next(u["sq"] for u in g.state["units"] if u["o"] == 1 and u["t"] == "landing")
    way = ai._way_out(B, ls, 1)
    assert way  # the Landing ship stands on the back row: its way out is the row in front
    assert not any(u["sq"] in way for u in g.state["units"] if u["o"] == 1 and u["t"] == "mine")


def test_search_values_the_last_missile_ship_out_of_enemy_reach():
    from bot.games.warships import search

    def value(destroyer: str, missiles: tuple = ("A12",)) -> float:
        g = build([*((0, "missile", q) for q in missiles), (1, "destroyer", destroyer)])
        return search.evaluate(g, 0)

    # a destroyer on C10 reaches A12 next turn; from L3, in its port, it does not
    assert value("C10") == value("L3") - search.LAST_MISSILE_EXPOSED
    assert value("C10", ("A12", "L16")) == value("L3", ("A12", "L16"))  # not the last one: material only
