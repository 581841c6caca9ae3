"""The game host without Discord: lobby, locks, stale versions, AI seats, timers, restarts."""

from __future__ import annotations

import asyncio

import pytest

from bot.games import registry
from bot.host import Host, NullDelivery, StaleBoard, UserError
from bot.storage import rebuild
from tests.hosting import AI, ALICE, BOB, CAROL, CHANNEL, GUILD, start_game


async def make_host(storage, **kw) -> Host:
    kw.setdefault("ai_delay", 0.0)
    return Host(storage, NullDelivery(), **kw)


async def two_player_game(host: Host, *, timeout: float | None = None, quick: bool = True, seed: int = 7):
    return await start_game(host, options={"quick-setup": quick}, turn_timeout=timeout, seed=seed)


def user_of(table, seat):
    return table.seat_row(seat).user_id


async def test_lobby_flow_and_refusals(storage):
    host = await make_host(storage)
    await host.new_game(
        guild_id=GUILD, channel_id=CHANNEL, user_id=ALICE, user_name="Alice", game_key="enemy-lines"
    )
    with pytest.raises(UserError, match="already has a game"):
        await host.new_game(
            guild_id=GUILD, channel_id=CHANNEL, user_id=BOB, user_name="Bob", game_key="enemy-lines"
        )
    with pytest.raises(UserError, match="needs at least 2"):
        await host.start(CHANNEL, ALICE)
    with pytest.raises(UserError, match="already in this game"):
        await host.join(CHANNEL, ALICE, "Alice")
    await host.join(CHANNEL, BOB, "Bob")
    with pytest.raises(UserError, match="full"):
        await host.join(CHANNEL, CAROL, "Carol")
    with pytest.raises(UserError, match="Only the host"):
        await host.start(CHANNEL, BOB)
    await host.leave(CHANNEL, BOB)
    table = await host.add_ai(CHANNEL, ALICE)
    assert [s.is_ai for s in table.seats] == [False, True]
    table = await host.start(CHANNEL, ALICE)
    assert table.row.status == "running" and table.game is not None
    await host.close()


async def test_unknown_game_and_bad_option_are_user_errors(storage):
    host = await make_host(storage)
    with pytest.raises(UserError, match="unknown game"):
        await host.new_game(
            guild_id=GUILD, channel_id=CHANNEL, user_id=ALICE, user_name="A", game_key="chess"
        )
    with pytest.raises(UserError, match="no option"):
        await host.new_game(
            guild_id=GUILD,
            channel_id=CHANNEL,
            user_id=ALICE,
            user_name="A",
            game_key="enemy-lines",
            options={"colour": "green"},
        )
    assert await storage.active_game(CHANNEL) is None


async def test_two_concurrent_clicks_apply_exactly_one(storage):
    host = await make_host(storage)
    table = await two_player_game(host)
    seat = table.game.to_act()[0]
    user = user_of(table, seat)
    version = table.version
    prefix = (0, 0)
    results = await asyncio.gather(
        host.choose(table.id, user, version, prefix),
        host.choose(table.id, user, version, prefix),
        return_exceptions=True,
    )
    applied = [r for r in results if not isinstance(r, Exception)]
    refused = [r for r in results if isinstance(r, Exception)]
    assert len(applied) == 1 and applied[0].applied
    assert len(refused) == 1 and isinstance(refused[0], StaleBoard)
    assert (await storage.get_game(table.id)).version == version + 1
    assert len(await storage.actions(table.id)) == 1
    await host.close()


async def test_stale_version_is_refused_and_changes_nothing(storage):
    host = await make_host(storage)
    table = await two_player_game(host)
    seat = table.game.to_act()[0]
    await host.choose(table.id, user_of(table, seat), table.version, (0, 0))
    before = (await storage.get_game(table.id)).state_json
    with pytest.raises(StaleBoard):
        await host.choose(table.id, user_of(table, 1 - seat), table.version, (0, 0))
    assert (await storage.get_game(table.id)).state_json == before
    await host.close()


