"""Which squares an enemy ship could attack on its next turn, on the real board (the search levels).

A ship of range r moves up to r fields along one of the 8 directions (never onto or through a unit,
across a fortification line only straight through an exit it may use, never into the range of an enemy
battery unless it is a Missile ship), then fires up to r fields (r − k after k fields under the
"harder attack" option) along a clear straight line, over a fortification line only if it is a Missile
ship; nobody fires out of or into neutral waters (rules 4–7, 14 of docs/rules/warships.md). Unlike
a rough 2r-fields reach (blockers ignored), this counts the units in the way: a Missile or
Landing ship behind its own ships is out of reach, and one in the open is not.

:class:`Sea` is one position (the occupied squares, the open exits, the squares each side may not enter);
:meth:`Sea.expected` is the expected number of enemy ships that could attack a square, each enemy unit
counted with the probability of each type it may be.
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.games.warships.board import Board
from bot.games.warships.landing import sea_steps

# an enemy unit: its square, then (range, is a Missile ship, probability) for each type it may be
Enemy = tuple[int, list[tuple[int, bool, float]]]


class Sea:
    def __init__(
        self,
        b: Board,
        occupied: Iterable[int],
        open_entrances: Iterable[int],
        closed: dict[int, set[int]],
        harder: bool = False,
    ) -> None:
        """``closed[side]``: the squares within one field of the other side's active batteries, where
        side's units but Missile ships may not go."""
        self.b = b
        self.occ = set(occupied)
        self.open = set(open_entrances)
        self.closed = closed
        self.harder = harder
        self._moves: dict[tuple[int, int, int, bool], dict[int, int]] = {}

    def _step_ok(self, a: int, c: int, side: int, over_line: bool) -> bool:
        b = self.b
        if b.port_of[a] == b.port_of[c] or over_line:
            return True
        e = b.entrance_step(a, c)
        return e is not None and (b.port_of[e] == side or e in self.open)

    def moves(self, e: int, side: int, r: int, missile: bool) -> dict[int, int]:
        """Where the unit on e can stand after its move (itself included, 0 fields), with the fields moved."""
        key = (e, side, r, missile)
        found = self._moves.get(key)
        if found is not None:
            return found
        b, occ, closed = self.b, self.occ, self.closed.get(side, set())
        out = {e: 0}
        for ray in b.rays[e]:
            cur = e
            for k, nxt in enumerate(ray[:r], 1):
                if nxt in occ or not self._step_ok(cur, nxt, side, False):
                    break
                if not missile and nxt in closed:
                    break
                out[nxt] = k
                cur = nxt
        self._moves[key] = out
        return out

    def attacks(self, e: int, side: int, r: int, missile: bool, q: int) -> bool:
        """Whether side's unit on e (range r) could attack q on its next turn."""
        b = self.b
        if r <= 0 or q in b.neutral or sea_steps(b, e, q) > 2 * r:
            return False
        stands = self.moves(e, side, r, missile)
        for ray in b.rays[q]:
            cur = q
            for d, nxt in enumerate(ray[:r], 1):
                if not self._step_ok(cur, nxt, side, missile):
                    break
                k = stands.get(nxt)
                if k is not None and nxt not in b.neutral and d <= (r - k if self.harder else r):
                    return True
                if nxt in self.occ and nxt != e:
                    break
                cur = nxt
        return False

    def expected(self, q: int, side: int, enemies: list[Enemy]) -> float:
        """The expected number of side's units in ``enemies`` that could attack q next turn."""
        return sum(p for e, kinds in enemies for r, mi, p in kinds if self.attacks(e, side, r, mi, q))
