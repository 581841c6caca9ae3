"""Variant hooks of Enemy in Sight.

The engine asks a rules object every question on which the Advanced variant
differs from the base game: hand capacity, which ships count as the "Line"
(the Advanced game adds a reserve), and which ships a ship may attack. A later
variant subclasses :class:`BaseRules` and registers itself in ``VARIANTS``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from bot.games.enemy_in_sight.game import EnemyInSight


class BaseRules:
    name = "base"
    advanced = False

    def line(self, g: EnemyInSight, seat: int) -> list[str]:
        """Ships of ``seat`` that form its Line (fire, are fired at, count for capacity)."""
        return list(g.state["lines"][seat])

    def capacity(self, g: EnemyInSight, seat: int) -> int:
        """Hand capacity: ships in Line, struck ships not counted, minimum 1."""
        return max(1, sum(1 for sid in self.line(g, seat) if not g.ship(sid)["struck"]))

    def may_target(self, g: EnemyInSight, seat: int, firer: str | None, target: str) -> bool:
        """Extra restriction on who may attack whom (the Advanced game narrows it)."""
        return True


def station_targets(m: int, n: int, i: int) -> list[int]:
    """7.111: the stations (0 = lead) of an ``n``-ship Line that the ship at station ``i`` of an
    ``m``-ship Line may fire at.

    * either Line of one or two ships: any station;
    * the lead fires only on the lead, the rear only on the rear;
    * equal Lines: station on station;
    * unequal Lines: a middle ship may fire on any middle station it could lie opposite while every
      other ship keeps its station - in an order-preserving pairing of the shorter Line with the
      longer one, lead with lead and rear with rear. 4 vs 5: #2 may fire on #2 or #3, not #4.
    """
    if m <= 2 or n <= 2:
        return list(range(n))
    if i == 0:
        return [0]
    if i == m - 1:
        return [n - 1]
    if m <= n:
        lo, hi = i, i + (n - m)
    else:
        lo, hi = i - (m - n), i
    return list(range(max(lo, 1), min(hi, n - 2) + 1))


class AdvancedRules(BaseRules):
    """Advanced Enemy in Sight (C. F. Posey, The GENERAL 25/4): Reserve behind the Line, stations."""

    name = "advanced"
    advanced = True

    def may_target(self, g: EnemyInSight, seat: int, firer: str | None, target: str) -> bool:
        """7.111 target selection by station; 7.121: ships of a nation breaking the target's Line fire
        at any station. Only gunfire asks (Fire Ships and Boarding Parties ignore stations)."""
        if firer is None:
            return True
        t = g.ship(target)
        q = t["owner"]
        theirs = g.state["lines"][q]
        if target not in theirs:
            return True  # Reserve and prizes: only reachable through a broken Line (see EnemyInSight._pool)
        if g.ship(firer)["nation"] in g.breaking_nations(q):
            return True
        mine = g.state["lines"][seat]
        if firer not in mine:
            return False
        return theirs.index(target) in station_targets(len(mine), len(theirs), mine.index(firer))


VARIANTS: dict[str, type[BaseRules]] = {"base": BaseRules, "advanced": AdvancedRules}
