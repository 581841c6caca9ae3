"""An AI seat's level in the reader's language through the loopback Discord (issue 21): on an Italian
server the table's seat line reads "Nelson (IA, difficile)", while the stored name (what ratings and
logs key on) stays "Nelson (AI, hard)". (Names filled into the game's own texts and log lines still
show the stored name.)"""

from __future__ import annotations


async def test_the_tables_seat_line_says_an_ais_level_in_the_servers_language(driver):
    d = driver
    alice = d.member("alice")
    await d.host.storage.set_guild_locale(d.fd.guild.id, "it")  # as /admiralty language sets it
    await d.new_game("alice", quick_setup=True)
    added = await alice.slash("game add-ai", channel=d.channel, level="hard")
    assert not added.failed, added.text
    await alice.click(d.lobby_message(), "Avvia")
    table = await d.table()
    (ai,) = [s for s in table.seats if s.is_ai]
    assert (ai.name, ai.ai_level) == ("Nelson (AI, hard)", "hard")
    await d.host.idle()
    await d.settle()
    text = d.table_message().text
    seat_lines = [line for line in text.splitlines() if line.startswith(("🔵 ", "🟥 "))]
    assert "🟥 **Nelson (IA, difficile)** · 0" in seat_lines, text
