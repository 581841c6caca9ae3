"""/game history, Replay and Export through the loopback Discord: a finished game is listed, opened,
replayed (a GIF under 10 MiB and the log as a text file) and exported; the export draws the same game
again offline (`python -m bot replay`); games not over, of another server and forged ids are refused."""

from __future__ import annotations

import io
import json
import random

from PIL import Image

from bot import ui
from bot.__main__ import main
from bot.games import registry
from bot.games.names import fill_names, markdown_name
from tests.e2e.test_forged_input import assert_refused, plant

MANAGE_GUILD = 1 << 5


async def _finished_game(driver, seed: int = 5):
    alice, bob = driver.member("alice"), driver.member("bob")
    await driver.new_game("alice", quick_setup=True)
    await bob.click(driver.lobby_message(), "Join")
    await alice.click(driver.lobby_message(), "Start")
    await driver.settle()
    rng = random.Random(seed)
    for _ in range(400):
        if (await driver.table()).game.is_over:
            break
        await driver.play_ai_move(rng)
    await driver.game_over_announced()
    await driver.host.idle()
    return await driver.table()


async def _stored_finished_game(storage, guild: int, channel: int, user_id: int) -> int:
    """A finished Enemy Lines game of ``user_id`` against an AI, opened in ``channel`` (its own thread),
    written straight to storage; its id."""
    gid = await storage.create_game(
        guild_id=guild,
        channel_id=channel,
        thread_id=channel + 1,
        game_key="enemy-lines",
        options={},
        seed=1,
        host_id=user_id,
    )
    await storage.add_seat(gid, user_id=user_id, is_ai=False, name="Alice")
    await storage.add_seat(gid, user_id=None, is_ai=True, name="Nelson (AI)")
    await storage.start_game(gid, registry.get("enemy-lines").new(2, {}, seed=1).to_json())
    await storage.set_status(gid, "finished", result={"winners": [1]})
    return gid


def _file(message, suffix: str):
    return next(a for a in message.attachments if a.filename.endswith(suffix))


async def test_history_lists_a_finished_game_then_replay_and_export_round_trip(driver, tmp_path):
    alice, bob, carol = driver.member("alice"), driver.member("bob"), driver.member("carol")
    table = await _finished_game(driver)
    storage = driver.host.storage

    names = table.names()
    listed = await bob.slash("game history", channel=driver.channel)
    assert not listed.failed and listed.ephemeral, listed.text
    assert f"`#{table.id}` **Enemy Lines**" in listed.text and ", ".join(names) in listed.text
    winners = table.row.result["winners"]
    assert f"won by {table.seat_row(winners[0]).name}" in listed.text or len(winners) != 1
    mine = await carol.slash("game history", channel=driver.channel, member=alice)
    assert f"`#{table.id}`" in mine.text and "Past games of <@" in mine.text
    nobody = await carol.slash("game history", channel=driver.channel, member=carol)
    assert "none yet" in nobody.text and not nobody.message.selects

    (select,) = listed.message.selects
    assert select.custom_id == ui.HISTORY_OPEN and select.options[0]["value"] == str(table.id)
    opened = await bob.select(listed.message, str(table.id), custom_id=ui.HISTORY_OPEN)
    assert not opened.failed and opened.ephemeral and "Game over" in opened.text, opened.text
    labels = [b.label for b in opened.message.buttons]
    assert labels == ["Replay", "Study", "Export"]

    shown = await bob.click(opened.message, ui.replay_id(table.id))
    assert not shown.failed
    await shown.wait_for(lambda r: any(m.attachments for m in r.messages), timeout=180)
    post = next(m for m in shown.messages if m.attachments)
    assert not post.ephemeral and f"Replay of game #{table.id}" in post.text
    gif = _file(post, ".gif")
    assert gif.size < 10 * 1024 * 1024
    # its alt text: what the GIF shows, for a screen reader
    assert gif.description is not None and len(gif.description) <= 256
    assert gif.description.startswith("Replay of Enemy Lines: "), gif.description
    img = Image.open(io.BytesIO(gif.data))
    assert img.format == "GIF" and img.n_frames >= 2 and img.width <= 800
    assert img.height * 4 <= img.width * 3, img.size  # landscape, as every picture the bot sends
    assert f" moves in {img.n_frames} pictures, start to end." in gif.description
    # the frames name no one: the message says whose badge is whose
    assert f"by badge: 1 {markdown_name(names[0])}, 2 {markdown_name(names[1])} · " in post.text
    log = _file(post, "-log.txt").data.decode()
    assert "Result: won by" in log and names[0] in log and "⟨" not in log

    exported = await bob.click(opened.message, ui.export_id(table.id))
    assert not exported.failed and exported.ephemeral
    doc = json.loads(_file(exported.message, ".json").data)
    assert doc["game"] == "enemy-lines" and doc["seed"] == table.row.seed and doc["players"] == names
    assert len(doc["actions"]) == table.version and doc["result"] == table.row.result
    path = tmp_path / "game.json"
    path.write_text(json.dumps(doc))
    assert main(["replay", str(path), "--out", str(tmp_path / "out"), "--max-frames", "5"]) == 0
    assert (tmp_path / "out" / "final.json").read_text() == (await storage.get_game(table.id)).state_json

    by_command = await alice.slash("game export", channel=driver.channel, id=table.id)
    assert json.loads(_file(by_command.message, ".json").data) == doc

    # the finished table's own Replay button, beside Play again
    over = next(
        m for m in reversed(driver.public()) if ui.replay_id(table.id) in [b.custom_id for b in m.buttons]
    )
    again = await carol.click(over, ui.replay_id(table.id))
    await again.wait_for(lambda r: any(m.attachments for m in r.messages), timeout=180)
    post2 = next(m for m in again.messages if m.attachments)
    assert _file(post2, ".gif").data == gif.data  # the same game draws the same replay


