"""/stats and /leaderboard through the loopback Discord: a finished game is rated once, the answers
show it, the leaderboard pages with ◀ ▶ (settled players only), and forged or foreign page buttons
are refused."""

from __future__ import annotations

import json
import random
import time

from bot import ratings, ui
from tests.e2e.test_forged_input import assert_refused, plant


async def settle(storage, guild: int, players, sigma: float = 3.0, game_key: str = "enemy-lines") -> None:
    """Make the ratings of ``players`` (rating keys) settled, as after many games: sigma ``sigma``, the
    mu kept (their order stays), rated just now (no rest)."""
    keys = [str(p) for p in players]

    async def body(db):
        await db.execute(
            "UPDATE ratings SET sigma = ?, updated_at = ? WHERE guild_id = ? AND game_key = ? "
            f"AND player IN ({', '.join('?' * len(keys))})",
            (sigma, time.time(), guild, game_key, *keys),
        )

    await storage._write(body)


async def _play_to_the_end(driver, seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(400):
        if (await driver.table()).game.is_over:
            break
        await driver.play_ai_move(rng)
    assert (await driver.table()).game.is_over
    assert await driver.game_over_announced()


async def test_finished_game_rated_then_stats_and_leaderboard(driver):
    alice, bob = driver.member("alice"), driver.member("bob")
    await driver.new_game("alice", quick_setup=True)
    await bob.click(driver.lobby_message(), "Join")
    await alice.click(driver.lobby_message(), "Start")
    await driver.settle()
    await _play_to_the_end(driver, 5)
    await driver.host.idle()
    table = await driver.table()
    storage = driver.host.storage
    assert await storage.is_rated(table.id)
    assert await ratings.rate_game(storage, table.id) is False  # once
    winner = table.row.result["winners"]
    guild = table.row.guild_id
    (a,) = await storage.player_stats(guild, str(alice.id))
    (b,) = await storage.player_stats(guild, str(bob.id))
    assert a.games == b.games == 1
    if len(winner) == 1:
        won, lost = (a, b) if table.seat_of(alice.id) in winner else (b, a)
        assert (won.wins, lost.losses) == (1, 1) and won.ordinal > lost.ordinal

    shown = await bob.slash("stats", channel=driver.channel, member=alice)
    assert not shown.failed and not shown.ephemeral, shown.text
    assert "alice" in shown.text.lower() and "Enemy Lines" in shown.text and "1 played" in shown.text
    assert f"#{table.id}" in shown.text and "vs bob" in shown.text.lower()
    mine = await bob.slash("stats", channel=driver.channel, game="warships")
    assert "no finished games" in mine.text

    # after one game both are provisional: shown with "?", kept off the leaderboard, which says so
    assert "rating **" in shown.text and "?** (provisional)" in shown.text, shown.text
    board = await alice.slash("leaderboard", channel=driver.channel, game="enemy-lines")
    assert not board.failed and "Nobody is ranked" in board.text and "2 provisional players" in board.text
    await settle(storage, guild, [alice.id, bob.id])
    board = await alice.slash("leaderboard", channel=driver.channel, game="enemy-lines")
    assert not board.failed and "page 1 of 1 (2 players)" in board.text, board.text
    first = board.text.splitlines()[1].lower()
    assert ("alice" if a.ordinal >= b.ordinal else "bob") in first
    assert "?" not in board.text and "provisional" not in board.text
    assert not board.message.buttons  # one page: no buttons


async def _rated_game(
    storage, guild: int, channel: int, winner: tuple[int, str], loser: tuple[int, str]
) -> None:
    gid = await storage.create_game(
        guild_id=guild, channel_id=channel, game_key="enemy-lines", options={}, seed=1, host_id=winner[0]
    )
    for user_id, name in (winner, loser):
        await storage.add_seat(gid, user_id=user_id, is_ai=False, name=name)
    await storage.start_game(gid, json.dumps({"players": 2}))
    await storage.set_status(gid, "finished", result={"winners": [0]})
    assert await ratings.rate_game(storage, gid)


async def test_leaderboard_pages_and_refuses_forged_ids(driver):
    storage, alice = driver.host.storage, driver.member("alice")
    # the server's id as the bot sees it: from a game opened here
    await driver.new_game("alice", quick_setup=True)
    guild = (await driver.table()).row.guild_id
    for i in range(13):  # 24 settled players on the board: three pages; two provisional ones not
        await _rated_game(storage, guild, 9000 + i, (5000 + i, f"Winner{i:02d}"), (6000 + i, f"Loser{i:02d}"))
    await settle(storage, guild, [p + i for p in (5000, 6000) for i in range(12)])
    board = await alice.slash("leaderboard", channel=driver.channel, game="enemy-lines")
    assert "page 1 of 3 (24 players)" in board.text and "not ranked yet: 2 provisional" in board.text, (
        board.text
    )
    assert "Winner12" not in board.text
    msg = board.message
    back, forward = msg.buttons
    assert back.disabled and not forward.disabled
    assert forward.custom_id == ui.leaderboard_id(guild, "enemy-lines", 1)
    assert "Winner" in msg.text.splitlines()[1]
    await driver.member("bob").click(msg, "▶")
    msg = driver.fd.message(msg.id)
    assert "page 2 of 3" in msg.text and "\n11. " in msg.text, msg.text
    await driver.member("bob").click(msg, "▶")
    msg = driver.fd.message(msg.id)
    assert "page 3 of 3" in msg.text and "\n21. " in msg.text and "Loser" in msg.text
    back, forward = msg.buttons
    assert forward.disabled and not back.disabled
    await alice.click(msg, "◀")
    assert "page 2 of 3" in driver.fd.message(msg.id).text
    # forged: another server's board, an unknown game, a malformed page
    for forged in (
        ui.leaderboard_id(guild + 1, "enemy-lines", 0),
        ui.leaderboard_id(guild, "chess", 0),
        f"adm:lb:{guild}:enemy-lines:x",
    ):
        result = await alice.click(plant(driver.fd, driver.channel, forged), forged)
        assert_refused(result)
        assert "page" not in result.text


async def test_resigning_against_the_ai_is_rated_and_abandoned_is_not(driver):
    alice = driver.member("alice")
    await driver.new_game("alice", quick_setup=True)
    await driver.add_ai("alice")
    await alice.click(driver.lobby_message(), "Start")
    await driver.settle()
    table = await driver.table()
    ai_name = next(s.name for s in table.seats if s.is_ai)
    confirm = (await alice.slash("game resign", channel=driver.channel)).message
    resign = next(b for b in confirm.buttons if b.label == "Resign")
    done = await alice.click(confirm, resign.custom_id)
    assert not done.failed
    storage, guild = driver.host.storage, table.row.guild_id
    assert await storage.is_rated(table.id)
    (me,) = await storage.player_stats(guild, str(alice.id))
    assert ai_name == "Nelson (AI, normal)"  # the level asked for, in its name
    (ai,) = await storage.player_stats(guild, "ai:Nelson:normal")  # rated per name and level
    assert (me.losses, ai.wins) == (1, 1) and ai.ordinal > me.ordinal
    shown = await alice.slash("stats", channel=driver.channel)
    assert "1 lost" in shown.text and f"vs {ai_name}" in shown.text, shown.text

    # an abandoned game is not rated
    await driver.new_game("alice", quick_setup=True)
    await driver.add_ai("alice")
    await alice.click(driver.lobby_message(), "Start")
    await driver.settle()
    second = await driver.table()
    gone = await alice.slash("game abandon", channel=driver.channel)
    assert not gone.failed, gone.text
    assert (await storage.get_game(second.id)).status == "abandoned"
    assert not await storage.is_rated(second.id)
    assert await storage.unrated_games() == []
    (me,) = await storage.player_stats(guild, str(alice.id))
    assert me.games == 1


async def test_stats_of_a_member_list_no_game_of_a_channel_the_asker_cannot_see(driver):
    """/stats member: lists a member's last games (number, date, opponents, result) only from channels
    the person asking can see, with the same filter as /game history; as /stats is posted in the
    channel, only those its readers can see too."""
    from tests.e2e.test_forged_input import DENY_VIEW

    storage, alice, carol = driver.host.storage, driver.member("alice"), driver.member("carol")
    guild = driver.fd.guild.id
    secret = driver.fd.add_channel("secret")
    driver.fd.set_overwrite(secret, carol.id, deny=DENY_VIEW)
    await _rated_game(storage, guild, driver.channel.id, (alice.id, "alice"), (7001, "Drake"))
    await _rated_game(storage, guild, secret.id, (alice.id, "alice"), (7002, "Hidden Opponent"))
    mine = (await storage.last_games(guild, str(alice.id)))[::-1]
    public, hidden = (g.game_id for g in mine)

    seen = await carol.slash("stats", channel=driver.channel, member=alice)
    assert not seen.failed and "2 played" in seen.text, seen.text  # the server's totals, as the leaderboard
    assert f"#{public}" in seen.text and "Drake" in seen.text
    assert f"#{hidden}" not in seen.text and "Hidden Opponent" not in seen.text, seen.text
    history = await carol.slash("game history", channel=driver.channel, member=alice)
    assert f"`#{public}`" in history.text and f"`#{hidden}`" not in history.text  # one filter for both

    # Alice sees #secret, but /stats is posted where Carol reads it too: not there either. Posted in
    # #secret, the game of #secret is listed; her own history (only she reads it) lists both.
    hers = await alice.slash("stats", channel=driver.channel, member=alice)
    assert f"#{public}" in hers.text and f"#{hidden}" not in hers.text, hers.text
    there = await alice.slash("stats", channel=secret, member=alice)
    assert f"#{public}" in there.text and f"#{hidden}" in there.text, there.text
    own = await alice.slash("game history", channel=driver.channel, member=alice)
    assert f"`#{public}`" in own.text and f"`#{hidden}`" in own.text
