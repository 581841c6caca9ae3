"""The text board through the loopback Discord: the table's **Text board** button and ``/game board``
answer privately with the position in words, the spectators' view for a spectator and a player's own
view for a player, in a channel without Attach Files too; and no text the bot sends (table, DMs, the
summary, private answers) carries a seat's mark without the seat's name."""

from __future__ import annotations

import random
import re

from bot import layout
from bot.games.names import markdown_name
from bot.games.warships.board import board as warships_board
from tests.e2e.test_rest_budget_e2e import play_one_by_dm
from tests.e2e.test_table_e2e import play_to_the_end, start_two_members

SPECTATORS = "what everyone at the table sees"
OWN = "your own view"


async def all_pages(result):
    """The result once every page of its text board has arrived (the first says how many there are)."""
    await result.wait_for(lambda r: bool(r.messages) and "Last public moves" in r.text)
    return result


def lone_marks(text: str, names: list[str]) -> list[str]:
    """Every seat mark in ``text`` that is not followed by its seat's name (bold or not): a mark standing
    alone, its meaning carried by colour and shape only."""
    out = []
    for seat, mark in enumerate(layout.SEAT_MARKS[: len(names)]):
        for m in re.finditer(re.escape(mark), text):
            after = text[m.end() :].lstrip(" ").lstrip("*")
            if not (after.startswith(names[seat]) or after.startswith(markdown_name(names[seat]))):
                out.append(text[max(0, m.start() - 20) : m.end() + 30])
    return out


async def test_text_board_button_answers_a_spectator_and_a_player_privately(driver):
    table = await start_two_members(driver, "warships", quick_setup=True)
    assert await play_one_by_dm(driver, random.Random(3))
    table = await driver.table()
    msg = driver.table_message()
    assert "Text board" in [b.label for b in msg.buttons]
    edits = len(msg.edits)

    spectator = await all_pages(await driver.member("carol").click(msg, f"adm:tb:{table.id}"))
    assert not spectator.failed and spectator.ephemeral
    text = spectator.text
    assert SPECTATORS in text and "**Position:**" in text and "**Last public moves" in text
    b = warships_board()
    for unit in table.game.view(None)["units"]:
        named = b.name_of(unit["type"]) if unit["type"] else "unknown unit"
        assert f"{unit['sq']} {named}" in text
    # nothing hidden: no unit the spectators cannot identify is named
    hidden = [u for u in table.game.view(0)["units"] if u["type"] and u["owner"] == 0]
    shown = {u["sq"]: u["type"] for u in table.game.view(None)["units"]}
    for unit in hidden:
        if shown.get(unit["sq"]) is None:
            assert f"{unit['sq']} {b.name_of(unit['type'])}" not in text
    assert len(spectator.messages) == 2 and all(len(m.text) <= 2000 for m in spectator.messages)
    assert all(m.ephemeral for m in spectator.messages)

    seat = table.seat_of(driver.member("alice").id)
    player = await all_pages(await driver.member("alice").click(msg, f"adm:tb:{table.id}"))
    assert player.ephemeral and OWN in player.text
    for unit in table.game.view(seat)["units"]:
        if unit["owner"] == seat:
            assert f"{unit['sq']} {b.name_of(unit['type'])}" in player.text
    assert len(driver.table_message().edits) == edits, "the text board redraws nothing"
    assert not lone_marks(spectator.text + player.text, table.names())


async def test_game_board_command_gives_the_text_board_or_the_picture(driver):
    table = await start_two_members(driver, "enemy-lines", quick_setup=True)
    carol = driver.member("carol")
    words = await carol.slash("game board", channel=driver.channel)
    assert not words.failed and words.ephemeral and SPECTATORS in words.text
    assert "-ship on " in words.text and "Score so far" in words.text
    alice = await driver.member("alice").slash("game board", channel=driver.channel, text=True)
    assert OWN in alice.text
    picture = await carol.slash("game board", channel=driver.channel, text=False)
    assert picture.ephemeral and any(m.attachments for m in picture.messages)
    assert (await driver.table()).version == table.version


async def test_text_board_in_a_channel_without_attach_files(driver):
    driver.fd.deny_attach(driver.channel)
    table = await start_two_members(driver, "enemy-lines", quick_setup=True)
    msg = driver.table_message()
    assert not msg.attachments and "```" in msg.text  # the table's own grid for sighted players
    shown = await driver.member("carol").click(msg, "Text board")
    assert shown.ephemeral and SPECTATORS in shown.text and "```" not in shown.text
    command = await driver.member("bob").slash("game board", channel=driver.channel)
    assert OWN in command.text
    assert table.id


async def test_text_board_before_the_start_is_refused_clearly(driver):
    await driver.new_game("alice", game="enemy-lines")
    shown = await driver.member("carol").slash("game board", channel=driver.channel)
    assert shown.ephemeral and "not started" in shown.text


async def test_no_mark_stands_alone_in_the_warships_table_and_dms(driver):
    await start_two_members(driver, "warships", quick_setup=True)
    rng = random.Random(5)
    for _ in range(12):
        assert await play_one_by_dm(driver, rng)
    names = (await driver.table()).names()
    texts = [m.text for m in driver.fd.messages.values()]
    assert any("Lost:" in t for t in texts)
    lone = [x for t in texts for x in lone_marks(t, names)]
    assert not lone, lone


async def test_no_mark_stands_alone_through_a_whole_game_and_its_summary(driver):
    table = await start_two_members(driver, "enemy-lines", quick_setup=True)
    await play_to_the_end(driver, 7)
    texts = [m.text for m in driver.fd.messages.values()]
    lone = [x for t in texts for x in lone_marks(t, table.names())]
    assert not lone, lone


async def test_a_dm_makes_its_text_board_only_where_its_picture_does_not_go(driver, monkeypatch):
    # the text board is the picture's stand-in: a DM with its picture does not make it (a move's CPU)
    from bot.games.warships.game import WarshipsGame

    made = []
    real = WarshipsGame.text_view
    monkeypatch.setattr(
        WarshipsGame, "text_view", staticmethod(lambda *a, **k: made.append(1) or real(*a, **k))
    )
    await start_two_members(driver, "warships", quick_setup=True)
    rng = random.Random(5)
    assert await play_one_by_dm(driver, rng)
    assert made == []
    transport = driver.host.publisher.delivery.transport

    async def no_picture(table, seat, view=None, **_):
        return None

    monkeypatch.setattr(transport, "image", no_picture)  # a drawing that failed
    assert await play_one_by_dm(driver, rng)
    for name in ("alice", "bob"):  # the DMs drawn then carry the board as text, and no picture
        dm = [m for m in driver.member(name).dms() if not m.deleted and m.text.startswith("⚓")][-1]
        assert "```" in dm.text and "A  B  C" in dm.text and not dm.attachments, dm.text
