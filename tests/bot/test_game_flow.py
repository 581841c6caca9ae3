"""Game flow without Discord: resigning, playing again, the end-of-game summary."""

from __future__ import annotations

import dataclasses
import random

import pytest

from bot.host import Host, NullDelivery, UserError
from bot.storage import Storage, replay_matches
from bot.summary import duration_text, status_line, summary_text
from bot.tables import Table
from tests.hosting import ALICE, BOB, CAROL, CHANNEL, GUILD, start_game


@pytest.fixture
async def storage(tmp_path):
    s = await Storage.open(tmp_path / "flow.db")
    yield s
    await s.close()


def make_host(storage, **kw) -> Host:
    kw.setdefault("ai_delay", 0.0)
    return Host(storage, NullDelivery(), **kw)


async def test_resign_in_a_two_player_game_ends_it_for_the_opponent(storage, tmp_path):
    host = make_host(storage)
    table = await start_game(
        host, "enemy-lines", others=[(BOB, "Bob")], options={"quick-setup": True}, turn_timeout=3600, seed=7
    )
    seat = table.game.to_act()[0]
    await host.act(table.id, table.seat_row(seat).user_id, table.game.ai_action(seat, random.Random(1)))
    table = await host.table(table.id)
    state, version = table.row.state_json, table.version
    with pytest.raises(UserError, match="not playing"):
        await host.resign(table.id, CAROL)
    with pytest.raises(UserError, match="not playing"):
        await host.resign_check(CHANNEL, CAROL)
    checked, ends = await host.resign_check(CHANNEL, BOB)
    assert checked.id == table.id and ends

    table = await host.resign(table.id, BOB)
    row = table.row
    assert row.status == "finished" and table.over and not table.game.is_over
    assert row.result["winners"] == [0] and row.result["resigned"] == [1]
    assert row.result["scores"] == {"0": 0, "1": 0}  # the scores the board showed
    assert row.state_json == state and row.version == version + 1 and row.deadline is None
    assert row.finished_at is not None and row.started_at is not None
    log = await storage.actions(table.id)
    assert log[-1].seat == 1 and log[-1].action == {"host": "resign", "name": "Bob", "user_id": BOB}
    assert replay_matches(row, log)  # the resignation is no engine move: the log still replays
    assert await storage.count_moves(table.id) == 1
    assert ("publish", table.id, row.version, ["🏳️ Bob resigned; Alice wins."], "") in host.delivery.calls
    assert await storage.active_game(CHANNEL) is None  # the channel is free again
    for user in (BOB, ALICE):
        with pytest.raises(UserError, match="already over"):
            await host.resign(table.id, user)
    with pytest.raises(UserError, match="over"):
        await host.act(table.id, ALICE, table.game.ai_action(0, random.Random(2)))
    await host.close()

    # After a restart the game is still over, with its result.
    again = Host(await Storage.open(tmp_path / "flow.db"), NullDelivery())
    table = await again.table(table.id)
    assert table.over and table.result["winners"] == [0]
    assert "Bob resigned; 🔵 **Alice** wins!" in summary_text(table, 1, 60)
    assert await again.resume_all() == []
    await again.close()
    await again.storage.close()


async def test_resign_in_a_three_player_game_hands_the_seat_to_an_ai(storage):
    host = make_host(storage)
    table = await start_game(
        host, "enemy-in-sight", others=[(BOB, "Bob"), (CAROL, "Carol")], turn_timeout=3600, seed=7
    )
    seat = table.game.to_act()[0]
    user = table.seat_row(seat).user_id
    name = table.seat_row(seat).name
    _, ends = await host.resign_check(CHANNEL, user)
    assert not ends
    table = await host.resign(table.id, user)
    resigned_at = table.version
    assert table.row.status == "running" and table.row.result is None
    row = table.seat_row(seat)
    assert row.is_ai and row.name == f"{name} (AI)"
    await host.idle()  # the seat's pending turn is played by the AI
    table = await host.table(table.id)
    assert table.version > resigned_at
    assert table.row.status == "running"
    with pytest.raises(UserError, match="already left"):
        await host.resign(table.id, user)
    with pytest.raises(UserError, match="You resigned"):
        await host.join(CHANNEL, user, name)  # no taking the seat back
    assert replay_matches(table.row, await storage.actions(table.id))
    resigns = await storage.resigned(table.id)
    assert [r.seq for r in resigns] == [resigned_at]
    await host.close()


