"""AI levels through the loopback Discord (issue 22): the host adds a Hard AI from the lobby's Add AI
(asked privately which level), plays it to the end; its name shows the level on the lobby, the table and
the summary, and its rating is stored for that name and level."""

from __future__ import annotations

import random

from bot.ai_seats import rating_key


async def test_a_hard_ai_added_in_the_lobby_plays_to_the_end_and_is_rated_at_its_level(driver):
    d = driver
    alice = d.member("alice")
    d.bot.thinking.iterations = 8  # a hard search, capped so the test stays quick and repeatable
    await d.new_game("alice", quick_setup=True)
    asked = await alice.click(d.lobby_message(), "Add AI")
    assert asked.ephemeral and asked.message is not None
    assert [(b.label, b.style) for b in asked.message.buttons] == [("Easy", 2), ("Normal", 1), ("Hard", 2)]
    added = await alice.click(asked.message, "Hard")
    assert added.ephemeral and "Nelson (AI, hard) takes a seat" in added.text, added.text
    assert "Nelson (AI, hard)" in d.lobby_message().text
    await alice.click(d.lobby_message(), "Start")
    table = await d.table()
    ai = next(s for s in table.seats if s.is_ai)
    assert (ai.name, ai.ai_level) == ("Nelson (AI, hard)", "hard")
    await d.host.idle()
    await d.settle()
    assert "Nelson (AI, hard)" in d.table_message().text, "the table names the AI with its level"
    table = await d.play_to_the_end(random.Random(4))
    assert await d.game_over_announced()
    summary = next(m.text for m in d.public() if "Game over" in m.text)
    assert "Nelson (AI, hard)" in summary, summary
    assert d.bot.thinking.thought > 0 and d.bot.thinking.fallbacks == 0
    storage, guild = d.host.storage, table.row.guild_id
    assert await storage.is_rated(table.id)
    (rated,) = await storage.player_stats(guild, rating_key(ai.name, "hard"))
    assert rated.player == "ai:Nelson:hard" and rated.name == "Nelson (AI, hard)" and rated.games == 1
    assert await storage.player_stats(guild, "ai:Nelson:normal") == []  # another level, another rating
    shown = await alice.slash("stats", channel=d.channel)
    assert "vs Nelson (AI, hard)" in shown.text, shown.text


async def test_the_level_question_speaks_the_hosts_language_and_others_are_refused(driver):
    d = driver
    alice, bob = d.member("alice"), d.member("bob")
    alice.user.locale = "pl"
    await d.new_game("alice", quick_setup=True)
    asked = await alice.click(d.lobby_message(), "Add AI")
    assert asked.text == "Jak silna ma być SI?"
    assert [b.label for b in asked.message.buttons] == ["Łatwy", "Normalny", "Trudny"]
    refused = await bob.click(d.lobby_message(), "Add AI")  # not the host: not even asked
    assert refused.ephemeral and "Only the host" in refused.text and not refused.message.buttons
    again = await alice.click(d.lobby_message(), "Add AI")  # asked twice, before either is answered
    added = await alice.click(asked.message, "Łatwy")
    # the question becomes its answer, its buttons gone: a second tap cannot add a second AI
    assert "Nelson (SI, łatwy)" in added.message.text and added.message.buttons == []
    table = await d.table()
    assert [(s.name, s.ai_level) for s in table.seats if s.is_ai] == [("Nelson (AI, easy)", "easy")]
    # the lobby is full now: the other question's late answer is refused and nothing changes
    late = await alice.click(again.message, "Trudny")
    assert late.ephemeral and "Nelson (AI, easy)" not in late.text
    assert len((await d.table()).seats) == 2
