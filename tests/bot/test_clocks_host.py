"""Clocks in the game host, without Discord: a time bank charged by real moves, a game that starts while
a player is on vacation, and the refusals of pause, resume and Give more time."""

from __future__ import annotations

import asyncio

import pytest

from bot.clocks import DAY, Clock
from bot.host import Host, NullDelivery, UserError
from tests.hosting import ALICE, BOB, CAROL, CHANNEL, GUILD, open_lobby, start_game


async def bank_game(storage, *, clock=None) -> tuple[Host, object]:
    now = [1_000_000.0]
    host = Host(storage, NullDelivery(), ai_delay=0.0, clock=clock or (lambda: now[0]))
    await open_lobby(host, options={"quick-setup": True}, bank=(3 * DAY, DAY), seed=7)
    return host, now


async def test_a_move_charges_the_movers_bank_and_starts_the_next_players(storage):
    host, now = await bank_game(storage)
    try:
        table = await host.start(CHANNEL, ALICE)
        (seat,) = table.human_to_act()
        now[0] += 2 * DAY
        user = table.seat_row(seat).user_id
        await host.act(table.id, user, table.game.legal_actions(seat)[0])
        row = await storage.get_game(table.id)
        clock = Clock.from_json(row.clock)
        assert seat not in (await host.table(table.id)).human_to_act()
        assert clock.seat(seat).left == pytest.approx(3 * DAY - 2 * DAY + DAY)
        (nxt,) = (await host.table(table.id)).human_to_act()
        assert row.deadline == pytest.approx(now[0] + clock.seat(nxt).left)
    finally:
        await host.close()


async def test_a_game_that_starts_while_a_player_is_on_vacation_waits_for_its_end(storage):
    host, now = await bank_game(storage)
    try:
        await storage.take_vacation(ALICE, 3, now=now[0], year=2026, guild_id=GUILD)
        await storage.take_vacation(BOB, 3, now=now[0], year=2026, guild_id=GUILD)
        table = await host.start(CHANNEL, ALICE)
        clock = Clock.from_json((await storage.get_game(table.id)).clock)
        (seat,) = table.human_to_act()
        assert clock.seat(seat).since == now[0] + 3 * DAY
        assert (await storage.get_game(table.id)).deadline == now[0] + 6 * DAY
    finally:
        await host.close()


async def test_pause_resume_and_more_time_refuse_what_they_must(storage):
    host, now = await bank_game(storage)
    try:
        table = await host.start(CHANNEL, ALICE)
        (seat,) = table.human_to_act()
        mover = table.seat_row(seat).user_id
        other = BOB if mover == ALICE else ALICE
        with pytest.raises(UserError, match="not paused"):
            await host.timekeeper.resume(table.id, other)
        with pytest.raises(UserError, match="yourself"):
            await host.timekeeper.extend(table.id, mover, 3600.0)
        with pytest.raises(UserError, match="Only the players"):
            await host.timekeeper.extend(table.id, CAROL, 3600.0)
        with pytest.raises(UserError, match="Choose"):
            await host.timekeeper.extend(table.id, other, 5.0)
        deadline = (await storage.get_game(table.id)).deadline
        await host.timekeeper.extend(table.id, other, DAY)
        assert (await storage.get_game(table.id)).deadline == deadline + DAY
        text, request, asked = await host.timekeeper.pause(table.id, mover)
        assert request is not None and asked == [other]
        with pytest.raises(UserError, match="asked already"):
            await host.timekeeper.pause(table.id, other)
        with pytest.raises(UserError, match="You asked"):
            await host.timekeeper.answer_pause(table.id, mover, True)
        assert "declined" in await host.timekeeper.answer_pause(table.id, other, False)
        assert (await storage.get_game(table.id)).deadline == deadline + DAY, "a decline keeps it running"
        with pytest.raises(UserError, match="no longer open"):
            await host.timekeeper.answer_pause(table.id, other, True)
    finally:
        await host.close()


async def test_in_a_secret_choice_only_the_seat_whose_bank_ran_out_is_played_for(storage):
    now = [1_000_000.0]
    host = Host(storage, NullDelivery(), ai_delay=0.0, clock=lambda: now[0], job_poll=0.05)
    try:
        table = await start_game(host, "warships", bank=(3600.0, 0.0), seed=7)
        assert table.human_to_act() == [0, 1], "both choose in secret"
        await host.timekeeper.extend(table.id, ALICE, DAY, target=1)  # Bob's bank runs a day longer
        now[0] += 3601.0
        host.scheduler.wake()
        for _ in range(400):
            table = await host.table(table.id)
            if 0 not in table.human_to_act() and table.seats[0].missed:  # (the note follows the move)
                break
            await asyncio.sleep(0.025)
        assert table.human_to_act() == [1], "a move was made for Alice alone"
        assert [s.missed for s in table.seats] == [1, 0]
        clock = Clock.from_json(table.row.clock)
        assert clock.running() == [1] and clock.deadline() == pytest.approx(1_000_000.0 + 3600.0 + DAY)
        assert clock.seat(0).left == 0.0
    finally:
        await host.close()
