"""The end-of-game summary's ratings line ("Alice 1534 +18") without Discord: built from the changes
loaded with the table, read from storage by /game history's summary, left out while a game is not
rated and for a cooperative game."""

from __future__ import annotations

import dataclasses

import pytest

from bot import ratings
from bot.host import Host, NullDelivery
from bot.rating_scale import Standing
from bot.storage import RatingChange, Storage
from bot.summary import game_summary, ratings_line, summary_text
from bot.tables import Table
from tests.hosting import ALICE, BOB, start_game


@pytest.fixture
async def storage(tmp_path):
    s = await Storage.open(tmp_path / "summary.db")
    yield s
    await s.close()


def _finished(table: Table, rated) -> Table:
    row = dataclasses.replace(table.row, status="finished", result={"winners": [1]}, rated=rated)
    return Table(row, table.seats, table.game)


async def test_the_summary_shows_each_players_rating_and_change(storage):
    host = Host(storage, NullDelivery(), ai_delay=0.0)
    table = await start_game(host, "enemy-lines", options={"quick-setup": True})
    changes = (
        RatingChange(0, str(ALICE), Standing(25, 3), Standing(24.4, 3)),
        RatingChange(1, str(BOB), Standing.new(), Standing(27.6, 8.0)),
    )
    text = summary_text(_finished(table, changes), 42, 60)
    alice, bob = Standing(24.4, 3).points, Standing(27.6, 8.0).points
    assert f"Ratings: 🔵 Alice {alice} -18 · 🟥 Bob {bob}? +{bob - 1500}" in text.splitlines()
    assert "Ratings:" not in summary_text(_finished(table, ()), 42, 60)  # not rated (yet)
    assert "Ratings:" not in summary_text(_finished(table, None), 42, 60)  # not read
    await host.abandon(table.row.channel_id, ALICE, is_admin=False)
    crew = await start_game(host, "everrain")
    assert crew.spec.extra.get("cooperative")
    assert ratings_line(_finished(crew, changes), changes) is None  # counted, not rated
    await host.close()


async def test_the_history_summary_reads_the_changes_it_was_not_loaded_with(storage):
    host = Host(storage, NullDelivery(), ai_delay=0.0)
    table = await start_game(host, "enemy-lines", options={"quick-setup": True})
    await storage.set_status(table.id, "finished", result={"winners": [1]})
    assert await ratings.rate_game(storage, table.id)
    loaded = await host.table(table.id)
    assert loaded.row.rated is None  # a plain load does not read them
    text = await game_summary(storage, loaded)
    line = next(x for x in text.splitlines() if x.startswith("Ratings:"))
    assert "Alice 14" in line and "? -" in line and "Bob 16" in line and "? +" in line, line
    await host.close()
