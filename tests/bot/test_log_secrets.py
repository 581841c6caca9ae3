"""The log shows only what the channel is shown: no secret choice, no card of a hand, no hidden mine."""

from __future__ import annotations

import json
import logging
import random

import pytest

from bot.__main__ import LIBRARY_LOG_FLOORS, quiet_libraries, setup_logging
from bot.games.base import canonical
from bot.host import Host, NullDelivery
from bot.storage import Storage
from tests.hosting import start_game


@pytest.fixture
def debug_log(caplog):
    """Everything at DEBUG, as `ADMIRALTY_LOG_LEVEL=DEBUG` runs the bot (libraries at their floors)."""
    saved = {name: logging.getLogger(name).level for name in LIBRARY_LOG_FLOORS}
    caplog.set_level(logging.DEBUG)
    quiet_libraries(logging.DEBUG)
    yield caplog
    for name, level in saved.items():
        logging.getLogger(name).setLevel(level)


@pytest.fixture
async def storage(tmp_path):
    s = await Storage.open(tmp_path / "logs.db")
    yield s
    await s.close()


async def two_humans(storage, game_key: str, options: dict):
    host = Host(storage, NullDelivery(), ai_delay=0.0)
    return host, await start_game(host, game_key, options=options, seed=11)


def public_texts(events: list[dict]) -> str:
    return " ".join(e.get("text", "") for e in events if "private_to" not in e)


async def play_checking_logs(host, table, caplog, *, secret, hidden_now, max_moves: int, want_secret: int):
    """Both seats play the AI's choices through the host (as players would). After each action, no
    log record written during it may carry what was hidden then: the action's description and JSON
    when ``secret(game, seat, action)``, and whatever ``hidden_now(game)`` lists."""
    rng = random.Random(5)
    secrets_played = 0
    for _ in range(max_moves):
        table = await host.table(table.id)
        game = table.game
        if game.is_over:
            break
        seat = game.to_act()[0]
        action = game.ai_action(seat, rng)
        hidden = set()
        if secret(game, seat, action):
            secrets_played += 1
            hidden |= {game.describe(action), canonical(action)}
        hidden |= hidden_now(game)
        start = len(caplog.records)
        outcome = await host.act(table.id, table.seat_row(seat).user_id, action)
        after = (await host.table(table.id)).game
        # What the action made public (its public events, the public view) is no longer hidden.
        shown = public_texts(outcome.events) + json.dumps(after.view(None))
        hidden = {h for h in hidden | hidden_now(after) if h not in shown}
        for record in caplog.records[start:]:
            text = record.getMessage() + (record.exc_text or "")
            leaked = [h for h in hidden if h in text]
            assert not leaked, f"log record {text!r} reveals {leaked}"
    assert secrets_played >= want_secret, "the game offered too few secret choices to judge"


def hand_cards(game) -> set[str]:
    """Names of the cards in every hand that the public view does not show."""
    public = json.dumps(game.view(None))
    return {
        c["name"] for seat in range(2) for c in game.view(seat).get("hand", []) if c["name"] not in public
    }


async def test_log_reveals_no_boarding_card_chosen_in_secret_nor_any_hand(storage, debug_log):
    caplog = debug_log
    host, table = await two_humans(storage, "enemy-in-sight", {})

    def secret(game, seat, action):
        return action.get("type") == "secret"

    await play_checking_logs(
        host, table, caplog, secret=secret, hidden_now=hand_cards, max_moves=600, want_secret=2
    )
    assert any("game" in r.getMessage() and "version" in r.getMessage() for r in caplog.records)


async def test_log_reveals_nothing_of_a_warships_secret_setup(storage, debug_log):
    caplog = debug_log
    host, table = await two_humans(storage, "warships", {})
    assert table.game.state["phase"] == "setup"

    def secret(game, seat, action):
        return game.state["phase"] == "setup"

    await play_checking_logs(
        host, table, caplog, secret=secret, hidden_now=lambda game: set(), max_moves=40, want_secret=6
    )


def test_debug_logging_keeps_request_bodies_and_sql_parameters_out_of_the_log():
    """discord.py logs every request body at DEBUG (a DM with a player's hand), aiosqlite every
    statement's parameters (the game state, the action log)."""
    root = logging.getLogger()
    saved = (root.level, list(root.handlers), {n: logging.getLogger(n).level for n in LIBRARY_LOG_FLOORS})
    try:
        root.handlers.clear()
        setup_logging("DEBUG")
        assert logging.getLogger("admiralty").isEnabledFor(logging.DEBUG)
        assert not logging.getLogger("discord.http").isEnabledFor(logging.DEBUG)
        assert not logging.getLogger("discord.webhook.async_").isEnabledFor(logging.DEBUG)
        assert not logging.getLogger("aiosqlite").isEnabledFor(logging.DEBUG)
    finally:
        root.setLevel(saved[0])
        root.handlers[:] = saved[1]
        for name, level in saved[2].items():
            logging.getLogger(name).setLevel(level)
