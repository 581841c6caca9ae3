"""A discord.py bot in a real subprocess, started through tests.fakediscord.launch, killed with SIGKILL
and restarted: the fake forgets the dead session and the new process answers."""

import asyncio
import os
import signal

from tests.fakediscord import FakeDiscord
from tests.fakediscord_tests.conftest import ROOT

SCRIPT = str(ROOT / "tests" / "fakediscord_tests" / "sample_bot.py")


async def start(fd):
    before = fd.gateway.identifies
    proc = await asyncio.create_subprocess_exec(
        *fd.launch_argv(SCRIPT, str(fd.guild.id)),
        cwd=str(ROOT),
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    try:
        await fd.gateway.wait_connected(30, after_identifies=before)
        await fd.wait_for(lambda: fd.global_commands, 10)
    except TimeoutError:
        proc.kill()
        err = await proc.stderr.read()
        raise AssertionError(err.decode()[-2000:]) from None
    return proc


async def test_subprocess_bot_killed_and_restarted():
    async with FakeDiscord() as fd:
        proc = await start(fd)
        try:
            assert (await fd.user("alice").slash("secret")).message.content == "shh"
            proc.send_signal(signal.SIGKILL)
            await proc.wait()
            # the click while the bot is dead fails like on Discord
            fd.interaction_timeout = 0.3
            dead = await fd.user("alice").slash("secret")
            assert dead.failed
            fd.interaction_timeout = 3.0
            proc = await start(fd)
            assert len(fd.gateway.sessions) == 1
            assert (await fd.user("bob").slash("secret")).message.content == "shh"
        finally:
            if proc.returncode is None:
                proc.send_signal(signal.SIGTERM)
                try:
                    await asyncio.wait_for(proc.wait(), 10)
                except TimeoutError:
                    proc.kill()
                    await proc.wait()
