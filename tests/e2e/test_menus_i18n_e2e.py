"""The menus, the text board, ``/game rules`` and the Key in the reader's language through the loopback
Discord (issue 21): a mover whose client is in Polish gets the private sub-menu opened from the table, its
Back button and the "Played" answer in Polish; an Italian member reads /game rules of every game and the
Key in Italian; the text board comes in the asker's language; and the pseudo-locale run of these
surfaces shows no untransformed English of theirs and fits Discord's limits."""

from __future__ import annotations

import random

from bot.games import registry
from bot.i18n import PSEUDO
from tests.e2e.test_i18n_e2e import answer, english_left
from tests.e2e.test_table_e2e import start_two_members


async def open_sub_menu(driver, table):
    """The mover clicks a ship on the table: its moves open privately. (mover, the private menu)."""
    seat = table.game.to_act()[0]
    mover = next(
        m for m in (driver.member("alice"), driver.member("bob")) if m.id == table.seat_row(seat).user_id
    )
    turn = driver.table_message()
    ship = next(b for b in turn.buttons if (b.custom_id or "").startswith("adm:b"))
    opened = await mover.click(turn, ship.custom_id)
    await opened.wait_for(lambda r: any(m.ephemeral for m in r.followups), timeout=10)
    (menu,) = [m for m in opened.followups if m.ephemeral]
    return mover, menu


async def play_from(driver, mover, menu):
    """The mover picks the first move of the private menu; the menu message once it says so."""
    leaf = next((b for b in menu.buttons if b.custom_id.startswith("adm:b") and "◀" not in b.label), None)
    if leaf is not None:
        played = await mover.click(menu, leaf.custom_id)
    else:
        played = await mover.select(menu, menu.selects[0].values[0])
    await played.wait_for(lambda r: "✅" in driver.fd.message(menu.id).text, timeout=10)
    return driver.fd.message(menu.id)


async def test_a_polish_mover_gets_the_sub_menu_and_the_played_answer_in_polish(driver):
    for name in ("alice", "bob"):
        driver.member(name).user.locale = "pl"
    table = await start_two_members(driver, quick_setup=True)
    mover, menu = await open_sub_menu(driver, table)
    labels = [b.label for b in menu.buttons]
    assert "◀ Wstecz" in labels and "◀ Back" not in labels, labels
    shown = await play_from(driver, mover, menu)
    assert shown.text.startswith("✅ Zagrano: "), shown.text
    assert (await driver.table()).version == table.version + 1


async def test_an_italian_member_reads_the_rules_and_the_key_in_italian(driver):
    carol = driver.member("carol")
    carol.user.locale = "it"
    for key in registry.keys():
        spec = registry.get(key)
        shown = await answer(carol, "game rules", channel=driver.channel, game=key)
        await shown.wait_for(lambda r: any("🗝️" in m.text for m in r.messages), timeout=10)
        texts = [m.text for m in shown.messages]
        assert all(m.ephemeral and 0 < len(m.text) <= 2000 for m in shown.messages)
        rules, key_message = "\n".join(texts[:-1]), texts[-1]
        if spec.options:
            assert f"**Opzioni** (`/game new {key} options:…`)" in rules, rules
        # the seat colours named in Italian too (not "Blue")
        assert "**Posti**" in key_message and "🔵 **Blu** — il cerchio blu sul tabellone" in key_message
    enemy_in_sight = "\n".join(
        m.text
        for m in (await answer(carol, "game rules", channel=driver.channel, game="enemy-in-sight")).messages
    )
    assert "**Carte rosse:** Sopravvento, Incendio, Ammainare bandiera" in enemy_in_sight

    await start_two_members(driver, quick_setup=True)
    key = await carol.click(driver.table_message(), "Key")
    if key.pending or not key.text:
        await key.wait_for(lambda r: bool(r.text), timeout=10)
    assert key.ephemeral and "**Posti**" in key.text and "— il cerchio blu sul tabellone" in key.text


