"""Helpers of the Advanced Enemy in Sight tests."""

from __future__ import annotations

import random
from collections import Counter

from tests.games.enemy_in_sight.helpers import SPEC, card_places, clear_table, playout, ship_id

ADV = {"variant": "advanced"}


def new_adv(players: int = 4, seed: int = 1):
    return SPEC.new(players, dict(ADV), seed)


def past_setup(g):
    """Every seat submits its arrangement as dealt and is done revising (the timeout actions)."""
    rng = random.Random(0)
    while g.state["phase"] in ("arrange", "revise"):
        seat = g.to_act()[0]
        g.apply(seat, g.timeout_action(seat, rng))
    return g


def fresh_adv(players: int = 2, seed: int = 0, turn: int = 0):
    """An Advanced game at the start of ``turn``'s action step: empty Lines, Reserves, Ports and hands,
    no red card near the top of the deck, nothing in play."""
    return clear_table(past_setup(new_adv(players, seed)), turn, ("lines", "prizes", "ports", "reserves"))


LISTS = {"line": "lines", "prize": "prizes", "port": "ports", "reserve": "reserves"}


def put(g, seat: int, name: str, where: str = "line") -> str:
    """Put a named ship at the end of a seat's Line, Reserve, Port, or as a Prize (an Advanced prize
    also takes the last Reserve station)."""
    st = g.state
    sid = ship_id(g, name)
    s = st["ships"][sid]
    if s["where"] == "deck":
        st["ship_deck"].remove(sid)
    elif s["where"] in LISTS:
        st[LISTS[s["where"]]][s["owner"]].remove(sid)
        if s["where"] == "prize":
            st["reserves"][s["owner"]].remove(sid)
    s.update(owner=seat, where=where, hits=[], fires=[], struck=False, breaker=None)
    st[LISTS[where]][seat].append(sid)
    if where == "prize":
        st["reserves"][seat].append(sid)
    return sid


def check_adv_invariants(g) -> None:
    st = g.state
    places = card_places(g)
    assert set(places) == set(st["cards"]), "a card is lost"
    assert all(v == 1 for v in places.values()), "a card is in two places"
    seen: Counter = Counter()
    if st["phase"] in ("arrange", "revise"):
        for p in range(g.players):
            a = st["arrange"][p]
            assert a["line"], "an arrangement without a Line"
            assert all(g.ship(s)["rate"] >= 5 for s in a["reserve"]) or st["phase"] == "revise"
        return
    for p in range(g.players):
        for where, lst in (("line", st["lines"][p]), ("prize", st["prizes"][p]), ("port", st["ports"][p])):
            for sid in lst:
                seen[sid] += 1
                s = st["ships"][sid]
                assert s["where"] == where and s["owner"] == p
        for sid in st["reserves"][p]:
            s = st["ships"][sid]
            assert s["owner"] == p and s["where"] in ("reserve", "prize")
            if s["where"] == "reserve":
                seen[sid] += 1
            else:
                assert sid in st["prizes"][p]
        assert set(st["prizes"][p]) <= set(st["reserves"][p])
        for sid in st["sunk"][p]:
            seen[sid] += 1
    for sid in st["ship_deck"]:
        seen[sid] += 1
    for sid, s in st["ships"].items():
        if s["where"] in ("line", "prize", "port", "deck", "sunk", "reserve"):
            assert seen[sid] == 1, (sid, s["where"])


def adv_playout(seed: int, players: int = 4, ai_seats=(), max_steps: int = 20000, check=None):
    return playout(seed, players, ai_seats, max_steps, check, make=new_adv)
