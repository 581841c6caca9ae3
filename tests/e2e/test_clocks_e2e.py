"""Clocks through the loopback Discord: a time bank running out (a move made for the player), a vacation
across a restart of the bot, a pause accepted and resumed, more time given to an opponent."""

from __future__ import annotations

import asyncio
import time

from bot.app import Admiralty
from bot.clocks import DAY, Clock
from bot.settings import Settings
from tests.e2e.conftest import Driver
from tests.fakediscord import FakeDiscord, running_bot


async def _started(driver, **options):
    alice, bob = driver.member("alice"), driver.member("bob")
    await driver.new_game("alice", quick_setup=True, **options)
    await bob.click(driver.lobby_message(), "Join")
    await alice.click(driver.lobby_message(), "Start")
    await driver.settle()
    table = await driver.table()
    (seat,) = table.human_to_act()
    mover, other = (alice, bob) if table.seat_row(seat).user_id == alice.id else (bob, alice)
    return table, seat, mover, other


def clock_of(row) -> Clock:
    clock = Clock.from_json(row.clock)
    assert clock is not None
    return clock


async def eventually(check, timeout: float = 15.0) -> None:
    end = time.monotonic() + timeout
    while not await check():
        assert time.monotonic() < end, "timed out"
        await asyncio.sleep(0.05)


async def test_a_time_bank_running_out_makes_a_move_for_the_player_and_the_table_shows_the_banks(driver):
    driver.host.lobby.min_turn_timeout = 1.0  # a 2 s bank, only for speed
    table, seat, mover, other = await _started(driver, clock="bank", bank="2", increment="1")
    storage = driver.host.storage
    clock = clock_of(table.row)
    assert (clock.mode, clock.bank, clock.increment) == ("bank", 2.0, 1.0)
    assert table.row.turn_timeout is None
    assert "turn timer: time bank" in driver.lobby_message_any().text
    assert "⏳" in driver.table_message().text and "Give more time" in [
        b.label for b in driver.table_message().buttons
    ]

    async def timed_out() -> bool:
        return any("ran out of time" in line for line in await storage.recent_log(table.id, 20))

    await eventually(timed_out)
    row = await storage.get_game(table.id)
    assert row.version >= 1, "a move was made for the player"
    after = clock_of(row)
    assert after.seat(seat).left == 1.0, "the bank ran out (0), then the increment came back"
    assert (await storage.load_table(table.id))[1][seat].missed >= 1


async def test_more_time_is_given_to_an_opponent_and_not_to_oneself(driver):
    table, seat, mover, other = await _started(driver, turn_timeout="2h")
    before = table.row.deadline
    offer = await other.click(driver.table_message(), "Give more time")
    given = await other.click(offer.original, "+1d")
    assert "more for this turn" in given.text, given.text
    row = await driver.host.storage.get_game(table.id)
    assert row.deadline == before + DAY
    assert [j.due for j in await driver.host.storage.jobs(table.id) if j.kind == "timeout"] == [row.deadline]
    own = await mover.slash("game extend", channel=driver.channel, time=3600)
    assert "cannot give yourself more time" in own.text, own.text
    assert (await driver.host.storage.get_game(table.id)).deadline == row.deadline


async def test_a_pause_accepted_stops_the_clock_and_moves_until_a_player_resumes(driver):
    table, seat, mover, other = await _started(driver, turn_timeout="2h")
    storage = driver.host.storage
    asked = await mover.slash("game pause", channel=driver.channel)
    assert "waiting for" in asked.text, asked.text
    request = next(m for m in reversed(driver.public()) if "asks to pause" in m.text)
    assert f"<@{other.id}>" in request.text
    refused = await mover.click(request, "Accept")
    assert "You asked for this pause" in refused.text
    accepted = await other.click(request, "Accept")
    assert "is paused" in accepted.text, accepted.text
    row = await storage.get_game(table.id)
    assert clock_of(row).paused and row.deadline is None
    assert [j for j in await storage.jobs(table.id) if j.kind == "timeout"] == []
    await driver.fd.wait_for(lambda: "Paused by agreement" in driver.table_message().text, timeout=10)
    # no moves while paused, said privately
    board = driver.table_message()
    button = next(b for b in board.buttons if (b.custom_id or "").startswith("adm:b"))
    move = await mover.click(board, button.custom_id)
    await move.wait_for(lambda r: "paused" in r.text.lower(), timeout=10)
    assert (await storage.get_game(table.id)).version == row.version
    resumed = await other.slash("game resume", channel=driver.channel)
    assert "resumed" in resumed.text, resumed.text
    row = await storage.get_game(table.id)
    assert not clock_of(row).paused and row.deadline is not None and row.deadline > time.time() + 3600
    assert [j.due for j in await storage.jobs(table.id) if j.kind == "timeout"] == [row.deadline]


