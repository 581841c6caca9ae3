"""Which guilds a sharded process runs, and which running games it resumes after a start."""

from __future__ import annotations

import dataclasses
from types import SimpleNamespace

from bot.app import Admiralty, ShardedAdmiralty
from bot.settings import Settings, shard_of


def settings(tmp_path, shards: tuple[tuple[int, ...], int] | None = None) -> Settings:
    s = Settings(
        token="x", database=tmp_path / "a.db", dev_guild=None, turn_timeout=0, ai_delay=0, log_level="INFO"
    )
    if shards:
        s = dataclasses.replace(s, shard_ids=shards[0], shard_count=shards[1])
    return s


def guild_on(shard: int, count: int, n: int = 0) -> int:
    gid = ((1_700_000_000_000 + shard + count * n) << 22) | 77
    assert shard_of(gid, count) == shard
    return gid


def test_shard_of_is_discords_formula():
    assert shard_of((9 << 22) | 4095, 4) == 1 and shard_of(8 << 22, 4) == 0 and shard_of(12345, 1) == 0


def test_runs_guild_of_its_shards_only_and_dms_on_shard_0(tmp_path):
    plain = settings(tmp_path)
    assert plain.runs_guild(guild_on(3, 8)) and plain.runs_guild(None)  # not sharded: everything
    first = settings(tmp_path, ((0, 1, 2, 3), 8))  # ADMIRALTY_SHARDS=0-3/8
    last = settings(tmp_path, ((4, 5, 6, 7), 8))
    for shard in range(8):
        gid = guild_on(shard, 8)
        assert first.runs_guild(gid) == (shard < 4) and last.runs_guild(gid) == (shard >= 4)
    assert first.runs_guild(None) and not last.runs_guild(None)


def test_a_sharded_process_resumes_only_the_games_of_its_shards(tmp_path):
    rows = [SimpleNamespace(id=n, guild_id=guild_on(n % 2, 2, n)) for n in range(6)]
    rows.append(SimpleNamespace(id=99, guild_id=None))
    for shard in (0, 1):
        bot = Admiralty(settings(tmp_path, ((shard,), 2)))
        bot._to_resume = list(rows)
        mine = bot.games_to_resume()
        assert [r.id for r in mine] == [n for n in range(6) if n % 2 == shard] + ([99] if shard == 0 else [])
    both = Admiralty(settings(tmp_path, ((0, 1), 2)))
    both._to_resume = list(rows)
    assert both.games_to_resume() == rows
    plain = Admiralty(settings(tmp_path))
    plain._to_resume = list(rows)
    assert plain.games_to_resume() == rows


def test_admiralty_shards_0_3_of_8_runs_those_four_shards_of_eight(tmp_path):
    s = Settings.load(
        {"DISCORD_TOKEN": "x", "ADMIRALTY_DB": str(tmp_path / "a.db"), "ADMIRALTY_SHARDS": "0-3/8"},
        env_file=tmp_path / "none.env",
    )
    bot = Admiralty(s)
    assert isinstance(bot, ShardedAdmiralty) and (bot.shard_ids, bot.shard_count) == ([0, 1, 2, 3], 8)
    assert [shard for shard in range(8) if s.runs_guild(guild_on(shard, 8))] == [0, 1, 2, 3]
    unsharded = Settings.load(
        {"DISCORD_TOKEN": "x", "ADMIRALTY_DB": str(tmp_path / "a.db")}, env_file=tmp_path / "none.env"
    )
    plain = Admiralty(unsharded)
    assert type(plain) is Admiralty and plain.shard_count is None and plain.shard_id is None
