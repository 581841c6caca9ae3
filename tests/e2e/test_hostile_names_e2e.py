"""Hostile display names through the loopback Discord: a name is anything a user typed. It never
notifies anyone (a mention of another user, of a role, @everyone), never formats or links the text it
is shown in, and its invisible or text-reversing characters never reach a message. Only a turn's ping
and an undo request notify, and only the users they are for."""

from __future__ import annotations

import random

from bot.games.names import NAME_MAX, clean_name, markdown_name
from tests.e2e.test_stats_e2e import settle

RLO, ZWSP, ZWJ = "\u202e", "\u200b", "\u200d"


def bot_messages(driver):
    """Every message the bot sent anywhere (channel, threads, DMs), as created and as edited since."""
    fd = driver.fd
    return [m for m in fd.messages.values() if m.author_id == fd.bot_user.id]


def texts_of(message) -> list[str]:
    """What a message said, in every version it had."""
    now = [message.content, *message.text_displays]
    before = [e.get("content") or "" for e in message.edits]
    return [t for t in now + before if t]


async def test_hostile_names_ping_nobody_and_show_as_typed(driver):
    fd = driver.fd
    alice, bob, carol = driver.member("alice"), driver.member("bob"), driver.member("carol")
    role = fd.add_role("crew", members=["carol"])
    dave = fd.add_user("dave")  # joins the lobby and leaves it again
    hostile = {
        # mentions of everyone and of a role the spectator has: 32 characters
        "alice": f"@everyone<@&{role.id}>",
        # a mention of the spectator in bold, a text-reversing override and zero-width characters,
        # and longer than Discord's 32 characters
        "bob": f"**<@{carol.id}>**{RLO}b{ZWSP}o{ZWJ}b" + "~" * 40,
        # a masked link, emphasis, code
        "dave": "[x](https://e.vil) _it_ `c`",
    }
    for who, name in hostile.items():
        driver.member(who).user.display_name = name
    kept = {who: clean_name(name) for who, name in hostile.items()}
    assert kept["alice"] == hostile["alice"] and kept["dave"] == hostile["dave"]
    assert len(kept["bob"]) == NAME_MAX and RLO not in kept["bob"] and ZWSP not in kept["bob"]

    await driver.new_game("alice", game="enemy-lines", quick_setup=True)
    await dave.click(driver.lobby_message(), "Join")
    await dave.click(driver.lobby_message(), "Leave")
    await bob.click(driver.lobby_message(), "Join")
    await alice.click(driver.lobby_message(), "Start")
    await driver.settle()
    table = await driver.table()
    assert [s.name for s in table.seats] == [kept["alice"], kept["bob"]], "names are kept cleaned"
    rng = random.Random(5)
    for _ in range(4):
        await driver.play_ai_move(rng)
    confirm = (await bob.slash("game resign", channel=driver.channel)).message
    await bob.click(confirm, next(b for b in confirm.buttons if b.label == "Resign").custom_id)
    await driver.game_over_announced()
    stats = await alice.slash("stats", channel=driver.channel, member=bob)
    await settle(driver.host.storage, table.row.guild_id, [alice.id, bob.id])  # on the leaderboard
    board = await alice.slash("leaderboard", channel=driver.channel, game="enemy-lines")
    history = await carol.slash("game history", channel=driver.channel)

    # Nobody is notified but the players whose turn began, each by their own ping.
    assert {p.user_id for p in fd.pings} <= {alice.id, bob.id}, "a name notified someone"
    assert not fd.pings_for(carol), "the spectator was pinged"
    for m in bot_messages(driver):
        assert not m.mention_everyone and not m.mention_roles, m.text
        assert set(m.mentions) <= {alice.id, bob.id}, (m.mentions, m.text)
        if m.mentions:  # a ping: it lets through exactly the user it is for
            assert (
                m.allowed_mentions["parse"] == []
                and [int(u) for u in m.allowed_mentions["users"]] == m.mentions
            )
        elif not m.ephemeral:
            assert m.allowed_mentions is not None and not m.allowed_mentions.get("parse"), m.text

    # Each name is shown escaped (as typed, not formatted), never raw, and nothing invisible gets in.
    shown = [t for m in bot_messages(driver) for t in texts_of(m)]
    shown += [stats.text, board.text, history.text]
    for who in ("alice", "bob", "dave"):
        escaped = markdown_name(kept[who])
        assert any(escaped in t for t in shown), f"{who}'s name is never shown"
        for t in shown:
            assert kept[who] not in t.replace(escaped, ""), f"{who}'s name unescaped in {t!r}"
    assert markdown_name(kept["bob"]) in stats.text and markdown_name(kept["alice"]) in stats.text
    assert markdown_name(kept["alice"]) in board.text and markdown_name(kept["bob"]) in board.text
    assert markdown_name(kept["alice"]) in history.text, history.text
    for t in shown:
        assert RLO not in t and ZWJ not in t, t
        assert f"<@{carol.id}>" not in t.replace(f"\\<@{carol.id}>", ""), t
        assert "](https://e.vil)" not in t and "_it_" not in t, t
