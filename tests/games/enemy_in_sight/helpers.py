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


def playout(seed: int, players: int = 4, ai_seats=(), max_steps: int = 20000, check=None):
    """Play a whole game: AI seats use ai_action, others random legal actions."""
    g = new(players, seed)
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
