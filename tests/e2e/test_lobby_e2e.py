"""The lobby through the loopback Discord: racing clicks, the host's powers, and `/game new` in channels
where it cannot work."""

from __future__ import annotations

import asyncio
import contextlib

import pytest

from tests.fakediscord.models import CREATE_PUBLIC_THREADS, SEND_MESSAGES, VIEW_CHANNEL


@contextlib.asynccontextmanager
async def held_lock(host, game_id: int):
    """Hold the game's lock; ``await arrived(n)`` waits until n operations wait for it. On exit they
    get it in the order they arrived: two clicks racing, in a chosen order, every time."""
    real = host.tables.lock
    waiting: list[int] = []

    @contextlib.asynccontextmanager
    async def counting(gid):
        waiting.append(gid)
        async with real(gid):
            yield

    async def arrived(n: int) -> None:
        for _ in range(1000):
            if waiting.count(game_id) >= n:
                return
            await asyncio.sleep(0.01)
        raise AssertionError(f"{n} operations never reached the lock of game {game_id}")

    host.tables.lock = counting
    try:
        async with real(game_id):
            yield arrived
    finally:
        host.tables.lock = real


def live_game_buttons(driver):
    """Custom ids of every Admiralty component still in the channel."""
    return [
        b.custom_id for m in driver.public() for b in m.buttons if (b.custom_id or "").startswith("adm:")
    ] + [s.custom_id for m in driver.public() for s in m.selects if s.custom_id.startswith("adm:")]


async def lobby_of_two(driver):
    await driver.new_game("alice", quick_setup=True)
    await driver.member("bob").click(driver.lobby_message(), "Join")
    return await driver.table(), driver.lobby_message()


@pytest.mark.parametrize("first", ["Start", "Cancel"])
async def test_start_racing_cancel_exactly_one_wins_and_the_channel_is_consistent(driver, first):
    alice = driver.member("alice")
    table, lobby = await lobby_of_two(driver)
    second = "Cancel" if first == "Start" else "Start"
    async with held_lock(driver.host, table.id) as arrived:
        a = asyncio.create_task(alice.click(lobby, first))
        await arrived(1)
        b = asyncio.create_task(alice.click(lobby, second))
        await arrived(2)
    won, lost = await asyncio.gather(a, b)
    assert not won.failed and not lost.failed and won.ephemeral and lost.ephemeral
    row = await driver.host.storage.get_game(table.id)
    if first == "Start":
        assert "The game has started" in won.text
        assert "already started" in lost.text, lost.text
        assert row.status == "running"
        await driver.settle()
        assert driver.turn_message() is not None and driver.lobby_message() is None
        assert not any("cancelled" in m.content for m in driver.public())
    else:
        assert "The lobby was cancelled" in won.text
        assert "lobby was cancelled" in lost.text and "Sorry" not in lost.text, lost.text
        assert row.status == "abandoned" and row.state_json is None
        assert live_game_buttons(driver) == [], "an abandoned game keeps no live buttons"
        assert driver.board_message() is None


async def test_leave_racing_start_gets_a_clear_reply_not_an_apology(driver):
    alice, bob = driver.member("alice"), driver.member("bob")
    table, lobby = await lobby_of_two(driver)
    async with held_lock(driver.host, table.id) as arrived:
        start = asyncio.create_task(alice.click(lobby, "Start"))
        await arrived(1)
        leave = asyncio.create_task(bob.click(lobby, "Leave"))
        await arrived(2)
    started, left = await asyncio.gather(start, leave)
    assert "The game has started" in started.text
    assert "already started" in left.text and "Sorry" not in left.text, left.text
    after = await driver.table()
    assert after.row.status == "running" and [s.user_id for s in after.seats] == [alice.id, bob.id]


