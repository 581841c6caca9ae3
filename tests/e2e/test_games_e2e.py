"""Games with private views, end to end through the loopback Discord."""

from __future__ import annotations

import random


async def test_everrain_solo_captain_with_an_ai_crewmate_plays_to_the_end_and_gets_the_ship_board_by_dm(driver):
    await driver.new_game("alice", game="everrain", length="short")
    await driver.member("alice").click(driver.lobby_message(), "Add AI")
    await driver.member("alice").click(driver.lobby_message(), "Start")
    rng = random.Random(11)
    for _ in range(600):
        await driver.host.idle()
        table = await driver.table()
        if table.game.is_over:
            break
        await driver.play_ai_move(rng)
    table = await driver.table()
    assert table.game.is_over
    dms = driver.member("alice").dms()
    assert any(m.attachments and m.attachments[0].data[:4] == b"\x89PNG" for m in dms), \
        "the ship board arrives by DM as an image"
    assert await driver.game_over_announced()
