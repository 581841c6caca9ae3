"""The Everrain: firing rolls dice and an enemy activation rolls and draws: not undoable; moving crew
or sailing may be undone by agreement."""

from __future__ import annotations

from tests.games import playouts


def positions(seed: int = 1, steps: int = 200):
    return playouts.positions("everrain", seed, steps)


def test_everrain_fire_rolls_dice_and_is_not_undoable():
    seen = 0
    for seed in range(6):
        for g, seat in positions(seed):
            for a in g.legal_actions(seat):
                if a["type"] == "fire":
                    assert g.undo_refusal(seat, a) in (
                        "it rolled dice",
                        "it drew on chance (a die roll, a draw or a shuffle)",
                    )
                    seen += 1
    assert seen


def test_everrain_enemy_activation_is_not_undoable():
    seen = 0
    for g, seat in positions(2):
        for a in g.legal_actions(seat):
            if a["type"] == "activate":
                assert g.undo_refusal(seat, a) is not None
                seen += 1
    assert seen


def test_everrain_crew_move_is_undoable():
    seen = 0
    for g, seat in positions(3):
        for a in g.legal_actions(seat):
            if a["type"] == "crew":
                assert g.undo_refusal(seat, a) is None
                seen += 1
    assert seen
