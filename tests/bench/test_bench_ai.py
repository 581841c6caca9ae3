"""bench/bench_ai.py: the Wilson interval, and a short run that plays every seat order to the end."""

from __future__ import annotations

import json

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


def test_jobs_give_the_same_results_and_the_summary_lines(capsys):
    """--jobs spreads the seeds over processes with the same outcome as one process; --json and
    --markdown print the figures for scripts and bench/RESULTS.md."""
    common = ["--game", "enemy-lines", "--vs", "easy", "random", "--games", "3", "--json"]
    bench_ai.main(common)
    alone = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    bench_ai.main([*common, "--jobs", "2", "--markdown-header", "--markdown"])
    lines = capsys.readouterr().out.strip().splitlines()
    spread = json.loads(lines[-4])
    assert {k: spread[k] for k in ("games", "stalls", "wins", "low", "high")} == {
        k: alone[k] for k in ("games", "stalls", "wins", "low", "high")
    }
    assert alone["games"] == 6 and alone["low"] <= alone["rate"] <= alone["high"] + 1e-9
    assert set(alone["think"]) == {"easy", "random"} and alone["think"]["easy"]["moves"] > 0
    assert lines[-2].startswith("|---") and lines[-1].startswith(
        "| enemy-lines | 2 | easy vs random | 6 | 0 |"
    )


def test_a_cooperative_crew_of_one_player_is_played_once_a_seed(capsys):
    """Every seat order of a crew whose seats all play the same player is the same game: once a seed;
    a mixed crew still plays the measured player in every seat."""
    assert bench_ai.seat_orders(True, "hard", ["hard", "hard"]) == 1
    assert bench_ai.seat_orders(True, "hard", ["today"]) == 2
    assert bench_ai.seat_orders(False, "easy", ["easy"]) == 2
    bench_ai.main(["--game", "everrain", "--players", "2", "--vs", "today", "today", "--games", "3"])
    assert "3 games, 0 stalls" in capsys.readouterr().out
