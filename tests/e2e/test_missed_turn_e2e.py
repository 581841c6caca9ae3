"""A missed turn costs its player at most one ping: the turn's ping is edited into the half-time
reminder (an edit notifies nobody), then the timeout plays for them."""

from __future__ import annotations

import asyncio
import time


async def test_a_missed_turn_pings_its_player_once_and_the_reminder_edits_the_ping(driver):
    alice, bob = driver.member("alice"), driver.member("bob")
    await driver.new_game("alice", quick_setup=True, turn_timeout="2h")
    await bob.click(driver.lobby_message(), "Join")
    await alice.click(driver.lobby_message(), "Start")
    await driver.settle()
    table = await driver.table()
    (seat,) = table.human_to_act()
    absent = alice if table.seat_row(seat).user_id == alice.id else bob
    await driver.fd.wait_for(lambda: driver.fd.pings_for(absent), timeout=15)
    assert len(driver.fd.pings_for(absent)) == 1, "the turn begins: one ping"
    storage = driver.host.storage
    # The turn's deadline comes near: the half-time reminder is due at once, the timeout 2 s later.
    await storage.set_deadline(table.id, time.time() + 2.0)

    async def timed_out() -> bool:
        return any("ran out of time" in line for line in await storage.recent_log(table.id, 20))

    for _ in range(300):
        if await timed_out():
            break
        await asyncio.sleep(0.05)
    assert await timed_out()
    await driver.host.idle()
    await driver.settle()
    shown = [text for m in driver.pings() for text in [m.content, *(e.get("content") or "" for e in m.edits)]]
    assert any("still your turn" in text for text in shown), "the reminder was shown"
    assert len(driver.fd.pings_for(absent)) == 1, "the missed turn pinged its player once in all"
