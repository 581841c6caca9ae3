"""The lone captain's rules of play (issue 22, fourth round): a ship with no crewmate to share the
enemies' fire.

Lost games of a lone captain, read round by round (The Rainy Strait long, The Drowned Archipelago medium
and long, seeds 1-200; bench/RESULTS.md), were lost on the Enemy Discovery track, and in 56-72 % of them
the ship had sunk (0.7-1.1 sinkings a lost game, 0.01-0.07 a won one): hurt, it spent its last orders
exploring or shooting beside the enemies with clues aboard. A sinking loses the clues (2.3-3.6 a lost
game), advances the Agenda 2 steps and costs the rounds back from the port. The crewmate runs for a port
before anything else only at 5 intact nodes or fewer, and at 6 only after its shots and explorations.
"""

from __future__ import annotations

from bot.games.everrain import route
from bot.games.everrain.board import PORT, map_of_view

HURT = 7  # a lone captain with clues aboard and this many intact nodes or fewer sails them home first


def hurt_home(view: dict, legal: list[dict]) -> dict | None:
    """A lone captain's Navigation step toward the nearest port when it carries clues and its ship is hurt
    (HURT intact nodes or fewer), before any shot, exploration or crew order, or None. Entering a port
    delivers the clues and repairs the ship; one more enemy phase at sea could sink it with them (bench:
    the six lone-captain lines, seeds 201-500: 79.7 % against 72.3 %)."""
    me = view.get("my_ship")
    nav = {a["move"]: a for a in legal if a["type"] == "nav"}
    if me is None or int(view["players"]) != 1 or not nav or me["in_port"]:
        return None
    if not me["clues"] or me["intact"] > HURT:
        return None
    m = map_of_view(view)
    move = route.first_move(view, me, lambda h, f: m.at(h) == PORT)
    return nav.get(move) if move else None
