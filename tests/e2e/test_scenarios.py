"""The end-to-end scenarios of the reliability suite, through the loopback Discord."""

from __future__ import annotations

import random


async def start_two_player(driver, *, quick: bool = True):
    await driver.new_game("alice", quick_setup=quick)
    lobby = driver.lobby_message()
    joined = await driver.member("bob").click(lobby, "Join")
    assert "joined" in joined.text
    started = await driver.member("alice").click(driver.lobby_message(), "Start")
    assert "started" in started.text, started.text
    return await driver.table()


async def test_two_members_play_a_whole_game_by_clicks_and_a_spectator_sees_only_public(driver):
    table = await start_two_player(driver)
    rng = random.Random(1)
    for _ in range(400):
        table = await driver.table()
        if table.game.is_over:
            break
        await driver.play_ai_move(rng)
    table = await driver.table()
    assert table.game.is_over and table.row.status == "finished"
    final = driver.turn_message() or driver.public()[-1]
    assert await driver.game_over_announced(), "the final score is announced in the channel"
    board = driver.board_message()
    assert board.attachments and board.attachments[0].data[:4] == b"\x89PNG"
    carol = driver.member("carol")
    seen = carol.visible(driver.channel)
    assert all(not m.ephemeral for m in seen), "a spectator never sees someone else's ephemeral"
    assert final is not None


async def test_a_member_plays_against_an_ai_seat_to_the_end(driver):
    await driver.new_game("alice", quick_setup=True)
    added = await driver.add_ai("alice")
    assert "AI seat" in added.text
    await driver.member("alice").click(driver.lobby_message(), "Start")
    rng = random.Random(2)
    for _ in range(400):
        await driver.host.idle()
        table = await driver.table()
        if table.game.is_over:
            break
        assert table.game.to_act() == [table.seat_of(driver.member("alice").id)]
        await driver.play_ai_move(rng)
    table = await driver.table()
    assert table.game.is_over
    assert await driver.game_over_announced()


async def test_simultaneous_clicks_apply_exactly_one_action_each_time(driver):
    import asyncio

    from tests.e2e.test_forged_input import plant

    await start_two_player(driver)
    rounds = 0
    while rounds < 100:
        table = await driver.table()
        if table.game.is_over:
            await driver.new_game("alice", quick_setup=True)
            await driver.member("bob").click(driver.lobby_message(), "Join")
            await driver.member("alice").click(driver.lobby_message(), "Start")
            continue
        seat = table.game.to_act()[0]
        mover = (
            driver.member("alice")
            if table.seat_row(seat).user_id == driver.member("alice").id
            else driver.member("bob")
        )
        other = driver.member("bob") if mover.name == "alice" else driver.member("alice")
        turn = driver.table_message()
        first = next(b for b in turn.buttons if b.custom_id.startswith("adm:b"))
        opened = await mover.click(turn, first.custom_id)
        await opened.wait_for(lambda r: any(m.ephemeral for m in r.followups), timeout=10)
        menu = next(m for m in opened.followups if m.ephemeral)  # the sub-menu: the mover's, privately
        leaf = (
            next(b for b in menu.buttons if b.custom_id.startswith("adm:b") and "Back" not in b.label)
            if menu.buttons
            else None
        )
        version = table.version
        before = len(await driver.host.storage.actions(table.id))
        # The other player cannot see the mover's menu: their click comes from a copy of it.
        if leaf is not None:
            copy = plant(driver.fd, driver.channel, leaf.custom_id)
            clicks = [
                mover.click(menu, leaf.custom_id),
                mover.click(menu, leaf.custom_id),
                other.click(copy, leaf.custom_id),
            ]
        else:
            value, custom_id = menu.selects[0].values[0], menu.selects[0].custom_id
            copy = plant(driver.fd, driver.channel, custom_id, [value])
            clicks = [
                mover.select(menu, value),
                mover.select(menu, value),
                other.select(copy, value, custom_id=custom_id),
            ]
        results = await asyncio.gather(*clicks)
        assert all(not r.failed for r in results)
        # The winner's menu turns into "Played" (after the move was applied), the loser gets a private
        # "out of date", the other player "not your turn".
        twins = results[:2]

        def private_word(r):
            # a click on the private menu is answered by a new private message when refused before
            # it was deferred (bot/click_answer.py), else by a private follow-up
            if r.response_type == 4 and r.original is not None and r.original.ephemeral:
                return r.original.text
            return next((m.text for m in r.followups if m.ephemeral), None)

        def settled(menu=menu, twins=twins, results=results):
            return (
                "✅ Played" in driver.fd.message(menu.id).text
                and sum(private_word(r) is not None for r in twins) == 1
                and private_word(results[2]) is not None
            )

        await driver.fd.wait_for(settled, timeout=15)
        loser = next(r for r in twins if private_word(r) is not None)
        assert "out of date" in private_word(loser)
        word = private_word(results[2])
        assert "not your turn" in word or "out of date" in word, word
        after = await driver.host.storage.get_game(table.id)
        assert after.version == version + 1
        assert len(await driver.host.storage.actions(table.id)) == before + 1
        rounds += 1


