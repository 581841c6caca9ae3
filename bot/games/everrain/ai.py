"""AI crewmates. Everything here reads only a view (and the legal actions)."""

from __future__ import annotations

import random

from bot.games.everrain import board as B
from bot.games.everrain import lone, route
from bot.games.everrain.board import (
    PORT,
    distance,
    map_of_view,
    pattern_hexes,
)


def nearest_enemy_first(view: dict, legal: list[dict]) -> dict:
    """Enemy-phase order: the enemy ship nearest to any player ship activates first."""
    ships = [(s["q"], s["r"]) for s in view["ships"]]
    enemies = {e["uid"]: e for e in view["enemies"]}

    def near(a: dict) -> tuple:
        e = enemies[a["enemy"]]
        return (min(distance((e["q"], e["r"]), h) for h in ships), a["enemy"])

    return min(legal, key=near)


def rounds_left(view: dict) -> float:
    """About how many rounds the crews have before the Enemy Discovery track ends: the Agenda steps
    left over those one enemy phase adds (Banishments and sinkings only shorten it)."""
    tr = view["tracks"]
    rules = B.rules()
    left = (tr["enemy_discovery_end"] - tr["enemy_discovery"]) * tr["agenda_length"] - tr["agenda"]
    return left / (rules["agenda_base"] + rules["agenda_per_player"] * int(view["players"]))


def race_to_port(view: dict, me: dict) -> bool:
    """Whether the clues this ship carries must head for a port now to count before the Enemy
    Discovery track ends (a sunk ship loses them): the rounds left against the rounds to the nearest
    port (about RACE_PACE hexes a round), with RACE_SLACK rounds to spare."""
    if not me["clues"]:
        return False
    m = map_of_view(view)
    turns = min(distance((me["q"], me["r"]), p) for p in m.ports) / RACE_PACE
    return rounds_left(view) <= turns + RACE_SLACK


RACE_PACE, RACE_SLACK = 5.0, 0.5  # a ship with its sails manned makes about 5 hexes a round


def choose(view: dict, legal: list[dict], rng: random.Random, race: bool = False, full: int = 3) -> dict:
    """Today's crewmate (``race=False``, the easy level), or with ``race`` the crewmate that also
    plans for the Enemy Discovery track (the planner's default and rollouts): it carries its clues to
    a port in time (:func:`race_to_port`). ``full``: the clues a ship gathers before it heads for a
    port (today's: 3; :func:`crewmate` passes :func:`hold`)."""
    types = {a["type"] for a in legal}
    if "activate" in types:
        return nearest_enemy_first(view, legal)
    if "omen" in types:
        return {"type": "omen", "convert": True}
    me = view["my_ship"]
    enemies = {e["uid"]: e for e in view["enemies"]}
    board = view["board"]
    m = map_of_view(view)
    fires = [a for a in legal if a["type"] == "fire"]
    nav = {a["move"]: a for a in legal if a["type"] == "nav"}
    crews = [a for a in legal if a["type"] == "crew"]
    if me["intact"] <= 5 and not me["in_port"]:
        # Badly hurt: man a working navigation node if nobody does, then run for a port.
        if me["manned_nav"] == 0:
            idle = [
                i for i, at in enumerate(me["crew"]) if me["destroyed"][at] or board[at]["kind"] == "blank"
            ]
            opts = [a for a in crews if a["member"] in idle and board[a["to"]]["kind"] == "navigation"]
            if opts and me["orders"] >= 2:
                return opts[0]
        move = route.first_move(view, me, lambda h, f: m.at(h) == PORT) if nav else None
        if move in nav:
            return nav[move]
    if fires:
        return min(fires, key=lambda a: (enemies[a["enemy"]]["health"], a["enemy"], a["node"]))
    explores = [a for a in legal if a["type"] == "explore"]
    if explores:
        return explores[0]
    tr = view["tracks"]
    need = tr["discovery_end"] - tr["discovery"]
    sites = [(q, r) for q, r, n in view["sites"] if n > 0]
    guns = [
        i
        for i, n in enumerate(board)
        if n["kind"] == "artillery" and i in me["crew"] and not me["destroyed"][i]
    ]
    # Crew on a destroyed node goes back to work: a navigation node first, then a gun.
    for i, at in enumerate(me["crew"]):
        if me["destroyed"][at]:
            opts = [a for a in crews if a["member"] == i]
            opts.sort(
                key=lambda a: ({"navigation": 0, "artillery": 1}.get(board[a["to"]]["kind"], 2), a["to"])
            )
            if opts:
                return opts[0]
    # An enemy sits in the arc of an unmanned gun: move an idle gunner there.
    if me["orders"] >= 2 and not me["in_port"] and crews:
        for e in sorted(enemies.values(), key=lambda e: e["health"]):
            eh = (e["q"], e["r"])
            for node, n in enumerate(board):
                if n["kind"] != "artillery" or node in me["crew"] or me["destroyed"][node]:
                    continue
                if eh in pattern_hexes((me["q"], me["r"]), me["facing"], n["arc"]) and m.line_of_sight(
                    (me["q"], me["r"]), eh
                ):
                    movers = [a for a in crews if a["to"] == node and me["crew"][a["member"]] in guns]
                    if movers:
                        return movers[0]
    carried = sum(s["clues"] for s in view["ships"])
    urgent = tr["enemy_discovery_end"] - tr["enemy_discovery"] <= 1
    go_port = (
        (race and race_to_port(view, me))
        or me["intact"] <= 6
        or (me["clues"] > 0 and (urgent or carried >= need or me["clues"] >= full or not sites))
    )
    goal = None
    if go_port:
        goal = lambda h, f: m.at(h) == PORT  # noqa: E731
    elif sites:
        reach = 2 if me["nest"] else 1
        goal = lambda h, f: any(distance(h, s) <= reach for s in sites)  # noqa: E731
    elif enemies and guns:
        spots = [(e["q"], e["r"]) for e in enemies.values()]

        def goal(h, f):
            if m.at(h) == PORT:
                return False
            for g in guns:
                arc = pattern_hexes(h, f, board[g]["arc"])
                if any(x in arc and m.line_of_sight(h, x) for x in spots):
                    return True
            return False

    if goal is not None and nav:
        move = route.first_move(view, me, goal)
        if move in nav:
            return nav[move]
    return {"type": "end_turn"}


