"""/notify through the loopback Discord: turn alerts as each person wants them (a DM with the link and
the deadline, both, none), a closed DM falling back to the channel's ping, quiet hours holding an alert
until they end (across a restart too, sent once), a heads-up, and the daily digest once a day."""

from __future__ import annotations

import asyncio
import random
import time

from bot.app import Admiralty
from bot.settings import Settings
from tests.fakediscord import FakeDiscord, running_bot

HOUR = 3600.0


async def started(d, *, turn_timeout: str | None = None) -> object:
    """Alice opens Enemy Lines, Bob joins, Alice starts it; the table once shown."""
    options = {"turn_timeout": turn_timeout} if turn_timeout else {}
    await d.new_game("alice", quick_setup=True, **options)
    await d.member("bob").click(d.lobby_message(), "Join")
    await d.member("alice").click(d.lobby_message(), "Start")
    await d.host.idle()
    await d.settle()
    return await d.table()


async def play(d, rng) -> None:
    """The member to act plays the AI's choice, by clicks; then the table shows it."""
    await d.play_ai_move(rng)
    await d.host.idle()
    await d.settle()


def member_to_act(d, table):
    (seat,) = table.human_to_act()
    user_id = table.seat_row(seat).user_id
    return next(m for m in (d.member("alice"), d.member("bob")) if m.id == user_id)


def all_dms(d, member, text: str) -> list:
    """The member's DMs from the bot holding ``text``, deleted ones too."""
    channel = member.dm_channel()
    if channel is None:
        return []
    return [m for m in d.fd.channel_messages(channel, ephemeral=True, deleted=True) if text in m.content]


async def notify(member, **options):
    result = await member.slash("notify", **options)
    if result.pending or not result.text:
        await result.wait_for(lambda r: bool(r.text), timeout=10)
    assert not result.failed, result.text
    return result


async def wait_until_its_turn(d, member, rng) -> object:
    """Play (the AI's choices, by clicks) until it is ``member``'s turn; the table then."""
    for _ in range(6):
        table = await d.table()
        if member_to_act(d, table) is member:
            return table
        await play(d, rng)
    raise AssertionError("never their turn")


def with_clock(bot, offset: float) -> None:
    """The bot's alerts see the time ``offset`` seconds from now (quiet hours ending, the digest hour)."""
    clock = lambda: time.time() + offset  # noqa: E731
    bot.delivery.pings.alerts.clock = clock
    bot.alert_jobs.clock = clock
    bot.alert_jobs.wake()


async def test_a_dm_alert_holds_the_game_its_place_a_link_to_the_table_and_the_deadline(driver):
    d = driver
    alice = d.member("alice")
    shown = await notify(alice, alerts="dm")
    assert "direct message" in shown.text and shown.ephemeral
    table = await started(d, turn_timeout="2h")
    rng = random.Random(4)
    table = await wait_until_its_turn(d, alice, rng)
    await d.fd.wait_for(lambda: all_dms(d, alice, "Your turn"), timeout=10)
    (alert,) = all_dms(d, alice, "Your turn")
    table_message = d.table_message()
    assert f"game #{table.id}" in alert.content and "Enemy Lines" in alert.content
    assert "Fake Guild" in alert.content and "#games" in alert.content
    assert f"https://discord.com/channels/{d.fd.guild.id}/{table_message.channel_id}/{table_message.id}" in (
        alert.content
    )
    assert f"<t:{int(table.row.deadline)}:f>" in alert.content
    assert d.fd.pings_for(alice) == [], "a DM alert instead of the channel's ping"
    # her move ends the turn: the alert goes, as the ping would; the next turn of hers brings one more
    await play(d, rng)
    await d.fd.wait_for(lambda: alert.deleted, timeout=10)
    await wait_until_its_turn(d, alice, rng)
    await d.fd.wait_for(lambda: len(all_dms(d, alice, "Your turn")) == 2, timeout=10)
    assert d.fd.pings_for(alice) == []
    assert len(d.fd.pings_for(d.member("bob"))) >= 1, "bob, with no preferences, is pinged as before"


