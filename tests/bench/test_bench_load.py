"""bench/bench_load.py's own arithmetic and reading of the table (issue 19): the CPU a move by phase,
the measured window, and the driver's reading of private menus."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

ROOT = Path(__file__).resolve().parents[2]


def bench():
    spec = importlib.util.spec_from_file_location("bench_load", ROOT / "bench" / "bench_load.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("bench_load", module)
    spec.loader.exec_module(module)
    return module


def test_cpu_a_move_is_split_by_phase_and_adds_up():
    b = bench()
    # 10 s of the bot's CPU (1 engine, 0.5 storage) and 3 s of its drawing processes (2.5 of it
    # drawing proper, the rest their own work), for 100 moves
    split = b.cpu_split(10.0, 3.0, {"drawn": 2.5, "engine": 1.0, "storage": 0.5}, 100)
    assert split == {
        "drawing": 30.0,  # ms a move: all of the drawing processes' CPU
        "engine": 10.0,
        "storage": 5.0,
        "discord+host": 85.0,  # the rest of the bot's own CPU
        "total": 130.0,
    }
    # drawn in the bot's threads (no drawing process): out of the bot's own CPU
    split = b.cpu_split(10.0, 0.0, {"drawn": 2.0, "engine": 1.0, "storage": 0.5}, 100)
    assert split["drawing"] == 20.0 and split["discord+host"] == 65.0 and split["total"] == 100.0
    assert b.cpu_split(1.0, 0.0, {}, 0) == {}


def test_clicks_before_the_window_are_not_measured():
    # Stats.since was 0 until the warm-up ended: every warm-up click counted as measured
    assert bench().Stats().since == float("inf")


def test_every_game_of_the_mix_is_played():
    b = bench()
    assert {key for key, _ in b.MIX.values()} == {"enemy-lines", "enemy-in-sight", "warships", "everrain"}
    assert any(options.get("variant") == "advanced" for _, options in b.MIX.values())


def button(custom_id: str, label: str = "x"):
    return SimpleNamespace(custom_id=custom_id, label=label)


def test_a_private_menu_updated_in_place_says_played():
    b = bench()
    menu = SimpleNamespace(id=5, text="✅ Played: Fire › Hull")
    result = SimpleNamespace(original=menu, updated=True, text="")
    assert "✅ Played" in b.Game.said(result, SimpleNamespace(id=5))
    assert "✅ Played" not in b.Game.said(result, SimpleNamespace(id=6))  # another message was edited


def test_a_multi_select_is_one_entry_within_its_bounds():
    b = bench()
    game = b.Game.__new__(b.Game)
    game.rng = random.Random(1)
    select = SimpleNamespace(
        custom_id="adm:m:1:4:0:0:abcd",
        options=[{"value": str(i)} for i in range(6)],
        values=[str(i) for i in range(6)],
        min_values=2,
        max_values=3,
    )
    message = SimpleNamespace(
        buttons=[button("adm:mn:1:4:0:0:abcd"), button("adm:b:1:4:0:0", "◀ Back"), button("adm:v:1")],
        selects=[select],
    )
    for _ in range(20):
        entries = game.entries(message)
        assert entries[0] == ("b", "adm:mn:1:4:0:0:abcd")  # choose none; not Back, not My view
        kind, values = entries[1]
        assert kind == select.custom_id and 2 <= len(values) <= 3 and len(set(values)) == len(values)


PROBE = """\
import asyncio
from bot.drawing import Drawing
from bot.games import registry


async def main():
    drawing = Drawing(1, warm=False)
    game = registry.get("enemy-lines").new(2, {}, 1)
    before = await drawing.picture("enemy-lines", game.view(None), None)
    seat = game.to_act()[0]
    game.apply(seat, game.legal_actions(seat)[0])
    after = await drawing.picture("enemy-lines", game.view(None), None)
    await drawing.close()
    print("stubbed" if before == after else "drawn")


if __name__ == "__main__":  # (a spawned worker imports this module too)
    asyncio.run(main())
