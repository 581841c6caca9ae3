"""A heuristic AI seat for Enemy in Sight.

It sees only ``view(seat)`` and the legal actions: it fires the heaviest legal
broadside at the best target (a ship it can sink, else one it can dismast and
board, else the most valuable hull), boards dismasted ships, repairs badly hurt
ships, fights fires, and refuses battle to bank prizes or save a wrecked Line.
"""

from __future__ import annotations

import random

from bot.games.base import is_choice


def _index(view: dict) -> dict:
    ships = {}
    for f in view["fleets"]:
        for where in ("line", "prizes", "port", "reserve"):
            for s in f.get(where, []):
                if where == "reserve" and s.get("prize"):
                    continue  # an Advanced prize is listed under "prizes" too
                ships[s["id"]] = {**s, "owner": f["seat"], "where": where}
    arr = view.get("arrange")
    if arr:
        for where in ("line", "reserve"):
            for s in arr[where]:
                ships[s["id"]] = {**s, "owner": view["seat"], "where": "arrange_" + where}
    return ships


def _left(s: dict, loc: str) -> int:
    return s[loc] - s[f"{loc}_dmg"]


def _vp(s: dict) -> int:
    return s["hull"] + s["rig"]


# The weights of the heuristic's rules, as they were before issue 22. bench/tune_enemy_in_sight.py plays
# other weights against them; none it tried so far won more games (bench/RESULTS.md), so the easy level,
# the search's first choice and its rollouts all play these.
TODAY: dict[str, float] = {
    "capture_prize": 2,  # a capture kept as a prize (1: put into the Line)
    "leader": 5,  # a shot or a Break the Line at the leader
    "sink": 100,  # a shot that sinks
    "hull": 20,  # another shot at the hull
    "dismast": 60,  # a shot that dismasts, with a Boarding Party in hand
    "dismast_alone": 8,  # one that dismasts without (today: an ordinary shot at the rigging)
    "rig": 8,  # another shot at the rigging
    "board": 80,  # board a ship after a broadside
    "fire": 25,  # fire a Broadside or Rake
    "fire_dmg": 3,  # and per point of its damage
    "can_sink": 10,  # when its damage could sink a ship
    "rake": -8,  # a Rake rather than a Broadside
    "boarding": 45,  # a Boarding Party alone
    "repair": 32,  # repair a badly hurt ship
    "repair_light": 6,  # another
    "bucket": 35,  # a Bucket Brigade
    "add_line": 26,  # an Additional Ship to the Line
    "add_port": 2,  # to Port
    "bank": 50,  # Refuse Battle with prizes
    "save": 18,  # with a wrecked ship in the Line
    "refuse_behind": 12,  # well behind
    "break_line": 28,
    "fire_ship": 12,
    "blockade": 6,
}


def choose(view: dict, legal: list[dict], rng: random.Random, w: dict[str, float] = TODAY) -> dict:
    """The heuristic: the legal action it values most (its open choice of ships answered)."""
    return resolve(view, rank(view, legal, rng, w)[0][1], rng)


def resolve(view: dict, action: dict, rng: random.Random) -> dict:
    """``action`` with its open choice of ships (if any) answered the way the heuristic would."""
    return _answer(_index(view), action, rng) if is_choice(action.get("ships")) else action


