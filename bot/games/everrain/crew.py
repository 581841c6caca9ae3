"""The race-aware crewmate: the planner's own choice and its rollouts' policy (issue 22).

Today's crewmate (:func:`ai.choose`) plays each ship for itself; in lost games the crews end with clues
still aboard while the Enemy Discovery track runs out. This crewmate puts the race of the two tracks
first, then falls back on today's crewmate (``ai.choose(..., race=True)``). It reads only a view.
"""

from __future__ import annotations

import random

from bot.games.everrain import ai
from bot.games.everrain.board import PORT, map_of_view


def needed(view: dict) -> int:
    """Clues still to deliver for the crews to win."""
    tr = view["tracks"]
    return tr["discovery_end"] - tr["discovery"]


def sail_home(view: dict, me: dict) -> bool:
    """Whether this ship's clues should go to a port now, before anything else: the clues aboard every
    ship win the game once delivered, or the Enemy Discovery track leaves no time for more."""
    if not me["clues"] or me["in_port"]:
        return False
    carried = sum(s["clues"] for s in view["ships"])
    return carried >= needed(view) or ai.race_to_port(view, me)


def hold(view: dict) -> int:
    """How many clues a ship gathers before it takes them to a port: 2 in a crew on the short and medium
    tracks (the Agenda runs fast with every captain: a clue aboard at the end is lost), else 3."""
    return 3 if int(view["players"]) == 1 or view["length"] == "long" else 2


def choose(view: dict, legal: list[dict], rng: random.Random) -> dict:
    """The race-aware crewmate's order (see the module's text)."""
    me = view.get("my_ship")
    nav = {a["move"]: a for a in legal if a["type"] == "nav"}
    if me is not None and nav and me["clues"]:
        m = map_of_view(view)
        move = None
        if me["in_port"] and (me["clues"] >= hold(view) or sail_home(view, dict(me, in_port=False))):
            # Clues count when a ship enters a port: one gathered from a port leaves it to come back in.
            move = ai._plan(view, me, lambda h, f: m.at(h) != PORT)
        elif sail_home(view, me):
            move = ai._plan(view, me, lambda h, f: m.at(h) == PORT)
        if move in nav:
            return nav[move]
    return ai.choose(view, legal, rng, race=True, full=hold(view))