"""


def test_the_stubbed_renderer_reaches_the_drawing_processes(tmp_path):
    """--stub-render stubs the renderer in the bot's drawing processes too, the bot being run as a
    module (``-m bot``) whose spawned workers re-run no main script: two different views come back as
    the one stub picture. (The stub was in the main script: the workers drew real boards.)"""
    import os
    import subprocess

    (tmp_path / "probe.py").write_text(PROBE)
    path = os.pathsep.join((str(bench().stub_render_path(tmp_path)), str(ROOT), str(tmp_path)))
    done = subprocess.run(
        [sys.executable, "-m", "probe"],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": path},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "stubbed"


async def test_a_finished_game_is_replaced_by_a_new_one_of_its_kind_in_its_channel():
    """--replace: when a game ends before the window does, its channel opens, joins and starts a new game
    of the same kind (so the running games and the mix stay as they started), and reads only that game's
    messages: the finished game's "Game over" and table are older than its lobby. Without --replace, or
    once the window or the move cap is reached, the channel stays idle."""
    import time

    from tests.fakediscord import FakeDiscord

    b = bench()
    async with FakeDiscord(users=["p0a", "p0b"], channels=["game-0"]) as fd:
        channel = fd.channel("game-0")
        opened: list[tuple[str, dict]] = []
        played: list[int | None] = []

        def post(content: str, custom_id: str | None = None) -> None:
            button = {"type": 2, "style": 1, "label": "x", "custom_id": custom_id}
            components = [{"type": 1, "components": [button]}] if custom_id else []
            fd._create_message(channel, fd.bot_user, {"content": content, "components": components}, [])

        def channel_of(replace: bool):
            """A Game whose members' commands and clicks are answered as the bot answers them, and whose
            play is 10 moves, then "Game over"."""
            stats = b.Stats()
            game = b.Game(fd, 0, stats, random.Random(1), "everrain", replace=replace)
            host, guest = game.members

            async def slash(command, *, channel, game, thread, **options):
                assert command == "game new" and channel.name == "game-0"
                opened.append((game, options))
                rec = fd._new_interaction(host.user, channel, 2, {"name": "game"}, command_name="game")
                post(f"Lobby {len(opened)}", f"adm:l:{100 + len(opened)}:join")
                return SimpleNamespace(id=rec.id, failed=False, text="Lobby opened")

            async def click(message, label):
                return SimpleNamespace(failed=False, text="joined" if label == "Join" else "started")

            async def play_one(until, max_moves, think):
                # the game before's "Game over" is not this one's: it is not over when it starts
                assert not game.game_over() and game.seats == {} and game.acted == {}
                played.append(game.game_id)
                game.moves += 10
                post("🏁 Game over — the crews win")
                assert game.game_over()

            host.slash, guest.click, host.click, game.play_one = slash, click, click, play_one
            return game, stats

        game, stats = channel_of(replace=True)
        await game.setup()
        await game.play(time.monotonic() + 60, max_moves=30, think=0)
        # three games of 10 moves: the first, then two in its place, up to the channel's cap of 30 moves
        assert played == [101, 102, 103]
        assert opened == [("everrain", {"length": "short"})] * 3
        assert stats.replaced == {"everrain": 2} and stats.finished == 3 and stats.replace_errors == []

        # without --replace the channel stays idle once its game is over; nor is one started after the window
        for replace, until in ((False, time.monotonic() + 60), (True, time.monotonic() - 1)):
            played.clear()
            game, stats = channel_of(replace)
            await game.setup()
            await game.play(until, max_moves=30, think=0)
            assert len(played) == 1 and stats.replaced == {} and stats.finished == 1


@pytest.mark.heavy
async def test_the_load_bench_keeps_its_games_running(tmp_path):
    """The bench against the real bot (a subprocess, boards stubbed): two channels of short Everrain
    games, which random clicks end in 40-80 moves, played for longer than one game lasts. Every game that
    ends is followed by a new one in its channel, every move the members saw acknowledged is in the
    database, and nothing is stuck or refused."""
    import sqlite3

    b = bench()
    r = await b.run_one(
        2, 20.0, 400, 0.0, 2, tmp_path, stub_render=True, warmup=2.0, mix=("everrain",), replace=True
    )
    assert r["setup_errors"] == [] and r["replace_errors"] == [] and r["bot_error_count"] == 0
    assert r["replaced"].get("everrain", 0) >= 1 and set(r["replaced"]) == {"everrain"}
    assert r["stuck"] == 0 and r["failed"] == 0 and r["measured"] > 0
    assert r["in_db"] == r["applied"]
    con = sqlite3.connect(tmp_path / "load-2-think0-stub.db")
    try:
        games = con.execute("SELECT count(*), count(DISTINCT channel_id) FROM games").fetchone()
    finally:
        con.close()
    assert games == (2 + sum(r["replaced"].values()), 2)
