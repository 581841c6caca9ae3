"""The "My view" / "My hand" reply carries the menu of the snapshot it was built from, so another seat
acting while the reply is drawn does not make its first click "out of date"."""

from __future__ import annotations


def _first_entry(message):
    """The first entry that opens a menu level: a select's (a button beside a select plays at once,
    like the set-up's Submit), else the first menu button."""
    for s in message.selects:
        return s.custom_id, next(o["value"] for o in s.options if o["value"].isdigit())
    for b in message.buttons:
        if (b.custom_id or "").startswith("adm:b"):
            return b.custom_id, None
    raise AssertionError(f"no menu on {message!r}")


async def test_my_view_reply_is_not_out_of_date_when_another_seat_acts_while_it_is_drawn(driver):
    await driver.new_game("alice", game="warships")
    await driver.member("bob").click(driver.lobby_message(), "Join")
    await driver.member("alice").click(driver.lobby_message(), "Start")
    table = await driver.table()
    alice, bob = driver.member("alice"), driver.member("bob")
    seat_a, seat_b = table.seat_of(alice.id), table.seat_of(bob.id)
    assert sorted(table.game.to_act()) == [seat_a, seat_b], "both arrange their ports at once"
    submit = next(a for a in table.game.legal_actions(seat_b) if a["type"] == "submit")

    delivery = driver.bot.delivery
    real_image = delivery.image
    acted = []

    async def image_while_bob_submits(t, seat):
        png = await real_image(t, seat)
        if seat == seat_a and not acted:  # Bob submits while Alice's private view is being drawn
            acted.append(submit)  # first: publishing Bob's move draws Alice's view again
            await driver.host.act(t.id, bob.id, submit)
        return png

    delivery.image = image_while_bob_submits
    try:
        turn = driver.turn_message()
        button = next(b for b in turn.buttons if (b.custom_id or "").startswith("adm:v:"))
        shown = await alice.click(turn, button.custom_id)
    finally:
        delivery.image = real_image
    assert acted and not shown.failed, shown.text
    after = await driver.table()
    assert after.version == table.version + 1 and after.game.to_act() == [seat_a]
    assert "Your turn" in shown.text, shown.text
    custom_id, value = _first_entry(shown.message)
    if value is None:
        first = await alice.click(shown.message, custom_id)
    else:
        first = await alice.select(shown.message, value, custom_id=custom_id)
    assert not first.failed
    assert "out of date" not in first.text, first.text
    assert (await driver.table()).version == after.version, "opening a menu level changes nothing"
