"""What an AI seat is given and how long it may think: the one AI interface of every game.

An AI decides from a :class:`Situation` (the game, its options, the seat, the seat's ``view`` and its
legal actions: never the hidden state), a level and a :class:`Budget`. Each game's class answers with
:meth:`bot.games.base.Game.think`; a game with hidden information also gives
:meth:`bot.games.base.Game.resample`, a full state consistent with what the seat knows, for search over
samples. A Situation is JSON-able so the bot can hand it to a worker process.

Levels: ``easy`` is the hand-written heuristic with some noise, ``normal`` searches for about 200 ms,
``hard`` for up to a second (p99 on one core). A :class:`Budget` with ``iterations`` set stops the search
after that many iterations whatever the time, so a test gets the same move from the same seed.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

LEVELS = ("easy", "normal", "hard")


@dataclass(frozen=True)
class Budget:
    """How long an AI may think: ``seconds`` of wall time, or exactly ``iterations`` when that is set.

    ``cpu`` counts the seconds on this process's CPU clock instead: what the AI would get on a core of
    its own. The benches use it on a shared machine, where the wall clock measures the other load."""

    seconds: float
    iterations: int | None = None
    cpu: bool = False

    def start(self, clock: Callable[[], float] | None = None) -> Stopwatch:
        if clock is None:
            clock = time.process_time if self.cpu else time.perf_counter
        return Stopwatch(self, clock)


BUDGETS = {"easy": Budget(0.05), "normal": Budget(0.2), "hard": Budget(1.0)}


class Stopwatch:
    """A search's loop condition: ``while watch.more(i): ...`` with ``i`` the iterations done so far."""

    def __init__(self, budget: Budget, clock: Callable[[], float] = time.perf_counter) -> None:
        self.budget, self.clock = budget, clock
        self.deadline = clock() + budget.seconds

    def more(self, done: int) -> bool:
        if self.budget.iterations is not None:
            return done < self.budget.iterations
        return self.clock() < self.deadline

    def left(self) -> float:
        """Seconds left (for a search that splits its time between stages); with an iteration cap,
        the whole budget's seconds, so splitting stays deterministic."""
        if self.budget.iterations is not None:
            return self.budget.seconds
        return max(0.0, self.deadline - self.clock())


@dataclass(frozen=True)
class Situation:
    """What an AI seat knows when it is asked to act."""

    game_key: str
    options: dict[str, Any]
    seat: int
    view: dict[str, Any]
    legal: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Situation:
        return cls(**data)
