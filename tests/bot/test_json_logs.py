"""`ADMIRALTY_LOG_FORMAT=json`: one JSON object a line, with the game's fields, and no secret in it."""

from __future__ import annotations

import asyncio
import io
import json
import logging

import pytest

from bot import logs
from bot.__main__ import LIBRARY_LOG_FLOORS, quiet_libraries, setup_logging
from bot.host import NullDelivery
from bot.logs import JsonFormatter, log_context, make_handler
from bot.storage import Storage
from tests.bot.test_log_secrets import hand_cards, play_checking_logs, two_humans
from tests.hosting import AI, ALICE, GUILD, start_game


class JsonLines(logging.Handler):
    """Formats every record as the bot would with `ADMIRALTY_LOG_FORMAT=json`, and keeps the lines.
    ``records`` holds them in the shape the secret check of test_log_secrets reads (``getMessage``):
    the raw line and its decoded message, so that a secret is found whether or not JSON escaped it."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        inner = make_handler("json", io.StringIO())
        self.setFormatter(inner.formatter)
        for f in inner.filters:
            self.addFilter(f)
        self.lines: list[str] = []
        self.records: list[_Line] = []

    def emit(self, record: logging.LogRecord) -> None:
        line = self.format(record)
        self.lines.append(line)
        self.records.append(_Line(line))


class _Line:
    exc_text = None

    def __init__(self, line: str) -> None:
        self.line = line

    def getMessage(self) -> str:  # noqa: N802 - the LogRecord interface
        decoded = json.loads(self.line)
        return "\n".join([self.line, *(str(v) for v in decoded.values())])


@pytest.fixture
def json_log():
    """The root logger at DEBUG (libraries at their floors), every line also formatted as JSON."""
    root = logging.getLogger()
    saved = root.level, {name: logging.getLogger(name).level for name in LIBRARY_LOG_FLOORS}
    handler = JsonLines()
    root.addHandler(handler)
    root.setLevel(logging.DEBUG)
    quiet_libraries(logging.DEBUG)
    yield handler
    root.removeHandler(handler)
    root.setLevel(saved[0])
    for name, level in saved[1].items():
        logging.getLogger(name).setLevel(level)


@pytest.fixture
async def storage(tmp_path):
    s = await Storage.open(tmp_path / "json.db")
    yield s
    await s.close()


async def test_an_enemy_in_sight_game_logs_json_lines_without_hands_or_secret_choices(storage, json_log):
    host, table = await two_humans(storage, "enemy-in-sight", {})

    def secret(game, seat, action):
        return action.get("type") == "secret"

    await play_checking_logs(
        host, table, json_log, secret=secret, hidden_now=hand_cards, max_moves=600, want_secret=2
    )
    assert json_log.lines
    decoded = [json.loads(line) for line in json_log.lines]  # every line is one JSON object
    assert all({"time", "level", "logger", "message"} <= set(d) for d in decoded)
    moves = [d for d in decoded if d["logger"] == "admiralty.turns" and "version" in d["message"]]
    assert moves, "no move was logged"
    assert all(d["game"] == table.id and d["guild"] == GUILD and isinstance(d["version"], int) for d in moves)
    assert "shard" not in moves[0]  # not sharded


async def test_lines_of_the_publisher_and_the_lobby_name_their_game(storage, json_log):
    """The publisher's and the lobby's lines get the game from the context its callers set."""

    class Broken(NullDelivery):
        fail = False

        async def publish(self, table, events, note="", actors=(), vias=(), successor=None):
            if self.fail:
                raise RuntimeError("Discord is down")

        async def lobby(self, table, note=""):
            if note == "boom":
                raise RuntimeError("no lobby")

    delivery = Broken()
    from bot.host import Host

    host = Host(storage, delivery, ai_delay=0.0)
    table = await start_game(host, others=[AI], seed=3)
    delivery.fail = True
    seat = table.game.to_act()[0]
    if table.seat_row(seat).is_ai:
        await host.idle()
        table = await host.table(table.id)
        seat = table.game.to_act()[0]
    import random

    await host.act(table.id, ALICE, table.game.ai_action(seat, random.Random(1)))
    await host.idle()  # the move is published after its commit, outside the lock
    await host.close()
    failed = [json.loads(line) for line in json_log.lines if "will retry" in line]
    assert failed and failed[0]["logger"] == "admiralty.publisher"
    assert failed[0]["game"] == table.id and failed[0]["guild"] == GUILD and "exc" in failed[0]


def test_json_formatter_fields_extra_and_shards():
    stream = io.StringIO()
    handler = make_handler("json", stream)
    logger = logging.getLogger("admiralty.test-json")
    logger.addHandler(handler)
    logger.propagate = False
    logger.setLevel(logging.INFO)
    try:
        logs.configure(shard_count=4)
        guild = (7 << 22) | 12345  # shard 7 % 4 = 3
        with log_context(game=5, guild=guild):
            with log_context(version=9):
                logger.info("game %s: ünïcode — ok", 5)
            logger.info("outer", extra={"game": 6})
        logger.info("plain")
        try:
            raise ValueError("bad")
        except ValueError:
            logger.exception("failed")
    finally:
        logs.configure(shard_count=None)
        logger.removeHandler(handler)
    lines = [json.loads(line) for line in stream.getvalue().splitlines()]
    assert lines[0]["message"] == "game 5: ünïcode — ok" and "ünïcode" in stream.getvalue()
    assert (lines[0]["game"], lines[0]["guild"], lines[0]["shard"], lines[0]["version"]) == (5, guild, 3, 9)
    assert lines[1]["game"] == 6 and "version" not in lines[1]
    assert set(lines[2]) == {"time", "level", "logger", "message"} and lines[2]["level"] == "INFO"
    assert lines[3]["level"] == "ERROR" and "ValueError: bad" in lines[3]["exc"]
    assert lines[0]["time"].endswith("+00:00")
    with pytest.raises(TypeError):
        log_context(secret="x")


async def test_the_context_follows_tasks_and_ends_with_its_block():
    seen = []

    async def child():
        seen.append(logs.current())

    async with log_context(game=1):
        await asyncio.create_task(child())
    seen.append(logs.current())
    assert seen == [{"game": 1}, {}]


def test_setup_logging_json_writes_json_to_stdout(capsys):
    root = logging.getLogger()
    saved = (root.level, list(root.handlers), {n: logging.getLogger(n).level for n in LIBRARY_LOG_FLOORS})
    try:
        root.handlers.clear()
        setup_logging("INFO", "json")
        with log_context(game=3):
            logging.getLogger("admiralty.x").info("hello")
        logging.getLogger("discord.http").debug("a request body")  # below its floor
        assert isinstance(root.handlers[0].formatter, JsonFormatter)
    finally:
        root.setLevel(saved[0])
        root.handlers[:] = saved[1]
        for name, level in saved[2].items():
            logging.getLogger(name).setLevel(level)
    out = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(d["message"], d["game"]) for d in out] == [("hello", 3)]
