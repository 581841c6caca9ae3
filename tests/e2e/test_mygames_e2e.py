"""/games through the loopback Discord: two servers, three members (and one with no game); the list from a
server channel, the bot's DM and a group DM (a user install), whose-turn order, links and timestamps; the
Next button round-robin with the menu where the game's controls work; /stats and /game rules outside a
server; hostile server and channel names shown escaped."""

from __future__ import annotations

import re
from collections import Counter

from bot.mygames import NO_GAMES
from cogs.mygames import NEXT_LABEL, NO_TURN, next_id, page_id
from tests.dbcount import RoundTrips
from tests.e2e.test_forged_input import plant
from tests.e2e.test_stats_e2e import _rated_game

EVIL_GUILD = "**Evil** @everyone <@&1> [x](https://e.vil)"
EVIL_CHANNEL = "sea_*|x|*"


async def _open(driver, host: str, joiner: str, channel, *, start: bool = True, **options) -> int:
    """A game of Enemy Lines opened by ``host`` in ``channel``, joined by ``joiner``, started: its id."""
    saved, driver.channel = driver.channel, channel
    try:
        await driver.new_game(host, quick_setup=True, **options)
        joined = await driver.member(joiner).click(driver.lobby_message(), "Join")
        assert not joined.failed, joined.text
        if start:
            started = await driver.member(host).click(driver.lobby_message(), "Start")
            assert not started.failed, started.text
            await driver.settle()
        row = await driver.host.storage.active_game(channel.id)
        return row.id
    finally:
        driver.channel = saved


async def _world(driver):
    """alice's games: g1 (first server, #games, 1h a turn) and g4 (second server, 2h a turn) where she is
    to move, g2 (second server) where carol is, and a lobby g3 (first server, #general)."""
    fd = driver.fd
    fd.add_guild(EVIL_GUILD, channels=(EVIL_CHANNEL, "harbour"))
    await fd.wait_for(lambda: driver.bot.get_guild(fd.guild_of(EVIL_CHANNEL).id) is not None, timeout=10)
    g1 = await _open(driver, "alice", "bob", fd.channel("games"), turn_timeout="1h")
    g2 = await _open(driver, "carol", "alice", fd.channel(EVIL_CHANNEL), turn_timeout="3h")
    g3 = await _open(driver, "bob", "alice", fd.channel("general"), start=False)
    g4 = await _open(driver, "alice", "carol", fd.channel("harbour"), turn_timeout="2h")
    for gid, channel, to_move in (
        (g1, "games", "alice"),
        (g2, EVIL_CHANNEL, "carol"),
        (g4, "harbour", "alice"),
    ):
        await _turn_of(driver, gid, fd.channel(channel), to_move)
    return g1, g2, g3, g4, driver.host.storage


async def _turn_of(driver, gid: int, channel, name: str) -> None:
    """Play moves in game ``gid`` (who goes first is drawn) until it is ``name``'s turn."""
    saved, driver.channel = driver.channel, channel
    try:
        for _ in range(10):
            table = await driver.host.table(gid)
            if table.game.to_act() == [table.seat_of(driver.member(name).id)]:
                return
            await driver.play_ai_move()
            await driver.settle()
        raise AssertionError(f"never {name}'s turn in game {gid}")
    finally:
        driver.channel = saved


def _controls(message) -> list[str]:
    return [c.custom_id or "" for c in (*message.buttons, *message.selects)]


async def _menu_of(result, gid: int) -> bool:
    """Whether a private menu of game ``gid`` (its move buttons or select) came with ``result``."""

    def has(r) -> bool:
        return any(c.startswith((f"adm:b:{gid}:", f"adm:s:{gid}:")) for m in r.messages for c in _controls(m))

    try:
        await result.wait_for(has, timeout=10)
    except TimeoutError:
        return False
    return True


def _order(text: str, ids) -> list[int]:
    """The game ids of ``ids`` in the order the text lists them."""
    return sorted(ids, key=lambda gid: text.index(f"#{gid} "))


async def _link(storage, gid: int, kind: str = "table") -> str:
    row = await storage.get_game(gid)
    channel_id, message_id = await storage.get_message(gid, kind)
    return f"https://discord.com/channels/{row.guild_id}/{channel_id}/{message_id}"


