"""Shared helpers of the Enemy in Sight tests."""

from __future__ import annotations

import random
from collections import Counter

from bot.games import registry

SPEC = registry.get("enemy-in-sight")


def new(players: int = 4, seed: int = 1):
    return SPEC.new(players, {}, seed)


def card_places(g) -> Counter:
    st = g.state
    places: Counter = Counter()
    for c in st["deck"]:
        places[c] += 1
    for c in st["discard"]:
        places[c] += 1
    for h in st["hands"]:
        for c in h:
            places[c] += 1
    for s in st["ships"].values():
        for h in s["hits"]:
            if h["card"]:
                places[h["card"]] += 1
        for f in s["fires"]:
            places[f["card"]] += 1
    for kind in ("btl", "blockade", "refuse"):
        for x in st["in_play"][kind]:
            places[x["card"]] += 1
    return places


def check_invariants(g) -> None:
    st = g.state
    places = card_places(g)
    assert set(places) == set(st["cards"]), "a card is lost"
    assert all(v == 1 for v in places.values()), "a card is in two places"
    seen = Counter()
    for p in range(g.players):
        for where, lst in (("line", st["lines"][p]), ("prize", st["prizes"][p]), ("port", st["ports"][p])):
            for sid in lst:
                seen[sid] += 1
                s = st["ships"][sid]
                assert s["where"] == where and s["owner"] == p
        for sid in st["sunk"][p]:
            seen[sid] += 1
    for sid in st["ship_deck"]:
        seen[sid] += 1
        assert st["ships"][sid]["where"] == "deck"
    for sid, s in st["ships"].items():
        if s["where"] in ("line", "prize", "port", "deck", "sunk"):
            assert seen[sid] == 1, (sid, s["where"])
        elif s["where"] == "captured":
            assert st["phase"] == "capture"


def playout(seed: int, players: int = 4, ai_seats=(), max_steps: int = 20000, check=None, make=None):
    """Play a whole game: AI seats use ai_action, others random legal actions.
    ``make(players, seed)`` makes the game (default: the base game)."""
    g = (make or new)(players, seed)
    rng = random.Random(seed)
    steps = 0
    while not g.is_over:
        seats = g.to_act()
        seat = seats[rng.randrange(len(seats))]
        legal = g.legal_actions(seat)
        assert legal, "a seat to act has no legal action"
        action = g.ai_action(seat, rng) if seat in ai_seats else rng.choice(legal)
        events = g.apply(seat, action)
        if check:
            check(g, seat, action, events)
        steps += 1
        assert steps < max_steps, "game did not end"
    return g, steps


# ---------------------------------------------------------------- building situations
LISTS = {"line": "lines", "prize": "prizes", "port": "ports"}


def ship_id(g, name: str) -> str:
    return next(sid for sid, s in g.state["ships"].items() if s["name"] == name)


def place(g, seat: int, name: str, where: str = "line") -> str:
    st = g.state
    sid = ship_id(g, name)
    s = st["ships"][sid]
    if s["where"] == "deck":
        st["ship_deck"].remove(sid)
    elif s["where"] in LISTS:
        st[LISTS[s["where"]]][s["owner"]].remove(sid)
    s.update(owner=seat, where=where, hits=[], fires=[], struck=False, breaker=None)
    st[LISTS[where]][seat].append(sid)
    return sid


def find_card(g, ctype: str, **fields) -> str:
    st = g.state
    for cid in st["deck"] + st["discard"]:
        c = g.card(cid)
        if c["type"] == ctype and all(c.get(k) == v for k, v in fields.items()):
            return cid
    raise LookupError(ctype)


def _take(g, cid: str) -> None:
    st = g.state
    for lst in [st["deck"], st["discard"]] + st["hands"]:
        if cid in lst:
            lst.remove(cid)
            return


def give(g, seat: int, ctype: str, **fields) -> str:
    cid = find_card(g, ctype, **fields)
    _take(g, cid)
    g.state["hands"][seat].append(cid)
    return cid


def to_top(g, ctype: str, **fields) -> str:
    cid = find_card(g, ctype, **fields)
    _take(g, cid)
    g.state["deck"].insert(0, cid)
    return cid


def hit(g, sid: str, loc: str, dmg: int, kind: str = "broadside") -> None:
    """Put a hit card (taken from the deck) on a ship."""
    cid = None
    if kind in ("broadside", "rake"):
        cid = find_card(g, kind)
        _take(g, cid)
    g.state["ships"][sid]["hits"].append({"card": cid, "kind": kind, "loc": loc, "dmg": dmg})


def fresh(players: int = 2, seed: int = 0, turn: int = 0):
    """A game at the start of ``turn``'s action step: empty Lines, Ports and hands, no red card near
    the top of the deck, nothing in play."""
    return clear_table(new(players, seed), turn)


def clear_table(g, turn: int, keys=("lines", "prizes", "ports")):
    """Empty every seat's ``keys`` (ships back to the pile) and hands, clear what is in play, sort the
    red cards to the bottom of the deck, and start ``turn``'s action step."""
    st = g.state
    for p in range(g.players):
        for key in keys:
            for sid in list(st[key][p]):
                s = st["ships"][sid]
                for h in s["hits"]:
                    if h["card"]:
                        st["discard"].append(h["card"])
                for f in s["fires"]:
                    st["discard"].append(f["card"])
                s.update(owner=None, where="deck", hits=[], fires=[], struck=False, breaker=None)
                if sid not in st["ship_deck"]:
                    st["ship_deck"].append(sid)
            st[key][p] = []
        st["deck"] += st["hands"][p]
        st["hands"][p] = []
    for kind in ("btl", "blockade", "refuse"):
        st["deck"] += [x["card"] for x in st["in_play"][kind]]
        st["in_play"][kind] = []
    st["deck"] += st["discard"]
    st["discard"] = []
    st["deck"].sort(key=lambda c: (g.card(c)["red"], c))
    st.update(turn=turn, phase="turn", pending=None, boarding=None, capture=None, dealer=turn)
    return g


def fix_dice(g, *values: int) -> None:
    """Make the next die rolls return these values (then 3s)."""
    seq = list(values)
    g.rng.d = lambda sides=6: seq.pop(0) if seq else 3
