"""Enemy Lines' own words reach the table: its alt text on the picture, its text beside it, its key."""

from __future__ import annotations

from bot.games import registry
from bot.games.names import markdown_name
from tests.e2e.test_table_e2e import start_two_members


async def test_the_table_carries_enemy_lines_words(driver):
    table = await start_two_members(driver, quick_setup=True)
    msg = driver.table_message()
    game = registry.get("enemy-lines").cls
    view, names = table.game.view(None), table.names()
    assert msg.gallery_descriptions == [game.alt_text(view, names)]
    assert msg.gallery_descriptions[0].startswith(f"Enemy Lines: {names[table.game.to_act()[0]]} to move")
    words = game.view_text(view, [markdown_name(n) for n in names])
    assert words and words in msg.text and "🔵 **" in words
    shown = await driver.member("bob").click(msg, f"adm:key:{table.id}")
    assert not shown.failed and "**Gold rim**" in shown.text and "**Seats**" in shown.text
