"""Clicks per move, measured through the real menu tree (bot/menus.py) on AI-played games."""

from __future__ import annotations

import statistics

import pytest

from bench.bench_clicks import GAMES, measure


@pytest.mark.parametrize(("name", "key", "options", "players"), GAMES, ids=[g[0] for g in GAMES])
def test_median_move_takes_at_most_two_clicks(name, key, options, players):
    clicks = measure(key, options, players, seeds=range(2), max_moves=120)
    assert len(clicks) > 50
    assert statistics.median(clicks) <= 2, f"{name}: {sorted(clicks)}"
