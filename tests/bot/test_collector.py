"""The garbage collector is set for the bot's own process only (bot/collector.py)."""

from __future__ import annotations

import gc

from bot import collector


def test_the_bot_collects_less_often_and_freezes_what_its_start_made(monkeypatch):
    before = gc.get_threshold()
    frozen = []
    monkeypatch.setattr(gc, "freeze", lambda: frozen.append(True))
    monkeypatch.setattr(collector, "_tuned", False)
    try:
        collector.freeze()  # a process not set up for it (a test runner): its heap is left alone
        assert frozen == []
        collector.tune()
        assert gc.get_threshold() == collector.THRESHOLDS
        collector.freeze()
        assert frozen == [True]
    finally:
        gc.set_threshold(*before)
        if collector._timed in gc.callbacks:
            gc.callbacks.remove(collector._timed)


def test_each_collection_pause_is_a_metric():
    from bot import metrics

    m = metrics.enable()
    gc.callbacks.append(collector._timed)
    try:
        gc.collect(1)
        gc.collect()
        seen = {
            s.labels["generation"]: s.value
            for family in m.registry.collect()
            if family.name == "admiralty_gc_pause_seconds"
            for s in family.samples
            if s.name.endswith("_count")
        }
        assert seen.get("1", 0) >= 1 and seen.get("2", 0) >= 1, seen
    finally:
        gc.callbacks.remove(collector._timed)
        metrics.disable()
