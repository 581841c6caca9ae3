"""Thinkers for tests/bot/test_thinking.py: module-level, so that a worker process imports them by name."""

from __future__ import annotations

import time

from bot.thinking import think


def slow_think(situation: dict, level: str, seconds: float, iterations: int | None, seed: str) -> dict:
    """Today's move, after ``seconds`` of busy CPU (a hard AI's search, as the event loop would feel it)."""
    end = time.perf_counter() + seconds
    n = 0
    while time.perf_counter() < end:
        n += 1
    return think(situation, level, seconds, iterations, seed)


def hang(situation: dict, level: str, seconds: float, iterations: int | None, seed: str) -> dict:
    """A search that never ends."""
    while True:
        time.sleep(0.05)


def broken(situation: dict, level: str, seconds: float, iterations: int | None, seed: str) -> dict:
    raise ValueError("a bug in the search")


def sleepy(situation: dict, level: str, seconds: float, iterations: int | None, seed: str) -> dict:
    """Today's move after ``seconds`` asleep (no CPU: the test measures the scheduler, not the machine)."""
    time.sleep(seconds)
    return think(situation, level, seconds, iterations, seed)


def illegal(situation: dict, level: str, seconds: float, iterations: int | None, seed: str) -> dict:
    """A search with a bug: it answers a move the rules refuse."""
    return {"type": "no-such-move"}