async def test_shown_privately_without_options_and_bad_input_changes_nothing(driver):
    alice = driver.member("alice")
    shown = await notify(alice)
    assert (
        shown.ephemeral and "a ping in the game's channel" in shown.text and "Quiet hours: none" in shown.text
    )
    for bad in ({"timezone": "Mars/Olympus"}, {"quiet_hours": "late"}, {"digest": "25:00"}):
        refused = await notify(alice, alerts="dm", **bad)
        assert refused.ephemeral and "Nothing was changed" in refused.text, refused.text
    assert await driver.host.storage.notify_prefs([alice.id]) == {}
    choices = await alice.autocomplete("notify", "timezone", "paris")
    assert [c["value"] for c in choices] == ["Europe/Paris"]


async def test_notify_works_in_the_bots_dm_and_in_a_group_dm_for_a_user_install(driver):
    fd, alice = driver.fd, driver.member("alice")
    alice.open_dm()
    in_dm = await alice.slash("notify", channel="dm")
    assert not in_dm.failed and "Quiet hours: none" in in_dm.text, in_dm.text
    alice.install_app()
    group = fd.group_dm(["alice", "bob"], name="crew")
    saved = await alice.slash("notify", channel=group, quiet_hours="22:00-07:00", timezone="Europe/Warsaw")
    assert saved.ephemeral and "Saved." in saved.text and not driver.member("bob").can_see(saved.message)
    assert (await driver.host.storage.notify_prefs([alice.id]))[alice.id].quiet_start is not None


async def test_a_member_whose_dms_are_closed_and_who_chose_dm_gets_the_channel_ping(driver):
    d = driver
    bob = d.member("bob")
    d.fd.block_dms(bob)
    answer = await notify(bob, alerts="dm")
    assert "cannot send you direct messages" in answer.text
    table = await started(d)
    await wait_until_its_turn(d, bob, random.Random(2))
    await d.fd.wait_for(lambda: d.fd.pings_for(bob), timeout=10)
    assert len(d.fd.pings_for(bob)) == 1
    assert (await d.host.storage.seats(table.id))[1].dm_ok is False  # remembered


async def test_none_means_no_ping_and_both_means_a_ping_and_a_dm(driver):
    d = driver
    alice, bob = d.member("alice"), d.member("bob")
    await notify(alice, alerts="none")
    await notify(bob, alerts="both")
    await started(d)
    rng = random.Random(6)
    for _ in range(3):
        await play(d, rng)
    assert d.fd.pings_for(alice) == [] and all_dms(d, alice, "Your turn") == []
    assert len(d.fd.pings_for(bob)) == len(all_dms(d, bob, "Your turn")) >= 1


async def test_a_heads_up_comes_once_when_the_player_before_starts_and_goes_when_it_is_their_turn(driver):
    d = driver
    alice, bob = d.member("alice"), d.member("bob")
    await notify(bob, heads_up=True)
    table = await started(d)
    rng = random.Random(8)
    if member_to_act(d, table) is bob:
        await play(d, rng)
    await d.fd.wait_for(lambda: all_dms(d, bob, "Heads-up"), timeout=10)
    (heads_up,) = all_dms(d, bob, "Heads-up")
    assert "Alice" in heads_up.content and f"game #{table.id}" in heads_up.content
    pinged = len(d.fd.pings_for(bob))  # (one, if the game began with bob's turn)
    await play(d, rng)  # alice plays: bob's turn, pinged as before; the heads-up goes
    await d.fd.wait_for(lambda: heads_up.deleted, timeout=10)
    assert len(d.fd.pings_for(bob)) == pinged + 1
    await play(d, rng)  # bob plays: alice's turn again, a heads-up again
    await d.fd.wait_for(lambda: len(all_dms(d, bob, "Heads-up")) == 2, timeout=10)
    assert all_dms(d, alice, "Heads-up") == [], "alice did not ask for one"


def quiet_now() -> str:
    """Quiet hours (UTC) from an hour ago to two hours from now."""
    now = time.gmtime()
    start = (now.tm_hour * 60 + now.tm_min - 60) % 1440
    end = (now.tm_hour * 60 + now.tm_min + 120) % 1440
    return f"{start // 60:02d}:{start % 60:02d}-{end // 60:02d}:{end % 60:02d}"


