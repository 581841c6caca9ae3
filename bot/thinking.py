"""The AI's thinking: off the event loop, in worker processes of its own.

An AI seat's move is :meth:`bot.games.base.Game.think` over a :class:`bot.games.ai.Situation` (what the
seat sees and may do: never the hidden state), a level and its :class:`bot.games.ai.Budget`. A hard AI
searches for up to a second, so it runs in a pool of worker processes (``ADMIRALTY_AI_WORKERS``, by
default one per core this process may use; ``bot/drawing_pool.py``: a pipe each, read by the event
loop): a game whose AI thinks never slows another game's clicks, nor this one's. ``0`` thinks in a
thread of the bot's process instead (tests, tiny machines).

The situation goes to the worker as JSON-able data with the seed of the move's generator (a string:
the same seed gives the same move wherever it is thought). A think that fails (an exception, a worker
that died) or runs past its budget and :data:`MARGIN` (its worker is stopped and replaced) falls back to
the ``easy`` move, thought here at once: an AI seat always moves.
"""

from __future__ import annotations

import asyncio
import logging
import os
import random
import time
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from bot import drawing, metrics
from bot.drawing import machine_cores
from bot.drawing_pool import PoolOwner, Workers
from bot.games import registry
from bot.games.ai import BUDGETS, Budget, Situation

log = logging.getLogger("admiralty.thinking")

# Seconds a think may run past its budget (spawning, unpickling, a loaded machine) before its worker
# is stopped and the easy move played instead.
MARGIN = 2.0
FALLBACK = "easy"  # the level of the move played when a think fails
# The iteration cap of a Thinking made without one by code (a Host without a Thinking: tests): a search
# that stops after so many iterations whatever the machine's speed gives the same move every run.
REPEATABLE_ITERATIONS = 16

Thinker = Callable[[dict, str, float, "int | None", str], dict]


def think(situation: dict, level: str, seconds: float, iterations: int | None, seed: str) -> dict:
    """The move of ``situation`` (``Situation.to_json``) at ``level`` within the budget, with a generator
    seeded by ``seed`` (run in a worker process, or a thread). Module-level: a worker imports it by name."""
    found = Situation.from_json(situation)
    spec = registry.get(found.game_key)
    cls = spec.game_class(found.options)
    return cls.think(found, level, Budget(seconds, iterations), random.Random(seed))


def _worker_start(parent: int) -> None:
    """A worker's first steps, as a drawing worker's (leave Ctrl-C to the bot, exit with it), then load
    every game's rules and AI before the first move needs them."""
    drawing.worker_start(parent, False)
    registry.keys()


class Thinking(PoolOwner):
    """The bot's one way to have an AI seat think (``action``). ``workers`` None: one per core; 0: a
    thread of this process (closed, thinks under way fall back to the easy move). ``thinker``: a
    module-level function like :func:`think` (tests stub it); ``iterations``: a cap on every search
    (tests)."""

    def __init__(
        self,
        workers: int | None = None,
        *,
        margin: float = MARGIN,
        thinker: Thinker = think,
        iterations: int | None = None,
    ) -> None:
        self.workers = machine_cores() if workers is None else workers
        self.margin = margin
        # every search capped at this many iterations whatever its level's time (tests: repeatable, quick)
        self.iterations = iterations
        self.thinker = thinker
        self.thought = 0  # moves thought (in a worker or a thread)
        self.fallbacks = 0  # thinks that failed or ran over, replaced by the easy move
        self._pool: Workers | None = None
        self._closed = False

    def _new_pool(self) -> Workers:
        return Workers(self.workers, _worker_start, (os.getpid(),), name="thinking")

    async def action(self, situation: Situation, level: str, seed: str, budget: Budget | None = None) -> dict:
        """The AI's move in ``situation`` at ``level`` (within ``budget``, the level's own by default),
        its generator seeded by ``seed``. Never raises (but for cancellation): a think that fails or runs
        past the budget and the margin gives the easy move, thought in this process."""
        budget = budget or BUDGETS[level]
        if self.iterations is not None and budget.iterations is None:
            budget = Budget(budget.seconds, self.iterations)
        args = (situation.to_json(), level, budget.seconds, budget.iterations, seed)
        started = time.perf_counter()
        try:
            action = await self._run(args, budget.seconds + self.margin)
            self.thought += 1
            metrics.thought(situation.game_key, level, time.perf_counter() - started, "thought")
            return action
        except asyncio.CancelledError:
            raise
        except Exception as e:  # noqa: BLE001 - an AI seat always moves
            self.fallbacks += 1
            log.warning(
                "the %s AI's think failed in %s (%s: %s); playing the easy move",
                level,
                situation.game_key,
                type(e).__name__,
                e,
            )
        action = self.fallback(situation, seed)
        metrics.thought(situation.game_key, level, time.perf_counter() - started, "fallback")
        return action

    def fallback(self, situation: Situation, seed: str) -> dict:
        """The easy move, thought in this process (milliseconds)."""
        return think(situation.to_json(), FALLBACK, BUDGETS[FALLBACK].seconds, None, seed)

    async def _run(self, args: tuple[Any, ...], limit: float) -> dict:
        if self.workers > 0 and self._pool is None and not self._closed:
            self.start()
        pool = self._pool
        if pool is None:
            if self._closed:
                raise BrokenProcessPool("the thinking processes are stopped")
            async with asyncio.timeout(limit):  # (a thread cannot be stopped: its answer goes unread)
                return await asyncio.to_thread(self.thinker, *args)
        return await pool.call(self.thinker, *args, limit=limit)
