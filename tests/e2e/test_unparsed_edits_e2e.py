"""Issue 19, the CPU a move costs: the edits a move makes through interaction tokens (the table, the
mover's DM, their private menu) leave Discord's answer unparsed (``bot/unparsed.py``): discord.py's
``edit_original_response`` and ``WebhookMessage.edit`` parsed every returned Components V2 message
into objects, and nothing read them. What the members see is the same: the moves show, the DMs and the
table carry the next controls."""

from __future__ import annotations

import random

import discord
import pytest

from tests.e2e.test_rest_budget_e2e import play_one_by_dm, start_two_members

EDIT_ROUTES = (
    "PATCH /webhooks/{app_id}/{token}/messages/@original",
    "PATCH /webhooks/{app_id}/{token}/messages/{message_id}",
)


@pytest.fixture
def parsing_edits(monkeypatch):
    """The calls of discord.py's parsing edit methods made meanwhile."""
    calls: list[str] = []
    original = discord.Interaction.edit_original_response
    followup = discord.WebhookMessage.edit

    async def edit_original_response(self, **fields):
        calls.append("edit_original_response")
        return await original(self, **fields)

    async def edit(self, **fields):
        calls.append("WebhookMessage.edit")
        return await followup(self, **fields)

    monkeypatch.setattr(discord.Interaction, "edit_original_response", edit_original_response)
    monkeypatch.setattr(discord.WebhookMessage, "edit", edit)
    return calls


async def test_dm_moves_edit_the_dm_and_the_table_without_parsing_the_answers(driver, parsing_edits):
    """Warships by DM: each move edits the mover's DM through their click and the table through a
    stored token (PATCHes made), and no parsing edit method runs; the table shows every move."""
    table = await start_two_members(driver, "warships", quick_setup=True)
    rng = random.Random(5)
    for _ in range(2):
        assert await play_one_by_dm(driver, rng)
    parsing_edits.clear()
    for _ in range(4):
        with driver.fd.count() as calls:
            assert await play_one_by_dm(driver, rng)
        assert sum(calls[route] for route in EDIT_ROUTES) >= 2, calls
    assert parsing_edits == []
    after = await driver.table()
    assert after.id == table.id and after.version >= 6
    assert f"move {after.version}" in driver.turn_message().text or "· move" in driver.turn_message().text


async def test_table_moves_and_private_menus_are_edited_without_parsing_the_answers(driver, parsing_edits):
    """Enemy Lines from the table: the private sub-menu's levels and "✅ Played", and the table redrawn
    through the click, all without a parsing edit method; every move is played and shown."""
    await start_two_members(driver, "enemy-lines", quick_setup=True)
    rng = random.Random(2)
    parsing_edits.clear()
    for _ in range(4):
        with driver.fd.count() as calls:
            member, _, result = await driver.play_ai_move(rng)
        assert member is not None and "✅ Played" in result.text
        assert sum(calls[route] for route in EDIT_ROUTES) >= 1, calls
    assert parsing_edits == []
    assert (await driver.table()).version >= 4