async def test_quiet_hours_hold_the_alert_until_they_end_and_it_is_sent_once(driver):
    d = driver
    alice = d.member("alice")
    await notify(alice, timezone="UTC", quiet_hours=quiet_now())
    await started(d, turn_timeout="2h")
    table = await wait_until_its_turn(d, alice, random.Random(1))
    storage = d.host.storage
    await d.fd.wait_for(lambda: True, timeout=0.2)
    (held,) = await storage.notify_jobs(alice.id)
    assert (held.kind, held.game_id) == ("alert", table.id)
    assert HOUR < held.due - time.time() <= 2 * HOUR + 60, "held until the quiet hours end"
    assert d.fd.pings_for(alice) == [], "nothing during the quiet hours"
    assert table.row.deadline == (await storage.get_game(table.id)).deadline, "the deadline is not moved"
    with_clock(d.bot, 2 * HOUR + 120)  # the quiet hours are over
    await d.fd.wait_for(lambda: d.fd.pings_for(alice), timeout=10)
    await asyncio.sleep(0.3)
    d.bot.alert_jobs.wake()
    await asyncio.sleep(0.3)
    assert len(d.fd.pings_for(alice)) == 1, "sent once"
    assert await storage.notify_jobs(alice.id) == []


async def test_an_alert_held_by_quiet_hours_survives_a_restart_and_is_sent_once(e2e_database):
    from tests.e2e.conftest import Driver

    settings = Settings(
        token="fake", database=e2e_database, dev_guild=None, turn_timeout=0, ai_delay=0.0, log_level="INFO"
    )
    async with FakeDiscord(users=["alice", "bob", "carol"], deferred_update_wait=10.0) as fd:
        channel = fd.channel("games")
        alice = fd.user("alice")
        async with running_bot(Admiralty(settings), fd) as bot:
            d = Driver(fd, bot, channel)
            await notify(alice, alerts="both", quiet_hours=quiet_now())
            await started(d)
            table = await wait_until_its_turn(d, alice, random.Random(1))
            await fd.wait_for(lambda: True, timeout=0.2)
            assert [j.kind for j in await d.host.storage.notify_jobs(alice.id)] == ["alert"]
            assert fd.pings_for(alice) == [] and all_dms(d, alice, "Your turn") == []
        async with running_bot(Admiralty(settings), fd) as bot:
            d = Driver(fd, bot, channel)
            with_clock(bot, 2 * HOUR + 120)
            await fd.wait_for(lambda: fd.pings_for(alice) and all_dms(d, alice, "Your turn"), timeout=15)
            (alert,) = all_dms(d, alice, "Your turn")
            assert f"game #{table.id}" in alert.content
            await asyncio.sleep(0.5)
            assert len(fd.pings_for(alice)) == 1 and len(all_dms(d, alice, "Your turn")) == 1
            assert await d.host.storage.notify_jobs(alice.id) == []


async def test_the_daily_digest_lists_the_games_waiting_in_every_server_and_comes_once_a_day(driver):
    from tests.e2e.conftest import Driver

    d = driver
    alice = d.member("alice")
    hour = (time.gmtime().tm_hour + 3) % 24
    await notify(alice, timezone="UTC", digest=f"{hour:02d}:00")
    storage = d.host.storage
    (job,) = await storage.notify_jobs(alice.id)
    assert job.kind == "digest" and 2 * HOUR < job.due - time.time() <= 3 * HOUR
    await started(d)
    here = await wait_until_its_turn(d, alice, random.Random(3))
    d.fd.add_guild("Second Port", channels=["harbour"])
    await d.fd.wait_for(lambda: len(d.bot.guilds) == 2, timeout=10)
    there = Driver(d.fd, d.bot, d.fd.channel("harbour"))
    await started(there)
    there_game = await wait_until_its_turn(there, alice, random.Random(5))
    with_clock(d.bot, job.due - time.time() + 5)  # the digest's hour
    await d.fd.wait_for(lambda: all_dms(d, alice, "daily digest"), timeout=10)
    (digest,) = all_dms(d, alice, "daily digest")
    assert "2 games wait" in digest.content, digest.content
    for table, place in ((here, d), (there_game, there)):
        message = place.table_message()
        guild = d.fd.guild_of(place.channel)
        link = f"https://discord.com/channels/{guild.id}/{message.channel_id}/{message.id}"
        assert f"#{table.id}" in digest.content and guild.name in digest.content and link in digest.content
    for _ in range(100):  # the job is armed again once the DM is sent
        (tomorrow,) = await storage.notify_jobs(alice.id)
        if tomorrow.claimed_by is None:
            break
        await asyncio.sleep(0.05)
    assert tomorrow.due == job.due + 86400 and tomorrow.claimed_by is None
    d.bot.alert_jobs.wake()
    await asyncio.sleep(0.5)
    assert len(all_dms(d, alice, "daily digest")) == 1, "once a day"