def rank(
    view: dict, legal: list[dict], rng: random.Random, w: dict[str, float] = TODAY
) -> list[tuple[float, dict]]:
    """Every legal action with the heuristic's value of it, the best first (ties broken by ``rng``);
    ``w`` the weights of its rules (:data:`TODAY`, or others to try)."""
    if not legal:
        raise ValueError("no legal action")
    me = view["seat"]
    ships = _index(view)
    hand = {c["id"]: c for c in view.get("hand", [])}
    scores = view["scores"]
    leader = max(range(len(scores)), key=lambda p: scores[p] if p != me else -(10**6))
    has_boarding = any(c["type"] == "boarding" for c in hand.values())
    pend = view.get("pending") or {}

    def value(a: dict) -> float:
        t = a["type"]
        if t in ADVANCED_TYPES:
            return _advanced_value(view, ships, pend, a)
        if t == "secret":
            b = view["boarding"]
            mine = b["boarder"] if me == b["att"] else b["target"]
            rate = ships[mine]["rate"] if mine in ships else (view["capture"] or {}).get("rate", 6)
            c = hand.get(a["card"]) if a["card"] else None
            if c is None:
                return 0.5
            if c["type"] == "rake" or (c["type"] == "broadside" and rate <= c["rate"]):
                return 10 + c["damage"]
            return 0
        if t == "capture":
            # an Advanced prize goes to the rear of the Reserve
            return (w["capture_prize"] if a["where"] == "prize" else 1) - 0.01 * abs(
                a.get("station", 0)
                - len(next(f for f in view["fleets"] if f["seat"] == me).get("reserve", []))
            )
        if t == "red":
            return 1
        if t == "cancel":
            return -100
        if t == "shoot":
            s = ships[a["ship"]]
            dmg = pend.get("card_view", {}).get("damage", 1)
            bonus = w["leader"] if s["owner"] == leader else 0
            if a["loc"] == "hull":
                if dmg >= _left(s, "hull"):
                    return w["sink"] + _vp(s) + bonus
                return w["hull"] + _vp(s) / 2 - _left(s, "hull") + bonus
            if not s["dismasted"] and dmg >= _left(s, "rig") and has_boarding:
                return w["dismast"] + _vp(s) + bonus
            if not s["dismasted"] and dmg >= _left(s, "rig"):
                return w["dismast_alone"] + _vp(s) / 4 - _left(s, "rig") + bonus
            if s["dismasted"]:
                return -5
            return w["rig"] + _vp(s) / 4 - _left(s, "rig") + bonus
        if t == "board":
            return w["board"]
        if t == "done":
            step = pend.get("step")
            if step == "move":
                return 5
            if step == "breakers":
                return 5
            return 1
        if t == "breaker":
            return 10
        if t == "move":
            return _move_value(ships, pend.get("chosen", []), a["ship"])
        if t == "discard":
            c = hand[a["card"]]
            playable = any(x["type"] == "play" and x.get("card") == a["card"] for x in legal)
            base = {
                "broadside": c.get("damage", 1),
                "rake": 1,
                "boarding": 3,
                "refuse_battle": 2,
                "repair": 2,
                "additional_ship": 4,
            }.get(c["type"], 1)
            return -base if playable else -0.5
        if t == "play":
            c = hand[a["card"]]
            ct = c["type"]
            if ct in ("broadside", "rake"):
                best = 0.0
                for s in ships.values():
                    if s["owner"] == me or s["where"] != "line" or s["struck"] or s.get("immune"):
                        continue
                    best = max(best, w["can_sink"] if c["damage"] >= _left(s, "hull") else 0)
                firer = ships[a["ship"]]
                return (
                    w["fire"]
                    + w["fire_dmg"] * c["damage"]
                    + best
                    + firer["rate"] / 10
                    + (w["rake"] if ct == "rake" else 0)
                )
            if ct == "boarding":
                return w["boarding"] + _vp(ships[a["target"]])
            if ct == "repair":
                s = ships[a["ship"]]
                return (
                    w["repair"] if _left(s, "hull") <= 3 or s["dismasted"] else w["repair_light"]
                ) + rng.random()
            if ct == "bucket":
                return w["bucket"]
            if ct == "additional_ship":
                return w["add_line"] if a["where"] in ("line", "reserve") else w["add_port"]
            if ct == "refuse_battle":
                mine = [s for s in ships.values() if s["owner"] == me]
                prizes = [s for s in mine if s["where"] == "prizes"]
                wrecked = [
                    s for s in mine if s["where"] == "line" and (s["dismasted"] or _left(s, "hull") <= 2)
                ]
                if prizes:
                    return w["bank"] + sum(_vp(s) for s in prizes)
                if wrecked:
                    return w["save"]
                if scores[me] < max(scores) - 25:
                    return w["refuse_behind"]
                return 1
            if ct == "break_line":
                return w["break_line"] + (w["leader"] if a["seat"] == leader else 0)
            if ct == "fire_ship":
                if "port" in a:
                    return 4 * len(
                        [s for s in ships.values() if s["owner"] == a["port"] and s["where"] == "port"]
                    )
                s = ships[a["ship"]]
                return w["fire_ship"] + _vp(s) / 3 + (3 if s["dismasted"] else 0)
            if ct == "blockade":
                return w["blockade"]
            return 1
        return 0

    scored = [(value(a), rng.random(), i) for i, a in enumerate(legal)]
    scored.sort(reverse=True)
    return [(v, legal[i]) for v, _, i in scored]


DONE_MOVING = 5  # the value of confirming the ships chosen so far (see "done" above)


