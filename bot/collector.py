"""Python's cyclic garbage collector, set for a bot that runs for weeks with a large, churning heap.

At the interpreter's defaults (a young collection every 700 new objects, a full one whenever the
long-lived objects grew by a quarter), the bot spent about 17 % of its CPU collecting under load (100
games at once, boards stubbed: 4.4 s of 25.8 s), and each full collection walked the whole heap (the
menu trees kept, the library's objects, every module): 18 of them in 40 s, some 140 ms each, each a
pause in every click's answer. Most of what needs collecting is discord.py's: a view and its items
refer to each other, and a click or a publish makes several.

A young collection every 20,000 new objects lets the objects of one click or one publish die before any
collection sees them, so almost none is promoted and the older generations are collected far more
rarely; the objects made while the bot starts (modules, catalogues, data files, the games resumed) are
moved out of the collector's sight once it is ready (``freeze``). The same run then spent 1.5 s of 24.8
s collecting (6 %), a young collection some 20 ms, for a peak RSS of 221 MiB instead of 184 (cycles wait
longer to be freed). `bench/RESULTS.md`, "The integrator's cuts, session of 2026-11-27".
"""

from __future__ import annotations

import gc
import time
from typing import Any

from bot import metrics

THRESHOLDS = (20_000, 20, 20)  # new objects a young collection; young collections an older one; …
_tuned = False
_started = 0.0  # perf_counter() when the collection under way started


def _timed(phase: str, info: dict[str, Any]) -> None:
    global _started
    if phase == "start":
        _started = time.perf_counter()
    else:
        metrics.collector_paused(info["generation"], time.perf_counter() - _started)


def tune() -> None:
    """Collect less often, and time each collection (``admiralty_gc_pause_seconds``): at the start of
    the bot's own process (``python -m bot run``)."""
    global _tuned
    gc.set_threshold(*THRESHOLDS)
    if _timed not in gc.callbacks:
        gc.callbacks.append(_timed)
    _tuned = True


def freeze() -> None:
    """Leave what exists now (the bot started, its games resumed) out of every later collection, its
    garbage collected first. Only in a process set up by :func:`tune`: a test runner's heap stays its
    own."""
    if _tuned:
        gc.collect()
        gc.freeze()
