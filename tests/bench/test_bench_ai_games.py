"""bench/bench_ai_games.py (one JSON line a game, summaries of partial runs) and bench_ai's ``today``
player, Enemy in Sight's AI frozen as it was before issue 22."""

from __future__ import annotations

import json
import random
import sys

from bench import bench_ai, bench_ai_games
from bench.baselines import enemy_in_sight_today
from bot.games.enemy_in_sight import ai


def test_enemy_in_sight_offers_today_frozen():
    assert "today" in ai.BASELINES  # the game's own name for it; the bench plays the frozen copy
    found = bench_ai.baselines("enemy-in-sight")
    assert found["today"] is enemy_in_sight_today.today
    game = bench_ai.registry.get("enemy-in-sight").new(players=2, options={}, seed=1)
    seat = game.to_act()[0]
    before = len(game.state["log"])
    game.apply(seat, found["today"](game.view(seat), game.legal_actions(seat), seat, random.Random(1)))
    assert len(game.state["log"]) > before  # a legal move, played


def test_one_line_a_game_and_a_summary_of_what_finished(tmp_path, capsys, monkeypatch):
    argv = ["bench_ai_games.py", "--game", "enemy-lines", "--vs", "easy", "random", "--games", "2"]
    monkeypatch.setattr(sys, "argv", argv)
    bench_ai_games.main()
    lines = capsys.readouterr().out.strip().splitlines()
    games = [json.loads(line) for line in lines]
    assert [(g["seed"], g["seat"]) for g in games] == [(1, 0), (1, 1), (2, 0), (2, 1)]
    assert all(g["result"]["winners"] for g in games)
    # a run stopped after three games still counts them
    run = tmp_path / "run.jsonl"
    run.write_text("\n".join(lines[:3]) + "\n")
    monkeypatch.setattr(sys, "argv", ["bench_ai_games.py", "--summary", str(run)])
    bench_ai_games.main()
    out = capsys.readouterr().out
    wins = sum(1 / len(g["result"]["winners"]) for g in games[:3] if g["seat"] in g["result"]["winners"])
    assert f"3 games, 0 stalls, wins {wins / 3:.1%}" in out
    assert "think easy: median" in out and "| enemy-lines | 2 | easy vs random | 3 |" in out


def test_think_only_times_the_level_without_playing_it(capsys, monkeypatch):
    argv = ["bench_ai_games.py", "--game", "enemy-in-sight", "--players", "3", "--vs", "hard"]
    monkeypatch.setattr(sys, "argv", [*argv, "--think", "4", "--iterations", "2", "--cpu-clock"])
    bench_ai_games.main()
    out = capsys.readouterr().out
    assert "think hard: median" in out and "over 4 moves" in out