def _answer(ships: dict, a: dict, rng: random.Random) -> dict:
    """The ships of an open choice picked at once, as they would be one by one: every Line Breaker the
    card allows; for a Refuse Battle each next ship while moving it is worth more than stopping."""
    choice = a["ships"]
    left = list(choice["choose"])
    chosen: list[str] = []
    breakers = a["type"] == "play" and "seat" in a
    while left and len(chosen) < choice["max"]:
        scored = [(10 if breakers else _move_value(ships, chosen, sid), rng.random(), sid) for sid in left]
        worth, _, sid = max(scored)
        if worth <= DONE_MOVING and len(chosen) >= choice["min"]:
            break
        chosen.append(sid)
        left.remove(sid)
    return {**a, "ships": chosen}


def _move_value(ships: dict, chosen: list[str], sid: str) -> float:
    """Refuse Battle: what moving ``sid`` is worth with ``chosen`` already going."""
    s = ships[sid]
    pend = {"chosen": chosen}
    if sid in chosen:
        return -50
    if s["where"] == "port":
        return 20
    if s["where"] == "prizes":
        return 40 if not s["dismasted"] else (15 if _tows(pend, ships) > 0 else -50)
    if s["dismasted"]:
        return 15 if _tows(pend, ships) > 0 else -50
    if _left(s, "hull") <= s["hull"] // 2 or s["struck"]:
        return 12
    return -50


def _tows(pend: dict, ships: dict) -> int:
    """Mobile ships already chosen to go to Port minus dismasted ones chosen (spare tows)."""
    going = [ships[s] for s in pend.get("chosen", []) if s in ships and ships[s]["where"] != "port"]
    return sum(1 for s in going if not s["dismasted"]) - sum(1 for s in going if s["dismasted"])


ADVANCED_TYPES = ("station", "reserve", "submit", "to_line", "relocate", "transfer")


def _advanced_value(view: dict, ships: dict, pend: dict, a: dict) -> float:
    """The Advanced variant: keep one frigate in the Reserve (a screen against Fire Ships and a tow),
    submit, keep the revealed Line, send badly hurt ships behind the Line and bring fresh ones back."""
    t = a["type"]
    me = view["seat"]
    if t == "submit":
        return 5
    if t == "reserve":
        arr = view["arrange"]
        small = [s for s in arr["line"] if s["rate"] >= 5]
        if arr["reserve"] or len(small) < 2 or a["ship"] not in [s["id"] for s in arr["line"]]:
            return -1
        return 10 + ships[a["ship"]]["rate"] - a["to"]
    if t in ("station", "to_line", "relocate"):
        return -1
    if t == "transfer":
        s = ships[a["ship"]]
        fleet = next(f for f in view["fleets"] if f["seat"] == me)
        if s["where"] == "line":
            # Break the Line damage is repaired when its card leaves play (the Line Breakers gone): a
            # ship hurt mostly by it stays, or she would come back repaired at once (shuttling)
            lasting = sum(h["dmg"] for h in s["hits"] if h["loc"] == "hull" and h["kind"] != "btl")
            if s["dismasted"] or (_left(s, "hull") <= 3 and s["hull"] - lasting <= 5):
                return 27 - 0.01 * a["station"]
            return -10
        if s["dismasted"] or _left(s, "hull") <= max(3, s["hull"] // 2):
            return -10  # (never the ships it would send back: no shuttling)
        frigates = [
            x for x in fleet["reserve"] if not x.get("prize") and x["rate"] >= 5 and not x["dismasted"]
        ]
        if len(frigates) <= 1 and s["rate"] >= 5 and len(fleet["line"]) >= 4:
            return -10  # keep the screen
        return 24 - 0.01 * abs(a["station"] - len(fleet["line"]) // 2)
    return 0


EASY_NOISE = 0.1  # how often the easy AI plays its second-best move (or, a third of those times, any)


def easy(view: dict, legal: list[dict], rng: random.Random) -> dict:
    """The easy level: today's heuristic, with now and then a slip to a lesser move."""
    ranked = rank(view, legal, rng)
    pick = ranked[0][1]
    if len(ranked) > 1 and rng.random() < EASY_NOISE:
        pick = rng.choice(ranked[1:])[1] if rng.random() < 1 / 3 else ranked[1][1]
        if pick["type"] in ("cancel", "transfer"):  # no slip moves a ship back and forth (shuttling)
            pick = ranked[0][1]
    return resolve(view, pick, rng)


def _today(view: dict, legal: list[dict], seat: int, rng: random.Random) -> dict:
    """Today's heuristic (``TODAY``) without noise, as a bench baseline (``--vs hard today``). The bench
    plays the exact copy frozen before issue 22 (bench/baselines/enemy_in_sight_today.py) in its place:
    this one differs from it only in the Advanced game, where it does not shuttle ships."""
    return choose(view, legal, rng, TODAY)


BASELINES = {"today": _today}
