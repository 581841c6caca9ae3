"""Undo by agreement through the loopback Discord: Ask to undo → the opponent accepts → the board is
back, as a new version that the log rebuilds; a Decline; /game undo refused for a dice roll."""

from __future__ import annotations

import random

import pytest

from bot.app import Admiralty
from bot.settings import Settings
from bot.storage import replay_matches
from tests.e2e.conftest import Driver
from tests.e2e.test_game_flow_e2e import button, two_player_game
from tests.fakediscord import FakeDiscord, running_bot


@pytest.fixture
async def both(db_target):
    """The e2e driver on each storage backend in turn (SQLite, then PostgreSQL: tests/conftest.py)."""
    async with FakeDiscord(users=["alice", "bob", "carol"], deferred_update_wait=10.0) as fd:
        settings = Settings(
            token="fake", database=db_target, dev_guild=None, turn_timeout=0, ai_delay=0.0, log_level="INFO"
        )
        bot = Admiralty(settings)
        async with running_bot(bot, fd):
            yield Driver(fd, bot, fd.channel("games"))


def request_message(driver):
    for m in reversed(driver.public()):
        if any((b.custom_id or "").startswith("adm:undo:") for b in m.buttons):
            return m
    return None


async def test_enemy_lines_move_undone_when_the_opponent_accepts(both):
    driver = both
    before = await two_player_game(driver)
    state = before.row.state_json
    mover, _, result = await driver.play_ai_move(random.Random(3))
    other = next(m for m in (driver.member("alice"), driver.member("bob")) if m.id != mover.id)
    moved = await driver.table()
    assert moved.version == before.version + 1
    # the private answer: the mover's sub-menu, opened from the table, now reads "Played"
    played = next(m for m in [*result.followups, result.original] if m and "✅ Played" in m.text)
    assert played.ephemeral and button(played, "Ask to undo") is not None

    stranger = await other.slash("game undo", channel=driver.channel)
    assert stranger.ephemeral and "who made the last move" in stranger.text

    asked = await mover.click(played, button(played, "Ask to undo").custom_id)
    assert not asked.failed and asked.ephemeral and "waiting for" in asked.text, asked.text
    await driver.fd.wait_for(lambda: request_message(driver) is not None, timeout=15)
    req = request_message(driver)
    assert [b.label for b in req.buttons] == ["Accept", "Decline"]
    assert f"<@{other.id}>" in req.content + req.text

    own = await mover.click(req, "Accept")
    assert own.ephemeral and "other players answer" in own.text
    watcher = await driver.member("carol").click(req, "Accept")
    assert watcher.ephemeral and "Only the other players" in watcher.text
    assert (await driver.table()).version == moved.version, "refused clicks change nothing"

    accepted = await other.click(req, "Accept")
    await accepted.wait_for(lambda r: any(m.ephemeral for m in r.followups), timeout=15)
    assert "undone" in accepted.text, accepted.text
    assert "Everyone accepted" in req.content + req.text and req.buttons == []

    after = await driver.table()
    assert after.version == moved.version + 1, "the undo is a new version"
    assert after.row.state_json == state, "the board is back where it was"
    assert replay_matches(after.row, await driver.host.storage.actions(after.id))
    assert await driver.host.storage.count_moves(after.id) == 0
    await driver.settle()
    assert "taken back" in driver.table_message().text

    again = await mover.click(played, button(played, "Ask to undo").custom_id)
    assert again.ephemeral and "moved on" in again.text, "a stale Ask to undo is refused"
    assert (await driver.table()).version == after.version


async def test_undo_declined_by_the_opponent_keeps_the_move(driver):
    await two_player_game(driver)
    mover, _, _ = await driver.play_ai_move(random.Random(4))
    other = next(m for m in (driver.member("alice"), driver.member("bob")) if m.id != mover.id)
    moved = await driver.table()
    asked = await mover.slash("game undo", channel=driver.channel)
    assert asked.ephemeral and "waiting for" in asked.text, asked.text
    await driver.fd.wait_for(lambda: request_message(driver) is not None, timeout=15)
    req = request_message(driver)
    declined = await other.click(req, "Decline")
    await declined.wait_for(lambda r: any(m.ephemeral for m in r.followups), timeout=15)
    assert "stands" in declined.text and "declined" in req.content + req.text and req.buttons == []
    after = await driver.table()
    assert after.version == moved.version and after.row.state_json == moved.row.state_json


async def fire_in_everrain(driver, alice) -> None:
    """``alice`` plays The Everrain alone until she fires (a dice roll), starting a new game when a game
    of random moves ends first."""
    fired = False
    for _attempt in range(5):
        await driver.new_game("alice", game="everrain", length="short")
        await alice.click(driver.lobby_message(), "Start")
        rnd = random.Random(1)
        for _ in range(200):
            table = await driver.table()
            game = table.game
            if game.is_over:
                break
            legal = game.legal_actions(game.to_act()[0])
            fire = [a for a in legal if a["type"] == "fire"]
            if fire:
                await driver.host.act(table.id, alice.id, fire[0])
                fired = True
                break
            await driver.host.act(table.id, alice.id, game.ai_action(game.to_act()[0], rnd))
        if fired:
            break
        if not (await driver.table()).over:
            await alice.slash("game abandon", channel=driver.channel)
    assert fired, "no fire action came up in five games"


async def test_undo_of_a_dice_roll_is_refused_with_the_reason(driver):
    alice = driver.member("alice")
    await fire_in_everrain(driver, alice)
    moved = await driver.table()
    refused = await alice.slash("game undo", channel=driver.channel)
    assert (
        refused.ephemeral
        and "cannot be undone" in refused.text
        and ("rolled dice" in refused.text or "chance" in refused.text)
    ), refused.text
    assert (await driver.table()).version == moved.version
    assert request_message(driver) is None
