"""bench/bench_ai.py: the Wilson interval, and a short run that plays every seat order to the end."""

from __future__ import annotations

import pytest

from bench import bench_ai


def test_wilson_interval_brackets_the_rate_and_narrows_with_more_games():
    low, high = bench_ai.wilson(34, 200)
    assert low < 34 / 200 < high
    assert (0.12, 0.23) == (round(low, 2), round(high, 2))
    wide = bench_ai.wilson(17, 100)
    assert wide[1] - wide[0] > high - low
    assert bench_ai.wilson(0, 0) == (0.0, 1.0)


@pytest.mark.parametrize("key,players", [("enemy-lines", 2), ("everrain", 2)])
def test_short_run_plays_every_seat_order_without_stalls(key, players, capsys):
    bench_ai.main(["--game", key, "--players", str(players), "--vs", "easy", "random", "--games", "2"])
    out = capsys.readouterr().out
    assert f"{2 * players} games, 0 stalls" in out and "think easy: median" in out
