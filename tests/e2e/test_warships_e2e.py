"""Warships through the loopback Discord: secret set-up by DM, /ws move with autocomplete."""

from __future__ import annotations

from bot import menus
from cogs.common import NOTHING


async def test_ws_move_autocompletes_squares_and_targets_and_plays(driver):
    await driver.new_game("alice", game="warships", quick_setup=True)
    await driver.member("bob").click(driver.lobby_message(), "Join")
    await driver.member("alice").click(driver.lobby_message(), "Start")
    table = await driver.table()
    assert table.game.state["phase"] != "setup", "quick-setup starts play at once"
    seat = table.game.to_act()[0]
    mover = next(
        m for m in (driver.member("alice"), driver.member("bob")) if m.id == table.seat_row(seat).user_id
    )
    idle = driver.member("bob") if mover.name == "alice" else driver.member("alice")
    squares = await mover.autocomplete("ws move", "from", "", channel=driver.channel)
    assert squares and all(len(c["value"]) <= 3 for c in squares)
    waiting = await idle.autocomplete("ws move", "from", "", channel=driver.channel)
    assert [c["value"] for c in waiting] == [NOTHING], "one choice that says why, not an empty list"
    assert waiting[0]["name"] == f"Not your turn — waiting for {table.seat_row(seat).name}"
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


async def test_secret_setup_by_dm_nothing_revealed_until_both_submit(driver):
    """Both players arrange their ports at the same time from their DMs; the channel and the other
    player see nothing of an arrangement; play starts when both have submitted."""
    await driver.new_game("alice", game="warships")
    await driver.member("bob").click(driver.lobby_message(), "Join")
    await driver.member("alice").click(driver.lobby_message(), "Start")
    table = await driver.table()
    assert sorted(table.game.to_act()) == [0, 1] and table.game.state["phase"] == "setup"
    alice, bob = driver.member("alice"), driver.member("bob")
    seat_of = {m.name: table.seat_of(m.id) for m in (alice, bob)}

    def latest_controls(member):
        return next((m for m in reversed(member.dms()) if not m.deleted and (m.buttons or m.selects)), None)

    # Alice swaps two units from her DM.
    action = next(a for a in table.game.legal_actions(seat_of["alice"]) if a["type"] == "swap")
    labels = menus.labels_of(table.game, seat_of["alice"], action, table.names())
    await driver.fd.wait_for(
        lambda: driver.dm_controls(alice, table.version, seat_of["alice"]) is not None, timeout=10
    )
    await driver.click_path(alice, driver.dm_controls(alice, table.version, seat_of["alice"]), labels)
    swapped = await driver.table()
    assert swapped.version == table.version + 1 and swapped.game.state["phase"] == "setup"
    # Bob's DM menu was made before Alice's swap: it still works (his own choices did not change).
    for member in (bob, alice):
        await driver.fd.wait_for(lambda m=member: latest_controls(m) is not None, timeout=10)
        submit = [b for b in latest_controls(member).buttons if b.label == "✅ Submit this arrangement"]
        assert submit, "Submit is a button of the DM's controls, not an option on a select's page"
        result = await driver.click_path(member, latest_controls(member), ["✅ Submit this arrangement"])
        assert not result.failed and "out of date" not in result.text, result.text
    await driver.fd.wait_for(lambda: True, timeout=0.1)
    table = await driver.table()
    assert table.game.state["phase"] == "play", table.game.state["phase"]
    # No unit type of either side appeared in the channel.
    types = ("Battleship", "Cruiser", "Destroyer", "Submarine", "Escort", "Minesweeper", "Missile", "Landing")
    for m in driver.public():
        assert not any(t in m.content for t in types), m.content
    assert any(m.attachments for m in alice.dms()) and any(m.attachments for m in bob.dms())


async def test_warships_speaks_of_a_fleet_not_a_hand(driver):
    """Warships has units, not a hand: the join DM, the table's button and the turn ping say so."""
    await driver.new_game("alice", game="warships", quick_setup=True)
    bob = driver.member("bob")
    await bob.click(driver.lobby_message(), "Join")
    joined = [m for m in bob.dms() if "You joined **Warships**" in m.text]
    assert joined and "Your fleet, your secret set-up and your controls will come here." in joined[-1].text
    await driver.member("alice").click(driver.lobby_message(), "Start")
    await driver.settle()
    table = await driver.table()
    labels = [b.label for b in driver.table_message().buttons]
    assert "My fleet" in labels and "My hand" not in labels, labels
    mover = table.seat_row(table.game.to_act()[0]).user_id
    ping = next(m for m in driver.pings() if f"<@{mover}>" in m.content)
    assert "your fleet is in your DMs" in ping.content, ping.content
    texts = [m.text for m in driver.public()] + [m.text for m in bob.dms() + driver.member("alice").dms()]
    texts += [b.label or "" for m in bob.dms() + driver.member("alice").dms() for b in m.buttons]
    assert not any("hand" in t.lower() for t in texts), [t for t in texts if "hand" in t.lower()]


async def test_ws_move_autocomplete_tells_a_spectator_why_and_refuses_privately(driver):
    await driver.new_game("alice", game="warships", quick_setup=True)
    await driver.member("bob").click(driver.lobby_message(), "Join")
    await driver.member("alice").click(driver.lobby_message(), "Start")
    table = await driver.table()
    carol = driver.member("carol")
    for option, given in (("from", {}), ("to", {"from": "B7"})):
        offered = await carol.autocomplete("ws move", option, "", channel=driver.channel, **given)
        assert offered == [{"name": "You are not playing in this game", "value": NOTHING}], offered
    refused = await carol.slash("ws move", channel=driver.channel, to=NOTHING, **{"from": NOTHING})
    assert refused.ephemeral and "You are not playing in this game." in refused.text, refused.text
    seat = table.game.to_act()[0]
    mover = next(
        m for m in (driver.member("alice"), driver.member("bob")) if m.id == table.seat_row(seat).user_id
    )
    no_square = await mover.autocomplete("ws move", "to", "", channel=driver.channel, **{"from": "Z99"})
    assert [c["value"] for c in no_square] == [NOTHING] and "from" in no_square[0]["name"]
    nothing = await mover.slash("ws move", channel=driver.channel, to=NOTHING, **{"from": NOTHING})
    assert nothing.ephemeral and "no move to make" in nothing.text
    assert (await driver.table()).version == table.version