async def test_replay_and_export_refuse_games_not_over_or_elsewhere(driver):
    alice = driver.member("alice")
    await driver.new_game("alice", quick_setup=True)
    await driver.add_ai("alice")
    await alice.click(driver.lobby_message(), "Start")
    await driver.settle()
    running = await driver.table()
    for command in ("game replay", "game export"):
        result = await alice.slash(command, channel=driver.channel, id=running.id)
        assert_refused(result, "not over yet")
        result = await alice.slash(command, channel=driver.channel, id=running.id + 1000)
        assert_refused(result, "no game")
    # a game of another server
    other = await driver.host.storage.create_game(
        guild_id=running.row.guild_id + 1,
        channel_id=4242,
        game_key="enemy-lines",
        options={},
        seed=1,
        host_id=1,
    )
    for forged in (ui.replay_id(other), ui.export_id(other)):
        assert_refused(await alice.click(plant(driver.fd, driver.channel, forged), forged), "no game")
    opened = await alice.select(
        plant(driver.fd, driver.channel, ui.HISTORY_OPEN, [str(other)]), str(other), custom_id=ui.HISTORY_OPEN
    )
    assert_refused(opened, "no game")
    for forged in ("adm:replay:x", "adm:hist:c:1²:0", "adm:hopen:1"):
        assert_refused(await alice.click(plant(driver.fd, driver.channel, forged), forged))
    bad = await alice.select(
        plant(driver.fd, driver.channel, ui.HISTORY_OPEN, ["1²"]), "1²", custom_id=ui.HISTORY_OPEN
    )
    assert_refused(bad, "not on the list")
    elsewhere = ui.history_id("c", driver.channel.id + 1, 0)
    assert_refused(
        await alice.click(plant(driver.fd, driver.channel, elsewhere), elsewhere), "another channel"
    )
    # an abandoned game is listed, and opening it says why it has no replay
    assert not (await alice.slash("game abandon", channel=driver.channel)).failed
    listed = await alice.slash("game history", channel=driver.channel)
    assert f"`#{running.id}`" in listed.text and "abandoned" in listed.text
    opened = await alice.select(listed.message, str(running.id), custom_id=ui.HISTORY_OPEN)
    assert "was abandoned" in opened.text and not opened.message.buttons