async def test_wrong_player_and_non_player_are_refused(storage):
    host = await make_host(storage)
    table = await two_player_game(host)
    seat = table.game.to_act()[0]
    before = (await storage.get_game(table.id)).state_json
    with pytest.raises(UserError, match="not your turn"):
        await host.choose(table.id, user_of(table, 1 - seat), table.version, (0,))
    with pytest.raises(UserError, match="not playing"):
        await host.choose(table.id, CAROL, table.version, (0,))
    with pytest.raises(UserError, match="belong to another player"):
        await host.choose(table.id, user_of(table, seat), table.version, (0,), seat=1 - seat)
    with pytest.raises(UserError, match="Not allowed"):
        await host.act(table.id, user_of(table, seat), {"type": "travel", "ship": "nonsense"})
    with pytest.raises(UserError):
        await host.act(table.id, user_of(table, seat), {"garbage": True})
    with pytest.raises(UserError, match="not one of your moves"):
        await host.act(table.id, user_of(table, seat), [])  # no step: refused, not applied as an action
    assert (await storage.get_game(table.id)).state_json == before
    await host.close()


async def test_menu_walks_to_a_leaf_and_applies(storage):
    host = await make_host(storage)
    table = await two_player_game(host)
    seat = table.game.to_act()[0]
    user = user_of(table, seat)
    first = await host.menu(table.id, user)
    assert first.level.entries, "the first menu offers choices"
    second = await host.choose(
        table.id, user, table.version, first.level.prefix + (first.level.entries[0][0],)
    )
    assert second.level is not None and second.applied is None
    done = await host.choose(
        table.id, user, table.version, second.level.prefix + (second.level.entries[0][0],)
    )
    assert done.applied and done.events
    assert (await storage.get_game(table.id)).version == 1


async def test_ai_seat_plays_a_whole_game_and_replay_equals_snapshot(storage):
    host = await make_host(storage)
    table = await start_game(host, others=[AI], options={"quick-setup": True}, seed=3)
    # Alice answers with the AI's own choice each time; the AI seat moves by itself.
    for _ in range(400):
        await host.idle()
        table = await host.table(table.id)
        if table.game.is_over:
            break
        seat = table.game.to_act()[0]
        assert seat == 0, "only Alice's seat should be waiting for a person"
        import random

        action = table.game.ai_action(0, random.Random(table.version))
        await host.act(table.id, ALICE, action, version=table.version)
    table = await host.table(table.id)
    assert table.game.is_over and table.row.status == "finished"
    assert table.row.result == table.game.result
    rebuilt = rebuild(table.row, await storage.actions(table.id))
    assert rebuilt.to_json() == table.row.state_json
    await host.close()


async def test_timer_reminds_then_moves_for_absent_player_then_replaces_by_ai(storage):
    host = await make_host(storage, min_turn_timeout=0.1)  # a sub-second timer, only for speed
    table = await two_player_game(host, timeout=0.3)
    first = table.game.to_act()[0]
    # Nobody plays: each deadline makes a move for the absent seat.
    for _ in range(200):
        await asyncio.sleep(0.05)
        seats = await storage.seats(table.id)
        if all(s.is_ai for s in seats):
            break
    seats = await storage.seats(table.id)
    assert seats[first].is_ai, "3 missed turns in a row hand the seat to an AI"
    kinds = [c[0] for c in host.delivery.calls]
    assert "remind" in kinds
    # Timer notes go into the table's log (shown on the table), not into new channel messages.
    lines = await storage.recent_log(table.id, 50)
    assert any("ran out of time" in line for line in lines)
    assert any("an AI takes over" in line for line in lines)
    assert not any(c[0] == "notice" for c in host.delivery.calls)
    await host.close()


async def test_timers_survive_a_restart(storage, tmp_path):
    host = await make_host(storage)
    table = await two_player_game(host, timeout=3600)
    row = await storage.get_game(table.id)
    assert row.deadline is not None
    await host.close()
    # The deadline passed while the bot was down.
    await storage.set_deadline(table.id, 1.0)
    host2 = await make_host(storage)
    resumed = await host2.resume_all()
    assert [t.id for t in resumed] == [table.id]
    for _ in range(100):
        await asyncio.sleep(0.02)
        if (await storage.get_game(table.id)).version >= 1:
            break
    assert (await storage.get_game(table.id)).version >= 1, "the overdue turn was played after restart"
    assert any("restarted" in line for line in await storage.recent_log(table.id, 50))
    await host2.close()


