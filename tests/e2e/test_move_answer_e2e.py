"""Issue 19, the REST calls a move costs: the last click of a move made on the table (or in a DM) is
answered by that message redrawn at the new position, the publish's own drawing sent as Discord's
UPDATE_MESSAGE of the clicked message (one call), when the publish is ready soon; instead of a deferral
and then an edit through the click (two calls). A slow publish is deferred in time and edited in as
before (``bot/click_answer.py``: ``redraw_through``)."""

from __future__ import annotations

import asyncio
import random

from bot import click_answer
from tests.e2e.test_rest_budget_e2e import start_two_members
from tests.fakediscord.ratelimits import CALLBACK, MESSAGE_EDIT, ORIGINAL_EDIT

UPDATE_MESSAGE, DEFERRED_UPDATE_MESSAGE = 7, 6
TABLE_FLAGS = 1 << 15  # IS_COMPONENTS_V2, not ephemeral: the table's message


async def play_until_a_move_on_the_table(driver, rng: random.Random, *, tries: int = 60):
    """The Everrain's members play the AI's choices from the table until a move is one click on it
    (not a sub-menu opened privately): that click and the REST calls of its move."""
    for _ in range(tries):
        seen = set(driver.fd.interactions)
        table_before = driver.table_message()
        edits_before = len(driver.fd.message(table_before.id).edits)
        with driver.fd.count() as calls:
            member, _, result = await driver.play_ai_move(rng)
            assert member is not None, "the game ended before a move was one click on the table"
            await driver.host.idle()
            await driver.settle()
        clicks = [rec for i, rec in driver.fd.interactions.items() if i not in seen and rec.type == 3]
        if len(clicks) == 1 and clicks[0].message.id == table_before.id:
            return clicks[0], calls, result, edits_before
    raise AssertionError("no move was one click on the table")


async def test_a_move_clicked_on_the_table_is_answered_by_the_redrawn_table(driver):
    await start_two_members(driver, "everrain")
    click, calls, result, edits_before = await play_until_a_move_on_the_table(driver, random.Random(4))
    table = await driver.table()
    assert click.response_type == UPDATE_MESSAGE and not click.failed
    shown = driver.fd.message(click.message.id)
    moves = await driver.host.storage.count_moves(table.id)
    assert f"move {moves}" in shown.text and shown.attachments, shown.text
    assert "✅ Played" in result.text
    # one answer of the click (the redrawn table), then "✅ Played": no deferral, no edit of the table
    assert calls[CALLBACK] == 1, calls.by_route
    assert calls[ORIGINAL_EDIT] == 0 and calls[MESSAGE_EDIT] == 0, calls.by_route
    assert len(shown.edits) - edits_before == 1, shown.edits[edits_before:]


async def test_a_slow_publish_is_deferred_then_edits_the_table_through_the_click(driver, monkeypatch):
    """Discord gives a click 3 s for its first answer: a move whose publish takes longer than ``QUICK``
    is deferred by then, and the table edited through the click afterwards, as before."""
    await start_two_members(driver, "everrain")
    monkeypatch.setattr(click_answer, "QUICK", 0.1)
    publish = driver.bot.delivery.publish

    async def slow_publish(*args, **kwargs):
        await asyncio.sleep(0.4)
        return await publish(*args, **kwargs)

    monkeypatch.setattr(driver.bot.delivery, "publish", slow_publish)
    click, calls, result, _ = await play_until_a_move_on_the_table(driver, random.Random(4))
    table = await driver.table()
    assert click.response_type == DEFERRED_UPDATE_MESSAGE and not click.failed
    shown = driver.fd.message(click.message.id)
    assert f"move {await driver.host.storage.count_moves(table.id)}" in shown.text
    assert "✅ Played" in result.text
    assert calls[ORIGINAL_EDIT] >= 1, calls.by_route  # the table, through the click
