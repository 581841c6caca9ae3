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
