"""The Warships search levels' landings and early mines (bot/games/warships/landing.py ``Lane``,
``ai.setup_with_mines``): the Landing ship waits in a safe harbour (home behind guarded exits, the
neutral waters) until the stretch ahead is out of the enemy's reach two turns ahead, crosses the neutral
waters, goes on once in the open; a Minesweeper set up behind an exit lays mines in the first turns."""

from __future__ import annotations

import random

import pytest

from bot.games import registry
from bot.games.ai import Budget
from bot.games.warships import ai, landing
from bot.games.warships.board import board
from tests.games.warships.conftest import build, revealed

B = board()
CAP = Budget(seconds=1.0, iterations=8)
SEARCH = ("normal", "hard")


def _revealed(units: list[tuple[int, str, str]]):
    """A position with the enemy exit C4 open (both its batteries taken out), the listed enemy units face up."""
    return revealed(units, drop_batteries=("B4", "D4"))


def _lane(g, seat: int = 0) -> landing.Lane:
    view = g.view(seat)
    br = ai.Brain(view, seat, g.options, informed=True)
    open_ents = [B.index[e["entrance"]] for e in view["batteries"] if e["seat"] != seat and e["open"]]
    return ai._lane(br, ai._bfs(B, open_ents, landing.NEUTRAL_COST), ai.Exposure(br), False)


def _to(a: dict) -> str:
    return a.get("via") or a.get("to") or a["from"]


def test_the_lane_runs_through_the_neutral_waters_and_stops_at_the_first_safe_square():
    lane = _lane(_revealed([(0, "landing", "C13")]))
    home = B.index["C13"]
    assert lane.safe(home) and lane.safe(B.index["C9"]) and not lane.safe(B.index["C12"])
    stretch = [B.names[q] for q in lane.stretch(B.index["C12"])]
    assert len(stretch) == 3 and stretch[0] == "C12" and all(q.endswith("10") for q in stretch[2:])
    far = [B.names[q] for q in lane.stretch(B.index["C7"])]
    assert len(far) == 3 and far[0] == "C7" and far[-1] == "C5"  # from C5 it enters the port through C4


@pytest.mark.parametrize("level", SEARCH)
def test_waits_in_its_harbour_until_its_lane_is_clear(level):
    # a destroyer everyone saw on L6 reaches the lane (C12, then row 11, then row 10) within two turns
    # (3 × 4 fields), though not C12 next turn: the Landing ship waits at home; a cruiser on K1, inside
    # its port, does not reach the lane in time
    for enemy, sails in (((1, "destroyer", "L6"), False), ((1, "cruiser", "K1"), True)):
        g = _revealed([(0, "landing", "C13"), enemy])
        a = g.ai_action(0, random.Random(3), level, CAP)
        assert (a["from"] == "C13" and B.port_of[B.index[_to(a)]] == -1) == sails, enemy


@pytest.mark.parametrize("level", SEARCH)
def test_waits_behind_its_exit_not_on_it(level):
    # the lane is covered (a destroyer on L6): on its own exit the Landing ship steps back into the port
    # (an exit opened while it stands there lays it open at once); behind the exit it stays off it
    for at in ("C13", "C14"):
        g = _revealed([(0, "landing", at), (1, "destroyer", "L6")])
        a = g.ai_action(0, random.Random(7), level, CAP)
        if at == "C13":
            assert a["from"] == "C13" and B.port_of[B.index[_to(a)]] == 0
        else:
            assert _to(a) != "C13"


@pytest.mark.parametrize("level", SEARCH)
def test_landing_ship_crosses_into_the_neutral_waters(level):
    g = _revealed([(0, "landing", "C10")])
    a = g.ai_action(0, random.Random(4), level, CAP)
    assert a["from"] == "C10" and B.index[_to(a)] in B.neutral


@pytest.mark.parametrize("level", SEARCH)
def test_waits_in_the_neutral_waters_while_the_lane_ahead_is_covered_and_leaves_in_time(level):
    # a cruiser everyone saw on G4 covers C7–C5 within two turns; the Landing ship has spent one turn in
    # the neutral waters: it stays; after three it must leave (a fourth removes it)
    for turns, stays in ((1, True), (3, False)):
        g = _revealed([(0, "landing", "C8"), (1, "cruiser", "G4")])
        next(u for u in g.state["units"] if u["o"] == 0 and u["t"] == "landing")["nw"] = turns
        a = g.ai_action(0, random.Random(5), level, CAP)
        moved = a["from"] == "C8" and _to(a) != "C8"
        assert moved != stays
        if moved:
            assert B.index[_to(a)] not in B.neutral