# ---------------------------------------------------------------- the race-aware crewmate
# The planner's own choice and its rollouts' policy (issue 22). Today's crewmate plays each ship for
# itself; in lost games the crews ended with clues still aboard while the Enemy Discovery track ran out.
# This one puts the race of the two tracks first, then plays as today's with ``race``.


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
    return carried >= needed(view) or race_to_port(view, me)


def hold(view: dict) -> int:
    """How many clues a ship gathers before it takes them to a port: LONE_HOLD for a lone captain (each
    trip to a port and out again costs a round it cannot share with a crewmate; the race rules still send
    it home in time), 2 in a crew on the short and medium tracks (the Agenda runs fast with every captain:
    a clue aboard at the end is lost), else 3."""
    if int(view["players"]) == 1:
        return LONE_HOLD
    return 3 if view["length"] == "long" else 2


LONE_HOLD = 5  # a lone captain's clues before a port (bench: 74 % against 70 % with 3, 1,200 solo games)


def man_the_sails(view: dict, legal: list[dict]) -> dict | None:
    """A crew order that moves a gunner to a free navigation node, or None: every hand that can sails
    the ship (issue 22, third round). A Navigation order gives 1 point + 1 per manned navigation node, so
    three hands on the Foresail, Mainsail and Helm make 4 points an order against today's 2, and an
    Evasion die each; the crews lost the race of the two tracks for want of speed, not of shots (bench:
    87 % against 77 % over the 24 lines). A shot in reach is taken first."""
    me = view.get("my_ship")
    if me is None or any(a["type"] == "fire" for a in legal):
        return None
    board = view["board"]
    for a in legal:
        if (
            a["type"] == "crew"
            and board[a["to"]]["kind"] == "navigation"
            and board[me["crew"][a["member"]]]["kind"] == "artillery"
        ):
            return a
    return None


def crewmate(view: dict, legal: list[dict], rng: random.Random) -> dict:
    """The crewmate (the planner's choice and its rollouts' policy): a lone captain hurt with clues aboard
    sails them home first (:func:`lone.hurt_home`, issue 22's fourth round), its gunners man the sails
    (:func:`man_the_sails`, the third round), then it plays as :func:`race_crewmate`."""
    return lone.hurt_home(view, legal) or third_crewmate(view, legal, rng)


def third_crewmate(view: dict, legal: list[dict], rng: random.Random) -> dict:
    """The crewmate of issue 22's third round: its gunners man the sails, then :func:`race_crewmate`."""
    return man_the_sails(view, legal) or race_crewmate(view, legal, rng)


def race_crewmate(view: dict, legal: list[dict], rng: random.Random) -> dict:
    """The race-aware crewmate's order (issue 22's second round): the race of the two tracks first
    (:func:`sail_home`, a ship holding clues in a port leaves it to come back in), then today's rules
    with ``race``."""
    me = view.get("my_ship")
    nav = {a["move"]: a for a in legal if a["type"] == "nav"}
    if me is not None and nav and me["clues"]:
        m = map_of_view(view)
        move = None
        if me["in_port"] and (me["clues"] >= hold(view) or sail_home(view, dict(me, in_port=False))):
            # Clues count when a ship enters a port: one gathered from a port leaves it to come back in.
            move = route.first_move(view, me, lambda h, f: m.at(h) != PORT)
        elif sail_home(view, me):
            move = route.first_move(view, me, lambda h, f: m.at(h) == PORT)
        if move in nav:
            return nav[move]
    return choose(view, legal, rng, race=True, full=hold(view))


def today(view: dict, legal: list[dict], seat: int, rng: random.Random) -> dict:
    """Today's crewmate as it was before issue 22 (no noise): the benches' baseline."""
    return choose(view, legal, rng)


# bench/bench_ai.py's players beside the levels: today's crewmate, the planner's crewmate, the third
# round's (without lone.hurt_home), and the same without man_the_sails (its race rules alone; with the
# third round's hold and race pace)
BASELINES = {
    "today": today,
    "crew": lambda view, legal, seat, rng: crewmate(view, legal, rng),
    "crew3": lambda view, legal, seat, rng: third_crewmate(view, legal, rng),
    "race": lambda view, legal, seat, rng: race_crewmate(view, legal, rng),
}


EASY_NOISE = 0.05  # the easy level's chance of another legal order than today's choice


def easy(view: dict, legal: list[dict], rng: random.Random) -> dict:
    """The easy level: today's crewmate, or with a chance of EASY_NOISE another legal order."""
    if len(legal) > 1 and rng.random() < EASY_NOISE:
        return rng.choice(legal)
    return choose(view, legal, rng)
