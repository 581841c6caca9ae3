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

    def line(self, g: EnemyInSight, seat: int) -> list[str]:
        """Ships of ``seat`` that form its Line (fire, are fired at, count for capacity)."""
        return list(g.state["lines"][seat])

    def capacity(self, g: EnemyInSight, seat: int) -> int:
        """Hand capacity: ships in Line, struck ships not counted, minimum 1."""
        return max(1, sum(1 for sid in self.line(g, seat) if not g.ship(sid)["struck"]))

    def may_target(self, g: EnemyInSight, seat: int, firer: str | None, target: str) -> bool:
        """Extra restriction on who may attack whom (the Advanced game narrows it)."""
        return True


VARIANTS: dict[str, type[BaseRules]] = {"base": BaseRules}
