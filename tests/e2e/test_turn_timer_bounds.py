"""The turn timer is bounded: `/game new turn-timeout:` takes 0 (no timer) or 30s .. 30d, and a timer
stored before that bound (inf, huge) neither spins the scheduler nor keeps the turn message from posting."""

from __future__ import annotations

import asyncio
import re
import sqlite3
import time

import pytest

from bot.app import Admiralty
from bot.settings import Settings
from tests.e2e.conftest import Driver
from tests.fakediscord import FakeDiscord, running_bot

THIRTY_DAYS = 30 * 86400  # the longest turn timer


@pytest.mark.parametrize("value", ["inf", "1e309", "nan", "-inf", "10s", "31d", "-5m"])
async def test_turn_timeout_inf_nan_or_out_of_bounds_is_refused(driver, value):
    alice = driver.member("alice")
    result = await alice.slash(
        "game new", channel=driver.channel, game="enemy-lines", turn_timeout=value, thread=False
    )
    assert not result.failed and result.ephemeral, result.text
    assert "Lobby opened" not in result.text, f"turn-timeout:{value} was accepted"
    assert "turn-timeout" in result.text.lower() or "turn timeout" in result.text.lower(), result.text
    assert await driver.host.storage.active_game(driver.channel.id) is None
    assert driver.lobby_message() is None


@pytest.mark.parametrize("value, seconds", [("30s", 30), ("30d", 30 * 86400)])
async def test_turn_timeout_bounds_themselves_are_accepted(driver, value, seconds):
    await driver.new_game("alice", turn_timeout=value)
    row = await driver.host.storage.active_game(driver.channel.id)
    assert row.turn_timeout == seconds


def _settings(tmp_path) -> Settings:
    return Settings(
        token="fake",
        database=tmp_path / "timer.db",
        dev_guild=None,
        turn_timeout=0,
        ai_delay=0.0,
        log_level="INFO",
    )


@pytest.mark.parametrize(
    "turn_timeout, deadline", [("9e999", "9e999"), ("1e300", "1e300"), ("3600", "9e999"), ("9e999", None)]
)
async def test_stored_infinite_or_huge_turn_timer_neither_spins_nor_blocks_the_turn_message(
    tmp_path, turn_timeout, deadline
):
    async with FakeDiscord(users=["alice", "bob"]) as fd:
        channel = fd.channel("games")
        async with running_bot(Admiralty(_settings(tmp_path)), fd) as bot:
            d = Driver(fd, bot, channel)
            await d.new_game("alice", quick_setup=True, turn_timeout="2h")
            await d.member("bob").click(d.lobby_message(), "Join")
            await d.member("alice").click(d.lobby_message(), "Start")
            game_id = (await d.table()).id
        # A row as an older Admiralty could leave it (or someone with sqlite3): 9e999 is SQLite's infinity.
        con = sqlite3.connect(tmp_path / "timer.db")
        with con:
            con.execute(
                f"UPDATE games SET turn_timeout = {turn_timeout}, "
                f"deadline = {deadline if deadline is not None else 'deadline'} WHERE id = ?",
                (game_id,),
            )
        assert con.execute("SELECT max(turn_timeout, deadline) > 1e299 FROM games").fetchone()[0] == 1
        con.close()
        async with running_bot(Admiralty(_settings(tmp_path)), fd) as bot:
            d = Driver(fd, bot, channel)
            d.game_id = game_id
            await fd.wait_for(
                lambda: any("resumes where it stood" in m.content + m.text for m in d.public()), timeout=10
            )
            await d.settle(timeout=10)  # the turn message of the current version is posted
            storage = bot.host.storage
            calls = 0
            real_get_game = storage.get_game

            async def counting_get_game(gid):
                nonlocal calls
                calls += 1
                return await real_get_game(gid)

            storage.get_game = counting_get_game
            await asyncio.sleep(0.5)
            storage.get_game = real_get_game
            assert calls <= 5, f"the turn timer read the game {calls} times in 0.5 s: it spins"
            now = time.time()
            shown = d.turn_message().text
            for stamp in re.findall(r"<t:(\d+):R>", shown):
                assert now < int(stamp) <= now + THIRTY_DAYS + 60, shown
            # The game goes on: a move is played and its new deadline is a sane one.
            await d.play_ai_move()
            row = await storage.get_game(game_id)
            assert row.version == 1
            assert row.deadline is None or now < row.deadline <= time.time() + THIRTY_DAYS
            await d.settle(timeout=10)
