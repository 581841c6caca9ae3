"""Advanced Enemy in Sight through the loopback Discord: `variant:advanced` from /game new; two members
arrange their Lines & Reserves at the same time by their hand menus, with 2 AI seats; nothing of an
arrangement reaches the channel before the reveal (stops at the reveal to keep the folder fast)."""

from __future__ import annotations

import asyncio
import random
import re

from bot import menus

ID_RE = re.compile(r"\bS\d{3}\b")


async def _act(driver, name: str, seat: int, rng: random.Random) -> bool:
    """Play the AI's choice for a member through "My hand" and the menus. In a simultaneous phase an
    AI seat may move between our clicks; the host then shows "out of date" and we try again."""
    for _ in range(5):
        await driver.host.idle()
        table = await driver.table()
        game = table.game
        if seat not in game.to_act():
            return False
        action = game.ai_action(seat, rng)
        labels = menus.labels_of(game, seat, action, table.names())
        member = driver.member(name)
        shown = await member.click(driver.turn_message(), "My hand")
        assert not shown.failed, shown.text
        result = await driver.click_path(member, shown.message, labels)
        if "✅ Played" in result.text:
            return True
        assert "out of date" in result.text, result.text
    raise AssertionError("could not play through the menus")


async def test_advanced_setup_and_play_through_discord(driver):
    await driver.new_game("alice", game="enemy-in-sight", variant="advanced")
    await driver.member("bob").click(driver.lobby_message(), "Join")
    for _ in range(2):
        await driver.add_ai("alice")
    started = await driver.member("alice").click(driver.lobby_message(), "Start")
    assert "started" in started.text, started.text
    table = await driver.table()
    assert table.game.options["variant"] == "advanced"
    names = {}
    for name in ("alice", "bob"):
        uid = driver.member(name).id
        names[next(s.seat for s in table.seats if s.user_id == uid)] = name
    rng = random.Random(7)
    phases = set()
    moves = 0
    for _ in range(3000):
        await driver.host.idle()
        table = await driver.table()
        game = table.game
        st = game.state
        if st["phase"] == "arrange":  # the secret set-up never reaches the channel
            secret = {s for a in st["arrange"] for s in a["line"] + a["reserve"]}
            for m in driver.public():
                assert not (set(ID_RE.findall(m.content)) & secret)
                assert not any(game.ship(s)["name"] in m.content for s in secret)
        if st["phase"] != "arrange":  # revealed: the rest is the ordinary host flow (kept short for time)
            break
            break
        humans = [s for s in game.to_act() if s in names]
        if not humans:
            await asyncio.sleep(0.02)
            continue
        phases.add(st["phase"])
        moves += await _act(driver, names[humans[0]], humans[0], rng)
    assert "arrange" in phases and moves >= 2
    table = await driver.table()
    st = table.game.state
    assert st["phase"] == "revise" and all(st["lines"][p] for p in range(4))  # all revealed at once
    assert driver.board_message().attachments
