"""The core's last English texts in the reader's language through the loopback Discord (issue 21): an
undo refused for a dice roll, its reason included, in Italian; a replay asked for by an Italian member,
its log file in Italian and its pictures captioned only where the font draws Italian, the text beside it
saying so; and in the pseudo-locale, no untransformed English in the log."""

from __future__ import annotations

import io
import re

from PIL import Image

from bot import ui
from bot.games.phrase import Phrase
from bot.i18n import PSEUDO, Speaker
from tests.e2e.test_replay_e2e import _file, _finished_game
from tests.e2e.test_undo_e2e import fire_in_everrain

ITALIAN_REFUSALS = (
    "Quella mossa non si può annullare: ha tirato i dadi.",
    "Quella mossa non si può annullare: ha fatto intervenire il caso (un tiro di dado, una pescata o un "
    "mescolamento).",
)


async def test_an_undo_refused_for_a_dice_roll_reads_whole_in_italian(driver):
    alice = driver.member("alice")
    alice.user.locale = "it"
    await fire_in_everrain(driver, alice)  # the channel's lobby: English
    moved = await driver.table()
    refused = await alice.slash("game undo", channel=driver.channel)
    if refused.pending or not refused.text:
        await refused.wait_for(lambda r: bool(r.text), timeout=10)
    assert refused.ephemeral and refused.text in ITALIAN_REFUSALS, refused.text
    assert (await driver.table()).version == moved.version


async def replay_post(member, message, game_id: int):
    shown = await member.click(message, ui.replay_id(game_id))
    assert not shown.failed
    await shown.wait_for(lambda r: any(m.attachments for m in r.messages), timeout=180)
    return next(m for m in shown.messages if m.attachments)


async def test_a_replay_asked_for_in_italian_has_an_italian_log(driver):
    bob, carol = driver.member("bob"), driver.member("carol")
    table = await _finished_game(driver)  # played through English menus
    bob.user.locale = carol.user.locale = "it"
    over = next(
        m for m in reversed(driver.public()) if ui.replay_id(table.id) in [b.custom_id for b in m.buttons]
    )
    # bob, a player: posted in the (English) channel, the log file in his Italian
    post = await replay_post(bob, over, table.id)
    assert not post.ephemeral and post.text.startswith(f"🎞️ **Replay of game #{table.id}**"), post.text
    log = _file(post, "-log.txt").data.decode()
    lines = log.splitlines()
    title = Speaker("it").say(Phrase("Enemy Lines"))
    assert lines[0] == f"Admiralty — {title}, partita #{table.id}", lines[0]
    assert (
        lines[1].startswith("Giocatori (nelle immagini ognuno è un distintivo")
        and "1 Blu cerchio" in lines[1]
    )
    assert "\nRisultato: vince " in log and "Result:" not in log and "⟨" not in log
    made_numbered = "The pictures are captioned with their move number only" in post.text
    img = Image.open(io.BytesIO(_file(post, ".gif").data))
    assert img.format == "GIF" and img.n_frames >= 2

    # carol, not a player: the replay is hers alone, all of it in Italian
    mine = await replay_post(carol, over, table.id)
    italian = Speaker("it")
    assert mine.ephemeral and mine.text.startswith(f"🎞️ **Replay della partita #{table.id}**"), mine.text
    assert italian.gettext(
        "Only the game's players post its replay in the channel; this one is for you."
    ) in (mine.text)
    note = italian.gettext(
        "The pictures are captioned with their move number only (12/80: move 12 of 80); the text file "
        "tells each move."
    )
    assert (note in mine.text) == made_numbered
    assert _file(mine, "-log.txt").data.decode() == log


async def test_a_replay_log_in_the_pseudo_locale_shows_no_english(driver):
    bob = driver.member("bob")
    table = await _finished_game(driver)
    bob.user.locale = PSEUDO
    over = next(
        m for m in reversed(driver.public()) if ui.replay_id(table.id) in [b.custom_id for b in m.buttons]
    )
    post = await replay_post(bob, over, table.id)
    log = _file(post, "-log.txt").data.decode()
    for name in table.names():
        log = log.replace(name, " ")
    left = re.findall(r"\b[A-Za-z]{2,}\b", re.sub(r"\b[A-Z]\d+\b", " ", log))
    assert not left, left[:20]
