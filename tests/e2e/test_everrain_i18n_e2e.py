"""The Everrain in the readers' languages through the loopback Discord (issue 21): a game played in
Italian (the server and both members' clients), by the menus of each captain's DMs, shows its table (the
words beside the picture, the log lines built from its events, the last enemy's activation, the alt
text, the table's own controls and buttons), each captain's ship board DM and the private answers in
Italian; and the same game in the pseudo-locale leaves no untransformed English on the table, the menus,
the DMs and the answers, and fits Discord's limits."""

from __future__ import annotations

import random
import re

from bot.i18n import PSEUDO
from tests.e2e.test_i18n_e2e import answer, english_left

ENGLISH_CONTROLS = ("Navigation", "Crew", "End turn", "Artillery", "Explore", "My ship", "Key", "Follow")


async def start_everrain(d):
    """Alice opens a short Everrain, Bob joins, Alice starts it: by the lobby's buttons' ids (their labels
    are in the server's language)."""
    await d.open_join_start("everrain", length="short")
    await d.settle()
    return await d.table()


async def play_by_dms(d, rng: random.Random):
    """The captain to act plays the AI's choice through the menu of their DMs (in their language): the
    answer to the last click."""
    table = await d.table()
    seat = table.human_to_act()[0]
    member = next(m for m in (d.member("alice"), d.member("bob")) if m.id == table.seat_row(seat).user_id)
    _action, result = await d.play_by_dm(member, seat, rng)
    await d.host.idle()
    await d.settle()
    return result


def alts(message) -> list[str]:
    """The alt texts of a message's pictures: its gallery's (the table) and its attachments' (a DM)."""
    return [
        *(d or "" for d in message.gallery_descriptions),
        *(a.description or "" for a in message.attachments),
    ]


def labels(message) -> list[str]:
    """What a message's controls say: its buttons, its selects' placeholders, options and descriptions."""
    said = [b.label or "" for b in message.buttons]
    for select in message.selects:
        said.append(select.placeholder or "")
        said += [o.label for o in select.options] + [o.description or "" for o in select.options]
    return said


async def test_an_everrain_game_in_italian(driver):
    d = driver
    await d.host.storage.set_guild_locale(d.fd.guild.id, "it")
    for name in ("alice", "bob"):
        d.member(name).user.locale = "it"
    table = await start_everrain(d)
    msg = d.table_message()
    assert msg.text.startswith(f"⚓ **The Everrain** · partita n. {table.id} · mossa 0"), msg.text
    lines = msg.text.splitlines()
    assert "**Round 1** · tocca a **1** Alice (3 ordini)" in lines, lines
    assert any(line.startswith("Agenda 0/") and " · Scoperta Nemica 0/" in line for line in lines), lines
    assert (
        "Navi: **1** Alice in porto, 10/10 nodi, 0 indizi · **2** Bob in porto, 10/10 nodi, 0 indizi" in lines
    )
    assert any(line.startswith("Nemici: **a** ") for line in lines), lines
    assert msg.gallery_descriptions[0].startswith(
        "The Everrain, Lo Stretto Piovoso, round 1: tocca alla nave 1 di Alice;"
    )
    # the table's own controls (the captain to act's first orders) and buttons, in the server's language
    shown = labels(msg)
    assert "La mia nave" in shown and "Legenda" in shown, shown
    assert any(label.startswith("Navigazione (nuovo ordine: ") for label in shown), shown
    assert not [label for label in shown if label.startswith(ENGLISH_CONTROLS)], shown
    dm = next(m for m in reversed(d.member("alice").dms()) if "**La tua nave (1)**" in m.text)
    assert "Equipaggio: " in dm.text and "Nessun nodo distrutto" in dm.text, dm.text
    assert alts(dm) and alts(dm)[0].endswith("la tua nave: 10 nodi su 10 intatti."), alts(dm)

    rng = random.Random(8)
    answers = []
    for _ in range(30):
        answers.append((await play_by_dms(d, rng)).text)
        if "Ultimo nemico: **" in d.table_message().text or (await d.table()).game.is_over:
            break
    # each move's answer is the DM redrawn, saying it was played, in Italian
    assert answers and all("\n✅ Giocato: " in a for a in answers), answers
    msg = d.table_message()
    last = next(line for line in msg.text.splitlines() if line.startswith("Ultimo nemico: **"))
    assert " ha tirato " in last and re.search(
        r"\d (Movimento|Movimenti|Danno|Danni|Presagio|Presagi)\b", last
    ), last
    log = [line[2:] for line in msg.text.splitlines() if line.startswith("> ")]
    assert any("nave di Alice" in line or "nave di Bob" in line for line in log), log
    assert any(line.startswith(("Inizia il round 2", "L'Agenda Nemica avanza di ")) for line in log), log
    assert not [line for line in log if re.search(r"\b(ship|sails|fires|rolls|Agenda advances)\b", line)], log


