"""Warships' menu entries find the units' squares once a menu, not once a label: a level lists a unit's
every move and target, and each label looked the whole board up again (O(actions × units), a tenth of
the menus' time in the load bench). The entries are exactly those of one action path at a time."""

from __future__ import annotations

import pytest

from bot.games.base import Game
from bot.games.warships.game import WarshipsGame
from tests.games.playouts import positions


@pytest.mark.parametrize("options", [{"quick-setup": True}, {}], ids=["quick", "setup"])
def test_the_entries_are_each_actions_own_path_and_the_board_is_read_once(monkeypatch, options):
    reads = []
    real = WarshipsGame._occ
    monkeypatch.setattr(WarshipsGame, "_occ", lambda self: reads.append(1) or real(self))
    checked = 0
    for game, seat in positions("warships", seed=5, steps=60, options=options):
        reads.clear()
        game.legal_actions(seat)
        legal_reads = len(reads)
        reads.clear()
        entries = game.menu_entries(seat)
        assert len(reads) == legal_reads + 1  # the legal actions' own, and once for all the labels
        assert entries == Game.menu_entries(game, seat)  # one action path at a time, as before
        checked += len(entries)
    assert checked > 500
