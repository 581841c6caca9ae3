"""Warships through the loopback Discord: secret set-up by DM, /ws move with autocomplete."""

from __future__ import annotations


async def test_ws_move_autocompletes_squares_and_targets_and_plays(driver):
    await driver.new_game("alice", game="warships", quick_setup=True)
    await driver.member("bob").click(driver.lobby_message(), "Join")
    await driver.member("alice").click(driver.lobby_message(), "Start")
    table = await driver.table()
    assert table.game.state["phase"] != "setup", "quick-setup starts play at once"
    seat = table.game.to_act()[0]
    mover = next(m for m in (driver.member("alice"), driver.member("bob")) if m.id == table.seat_row(seat).user_id)
    idle = driver.member("bob") if mover.name == "alice" else driver.member("alice")
    squares = await mover.autocomplete("ws move", "from", "", channel=driver.channel)
    assert squares and all(len(c["value"]) <= 3 for c in squares)
    assert await idle.autocomplete("ws move", "from", "", channel=driver.channel) == []
    square = squares[0]["value"]
    targets = await mover.autocomplete("ws move", "to", "", channel=driver.channel, **{"from": square})
    assert targets
    wrong = await mover.slash("ws move", channel=driver.channel, to="A1", **{"from": "Z99"})
    assert "pick a square" in wrong.text and (await driver.table()).version == table.version
    played = await mover.slash("ws move", channel=driver.channel, to=targets[0]["value"], **{"from": square})
    assert "✅ Played" in played.text, played.text
    assert (await driver.table()).version == table.version + 1
    # Each player's DM shows their own board image; the channel shows the face-down board.
    assert any(m.attachments for m in mover.dms())
