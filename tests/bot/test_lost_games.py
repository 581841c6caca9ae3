"""The host with games it can no longer play where they are: an unknown game type, a deleted channel."""

from __future__ import annotations

import asyncio
import logging
import time

import pytest

from bot.host import Host, NullDelivery, UserError
from bot.storage import Storage
from bot.tables import ChannelGone
from tests.hosting import AI, ALICE, CHANNEL, GUILD, start_game

OTHER = 11


@pytest.fixture
async def storage(tmp_path):
    s = await Storage.open(tmp_path / "lost.db")
    yield s
    await s.close()


class GoneDelivery(NullDelivery):
    """Records like NullDelivery; once ``gone`` holds a channel id, the board and notices sent there
    raise ChannelGone (as DiscordDelivery does on Discord's 10003). Reminders go by DM: they pass."""

    def __init__(self) -> None:
        super().__init__()
        self.gone: set[int] = set()

    def _check(self, table) -> None:
        if table.channel_id in self.gone:
            raise ChannelGone(table.id, table.channel_id)

    async def publish(self, table, events, note="", actors=(), vias=(), successor=None):
        self._check(table)
        await super().publish(table, events, note, actors, vias)

    async def notice(self, table, text):
        self._check(table)
        await super().notice(table, text)


async def unknown_game(storage: Storage, channel_id: int = CHANNEL) -> int:
    """A running game of a game type this bot does not have, written straight into the database."""

    async def body(db):
        now = time.time()
        cur = await db.execute(
            "INSERT INTO games (guild_id, channel_id, game_key, options, seed, host_id, status, version, state, "
            "deadline, turn_timeout, created_at, updated_at) "
            "VALUES (?, ?, 'no-such-game', '{}', 1, ?, 'running', 2, '{\"players\": 2}', ?, 60, ?, ?)",
            (GUILD, channel_id, ALICE, now + 0.2, now, now),
        )
        await db.execute(
            "INSERT INTO seats (game_id, seat, user_id, is_ai, name) VALUES (?, 0, ?, 0, 'Alice')",
            (cur.lastrowid, ALICE),
        )
        return cur.lastrowid

    return await storage._write(body)


async def vs_ai(host: Host, channel_id: int = CHANNEL, timeout: float | None = None):
    return await start_game(
        host, others=[AI], options={"quick-setup": True}, turn_timeout=timeout, seed=7, channel=channel_id
    )


async def test_resume_skips_a_game_of_an_unknown_type_with_one_log_line(storage, caplog):
    caplog.set_level(logging.INFO)
    first = Host(storage, NullDelivery(), ai_delay=30.0)
    playable = await vs_ai(first, OTHER)
    await first.close()
    gid = await unknown_game(storage)
    host = Host(storage, NullDelivery(), ai_delay=30.0)
    try:
        resumed = await host.resume_all()
        assert [t.id for t in resumed] == [playable.id]
        about = [r for r in caplog.records if f"game {gid}" in r.getMessage()]
        assert len(about) == 1 and about[0].levelno == logging.WARNING and about[0].exc_info is None
        assert "not resumed" in about[0].getMessage() and "no-such-game" in about[0].getMessage()
        assert gid not in host.scheduler._timers and gid not in host.scheduler._ai_tasks
        await asyncio.sleep(0.3)  # past its stored deadline: nothing happens to it
        assert (await storage.get_game(gid)).version == 2
    finally:
        await host.close()


async def test_list_games_lists_a_game_of_an_unknown_type_and_the_others(storage):
    host = Host(storage, NullDelivery(), ai_delay=30.0)
    try:
        playable = await vs_ai(host, OTHER)
        gid = await unknown_game(storage)
        tables = await host.list_games(GUILD)
        assert [(t.id, t.title, t.unavailable is None) for t in tables] == [
            (playable.id, "Enemy Lines", True),
            (gid, "no-such-game", False),
        ]
        with pytest.raises(UserError, match=f"Game #{gid} cannot be played"):
            await host.table(gid)
    finally:
        await host.close()


async def test_timeout_move_in_a_deleted_channel_suspends_the_game_quietly(storage, caplog):
    delivery = GoneDelivery()
    host = Host(storage, delivery, ai_delay=0.0, turn_timeout=0.4, min_turn_timeout=0.1)  # fast timer
    try:
        table = await vs_ai(host)
        await host.idle()
        table = await host.table(table.id)
        assert table.human_to_act() == [0] and table.row.deadline is not None
        version = table.version
        delivery.gone.add(CHANNEL)
        for _ in range(100):  # the deadline passes: a move is made for Alice, its board finds no channel
            if (await storage.get_game(table.id)).status == "suspended":
                break
            await asyncio.sleep(0.05)
        row = await storage.get_game(table.id)
        assert (row.status, row.deadline) == ("suspended", None)
        assert row.version == version + 1  # the timeout move was committed before its board failed
        assert table.id not in host.scheduler._timers and table.id not in host.scheduler._ai_tasks
        assert table.id not in host.publisher._retries
        await asyncio.sleep(0.6)
        assert (await storage.get_game(table.id)).version == version + 1  # no AI, no further timeout
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
        with pytest.raises(UserError, match=f"Game #{table.id} is suspended"):
            await host.choose(table.id, ALICE, row.version, ())
        assert (await storage.get_game(table.id)).version == version + 1
    finally:
        await host.close()


@pytest.mark.parametrize(("code", "gone"), [(10003, True), (10008, False), (10062, False)])
async def test_only_unknown_channel_counts_as_a_deleted_channel(storage, code, gone):
    """Unknown Channel (10003) suspends; Unknown Message (10008, a deleted board) and the rest do not."""
    import types

    import discord

    from bot.delivery import channel_gone

    host = Host(storage, NullDelivery(), ai_delay=30.0)
    try:
        table = await vs_ai(host)
        error = discord.NotFound(
            types.SimpleNamespace(status=404, reason="Not Found"), {"code": code, "message": "Unknown"}
        )
        found = channel_gone(table, error)
        assert (found is not None) == gone
        if gone:
            assert (found.game_id, found.channel_id) == (table.id, CHANNEL)
        forbidden = discord.Forbidden(
            types.SimpleNamespace(status=403, reason="Forbidden"), {"code": 10003, "message": "odd"}
        )
        assert channel_gone(table, forbidden) is None
    finally:
        await host.close()
