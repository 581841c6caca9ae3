"""Every /game command through discord.py's own dispatch."""

from __future__ import annotations


async def test_game_commands_lobby_to_abandon(driver):
    alice, bob, carol = driver.member("alice"), driver.member("bob"), driver.member("carol")
    ch = driver.channel
    nothing = await alice.slash("game status", channel=ch)
    assert "no game in this channel" in nothing.text and nothing.ephemeral
    listed = await alice.slash("game list", channel=ch)
    assert "No games are running" in listed.text
    await driver.new_game("alice", turn_timeout="2h")
    again = await bob.slash("game new", channel=ch, game="enemy-lines", thread=False)
    assert "already has a game" in again.text and again.ephemeral
    assert "turn timer: 2 h" in driver.lobby_message().content
    assert "You joined" in (await bob.slash("game join", channel=ch)).text
    assert "full" in (await carol.slash("game join", channel=ch)).text
    assert "left" in (await bob.slash("game leave", channel=ch)).text
    assert "takes a seat" in (await alice.slash("game add-ai", channel=ch)).text
    assert "Only the host" in (await carol.slash("game start", channel=ch)).text
    assert "started" in (await alice.slash("game start", channel=ch)).text
    table = await driver.table()
    assert [s.is_ai for s in table.seats] == [False, True]
    await driver.host.idle()  # the AI seat's move (and the ping of the turn it starts) is in
    public_before = len(driver.public())
    status = await alice.slash("game status", channel=ch)
    assert status.ephemeral and f"game #{table.id}" in status.text and status.message.attachments
    assert len(driver.public()) == public_before  # answered privately: nothing re-posted
    listed = await carol.slash("game list", channel=ch)
    assert "Enemy Lines" in listed.text and "Alice" in listed.text
    refused = await carol.slash("game abandon", channel=ch)
    assert "Only the host" in refused.text
    done = await alice.slash("game abandon", channel=ch)
    assert "abandoned" in done.text
    assert (await driver.host.storage.get_game(table.id)).status == "abandoned"
    assert any("was abandoned" in m.content for m in driver.public())


async def test_game_rules_and_bad_options_are_answered_privately(driver):
    alice = driver.member("alice")
    ch = driver.channel
    for key in ("enemy-lines", "enemy-in-sight", "warships", "everrain"):
        rules = await alice.slash("game rules", channel=ch, game=key)
        assert rules.ephemeral and len(rules.text) > 40, key
    bad = await alice.slash("game new", channel=ch, game="enemy-lines", options="colour=green", thread=False)
    assert "no option" in bad.text and bad.ephemeral
    bad_timer = await alice.slash(
        "game new", channel=ch, game="enemy-lines", turn_timeout="whenever", thread=False
    )
    assert "duration" in bad_timer.text
    wrong_variant = await alice.slash(
        "game new", channel=ch, game="enemy-lines", variant="advanced", thread=False
    )
    assert "no option" in wrong_variant.text
    assert await driver.host.storage.active_game(ch.id) is None


async def test_a_game_in_its_own_thread(driver):
    made = await driver.member("alice").slash(
        "game new", channel=driver.channel, game="enemy-lines", thread=True
    )
    assert "Lobby opened in <#" in made.text
    thread_id = int(made.text.split("<#")[1].split(">")[0])
    row = await driver.host.storage.active_game(thread_id)
    assert row is not None and row.thread_id == thread_id
    # The parent channel stays free for another game.
    other = await driver.member("bob").slash(
        "game new", channel=driver.channel, game="enemy-lines", thread=False
    )
    assert "Lobby opened" in other.text
