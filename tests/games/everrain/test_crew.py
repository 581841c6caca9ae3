"""The crewmate (``ai.crewmate``: the gunners man the sails, then the race-aware crewmate,
``ai.race_crewmate``), the planner's choice and rollout policy: each of its rules of play, and today's
crewmate kept as it was for the benches."""

from __future__ import annotations

import random

from bot.games import registry
from bot.games.everrain import ai, route
from bot.games.everrain import board as B


def _ship_at(game, seat: int, hex_: tuple[int, int], facing: int, clues: int) -> None:
    s = game.ship(seat)
    s["q"], s["r"], s["facing"], s["clues"] = hex_[0], hex_[1], facing, clues


def _far_from_ports(game) -> tuple[int, int]:
    m = game.map
    sea = [h for h in m.terrain if m.sea(h) and m.at(h) != B.PORT and h not in game.occupied()]
    return max(sea, key=lambda h: min(B.distance(h, p) for p in m.ports))


def test_sails_its_clues_home_when_the_clues_aboard_win_the_game():
    """With the clues aboard enough to win, a ship sails for a port instead of gathering more."""
    game = registry.get("everrain").new(2, {"length": "short"}, seed=2)
    seat = game.to_act()[0]
    _ship_at(game, seat, _far_from_ports(game), 0, 1)
    game.state["discovery"] = game.state["discovery"] + B.rules()["discovery_end"]["short"] - 1
    view, legal = game.view(seat), game.legal_actions(seat)
    assert ai.sail_home(view, view["my_ship"])
    order = ai.race_crewmate(view, legal, random.Random(1))
    home = route.first_move(view, view["my_ship"], lambda h, f: game.map.at(h) == B.PORT)
    assert order == {"type": "nav", "move": home}
    game.state["discovery"] = 0  # far from winning, early in the game: no hurry
    view = game.view(seat)
    assert not ai.sail_home(view, view["my_ship"])


def test_a_ship_holding_clues_in_a_port_sails_out_to_come_back_in():
    """Clues count when a ship enters a port: holding enough of them in a port, it leaves the port
    (today's crewmate ends its turn there and the clues never count)."""
    game = registry.get("everrain").new(2, {"length": "short"}, seed=2)
    seat = game.to_act()[0]
    s = game.ship(seat)
    assert game.in_port(s)
    s["clues"] = 3  # enough for today's crewmate too
    view, legal = game.view(seat), game.legal_actions(seat)
    order = ai.race_crewmate(view, legal, random.Random(1))
    assert order["type"] == "nav"
    while order["type"] == "nav" and order["move"] != "forward":
        game.apply(seat, order)
        order = ai.race_crewmate(game.view(seat), game.legal_actions(seat), random.Random(1))
    game.apply(seat, order)
    assert not game.in_port(s) and s["clues"] == 3
    assert ai.choose(view, legal, random.Random(1)) == {"type": "end_turn"}  # today's stays put


def test_gunners_man_the_sails_unless_a_shot_is_in_reach():
    """Every gunner moves to a free navigation node, one Crew order each (4 Navigation points an order
    with three hands on the sails, against 2), before any other order; a shot in reach comes first."""
    game = registry.get("everrain").new(1, {"length": "medium"}, seed=3)
    board = B.ship_board()["node"]
    s = game.ship(0)
    assert s["crew"] == [7, 2, 5] and game.manned_nav(s) == 1  # Helm, Port gun, Starboard gun
    for _ in range(2):
        order = ai.crewmate(game.view(0), game.legal_actions(0), random.Random(1))
        assert order["type"] == "crew" and board[order["to"]]["kind"] == "navigation"
        assert board[s["crew"][order["member"]]]["kind"] == "artillery"
        game.apply(0, order)
    assert game.manned_nav(s) == 3 and game.view(0)["my_ship"]["orders"] == 1
    order = ai.crewmate(game.view(0), game.legal_actions(0), random.Random(1))
    assert order["type"] != "crew" and ai.man_the_sails(game.view(0), game.legal_actions(0)) is None
    # a fresh ship with an enemy in its Port gun's arc fires before it moves the gunner
    game = registry.get("everrain").new(1, {"length": "medium"}, seed=3)
    m, e = game.map, game.state["enemies"][0]
    here, there = next(
        (h, x)
        for h in sorted(m.terrain)
        if m.sea(h) and m.at(h) != B.PORT and h not in game.occupied()
        for x in B.pattern_hexes(h, 0, board[2]["arc"])
        if m.sea(x) and m.at(x) != B.PORT and x not in game.occupied() and m.line_of_sight(h, x)
    )
    _ship_at(game, 0, here, 0, 0)
    e["q"], e["r"] = there
    legal = game.legal_actions(0)
    assert any(a["type"] == "fire" for a in legal)
    assert ai.man_the_sails(game.view(0), legal) is None
    assert ai.crewmate(game.view(0), legal, random.Random(1))["type"] == "fire"


