"""Games with private views, end to end through the loopback Discord."""

from __future__ import annotations


async def test_everrain_solo_captain_with_an_ai_crewmate_plays_to_the_end_and_gets_the_ship_board_by_dm(
    driver,
):
    await driver.play_everrain_with_an_ai_crewmate()
    dms = driver.member("alice").dms()
    assert any(m.attachments and m.attachments[0].data[:4] == b"\x89PNG" for m in dms), (
        "the ship board arrives by DM as an image"
    )
    assert await driver.game_over_announced()
