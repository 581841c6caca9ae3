"""Enemy in Sight, a whole 4-player game (2 members + 2 AI seats) to 100 VP through the loopback Discord:
one member plays from their DMs, the other (DMs closed) through the ephemeral "My hand" button."""

from __future__ import annotations

import asyncio
import os
import random

import pytest

from bot import menus


@pytest.mark.slow
async def test_two_members_and_two_ai_seats_play_enemy_in_sight_to_100_vp(driver):
    driver.fd.block_dms(driver.member("bob"))
    await driver.new_game("alice", game="enemy-in-sight")
    await driver.member("bob").click(driver.lobby_message(), "Join")
    for _ in range(2):
        await driver.add_ai("alice")
    await driver.member("alice").click(driver.lobby_message(), "Start")
    table = await driver.table()
    seats = {s.seat: s for s in table.seats}
    alice = next(s for s, row in seats.items() if row.user_id == driver.member("alice").id)
    bob = next(s for s, row in seats.items() if row.user_id == driver.member("bob").id)
    rng = random.Random(int(os.environ.get("ADMIRALTY_E2E_SEED", "5")))
    moves = {alice: 0, bob: 0}
    for _ in range(20000):
        await driver.host.idle()
        table = await driver.table()
        if table.game.is_over:
            break
        humans = [s for s in table.game.to_act() if s in (alice, bob)]
        if not humans:
            await asyncio.sleep(0.01)
            continue
        seat = humans[0]
        before = table.version
        if seat == alice:
            await driver.play_by_dm(driver.member("alice"), seat, rng)
        else:
            action = table.game.ai_action(seat, rng)
            labels = menus.labels_of(table.game, seat, action, table.names())
            shown = await driver.member("bob").click(driver.turn_message(), "My hand")
            result = await driver.click_path(driver.member("bob"), shown.message, labels)
            assert "✅ Played" in result.text, result.text
        await driver.fd.wait_for(lambda: True, timeout=0.01)
        assert (await driver.table()).version > before
        moves[seat] += 1
    table = await driver.table()
    assert table.game.is_over, "the game reached its end"
    scores = table.game.result["scores"]
    assert max(scores.values()) >= 100 or table.game.state.get("round", 0) >= 30
    assert moves[alice] > 10 and moves[bob] > 10
    assert await driver.game_over_announced()


def _clicks_by(driver, member) -> int:
    """Component clicks (interaction type 3) ``member`` has made so far."""
    return sum(1 for rec in driver.fd.interactions.values() if rec.type == 3 and rec.user.id == member.id)


async def _seat_to_act(driver):
    table = await driver.table()
    seat = table.game.to_act()[0]
    user_id = table.seat_row(seat).user_id
    member = next(m for m in (driver.member(n) for n in ("alice", "bob", "carol")) if m.id == user_id)
    return table, seat, member


async def test_break_the_line_and_refuse_battle_are_one_multi_select_each(driver):
    """Break the Line took 5 actions and 11 clicks, a Refuse Battle one action per ship and a Confirm.
    Each is one decision now: card (and opponent), then one multi-select of the ships - at most 3
    clicks and one action - from a private menu in the channel and from a DM."""
    from tests.games.enemy_in_sight.helpers import clear_table, give, place

    await driver.new_game("alice", game="enemy-in-sight")
    for name in ("bob", "carol"):
        await driver.member(name).click(driver.lobby_message(), "Join")
    await driver.member("alice").click(driver.lobby_message(), "Start")
    await driver.settle()
    table, seat, member = await _seat_to_act(driver)
    # The cached engine is the one the next click plays on: set the position up there.
    game = table.game
    clear_table(game, seat)
    names = ("Victory", "Bellerophon", "Orion", "Culloden", "Goliath")
    mine = [place(game, seat, n) for n in names]
    for k, other in enumerate(s for s in range(3) if s != seat):
        place(game, other, ("Santa Ana", "Bahama")[k])
    cid = give(game, seat, "break_line")
    give(game, seat, "repair")
    target = (seat + 2) % 3  # (the next admiral, whose Line stays unbroken, refuses battle below)
    action = {"type": "play", "card": cid, "seat": target, "ships": [mine[1], mine[3]]}
    labels = menus.labels_of(game, seat, action, table.names())
    assert labels[-1] == ["Bellerophon", "Culloden"]
    before = table.version
    # From the player's DM, redrawn from this position (as the bot draws a DM whose menu changed).
    await driver.fd.wait_for(lambda: driver.dm_menu(member, table.id, seat) is not None, timeout=15)
    await driver.host.publisher.delivery.dms.update(table, seat, [], in_place=True, follow=True)
    start = driver.dm_menu(member, table.id, seat)
    assert driver.offers(start, labels[0]), [b.label for b in start.buttons]
    opened = _clicks_by(driver, member)
    result = await driver.click_path(member, start, labels)
    assert "✅ Played" in result.text and "Bellerophon, Culloden" in result.text, result.text
    assert _clicks_by(driver, member) - opened <= 3
    table = await driver.table()
    assert table.version == before + 1, "one decision, one action"
    btl = table.game.state["in_play"]["btl"]
    assert [b["target"] for b in btl] == [target]
    assert table.game.breakers_of(btl[0]) == sorted([mine[1], mine[3]])

    # The next admiral refuses battle from a private menu in the channel: one ship out of Port, one in.
    await driver.settle()
    table, seat, member = await _seat_to_act(driver)
    game = table.game
    port = place(game, seat, "Temeraire", "port")
    hurt = place(game, seat, "Leander")
    give(game, seat, "refuse_battle")
    rb = next(c for c in game.unique_hand(seat) if game.card(c)["type"] == "refuse_battle")  # stands for all
    action = {"type": "play", "card": rb, "ships": [port, hurt]}
    assert game.is_legal(seat, action)
    labels = menus.labels_of(game, seat, action, table.names())
    before = table.version
    shown = await member.click(driver.turn_message(), "My hand")
    opened = _clicks_by(driver, member)
    result = await driver.click_path(member, shown.message, labels)
    assert "✅ Played" in result.text, result.text
    assert _clicks_by(driver, member) - opened <= 3
    table = await driver.table()
    assert table.version == before + 1
    st = table.game.state
    assert port in st["lines"][seat] and hurt in st["ports"][seat] and table.game.refusing(seat)