async def test_the_half_time_reminder_of_a_dm_alert_edits_it_and_pings_nobody(driver):
    d = driver
    alice = d.member("alice")
    await notify(alice, alerts="dm")
    await started(d, turn_timeout="2h")
    table = await wait_until_its_turn(d, alice, random.Random(4))
    await d.fd.wait_for(lambda: all_dms(d, alice, "Your turn"), timeout=10)
    (alert,) = all_dms(d, alice, "Your turn")
    storage = d.host.storage
    await storage.set_deadline(table.id, time.time() + 2.0)  # half time is now, the timeout in 2 s
    await d.fd.wait_for(lambda: "still your turn" in alert.content or alert.deleted, timeout=10)
    shown = [alert.content, *(e.get("content") or "" for e in alert.edits)]
    assert any("still your turn" in text for text in shown), "the DM alert became the reminder"
    for _ in range(200):
        if any("ran out of time" in line for line in await storage.recent_log(table.id, 20)):
            break
        await asyncio.sleep(0.05)
    await d.host.idle()
    await d.settle()
    await d.fd.wait_for(lambda: alert.deleted, timeout=10)  # the turn ended
    assert d.fd.pings_for(alice) == [], "no channel ping, not even the reminder's"


async def test_turning_quiet_hours_off_sends_the_held_alert_at_once(driver):
    d = driver
    alice = d.member("alice")
    await notify(alice, alerts="dm", timezone="UTC", quiet_hours=quiet_now())
    await started(d)
    await wait_until_its_turn(d, alice, random.Random(1))
    await d.fd.wait_for(lambda: True, timeout=0.2)
    assert [j.kind for j in await d.host.storage.notify_jobs(alice.id)] == ["alert"]
    assert all_dms(d, alice, "Your turn") == []
    await notify(alice, quiet_hours="off")
    await d.fd.wait_for(lambda: all_dms(d, alice, "Your turn"), timeout=10)
    await asyncio.sleep(0.3)
    assert len(all_dms(d, alice, "Your turn")) == 1 and d.fd.pings_for(alice) == []
    assert await d.host.storage.notify_jobs(alice.id) == []


async def test_no_heads_up_during_quiet_hours(driver):
    d = driver
    bob = d.member("bob")
    await notify(bob, heads_up=True, timezone="UTC", quiet_hours=quiet_now())
    await started(d)
    rng = random.Random(8)
    for _ in range(3):  # alice's turn begins at least once
        await play(d, rng)
    assert all_dms(d, bob, "Heads-up") == []
    assert len(all_dms(d, bob, "turn alerts")) == 1, "only /notify's check that DMs reach bob"


async def test_preferences_set_during_a_game_apply_from_the_next_turn(driver):
    d = driver
    alice = d.member("alice")
    table = await started(d)
    rng = random.Random(9)
    if member_to_act(d, table) is alice:
        await play(d, rng)
    pinged = len(d.fd.pings_for(alice))
    await notify(alice, alerts="dm")  # while bob plays
    await wait_until_its_turn(d, alice, rng)
    await d.fd.wait_for(lambda: all_dms(d, alice, "Your turn"), timeout=10)
    assert len(d.fd.pings_for(alice)) == pinged, "a DM now, not the channel's ping"
