"""Games the bot can no longer play where they are: a game type removed from the registry, a channel
deleted under a running game. Through the loopback Discord."""

from __future__ import annotations

import asyncio
import logging
import time

from bot.app import Admiralty
from bot.settings import Settings
from tests.e2e.conftest import Driver
from tests.fakediscord import FakeDiscord, running_bot


async def write_unknown_game(storage, *, guild_id: int, channel_id: int, host_id: int) -> int:
    """A running game of a game type this bot does not have, written straight into the database."""

    async def body(db):
        now = time.time()
        rows = await db.execute_fetchall(
            "INSERT INTO games (guild_id, channel_id, game_key, options, seed, host_id, status, version, state, "
            "deadline, turn_timeout, created_at, updated_at) "
            "VALUES (?, ?, 'no-such-game', '{}', 1, ?, 'running', 3, '{\"players\": 2}', ?, 60, ?, ?) RETURNING id",
            (guild_id, channel_id, host_id, now + 30, now, now),
        )
        gid = rows[0][0]
        await db.execute(
            "INSERT INTO seats (game_id, seat, user_id, is_ai, name) "
            "VALUES (?, 0, ?, 0, 'Alice'), (?, 1, NULL, 1, 'Nelson (AI)')",
            (gid, host_id, gid),
        )
        return gid

    return await storage._write(body)


def mine(records, *, at_least=logging.WARNING):
    """The bot's own log records (not discord.py's) at ``at_least`` or above."""
    return [r for r in records if r.name.startswith("admiralty") and r.levelno >= at_least]


async def test_unknown_game_key_is_listed_answered_and_abandoned(driver):
    alice, bob = driver.member("alice"), driver.member("bob")
    ch, general = driver.channel, driver.fd.channel("general")
    await Driver(driver.fd, driver.bot, general).new_game("bob")  # another game of the server
    gid = await write_unknown_game(
        driver.host.storage, guild_id=driver.fd.guild.id, channel_id=ch.id, host_id=alice.id
    )

    listed = await bob.slash("game list", channel=general)
    assert listed.ephemeral and "Sorry" not in listed.text, listed.text
    assert f"#{gid} **no-such-game** in <#{ch.id}> — unavailable" in listed.text
    assert "**Enemy Lines**" in listed.text and "Bob" in listed.text  # the others are still listed

    for command, options in (
        ("game status", {}),
        ("game join", {}),
        ("game start", {}),
        ("move", {"action": "fire"}),
    ):
        answer = await alice.slash(command, channel=ch, **options)
        assert answer.ephemeral and f"Game #{gid} cannot be played" in answer.text, (command, answer.text)
        assert "`/game abandon`" in answer.text
    busy = await bob.slash("game new", channel=ch, game="enemy-lines", thread=False)
    assert "already has a game" in busy.text

    refused = await bob.slash("game abandon", channel=ch)
    assert "Only the host" in refused.text
    assert (await driver.host.storage.get_game(gid)).status == "running"
    done = await alice.slash("game abandon", channel=ch)
    assert done.ephemeral and f"Game #{gid} was abandoned" in done.text, done.text
    assert (await driver.host.storage.get_game(gid)).status == "abandoned"
    assert any(f"Game #{gid} (no-such-game) was abandoned" in m.content for m in driver.public())
    await driver.new_game("bob")  # the channel is free again


async def test_clicks_on_a_game_whose_type_was_removed_get_a_clear_reply(driver):
    alice = driver.member("alice")
    await driver.new_game("alice", quick_setup=True)
    await driver.add_ai("alice")
    await alice.click(driver.lobby_message(), "Start")
    await driver.settle()
    table = await driver.table()
    turn = driver.turn_message()

    async def retire(db):  # the game type is removed from this bot, its row stays
        await db.execute("UPDATE games SET game_key = 'no-such-game' WHERE id = ?", (table.id,))

    await driver.host.storage._write(retire)
    menu = next(b for b in turn.buttons if b.custom_id.startswith("adm:b"))
    mine = [b.custom_id for b in turn.buttons if b.custom_id.startswith("adm:v")]  # games with private views
    for custom_id in [menu.custom_id, *mine]:
        answer = await alice.click(turn, custom_id)
        assert not answer.failed and answer.ephemeral, custom_id
        assert f"Game #{table.id} cannot be played" in answer.text, answer.text
    assert (await driver.host.storage.get_game(table.id)).version == table.version


def settings(database, **kw) -> Settings:
    return Settings(
        token="fake",
        database=database,
        dev_guild=None,
        turn_timeout=0,
        ai_delay=kw.get("ai_delay", 0.0),
        log_level="INFO",
    )


