"""The bot's drawing (bot/drawing.py) end to end: the table's picture shared by /game status and "My
view" of a spectator; the bot drawing in worker processes that end with it on SIGTERM."""

from __future__ import annotations

import asyncio
import os
import signal

from bot.app import Admiralty
from bot.settings import Settings
from tests.fakediscord import FakeDiscord, running_bot


def alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except FileNotFoundError:
        return False


async def test_spectators_status_shares_the_tables_picture(driver):
    alice, carol = driver.member("alice"), driver.member("carol")
    await driver.new_game("alice")
    await alice.slash("game add-ai", channel=driver.channel)
    await alice.slash("game start", channel=driver.channel)
    await driver.host.idle()
    table_png = driver.table_message().gallery_attachments[0].data
    drawn = driver.bot.drawing.drawn
    answers = await asyncio.gather(*(carol.slash("game status", channel=driver.channel) for _ in range(5)))
    assert all(a.message.attachments[0].data == table_png for a in answers)
    assert driver.bot.drawing.drawn == drawn  # not drawn again: the table's picture, shared


async def test_the_bot_draws_in_its_worker_processes_and_sigterm_ends_them(e2e_database):
    async with FakeDiscord(users=["alice", "bob"], deferred_update_wait=10.0) as fd:
        settings = Settings(
            token="fake",
            database=e2e_database,
            dev_guild=None,
            turn_timeout=0,
            ai_delay=0.0,
            log_level="INFO",
            draw_workers=1,
        )
        bot = Admiralty(settings)
        async with running_bot(bot, fd):
            alice = fd.user("alice")
            channel = fd.channel("games")
            await alice.slash("game new", channel=channel, game="enemy-lines", thread=False)
            await alice.slash("game add-ai", channel=channel)
            await alice.slash("game start", channel=channel)
            await bot.host.idle()
            assert bot.drawing.drawn >= 1
            workers = bot.drawing.worker_pids()
            assert len(workers) == 1 and os.getpid() not in workers
            shown = [m for m in fd.channel_messages(channel) if not m.deleted and m.gallery_attachments]
            assert shown and shown[-1].gallery_attachments[0].data.startswith(b"\x89PNG")
            assert bot._sigterm_loop is asyncio.get_running_loop()  # else SIGTERM would end pytest
            os.kill(os.getpid(), signal.SIGTERM)
            for _ in range(200):
                if bot._closing is not None:
                    break
                await asyncio.sleep(0.01)
            assert bot._closing is not None
            await bot._closing
            assert bot.is_closed()
            assert not any(alive(p) for p in workers)