async def test_resign_in_a_cooperative_game_keeps_it_going_until_nobody_is_left(storage):
    host = make_host(storage)
    table = await start_game(host, "everrain", others=[(BOB, "Bob")], seed=7)
    _, ends = await host.resign_check(CHANNEL, ALICE)
    assert not ends  # two seats, but a cooperative game: an AI sails Alice's ship
    table = await host.resign(table.id, ALICE)
    assert (
        table.row.status == "running" and table.seat_row(0).is_ai and table.seat_row(0).name == "Alice (AI)"
    )
    await host.idle()
    table = await host.resign(table.id, BOB)
    assert table.row.status == "finished"
    assert table.result["winners"] == [] and table.result["resigned"] == [1]
    text = summary_text(table, 3, 125)
    assert "Bob resigned; nobody wins." in text and "3 moves · 2 min" in text
    await host.close()


async def test_resign_is_refused_in_a_lobby(storage):
    host = make_host(storage)
    await host.new_game(
        guild_id=GUILD, channel_id=CHANNEL, user_id=ALICE, user_name="Alice", game_key="enemy-lines"
    )
    with pytest.raises(UserError, match="not started"):
        await host.resign_check(CHANNEL, ALICE)
    await host.close()


async def test_play_again_seats_the_same_players_with_the_same_options(storage):
    host = make_host(storage)
    old = await start_game(
        host,
        "enemy-in-sight",
        others=[(BOB, "Bob"), None],
        options={"variant": "advanced"},
        turn_timeout=7200,
        seed=7,
    )
    with pytest.raises(UserError, match="not over yet"):
        await host.play_again(old.id, ALICE, "Alice")
    await host.resign(old.id, ALICE)
    old = await host.resign(old.id, BOB)  # nobody left: over
    assert old.row.status == "finished"
    with pytest.raises(UserError, match="Only the players"):
        await host.play_again(old.id, CAROL, "Carol")

    new = await host.play_again(old.id, BOB, "Bobby")
    assert new.id != old.id and new.row.status == "lobby" and new.row.host_id == BOB
    assert new.row.game_key == old.row.game_key and new.row.options == old.row.options
    assert new.row.turn_timeout == 7200 and new.channel_id == old.channel_id
    # Alice resigned (an AI played her seat to the end): she is a player of the rematch all the same.
    assert [(s.user_id, s.is_ai) for s in new.seats] == [(ALICE, False), (BOB, False), (None, True)]
    assert [s.name for s in new.seats][:2] == ["Alice", "Bobby"] and new.seats[
        2
    ].name == "Nelson (AI, normal)"
    assert new.seats[2].ai_level == "normal"  # an AI seat comes back at its level
    assert (
        "lobby",
        new.id,
        f"Rematch of game #{old.id}: the same players are seated; Bobby (the host) starts it.",
    ) in host.delivery.calls

    with pytest.raises(UserError, match="already has a game"):
        await host.play_again(old.id, ALICE, "Alice")
    with pytest.raises(UserError, match="Only the host"):
        await host.start(CHANNEL, ALICE)
    started = await host.start(CHANNEL, BOB)
    assert started.row.status == "running" and len(started.game.to_act()) >= 1
    await host.close()


async def test_play_again_is_refused_for_an_abandoned_game(storage):
    host = make_host(storage)
    table = await start_game(
        host, "enemy-lines", others=[(BOB, "Bob")], options={"quick-setup": True}, seed=7
    )
    await host.abandon(CHANNEL, ALICE, is_admin=False)
    with pytest.raises(UserError, match="did not finish"):
        await host.play_again(table.id, ALICE, "Alice")
    await host.close()


async def test_summary_names_winners_scores_moves_and_duration(storage):
    host = make_host(storage)
    table = await start_game(
        host, "enemy-lines", others=[(BOB, "Bob")], options={"quick-setup": True}, seed=7
    )
    won = Table(
        dataclasses.replace(
            table.row,
            status="finished",
            result={"winners": [1], "scores": {"0": 2, "1": 5}, "reason": "Bob sank all"},
        ),
        table.seats,
        table.game,
    )
    text = summary_text(won, 42, 3725)
    assert text.splitlines() == [
        "🏁 **Game over** — 🟥 **Bob** wins!",
        "*Bob sank all*",
        "Final scores: 🔵 Alice 2 · 🟥 Bob 5",
        "42 moves · 1 h 02 min",
    ]
    assert "<@" not in text  # display names: nobody is pinged
    tie = Table(
        dataclasses.replace(won.row, result={"winners": [0, 1], "scores": {"0": 3, "1": 3}}),
        table.seats,
        table.game,
    )
    assert "a tie between 🔵 **Alice** and 🟥 **Bob**." in summary_text(tie, 1, 5)
    assert "1 move · 5 s" in summary_text(tie, 1, 5)
    assert status_line(won, 0).endswith("over after move 0 — won by Bob")
    assert "waiting for" in status_line(table, 0)
    assert [duration_text(s) for s in (59, 60, 3599, 86400 + 7200)] == ["59 s", "1 min", "59 min", "1 d 2 h"]
    await host.close()
