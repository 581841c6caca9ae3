"""Enemy in Sight through the loopback Discord: 2 members and 2 AI seats, hands by DM / "My hand"."""

from __future__ import annotations

import asyncio
import json
import random
import re

from bot import menus

ID_RE = re.compile(r"\b[CS]\d{3}\b")


async def _act(driver, name: str, seat: int, rng: random.Random):
    table = await driver.table()
    game = table.game
    action = game.ai_action(seat, rng)
    labels = menus.labels_of(game, seat, action, table.names())
    member = driver.member(name)
    shown = await member.click(driver.turn_message(), "My hand")
    assert not shown.failed, shown.text
    result = await driver.click_path(member, shown.message, labels)
    assert "✅ Played" in result.text, result.text
    return action


async def test_two_members_and_two_ai_seats_play_by_hand_menus(driver):
    await driver.new_game("alice", game="enemy-in-sight")
    joined = await driver.member("bob").click(driver.lobby_message(), "Join")
    assert "joined" in joined.text
    for _ in range(2):
        await driver.add_ai("alice")
    started = await driver.member("alice").click(driver.lobby_message(), "Start")
    assert "started" in started.text, started.text
    rng = random.Random(4)
    names = {}
    table = await driver.table()
    for name in ("alice", "bob"):
        uid = driver.member(name).id
        names[next(s.seat for s in table.seats if s.user_id == uid)] = name
    human_moves = 0
    for _ in range(3000):
        await driver.host.idle()
        table = await driver.table()
        game = table.game
        if game.is_over or human_moves >= 12:
            break
        humans = [s for s in game.to_act() if s in names]
        if not humans:
            await asyncio.sleep(0.02)  # the AI seats move in the background
            continue
        await driver.host.idle()
        await _act(driver, names[humans[0]], humans[0], rng)
        human_moves += 1
    assert human_moves >= 12
    board = driver.board_message()
    assert board.attachments and board.attachments[0].data[:4] == b"\x89PNG"
    # nothing hidden in the channel: no hand card id of anybody, no ship pile order
    table = await driver.table()
    st = table.game.state
    hidden = set(st["deck"]) | set(st["ship_deck"][1:]) | {c for h in st["hands"] for c in h}
    for m in driver.public():
        assert not (set(ID_RE.findall(m.content)) & hidden)
    text = json.dumps(table.game.view(None))
    assert not (set(ID_RE.findall(text)) & hidden)
