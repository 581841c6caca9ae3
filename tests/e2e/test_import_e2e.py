"""/game import and the step-through through the loopback Discord: a finished game exported in one server
is imported in another (every move replayed), listed there as imported, stepped through privately with
◀ ▶ and "Go to move…" (spectator pictures only), exported again to the same file; a tampered file, a
foreign file and a file past the day's cap are refused privately with the reason."""

from __future__ import annotations

import io
import json

from PIL import Image

import rendering
from bot import imports, ui
from bot.games import registry
from tests.e2e.test_forged_input import assert_refused, plant
from tests.e2e.test_replay_e2e import MANAGE_GUILD, _file, _finished_game


def _manager(fd, guild, user):
    from tests.fakediscord.models import Role

    managers = Role(fd.snow(), "managers", MANAGE_GUILD)
    guild.roles[managers.id] = managers
    guild.members[user.id].roles.append(managers.id)


def _study_message(result):
    return next(m for m in result.messages if any(b.custom_id.startswith("adm:study:") for b in m.buttons))


def _attachment(message) -> bytes:
    (att,) = [a for a in message.attachments if a.filename.endswith(".png")]
    return att.data


def _png(message) -> Image.Image:
    return Image.open(io.BytesIO(_attachment(message)))


async def test_a_game_exported_in_one_server_is_imported_in_another_and_studied_move_by_move(driver):
    fd = driver.fd
    alice, bob, carol = driver.member("alice"), driver.member("bob"), driver.member("carol")
    table = await _finished_game(driver)
    exported = await alice.slash("game export", channel=driver.channel, id=table.id)
    data = _file(exported.message, ".json").data
    doc = json.loads(data)
    assert doc["origin"] == {"app": "Admiralty", "server": fd.guild.name} and doc["digest"]

    other = fd.add_guild("Other", channels=["other-games"])
    here = fd.channel("other-games")
    await fd.wait_for(lambda: driver.bot.get_guild(other.id) is not None, 10)
    done = await carol.slash("game import", channel=here, file=(f"game-{table.id}.json", data))
    assert not done.failed and done.ephemeral, done.text
    assert "Imported as game #" in done.text and "Every move was replayed" in done.text, done.text
    assert f"from Admiralty on {fd.guild.name}, game #{table.id}" in done.text
    new_id = int(done.text.split("Imported as game #")[1].split("*")[0])
    row = await driver.host.storage.get_game(new_id)
    assert row.guild_id == other.id and row.channel_id == here.id and row.status == "finished"
    assert row.state_json == table.row.state_json  # the same final position, replayed here

    # listed in that channel's history, marked imported; not rated (no member sat in it)
    listed = await bob.slash("game history", channel=here)
    assert f"`#{new_id}` **Enemy Lines**" in listed.text and "📥 imported" in listed.text, listed.text
    opened = await bob.select(listed.message, str(new_id), custom_id=ui.HISTORY_OPEN)
    assert "📥 Imported from Admiralty on" in opened.text and "(not rated)" in opened.text
    assert [b.label for b in opened.message.buttons] == ["Replay", "Study"]
    assert not await driver.host.storage.is_rated(new_id)
    assert new_id not in await driver.host.storage.unrated_games()  # a restart does not rate it either

    # the step-through: private, a picture per position, ◀ ▶ in place, "Go to move…"
    studied = await carol.click(done.message, ui.study_id(new_id))
    assert not studied.failed and studied.ephemeral
    msg = _study_message(studied)
    assert msg.ephemeral and "Study of game #" in msg.text and "Start ·" in msg.text, msg.text
    start = _png(msg)
    prev, nxt = msg.buttons[0], msg.buttons[1]
    assert (prev.label, prev.disabled, nxt.label, nxt.disabled) == ("◀", True, "▶", False)
    # the picture is the spectators' view of that position, nobody's hand
    spec = registry.get("enemy-lines")
    game = spec.new(2, doc["options"], doc["seed"])
    assert _attachment(msg) == rendering.render("enemy-lines", game.view(None), doc["players"])
    await carol.click(msg, ui.study_id(new_id, 1))
    assert "Move 1 of" in msg.text and "\n> Move 1: " in msg.text, msg.text
    first = doc["actions"][0]
    game.apply(first["seat"], first["action"])
    assert _attachment(msg) == rendering.render("enemy-lines", game.view(None), doc["players"])
    drawn = driver.bot.drawing.drawn
    await carol.click(msg, ui.study_id(new_id, 0))
    assert "Start ·" in msg.text and _png(msg).tobytes() == start.tobytes()
    assert driver.bot.drawing.drawn == drawn  # a position seen before is not drawn again
    (go,) = msg.selects
    assert (
        go.custom_id == ui.study_go_id(new_id)
        and go.labels[0] == "Start"
        and go.labels[-1] == "Final position"
    )
    await carol.select(msg, go.values[-1], custom_id=go.custom_id)
    assert "Final position ·" in msg.text and "Result: won by" in msg.text, msg.text
    assert msg.buttons[1].disabled  # ▶ at the end
    # from any move: /game study id move
    at = await bob.slash("game study", channel=here, id=new_id, move=3)
    assert "Move 3 of" in _study_message(at).text
    # the server's own finished games too
    own = await carol.slash("game study", channel=driver.channel, id=table.id, move=2)
    assert "Move 2 of" in _study_message(own).text and _study_message(own).ephemeral

    # export -> import -> export: the same file (a manager of the other server exports it)
    _manager(fd, other, alice)
    again = await alice.slash("game export", channel=here, id=new_id)
    assert _file(again.message, ".json").data == data

    # the replay of the imported game
    shown = await carol.click(done.message, ui.replay_id(new_id))
    await shown.wait_for(lambda r: any(m.attachments for m in r.messages), timeout=180)
    post = next(m for m in shown.messages if m.attachments)
    assert f"Replay of game #{new_id}" in post.text


