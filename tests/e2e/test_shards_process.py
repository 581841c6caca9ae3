"""`python -m bot run` with ADMIRALTY_SHARDS, in a subprocess against the sharded loopback Discord: the
process identifies as the shards it was given only, and takes the clicks of those shards' guilds only."""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path

from tests.fakediscord import FakeDiscord

ROOT = Path(__file__).resolve().parents[2]


async def test_bot_run_with_admiralty_shards_1_of_2_connects_shard_1_and_answers_its_guild_only(tmp_path):
    async with FakeDiscord(users=["alice"], shards=2) as fd:
        fd.add_guild("Other", shard=1, channels=["other-games"])
        env = {
            **os.environ,
            "PYTHONPATH": str(ROOT),
            "DISCORD_TOKEN": "fake-token",
            "ADMIRALTY_DB": str(tmp_path / "bot.db"),
            "ADMIRALTY_AI_DELAY": "0",
            "ADMIRALTY_TURN_TIMEOUT": "0",
            "ADMIRALTY_LOG_LEVEL": "INFO",
            "ADMIRALTY_DEV_GUILD": "",
            "ADMIRALTY_SHARDS": "1/2",
        }
        with open(tmp_path / "bot.log", "wb") as log:
            proc = await asyncio.create_subprocess_exec(
                *fd.launch_argv("-m", "bot", "run"),
                cwd=str(ROOT),
                env=env,
                stdin=asyncio.subprocess.DEVNULL,
                stdout=log,
                stderr=asyncio.subprocess.STDOUT,
            )
        try:
            await fd.gateway.wait_connected(60)
            assert fd.gateway.shards() == {(1, 2): 1}
            await fd.wait_for(lambda: fd.global_commands, timeout=30)  # synced: the bot is up
            alice = fd.user("alice")
            opened = await alice.slash(
                "game new", channel="other-games", game="enemy-lines", thread=False, timeout=30
            )
            assert opened.delivered and "Lobby opened" in opened.text, opened.text
            lost = await alice.slash("game new", channel="games", game="enemy-lines", thread=False)
            assert not lost.delivered and lost.failed, "shard 0's guild: no process runs it"
            assert lost.interaction in fd.undelivered
        finally:
            if proc.returncode is None:
                proc.send_signal(signal.SIGTERM)
                try:
                    await asyncio.wait_for(proc.wait(), 15)
                except TimeoutError:
                    proc.kill()
                    await proc.wait()
