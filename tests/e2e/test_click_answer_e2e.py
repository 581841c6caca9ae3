"""Issue 19, the REST calls a move costs: a click on a private (ephemeral) menu, such as a sub-menu opened
from the table, is answered by its result as the update of that menu (Discord's UPDATE_MESSAGE, one
call) when the result is ready soon, instead of a deferral and then an edit (two calls); a slower
result is deferred in time and edited in as before (``bot/click_answer.py``)."""

from __future__ import annotations

import asyncio
import random

import pytest

from bot import click_answer
from tests.e2e.test_rest_budget_e2e import play_one_by_dm, start_two_members
from tests.fakediscord.models import DM
from tests.fakediscord.ratelimits import CALLBACK, ORIGINAL_EDIT

UPDATE_MESSAGE, DEFERRED_UPDATE_MESSAGE = 7, 6


async def open_sub_menu(driver):
    """Enemy Lines: the mover clicks a ship on the table; its moves open privately. (mover, menu)"""
    table = await driver.table()
    user_id = table.seat_row(table.game.to_act()[0]).user_id
    mover = next(m for m in (driver.member("alice"), driver.member("bob")) if m.id == user_id)
    turn = driver.table_message()
    ship = next(b for b in turn.buttons if (b.custom_id or "").startswith("adm:b"))
    opened = await mover.click(turn, ship.custom_id)
    await opened.wait_for(lambda r: any(m.ephemeral for m in r.followups), timeout=10)
    (menu,) = [m for m in opened.followups if m.ephemeral]
    return mover, menu


async def play_from(mover, menu):
    leaf = next((b for b in menu.buttons if b.custom_id.startswith("adm:b") and "Back" not in b.label), None)
    if leaf is not None:
        return await mover.click(menu, leaf.custom_id)
    return await mover.select(menu, menu.selects[0].values[0])


async def test_a_move_from_a_private_menu_is_answered_by_one_update(driver):
    table = await start_two_members(driver, "enemy-lines", quick_setup=True)
    mover, menu = await open_sub_menu(driver)
    with driver.fd.count() as calls:
        played = await play_from(mover, menu)
        await played.wait_for(lambda r: r.response_type is not None, timeout=10)
        await driver.host.idle()
        await driver.settle()
    assert played.response_type == UPDATE_MESSAGE and not played.failed
    assert "✅ Played" in driver.fd.message(menu.id).text
    assert (await driver.table()).version == table.version + 1
    # the click's own answer is the one callback: no deferral of it, no edit of its menu after it
    assert calls[CALLBACK] == 1, calls.by_route
    assert calls[ORIGINAL_EDIT] <= 1, calls.by_route  # (the table's, through the click on the table)


async def test_a_result_not_ready_soon_is_deferred_then_edited_in(driver, monkeypatch):
    """Discord gives a click 3 s for its first answer: a move whose commit and publish take longer than
    ``QUICK`` is deferred by then, and "✅ Played" edited into the menu afterwards."""
    table = await start_two_members(driver, "enemy-lines", quick_setup=True)
    monkeypatch.setattr(click_answer, "QUICK", 0.2)
    choose = driver.host.choose

    async def slow_choose(*args, **kwargs):
        await asyncio.sleep(0.6)
        return await choose(*args, **kwargs)

    monkeypatch.setattr(driver.host, "choose", slow_choose)
    mover, menu = await open_sub_menu(driver)
    played = await play_from(mover, menu)
    await played.wait_for(lambda r: "✅ Played" in driver.fd.message(menu.id).text, timeout=10)
    assert played.response_type == DEFERRED_UPDATE_MESSAGE and not played.failed
    assert (await driver.table()).version == table.version + 1


@pytest.mark.parametrize("quick", [0.0, 5.0])
async def test_a_refused_click_on_a_private_menu_is_told_once(driver, monkeypatch, quick):
    """A click on a private menu of a position already played from another (the sub-menu opened
    twice): a private word that the board moved on, whether the click was deferred first or not; never
    answered twice, never left unanswered."""
    await start_two_members(driver, "enemy-lines", quick_setup=True)
    monkeypatch.setattr(click_answer, "QUICK", quick)
    mover, menu = await open_sub_menu(driver)
    _, again = await open_sub_menu(driver)
    played = await play_from(mover, menu)
    await played.wait_for(lambda r: "✅ Played" in driver.fd.message(menu.id).text, timeout=10)
    await driver.host.idle()
    await driver.settle()
    stale = await play_from(mover, again)
    await stale.wait_for(lambda r: r.response_type is not None and (r.followups or r.original), timeout=10)
    await asyncio.sleep(0.3)  # (a deferral that should not come would have come by now)
    assert not stale.failed
    assert stale.response_type in (4, DEFERRED_UPDATE_MESSAGE)
    assert len([m for m in stale.messages if m.ephemeral]) >= 1


