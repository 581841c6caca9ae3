"""A deferred click is always answered, once, even when Discord refuses its follow-ups (a 429 storm on
the interaction webhooks, longer than discord.py's own few retries): the answer is sent again while the
interaction's token lives, then through the channel."""

from __future__ import annotations

import random

from bot import menus

FOLLOW_UPS = (
    "POST /webhooks/"  # follow-ups of interactions (the "✅ Played" answer, pings posted through them)
)


async def start(driver):
    await driver.new_game("alice", quick_setup=True)
    await driver.member("bob").click(driver.lobby_message(), "Join")
    await driver.member("alice").click(driver.lobby_message(), "Start")
    await driver.settle()
    return await driver.table()


async def click_path(driver, member, message, labels: list[str]):
    """Click through ``labels`` from ``message``; the last click's result."""
    for label in labels[:-1]:
        if driver.offers(message, label):
            opened = await driver.click_label(member, message, label)
            assert not opened.failed
            message = opened.original or message
    # The last click applies the move: not waited for through its answer (that is what is tested).
    for _ in range(10):  # a long menu pages its select ("More choices")
        button = next((b for b in message.buttons if b.label == labels[-1][:80]), None)
        if button is not None:
            result = await member.click(message, button.custom_id)
            break
        found = [
            (s, o["value"]) for s in message.selects for o in s.options if o["label"] == labels[-1][:100]
        ]
        if found:
            result = await member.select(message, found[0][1], custom_id=found[0][0].custom_id)
            break
        more = [(s, o["value"]) for s in message.selects for o in s.options if o["label"].startswith("More")]
        page = await member.select(message, more[0][1], custom_id=more[0][0].custom_id)
        message = page.original or message
    assert not result.failed
    return result


def told_in_channel(driver, member, words: str):
    return [
        m
        for m in driver.public()
        if m.author_id == driver.fd.bot_user.id and m.content.startswith(f"<@{member.id}> {words}")
    ]


async def open_a_sub_menu(driver, rng: random.Random):
    """The player to act clicks the first step of the AI's choice on the table, which opens the rest of
    the menu privately (a follow-up): (member, the labels left, the click's result)."""
    table = await driver.table()
    seat = table.game.to_act()[0]
    member = next(
        m for m in (driver.member("alice"), driver.member("bob")) if m.id == table.seat_row(seat).user_id
    )
    labels = menus.labels_of(table.game, seat, table.game.ai_action(seat, rng), table.names())
    assert len(labels) > 1, "a move of several steps: its first click opens a private sub-menu"
    result = await member.click(driver.turn_message(), _button(driver, labels[0]))
    assert not result.failed
    return member, labels[1:], result


def _button(driver, label: str) -> str:
    message = driver.turn_message()
    button = next((b for b in message.buttons if b.label == label[:80]), None)
    if button is not None:
        return button.custom_id
    raise AssertionError(f"no button {label!r} on the table")


async def test_a_click_is_answered_when_the_storm_ends_within_the_tokens_life(driver):
    table = await start(driver)
    storm = driver.fd.faults.rate_limit(FOLLOW_UPS, times=12, retry_after=0.05)  # > discord.py's 5 tries
    member, rest, result = await open_a_sub_menu(driver, random.Random(3))
    await driver.fd.wait_for(lambda: [m for m in result.followups if m.ephemeral], timeout=30)
    assert storm.hits == 12
    (menu,) = result.followups
    assert menu.ephemeral and (menu.buttons or menu.selects), "the sub-menu, privately, once"
    assert not told_in_channel(driver, member, ""), "answered privately: no channel message"
    await click_path(driver, member, menu, rest)
    await driver.host.idle()
    assert (await driver.table()).version == table.version + 1, "the move was applied once"


async def test_a_click_is_answered_through_the_channel_when_the_storm_outlasts_its_token(driver):
    table = await start(driver)
    driver.bot.delivery.hooks.ttl = 3.0  # the token's life, 15 minutes on Discord
    driver.fd.faults.rate_limit(FOLLOW_UPS, times=None, retry_after=0.05)
    member, _, result = await open_a_sub_menu(driver, random.Random(4))
    await driver.fd.wait_for(lambda: told_in_channel(driver, member, "Discord would not"), timeout=30)
    (answer,) = told_in_channel(driver, member, "Discord would not")
    assert answer.mentions == [member.id], "it notifies the player who clicked, nobody else"
    assert not answer.buttons and not answer.selects, "the menu itself is never posted publicly"
    assert not result.followups
    await driver.host.idle()
    assert (await driver.table()).version == table.version, "nothing was played"
    assert len(told_in_channel(driver, member, "Discord would not")) == 1, "answered once"


async def test_a_dm_click_is_answered_in_the_dm_when_the_storm_outlasts_its_token(driver):
    await driver.new_game("alice", game="warships")
    await driver.member("bob").click(driver.lobby_message(), "Join")
    await driver.member("alice").click(driver.lobby_message(), "Start")
    table = await driver.table()
    alice = driver.member("alice")
    seat = table.seat_of(alice.id)
    await driver.fd.wait_for(lambda: driver.dm_menu(alice, table.id, seat) is not None, timeout=15)
    driver.bot.delivery.hooks.ttl = 3.0
    driver.fd.faults.rate_limit(FOLLOW_UPS, times=None, retry_after=0.05)
    submit = next(a for a in table.game.legal_actions(seat) if a["type"] == "submit")
    labels = menus.labels_of(table.game, seat, submit, table.names())
    result = await click_path(driver, alice, driver.dm_menu(alice, table.id, seat), labels)

    def answered_in_dm():
        return [m for m in alice.dms() if m.author_id == driver.fd.bot_user.id and "✅ Played" in m.content]

    await driver.fd.wait_for(answered_in_dm, timeout=30)
    assert len(answered_in_dm()) == 1 and not [m for m in result.followups if "✅ Played" in m.text]
    assert not [m for m in driver.public() if "✅ Played" in m.content], (
        "a secret set-up is never told in the channel"
    )
    await driver.host.idle()
    assert (await driver.table()).version == table.version + 1
