"""Settings for running past one machine: log format, metrics port, shards; the sharded bot."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from discord.ext import commands

from bot.app import Admiralty, ShardedAdmiralty
from bot.settings import Settings, SettingsError, parse_shards

NO_FILE = Path("/nonexistent/.env")


def load(**env) -> Settings:
    return Settings.load(env, env_file=NO_FILE)


def test_defaults_keep_one_plain_process_with_text_logs_and_no_metrics():
    s = load()
    assert (s.log_format, s.metrics_port, s.metrics_addr, s.shard_ids, s.shard_count) == (
        "text",
        None,
        "127.0.0.1",
        None,
        None,
    )


def test_new_settings_are_read():
    s = load(
        ADMIRALTY_LOG_FORMAT="JSON",
        ADMIRALTY_METRICS_PORT="9108",
        ADMIRALTY_METRICS_ADDR="0.0.0.0",
        ADMIRALTY_SHARDS="2-3/4",
    )
    assert (s.log_format, s.metrics_port, s.metrics_addr, s.shard_ids, s.shard_count) == (
        "json",
        9108,
        "0.0.0.0",
        (2, 3),
        4,
    )


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("0-1/4", ((0, 1), 4)),
        ("3/4", ((3,), 4)),
        (" 0/1 ", ((0,), 1)),
        ("0-3/4", ((0, 1, 2, 3), 4)),
        ("", None),
    ],
)
def test_shards_are_parsed(text, want):
    assert parse_shards(text) == want


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("4", "'0-1/4'"),
        ("a-b/4", "'0-1/4'"),
        ("1-/4", "'0-1/4'"),
        ("4/4", "0 to 3"),
        ("2-1/4", "first shard"),
        ("0/0", "at least 1"),
        ("-1/4", "'0-1/4'"),
        ("٣/4", "'0-1/4'"),
    ],
)
def test_bad_shards_are_refused_with_a_clear_error(text, says):
    with pytest.raises(SettingsError, match="ADMIRALTY_SHARDS") as e:
        load(ADMIRALTY_SHARDS=text)
    assert says in str(e.value)


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("ADMIRALTY_LOG_FORMAT", "xml"),
        ("ADMIRALTY_METRICS_PORT", "http"),
        ("ADMIRALTY_METRICS_PORT", "70000"),
        ("ADMIRALTY_METRICS_PORT", "0"),
    ],
)
def test_bad_values_name_the_setting(name, value):
    with pytest.raises(SettingsError, match=name):
        load(**{name: value})


def test_the_bot_is_sharded_only_when_shards_are_set(tmp_path):
    plain = Settings(
        token="x", database=tmp_path / "a.db", dev_guild=None, turn_timeout=0, ai_delay=0, log_level="INFO"
    )
    bot = Admiralty(plain)
    assert type(bot) is Admiralty and not isinstance(bot, commands.AutoShardedBot)
    assert bot.shard_count is None
    sharded = Admiralty(dataclasses.replace(plain, shard_ids=(2, 3), shard_count=4, metrics_port=0))
    assert isinstance(sharded, ShardedAdmiralty) and isinstance(sharded, commands.AutoShardedBot)
    assert (sharded.shard_ids, sharded.shard_count) == ([2, 3], 4)
    assert sharded.settings.shard_count == 4


@pytest.mark.parametrize(
    "shard_ids, shard_count, shared",
    [(None, None, False), ((0, 1), 2, False), ((0,), 2, True), ((1,), 2, True), ((2, 3), 4, True)],
)
def test_games_are_shared_with_other_processes_when_this_one_runs_some_shards_only(
    tmp_path, shard_ids, shard_count, shared
):
    """Other processes (the other shards) publish the same games, DMs included: bot/delivery/dms.py then
    checks after each DM edit that no other process drew that DM meanwhile."""
    s = Settings(
        token="t", database=tmp_path / "x.db", dev_guild=None, turn_timeout=0, ai_delay=0.0, log_level="INFO"
    )
    assert dataclasses.replace(s, shard_ids=shard_ids, shard_count=shard_count).shares_games is shared