async def test_games_lists_every_server_with_whose_turn_links_and_deadlines(driver):
    g1, g2, g3, g4, storage = await _world(driver)
    alice = driver.member("alice")
    await driver.host.idle()
    with RoundTrips(storage) as rt:
        shown = await alice.slash("games", channel=driver.fd.channel("general"))
    assert not shown.failed and shown.ephemeral, shown.text
    assert rt.calls == Counter({"seated_games": 1}), rt.calls  # four games, two servers: one query
    text = shown.text
    assert "running, 1 in lobbies" in text and "**your turn in 2**" in text, text
    assert _order(text, (g1, g2, g3, g4)) == [
        g1,
        g4,
        g2,
        g3,
    ]  # her turns (nearest deadline first), others, lobby
    assert text.index("**Your turn**") < text.index(f"#{g1} ") < text.index("**Waiting for others**")
    assert text.index("**Waiting for others**") < text.index(f"#{g2} ") < text.index("**Lobbies you sit in**")
    for gid in (g1, g2, g4):
        assert f"[table]({await _link(storage, gid)})" in text
        deadline = (await storage.get_game(gid)).deadline
        assert f"<t:{int(deadline)}:R>" in text
    assert f"[lobby]({await _link(storage, g3, 'lobby')})" in text
    line_g2 = next(line for line in text.splitlines() if f"#{g2} " in line)
    assert "waiting for Carol" in line_g2
    # the hostile server and channel names, escaped: no bold, no mass mention, no role mention, no link
    assert "\\*\\*Evil\\*\\*" in text and "@\u200beveryone" in text and "\\<@&1>" in text
    assert "**Evil**" not in text and "@everyone" not in text and "](https://e.vil)" not in text
    assert "#sea\\_\\*\\|x\\|\\*" in text
    assert "**Fake Guild** › #games" in text
    # bob sees his own list: g1 waits for alice, his lobby g3
    bobs = await driver.member("bob").slash("games", channel=driver.fd.channel("games"))
    assert _order(bobs.text, (g1, g3)) == [g1, g3] and "none waits for you" in bobs.text
    assert not bobs.message.buttons  # no turn of his: no Next button, one page: no ◀ ▶


async def test_a_member_without_games_gets_a_friendly_line(driver):
    driver.fd.add_user("dave")
    shown = await driver.member("dave").slash("games", channel=driver.channel)
    assert not shown.failed and shown.ephemeral and shown.text == NO_GAMES
    assert not shown.message.buttons
    # a forged Next button, pressed by someone with no turn: told so, privately
    pressed = await driver.member("dave").click(plant(driver.fd, driver.channel, next_id(1)), next_id(1))
    assert not pressed.failed and pressed.ephemeral and pressed.text == NO_TURN


async def test_next_cycles_through_the_games_waiting_for_me_with_the_menu_where_it_works(driver):
    g1, g2, g3, g4, storage = await _world(driver)
    alice = driver.member("alice")
    shown = await alice.slash("games", channel=driver.fd.channel("games"))  # g1's channel
    [button] = shown.message.buttons
    assert button.label == NEXT_LABEL and button.custom_id == next_id(0)
    first = await alice.click(shown.message, NEXT_LABEL)
    assert not first.failed and first.ephemeral
    head = first.messages[0]
    assert f"#{g1} " in head.text and await _link(storage, g1) in head.text and "**your turn**" in head.text
    # in g1's channel its controls work: her menu comes with it
    assert await _menu_of(first, g1)
    second = await alice.click(head, NEXT_LABEL)
    head = second.messages[0]
    assert f"#{g4} " in head.text and await _link(storage, g4) in head.text
    # g4 plays in another server: the way in is its table's button, no menu here
    assert "Press **My view** under the table" in head.text, head.text
    assert not any(c.startswith(("adm:b:", "adm:s:")) for m in second.messages for c in _controls(m))
    third = await alice.click(head, NEXT_LABEL)
    assert f"#{g1} " in third.messages[0].text  # round-robin
    assert not any(f"#{gid} " in third.messages[0].text for gid in (g2, g3))


async def test_games_from_the_bots_dm_and_a_group_dm_with_the_menu_in_dms(driver):
    g1, g2, g3, g4, storage = await _world(driver)
    alice, bob = driver.member("alice"), driver.member("bob")
    alice.open_dm()
    shown = await alice.slash("games", channel="dm")
    assert not shown.failed and shown.ephemeral, shown.text
    assert _order(shown.text, (g1, g2, g3, g4)) == [g1, g4, g2, g3]
    for gid in (g1, g2, g4):  # links and timestamps as in a server
        row = await storage.get_game(gid)
        assert await _link(storage, gid) in shown.text and f"<t:{int(row.deadline)}:R>" in shown.text
    pressed = await alice.click(shown.message, NEXT_LABEL)
    assert f"#{g1} " in pressed.messages[0].text
    # in DMs a player's controls work: the menu of g1, privately
    assert await _menu_of(pressed, g1)
    again = await alice.click(pressed.messages[0], NEXT_LABEL)
    assert await _menu_of(again, g4)

    # a group DM: the command follows a user who installed the app; the answer is hers alone
    alice.install_app()
    group = driver.fd.group_dm(["alice", "bob"], name="crew")
    shown = await alice.slash("games", channel=group)
    assert not shown.failed and shown.ephemeral
    assert _order(shown.text, (g1, g2, g3, g4)) == [g1, g4, g2, g3]
    assert not bob.can_see(shown.message)