async def test_a_dm_menu_level_is_one_update_and_a_move_from_a_dm_is_redrawn_through_its_click(driver):
    """Warships by DM: a click that opens the next level of the DM's menu is answered by that level as
    the update of the DM (one call); the click that plays the move is answered by the DM redrawn at
    the new position (its publish's drawing, as the update of the DM: one call, no deferral and edit),
    which says "✅ Played" itself: no word follows it (a message a move piling up in the DM)."""
    table = await start_two_members(driver, "warships", quick_setup=True)
    rng = random.Random(5)
    levels = moves = 0
    for _ in range(6):
        seen = set(driver.fd.interactions)
        dm_edits = {m.id: len(m.edits) for m in driver.fd.messages.values() if m.guild_id is None}
        with driver.fd.count() as calls:
            assert await play_one_by_dm(driver, rng)
        clicks = [
            rec
            for i, rec in driver.fd.interactions.items()
            if i not in seen and rec.type == 3 and rec.channel.type == DM
        ]
        assert clicks and not any(rec.failed for rec in clicks)
        *opened, played = clicks
        assert all(rec.response_type == UPDATE_MESSAGE for rec in opened), [r.response_type for r in opened]
        assert played.response_type == UPDATE_MESSAGE
        assert not played.followups, [m.text for m in played.followups]
        assert calls[CALLBACK] == len(clicks), calls.by_route
        # the mover's DM is redrawn by this click's answer: one change of it a menu level and one for
        # the move, no edit after (the other seat's DM may be edited: its turn begins)
        dm = driver.fd.message(played.message.id)
        assert len(dm.edits) - dm_edits[dm.id] == len(clicks), dm.edits[dm_edits[dm.id] :]
        moves_now = await driver.host.storage.count_moves(table.id)
        assert f"move {moves_now}" in dm.text and "\n✅ Played: " in dm.text and dm.attachments, dm.text
        levels += len(opened)
        moves += 1
    assert levels >= 2 and moves == 6  # (Warships: a unit, then its target: levels are the rule)


async def test_the_movers_dm_is_answered_before_the_other_seats_dm_and_the_table(driver):
    """The publish after a DM move draws and sends the mover's DM first (its click's answer), then the
    other seat's DM, the table and the pings: the mover does not wait for the others' pictures and
    edits, whichever seat they sit in."""
    await start_two_members(driver, "warships", quick_setup=True)
    rng = random.Random(8)
    movers = set()
    for _ in range(6):
        seen = set(driver.fd.interactions)
        before = len(driver.fd.requests)
        mover = (await driver.table()).human_to_act()[0]
        assert await play_one_by_dm(driver, rng)
        clicks = [
            (i, rec)
            for i, rec in driver.fd.interactions.items()
            if i not in seen and rec.type == 3 and rec.channel.type == DM
        ]
        played_id = clicks[-1][0]
        requests = [key for key, _ in driver.fd.requests[before:]]
        answer = next(
            n for n, key in enumerate(requests) if key.startswith(f"POST /interactions/{played_id}/")
        )
        assert all(key.startswith("POST /interactions/") for key in requests[:answer]), requests[: answer + 1]
        assert len(requests) > answer + 1, requests  # the other seat's DM, the table, the pings came after
        movers.add(mover)
    assert movers == {0, 1}


def pictures_asked(driver, monkeypatch) -> list[tuple[int | None, bool]]:
    """(seat, urgent) of every picture the delivery asks for from now on (None: the table's)."""
    transport = driver.host.publisher.delivery.transport
    real = transport.image
    asked: list[tuple[int | None, bool]] = []

    async def image(table, seat, view=None, *, urgent=False):
        asked.append((seat, urgent))
        return await real(table, seat, view, urgent=urgent)

    monkeypatch.setattr(transport, "image", image)
    return asked


async def test_the_pictures_a_click_waits_for_are_drawn_first(driver, monkeypatch):
    """A DM move: the mover's DM (the click's answer) asks for its picture as urgent, drawn before the
    pictures already queued; the other seat's DM and the table, which no click waits for then, do not.
    A move from a private menu in the channel waits for the table (its "✅ Played" follows it): urgent."""
    await start_two_members(driver, "warships", quick_setup=True)
    asked = pictures_asked(driver, monkeypatch)
    rng = random.Random(9)
    for _ in range(4):
        mover = (await driver.table()).human_to_act()[0]
        asked.clear()
        assert await play_one_by_dm(driver, rng)
        assert asked[0] == (mover, True), asked
        assert all(not urgent for _, urgent in asked[1:]), asked
        assert (None, False) in asked and (1 - mover, False) in asked, asked


async def test_the_table_picture_is_urgent_when_a_private_menus_move_waits_for_it(driver, monkeypatch):
    await start_two_members(driver, "enemy-lines", quick_setup=True)
    asked = pictures_asked(driver, monkeypatch)
    mover, menu = await open_sub_menu(driver)
    asked.clear()
    played = await play_from(mover, menu)
    await played.wait_for(lambda r: r.response_type is not None, timeout=10)
    await driver.host.idle()
    assert asked == [(None, True)], asked


async def test_a_private_menus_move_is_answered_once_the_table_shows_it_before_the_pings(driver, monkeypatch):
    """ "✅ Played" follows the table showing the move; the pings (and the followers' DMs) after it in the
    same publish do not hold it back."""
    await start_two_members(driver, "enemy-lines", quick_setup=True)
    pings = driver.host.publisher.delivery.pings
    real = pings.publish
    release = asyncio.Event()

    async def held(table, vias, messages):
        await release.wait()
        return await real(table, vias, messages)

    monkeypatch.setattr(pings, "publish", held)
    mover, menu = await open_sub_menu(driver)
    before = driver.table_message().text
    await play_from(mover, menu)
    try:
        await driver.fd.wait_for(lambda: "✅ Played" in driver.fd.message(menu.id).text, timeout=10)
        assert not release.is_set()
        assert driver.table_message().text != before  # the table showed the move first
    finally:
        release.set()
    await driver.host.idle()
    await driver.settle()
    table = await driver.table()
    to_act = table.seat_row(table.human_to_act()[0]).user_id
    assert any(p.user_id == to_act for p in driver.fd.pings), "the ping went after all"