async def test_a_tampered_or_foreign_file_is_refused_privately_with_the_reason(driver):
    alice, carol = driver.member("alice"), driver.member("carol")
    table = await _finished_game(driver, seed=7)
    exported = await alice.slash("game export", channel=driver.channel, id=table.id)
    doc = json.loads(_file(exported.message, ".json").data)
    storage = driver.host.storage
    before = await storage.history(table.row.guild_id, place=driver.channel.id)

    # a move changed (its digest dropped, so that the replay itself finds it)
    tampered = {k: v for k, v in doc.items() if k != "digest"}
    tampered["actions"] = [dict(a) for a in doc["actions"]]
    tampered["actions"][2] = {"seat": tampered["actions"][2]["seat"], "action": {"type": "teleport"}}
    refused = await carol.slash(
        "game import", channel=driver.channel, file=("x.json", json.dumps(tampered).encode())
    )
    assert_refused(refused, "Not imported", "Move 3 does not replay")
    # a byte changed in a name: the digest
    forged = json.dumps({**doc, "players": [doc["players"][0], "mallory"]}).encode()
    assert_refused(
        await carol.slash("game import", channel=driver.channel, file=("x.json", forged)), "digest"
    )
    # a foreign file: another bot's export, a picture
    foreign = json.dumps({"format": "chess-pgn", "moves": ["e4"]}).encode()
    assert_refused(
        await carol.slash("game import", channel=driver.channel, file=("x.json", foreign)),
        "not an Admiralty game export",
    )
    assert_refused(
        await carol.slash("game import", channel=driver.channel, file=("x.png", b"\x89PNG\r\n\x1a\n")),
        "not a JSON file",
    )
    assert await storage.history(table.row.guild_id, place=driver.channel.id) == before  # nothing stored

    # the day's cap of the server
    data = _file(exported.message, ".json").data
    guild = table.row.guild_id
    key = f"imports:{guild}:"
    from bot.storage.imports import import_day

    await storage.set_meta(key + import_day(__import__("time").time()), str(imports.IMPORTS_PER_DAY))
    capped = await carol.slash("game import", channel=driver.channel, file=("x.json", data))
    assert_refused(capped, f"imported {imports.IMPORTS_PER_DAY} games today")
    assert registry.get(doc["game"]).title == "Enemy Lines"

    # a step-through of a game of another server (a forged button) or not over is refused
    running = await storage.create_game(
        guild_id=guild + 1, channel_id=4242, game_key="enemy-lines", options={}, seed=1, host_id=1
    )
    forged = ui.study_id(running, 3)
    assert_refused(await carol.click(plant(driver.fd, driver.channel, forged), forged), "no game")
    assert_refused(await carol.slash("game study", channel=driver.channel, id=running), "no game")
