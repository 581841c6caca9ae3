"""Ratings people read, through the loopback Discord: the end-of-game summary shows each player's
rating and its change ("+N" / "-N"), a newcomer reads "1500?" and stays off the leaderboard, the
lobby shows the seated players' win odds, and /stats shows pace and reliability."""

from __future__ import annotations

import asyncio
import random
import re
import time

from tests.e2e.test_stats_e2e import settle


async def _resign(driver, member) -> None:
    confirm = (await member.slash("game resign", channel=driver.channel)).message
    done = await member.click(confirm, next(b for b in confirm.buttons if b.label == "Resign").custom_id)
    assert not done.failed, done.text
    assert await driver.game_over_announced()
    await driver.host.idle()


async def _two_player_game(driver, game: str = "enemy-lines", **options) -> None:
    alice, bob = driver.member("alice"), driver.member("bob")
    await driver.new_game("alice", game=game, quick_setup=True, **options)
    await bob.click(driver.lobby_message(), "Join")
    await alice.click(driver.lobby_message(), "Start")
    await driver.settle()


def _over_text(driver) -> str:
    return next(m.text for m in reversed(driver.public()) if "Game over" in m.text)


def _ratings_line(text: str) -> str:
    return next(line for line in text.splitlines() if line.startswith("Ratings:"))


async def test_the_end_summary_shows_each_players_rating_and_its_change(driver):
    alice, bob = driver.member("alice"), driver.member("bob")
    await _two_player_game(driver)
    await _resign(driver, alice)
    line = _ratings_line(_over_text(driver))
    # newcomers both: provisional after one game; the winner up, the one who resigned down
    assert re.search(r"Alice 1[0-4]\d\d\? -\d+", line), line
    assert re.search(r"Bob 1[5-9]\d\d\? \+\d+", line), line
    # the next game, both settled (as after many games): no "?", and the numbers move less
    table = await driver.table()
    await settle(driver.host.storage, table.row.guild_id, [alice.id, bob.id])
    await _two_player_game(driver)
    await _resign(driver, bob)
    text = _over_text(driver)
    line = _ratings_line(text)
    assert "?" not in line, line
    alice_up = re.search(r"Alice (\d+) \+(\d+)", line)
    bob_down = re.search(r"Bob (\d+) -(\d+)", line)
    assert alice_up and bob_down, line
    assert 0 < int(alice_up[2]) < 100 and 0 < int(bob_down[2]) < 100, line

    # the stored events read the same
    second = await driver.table()
    events = await driver.host.storage.rating_changes(second.id)
    assert {str(c.after) for c in events} == {alice_up[1], bob_down[1]}


async def test_a_newcomer_reads_1500_and_is_kept_off_the_leaderboard(driver):
    alice, bob, carol = driver.member("alice"), driver.member("bob"), driver.member("carol")
    shown = await carol.slash("stats", channel=driver.channel)
    assert "no finished games" in shown.text, shown.text
    # alice and bob have played (settled); carol is new
    await _two_player_game(driver)
    await _resign(driver, bob)
    guild = (await driver.table()).row.guild_id
    await settle(driver.host.storage, guild, [alice.id, bob.id])
    await driver.new_game("carol", quick_setup=True)
    await alice.click(driver.lobby_message(), "Join")
    lobby = driver.lobby_message().text
    assert "Carol 1500? " in lobby, lobby  # a newcomer's rating, provisional, in the lobby's odds
    await carol.click(driver.lobby_message(), "Start")
    await driver.settle()
    await _resign(driver, alice)
    line = _ratings_line(_over_text(driver))
    assert re.search(r"Carol 1[5-9]\d\d\? \+\d+", line), line

    stats = await carol.slash("stats", channel=driver.channel)
    assert "?** (provisional)" in stats.text and "1 game finished" in stats.text, stats.text
    board = await carol.slash("leaderboard", channel=driver.channel, game="enemy-lines")
    assert "Carol" not in board.text and "Alice" in board.text and "Bob" in board.text, board.text
    assert "(2 players)" in board.text and "not ranked yet: 1 provisional player " in board.text, board.text


