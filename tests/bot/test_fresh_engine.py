"""The publisher's engine of its own (``Tables.load(fresh=True)``, issue 19: the CPU a move costs): a copy
of the host's cached engine when that one holds exactly the stored version, instead of parsing the
stored JSON again on every publish. The copy is made from the position the cached engine held when it
was cached (its state's marshal bytes, taken once a version, and its generator), so a move being
committed on the cached engine meanwhile, or its generator moved, is not in it; a game not cached is
parsed from its snapshot."""

from __future__ import annotations

import marshal
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


async def test_an_engine_ahead_of_its_version_is_not_copied(storage):
    """A move applied to the cached engine and not committed yet (the await of its commit): the
    publisher's engine is the stored version, not the cached engine as it stands."""
    host, game_id = await started(storage)
    await play(host, game_id, 2, random.Random(1))
    await host.idle()
    cached = await host.tables.load(game_id)
    seat = cached.game.to_act()[0]
    cached.game.apply(seat, cached.game.legal_actions(seat)[0])  # as apply_locked does before its commit
    fresh = await host.tables.load(game_id, fresh=True)
    assert fresh.game.to_json() == fresh.row.state_json != cached.game.to_json()
    await host.close()


async def test_a_generator_moved_is_not_copied(storage):
    host, game_id = await started(storage, "enemy-in-sight")
    cached = await host.tables.load(game_id)
    cached.game.rng.random()
    fresh = await host.tables.load(game_id, fresh=True)
    assert fresh.game.rng.getstate() != cached.game.rng.getstate()
    assert fresh.game.to_json() == fresh.row.state_json != cached.game.to_json()
    await host.close()


@pytest.mark.parametrize("game_key", ["warships", "enemy-in-sight"])
async def test_the_publishers_copy_marshals_no_state_again(storage, monkeypatch, game_key):
    """The state is marshalled once a version, when the engine is cached (issue 19: a position's
    digests were 6-8 % of the bot's CPU): the publisher's copy and its menus' digest reuse those bytes
    instead of marshalling the state three times more (a mark to compare, the copy, the digest)."""
    host, game_id = await started(storage, game_key)
    await play(host, game_id, 3, random.Random(5))
    await host.idle()
    cached = await host.tables.load(game_id)
    one_state = len(marshal.dumps(cached.game.state, 2))
    written = [0]
    dumps = marshal.dumps

    def counting(value, *version):
        data = dumps(value, *version)
        written[0] += len(data)
        return data

    monkeypatch.setattr(marshal, "dumps", counting)
    fresh = await host.tables.load(game_id, fresh=True)
    monkeypatch.undo()
    assert fresh.game is not cached.game and fresh.game.to_json() == fresh.row.state_json
    assert written[0] < one_state / 4  # (the options are copied by marshal: a few bytes)
    await host.close()
