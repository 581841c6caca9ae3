"""Issue 19, the collector's pauses: a click leaves nothing in a reference cycle. What a click holds
(its interaction, the clicked message parsed, its components, its answer) is freed by reference
counting once the click is handled (cogs/clicks.py, bot/click_answer.py); under load, a cycle outlives
the collector's young collections and is freed only by a long pause of its older ones."""

from __future__ import annotations

import gc
import random

import discord

from tests.e2e.test_click_answer_e2e import open_sub_menu, play_from
from tests.e2e.test_rest_budget_e2e import play_one_by_dm, start_two_members


def interactions() -> dict[int, discord.Interaction]:
    return {id(o): o for o in gc.get_objects() if isinstance(o, discord.Interaction)}


def kept_by_hooks(driver) -> set[int]:
    """The interactions whose tokens the bot keeps on purpose (bot/hooks.py: the newest per channel
    and per message, for about 14 minutes)."""
    hooks = driver.bot.delivery.hooks
    return {id(i) for i, _ in (*hooks._posters.values(), *hooks._editors.values())}


async def played_with_the_collector_off(driver, play) -> list[discord.Interaction]:
    """``play()`` with the collector off: the interactions it left alive that the bot does not keep."""
    gc.collect()
    before = set(interactions())
    gc.disable()
    try:
        await play()
        await driver.host.idle()
        await driver.settle()
        left = [o for i, o in interactions().items() if i not in before and i not in kept_by_hooks(driver)]
    finally:
        gc.enable()
    return left


async def test_clicks_on_the_table_and_its_private_menus_leave_no_interaction_behind(driver):
    await start_two_members(driver, "enemy-lines", quick_setup=True)

    async def play():
        for _ in range(4):
            mover, menu = await open_sub_menu(driver)
            played = await play_from(mover, menu)
            await played.wait_for(lambda r: "✅ Played" in r.text or r.failed, timeout=10)
            assert not played.failed
            await driver.host.idle()
            await driver.settle()

    left = await played_with_the_collector_off(driver, play)
    assert left == [], [(o.id, o.data) for o in left]


async def test_clicks_in_direct_messages_leave_no_interaction_behind(driver):
    await start_two_members(driver, "warships", quick_setup=True)
    rng = random.Random(3)

    async def play():
        for _ in range(4):
            assert await play_one_by_dm(driver, rng)

    left = await played_with_the_collector_off(driver, play)
    assert left == [], [(o.id, o.data) for o in left]
