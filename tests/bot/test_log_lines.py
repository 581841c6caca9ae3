"""The table log, in every game: each line written (public or private to a seat) is one line of words,
never blank. Played through the host (lobby, turns, undo) as players play, seeded."""

from __future__ import annotations

import random

import pytest

from bot.host import Host, NullDelivery, UserError
from bot.storage import Storage
from tests.hosting import ALICE, BOB, start_game

SETUPS = [
    ("enemy-in-sight", {}),
    ("enemy-in-sight", {"variant": "advanced"}),
    ("enemy-lines", {}),
    ("enemy-lines", {"quick-setup": True}),
    ("warships", {}),
    ("warships", {"quick-setup": True}),
    ("everrain", {}),
]
MOVES = 120


@pytest.fixture
async def storage(tmp_path):
    s = await Storage.open(tmp_path / "log.db")
    yield s
    await s.close()


@pytest.mark.parametrize(("key", "options"), SETUPS)
async def test_every_log_line_of_every_game_is_a_line_of_words(storage, key, options):
    host = Host(storage, NullDelivery(), ai_delay=0.0)
    table = await start_game(host, key, others=[(BOB, "Bob")], options=dict(options), seed=3)
    rng = random.Random(3)
    undone = False
    for _ in range(MOVES):
        if table.game.is_over:
            break
        seat = table.game.to_act()[0]
        user = table.seat_row(seat).user_id
        await host.act(table.id, user, table.game.ai_action(seat, rng))
        table = await host.table(table.id)
        if not undone and not table.game.is_over:
            # an undo by agreement writes its own line
            try:
                await host.undo.request(table.id, user)
                other = ALICE if user == BOB else BOB
                await host.undo.answer(table.id, other, table.version, True)
                undone = True
            except UserError:  # this move may not be undone (it rolled, or was secret); a later one may
                pass
            table = await host.table(table.id)
    lines = await storage.recent_log(table.id, limit=10_000)
    for seat in (0, 1):
        lines += await storage.recent_log(table.id, limit=10_000, seat=seat)
    assert len(lines) > 10 and any("taken back" in line for line in lines) == undone
    bad = [line for line in lines if not line or not line.strip() or line != line.strip() or "\n" in line]
    assert not bad, bad[:5]