async def test_games_pages_past_one_message(driver):
    storage = driver.host.storage
    alice = driver.member("alice")
    guild = driver.fd.guild.id
    for n in range(23):  # lobbies straight in storage: 23 lines, three pages of ten
        gid = await storage.create_game(
            guild_id=guild,
            channel_id=70_000 + n,
            game_key="enemy-lines",
            options={},
            seed=n,
            host_id=alice.id,
        )
        await storage.add_seat(gid, user_id=alice.id, is_ai=False, name="Alice " + "x" * 30)
    shown = await alice.slash("games", channel=driver.channel)
    msg = shown.message
    assert "page 1 of 3" in msg.text and len(msg.text) <= 2000 and "\n1. " in msg.text
    back, forward = msg.buttons
    assert back.disabled and not forward.disabled and forward.custom_id == page_id(1)
    await alice.click(msg, "▶")
    msg = driver.fd.message(msg.id)
    assert "page 2 of 3" in msg.text and "\n11. " in msg.text and "**Lobbies you sit in**" in msg.text
    await alice.click(msg, "▶")
    msg = driver.fd.message(msg.id)
    assert "page 3 of 3" in msg.text and "\n23. " in msg.text and msg.buttons[1].disabled
    lines = [line for line in msg.text.splitlines() if re.match(r"\d+\. ", line)]
    assert len(lines) == 3


async def test_stats_and_rules_from_a_dm(driver):
    fd, storage = driver.fd, driver.host.storage
    alice, bob = driver.member("alice"), driver.member("bob")
    fd.add_guild(EVIL_GUILD, channels=(EVIL_CHANNEL,))
    second = fd.guild_of(EVIL_CHANNEL)
    await fd.wait_for(lambda: driver.bot.get_guild(second.id) is not None, timeout=10)
    hidden = fd.add_channel("staff")
    fd.set_overwrite(hidden, fd.guild.id, deny=1 << 10)  # @everyone may not view it
    games = fd.channel("games")
    await _rated_game(storage, fd.guild.id, games.id, (alice.id, "Alice"), (bob.id, "Bob"))
    await _rated_game(storage, fd.guild.id, hidden.id, (bob.id, "Bob"), (alice.id, "Alice"))
    await _rated_game(storage, second.id, fd.channel(EVIL_CHANNEL).id, (alice.id, "Alice"), (bob.id, "Bob"))
    ids = sorted(r[0] for r in await storage._fetchall("SELECT id FROM games ORDER BY id"))
    in_games, in_staff, in_second = ids

    alice.open_dm()
    shown = await alice.slash("stats", channel="dm")
    assert not shown.failed and shown.ephemeral, shown.text
    assert (
        "__Fake Guild__" in shown.text and "\\*\\*Evil\\*\\*" in shown.text and "**Evil**" not in shown.text
    )
    assert shown.text.count("2 played: 1 won, 1 lost") == 1 and "1 played: 1 won" in shown.text
    assert f"#{in_games}:" in shown.text and f"#{in_second}:" in shown.text
    assert f"#{in_staff}:" not in shown.text  # a game of a channel she cannot see: not listed

    rules = await alice.slash("game rules", channel="dm", game="enemy-lines")
    assert not rules.failed and "behind the enemy lines" in rules.text and "**Options**" in rules.text
    await rules.wait_for(lambda r: len(r.messages) == 2)  # and the key to its pictures
    in_server = await alice.slash("game rules", channel=driver.channel, game="enemy-lines")
    await in_server.wait_for(lambda r: len(r.messages) == 2)
    assert [m.text for m in in_server.messages] == [m.text for m in rules.messages]  # the same text
    alice.install_app()
    group = fd.group_dm(["alice", "bob"], name="crew")
    grouped = await alice.slash("stats", channel=group)
    assert grouped.ephemeral and f"#{in_games}:" in grouped.text and not bob.can_see(grouped.message)
    # hosting needs the bot in the server: not from a DM
    refused = await alice.slash("game new", channel="dm", game="enemy-lines")
    assert "server channels" in refused.text


async def test_in_a_server_without_the_bot_games_answers_and_hosting_is_refused(driver):
    from cogs.game import NOT_IN_SERVER

    fd = driver.fd
    g1 = await _open(driver, "alice", "bob", fd.channel("games"))
    fd.add_guild("Elsewhere", channels=("lounge",), bot=False)
    alice = driver.member("alice")
    alice.install_app()
    shown = await alice.slash("games", channel=fd.channel("lounge"))
    assert not shown.failed and shown.ephemeral and f"#{g1} " in shown.text, shown.text
    refused = await alice.slash("game new", channel=fd.channel("lounge"), game="enemy-lines")
    assert refused.ephemeral and refused.text == NOT_IN_SERVER
    assert (
        fd.channel_messages("lounge") == []
        and await driver.host.storage.active_game(fd.channel("lounge").id) is None
    )