@pytest.mark.parametrize("level", SEARCH)
def test_leaves_the_neutral_waters_after_three_turns_however_covered_the_lane(level):
    # three destroyers everyone saw cover both ways out: staying a fourth turn would lose the game
    hunters = [(1, "destroyer", q) for q in ("G5", "G12", "A6")]
    g = _revealed([(0, "landing", "C8"), *hunters])
    next(u for u in g.state["units"] if u["o"] == 0 and u["t"] == "landing")["nw"] = 3
    a = g.ai_action(0, random.Random(8), level, CAP)
    assert a["from"] == "C8" and B.index[_to(a)] not in B.neutral


@pytest.mark.parametrize("level", SEARCH)
def test_goes_on_once_in_the_open_rather_than_stand(level):
    # out of its harbour on C11 (nobody in reach of C10 next turn): it sails on towards the neutral waters
    g = _revealed([(0, "landing", "C11"), (1, "cruiser", "K3")])
    a = g.ai_action(0, random.Random(6), level, CAP)
    assert a["from"] == "C11" and B.xy(B.index[_to(a)])[1] < B.xy(B.index["C11"])[1]


def test_takes_a_larger_chance_on_its_lane_near_the_move_limit():
    g = _revealed([(0, "landing", "C13"), (1, "destroyer", "L6")])
    lane = _lane(g)
    risk = lane.risk(B.index["C12"])
    assert landing.LANE_OK < risk <= landing.LANE_OK_LATE
    for ply, sails in ((100, False), (B.move_limit - 20, True)):
        g.state["ply"] = ply
        view = g.view(0)
        moves = [a for a in g.legal_actions(0) if a["type"] != "lay_mine"]
        best = max(ai.scored(view, moves, 0, {}, random.Random(1), informed=True), key=lambda p: p[0])[1]
        assert (best["from"] == "C13" and best["to"] == "C12") == sails, ply


# ----- early mines -----------------------------------------------------------------------------
@pytest.mark.parametrize("seed", [2, 5, 9])
def test_sets_up_a_minesweeper_straight_behind_an_exit(seed):
    g = registry.get("warships").new(2, {}, seed=seed)
    r = random.Random(seed)
    for _ in range(200):
        if g.state["submitted"][1]:
            break
        g.apply(1, g.ai_action(1, r, "hard", CAP))
    assert g.state["submitted"][1]
    behind = set(ai.behind_exits(1))
    assert any(u["sq"] in behind for u in g.state["units"] if u["o"] == 1 and u["t"] == "minesweeper")


def test_lays_a_mine_in_play_in_its_first_turns():
    # the search levels' set-up and mines (ai.informed) against today's heuristic: a mine laid beside a
    # Minesweeper, never in the neutral waters, within the first 40 moves of most games (a Minesweeper
    # may be lost on its way out)
    early = 0
    for seed in range(6):
        g = registry.get("warships").new(2, {}, seed=seed)
        r = random.Random(seed)
        laid = []
        while not g.is_over and g.state["ply"] < 40:
            seat = g.to_act()[0]
            view, legal = g.view(seat), g.legal_actions(seat)
            a = ai.informed(view, legal, 0, {}, r) if seat == 0 else ai.choose(view, legal, 1, {}, r)
            if a["type"] == "lay_mine":
                q = B.index[a["at"]]
                sweepers = {u["sq"] for u in g.state["units"] if u["o"] == 0 and u["t"] == "minesweeper"}
                assert q not in B.neutral and any(s in B.near[q] for s in sweepers)
                laid.append(a["at"])
            g.apply(seat, a)
        early += bool(laid)
    assert early >= 5


def test_search_counts_enemy_ships_closing_in_on_the_landing_ship_in_the_open():
    from bot.games.warships import search

    def value(at: str, enemy: tuple = ()) -> float:
        return search.evaluate(build([(0, "landing", at), *enemy], drop_batteries=("B4", "D4")), 0)

    g = build([(0, "landing", "C11"), (1, "destroyer", "K7")], drop_batteries=("B4", "D4"))
    occ = g._occ()
    assert search._closing(g, B, 0, B.index["C11"], occ) == 1  # eight fields: one turn's move and fire
    assert search._closing(g, B, 0, B.index["C9"], occ) == 0  # nobody attacks in the neutral waters
    assert search._closing(g, B, 0, B.index["C14"], occ) == 0  # at home behind guarded exits
    destroyer = ((1, "destroyer", "K7"),)
    assert value("C9", destroyer) == value("C9") - ai.VALUE["destroyer"]
    assert value("C11", destroyer) <= value("C11") - ai.VALUE["destroyer"] - landing.EXPOSED
