"""Spectators who follow (issue 20), through the loopback Discord: Follow on the table and /game follow,
the count on the table, the end DM with Unfollow, a DM per turn (spectators' text only), Unfollow from a
DM, members whose DMs are closed, and a stale Follow button after the game ended."""

from __future__ import annotations

import asyncio
import random

import pytest

from bot import ui
from bot.app import Admiralty
from bot.delivery import said
from bot.settings import Settings
from tests.e2e.conftest import Driver
from tests.e2e.test_answer_storm_e2e import start
from tests.e2e.test_forged_input import plant
from tests.fakediscord import FakeDiscord, running_bot

CREATE_DM = "POST /users/@me/channels"
DM_SEND_REFUSED = ("POST /channels/{channel_id}/messages", 403)


def with_button(result, label: str):
    """The message of an interaction's answer that carries the button ``label``."""
    return next(m for m in reversed(result.messages) if any(b.label == label for b in m.buttons))


async def follow_from_table(driver, who: str = "carol"):
    result = await driver.member(who).click(driver.table_message(), "Follow")
    assert not result.failed and result.ephemeral, result.text
    return result


async def shown_following(driver, count: int) -> None:
    await driver.host.idle()
    await driver.fd.wait_for(
        lambda: (
            (f"👁 {count} following" in driver.table_message().text)
            if count
            else ("following" not in driver.table_message().text)
        ),
        timeout=10,
    )


async def resign(driver, who: str = "bob"):
    """``who`` resigns: a two-player game ends (its last publish shows it over)."""
    asked = await driver.member(who).slash("game resign", channel=driver.channel)
    done = await driver.member(who).click(with_button(asked, "Resign"), "Resign")
    assert "The game is over" in done.text, done.text
    await driver.host.idle()
    return await driver.table()


async def play_moves(driver, n: int, rng: random.Random) -> None:
    for _ in range(n):
        member, _, _ = await driver.play_ai_move(rng)
        assert member is not None, "the game ended early"
        await driver.host.idle()


async def test_a_spectator_follows_from_the_table_and_gets_the_end_dm_with_unfollow(driver):
    table = await start(driver)
    carol = driver.member("carol")
    result = await follow_from_table(driver)
    assert f"You follow game #{table.id}" in result.text and "when it ends" in result.text
    answer = with_button(result, "Unfollow")
    assert any(b.label == "Every move too" for b in answer.buttons)
    [welcome] = carol.dms()
    assert "You follow" in welcome.text and any(b.label == "Unfollow" for b in welcome.buttons)
    await shown_following(driver, 1)
    again = await follow_from_table(driver)  # a second click: no second DM
    assert "You follow" in again.text and len(carol.dms()) == 1
    await play_moves(driver, 2, random.Random(4))
    final = await resign(driver)
    await driver.host.idle()
    await driver.fd.wait_for(lambda: len(carol.dms()) == 2, timeout=10)
    end = carol.dms()[-1]
    assert "Game over" in end.text and f"game #{final.id}" in end.text
    assert (
        f"discord.com/channels/{driver.fd.guild.id}/{driver.channel.id}/{driver.table_message().id}"
        in end.text
    )
    assert [b.label for b in end.buttons] == ["Unfollow"]
    assert await driver.host.storage.followers(final.id) == []  # dropped after the end DM
    assert not any(b.label == "Follow" for b in driver.table_message().buttons)
    late = await carol.click(end, "Unfollow")
    assert "is over" in late.text and not late.failed


async def test_a_follower_of_every_move_gets_one_dm_per_move_in_spectators_words_and_unfollows_there(driver):
    table = await start(driver)
    carol = driver.member("carol")
    answer = with_button(await follow_from_table(driver), "Every move too")
    chose = await carol.click(answer, "Every move too")
    assert "every move" in chose.text and not chose.failed
    assert (await driver.host.storage.follow_of(table.id, carol.id)).every_move
    rng = random.Random(2)
    for n in range(1, 4):
        before = (await driver.table()).version
        with driver.fd.count() as calls:
            await play_moves(driver, 1, rng)
        dms = carol.dms()
        assert len(dms) == 1 + n, [m.text for m in dms]
        assert f"game #{table.id}" in dms[-1].text and "\n> " in dms[-1].text
        assert calls[CREATE_DM] == 0  # the DM channel is known since the click
        # only public lines: every line of the turn DM is on the table's public log or its status
        public = await driver.host.storage.recent_log(table.id, 50)
        for line in dms[-1].text.splitlines():
            if line.startswith("> "):
                assert any(line[2:] in driver.table_message().text or line[2:] in p for p in public), line
        assert (await driver.table()).version > before
    last = carol.dms()[-1]
    assert {b.label for b in last.buttons} == {"Only when it ends", "Unfollow"}
    gone = await carol.click(last, "Unfollow")
    assert not gone.failed and "You no longer follow" in gone.message.text
    assert gone.message.buttons == []
    assert await driver.host.storage.follow_of(table.id, carol.id) is None
    await shown_following(driver, 0)
    await play_moves(driver, 2, rng)
    assert len(carol.dms()) == 4  # nothing more


