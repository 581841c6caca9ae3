"""Enemy in Sight, a whole 4-player game (2 members + 2 AI seats) to 100 VP through the loopback Discord:
one member plays from their DMs, the other (DMs closed) through the ephemeral "My hand" button."""

from __future__ import annotations

import asyncio
import os
import random

import pytest

from bot import menus


@pytest.mark.slow
async def test_two_members_and_two_ai_seats_play_enemy_in_sight_to_100_vp(driver):
    driver.fd.block_dms(driver.member("bob"))
    await driver.new_game("alice", game="enemy-in-sight")
    await driver.member("bob").click(driver.lobby_message(), "Join")
    for _ in range(2):
        await driver.member("alice").click(driver.lobby_message(), "Add AI")
    await driver.member("alice").click(driver.lobby_message(), "Start")
    table = await driver.table()
    seats = {s.seat: s for s in table.seats}
    alice = next(s for s, row in seats.items() if row.user_id == driver.member("alice").id)
    bob = next(s for s, row in seats.items() if row.user_id == driver.member("bob").id)
    rng = random.Random(int(os.environ.get("ADMIRALTY_E2E_SEED", "5")))
    moves = {alice: 0, bob: 0}
    for _ in range(20000):
        await driver.host.idle()
        table = await driver.table()
        if table.game.is_over:
            break
        humans = [s for s in table.game.to_act() if s in (alice, bob)]
        if not humans:
            await asyncio.sleep(0.01)
            continue
        seat = humans[0]
        before = table.version
        if seat == alice:
            await driver.play_by_dm(driver.member("alice"), seat, rng)
        else:
            action = table.game.ai_action(seat, rng)
            labels = menus.labels_of(table.game, seat, action, table.names())
            shown = await driver.member("bob").click(driver.turn_message(), "My hand")
            result = await driver.click_path(driver.member("bob"), shown.message, labels)
            assert "✅ Played" in result.text, result.text
        await driver.fd.wait_for(lambda: True, timeout=0.01)
        assert (await driver.table()).version > before
        moves[seat] += 1
    table = await driver.table()
    assert table.game.is_over, "the game reached its end"
    scores = table.game.result["scores"]
    assert max(scores.values()) >= 100 or table.game.state.get("round", 0) >= 30
    assert moves[alice] > 10 and moves[bob] > 10
    assert await driver.game_over_announced()
