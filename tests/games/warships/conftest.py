"""Helpers for the Warships tests: build a position by hand."""

from __future__ import annotations

import pytest

from bot.games import registry
from bot.games.warships.board import board


def unit(o: int, t: str, sq: str | None, rv: bool = False) -> dict:
    b = board()
    return {
        "o": o,
        "t": t,
        "sq": b.index[sq] if sq else -1,
        "rv": rv or t == "battery",
        "nw": 0,
        "dead": False,
    }


def build(
    units,
    turn: int = 0,
    options: dict | None = None,
    batteries: bool = True,
    defaults: bool = True,
    mines_off: dict | None = None,
    first_done: bool = True,
    drop_batteries=(),
):
    """A game in play with exactly these units: list of (owner, type, square).

    Unless defaults=False, each side also gets a Landing ship and a Missile ship in a
    back corner of its port (so that no end condition fires by accident)."""
    b = board()
    g = registry.get("warships").new(2, {"quick-setup": True, **(options or {})}, seed=1)
    lst = []
    if batteries:
        for seat in (0, 1):
            for pair in b.batteries[seat]:
                for q in pair:
                    if b.names[q] not in drop_batteries:
                        lst.append(unit(seat, "battery", b.names[q]))
    given = {(o, t) for o, t, _ in units}
    if defaults:
        for o, t, sq in (
            (0, "landing", "A16"),
            (0, "missile", "L16"),
            (1, "landing", "A1"),
            (1, "missile", "L1"),
        ):
            if (o, t) not in given:
                lst.append(unit(o, t, sq))
    for o, t, sq in units:
        lst.append(unit(o, t, sq))
    for seat, n in (mines_off or {}).items():
        lst += [unit(seat, "mine", None) for _ in range(n)]
    g.state["units"] = lst
    g.state["turn"] = turn
    g.state["first"] = turn
    g.state["first_done"] = first_done
    g.state["phase"] = "play"
    return g


def shuffle_hidden_types(g, seat: int, seed: int) -> None:
    """Deal the types of the other side's face-down ships among themselves anew: what ``seat`` sees
    stays the same (the no-peeking checks)."""
    import random

    hidden = [
        u
        for u in g.state["units"]
        if u["o"] != seat
        and not u["dead"]
        and u["sq"] >= 0
        and not u["rv"]
        and u["t"] not in ("mine", "battery")
    ]
    types = [u["t"] for u in hidden]
    random.Random(seed).shuffle(types)
    for u, t in zip(hidden, types, strict=True):
        u["t"] = t


def at(g, sq: str) -> dict | None:
    b = board()
    for u in g.state["units"]:
        if not u["dead"] and u["sq"] == b.index[sq]:
            return u
    return None


def revealed(units, **kw):
    """A built position (:func:`build`) in which the enemy's listed units are face up (both players saw them)."""
    b = board()
    g = build(units, **kw)
    listed = {b.index[sq] for o, _t, sq in units if o == 1}
    for u in g.state["units"]:
        if u["o"] == 1 and u["sq"] in listed:
            u["rv"] = True
    return g


def targets(g, seat: int, frm: str, kind: str = "move") -> set[str]:
    key = "to" if kind == "move" else "target"
    return {a[key] for a in g.legal_actions(seat) if a["type"] == kind and a.get("from") == frm}


@pytest.fixture
def ws():
    class H:
        pass

    h = H()
    h.build, h.at, h.unit, h.targets, h.board = build, at, unit, targets, board()
    return h