async def test_the_table_counts_followers_without_an_extra_edit_per_move(driver):
    await start(driver)
    rng = random.Random(5)
    await play_moves(driver, 2, rng)  # warm-up: the members' clicks' tokens are known
    with driver.fd.count() as alone:
        await play_moves(driver, 2, rng)
    await follow_from_table(driver, "carol")  # the end only: no DM a move
    await shown_following(driver, 1)
    with driver.fd.count() as followed:
        await play_moves(driver, 2, rng)
    assert "👁 1 following" in driver.table_message().text
    assert followed.total == alone.total, (alone, followed)


async def test_slash_follow_and_unfollow(driver):
    table = await start(driver)
    carol = driver.member("carol")
    followed = await carol.slash("game follow", channel=driver.channel)
    assert f"You follow game #{table.id}" in followed.text and followed.ephemeral
    await shown_following(driver, 1)
    player = await driver.member("bob").slash("game follow", channel=driver.channel)  # a player may too
    assert "You follow" in player.text
    await shown_following(driver, 2)
    left = await carol.slash("game unfollow", channel=driver.channel)
    assert "You no longer follow" in left.text
    not_following = await carol.slash("game unfollow", channel=driver.channel, game=table.id)
    assert "You do not follow" in not_following.text and not_following.ephemeral
    await shown_following(driver, 1)


async def test_a_member_whose_dms_are_closed_is_told_at_the_click_and_does_not_follow(driver):
    driver.fd.block_dms(driver.member("bob"))  # a player whose DMs were refused when joining
    table = await start(driver)
    assert table.seat_row(1).dm_ok is False
    driver.fd.block_dms(driver.member("carol"))
    refused = await follow_from_table(driver, "carol")
    assert "direct messages" in refused.text and "Follow" in refused.text
    assert await driver.host.storage.follow_of(table.id, driver.member("carol").id) is None
    with driver.fd.count() as calls:
        remembered = await follow_from_table(driver, "bob")
    assert "direct messages" in remembered.text
    assert calls[CREATE_DM] == 0 and calls.statuses[DM_SEND_REFUSED] == 0  # not even tried
    assert driver.member("carol").dms() == [] and driver.member("bob").dms() == []
    assert "following" not in driver.table_message().text


async def test_a_follower_who_closes_their_dms_later_is_not_tried_again(driver):
    table = await start(driver)
    carol = driver.member("carol")
    answer = with_button(await follow_from_table(driver), "Every move too")
    await carol.click(answer, "Every move too")
    driver.fd.block_dms(carol)
    rng = random.Random(7)
    with driver.fd.count() as first:
        await play_moves(driver, 1, rng)
    assert first.statuses[DM_SEND_REFUSED] == 1
    assert (await driver.host.storage.follow_of(table.id, carol.id)).dm_ok is False
    with driver.fd.count() as later:
        await play_moves(driver, 2, rng)
    assert later.statuses[DM_SEND_REFUSED] == 0
    assert len(carol.dms()) == 1  # the welcome only


async def test_a_stale_follow_button_after_the_game_ended_gets_a_clear_private_reply(driver):
    table = await start(driver)
    await resign(driver)
    stale = plant(driver.fd, driver.channel, ui.follow_id(table.id, "on"))
    result = await driver.member("carol").click(stale, ui.follow_id(table.id, "on"))
    assert not result.failed and result.ephemeral and "is over" in result.text, result.text
    assert await driver.host.storage.follow_of(table.id, driver.member("carol").id) is None
    assert driver.member("carol").dms() == []