def _settings(database) -> Settings:
    return Settings(
        token="fake", database=database, dev_guild=None, turn_timeout=0, ai_delay=0.0, log_level="INFO"
    )


async def test_a_vacation_stops_the_clock_across_a_restart_and_ending_it_gives_unused_days_back(e2e_database):
    async with FakeDiscord(users=["alice", "bob"]) as fd:
        channel = fd.channel("games")
        async with running_bot(Admiralty(_settings(e2e_database)), fd) as bot:
            d = Driver(fd, bot, channel)
            table, seat, mover, other = await _started(d, clock="bank", bank="1d", increment="1h")
            shown = await mover.slash("vacation", channel=channel)
            assert "30 vacation days left" in shown.text, shown.text
            taken = await mover.slash("vacation", channel=channel, days=2)
            assert "on vacation until" in taken.text, taken.text
            await d.settle()
            await fd.wait_for(lambda: "on vacation until" in d.table_message().text, timeout=10)
            gid = table.id
        async with running_bot(Admiralty(_settings(e2e_database)), fd) as bot:
            d = Driver(fd, bot, channel)
            storage = bot.host.storage
            row = await storage.get_game(gid)
            clock = clock_of(row)
            assert clock.seat(seat).since > time.time() + 2 * DAY - 120, (
                "the clock waits for the vacation's end"
            )
            assert row.deadline == clock.deadline() and row.deadline > time.time() + 3 * DAY - 120
            assert [j.due for j in await storage.jobs(gid) if j.kind == "timeout"] == [row.deadline]
            status = await mover.slash("vacation", channel=channel)
            assert "on vacation until" in status.text and "28 vacation days left" in status.text, status.text
            again = await mover.slash("vacation", channel=channel, days=1)
            assert "already" in again.text
            ended = await mover.slash("vacation", channel=channel, end=True)
            assert "1 unused day went back" in ended.text, ended.text
            row = await storage.get_game(gid)
            assert row.deadline < time.time() + DAY + 60, "the clock runs again from now"
            assert "29 vacation days left" in (await mover.slash("vacation", channel=channel)).text


async def test_a_server_sets_its_vacation_allowance_and_a_longer_vacation_is_refused(driver):
    from tests.fakediscord.models import Role

    alice, bob = driver.member("alice"), driver.member("bob")
    guild = driver.fd.guild
    managers = Role(driver.fd.snow(), "managers", 1 << 5)  # Manage Server
    guild.roles[managers.id] = managers
    guild.members[alice.id].roles.append(managers.id)
    refused = await bob.slash("admiralty vacation-days", channel=driver.channel, days=3)
    assert "Only members with Manage Server" in refused.text, refused.text
    done = await alice.slash("admiralty vacation-days", channel=driver.channel, days=3)
    assert "3 vacation days a year" in done.text, done.text
    table, seat, mover, other = await _started(driver, turn_timeout="2h")
    deadline = table.row.deadline
    too_long = await bob.slash("vacation", channel=driver.channel, days=5)
    assert "Not enough vacation days" in too_long.text and "3 left in" in too_long.text, too_long.text
    assert (await driver.host.storage.get_game(table.id)).deadline == deadline, "nothing changed"
    assert "3 vacation days left" in (await bob.slash("vacation", channel=driver.channel)).text