def test_holds_two_clues_in_a_crew_on_the_short_and_medium_tracks_three_on_the_long_and_five_alone():
    def hold(players: int, length: str) -> int:
        return ai.hold(registry.get("everrain").new(players, {"length": length}, seed=1).view(0))

    assert [hold(p, "short") for p in (1, 2, 3, 4)] == [5, 2, 2, 2]
    assert [hold(p, "medium") for p in (1, 2, 3, 4)] == [5, 2, 2, 2]
    assert [hold(p, "long") for p in (1, 2, 3, 4)] == [5, 3, 3, 3]


def test_a_lone_captain_gathers_five_clues_before_a_port_unless_the_race_calls_it_home():
    """Holding 4 clues far from a port early in the game, a lone captain sails for a clue site, not a
    port; with the fifth aboard it heads for a port (the crewmate of the second round went home with 3)."""
    game = registry.get("everrain").new(1, {"length": "long"}, seed=2)
    s = game.ship(0)
    s["crew"] = [7, 1, 4]  # the sails manned already
    m = game.map
    spot = next(
        h
        for h in sorted(m.terrain)
        if m.sea(h)
        and m.at(h) != B.PORT
        and h not in game.occupied()
        and min(B.distance(h, p) for p in m.ports) >= 3
        and min(B.distance(h, x) for x in m.sites) >= 3
    )
    for facing in range(6):
        _ship_at(game, 0, spot, facing, 4)
        view = game.view(0)
        home = route.first_move(view, view["my_ship"], lambda h, f: m.at(h) == B.PORT)
        site = route.first_move(
            view, view["my_ship"], lambda h, f: any(B.distance(h, x) <= 1 for x in m.sites)
        )
        if home != site:
            break
    assert home != site and not ai.sail_home(view, view["my_ship"])
    assert ai.crewmate(view, game.legal_actions(0), random.Random(1)) == {"type": "nav", "move": site}
    _ship_at(game, 0, spot, facing, 5)
    view = game.view(0)
    assert ai.crewmate(view, game.legal_actions(0), random.Random(1)) == {"type": "nav", "move": home}


def test_todays_crewmate_is_the_benches_baseline_and_the_crewmate_plays_whole_games():
    """``today`` (bench_ai's baseline) is ai.choose without noise; a crew of the race-aware crewmate
    ends its games."""
    game = registry.get("everrain").new(3, {"length": "medium"}, seed=5)
    rng = random.Random(5)
    for _ in range(5000):
        if game.is_over:
            break
        seat = game.to_act()[0]
        view, legal = game.view(seat), game.legal_actions(seat)
        assert ai.BASELINES["today"](view, legal, seat, random.Random(0)) == ai.choose(view, legal, rng)
        order = ai.BASELINES["crew"](view, legal, seat, rng)
        assert order in legal or order["type"] in ("end_turn", "omen")
        game.apply(seat, order)
    assert game.is_over


def test_map_of_a_view_is_the_views_own_map():
    """Views of one scenario share the map's hexes list (map_of_view recognises it); a view with other
    hexes gets its own map."""
    game = registry.get("everrain").new(1, {"length": "short"}, seed=1)
    view = game.view(0)
    assert view["map"]["hexes"] is game.view(0)["map"]["hexes"]
    assert B.map_of_view(view).terrain == game.map.terrain
    other = [list(h) for h in view["map"]["hexes"]]
    other[0][2] = B.ISLAND if other[0][2] != B.ISLAND else "."
    changed = B.map_of_view(dict(view, map=dict(view["map"], hexes=other)))
    assert changed.at(other[0][:2]) == other[0][2] != game.map.at(other[0][:2])
