"""The crewmate's route planner: the cheapest Navigation route of a ship, read from a view."""

from __future__ import annotations

import heapq

from bot.games.everrain.board import PORT, ROUGH, map_of_view, step


def first_move(view: dict, me: dict, goal) -> str | None:
    """First navigation move ("forward"/"left"/"right") of the cheapest route to a state where
    ``goal(hex, facing)`` holds, or None."""
    m = map_of_view(view)
    blocked = {(e["q"], e["r"]) for e in view["enemies"]}
    blocked |= {(s["q"], s["r"]) for s in view["ships"] if s["seat"] != me["seat"] and not s["in_port"]}
    start = (me["q"], me["r"], me["facing"])
    if goal(start[:2], start[2]):
        return None
    best = {start: 0}
    heap: list[tuple[int, int, tuple[int, int, int], str | None]] = [(0, 0, start, None)]
    tie = 0
    while heap:
        cost, _, st, first = heapq.heappop(heap)
        if cost > best.get(st, 1 << 30):
            continue
        if first is not None and goal(st[:2], st[2]):
            return first
        h, f = st[:2], st[2]
        c = 2 if m.at(h) == ROUGH else 1
        for move in ("forward", "left", "right"):
            if move == "forward":
                n = step(h, f)
                if not m.sea(n) or (n in blocked and m.at(n) != PORT):
                    continue
                ns = (n[0], n[1], f)
            else:
                ns = (h[0], h[1], (f + (1 if move == "left" else -1)) % 6)
            nc = cost + c
            if nc < best.get(ns, 1 << 30):
                best[ns] = nc
                tie += 1
                heapq.heappush(heap, (nc, tie, ns, first or move))
    return None
