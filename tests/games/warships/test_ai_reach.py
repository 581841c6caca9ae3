"""The Warships search levels' exact reach (bot/games/warships/threats.py) and the plays built on it:
Missile ships that wait out of reach and take out the batteries guarding an exit, a Landing ship that
sails only where no enemy ship can attack it."""

from __future__ import annotations

import random

import pytest

from bot.games.ai import Budget
from bot.games.warships import ai, search
from bot.games.warships.board import board
from tests.games.warships.conftest import build
from tests.games.warships.conftest import revealed as _revealed

B = board()
CAP = Budget(seconds=1.0, iterations=8)


def _exposure(g, seat: int = 0) -> ai.Exposure:
    return ai.Exposure(ai.Brain(g.view(seat), seat, g.options, informed=True))


def test_reach_counts_own_ships_in_the_line_of_fire_as_shelter():
    alone = _revealed([(1, "destroyer", "F6"), (0, "missile", "F11")])
    sheltered = _revealed([(1, "destroyer", "F6"), (0, "missile", "F11"), (0, "escort", "F10")])
    assert _exposure(alone)(B.index["F11"]) == 1.0  # F6→F7, then four fields down the column
    assert _exposure(sheltered)(B.index["F11"]) == 0.0  # the escort on F10 stands in every line


def test_reach_of_a_face_down_unit_is_the_chance_of_each_type_it_may_be():
    g = build([(1, "destroyer", "F6"), (0, "missile", "F11")])  # face down: a destroyer among others
    chance = _exposure(g)(B.index["F11"])
    assert 0.0 < chance < 1.0


def test_reach_stops_at_the_fortification_line_and_the_neutral_waters():
    # a cruiser inside its port fires out only through its own exits (only Missile ships fire over the line)
    in_port = _revealed([(1, "cruiser", "F3"), (0, "missile", "F6")])
    assert _exposure(in_port)(B.index["F6"]) == 0.0
    at_sea = _revealed([(1, "cruiser", "F5"), (0, "missile", "F6")])
    assert _exposure(at_sea)(B.index["F6"]) == 1.0
    # nobody attacks into neutral waters
    assert _exposure(at_sea)(B.index["F8"]) == 0.0


def test_reach_keeps_ships_but_missile_ships_out_of_battery_range():
    g = _revealed([(1, "destroyer", "L9")])
    sea = _exposure(g).sea
    as_destroyer = sea.moves(B.index["L9"], 1, 4, False)
    as_missile = sea.moves(B.index["L9"], 1, 4, True)
    assert B.index["L11"] in as_destroyer and B.index["L12"] not in as_destroyer  # L12 is beside K13
    assert B.index["L12"] in as_missile


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_missile_ship_waits_out_of_reach_rather_than_step_into_a_cruisers_fire(level):
    g = _revealed([(1, "cruiser", "E6"), (0, "missile", "E11")])
    exposure = _exposure(g)
    assert exposure(B.index["E11"]) == 0.0
    a = g.ai_action(0, random.Random(2), level, CAP)
    assert a["from"] != "E11" or exposure(B.index[a.get("via") or a["to"]]) == 0.0


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_missile_ship_sails_for_the_batteries_when_no_enemy_ship_can_reach_it(level):
    g = build([(0, "missile", "E11")])
    d = ai._bfs(
        B, sorted({c for q in (B.index["B4"], B.index["D4"]) for c in B.near[q] if B.port_of[c] != 1}), 2
    )
    a = g.ai_action(0, random.Random(2), level, CAP)
    assert a["from"] == "E11" and d[B.index[a["to"]]] < d[B.index["E11"]]


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_attacks_the_battery_guarding_an_exit(level):
    g = build([(0, "missile", "C6")])
    for seed in range(3):
        a = g.ai_action(0, random.Random(seed), level, CAP)
        if level == "easy" and a["type"] != "battery":
            continue  # the easy level's slip to its second choice
        assert a["type"] == "battery" and a["target"] in ("B4", "D4")


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_takes_out_the_second_battery_to_open_the_exit(level):
    g = build([(0, "missile", "C5")], drop_batteries=("B4",))
    a = g.ai_action(0, random.Random(1), level, CAP)
    assert a["type"] == "battery" and a["from"] == "C5" and a["target"] == "D4"


def test_landing_ship_holds_where_it_is_while_an_enemy_ship_could_attack_its_next_square():
    # an exit is open; a cruiser everyone saw on E6 covers the three squares in front of the Landing ship
    g = _revealed([(0, "landing", "E11"), (1, "cruiser", "E6")], drop_batteries=("B4", "D4"))
    exposure = _exposure(g)
    assert exposure(B.index["E11"]) == 0.0
    assert all(exposure(B.index[q]) == 1.0 for q in ("D10", "E10", "F10"))
    for level in ("normal", "hard"):
        a = g.ai_action(0, random.Random(3), level, CAP)
        assert a["from"] != "E11" or exposure(B.index[a["to"]]) == 0.0


def test_search_counts_own_ships_in_the_way_as_shelter_for_the_last_missile_ship():
    open_line = _revealed([(0, "missile", "F11"), (1, "destroyer", "F6")])
    sheltered = _revealed([(0, "missile", "F11"), (1, "destroyer", "F6"), (0, "escort", "F10")])
    exposed = search.evaluate(open_line, 0)
    safe = search.evaluate(sheltered, 0) - ai.VALUE["escort"]
    assert safe - exposed == search.LAST_MISSILE_EXPOSED