async def test_the_text_board_in_the_askers_language(driver):
    await start_two_members(driver, quick_setup=True)
    carol, alice = driver.member("carol"), driver.member("alice")
    carol.user.locale, alice.user.locale = "pl", "it"
    table = await driver.table()
    spectator = await answer(carol, "game board", channel=driver.channel)
    text = spectator.text
    assert text.startswith(f"📜 **Plansza tekstowa: Enemy Lines**, gra #{table.id}, ruch "), text
    assert "to, co widzą wszyscy przy stole" in text and "**Miejsca:**" in text and "**Pozycja:**" in text
    assert "- 🔵 Alice: niebieskie koło" in text and "**Ostatnie jawne ruchy, od najstarszego:**" in text
    player = await answer(alice, "game board", channel=driver.channel)
    assert "la tua vista, come 🔵 Alice" in player.text or "la tua vista, come 🟥 Alice" in player.text
    assert "**Ora:** tocca a " in player.text


async def test_menus_rules_key_and_text_board_in_the_pseudo_locale_show_no_english_and_fit(driver):
    d = driver
    for name in ("alice", "bob", "carol"):
        d.member(name).user.locale = PSEUDO
    carol = d.member("carol")
    values = ["Alice", "Bob", "Carol", "Enemy Lines", "Enemy in Sight", "The Everrain", "Warships"]
    values += ["BB", "CR", "DD", "SS", "ES", "MS", "MI", "LS", "VP", "Everrain"]  # unit marks, names
    values += ["Blue", "Red", "Green", "Yellow", "Pink", "Sky"]  # seats without players: their colours

    answers = []
    for key in registry.keys():
        spec = registry.get(key)
        shown = await answer(carol, "game rules", channel=d.channel, game=key)
        await shown.wait_for(lambda r: any("🗝️" in m.text for m in r.messages), timeout=10)
        names = values + [
            key,
            *(o.name for o in spec.options),
            *(str(c) for o in spec.options for c in o.choices),
        ]
        rules = shown.messages[:-1]  # the key's own words are each game's (Enemy Lines': not this slice)
        for message in rules:
            assert message.ephemeral and len(message.text) <= 2000
            assert english_left(message.text, names) == [], message.text
        key_message = shown.messages[-1].text
        seats = key_message[key_message.index("\n\n") :]
        assert len(key_message) <= 2000 and english_left(seats, values) == [], seats

    table = await start_two_members(d, quick_setup=True)
    board = await answer(carol, "game board", channel=d.channel)
    lines = board.text.splitlines()
    ours = [lines[0], *(line for line in lines if line.startswith("**") or line.startswith("- 🔵"))]
    # the position's lines are the game's (Enemy Lines: not this slice); the text board's own are checked
    for line in ours:
        assert english_left(line, values) == [], line
    answers.append(board)

    mover, menu = await open_sub_menu(d, table)
    for button in menu.buttons:
        assert 0 < len(button.label or "") <= 80
    back = [b.label for b in menu.buttons if (b.label or "").startswith("◀")]
    assert back and english_left(back[0], values) == [], back
    shown = await play_from(d, mover, menu)
    played = shown.text.split(":", 1)[0]
    assert played.startswith("✅") and english_left(played, values) == [], shown.text


async def test_each_player_gets_their_dms_and_the_menus_in_them_in_their_language(driver):
    d = driver
    alice, bob = d.member("alice"), d.member("bob")
    alice.user.locale, bob.user.locale = "pl", "it"  # remembered when they open and join the game
    table = await start_two_members(d, "warships", quick_setup=True)
    await d.settle()
    seat = table.game.to_act()[0]
    mover = alice if table.seat_row(seat).user_id == alice.id else bob
    other = bob if mover is alice else alice
    header = {alice: f"· gra #{table.id} · ruch ", bob: f"· partita #{table.id} · mossa "}
    for member in (alice, bob):
        assert any(header[member] in m.text for m in member.dms()), [m.text for m in member.dms()]
    dm = d.dm_controls(mover, table.version, seat)
    assert dm is not None and ("**Twoja tura** — " in dm.text or "**Tocca a te** — " in dm.text), dm.text
    _, played = await d.play_by_dm(mover, seat, random.Random(2))
    said = {alice: "✅ Zagrano: ", bob: "✅ Giocato: "}[mover]
    # the DM redrawn through the click says so in the mover's language (the driver waits for an English
    # DM's header: here the answer is waited for itself)
    await played.wait_for(lambda r: r.updated and f"\n{said}" in r.original.text, timeout=10)
    assert not played.followups
    assert not any(header[mover] in m.text for m in other.dms())
