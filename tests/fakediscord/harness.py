"""Run a discord.py client against a FakeDiscord: `async with running_bot(bot, fd): ...`."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

import discord

from .server import FakeDiscord


@contextlib.asynccontextmanager
async def running_bot(
    bot: discord.Client,
    fd: FakeDiscord,
    *,
    token: str = "fake-token",
    ready_timeout: float = 15.0,
    fast_ready: bool = True,
    close_timeout: float = 10.0,
) -> AsyncIterator[discord.Client]:
    """Point discord.py at `fd`, start `bot` (login, setup_hook, gateway) as a task, wait for on_ready,
    yield it, then close it cleanly and restore discord.py's real addresses.

    fast_ready shortens discord.py's wait for late GUILD_CREATEs before on_ready (2 s by default) to 50 ms;
    the bot's own code is unchanged."""
    with fd.patched_discord():
        if fast_ready:
            bot._connection.guild_ready_timeout = 0.05
        task = asyncio.create_task(bot.start(token), name="fakediscord-bot")
        loop = asyncio.get_running_loop()
        deadline = loop.time() + ready_timeout
        try:
            while not bot.is_ready():
                if task.done():
                    task.result()  # raises the start-up error
                    raise RuntimeError("bot.start() returned before the bot became ready")
                if loop.time() > deadline:
                    raise TimeoutError(f"bot not ready within {ready_timeout}s")
                await asyncio.sleep(0.01)
            yield bot
        finally:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(bot.close(), close_timeout)
            if not task.done():
                try:
                    await asyncio.wait_for(task, close_timeout)
                except (TimeoutError, asyncio.CancelledError):
                    task.cancel()
                except Exception:
                    pass
            elif not task.cancelled():
                task.exception()  # consumed; a clean close returns None
