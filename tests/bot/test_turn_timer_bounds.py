"""The turn timer is bounded (0 = none, else 30 s .. 30 days) in the setting, in `/game new` through the
host, and a timer stored before that bound is made harmless when the game is read back."""

from __future__ import annotations

import asyncio
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.host import Host, NullDelivery, UserError
from bot.settings import Settings, SettingsError
from bot.storage import Storage
from tests.hosting import ALICE, CHANNEL, GUILD, start_game

ROOT = Path(__file__).resolve().parents[2]
THIRTY_DAYS = 30 * 86400


@pytest.mark.parametrize("value", ["inf", "1e309", "nan", "-inf", "10s", "31d", "1e300"])
def test_turn_timeout_setting_inf_nan_or_out_of_bounds_is_refused(tmp_path, value):
    with pytest.raises(SettingsError, match="ADMIRALTY_TURN_TIMEOUT"):
        Settings.load(env={"ADMIRALTY_TURN_TIMEOUT": value}, env_file=tmp_path / "none")


@pytest.mark.parametrize("value", ["inf", "nan"])
def test_ai_delay_setting_inf_or_nan_is_refused(tmp_path, value):
    with pytest.raises(SettingsError, match="ADMIRALTY_AI_DELAY"):
        Settings.load(env={"ADMIRALTY_AI_DELAY": value}, env_file=tmp_path / "none")


@pytest.mark.parametrize("value, seconds", [("0", 0), ("30s", 30), ("30d", THIRTY_DAYS), ("24h", 86400)])
def test_turn_timeout_setting_within_bounds_is_taken(tmp_path, value, seconds):
    assert (
        Settings.load(env={"ADMIRALTY_TURN_TIMEOUT": value}, env_file=tmp_path / "none").turn_timeout
        == seconds
    )


def test_run_with_an_infinite_turn_timeout_setting_exits_with_one_clear_sentence(tmp_path):
    env = {
        "PATH": "/usr/bin:/bin",
        "PYTHONPATH": str(ROOT),
        "DISCORD_TOKEN": "x",
        "ADMIRALTY_TURN_TIMEOUT": "inf",
        "ADMIRALTY_DB": str(tmp_path / "a.db"),
    }
    proc = subprocess.run(
        [sys.executable, "-m", "bot", "run"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2
    lines = [line for line in proc.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "ADMIRALTY_TURN_TIMEOUT" in lines[0] and "'inf'" in lines[0], proc.stderr
    assert not (tmp_path / "a.db").exists()


@pytest.fixture
async def storage(tmp_path):
    s = await Storage.open(tmp_path / "timer.db")
    yield s
    await s.close()


@pytest.mark.parametrize("seconds", [float("inf"), float("nan"), float("-inf"), 1e300, 10.0, THIRTY_DAYS + 1])
async def test_host_refuses_a_turn_timeout_inf_nan_or_out_of_bounds(storage, seconds):
    host = Host(storage, NullDelivery(), ai_delay=0.0)
    with pytest.raises(UserError, match="turn timeout"):
        await host.new_game(
            guild_id=GUILD,
            channel_id=CHANNEL,
            user_id=ALICE,
            user_name="Alice",
            game_key="enemy-lines",
            turn_timeout=seconds,
        )
    assert await storage.active_game(CHANNEL) is None
    await host.close()


def test_host_refuses_a_default_turn_timeout_out_of_bounds(tmp_path):
    with pytest.raises(ValueError, match="turn timeout"):
        Host(None, NullDelivery(), turn_timeout=float("inf"))


async def _running_game(storage) -> int:
    host = Host(storage, NullDelivery(), ai_delay=0.0)
    table = await start_game(host, options={"quick-setup": True}, turn_timeout=3600, seed=5)
    await host.close()
    return table.id


@pytest.mark.parametrize(
    "turn_timeout, deadline, want_timeout",
    [
        ("9e999", "9e999", None),
        ("-9e999", "-9e999", None),
        ("1e300", "1e300", THIRTY_DAYS),
        ("3600", "9e999", 3600),
        ("9e999", "deadline", None),
    ],
)
async def test_stored_infinite_or_huge_turn_timer_is_dropped_or_clamped_on_load(
    storage, tmp_path, turn_timeout, deadline, want_timeout
):
    game_id = await _running_game(storage)
    con = sqlite3.connect(tmp_path / "timer.db")  # 9e999 is SQLite's infinity; NaN is stored as NULL
    with con:
        # (the schema's CHECK turn_timeout > 0 is only waived here to write the worst case)
        con.execute("PRAGMA ignore_check_constraints = ON")
        con.execute(
            f"UPDATE games SET turn_timeout = {turn_timeout}, deadline = {deadline} WHERE id = ?", (game_id,)
        )
    con.close()
    for row in (await storage.get_game(game_id), (await storage.running_games())[0]):
        assert row.turn_timeout == want_timeout
        assert row.deadline is None or row.deadline <= row.updated_at + THIRTY_DAYS
        assert row.deadline is None or row.deadline > -1e300


async def test_stored_infinite_turn_timer_does_not_spin_the_scheduler_after_a_restart(storage, tmp_path):
    game_id = await _running_game(storage)
    con = sqlite3.connect(tmp_path / "timer.db")
    with con:
        con.execute("UPDATE games SET turn_timeout = 9e999, deadline = 9e999 WHERE id = ?", (game_id,))
    con.close()
    host = Host(storage, NullDelivery(), ai_delay=0.0)
    reads = 0
    real_get_game = storage.get_game

    async def counting_get_game(gid):
        nonlocal reads
        reads += 1
        return await real_get_game(gid)

    storage.get_game = counting_get_game
    started = time.process_time()
    assert [t.id for t in await host.resume_all()] == [game_id]
    await asyncio.sleep(0.5)
    storage.get_game = real_get_game
    assert reads <= 5, f"the turn timer read the game {reads} times in 0.5 s: it spins"
    assert time.process_time() - started < 0.4
    assert any(c[0] == "publish" for c in host.delivery.calls)
    await host.close()