async def test_the_lobby_shows_the_win_odds_of_the_seated_players(driver):
    alice, bob = driver.member("alice"), driver.member("bob")
    await driver.new_game("alice", quick_setup=True)
    assert "Win odds" not in driver.lobby_message().text  # one seat: no odds yet
    await bob.click(driver.lobby_message(), "Join")
    lobby = driver.lobby_message().text
    assert "Win odds by rating:" in lobby and "Alice 1500? **50%**" in lobby and "Bob 1500? **50%**" in lobby

    # at Enemy in Sight (2 to 6 players) bob has won before and is settled: the odds favour him, and
    # an AI seat gets its odds too
    await alice.click(driver.lobby_message(), "Cancel")
    key = "enemy-in-sight"
    await _rated_win(driver, key, winner=bob.id, loser=4242)
    guild = driver.fd.guild.id
    storage = driver.host.storage
    await settle(storage, guild, [bob.id], game_key=key)
    [mine] = await storage.player_stats(guild, str(bob.id))
    await driver.new_game("alice", game=key)
    await bob.click(driver.lobby_message(), "Join")
    await driver.add_ai("alice")
    lobby = driver.lobby_message().text
    odds = re.findall(r"(\S+) (\d+\??) \*\*(\d+)%\*\*", lobby.split("Win odds by rating:")[1])
    chances = {name: int(p) for name, _, p in odds}
    assert len(odds) == 3 and chances["Bob"] > chances["Alice"], lobby
    assert ("Bob", str(mine.standing(time.time()))) in {(n, r) for n, r, _ in odds}, lobby
    assert abs(sum(chances.values()) - 100) <= 2, odds

    # a cooperative game is not rated: no odds
    await alice.click(driver.lobby_message(), "Cancel")
    await driver.new_game("alice", game="everrain")
    await bob.click(driver.lobby_message(), "Join")
    assert "Win odds" not in driver.lobby_message().text


async def _rated_win(driver, key: str, winner: int, loser: int) -> None:
    """A game of ``key`` that ``winner`` won against ``loser``, rated, in another channel."""
    from bot import ratings

    storage = driver.host.storage
    guild = driver.fd.guild.id
    gid = await storage.create_game(
        guild_id=guild, channel_id=8000 + loser, game_key=key, options={}, seed=1, host_id=winner
    )
    for user_id, name in ((winner, "bob"), (loser, "someone")):
        await storage.add_seat(gid, user_id=user_id, is_ai=False, name=name)
    await storage.start_game(gid, '{"players": 2}')
    await storage.set_status(gid, "finished", result={"winners": [0]})
    assert await ratings.rate_game(storage, gid)


async def test_stats_shows_pace_and_reliability(driver):
    alice, bob = driver.member("alice"), driver.member("bob")
    await _two_player_game(driver, turn_timeout="2h")
    table = await driver.table()
    storage = driver.host.storage
    # a few moves by clicks, then the one to act lets their time run out
    rng = random.Random(3)
    for _ in range(3):
        await driver.play_ai_move(rng)
    table = await driver.table()
    (seat,) = table.human_to_act()
    late = alice if table.seat_row(seat).user_id == alice.id else bob
    await storage.set_deadline(table.id, time.time() + 0.5)
    for _ in range(300):
        if any("ran out of time" in line for line in await storage.recent_log(table.id, 20)):
            break
        await asyncio.sleep(0.05)
    await driver.host.idle()
    await driver.settle()
    stats = await alice.slash("stats", channel=driver.channel, member=late)
    assert "Pace: a turn takes **" in stats.text and "1 turn timed out" in stats.text, stats.text
    assert "0 games finished" in stats.text and "0 resigned" in stats.text, stats.text
    await _resign(driver, late)
    stats = await alice.slash("stats", channel=driver.channel, member=late)
    assert "1 game finished" in stats.text and "1 turn timed out" in stats.text and "1 resigned" in stats.text
    record = await storage.player_record(table.row.guild_id, late.id)
    assert record.turns >= 2 and record.median_turn is not None
    assert f"(median of {record.turns} turns)" in stats.text, stats.text


async def test_stats_and_leaderboard_take_at_most_two_round_trips(driver):
    """/stats reads a person's ratings, pace and reliability in one query and their last games in
    another; /leaderboard reads a page in one."""
    from tests.dbcount import RoundTrips

    alice, bob = driver.member("alice"), driver.member("bob")
    await _two_player_game(driver)
    await _resign(driver, alice)
    store = driver.host.storage
    with RoundTrips(store) as rt:
        shown = await bob.slash("stats", channel=driver.channel, member=alice)
    assert "1 game finished" in shown.text and "1 resigned" in shown.text, shown.text
    assert rt.trips <= 2 and set(rt.calls) == {"player_record", "last_games"}, (rt.trips, rt.calls)
    with RoundTrips(store) as rt:
        board = await bob.slash("leaderboard", channel=driver.channel, game="enemy-lines")
    assert "2 provisional players" in board.text, board.text
    assert rt.trips == 1 and set(rt.calls) == {"leaderboard"}, (rt.trips, rt.calls)
