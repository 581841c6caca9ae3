"""Settings, the command line and the offline demo."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bot.games import registry
from bot.settings import Settings, SettingsError, read_env_file

ROOT = Path(__file__).resolve().parents[2]


def test_settings_from_env_file_and_environment_override(tmp_path):
    env = tmp_path / ".env"
    env.write_text(
        "# comment\nDISCORD_TOKEN='abc'\nADMIRALTY_TURN_TIMEOUT=15m\nADMIRALTY_DEV_GUILD=42\n"
        "ADMIRALTY_AI_DELAY=0.5 # fast\n"
    )
    s = Settings.load(env={"ADMIRALTY_DB": "x.db"}, env_file=env)
    assert s.token == "abc" and s.turn_timeout == 900 and s.dev_guild == 42 and s.ai_delay == 0.5
    assert str(s.database) == "x.db" and s.log_level == "INFO"
    s2 = Settings.load(env={"DISCORD_TOKEN": "zzz", "ADMIRALTY_TURN_TIMEOUT": "2d"}, env_file=env)
    assert s2.token == "zzz" and s2.turn_timeout == 2 * 86400


def test_env_file_is_read_as_compose_and_dotenv_read_it(tmp_path):
    """Quotes and comments are not part of a value (python-dotenv; the hand-written parser kept
    `"abc"` with its quotes when a comment followed)."""
    env = tmp_path / ".env"
    env.write_text(
        'DISCORD_TOKEN="abc" # comment\n'
        "ADMIRALTY_DB='games.db'   # single quotes, then a comment\n"
        "export ADMIRALTY_LOG_LEVEL=warning\n"
        'ADMIRALTY_METRICS_ADDR="0.0.0.0"\n'
        "ADMIRALTY_SHARDS=\n"
        "ADMIRALTY_DEV_GUILD\n"  # a name alone sets nothing
        'ADMIRALTY_TURN_TIMEOUT="12h"#no space before the comment\n',
        encoding="utf-8",
    )
    values = read_env_file(env)
    assert values["DISCORD_TOKEN"] == "abc"
    assert values["ADMIRALTY_DB"] == "games.db"
    assert values["ADMIRALTY_METRICS_ADDR"] == "0.0.0.0"
    assert values["ADMIRALTY_SHARDS"] == ""
    assert "ADMIRALTY_DEV_GUILD" not in values
    s = Settings.load(env={}, env_file=env)
    assert s.token == "abc" and str(s.database) == "games.db" and s.log_level == "WARNING"
    assert s.metrics_addr == "0.0.0.0" and s.turn_timeout == 12 * 3600 and s.dev_guild is None
    quoted = tmp_path / "quoted.env"
    quoted.write_text("DISCORD_TOKEN='a # b'\nADMIRALTY_DB=x#y.db\n", encoding="utf-8")
    assert read_env_file(quoted) == {"DISCORD_TOKEN": "a # b", "ADMIRALTY_DB": "x#y.db"}
    assert read_env_file(tmp_path / "missing.env") == {}


@pytest.mark.parametrize("bad", ["-1", "-0.5", "-2s", "-1m"])
def test_negative_ai_delay_is_refused_with_a_clear_sentence(bad, tmp_path):
    with pytest.raises(SettingsError, match=r"ADMIRALTY_AI_DELAY .*0 or more seconds") as refused:
        Settings.load(env={"ADMIRALTY_AI_DELAY": bad}, env_file=tmp_path / "none")
    assert bad in str(refused.value)
    assert Settings.load(env={"ADMIRALTY_AI_DELAY": "0"}, env_file=tmp_path / "none").ai_delay == 0


def run_bot(tmp_path: Path, **settings: str) -> tuple[int, list[str]]:
    """``python -m bot run`` in ``tmp_path`` with only these settings: its exit code and stderr lines."""
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), **settings}
    proc = subprocess.run(
        [sys.executable, "-m", "bot", "run"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    return proc.returncode, [line for line in proc.stderr.splitlines() if line.strip()]


def test_run_with_a_negative_ai_delay_exits_with_one_sentence(tmp_path):
    code, lines = run_bot(tmp_path, DISCORD_TOKEN="t", ADMIRALTY_AI_DELAY="-3")
    assert code == 2
    assert len(lines) == 1 and "ADMIRALTY_AI_DELAY" in lines[0] and "'-3'" in lines[0]


def test_settings_errors_name_the_setting(tmp_path):
    with pytest.raises(SettingsError, match="ADMIRALTY_TURN_TIMEOUT"):
        Settings.load(env={"ADMIRALTY_TURN_TIMEOUT": "soon"}, env_file=tmp_path / "none")
    with pytest.raises(SettingsError, match="ADMIRALTY_DEV_GUILD"):
        Settings.load(env={"ADMIRALTY_DEV_GUILD": "my server"}, env_file=tmp_path / "none")


def test_db_pool_setting_is_a_number_of_connections_given_to_postgres_only(tmp_path):
    from bot.settings import DB_POOL_DEFAULT

    none = tmp_path / "none"
    pg = Settings.load(env={"ADMIRALTY_DB": "postgresql://u@h/db", "ADMIRALTY_DB_POOL": "3"}, env_file=none)
    assert pg.db_pool == 3 and pg.storage_options() == {"pool_size": 3}
    default = Settings.load(env={"ADMIRALTY_DB": "postgresql://u@h/db"}, env_file=none)
    assert default.db_pool == DB_POOL_DEFAULT and default.storage_options() == {"pool_size": DB_POOL_DEFAULT}
    sqlite = Settings.load(env={"ADMIRALTY_DB": "x.db", "ADMIRALTY_DB_POOL": "3"}, env_file=none)
    assert sqlite.storage_options() == {}  # one SQLite writer: no pool
    for bad in ("0", "-2", "eight", "1.5", "101"):
        with pytest.raises(SettingsError, match="ADMIRALTY_DB_POOL"):
            Settings.load(env={"ADMIRALTY_DB_POOL": bad}, env_file=none)


def test_env_example_lists_every_setting():
    keys = set(read_env_file(ROOT / ".env.example"))
    assert keys == {
        "DISCORD_TOKEN",
        "ADMIRALTY_DB",
        "ADMIRALTY_DB_POOL",
        "ADMIRALTY_DEV_GUILD",
        "ADMIRALTY_TURN_TIMEOUT",
        "ADMIRALTY_ABANDON_AFTER",
        "ADMIRALTY_AI_DELAY",
        "ADMIRALTY_LOG_LEVEL",
        "ADMIRALTY_LOG_FORMAT",
        "ADMIRALTY_METRICS_PORT",
        "ADMIRALTY_METRICS_ADDR",
        "ADMIRALTY_SHARDS",
        "ADMIRALTY_DRAW_WORKERS",
        "ADMIRALTY_AI_WORKERS",
        "ADMIRALTY_EVENT_LOOP",
    }


def test_run_without_token_exits_with_one_clear_sentence(tmp_path):
    code, lines = run_bot(tmp_path)
    assert code == 2
    assert len(lines) == 1 and "DISCORD_TOKEN" in lines[0]


@pytest.mark.parametrize("key", registry.keys())
def test_demo_plays_every_game_to_the_end(key, tmp_path):
    from bot.demo import play

    out = tmp_path / key
    result = play(key, seed=1, out=out, images=False, echo=lambda *_: None)
    assert result["over"], f"{key}: the AI game did not finish"
    saved = json.loads((out / "result.json").read_text())
    assert saved["result"]["winners"] is not None and saved["result"] == result["result"]


def test_demo_command_writes_pngs_and_score(tmp_path):
    proc = subprocess.run(
        [sys.executable, "-m", "bot", "demo", "enemy-lines", "--seed", "2", "--out", str(tmp_path / "d")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    pngs = sorted((tmp_path / "d").glob("move-*.png"))
    assert len(pngs) > 10 and pngs[0].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "Winners" in proc.stdout


def test_abandon_after_is_a_duration_from_zero_to_thirty_days(tmp_path):
    from bot.settings import ABANDON_AFTER_DEFAULT

    none = tmp_path / "none"
    assert Settings.load(env={}, env_file=none).abandon_after == ABANDON_AFTER_DEFAULT == 3 * 86400
    assert Settings.load(env={"ADMIRALTY_ABANDON_AFTER": "12h"}, env_file=none).abandon_after == 43200
    assert Settings.load(env={"ADMIRALTY_ABANDON_AFTER": "0"}, env_file=none).abandon_after == 0
    for bad in ("-1", "31d", "soon", "inf"):
        with pytest.raises(SettingsError, match="ADMIRALTY_ABANDON_AFTER"):
            Settings.load(env={"ADMIRALTY_ABANDON_AFTER": bad}, env_file=none)


def test_the_event_loop_setting(monkeypatch):
    import importlib.util

    from bot.settings import Settings, SettingsError

    nowhere = Path("/nonexistent")
    installed = importlib.util.find_spec("uvloop") is not None
    assert Settings.load({}, nowhere).event_loop == ("uvloop" if installed else "asyncio")
    assert Settings.load({"ADMIRALTY_EVENT_LOOP": " asyncio "}, nowhere).event_loop == "asyncio"
    with pytest.raises(SettingsError, match="ADMIRALTY_EVENT_LOOP"):
        Settings.load({"ADMIRALTY_EVENT_LOOP": "trio"}, nowhere)
    # asked for by name where it is missing: said at start-up, not a crash later
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None)
    with pytest.raises(SettingsError, match="uvloop is not installed"):
        Settings.load({"ADMIRALTY_EVENT_LOOP": "uvloop"}, nowhere)
    assert Settings.load({}, nowhere).event_loop == "asyncio"
