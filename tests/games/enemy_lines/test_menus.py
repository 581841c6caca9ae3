"""Menus, labels, prompts and the text board of Enemy Lines."""

from __future__ import annotations

import random
from collections import defaultdict

from bot.games import fill_names, who
from bot.games.enemy_lines.game import EnemyLinesGame


def check_paths(game, seat):
    legal = game.legal_actions(seat)
    paths = [game.action_path(seat, a) for a in legal]
    titles = game.menu_titles(seat)
    children = defaultdict(set)
    for path in paths:
        assert len(path) == len(titles) == 2
        for key, label in path:
            assert key and len(label) <= 100
        children[None].add(path[0][0])
        children[path[0][0]].add(path[1][0])
    assert len({tuple(k for k, _ in p) for p in paths}) == len(paths)  # each action has its own path
    for kids in children.values():
        assert len(kids) <= 25
    for a in legal:
        assert 0 < len(game.describe(a)) <= 100


def test_action_paths_group_by_ship(spec):
    game = spec.new(2, {}, seed=2)
    rng = random.Random(2)
    while not game.is_over:
        seat = game.to_act()[0]
        check_paths(game, seat)
        assert game.prompt(seat)
        assert game.prompt(1 - seat).startswith("Wait")
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    assert game.prompt(0) == "The game is over."


def test_action_path_labels_use_board_coordinates(position):
    game = position({"b3a": "C4-E4"})
    path = game.action_path(0, {"type": "travel", "ship": "b3a", "dir": "N", "dist": 2})
    assert path == [("ship:b3a", "3-ship at C4–E4"), ("tN2", "travel north 2 → C6–E6")]
    path = game.action_path(0, {"type": "rotate", "ship": "b3a", "pivot": "E", "to": "S"})
    assert path[1] == ("rES", "rotate about E4 to south → E2–E4")
    label = game.describe({"type": "travel", "ship": "b3a", "dir": "N", "dist": 2})
    assert label == f"{who(0)}'s 3-ship: travel north 2"
    assert fill_names(label, None) == "Blue's 3-ship: travel north 2"
    assert fill_names(label, ["Ann", "Bo"]) == "Ann's 3-ship: travel north 2"


def test_placement_menu(spec):
    game = spec.new(2, {}, seed=0)
    seat = game.to_act()[0]
    firsts = {game.action_path(seat, a)[0] for a in game.legal_actions(seat)}
    prefix = "b" if seat == 0 else "r"
    # one entry per size: same-size ships are alike, the first unplaced one is offered
    assert {k for k, _ in firsts} == {f"ship:{prefix}4", f"ship:{prefix}3a", f"ship:{prefix}2a"}
    assert game.menu_titles(seat)[0] == "Choose a ship to place"


def test_text_view_is_short_and_fenced(spec):
    game = spec.new(2, {"quick-setup": True}, seed=6)
    text = EnemyLinesGame.text_view(game.view(None))
    assert text.startswith("```") and text.endswith("```") and len(text) <= 1900
    assert "Blue 4" in text and "Red 4" in text  # row marks shown
    rng = random.Random(1)
    while not game.is_over:
        seat = game.to_act()[0]
        game.apply(seat, rng.choice(game.legal_actions(seat)))
    text = EnemyLinesGame.text_view(game.view(None))
    assert "Game over" in text and len(text) <= 1900
