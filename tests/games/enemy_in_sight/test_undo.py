"""Enemy in Sight: drawing a card reveals it to the drawer, a card leaving a hand is shown: not
undoable; moving ships and cancelling a step may be undone."""

from __future__ import annotations

from bot.games import registry
from tests.games import playouts


def positions(seed: int, steps: int = 150):
    return playouts.positions("enemy-in-sight", seed, steps, players=2)


def test_enemy_in_sight_drawing_a_card_is_not_undoable():
    spec = registry.get("enemy-in-sight")
    seen = 0
    for seed in range(4):
        for g, seat in positions(seed):
            for a in g.legal_actions(seat):
                after = spec.from_json(g.to_json())
                after.apply(seat, a)
                if len(after.state["deck"]) < len(g.state["deck"]):
                    assert g.undo_refusal(seat, a) is not None
                    seen += 1
    assert seen


def test_enemy_in_sight_card_leaving_a_hand_is_not_undoable():
    spec = registry.get("enemy-in-sight")
    seen = 0
    for g, seat in positions(1):
        for a in g.legal_actions(seat):
            after = spec.from_json(g.to_json())
            after.apply(seat, a)
            if after.state["hands"] != g.state["hands"]:
                assert g.undo_refusal(seat, a) is not None
                seen += 1
    assert seen


def test_enemy_in_sight_ship_move_is_undoable():
    seen = 0
    for seed in range(3):
        for g, seat in positions(seed):
            for a in g.legal_actions(seat):
                if a["type"] in ("move", "cancel") and g.undo_refusal(seat, a) is None:
                    seen += 1
    assert seen
