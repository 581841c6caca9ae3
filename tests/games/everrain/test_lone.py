"""The lone captain's rules of play (``bot/games/everrain/lone.py``, issue 22's fourth round), each on a
constructed position."""

from __future__ import annotations

import random

from bot.games import registry
from bot.games.ai import Budget
from bot.games.everrain import ai, lone, route
from bot.games.everrain import board as B


def _hurt_beside_an_enemy(players: int, intact: int, clues: int):
    """A ship of seat 0 at sea, ``intact`` nodes left and ``clues`` aboard, with an enemy in its Port
    gun's arc (manned) and a clue site within reach: the third round's crewmate shoots."""
    game = registry.get("everrain").new(players, {"length": "long"}, seed=3)
    board = B.ship_board()["node"]
    m, e = game.map, game.state["enemies"][0]
    here, there = next(
        (h, x)
        for h in sorted(m.terrain)
        if m.sea(h)
        and m.at(h) != B.PORT
        and h not in game.occupied()
        and min(B.distance(h, p) for p in m.ports) >= 3
        for x in B.pattern_hexes(h, 0, board[2]["arc"])
        if m.sea(x) and m.at(x) != B.PORT and x not in game.occupied() and m.line_of_sight(h, x)
    )
    s = game.ship(0)
    s["q"], s["r"], s["facing"], s["clues"] = here[0], here[1], 0, clues
    s["crew"] = [7, 2, 4]  # Helm, Port gun, Mainsail
    s["destroyed"] = [False] * 10
    for node in (6, 8, 9, 0, 3, 5, 1)[: 10 - intact]:  # Hold, Cabin, Stern gun, Bow gun, ...
        s["destroyed"][node] = True
    e["q"], e["r"] = there
    return game


def test_a_hurt_lone_captain_sails_its_clues_home_before_shooting():
    """A lone captain with a clue aboard and 7 intact nodes sails for the nearest port instead of the shot
    the third round's crewmate takes; with 8 intact nodes, no clue aboard, or in a crew, it shoots."""
    game = _hurt_beside_an_enemy(1, intact=7, clues=1)
    view, legal = game.view(0), game.legal_actions(0)
    assert view["my_ship"]["intact"] == 7 and any(a["type"] == "fire" for a in legal)
    assert ai.third_crewmate(view, legal, random.Random(1))["type"] == "fire"
    home = route.first_move(view, view["my_ship"], lambda h, f: game.map.at(h) == B.PORT)
    assert home is not None
    assert lone.hurt_home(view, legal) == {"type": "nav", "move": home}
    assert ai.crewmate(view, legal, random.Random(1)) == {"type": "nav", "move": home}
    for players, intact, clues in ((1, 8, 1), (1, 7, 0), (2, 7, 1)):
        game = _hurt_beside_an_enemy(players, intact=intact, clues=clues)
        view, legal = game.view(0), game.legal_actions(0)
        assert lone.hurt_home(view, legal) is None
        assert ai.crewmate(view, legal, random.Random(1))["type"] == "fire"


def test_a_hurt_lone_captain_in_a_port_stays_with_the_crewmates_choice():
    """In a port the ship is repaired already: the rule leaves the crewmate's choice alone."""
    game = registry.get("everrain").new(1, {"length": "long"}, seed=3)
    s = game.ship(0)
    assert game.in_port(s)
    s["clues"] = 2
    s["destroyed"] = [True] * 3 + [False] * 7
    view, legal = game.view(0), game.legal_actions(0)
    assert lone.hurt_home(view, legal) is None


def test_a_lone_captain_finishes_its_games_at_every_level_with_small_caps():
    """Lone-captain games on The Drowned Archipelago end at every level (no stall)."""
    for seed, level in enumerate(("easy", "normal", "hard")):
        game = registry.get("everrain").new(1, {"length": "short", "scenario": "archipelago"}, seed=seed)
        rng = random.Random(seed)
        for _ in range(3000):
            if game.is_over:
                break
            game.apply(0, game.ai_action(0, rng, level, Budget(1.0, iterations=2)))
        assert game.is_over