async def test_deleted_channel_suspends_the_game_stops_timers_and_ai(driver, caplog):
    caplog.set_level(logging.INFO)
    alice, bob = driver.member("alice"), driver.member("bob")
    general = driver.fd.channel("general")
    driver.host.lobby.min_turn_timeout = 1.0  # a 2 s timer, only for speed
    await driver.new_game("alice", quick_setup=True, turn_timeout="2")
    await driver.add_ai("alice")
    await alice.click(driver.lobby_message(), "Start")
    await driver.settle()
    table = await driver.table()
    gid, channel_id = table.id, driver.channel.id

    driver.fd.remove_channel(driver.channel)
    await driver.fd.wait_for(lambda: driver.bot.get_channel(channel_id) is None, timeout=5)

    async def watch():
        while (await driver.host.storage.get_game(gid)).status != "suspended":
            await asyncio.sleep(0.05)

    await asyncio.wait_for(watch(), timeout=10)  # the reminder (1 s) or a move finds the channel gone
    row = await driver.host.storage.get_game(gid)
    assert row.deadline is None
    assert gid not in driver.host.scheduler._timers and gid not in driver.host.scheduler._ai_tasks

    # Well past the turn's deadline: no move for the absent player, no AI, no retries, no log storm.
    calls_before = [r for r in driver.fd.requests if str(channel_id) in r[0]]
    await asyncio.sleep(3)
    assert (await driver.host.storage.get_game(gid)).version == row.version
    assert [r for r in driver.fd.requests if str(channel_id) in r[0]] == calls_before
    assert [r.getMessage() for r in mine(caplog.records)] == [
        f"game {gid}: its channel {channel_id} was deleted; the game is suspended "
        f"(`/game abandon game:{gid}` clears it)"
    ]

    # It blocks nothing, is listed with a note, and can be cleared from another channel.
    assert await driver.host.storage.active_game(channel_id) is None
    listed = await bob.slash("game list", channel=general)
    assert f"#{gid} **Enemy Lines**" in listed.text and "suspended: its channel was deleted" in listed.text
    refused = await bob.slash("game abandon", channel=general, game=gid)
    assert "Only the host" in refused.text
    assert "no game in this channel" in (await alice.slash("game abandon", channel=general)).text
    done = await alice.slash("game abandon", channel=general, game=gid)
    assert f"Game #{gid} was abandoned" in done.text, done.text
    assert (await driver.host.storage.get_game(gid)).status == "abandoned"
    assert "was already abandoned" in (await alice.slash("game abandon", channel=general, game=gid)).text
    assert not mine(caplog.records, at_least=logging.ERROR)


async def test_channel_deleted_while_the_bot_was_away_is_suspended_and_not_resumed(e2e_database, caplog):
    caplog.set_level(logging.INFO)
    async with FakeDiscord(users=["alice", "bob"]) as fd:
        channel = fd.channel("games")
        async with running_bot(Admiralty(settings(e2e_database, ai_delay=30.0)), fd) as bot:
            d = Driver(fd, bot, channel)
            await d.new_game("alice", quick_setup=True, turn_timeout="1h")
            await d.add_ai("alice")
            await d.member("alice").click(d.lobby_message(), "Start")
            await fd.wait_for(lambda: d.turn_message() is not None, timeout=10)
            gid = (await d.table()).id
        fd.remove_channel(channel)
        async with running_bot(Admiralty(settings(e2e_database)), fd) as bot:
            await fd.wait_for(lambda: bot._resumed, timeout=10)

            async def suspended():
                while (await bot.host.storage.get_game(gid)).status != "suspended":
                    await asyncio.sleep(0.05)

            await asyncio.wait_for(suspended(), timeout=10)
            assert gid not in bot.host.scheduler._timers and gid not in bot.host.scheduler._ai_tasks
        warnings = [r.getMessage() for r in mine(caplog.records)]
        assert warnings == [
            f"game {gid}: its channel {channel.id} was deleted; the game is suspended "
            f"(`/game abandon game:{gid}` clears it)"
        ]
        # A suspended game is not resumed: the next start leaves it alone.
        requests = len(fd.requests)
        async with running_bot(Admiralty(settings(e2e_database)), fd) as bot:
            await fd.wait_for(lambda: bot._resumed, timeout=10)
            assert await bot.host.resume_all() == []
            assert (await bot.host.storage.get_game(gid)).status == "suspended"
        assert not [r for r in fd.requests[requests:] if str(channel.id) in r[0]]
        assert not mine(caplog.records, at_least=logging.ERROR)
