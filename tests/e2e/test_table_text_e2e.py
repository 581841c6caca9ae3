"""The words around the picture, through the loopback Discord: the table shows the game's own text
(``Game.view_text``) with names escaped, every picture arrives with its alt text (the table's media
gallery item, the DM and "My view" attachments), and the table's **Key** answers privately at once
without drawing, editing or writing anything. With the games' hooks left empty, the alt text is a
sentence of ours and the Key still says whose mark is whose."""

from __future__ import annotations

import hashlib
import json

from bot.games import fill_names, registry, who
from bot.games.base import Game
from bot.games.names import markdown_name
from tests.e2e.test_table_e2e import start_two_members

KEY_LINE = "⛵ a ship · ⚓ anchored"


def digest(view: dict) -> str:
    return hashlib.sha256(json.dumps(view, sort_keys=True, ensure_ascii=False).encode()).hexdigest()[:10]


def hooked(monkeypatch, key: str) -> None:
    """Hooks of a game as its own package would write them: words and a sentence built from the view
    (the view's digest tells which seat's view it was) with the seats' names filled in."""
    cls = registry.get(key).cls

    def view_text(view: dict, names: list[str] | None = None) -> str:
        return fill_names(f"**Fleets**: {who(0)} against {who(1)} · view {digest(view)}", names)

    def alt_text(view: dict, names: list[str] | None = None) -> str:
        return fill_names(f"{registry.get(key).title} board of view {digest(view)}; {who(0)} to move.", names)

    monkeypatch.setattr(cls, "view_text", staticmethod(view_text))
    monkeypatch.setattr(cls, "alt_text", staticmethod(alt_text))
    monkeypatch.setattr(cls, "key_text", staticmethod(lambda view: KEY_LINE))


async def test_the_table_shows_the_games_words_and_alt_text_and_its_key_answers_privately(
    driver, monkeypatch
):
    hooked(monkeypatch, "enemy-lines")
    alice, carol = driver.member("alice"), driver.member("carol")
    alice.user.display_name = "**Al**_ice_"
    table = await start_two_members(driver, quick_setup=True)
    msg = driver.table_message()
    public = digest(table.game.view(None))
    names, escaped = table.names(), [markdown_name(n) for n in table.names()]
    assert "**Al**_ice_" in names
    words = f"**Fleets**: {escaped[0]} against {escaped[1]} · view {public}"
    assert words in msg.text_displays, msg.text_displays
    assert msg.gallery_descriptions == [f"Enemy Lines board of view {public}; {names[0]} to move."]
    assert [b.label for b in msg.buttons][0] == "Key"

    edits, before = len(msg.edits), driver.fd.messages.copy()
    with driver.fd.count() as calls:
        shown = await carol.click(msg, f"adm:key:{table.id}")  # a spectator may read the key too
    assert not shown.failed and shown.ephemeral and shown.response_type == 4
    assert shown.text.startswith(f"🗝️ {KEY_LINE}\n\n**Seats**\n")
    assert f"🔵 **{escaped[0]}**" in shown.text and f"🟥 **{escaped[1]}**" in shown.text
    assert calls.global_limited == 0 and len(msg.edits) == edits, "a click on Key redraws nothing"
    assert [m for m in driver.fd.messages.values() if m.id not in before] == [shown.message]
    assert (await driver.table()).version == table.version


async def test_private_views_carry_the_games_words_and_alt_text(driver, monkeypatch):
    hooked(monkeypatch, "enemy-in-sight")
    alice, bob = driver.member("alice"), driver.member("bob")
    table = await start_two_members(driver, game="enemy-in-sight")
    bobs = table.seat_of(bob.id)
    await driver.fd.wait_for(lambda: any(m.attachments for m in bob.dms()), timeout=15)
    dm = next(m for m in reversed(bob.dms()) if m.attachments)
    table = await driver.table()
    own, names = digest(table.game.view(bobs)), table.names()
    assert dm.attachment("view.png").description == f"Enemy in Sight board of view {own}; {names[0]} to move."
    assert f"**Fleets**: {names[0]} against {names[1]} · view {own}" in dm.content

    mine = await alice.click(driver.table_message(), f"adm:v:{table.id}")
    await mine.wait_for(lambda r: any(m.attachments for m in r.messages), timeout=15)
    reply = next(m for m in mine.messages if m.attachments)
    alices = digest((await driver.table()).game.view(table.seat_of(alice.id)))
    assert (
        reply.attachment("view.png").description
        == f"Enemy in Sight board of view {alices}; {names[0]} to move."
    )
    assert f"view {alices}" in reply.content


async def test_without_the_games_hooks_the_alt_text_says_the_game_move_and_who_acts(driver, monkeypatch):
    for hook in ("view_text", "alt_text", "key_text"):  # Enemy Lines as a game without its own words
        monkeypatch.setattr(registry.get("enemy-lines").cls, hook, Game.__dict__[hook])
    table = await start_two_members(driver, quick_setup=True)
    msg = driver.table_message()
    acting = table.seat_row(table.game.to_act()[0]).name
    assert msg.gallery_descriptions == [f"Enemy Lines, move 0: {acting} to act."]
    shown = await driver.member("bob").click(msg, f"adm:key:{table.id}")
    assert not shown.failed and "**Seats**" in shown.text and f"🔵 **{table.names()[0]}**" in shown.text
    rules = await driver.member("bob").slash("game rules", channel=driver.channel, game="enemy-lines")
    await rules.wait_for(lambda r: len(r.messages) >= 2, timeout=10)
    summary, key = rules.messages
    assert summary.ephemeral and key.ephemeral and registry.get("enemy-lines").summary in summary.text
    assert key.text.startswith("🗝️ **Enemy Lines: the key to the picture**") and "🔵 **Blue**" in key.text


async def test_rules_show_the_games_own_key_whole_beside_its_summary(driver, monkeypatch):
    hooked(monkeypatch, "warships")
    spec = registry.get("warships")
    rules = await driver.member("bob").slash("game rules", channel=driver.channel, game="warships")
    await rules.wait_for(lambda r: len(r.messages) >= 2, timeout=10)
    summary, key = rules.messages
    assert summary.text.startswith(spec.summary[:1500])
    assert key.text.startswith(f"🗝️ {KEY_LINE}") and key.text.endswith(
        "🟥 **Red** — the red square on the board"
    )
