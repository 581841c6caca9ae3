"""The publisher's engine of its own (``Tables.load(fresh=True)``, issue 19: the CPU a move costs): a copy
of the host's cached engine when that one holds exactly the stored version, instead of parsing the
stored JSON again on every publish; the stored snapshot whenever the cached engine is not that version
as stored (a move being committed, a game not cached)."""

from __future__ import annotations

import random

import pytest

from bot.games import GameSpec, registry
from bot.host import Host, NullDelivery
from tests.hosting import start_game


@pytest.fixture
def parsed(monkeypatch):
    """How many snapshots were parsed (GameSpec.from_json) since."""
    count = [0]
    real = GameSpec.from_json

    def counting(self, text):
        count[0] += 1
        return real(self, text)

    monkeypatch.setattr(GameSpec, "from_json", counting)
    return count


async def started(storage, game_key: str = "warships") -> tuple[Host, int]:
    host = Host(storage, NullDelivery(), ai_delay=0.0)
    return host, (await start_game(host, game_key, options={}, seed=7)).id


async def play(host: Host, game_id: int, moves: int, rng: random.Random) -> None:
    for _ in range(moves):
        table = await host.table(game_id)
        if table.game.is_over:
            return
        seat = table.game.to_act()[0]
        action = rng.choice(table.game.legal_actions(seat))
        await host.act(game_id, table.seat_row(seat).user_id, action, table.version)


@pytest.mark.parametrize("game_key", ["warships", "enemy-in-sight", "everrain", "enemy-lines"])
async def test_the_publisher_copies_the_cached_engine_instead_of_parsing_the_snapshot(
    storage, parsed, game_key
):
    host, game_id = await started(storage, game_key)
    rng = random.Random(3)
    for _ in range(4):
        await play(host, game_id, 3, rng)
        # the publishes of those moves load engines too, and one that ran while a move was being
        # committed parsed its snapshot, rightly: let them finish before counting
        await host.idle()
        cached = await host.tables.load(game_id)
        parsed[0] = 0
        fresh = await host.tables.load(game_id, fresh=True)
        assert parsed[0] == 0
        assert fresh.game is not cached.game and fresh.game.state is not cached.game.state
        stored = registry.get(game_key).from_json(fresh.row.state_json)
        assert fresh.game.to_json() == stored.to_json() == fresh.row.state_json
        for seat in (None, *range(stored.players)):
            assert fresh.game.view(seat) == stored.view(seat)
        if not stored.is_over:  # its own: a move on the copy leaves the host's engine as stored
            seat = fresh.game.to_act()[0]
            fresh.game.apply(seat, fresh.game.legal_actions(seat)[0])
            assert cached.game.to_json() == fresh.row.state_json
    await host.close()


async def test_an_engine_ahead_of_its_version_is_not_copied(storage, parsed):
    """A move applied to the cached engine and not committed yet (the await of its commit): the
    publisher's engine is the stored version, parsed from its snapshot."""
    host, game_id = await started(storage)
    await play(host, game_id, 2, random.Random(1))
    cached = await host.tables.load(game_id)
    seat = cached.game.to_act()[0]
    cached.game.apply(seat, cached.game.legal_actions(seat)[0])  # as apply_locked does before its commit
    parsed[0] = 0
    fresh = await host.tables.load(game_id, fresh=True)
    assert parsed[0] >= 1  # (the publisher of the moves played may be loading too)
    assert fresh.game.to_json() == fresh.row.state_json != cached.game.to_json()
    await host.close()


async def test_a_generator_moved_is_not_copied(storage, parsed):
    host, game_id = await started(storage, "enemy-in-sight")
    cached = await host.tables.load(game_id)
    cached.game.rng.random()
    parsed[0] = 0
    fresh = await host.tables.load(game_id, fresh=True)
    assert parsed[0] >= 1 and fresh.game.rng.getstate() != cached.game.rng.getstate()
    await host.close()
