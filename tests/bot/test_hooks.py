"""bot/hooks.py: which interaction tokens the delivery may still use, and for what."""

from __future__ import annotations

import datetime
from types import SimpleNamespace

import discord

from bot.hooks import TOKEN_TTL, Hooks


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def click(
    message_id: int,
    channel_id: int = 7,
    *,
    ephemeral: bool = False,
    done: bool = True,
    kind=discord.InteractionResponseType.deferred_message_update,
):
    return SimpleNamespace(
        message=SimpleNamespace(id=message_id, flags=SimpleNamespace(ephemeral=ephemeral)),
        channel_id=channel_id,
        created_at=discord.utils.utcnow(),
        response=SimpleNamespace(is_done=lambda: done, type=kind if done else None),
    )


def test_a_click_answered_by_an_update_edits_its_message_until_its_token_is_14_minutes_old():
    clock = Clock()
    hooks = Hooks(clock=clock)
    one = click(42)
    hooks.clicked(one)
    assert hooks.editor(42) is one
    clock.now += TOKEN_TTL - 1
    assert hooks.editor(42) is one
    clock.now += 2
    assert hooks.editor(42) is None, "an expired token is not used (Discord honours it 15 minutes)"


def test_an_ephemeral_or_unanswered_click_edits_nothing():
    hooks = Hooks(clock=Clock())
    hooks.clicked(click(1, ephemeral=True))
    hooks.clicked(click(2, done=False))
    assert hooks.editor(1) is None and hooks.editor(2) is None


def test_the_newest_click_on_a_message_is_kept_as_its_editor():
    clock = Clock()
    hooks = Hooks(clock=clock)
    old, new = click(5), click(5)
    hooks.clicked(old)
    clock.now += 60
    hooks.clicked(new)
    assert hooks.editor(5) is new
    hooks.clicked(old)  # an older token never replaces one that lives longer
    assert hooks.editor(5) is new


def test_only_an_answered_interaction_posts_in_its_channel():
    hooks = Hooks(clock=Clock())
    thinking = click(1, channel_id=9, kind=discord.InteractionResponseType.deferred_channel_message)
    hooks.poster(thinking)  # its first follow-up would replace its "thinking…" answer
    assert hooks.poster_for(9) is None
    hooks.replied(thinking)  # its reply was sent: its follow-ups are new messages now
    assert hooks.poster_for(9)[0] is thinking
    update = click(2, channel_id=9)
    # a later click, so its token lives longer: by a second, not by the microseconds between two lines of
    # this test, which a loaded machine can turn the other way (its age is read from the real clock)
    update.created_at = thinking.created_at + datetime.timedelta(seconds=1)
    hooks.poster(update)
    assert hooks.poster_for(9)[0] is update


async def test_a_refused_token_is_forgotten_and_the_caller_falls_back():
    hooks = Hooks(clock=Clock())

    class Gone:
        id = 11

        async def edit(self, **fields):
            raise discord.NotFound(
                SimpleNamespace(status=404, reason="Not Found"), {"code": 10015, "message": "Unknown Webhook"}
            )

    hooks.posted(Gone(), expiry=hooks.clock() + 60)  # type: ignore[arg-type]
    assert await hooks.edit(11, content="x") is False
    assert hooks.editor(11) is None


async def test_unknown_channel_through_a_token_is_raised():
    hooks = Hooks(clock=Clock())

    class Deleted:
        id = 12

        async def edit(self, **fields):
            raise discord.NotFound(
                SimpleNamespace(status=404, reason="Not Found"), {"code": 10003, "message": "Unknown Channel"}
            )

    hooks.posted(Deleted(), expiry=hooks.clock() + 60)  # type: ignore[arg-type]
    try:
        await hooks.edit(12, content="x")
    except discord.NotFound as e:
        assert e.code == 10003
    else:
        raise AssertionError("Unknown Channel must reach the delivery (the game is suspended)")