async def test_only_the_host_adds_and_removes_seats(driver):
    alice, bob, carol = driver.member("alice"), driver.member("bob"), driver.member("carol")
    ch = driver.channel
    await driver.new_game("alice", game="everrain")
    assert "The host alone adds AI seats" in driver.lobby_message().content
    await bob.click(driver.lobby_message(), "Join")
    await carol.slash("game join", channel=ch)
    refused = await bob.click(driver.lobby_message(), "Add AI")
    assert "Only the host" in refused.text and refused.ephemeral
    assert "Only the host" in (await bob.slash("game add-ai", channel=ch)).text
    assert [s.is_ai for s in (await driver.table()).seats] == [False, False, False]
    assert "takes a seat" in (await alice.slash("game add-ai", channel=ch)).text
    ai_name = (await driver.table()).seats[-1].name
    choices = await alice.autocomplete("game kick", "ai", "", channel=ch)
    assert choices == [{"name": ai_name, "value": ai_name}]
    not_host = await bob.slash("game kick", channel=ch, ai=ai_name)
    assert "Only the host" in not_host.text and not_host.ephemeral
    not_host = await bob.slash("game kick", channel=ch, player=carol)
    assert "Only the host" in not_host.text
    assert len((await driver.table()).seats) == 4
    removed = await alice.slash("game kick", channel=ch, ai=ai_name)
    assert f"{ai_name} was removed" in removed.text and removed.ephemeral
    kicked = await alice.slash("game kick", channel=ch, player=carol)
    assert "removed" in kicked.text
    assert [s.user_id for s in (await driver.table()).seats] == [alice.id, bob.id]
    assert "Carol was removed by the host" in driver.lobby_message().content
    nobody = await alice.slash("game kick", channel=ch)
    assert "Name one player or one AI seat" in nobody.text


def threads_of(driver):
    return [c for c in driver.fd.channels.values() if getattr(c, "parent_id", None) == driver.channel.id]


async def test_game_new_in_a_thread_with_bad_options_makes_no_thread(driver):
    alice = driver.member("alice")
    bad = await alice.slash(
        "game new", channel=driver.channel, game="enemy-lines", thread=True, options="colour=green"
    )
    assert "no option" in bad.text and bad.ephemeral
    wrong_variant = await alice.slash(
        "game new", channel=driver.channel, game="enemy-lines", thread=True, variant="advanced"
    )
    assert "no option" in wrong_variant.text
    assert threads_of(driver) == []
    assert await driver.host.storage.list_games(None, statuses=("lobby", "running", "abandoned")) == []


@pytest.mark.parametrize(
    "denied, thread, named",
    [
        (SEND_MESSAGES, False, "Send Messages"),
        (VIEW_CHANNEL, False, "View Channel"),
        (CREATE_PUBLIC_THREADS, True, "Create Public Threads"),
    ],
)
async def test_game_new_where_the_bot_cannot_post_names_the_missing_permission(driver, denied, thread, named):
    driver.fd.deny_bot(driver.channel, denied)
    await asyncio.sleep(0.1)  # the CHANNEL_UPDATE reaches the bot
    made = await driver.member("alice").slash(
        "game new", channel=driver.channel, game="enemy-lines", thread=thread
    )
    assert f"**{named}**" in made.text and made.ephemeral, made.text
    assert "unchanged" not in made.text and "Lobby opened" not in made.text
    assert await driver.host.storage.list_games(None, statuses=("lobby", "running", "abandoned")) == []
    assert threads_of(driver) == []


async def test_game_new_when_posting_the_lobby_fails_leaves_no_lobby_and_says_so(driver):
    ch = driver.channel
    rule = driver.fd.faults.server_error(f"POST /channels/{ch.id}/messages", times=None, status=403)
    made = await driver.member("alice").slash("game new", channel=ch, game="enemy-lines", thread=False)
    assert "could not post the lobby" in made.text and "no game was opened" in made.text, made.text
    assert "unchanged" not in made.text
    assert rule.hits >= 1
    assert await driver.host.storage.active_game(ch.id) is None
    driver.fd.faults.clear()
    await driver.new_game("bob")
    assert driver.lobby_message() is not None


async def test_a_started_or_cancelled_lobby_no_longer_invites_anyone_to_join(driver):
    alice, bob = driver.member("alice"), driver.member("bob")
    await driver.new_game("alice")
    lobby = driver.lobby_message()
    assert "Anyone may join" in lobby.content and "(1/2, at least 2)" in lobby.content
    await bob.click(lobby, "Join")
    await alice.click(driver.lobby_message(), "Start")
    started = driver.fd.message(lobby.id)
    assert "**The game has started.**" in started.content, started.content
    assert "may join" not in started.content and "starts or cancels" not in started.content
    assert "Players (2):" in started.content and not started.buttons
    await driver.host.storage.set_status((await driver.table()).id, "abandoned")  # a new lobby may open here
    await driver.new_game("bob")
    second = driver.lobby_message()
    await bob.click(second, "Cancel")
    cancelled = driver.fd.message(second.id)
    assert "**The lobby was cancelled.**" in cancelled.content and "may join" not in cancelled.content