async def test_enemy_in_sight_replay_shows_no_hand_of_a_game_ended_by_resignation(driver):
    """A resigned Enemy in Sight game is finished but not over by its rules: its replay reveals no hand;
    no private event text and no card only ever held in a hand reaches the log."""
    alice = driver.member("alice")
    await driver.new_game("alice", game="enemy-in-sight")
    await driver.add_ai("alice")
    await alice.click(driver.lobby_message(), "Start")
    await driver.settle()
    await driver.host.idle()
    table = await driver.table()
    seat = table.seat_of(alice.id)
    rng = random.Random(3)

    async def texts():
        """The public and the private event texts of the game so far, rebuilt from its log."""
        actions = await driver.host.storage.actions(table.id)
        game = table.spec.new(len(table.seats), table.row.options, table.row.seed)
        public, private = [], []
        for a in actions:
            if "host" not in a.action:
                for e in game.apply(a.seat, a.action):
                    (private if "private_to" in e else public).append(e.get("text", ""))
        return public, private

    for _ in range(20):  # alice plays by her DM controls (the AI in between) until something is private
        public, private = await texts()
        if set(private) - set(public):
            break
        if seat in table.game.to_act():
            await driver.play_by_dm(alice, seat, rng)
        await driver.host.idle()
        table = await driver.table()
    hand = {c["name"] for c in table.game.view(seat)["hand"]}
    confirm = (await alice.slash("game resign", channel=driver.channel)).message
    done = await alice.click(confirm, next(b.custom_id for b in confirm.buttons if b.label == "Resign"))
    assert not done.failed
    await driver.host.idle()
    table = await driver.table()
    assert table.row.status == "finished" and not table.game.is_over
    public, private = await texts()
    shown = await alice.slash("game replay", channel=driver.channel, id=table.id)
    assert not shown.failed
    await shown.wait_for(lambda r: any(m.attachments for m in r.messages), timeout=180)
    post = next(m for m in shown.messages if m.attachments)
    log = _file(post, "-log.txt").data.decode()
    assert "resigned" in log and "Revealed at the end" not in log and "hand at the end" not in log
    names = table.names()
    assert set(private) - set(public)  # the check below is not empty
    for text in set(private) - set(public):
        assert fill_names(text, names) not in log
    said = " ".join(public)
    secret = [card for card in hand if card not in said]
    assert secret
    for card in secret:
        assert card not in log, card


async def test_history_pages_with_buttons_in_its_channel_only(driver):
    alice, bob = driver.member("alice"), driver.member("bob")
    await driver.new_game("alice", quick_setup=True)  # the server's id as the bot sees it
    table = await driver.table()
    storage, guild = driver.host.storage, table.row.guild_id
    ids = []
    for i in range(12):
        gid = await storage.create_game(
            guild_id=guild,
            channel_id=driver.channel.id,
            thread_id=9000 + i,
            game_key="enemy-lines",
            options={},
            seed=i,
            host_id=alice.id,
        )
        await storage.add_seat(gid, user_id=alice.id, is_ai=False, name="Alice")
        await storage.add_seat(gid, user_id=None, is_ai=True, name=f"Nelson{i} (AI)")
        await storage.start_game(gid, json.dumps({"players": 2}))
        await storage.set_status(gid, "finished", result={"winners": [1]})
        ids.append(gid)
    listed = await bob.slash("game history", channel=driver.channel)
    assert "(page 1, more on the next)" in listed.text and f"`#{ids[-1]}`" in listed.text
    assert f"`#{ids[1]}`" not in listed.text and "won by Nelson11 (AI)" in listed.text
    msg = listed.message
    back, forward = msg.buttons
    assert (
        back.disabled
        and not forward.disabled
        and forward.custom_id == ui.history_id("c", driver.channel.id, 1)
    )
    assert len(msg.selects[0].options) == 10
    page2 = await bob.click(msg, forward.custom_id)
    assert not page2.failed
    msg = driver.fd.message(msg.id)
    assert "(page 2)" in msg.text and f"`#{ids[0]}`" in msg.text and f"`#{ids[-1]}`" not in msg.text
    back, forward = msg.buttons
    assert forward.disabled and not back.disabled
    theirs = await bob.slash("game history", channel=driver.channel, member=alice)
    assert "(page 1, more on the next)" in theirs.text
    assert theirs.message.buttons[1].custom_id == ui.history_id("m", alice.id, 1)


async def test_history_replay_and_export_show_no_game_of_a_channel_the_member_cannot_see(driver):
    """A member's history lists only games of channels the person asking can see; opening, replaying
    or exporting a game of a hidden channel is refused (the id is no door into it)."""
    from tests.e2e.test_forged_input import DENY_VIEW

    alice, carol = driver.member("alice"), driver.member("carol")
    await driver.new_game("alice", quick_setup=True)
    table = await driver.table()
    storage, guild = driver.host.storage, table.row.guild_id
    secret = driver.fd.add_channel("secret")
    driver.fd.set_overwrite(secret, carol.id, deny=DENY_VIEW)
    made = {}
    for where in (driver.channel, secret):
        made[where.name] = await _stored_finished_game(storage, guild, where.id, alice.id)
    public, hidden = made["games"], made["secret"]

    hers = await alice.slash("game history", channel=driver.channel, member=alice)
    assert f"`#{public}`" in hers.text and f"`#{hidden}`" in hers.text  # alice sees both channels
    seen_by_carol = await carol.slash("game history", channel=driver.channel, member=alice)
    assert f"`#{public}`" in seen_by_carol.text and f"`#{hidden}`" not in seen_by_carol.text
    assert [o["value"] for o in seen_by_carol.message.selects[0].options] == [str(public)]

    opened = await carol.select(
        plant(driver.fd, driver.channel, ui.HISTORY_OPEN, [str(hidden)]),
        str(hidden),
        custom_id=ui.HISTORY_OPEN,
    )
    assert_refused(opened, "cannot see")
    for command in ("game replay", "game export"):
        assert_refused(await carol.slash(command, channel=driver.channel, id=hidden), "cannot see")
    for forged in (ui.replay_id(hidden), ui.export_id(hidden)):
        result = await carol.click(plant(driver.fd, driver.channel, forged), forged)
        assert_refused(result, "cannot see")
        assert not any(m.attachments for m in carol.ephemerals())


