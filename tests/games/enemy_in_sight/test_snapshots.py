"""Stored games keep loading: snapshots written by the engine before the variant became a subclass
(main at fcb7376) load into the right class, round-trip byte for byte, and play on to the very state
that engine reached with the same actions (a base game and an Advanced one mid-play, and an Advanced
one in its secret set-up). The log lines the state keeps are data now (issue 21: each reader's language):
said in English, they are the very lines that engine wrote."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from bot.games import registry
from bot.games.enemy_in_sight.advanced import AdvancedEnemyInSight
from bot.games.enemy_in_sight.terms import logged

SNAPSHOTS = json.loads((Path(__file__).parent / "snapshots_v1.json").read_text())


@pytest.mark.parametrize("name", sorted(SNAPSHOTS))
def test_old_snapshot_loads_and_plays_on_identically(name):
    old = SNAPSHOTS[name]
    spec = registry.get("enemy-in-sight")
    game = spec.from_json(old["snapshot"])
    assert isinstance(game, AdvancedEnemyInSight) == name.startswith("advanced")
    assert game.to_json() == old["snapshot"]
    for seat, action in old["actions"]:
        game.apply(seat, action)
    said = type(game).from_json(game.to_json())
    said.state["log"] = [str(logged(line)) for line in said.state["log"]]
    assert hashlib.sha256(said.to_json().encode()).hexdigest() == old["after_sha256"]
    assert game.describe(old["actions"][-1][1])  # the menus' hooks answer on a loaded game
