"""The table: one live message a game, pings only when a turn begins, DMs left alone, few REST calls."""

from __future__ import annotations

import asyncio
import random
import re

from bot.games import registry

MENTION = ("<@", "⏰ <@")


def global_limited(requests: list[tuple[str, int]]) -> list[str]:
    """The bot's REST calls that count against Discord's global rate limit: all but interaction
    callbacks and interaction webhooks (follow-ups, edits of the clicked message)."""
    return [
        r
        for r, _ in requests
        if not (r.startswith("POST /interactions/") and r.endswith("/callback")) and "/webhooks/" not in r
    ]


async def start_two_members(driver, game: str = "enemy-lines", **options):
    await driver.new_game("alice", game=game, **options)
    await driver.member("bob").click(driver.lobby_message(), "Join")
    await driver.member("alice").click(driver.lobby_message(), "Start")
    await driver.settle()
    return await driver.table()


async def play_to_the_end(driver, seed: int) -> int:
    rng = random.Random(seed)
    moves = 0
    for _ in range(400):
        table = await driver.table()
        if table.game.is_over:
            break
        await driver.play_ai_move(rng)
        moves += 1
    assert (await driver.table()).game.is_over
    assert await driver.game_over_announced()
    return moves


async def test_one_live_message_per_game(driver):
    await start_two_members(driver, quick_setup=True)
    table_msg = driver.table_message()
    assert table_msg is not None and not table_msg.content and not table_msg.embeds
    assert table_msg.attachment("board.png").data[:4] == b"\x89PNG"
    ids = {table_msg.id}
    rng = random.Random(21)
    for _ in range(400):
        table = await driver.table()
        if table.game.is_over:
            break
        await driver.play_ai_move(rng)
        ids.add(driver.table_message().id)
        live = [m for m in driver.public() if not m.ephemeral]
        pings = [m for m in live if m.content.startswith(MENTION)]
        assert len(pings) <= 1, [m.content for m in pings]
        assert len(live) <= 3, [m.text[:60] for m in live]  # lobby + table (+ the current ping)
    assert await driver.game_over_announced()
    await driver.host.idle()  # the last move was played from a private sub-menu: its publish may still run
    assert ids == {table_msg.id}, "the table is edited in place for the whole game"
    live = [m for m in driver.public() if not m.ephemeral]
    assert [m.id for m in live] == [driver.lobby_message_any().id, table_msg.id], [m.text[:60] for m in live]
    # Over: no game controls are left, only the Key (beside the title), the rematch and replay buttons.
    assert "Game over" in table_msg.text
    assert [b.label for b in table_msg.buttons] == ["Key", "Text board", "Play again", "Replay"]
    # Its log shows the last moves in words.
    assert "> " in table_msg.text


async def test_ping_only_when_your_turn_begins(driver):
    """Everrain: turns of several steps (orders) against an AI crewmate: one ping per turn of the
    member, none for the AI's turns nor for the steps within a turn."""
    table = await driver.play_everrain_with_an_ai_crewmate()
    alice = table.seat_of(driver.member("alice").id)
    # Replay the game: how many times did a turn of Alice's begin?
    row = table.row
    game = registry.get(row.game_key).new(players=len(table.seats), options=row.options, seed=row.seed)
    began = int(alice in game.to_act())
    steps = 0
    for action in await driver.host.storage.actions(table.id):
        was = alice in game.to_act()
        game.apply(action.seat, action.action)
        began += int(not was and alice in game.to_act() and not game.is_over)
        steps += action.seat == alice
    pings = driver.pings()
    assert steps > began, "the member's turns have several steps"
    assert len(pings) == began, (len(pings), began)
    assert all(f"<@{driver.member('alice').id}>" in m.content for m in pings), "never for an AI seat"
    assert all(m.deleted for m in pings), "a ping goes when its turn ends"


async def test_dm_menu_survives_another_seats_move(driver):
    """Warships' secret set-up: Bob opens a sub-menu in his DM; Alice acts in hers; Bob's DM is not
    touched (no edit under his cursor) and his next click still plays."""
    table = await start_two_members(driver, game="warships")
    assert sorted(table.game.to_act()) == [0, 1]
    alice, bob = driver.member("alice"), driver.member("bob")
    seat = {m.name: table.seat_of(m.id) for m in (alice, bob)}
    version = table.version
    for m in (alice, bob):
        await driver.fd.wait_for(
            lambda m=m: driver.dm_controls(m, version, seat[m.name]) is not None, timeout=10
        )

    def path(game, s):
        action = next(
            a for a in game.legal_actions(s) if a["type"] == "swap" and len(game.action_path(s, a)) > 1
        )
        return [label for _, label in game.action_path(s, action)]

    bob_labels = path(table.game, seat["bob"])
    dm = driver.dm_controls(bob, version, seat["bob"])
    opened = await driver.click_label(bob, dm, bob_labels[0])
    assert not opened.failed and opened.original.id == dm.id, "the sub-menu is shown in the DM itself"
    assert any(b.label == "◀ Back" for b in dm.buttons)
    seen = (dm.version, len(dm.edits))
    played = await driver.click_path(
        alice, driver.dm_controls(alice, version, seat["alice"]), path(table.game, seat["alice"])
    )
    assert "✅ Played" in played.text
    # "✅ Played" comes after the move was published (the table and every DM it changes).
    await driver.settle()
    assert (dm.version, len(dm.edits)) == seen and not dm.deleted, "Bob's DM was left alone"
    result = await driver.click_path(bob, dm, bob_labels[1:])
    assert "✅ Played" in result.text and "out of date" not in result.text, result.text
    assert (await driver.table()).version == version + 2