async def test_abandon_needs_host_or_admin(storage):
    host = await make_host(storage)
    await two_player_game(host)
    with pytest.raises(UserError, match="Only the host"):
        await host.abandon(CHANNEL, BOB, is_admin=False)
    table = await host.abandon(CHANNEL, BOB, is_admin=True)
    assert table.row.status == "abandoned"
    with pytest.raises(UserError, match="no game"):
        await host.table_in(CHANNEL)
    await host.close()


def test_every_registered_game_meets_the_contract_names():
    for spec in registry.all():
        assert spec.key and spec.title and 1 <= spec.min_players <= spec.max_players


async def test_a_player_replaced_by_the_ai_takes_the_seat_back_by_joining(storage):
    host = await make_host(storage)
    table = await two_player_game(host, timeout=3600)
    seat = table.game.to_act()[0]
    user = user_of(table, seat)
    await storage.update_seat(table.id, seat, is_ai=True, name="Alice (AI)", missed=3)
    await host.idle()
    table, ok = await host.join(CHANNEL, user, "Alice")
    row = table.seat_row(seat)
    assert not row.is_ai and row.name == "Alice" and row.missed == 0 and ok
    assert table.seat_of(user) == seat
    with pytest.raises(UserError, match="already playing"):
        await host.join(CHANNEL, user, "Alice")
    with pytest.raises(UserError, match="already started"):
        await host.join(CHANNEL, CAROL, "Carol")
    await host.close()


async def test_abandoning_a_running_game_retires_its_controls(storage):
    host = await make_host(storage)
    table = await two_player_game(host)
    await host.abandon(CHANNEL, ALICE, is_admin=False)
    assert ("ended", table.id, f"Game #{table.id} (Enemy Lines) was abandoned.") in host.delivery.calls
    with pytest.raises(UserError, match="abandoned"):
        await host.choose(table.id, ALICE, table.version, (0,))
    await host.close()


async def test_a_menu_of_a_simultaneous_choice_survives_the_other_seats_choice(storage):
    """Two seats arrange their fleets in secret at the same time (Enemy in Sight, Advanced): when one
    seat acts, the other seat's open menu still works, because its own choices did not change."""
    from bot import menus

    host = await make_host(storage)
    await host.new_game(
        guild_id=GUILD,
        channel_id=CHANNEL,
        user_id=ALICE,
        user_name="Alice",
        game_key="enemy-in-sight",
        options={"variant": "advanced"},
        seed=4,
    )
    await host.join(CHANNEL, BOB, "Bob")
    table = await host.start(CHANNEL, ALICE)
    assert sorted(table.game.to_act()) == [0, 1]
    bob_menu = await host.menu(table.id, BOB)
    assert bob_menu.level.digest, "a simultaneous menu carries the digest of its tree"
    version = table.version
    alice_menu = await host.menu(table.id, ALICE)
    leaf = alice_menu.level.prefix + (alice_menu.level.entries[0][0],)
    root = menus.build_tree(table.game, 0)
    while menus.walk(root, leaf)[0].action is None:
        leaf = leaf + (0,)
    await host.choose(table.id, ALICE, version, leaf)
    assert (await host.table(table.id)).version == version + 1
    # Bob's menu from the older version still opens its next level.
    nxt = await host.choose(
        table.id,
        BOB,
        version,
        bob_menu.level.prefix + (bob_menu.level.entries[0][0],),
        digest=bob_menu.level.digest,
    )
    assert nxt.level is not None or nxt.applied
    # Without the digest (a turn-based menu) the same click is stale.
    with pytest.raises(StaleBoard):
        await host.choose(table.id, BOB, version, bob_menu.level.prefix + (bob_menu.level.entries[0][0],))
    await host.close()


async def _eis_table(host, seed=8):
    await host.new_game(
        guild_id=GUILD,
        channel_id=CHANNEL,
        user_id=ALICE,
        user_name="Alice",
        game_key="enemy-in-sight",
        seed=seed,
    )
    await host.join(CHANNEL, BOB, "Bob")
    return await host.start(CHANNEL, ALICE)


