"""Enemy Lines: every move may be undone by agreement (open board, nothing drawn)."""

from __future__ import annotations

import random

from bot.games import registry


def test_every_enemy_lines_move_is_undoable():
    spec = registry.get("enemy-lines")
    for seed in range(3):
        g = spec.new(2, {}, seed=seed)
        rnd = random.Random(seed)
        checked = 0
        while not g.is_over and checked < 120:
            seat = g.to_act()[0]
            actions = g.legal_actions(seat)
            for a in rnd.sample(actions, min(4, len(actions))):
                probe = spec.from_json(g.to_json())
                probe.apply(seat, a)
                if not probe.is_over:  # a move that ends the game has nothing to go back to
                    assert g.undo_refusal(seat, a) is None, a
            g.apply(seat, rnd.choice(actions))
            checked += 1
        assert checked > 20