async def test_an_everrain_game_in_the_pseudo_locale_shows_no_english_and_fits(driver):
    d = driver
    await d.host.storage.set_guild_locale(d.fd.guild.id, PSEUDO)
    for name in ("alice", "bob"):
        d.member(name).user.locale = PSEUDO
    table = await start_everrain(d)
    values = [*table.names(), "AI"]

    def check(text: str, limit: int) -> None:
        assert len(text) <= limit, (len(text), text)
        # hex labels (B7), enemy tags (**a**, (a)) and the text board's code block are the map's marks
        words = "\n".join(line for line in text.splitlines() if not line.startswith("```"))
        words = re.sub(r"\b[A-L]\d{1,2}\b|\*\*[a-z]\*\*|\([a-z]\)", " ", words)
        assert english_left(words, values) == [], text

    rng = random.Random(9)
    seen = 0
    for _ in range(25):
        msg = d.table_message()
        check(msg.text, 4000)
        for description in alts(msg):
            check(description, 256)
        for label in labels(msg):
            check(label, 100)
        for member in (d.member("alice"), d.member("bob")):
            for dm in member.dms()[-4:]:
                if dm.text.startswith("You joined **"):
                    continue  # the lobby's DM that checks DMs reach them: the lobby's words (i18n10)
                check(dm.text, 4000)
                for description in alts(dm):
                    check(description, 256)
                for label in labels(dm):
                    check(label, 100)
        if (await d.table()).game.is_over:
            break
        answer = await play_by_dms(d, rng)  # the DM redrawn (saying the move was played), and any word after
        check(answer.original.text, 2000)
        check("\n".join(m.text for m in answer.messages), 2000)
        seen += 1
    assert seen > 10
    assert "Ŀàšţ éñéɱý" in d.table_message().text or seen == 25


async def test_the_key_says_what_each_mark_of_the_picture_means_in_italian(driver):
    """The picture draws no words (issues 19 and 21): /game rules and the table's Key, in Italian, say
    what its symbols mean: the round's hourglass, the turn's gold ring, each track's symbol, the ship
    board's numbered nodes and the crew's pips."""
    d = driver
    await d.host.storage.set_guild_locale(d.fd.guild.id, "it")
    for name in ("alice", "bob", "carol"):
        d.member(name).user.locale = "it"
    shown = await answer(d.member("carol"), "game rules", channel=d.channel, game="everrain")
    await shown.wait_for(lambda r: any("🗝️" in m.text for m in r.messages), timeout=10)
    rules_key = shown.messages[-1].text
    for mark in (
        "clessidra: il round",
        "occhio viola: l'Agenda",
        "0 Cannone di prua",
        "3 pallini: Nostromo",
    ):
        assert mark in rules_key, rules_key
    await start_everrain(d)
    key = await d.member("carol").click(d.table_message(), "Legenda")
    if key.pending or not key.text:
        await key.wait_for(lambda r: bool(r.text), timeout=10)
    assert key.ephemeral and "lente d'ingrandimento dorata: Scoperta" in key.text, key.text
    assert "distintivo in un anello dorato: il posto di turno" in key.text, key.text
