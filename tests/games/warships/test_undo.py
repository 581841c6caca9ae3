"""Warships: an attack reveals units, setup steps are secret: not undoable; a plain move is."""

from __future__ import annotations

from bot.games import registry
from tests.games import playouts


def play_positions(seed: int, steps: int = 120):
    return playouts.positions("warships", seed, steps, players=2, options={"quick-setup": True})


def test_warships_attack_reveals_units_and_is_not_undoable():
    seen = 0
    for seed in range(4):
        for g, seat in play_positions(seed):
            for a in g.legal_actions(seat):
                if a["type"] in ("attack", "battery", "defuse"):
                    assert g.undo_refusal(seat, a) is not None
                    seen += 1
    assert seen


def test_warships_plain_move_is_undoable_unless_it_reveals():
    allowed = 0
    for g, seat in play_positions(1, 20):
        for a in g.legal_actions(seat):
            if a["type"] == "move":
                why = g.undo_refusal(seat, a)
                assert why in (
                    None,
                    "it revealed a unit",
                    "it revealed the units that met",
                    "it revealed hidden information",
                )
                allowed += why is None
    assert allowed


def test_warships_secret_setup_step_is_not_undoable():
    g = registry.get("warships").new(2, {}, seed=4)
    seat = g.to_act()[0]
    for a in g.legal_actions(seat)[:5]:
        assert g.undo_refusal(seat, a) is not None


def test_warships_laying_a_mine_is_not_undoable():
    g = registry.get("warships").new(2, {"quick-setup": True}, seed=1)
    seat = g.to_act()[0]
    assert (
        g.undo_veto(g, seat, {"type": "lay_mine", "at": "A1"}, [])
        == "a mine laid is announced to both players"
    )