async def test_no_confirm_step(storage):
    """Enemy in Sight plays or discards a card at the click on its menu entry: no "Confirm" level."""
    from bot import menus

    host = await make_host(storage)
    table = await _eis_table(host)
    seat = table.game.to_act()[0]
    root = menus.build_tree(table.game, seat)
    leaf = next(
        p for p in _leaf_prefixes(root) if menus.walk(root, p)[0].action["type"] in ("play", "discard")
    )
    done = await host.choose(table.id, user_of(table, seat), table.version, leaf)
    assert done.level is None and done.applied
    assert (await host.table(table.id)).version > table.version
    await host.close()


async def test_an_old_confirm_button_is_out_of_date(storage):
    """A "✅ Confirm" button from before menus stopped asking is answered as out of date, not an error."""
    from bot import menus

    host = await make_host(storage)
    table = await _eis_table(host)
    seat = table.game.to_act()[0]
    root = menus.build_tree(table.game, seat)
    leaf = next(iter(_leaf_prefixes(root)))
    with pytest.raises(StaleBoard):
        await host.choose(table.id, user_of(table, seat), table.version, leaf + (menus.CONFIRM,))
    assert (await host.table(table.id)).version == table.version, "nothing was played"
    await host.close()


async def test_a_broadside_and_its_target_are_one_choice_and_two_log_entries(storage):
    """One menu entry plays the card and aims it; the log keeps both engine actions, so a replay
    of the log still equals the snapshot."""
    from bot import menus

    host = await make_host(storage)
    table = await _eis_table(host)
    for _ in range(60):
        table = await host.table(table.id)
        seat = table.game.to_act()[0]
        root = menus.build_tree(table.game, seat)
        chained = [p for p in _leaf_prefixes(root) if menus.walk(root, p)[0].then]
        if chained:
            break
        import random

        await host.act(
            table.id, user_of(table, seat), table.game.ai_action(seat, random.Random(table.version))
        )
    assert chained, "a broadside came up"
    node = menus.walk(root, chained[0])[0]
    assert node.then[0]["type"] == "shoot" and node.description
    done = await host.choose(table.id, user_of(table, seat), table.version, chained[0])
    assert " → " in done.applied
    after = await host.table(table.id)
    assert after.version == table.version + 2
    logged = await storage.actions(table.id)
    assert [row.action for row in logged[-2:]] == node.steps
    assert rebuild(after.row, logged).to_json() == after.row.state_json
    await host.close()


def _leaf_prefixes(node, prefix=()):
    if node.action is not None:
        yield prefix
    for i, child in enumerate(node.children):
        yield from _leaf_prefixes(child, prefix + (i,))


async def test_menus_and_played_labels_name_the_players(storage):
    host = await make_host(storage)
    table = await two_player_game(host)
    seat = table.game.to_act()[0]
    first = await host.menu(table.id, user_of(table, seat))
    labels = [label for _, label in first.level.entries]
    assert not any("⟨" in label for label in labels + [first.level.title])
    action = table.game.legal_actions(seat)[0]
    done = await host.act(table.id, user_of(table, seat), action)
    assert "⟨" not in done.applied and table.seat_row(seat).name in done.applied


async def test_delivery_texts_fill_names_and_say_ai_once(storage):
    from bot.delivery import DiscordDelivery, said

    host = await make_host(storage)
    await host.new_game(
        guild_id=GUILD,
        channel_id=CHANNEL,
        user_id=ALICE,
        user_name="Alice",
        game_key="enemy-lines",
        options={"quick-setup": True},
        seed=7,
    )
    await host.add_ai(CHANNEL, ALICE)
    table = await host.start(CHANNEL, ALICE)
    ai_seat = next(s.seat for s in table.seats if s.is_ai)
    ai_name = table.seat_row(ai_seat).name
    assert ai_name == "Nelson (AI, normal)"  # the lobby's default level, in its name
    assert said(table, f"{table.game.prompt(0)} ⟨{ai_seat}⟩").endswith(ai_name)
    delivery = DiscordDelivery(None, storage)
    if ai_seat in table.game.to_act():
        text = delivery.table_message.status_text(table, 0)
        assert "(AI) (AI)" not in text and "(AI, normal) (AI)" not in text and "is thinking" in text
    await host.close()
