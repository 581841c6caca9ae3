"""Metrics of the real bot through the loopback Discord: clicks answered, moves, renders, REST calls, 429s."""

from __future__ import annotations

import random

import pytest

from bot import metrics
from bot.app import Admiralty
from bot.settings import Settings
from tests.bot.test_metrics import scrape, total, value
from tests.e2e.conftest import Driver
from tests.e2e.test_forged_input import start_two_player
from tests.fakediscord import FakeDiscord, running_bot


@pytest.fixture
async def metered(tmp_path):
    async with FakeDiscord(users=["alice", "bob", "carol"]) as fd:
        settings = Settings(
            token="fake",
            database=tmp_path / "metrics.db",
            dev_guild=None,
            turn_timeout=0,
            ai_delay=0.0,
            log_level="INFO",
            metrics_port=0,
        )
        bot = Admiralty(settings)
        async with running_bot(bot, fd):
            yield Driver(fd, bot, fd.channel("games"))
    assert metrics.enabled() is None, "closing the bot turns its metrics off"


async def test_clicks_moves_renders_and_rest_calls_are_counted(metered):
    driver = metered
    port = driver.bot.metrics.port
    assert metrics.enabled() is driver.bot.metrics
    table, seat, mover = await start_two_player(driver)
    # Moves reach Discord through the clicks' interaction webhooks (the table edit, the ping): a 429
    # there is counted too.
    driver.fd.faults.rate_limit("/webhooks/", times=1, retry_after=0.05)
    rng = random.Random(3)
    for _ in range(3):
        await driver.play_ai_move(rng)
    await driver.settle()
    samples = await scrape(port)
    assert value(samples, "admiralty_moves_total", game="enemy-lines", kind="human") == 3
    assert total(samples, "admiralty_answer_seconds_count", what="command /game new") == 1
    assert total(samples, "admiralty_answer_seconds_count", what="component adm:b") >= 3
    assert total(samples, "admiralty_render_seconds_count", game="enemy-lines") >= 3
    assert (
        total(samples, "admiralty_discord_requests_total", route="POST /channels/{channel_id}/messages") >= 1
    )
    assert total(samples, "admiralty_discord_requests_total", status="429") >= 1
    assert total(samples, "admiralty_discord_rate_limited_total") >= 1
    # Interaction answers go through discord.py's webhook adapter: counted by their path's template.
    assert (
        total(samples, "admiralty_discord_requests_total", route="POST /interactions/{id}/{token}/callback")
        >= 1
    )
    assert value(samples, "admiralty_games_running", game="enemy-lines") == 1
    routes = {
        dict(labels).get("route", "") for name, labels in samples if name.startswith("admiralty_discord")
    }
    assert not any(ch.isdigit() for r in routes for ch in r), routes  # no ids, no tokens
