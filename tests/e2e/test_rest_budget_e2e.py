"""Issue 11: moves reach Discord through interactions (not counted against the global 50 requests/s).

A click is answered through its interaction; the table, pings and DMs are edited or posted through
interaction tokens that still live (15 minutes: the click on a DM, the replies in the channel); a DM
is one message a game, edited in place only when its own seat's view or options change."""

from __future__ import annotations

import random

from bot import menus

CREATE_DM = "POST /users/@me/channels"


async def start_two_members(driver, game: str, **options):
    await driver.new_game("alice", game=game, **options)
    await driver.member("bob").click(driver.lobby_message(), "Join")
    await driver.member("alice").click(driver.lobby_message(), "Start")
    await driver.settle()
    return await driver.table()


def member_of(driver, table, seat: int):
    user_id = table.seat_row(seat).user_id
    return next(m for m in (driver.member("alice"), driver.member("bob")) if m.id == user_id)


async def play_one_by_dm(driver, rng: random.Random) -> bool:
    """The member to act plays the AI's choice from their DM; False when the game is over."""
    await driver.host.idle()
    await driver.settle()
    table = await driver.table()
    if table.over or not table.human_to_act():
        return False
    seat = table.human_to_act()[0]
    _, result = await driver.play_by_dm(member_of(driver, table, seat), seat, rng)
    assert result is not None and "✅ Played" in result.text, result and result.text
    await driver.host.idle()
    await driver.settle()
    return True


async def test_a_warships_move_by_dm_costs_no_globally_limited_call(driver):
    """After each member's first move (their DM click's token is then known), a Warships move played
    from the DM makes no globally limited REST call: the DM is edited through the click, the table
    through the token that posted it, the next member's DM through their own last click, and the
    pings are posted and deleted as follow-ups."""
    table = await start_two_members(driver, "warships", quick_setup=True)
    rng = random.Random(3)
    for _ in range(2):  # warm-up: each member plays once from their DM
        assert await play_one_by_dm(driver, rng)
    for _ in range(4):
        with driver.fd.count() as calls:
            assert await play_one_by_dm(driver, rng)
        assert calls.global_limited == 0, calls
        assert calls.exempt > 0
    assert (await driver.table()).id == table.id


async def test_an_enemy_in_sight_turn_costs_no_globally_limited_call(driver):
    """Enemy in Sight (base), both members playing from their DMs: once each has played, a whole turn
    (all its steps, up to the other member's turn) makes no globally limited REST call."""
    await start_two_members(driver, "enemy-in-sight", variant="base")
    rng = random.Random(5)
    members_played: set[int] = set()
    while len(members_played) < 2:  # warm-up
        table = await driver.table()
        members_played.add(table.seat_row(table.human_to_act()[0]).user_id)
        assert await play_one_by_dm(driver, rng)
    for _ in range(3):
        table = await driver.table()
        if table.over:
            break
        turn_of = table.human_to_act()[0]
        with driver.fd.count() as calls:
            steps = 0
            while True:
                table = await driver.table()
                if table.over or turn_of not in table.human_to_act():
                    break
                assert await play_one_by_dm(driver, rng)
                steps += 1
        assert steps >= 1
        assert calls.global_limited == 0, calls


async def test_a_dm_is_one_message_edited_in_place_and_its_channel_is_not_created_per_move(driver):
    """A member's DM of a game is one message for the whole game, edited in place (never deleted and
    posted again, even when their turn begins); the DM channel is opened once per member."""
    table = await start_two_members(driver, "warships", quick_setup=True)
    rng = random.Random(7)
    with driver.fd.count() as calls:
        for _ in range(8):
            if not await play_one_by_dm(driver, rng):
                break
    for member in (driver.member("alice"), driver.member("bob")):
        dms = [m for m in member.dms() if m.text.startswith(f"⚓ **Warships** · game #{table.id}")]
        assert len(dms) == 1, [m.text[:60] for m in dms]
        assert not any(m.deleted for m in member.dms())
        assert len(dms[0].edits) >= 2
    assert calls[CREATE_DM] == 0, "the DM channels were opened at the start, not per move"


async def test_a_member_playing_from_the_table_has_their_dm_left_alone_until_they_press_its_button(driver):
    """Bob plays through the table's "My hand": his DM is edited once (its stale menu replaced by a
    "My hand" button), then left alone while he plays from the table; pressing that button shows his
    hand and menu in the DM itself, and he plays from there again."""
    table = await start_two_members(driver, "enemy-in-sight", variant="base")
    alice, bob = driver.member("alice"), driver.member("bob")
    bob_seat = table.seat_of(bob.id)
    rng = random.Random(11)

    async def bob_by_table():
        table = await driver.table()
        action = table.game.ai_action(bob_seat, rng)
        labels = menus.labels_of(table.game, bob_seat, action, table.names())
        shown = await bob.click(driver.turn_message(), "My hand")
        assert shown.message is not None and shown.message.ephemeral
        result = await driver.click_path(bob, shown.message, labels)
        assert "✅ Played" in result.text, result.text
        await driver.host.idle()
        await driver.settle()

    dm = None
    edits_after_first = None
    bob_moves = 0
    for _ in range(60):
        table = await driver.table()
        if table.over or bob_moves >= 3:
            break
        seat = table.human_to_act()[0]
        if seat == bob_seat:
            await bob_by_table()
            bob_moves += 1
            dm = next(m for m in bob.dms() if m.text.startswith("⚓") and f"game #{table.id}" in m.text)
            if edits_after_first is None:
                edits_after_first = len(dm.edits)
                assert [b.label for b in dm.buttons] == ["My hand"] and not dm.selects, dm.buttons
        else:
            _, result = await driver.play_by_dm(alice, seat, rng)
            assert "✅ Played" in result.text
            await driver.host.idle()
            await driver.settle()
    assert bob_moves >= 2 and dm is not None
    assert len(dm.edits) == edits_after_first, "Bob's DM was left alone while he played from the table"
    # Bob presses his DM's button when it is his turn: the DM shows his menu; he plays from it. A turn
    # that BEGINS now, after he played from the table (a turn's ping is posted once, when it begins:
    # one that began before his first move from the table still says where he played then).
    began = False
    for _ in range(120):
        table = await driver.table()
        if table.over:
            break
        if bob_seat in table.human_to_act():
            if began:
                break
            # still the turn he was in (or a choice of both): play it on from the table
            await bob_by_table()
            continue
        began = True
        _, result = await driver.play_by_dm(alice, table.human_to_act()[0], rng)
        await driver.host.idle()
        await driver.settle()
    table = await driver.table()
    if table.over:
        return
    live = [m for m in driver.pings() if not m.deleted and f"<@{bob.id}>" in m.content]
    assert live and "button on the table" in live[-1].content, "his ping says where he plays"
    pressed = await bob.click(dm, "My hand")
    assert not pressed.failed
    await driver.fd.wait_for(lambda: driver.dm_menu(bob, table.id, bob_seat) is dm, timeout=10)
    _, result = await driver.play_by_dm(bob, bob_seat, rng)
    assert "✅ Played" in result.text