async def test_rest_calls_per_move_average_at_most_one(driver):
    """Moves are answered through the clicks' interactions (callback, edit of the table, ping and
    "Played" follow-ups): a whole Enemy Lines game makes at most one globally limited call a move."""
    await start_two_members(driver, quick_setup=True)
    before = len(driver.fd.requests)
    moves = await play_to_the_end(driver, seed=22)
    calls = global_limited(driver.fd.requests[before:])
    assert moves >= 10
    per_move = len(calls) / moves
    print(f"REST calls per move: {per_move:.2f} ({len(calls)} in {moves} moves): {sorted(set(calls))[:8]}")
    assert per_move <= 1.0, (per_move, calls[:20])


async def test_a_game_gets_its_own_thread_by_default_and_the_lobby_links_it(driver):
    """`/game new` without `thread:` plays in a new thread; the lobby stays in the channel, links the
    thread, and its buttons work there; the table lives in the thread, not in the channel."""
    alice, bob = driver.member("alice"), driver.member("bob")
    made = await alice.slash("game new", channel=driver.channel, game="enemy-lines", quick_setup=True)
    assert not made.failed and "Lobby opened" in made.text, made.text
    lobby = driver.lobby_message()
    assert lobby is not None and lobby.channel_id == driver.channel.id
    link = re.search(r"<#(\d+)>", lobby.content)
    assert link, lobby.content
    thread_id = int(link.group(1))
    row = await driver.host.storage.active_game(thread_id)
    assert row is not None and row.thread_id == thread_id and row.channel_id == driver.channel.id
    assert "joined" in (await bob.click(lobby, "Join")).text.lower()
    assert "started" in (await alice.click(driver.lobby_message(), "Start")).text
    await driver.fd.wait_for(
        lambda: any("· move" in m.text for m in driver.fd.channel_messages(thread_id)), timeout=10
    )
    assert not any("· move" in m.text for m in driver.fd.channel_messages(driver.channel)), (
        "the table is in the thread, not in the channel"
    )
    # A second game in the same channel gets a thread of its own.
    second = await bob.slash("game new", channel=driver.channel, game="enemy-lines")
    assert "Lobby opened" in second.text, second.text


async def test_a_publish_grouping_two_seats_actions_updates_the_table_and_both_dms(driver):
    """Moves committed while the one before is being shown are shown by one publish: the Discord
    delivery gets both seats (and their clicks) and shows each seat its own private news in its DM."""
    table = await start_two_members(driver, game="warships")
    alice, bob = driver.member("alice"), driver.member("bob")
    seat = {m.name: table.seat_of(m.id) for m in (alice, bob)}
    publisher = driver.host.publisher
    shown = await asyncio.wait_for(
        asyncio.gather(
            publisher.request(
                table.id, [{"text": "news for alice", "private_to": seat["alice"]}], actor=seat["alice"]
            ),
            publisher.request(
                table.id, [{"text": "news for bob", "private_to": seat["bob"]}], actor=seat["bob"]
            ),
        ),
        20,
    )
    assert shown == [True, True], "a publish covering two seats' actions was not delivered"
    for m, other in ((alice, "bob"), (bob, "alice")):
        texts = [d.text for d in m.dms() if not d.deleted]
        assert any(f"news for {m.name}" in t for t in texts), texts
        assert not any(f"news for {other}" in t for t in texts), "a seat saw another's private news"


async def test_a_sub_menu_opened_from_the_table_is_the_movers_alone(driver):
    """Enemy Lines (controls on the table): the mover's click on a ship opens its moves privately (an
    ephemeral message); the table, as everyone sees it, keeps its controls; the move takes as many
    clicks as before (the ship, then its move)."""
    table = await start_two_members(driver, quick_setup=True)
    seat = table.game.to_act()[0]
    mover = next(
        m for m in (driver.member("alice"), driver.member("bob")) if m.id == table.seat_row(seat).user_id
    )
    turn = driver.table_message()
    controls = [b.custom_id for b in turn.buttons] + [s.custom_id for s in turn.selects]
    shown = driver.fd.message(turn.id).version
    ship = next(b for b in turn.buttons if (b.custom_id or "").startswith("adm:b"))
    opened = await mover.click(turn, ship.custom_id)
    await opened.wait_for(lambda r: any(m.ephemeral for m in r.followups), timeout=10)
    (menu,) = [m for m in opened.followups if m.ephemeral]
    assert menu.buttons or menu.selects, menu.text
    assert ship.label.split(" ")[0] in menu.text or "›" in menu.text or "**" in menu.text
    now = driver.fd.message(turn.id)
    assert now.version == shown, "the table was not edited"
    assert [b.custom_id for b in now.buttons] + [s.custom_id for s in now.selects] == controls
    leaf = next((b for b in menu.buttons if b.custom_id.startswith("adm:b") and "Back" not in b.label), None)
    if leaf is not None:
        played = await mover.click(menu, leaf.custom_id)
    else:
        played = await mover.select(menu, menu.selects[0].values[0])
    await played.wait_for(lambda r: "✅ Played" in driver.fd.message(menu.id).text, timeout=10)
    assert (await driver.table()).version == table.version + 1, "two clicks: the ship, then its move"
