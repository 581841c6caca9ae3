"""Game flow through the loopback Discord: /game resign and its confirm step, Play again, a private
/game status."""

from __future__ import annotations


def button(message, label: str):
    return next((b for b in message.buttons if b.label == label), None)


async def two_player_game(driver):
    alice, bob = driver.member("alice"), driver.member("bob")
    await driver.new_game("alice", quick_setup=True)
    assert "You joined" in (await bob.slash("game join", channel=driver.channel)).text
    assert "started" in (await alice.slash("game start", channel=driver.channel)).text
    await driver.settle()
    return await driver.table()


async def test_resign_asks_to_confirm_then_ends_the_game_and_play_again_opens_a_rematch(driver):
    alice, bob, carol = driver.member("alice"), driver.member("bob"), driver.member("carol")
    ch = driver.channel
    table = await two_player_game(driver)

    spectator = await carol.slash("game resign", channel=ch)
    assert spectator.ephemeral and "not playing" in spectator.text

    asked = await bob.slash("game resign", channel=ch)
    assert asked.ephemeral and f"Resign game #{table.id}?" in asked.text
    confirm = asked.message
    assert [b.label for b in confirm.buttons] == ["Resign", "Keep playing"]
    assert all(f":{table.id}:{bob.id}:" in b.custom_id for b in confirm.buttons)
    kept = await bob.click(confirm, button(confirm, "Keep playing").custom_id)
    assert not kept.failed and "keep playing" in confirm.content and confirm.buttons == []
    assert (await driver.table()).row.status == "running"

    confirm = (await bob.slash("game resign", channel=ch)).message
    done = await bob.click(confirm, button(confirm, "Resign").custom_id)
    assert not done.failed and "You resigned" in confirm.content and "over" in confirm.content
    row = await driver.host.storage.get_game(table.id)
    assert row.status == "finished" and row.result["winners"] == [0] and row.result["resigned"] == [1]
    await driver.game_over_announced()
    over = next(m for m in reversed(driver.public()) if "Game over" in m.content + m.text)
    shown = over.content + over.text
    assert "Bob resigned" in shown and "Alice" in shown and "move" in shown, shown
    assert [b.label for b in over.buttons] == ["Key", "Text board", "Play again", "Replay"]

    again = await bob.slash("game resign", channel=ch)
    assert again.ephemeral and "no game in this channel" in again.text

    stranger = await carol.click(over, "Play again")
    assert stranger.ephemeral and "Only the players" in stranger.text
    rematch = await bob.click(over, "Play again")
    assert rematch.ephemeral and "Rematch lobby opened" in rematch.text, rematch.text
    new = await driver.table()
    assert new.id != table.id and new.row.status == "lobby" and new.row.host_id == bob.id
    assert new.row.options == table.row.options
    assert [(s.user_id, s.is_ai) for s in new.seats] == [(alice.id, False), (bob.id, False)]
    assert f"Rematch of game #{table.id}" in driver.lobby_message().content
    busy = await alice.click(over, "Play again")
    assert "already has a game" in busy.text
    assert "Only the host" in (await alice.slash("game start", channel=ch)).text
    assert "started" in (await bob.slash("game start", channel=ch)).text
    assert (await driver.table()).row.status == "running"


async def test_status_answers_privately_unless_the_board_was_deleted(driver):
    alice, carol = driver.member("alice"), driver.member("carol")
    ch = driver.channel
    table = await two_player_game(driver)
    public_before = [m.id for m in driver.public()]
    mover = next(
        m for m in (alice, driver.member("bob")) if m.id == table.seat_row(table.game.to_act()[0]).user_id
    )

    mine = await mover.slash("game status", channel=ch)
    assert mine.ephemeral and f"game #{table.id}" in mine.text and "waiting for" in mine.text
    assert mine.message.attachments, "the board image comes with the answer"
    assert any((b.custom_id or "").startswith("adm:b") for b in mine.message.buttons) or mine.message.selects
    watcher = await carol.slash("game status", channel=ch)
    assert watcher.ephemeral and watcher.message.buttons == [] and watcher.message.selects == []
    assert [m.id for m in driver.public()] == public_before, "no re-post, no ping in the channel"

    board = driver.board_message()
    await driver.bot.http.delete_message(ch.id, board.id)
    posted = await alice.slash("game status", channel=ch)
    assert posted.ephemeral and "posted again" in posted.text
    assert driver.board_message() is not None and driver.board_message().id != board.id
