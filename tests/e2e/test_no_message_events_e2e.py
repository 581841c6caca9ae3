"""The bot reads no message, so it asks Discord for no message event (issue 19, the CPU of a move): every
table edit, ping, DM and line of chat in the channels it sees was a gateway event that discord.py
parsed and cached for nothing."""

from __future__ import annotations

import json

from tests.fakediscord.gateway import OP_DISPATCH


def events(fd) -> list[str]:
    """The gateway events sent to the bot's sessions so far."""
    out = []
    for session in fd.gateway.sessions.values():
        for _, frame in session.buffer:
            data = json.loads(frame)
            if data.get("op") == OP_DISPATCH:
                out.append(data["t"])
    return out


async def test_a_game_played_and_chat_in_its_channel_send_the_bot_no_message_event(driver):
    await driver.new_game("alice")
    await driver.member("bob").click(driver.lobby_message(), "Join")
    await driver.member("alice").click(driver.lobby_message(), "Start")
    await driver.member("bob").say(driver.channel, "good luck")
    await driver.member("alice").say(driver.channel, "hi @everyone")
    await driver.play_ai_move()
    await driver.play_ai_move()
    await driver.settle()
    sent = events(driver.fd)
    assert "INTERACTION_CREATE" in sent  # the clicks came
    assert driver.table_message() is not None  # the table was posted and edited, the pings sent
    assert not [e for e in sent if e.startswith(("MESSAGE_", "TYPING_"))], sorted(set(sent))
    assert driver.bot._connection.max_messages is None  # and discord.py keeps no message cache