async def test_a_click_on_a_stale_board_is_refused_with_a_clear_reply(driver):
    await start_two_player(driver)
    table = await driver.table()
    seat = table.game.to_act()[0]
    mover = (
        driver.member("alice")
        if table.seat_row(seat).user_id == driver.member("alice").id
        else driver.member("bob")
    )
    # A choice made for an older version of the game (here through /move, whose choices carry the
    # version; on the table the same happens to a click that races a redraw).
    choices = await mover.autocomplete("move", "action", "", channel=driver.channel)
    await driver.play_ai_move(random.Random(4))
    table = await driver.table()
    state = table.row.state_json
    mover = (
        driver.member("alice")
        if table.seat_row(table.game.to_act()[0]).user_id == driver.member("alice").id
        else driver.member("bob")
    )
    stale = await mover.slash("move", channel=driver.channel, action=choices[0]["value"])
    assert ("out of date" in stale.text or "earlier position" in stale.text) and stale.ephemeral
    assert (await driver.table()).row.state_json == state


async def test_a_member_with_closed_dms_joins_and_plays_through_the_ephemeral_fallback(driver):
    driver.fd.block_dms(driver.member("bob"))
    await driver.new_game("alice", quick_setup=True)
    joined = await driver.member("bob").click(driver.lobby_message(), "Join")
    assert "cannot send you direct messages" in joined.text and joined.ephemeral
    table = await driver.table()
    assert table.seat_row(1).dm_ok is False
    await driver.member("alice").click(driver.lobby_message(), "Start")
    rng = random.Random(6)
    bob_moves = 0
    for _ in range(30):
        table = await driver.table()
        if table.game.is_over:
            break
        # Enemy Lines has no private view: Bob plays on the table like everyone (no DM is needed).
        assert not any(b.label in ("My view", "My hand") for b in driver.table_message().buttons)
        member, _, _ = await driver.play_ai_move(rng)
        bob_moves += member.name == "bob"
    assert bob_moves >= 5
    assert driver.member("bob").dms() == []


async def test_a_429_storm_and_a_gateway_reconnect_lose_no_move_and_apply_none_twice(driver):
    await start_two_player(driver)
    rng = random.Random(8)
    acknowledged = 0
    for step in range(400):
        table = await driver.table()
        if table.game.is_over:
            break
        if step == 3:
            driver.fd.faults.rate_limit("/channels/", times=25, retry_after=0.05)
        if step == 8:
            await driver.fd.drop_gateway()
        if step == 12:
            await driver.fd.request_reconnect()
        await driver.play_ai_move(rng)
        acknowledged += 1
    table = await driver.table()
    assert table.game.is_over
    actions = await driver.host.storage.actions(table.id)
    assert len(actions) == acknowledged + 0 or len(actions) == table.version
    assert [a.seq for a in actions] == list(range(1, table.version + 1))


async def test_a_channel_where_attachments_are_denied_gets_the_text_board(driver):
    driver.fd.deny_attach(driver.channel)
    await start_two_player(driver)
    await driver.play_ai_move(random.Random(9))
    board = driver.board_message()
    assert not board.attachments
    assert "```" in board.text and "A  B  C" in board.text


async def test_non_players_and_out_of_turn_clicks_are_refused_and_change_nothing(driver):
    await start_two_player(driver)
    table = await driver.table()
    state = table.row.state_json
    seat = table.game.to_act()[0]
    idle = (
        driver.member("bob")
        if table.seat_row(seat).user_id == driver.member("alice").id
        else driver.member("alice")
    )
    turn = driver.turn_message()
    button = next(b for b in turn.buttons if b.custom_id.startswith("adm:b"))
    carol = await driver.member("carol").click(turn, button.custom_id)
    assert "not playing" in carol.text and carol.ephemeral
    out_of_turn = await idle.click(turn, button.custom_id)
    assert "not your turn" in out_of_turn.text and out_of_turn.ephemeral
    garbage = await idle.slash("move", channel=driver.channel, action="fly to the moon")
    assert "not your turn" in garbage.text
    assert (await driver.table()).row.state_json == state


async def test_move_command_autocompletes_legal_moves_and_plays_one(driver):
    await start_two_player(driver)
    table = await driver.table()
    seat = table.game.to_act()[0]
    mover = (
        driver.member("alice")
        if table.seat_row(seat).user_id == driver.member("alice").id
        else driver.member("bob")
    )
    choices = await mover.autocomplete("move", "action", "", channel=driver.channel)
    assert 0 < len(choices) <= 25
    assert all(c["value"].startswith(f"v{table.version}:") for c in choices)
    nonsense = await mover.slash("move", channel=driver.channel, action="fly to the moon")
    assert "don't know the move" in nonsense.text
    played = await mover.slash("move", channel=driver.channel, action=choices[0]["value"])
    assert "✅ Played" in played.text
    assert (await driver.table()).version == table.version + 1
