"""The table in the server's language through the loopback Discord (issue 21): on a server set to
Polish a game of Enemy Lines shows its table (title, seats, status and the game's prompt, the game's
words beside the picture, the log lines built from its events, the buttons, the alt text), its pings
and its end summary in Polish, while the Key answers an Italian member in Italian; and the same game in
the pseudo-locale leaves no untransformed English on the table and fits Discord's limits."""

from __future__ import annotations

import asyncio
import random
import re

import pytest

from bot.i18n import PSEUDO
from tests.e2e.test_i18n_e2e import english_left

TABLE_BUTTONS = ("adm:key:", "adm:tb:", "adm:follow:", "adm:again:", "adm:replay:", "adm:clk:more:")


async def settle(d, timeout: float = 15.0) -> None:
    """Driver.settle, which also waits for the end to be shown: the table shows the game's current move
    (its number, in any language) and its controls of the current version, or its end."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while True:
        table = await d.table()
        moves = await d.host.storage.count_moves(table.id)
        shown = re.compile(rf"#{table.id} · \S+ {moves}\b")

        def current(table=table, shown=shown):
            m = d.table_message()
            if m is None or not shown.search(m.text):
                return False
            if table.game.is_over:
                return "🏁" in m.text
            return not table.spec.public_controls or any(
                f":{table.version}:" in (b.custom_id or "") for b in m.buttons
            )

        try:
            await d.fd.wait_for(current, timeout=0.5)
            return
        except TimeoutError:
            if loop.time() > end:
                raise


async def play(d, moves: int, rng: random.Random) -> None:
    """``moves`` moves (or to the end) of the member to act, as the AI would choose, through the host
    (the menus' own language is another slice's)."""
    for _ in range(moves):
        table = await d.table()
        if table.game.is_over:
            return
        seat = table.human_to_act()[0]
        await d.host.act(table.id, table.seat_row(seat).user_id, table.game.ai_action(seat, rng))
        await settle(d)


async def start_two_members(d, game: str = "enemy-lines"):
    """Alice opens ``game`` (quick set-up), Bob joins, Alice starts it: by the lobby's buttons' ids
    (their labels are in the server's language)."""
    await d.open_join_start(game, quick_setup=True)
    await settle(d)
    return await d.table()


def table_buttons(message) -> list[str]:
    return [b.label or "" for b in message.buttons if (b.custom_id or "").startswith(TABLE_BUTTONS)]


async def test_a_polish_server_reads_the_table_pings_and_summary_in_polish(driver):
    d = driver
    alice, bob = d.member("alice"), d.member("bob")
    bob.user.locale = "it"
    await d.host.storage.set_guild_locale(d.fd.guild.id, "pl")
    table = await start_two_members(d)
    msg = d.table_message()
    assert msg.text.startswith(f"⚓ **Enemy Lines** · gra #{table.id} · ruch 0"), msg.text
    assert table_buttons(msg) == ["Legenda", "Plansza tekstem", "Obserwuj"]
    acting = table.names()[table.game.to_act()[0]]
    assert f"ruch: **{acting}** — Rusz jeden ze swoich okrętów" in msg.text, msg.text
    assert " pkt · 0/3 w liniach wroga" in msg.text and f"**Ruch: {acting}** · zostało" in msg.text
    assert msg.gallery_descriptions[0].startswith(f"Enemy Lines: ruch ma {acting}, zostało"), (
        msg.gallery_descriptions
    )
    ping = d.pings()[-1].content
    assert ping.startswith("<@") and f", twój ruch w **Enemy Lines** (gra #{table.id})" in ping, ping

    await play(d, 1, random.Random(3))
    msg = d.table_message()
    log = [line for line in msg.text.splitlines() if line.startswith("> ")]
    assert log and "-masztowiec gracza " in log[-1], log
    assert ("płynie na " in log[-1]) or ("obraca się wokół " in log[-1]), log

    # the Key is a private answer: in the language of the member who asks (bob's client is Italian)
    key = await bob.click(msg, f"adm:key:{table.id}")
    assert key.ephemeral and key.text.startswith("🗝️ **Enemy Lines: legenda dell'immagine**"), key.text
    assert "**Posti**" in key.text and "il cerchio blu sul tabellone" in key.text

    await play(d, 200, random.Random(4))
    assert (await d.table()).game.is_over
    msg = d.table_message()
    assert "🏁 **Koniec gry** — " in msg.text and "Wyniki końcowe: " in msg.text, msg.text
    assert "*Koniec gry: " not in msg.text and ("wygrywa" in msg.text or "remis" in msg.text)
    assert table_buttons(msg) == ["Legenda", "Plansza tekstem", "Zagraj ponownie", "Powtórka"]
    assert alice.id  # alice's client is English: nothing she reads here is hers alone


@pytest.mark.parametrize(("game", "moves"), [("enemy-lines", 400), ("warships", 40)])
async def test_the_table_in_the_pseudo_locale_shows_no_english_and_fits(driver, game, moves):
    """Enemy Lines to its end, Warships for its first forty moves (its end is far off)."""
    d = driver
    await d.host.storage.set_guild_locale(d.fd.guild.id, PSEUDO)
    table = await start_two_members(d, game)
    # the values filled in: names, and Warships' squares (B7) and unit letters (BB, xx)
    values = [*table.names(), "AI"]
    rng = random.Random(5)
    seen = 0
    for _ in range(moves):
        msg = d.table_message()
        shown = "\n".join(line for line in msg.text.splitlines() if not line.startswith("```"))
        shown = re.sub(r"\b([A-Z]{2}|[A-L][0-9]{1,2})\b", " ", shown)
        assert len(msg.text) <= 4000
        assert english_left(shown, values) == [], shown
        for description in msg.gallery_descriptions:
            assert len(description or "") <= 256 and english_left(description or "", values) == [], (
                description
            )
        for label in table_buttons(msg):
            assert english_left(label, values) == [] and len(label) <= 80, label
        seen += 1
        if (await d.table()).game.is_over:
            break
        await play(d, 1, rng)
    assert seen > 5 and ((await d.table()).game.is_over or game == "warships")
    for ping in d.pings():
        assert english_left(ping.content, values) == [], ping.content


async def test_a_polish_server_reads_manewry_morskie(driver):
    """Warships is "Manewry Morskie" in Polish: its table, its moves in the log, its alt text and its
    ping, on a server set to Polish."""
    d = driver
    await d.host.storage.set_guild_locale(d.fd.guild.id, "pl")
    game_id = await d.open_join_start("warships", quick_setup=True)
    await settle(d)
    msg = d.table_message()
    assert msg.text.startswith(f"⚓ **Manewry Morskie** · gra #{game_id} · ruch 0"), msg.text
    assert "Ruszasz się pierwszy: wyprowadź okręt z portu przez wyjście." in msg.text, msg.text
    assert "Niebieskie koła, port po prawej" in msg.text and "**Wyjścia:**" in msg.text
    assert msg.gallery_descriptions[0].startswith("Manewry Morskie (Niebieskie koła, port po prawej;")
    labels = [b.label for b in msg.buttons]
    assert "Moja flota" in labels and "Legenda" in labels, labels
    ping = d.pings()[-1].content
    assert f"twój ruch w **Manewry Morskie** (gra #{game_id})" in ping, ping

    await play(d, 4, random.Random(6))
    log = [line for line in d.table_message().text.splitlines() if line.startswith("> ")]
    assert any(" przesuwa jednostkę (okręt) " in line for line in log), log
