"""A whole Warships state consistent with what one seat sees (``WarshipsGame.resample``).

The seat's own units, every revealed unit, the batteries, the losses and the off-board mine counts are
copied from its view. What the view hides is the type of each face-down enemy unit (and of the enemy
units lost face down in neutral waters); those types are dealt from what the enemy may still have (the
unit table's counts minus what is known) so that what both players saw stays true:

- a unit that ever moved (``moved`` in the view: its longest single move) is not a mine, and its range
  is at least that long;
- mines still face down stand where they were set up: unmoved units in the enemy's own port;
- an enemy unit within one field of one of the seat's active batteries is a missile ship (no other enemy
  may enter there);
- a unit lost face down in neutral waters moved there, so it was a ship.

Types are dealt most constrained unit first, each from the types that fit in proportion to how many are
left; the range limits are nested (range ≥ k), so this never paints itself into a corner when the view
came from a real game.
"""

from __future__ import annotations

import copy
import random
from typing import TypeVar

from bot.games.base import Game
from bot.games.warships.ai import SHIPS as SHIP_TYPES
from bot.games.warships.board import board

G = TypeVar("G", bound=Game)


def _unit(owner: int, t: str | None, sq: int, rv: bool = False, nw: int = 0, mv: int = 0) -> dict:
    return {"o": owner, "t": t, "sq": sq, "rv": rv, "nw": nw, "dead": False, "mv": mv}


def _deal(pool: dict[str, int], fits: list[str], rng: random.Random) -> str:
    """One type from ``fits`` drawn in proportion to how many are left in ``pool`` (which it lowers)."""
    weights = [pool.get(t, 0) for t in fits]
    if sum(weights) <= 0:  # an inconsistent view (a hand-built test position): any type left will do
        fits = [t for t in pool if pool[t] > 0] or list(SHIP_TYPES)
        weights = [max(pool.get(t, 0), 1) for t in fits]
    t = rng.choices(fits, weights)[0]
    pool[t] = pool.get(t, 0) - 1
    return t


def _setup_fleet(seat: int, rng: random.Random) -> list[dict]:
    """A random secret arrangement of ``seat``'s port (the other side sees nothing of it in setup)."""
    b = board()
    squares = list(b.light[seat])
    rng.shuffle(squares)
    units = []
    for t in b.order:
        if t == "battery":
            continue
        for _ in range(int(b.types[t]["count"])):
            units.append(_unit(seat, t, squares.pop()))
    return units


def resample(cls: type[G], view: dict, seat: int, rng: random.Random) -> G:
    b = board()
    opp = 1 - seat
    options = dict(view.get("options", {}))
    setup = view["phase"] == "setup"
    units: list[dict] = []
    hidden: list[dict] = []  # the enemy's face-down units on the board
    for v in view["units"]:
        u = _unit(
            v["owner"], v["type"], b.index[v["sq"]], bool(v["revealed"]), int(v["nw"]), v.get("moved", 0)
        )
        units.append(u)
        if u["t"] is None:
            hidden.append(u)
    off = view.get("off_board_mines", {})
    for p in (0, 1):
        units += [_unit(p, "mine", -1) for _ in range(int(off.get(str(p), 0)))]
    if setup:
        units += _setup_fleet(opp, rng)
    lost: dict[str, list] = {str(seat): [], str(opp): []}
    for t, n in view["lost"][str(seat)]["types"].items():
        lost[str(seat)] += [[t, True] for _ in range(n)]
    for t, n in view["lost"][str(opp)]["types"].items():
        lost[str(opp)] += [[t, True] for _ in range(n)]
    if not setup:
        # what the enemy may still have face down: the table's counts minus every unit known
        pool = {t: int(b.types[t]["count"]) for t in (*SHIP_TYPES, "mine")}
        for u in units:
            if u["o"] == opp and u["t"] in pool:
                pool[u["t"]] -= 1
        for t, n in view["lost"][str(opp)]["types"].items():
            if t in pool:
                pool[t] -= n
        _deal_hidden(hidden, pool, view, seat, options, rng)
        unknown = int(view["lost"][str(opp)]["unknown"])
        lost[str(opp)] += [[_deal(pool, list(SHIP_TYPES), rng), False] for _ in range(unknown)]
    game = cls(2, options, seed=rng.randrange(1 << 30), _setup=False)
    first = view.get("first")
    game.state = {
        "phase": view["phase"],
        "units": units,
        "submitted": list(view["submitted"]),
        "first": first if first is not None else rng.randrange(2),
        "turn": view["turn"],
        "first_done": int(view["ply"]) > 0,
        "ply": int(view["ply"]),
        "last": copy.deepcopy(view["last"]),
        "lost": lost,
        "winners": copy.deepcopy(view["winners"]),
        "end": view["end"],
    }
    return game


def _deal_hidden(
    hidden: list[dict], pool: dict[str, int], view: dict, seat: int, options: dict, rng: random.Random
) -> None:
    b = board()
    opp = 1 - seat
    guarded = {
        c
        for v in view["units"]
        if v["owner"] == seat and v["type"] == "battery"
        for c in b.near[b.index[v["sq"]]]
    }
    forced = [u for u in hidden if u["sq"] in guarded]
    for u in forced:
        u["t"] = _deal(pool, ["missile"], rng)
    free = [u for u in hidden if u["t"] is None]
    # mines face down: unmoved units in their own port
    can_mine = [u for u in free if not u["mv"] and b.port_of[u["sq"]] == opp]
    mines = max(0, pool.get("mine", 0))
    if mines > len(can_mine):  # a view that lost the moves (an old saved game): any unit at home
        can_mine += [u for u in free if u not in can_mine and b.port_of[u["sq"]] == opp]
    for u in rng.sample(can_mine, min(mines, len(can_mine))):
        u["t"] = "mine"
        pool["mine"] -= 1
    rest = [u for u in free if u["t"] is None]
    rng.shuffle(rest)
    rest.sort(key=lambda u: -u["mv"])  # longest moves first: their types are the scarcest
    for u in rest:
        fits = [t for t in SHIP_TYPES if b.range_of(t, options) >= u["mv"]]
        u["t"] = _deal(pool, fits, rng)
