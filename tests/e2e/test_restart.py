"""A restart of the bot process (in-process here; tests/e2e/test_chaos.py kills a real subprocess)."""

from __future__ import annotations

import random

from bot.app import Admiralty
from bot.settings import Settings
from tests.fakediscord import FakeDiscord, running_bot


def settings(database) -> Settings:
    return Settings(
        token="fake", database=database, dev_guild=None, turn_timeout=0, ai_delay=0.0, log_level="INFO"
    )


def command_syncs(fd) -> int:
    return sum(1 for req, status in fd.requests if req.startswith("PUT ") and req.endswith("/commands"))


async def test_restart_resumes_games_keeps_buttons_and_syncs_commands_only_when_changed(e2e_database):
    from tests.e2e.conftest import Driver

    async with FakeDiscord(users=["alice", "bob", "carol"]) as fd:
        channel = fd.channel("games")
        async with running_bot(Admiralty(settings(e2e_database)), fd) as bot:
            d = Driver(fd, bot, channel)
            assert command_syncs(fd) == 1
            await d.new_game("alice", quick_setup=True)
            await d.member("bob").click(d.lobby_message(), "Join")
            await d.member("alice").click(d.lobby_message(), "Start")
            rng = random.Random(3)
            for _ in range(4):
                await d.play_ai_move(rng)
            table = await d.table()
            version = table.version
            old_turn = d.turn_message()
            # The player to act is about to click the table's controls when the bot restarts.
            seat = table.game.to_act()[0]
            mover = next(
                m for m in (d.member("alice"), d.member("bob")) if m.id == table.seat_row(seat).user_id
            )
            first = next(b for b in old_turn.buttons if b.custom_id.startswith("adm:b"))
        # The bot is down; its messages and buttons stay in Discord.
        async with running_bot(Admiralty(settings(e2e_database)), fd) as bot:
            d = Driver(fd, bot, channel)
            assert command_syncs(fd) == 1, "unchanged commands are not synced again"
            # The table, the same message, says so in its log.
            await fd.wait_for(lambda: "resumes where it stood" in old_turn.text, timeout=10)
            assert d.table_message().id == old_turn.id
            table = await d.table()
            assert table.version == version and not table.game.is_over
            # A button sent before the restart still works: it opens the menu, whose leaf plays.
            assert any(b.custom_id == first.custom_id for b in old_turn.buttons)
            opened = await mover.click(old_turn, first.custom_id)
            await opened.wait_for(lambda r: any(m.ephemeral for m in r.followups), timeout=10)
            menu = next(m for m in opened.followups if m.ephemeral)  # the mover's, privately
            leaf = next(b for b in menu.buttons if b.custom_id.startswith("adm:b") and "Back" not in b.label)
            await mover.click(menu, leaf.custom_id)
            await fd.wait_for(lambda: "✅ Played" in fd.message(menu.id).text, timeout=10)
            assert (await d.table()).version == version + 1
            await d.play_ai_move(random.Random(5))
            assert (await d.table()).version == version + 2