async def test_turn_dms_of_a_game_with_hands_hold_only_what_spectators_see(driver):
    """Enemy in Sight: each player's hand and draws are private; a follower of every move (not playing)
    gets the public lines only, never a line of a player's private log."""
    await driver.new_game("alice", game="enemy-in-sight", variant="base")
    await driver.member("bob").click(driver.lobby_message(), "Join")
    await driver.member("alice").click(driver.lobby_message(), "Start")
    await driver.settle()
    table = await driver.table()
    carol = driver.member("carol")
    answer = with_button(await follow_from_table(driver), "Every move too")
    await carol.click(answer, "Every move too")
    rng = random.Random(3)
    members = {m.id: m for m in (driver.member("alice"), driver.member("bob"))}
    to_act, turns, steps = set((await driver.table()).game.to_act()), 0, 0
    for _ in range(40):  # ten steps, and on (the deal is random) until a turn has had several
        await driver.host.idle()
        await driver.settle()
        table = await driver.table()
        if table.over or not table.human_to_act() or (steps >= 10 and 0 < turns < steps):
            break
        seat = table.human_to_act()[0]
        await driver.play_by_dm(members[table.seat_row(seat).user_id], seat, rng)
        await driver.host.idle()
        now = set((await driver.table()).game.to_act())
        turns += bool(now - to_act)  # someone new to act: a turn began
        to_act, steps = now, steps + 1
    table = await driver.table()
    turn_dms = carol.dms()[1:]
    assert 0 < turns < steps, "the game's turns had one step each: the test proves nothing"
    assert len(turn_dms) == turns  # one DM a turn, not one a step
    public = {said(table, line) for line in await driver.host.storage.recent_log(table.id, 500)}
    private = {
        said(table, line)
        for seat in (0, 1)
        for line in await driver.host.storage.recent_log(table.id, 500, seat=seat)
    }
    assert private, "the game logged nothing private: the test proves nothing"
    for dm in turn_dms:
        quoted = [line[2:] for line in dm.text.splitlines() if line.startswith("> ")]
        assert quoted and all(line in public for line in quoted), (quoted, public)
        assert not any(line in dm.text for line in private - public)


async def test_a_follow_survives_a_restart_and_its_dm_buttons_still_work(e2e_database):
    settings = Settings(
        token="fake", database=e2e_database, dev_guild=None, turn_timeout=0, ai_delay=0.0, log_level="INFO"
    )
    async with FakeDiscord(users=["alice", "bob", "carol"], deferred_update_wait=10.0) as fd:
        channel = fd.channel("games")
        async with running_bot(Admiralty(settings), fd) as bot:
            driver = Driver(fd, bot, channel)
            table = await start(driver)
            carol = driver.member("carol")
            answer = with_button(await follow_from_table(driver), "Every move too")
            await carol.click(answer, "Every move too")
        async with running_bot(Admiralty(settings), fd) as bot:
            driver = Driver(fd, bot, channel)
            await shown_following(driver, 1)
            with fd.count() as calls:
                await play_moves(driver, 1, random.Random(1))
            assert len(carol.dms()) == 2 and calls[CREATE_DM] == 0  # the DM channel was stored
            welcome = carol.dms()[0]  # sent before the restart
            gone = await carol.click(welcome, "Unfollow")
            assert "You no longer follow" in gone.message.text
            assert await driver.host.storage.follow_of(table.id, carol.id) is None


@pytest.mark.postgres
async def test_two_processes_send_each_follow_dm_once(pg_url):
    """Two shard processes on one database: Bob's game is in shard 1's guild (process B), his DM clicks
    reach process A, and each process shows versions the other made. Carol, following every move, gets
    one DM a turn and one end DM, however many publishes showed them."""
    from tests.e2e.test_shards_e2e import open_everrain, play, two_processes

    async with FakeDiscord(users=["alice", "bob", "carol"], shards=2, deferred_update_wait=10.0) as fd:
        fd.add_guild("Other", shard=1, channels=["other-games"])
        async with two_processes(fd, pg_url) as (a, b):
            d1 = Driver(fd, b, fd.channel("other-games"))
            game_id = await open_everrain(d1, "bob")
            await asyncio.gather(a.host.idle(), b.host.idle())
            await d1.settle()
            carol = d1.member("carol")
            answer = with_button(await follow_from_table(d1), "Every move too")
            await carol.click(answer, "Every move too")
            await play(d1, (a, b), "bob", random.Random(5), by_dm=True)
            await asyncio.gather(a.host.idle(), b.host.idle())
            assert (await d1.table()).game.is_over
            await fd.wait_for(lambda: any("Game over" in m.text for m in carol.dms()), timeout=15)
            await asyncio.sleep(0.5)  # a second end DM would come now
            dms = carol.dms()[1:]
            ends = [m for m in dms if "Game over" in m.text]
            turns = [m.text.splitlines()[0] for m in dms if m not in ends]
            assert len(ends) == 1 and turns, [m.text for m in dms]
            assert len(set(turns)) == len(turns), turns  # no move told twice
            assert await a.storage.followers(game_id) == []