async def test_a_replay_is_posted_publicly_once_every_ten_minutes_a_game_and_never_for_spectators(
    driver, monkeypatch
):
    from bot import replay

    drawn = replay.replay
    monkeypatch.setattr(replay, "replay", lambda record, **kw: drawn(record, **{**kw, "max_frames": 3}))
    alice, bob, carol = driver.member("alice"), driver.member("bob"), driver.member("carol")
    table = await _finished_game(driver)
    storage = driver.host.storage

    async def ask(member):
        result = await member.slash("game replay", channel=driver.channel, id=table.id)
        await result.wait_for(lambda r: any(m.attachments for m in r.messages), timeout=180)
        post = next(m for m in result.messages if m.attachments)
        assert f"Replay of game #{table.id}" in post.text and _file(post, ".gif").size > 0
        return post

    first = await ask(alice)
    assert not first.ephemeral, "the first replay a player asks for is posted in the channel"
    posted = float(await storage.get_meta(f"replay:{table.id}"))  # stored: every process keeps to it
    again = await ask(bob)
    assert again.ephemeral and "posted in the channel" in again.text, "a second one within 10 minutes"
    watcher = await ask(carol)
    assert watcher.ephemeral and "Only the game's players" in watcher.text, "a spectator's is private"
    public = [m for m in driver.public() if m.attachments and f"Replay of game #{table.id}" in m.text]
    assert len(public) == 1
    # ten minutes later a player's ask is posted again
    await storage.set_meta(f"replay:{table.id}", f"{posted - replay.PUBLIC_REPLAY_EVERY - 1:.3f}")
    later = await ask(bob)
    assert not later.ephemeral


async def test_export_only_for_the_players_and_members_with_manage_server(driver):
    """An export holds every secret move: a member of the channel who did not play gets no Export button
    and a clear refusal (command or forged button); the game's players and the server's managers get it."""
    from tests.fakediscord.models import Role

    alice, carol, dave = driver.member("alice"), driver.member("carol"), driver.fd.add_user("dave")
    guild = driver.fd.guild
    managers = Role(driver.fd.snow(), "managers", MANAGE_GUILD)
    guild.roles[managers.id] = managers
    guild.members[dave.id].roles.append(managers.id)
    await driver.new_game("alice", quick_setup=True)
    table = await driver.table()
    storage = driver.host.storage
    gid = await _stored_finished_game(storage, table.row.guild_id, driver.channel.id, alice.id)

    listed = await carol.slash("game history", channel=driver.channel, member=alice)
    opened = await carol.select(listed.message, str(gid), custom_id=ui.HISTORY_OPEN)
    assert not opened.failed and [b.label for b in opened.message.buttons] == ["Replay", "Study"], opened.text
    refused = await carol.slash("game export", channel=driver.channel, id=gid)
    assert_refused(refused, "Only the players")
    assert "Manage Server" in refused.text and "secret" in refused.text
    forged = await carol.click(plant(driver.fd, driver.channel, ui.export_id(gid)), ui.export_id(gid))
    assert_refused(forged, "Only the players")
    assert not any(m.attachments for m in carol.ephemerals())

    hers = await alice.slash("game history", channel=driver.channel, member=alice)
    theirs = await alice.select(hers.message, str(gid), custom_id=ui.HISTORY_OPEN)
    assert [b.label for b in theirs.message.buttons] == ["Replay", "Study", "Export"]
    for member in (alice, dave):  # a player, and a member with Manage Server
        exported = await member.slash("game export", channel=driver.channel, id=gid)
        assert not exported.failed and exported.ephemeral, exported.text
        assert json.loads(_file(exported.message, ".json").data)["id"] == gid
