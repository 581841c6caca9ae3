"""Prometheus metrics (`ADMIRALTY_METRICS_PORT`): served over HTTP, moved by moves, renders and timers."""

from __future__ import annotations

import asyncio
import random
import urllib.request

import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot import metrics
from bot.delivery import DiscordDelivery
from bot.host import Host, NullDelivery
from bot.storage import Storage
from tests.bot.test_host import two_player_game, user_of
from tests.hosting import AI, ALICE, CHANNEL, start_game


async def scrape(port: int) -> dict[tuple[str, frozenset], float]:
    """Every sample of http://127.0.0.1:port/metrics, by (name, labels). The request runs in a thread:
    the gauges are read from storage on the event loop while the scrape waits."""

    def get() -> str:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as response:
            assert response.status == 200
            return response.read().decode()

    text = await asyncio.to_thread(get)
    return {
        (s.name, frozenset(s.labels.items())): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


def value(samples, name: str, **labels) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


def total(samples, name: str, **labels) -> float:
    """The sum over every sample of ``name`` whose labels include ``labels``."""
    want = set(labels.items())
    return sum(v for (n, ls), v in samples.items() if n == name and want <= ls)


@pytest.fixture
async def storage(tmp_path):
    s = await Storage.open(tmp_path / "metrics.db")
    yield s
    await s.close()


@pytest.fixture
async def served(storage):
    m = metrics.enable(0, storage=storage)
    yield m
    metrics.disable()


async def test_moves_renders_games_and_timers_are_scraped(storage, served):
    port = served.port
    assert port
    before = await scrape(port)
    assert value(before, "admiralty_timers_armed") == 0 and value(before, "admiralty_timers_due") == 0
    assert "process_cpu_seconds_total" in {n for n, _ in before}

    host = Host(storage, NullDelivery(), ai_delay=0.0, min_turn_timeout=0.1)  # a fast timer
    # A human move.
    table = await two_player_game(host, timeout=3600)
    seat = table.game.to_act()[0]
    await host.act(table.id, user_of(table, seat), table.game.ai_action(seat, random.Random(1)))
    # AI moves: a game against an AI seat.
    ai_game = await start_game(host, others=[AI], options={"quick-setup": True}, seed=4, channel=CHANNEL + 1)
    for _ in range(2):  # whoever begins, the AI has moved after two turns
        await host.idle()
        ai_game = await host.table(ai_game.id)
        seat = ai_game.game.to_act()[0]
        if not ai_game.seat_row(seat).is_ai:
            await host.act(ai_game.id, ALICE, ai_game.game.ai_action(seat, random.Random(2)))
    await host.idle()
    # A move for an absent player: a game whose turns last 0.2 s.
    timed = await start_game(
        host,
        others=[(999, "Zed")],
        options={"quick-setup": True},
        turn_timeout=0.2,
        seed=5,
        channel=CHANNEL + 2,
    )
    for _ in range(100):
        await asyncio.sleep(0.05)
        if (await storage.get_game(timed.id)).version >= 1:
            break
    # A board rendered by the Discord delivery (its image needs no Discord).
    png = await DiscordDelivery(None, storage).image(await host.table(table.id), None)
    assert png and png.startswith(b"\x89PNG")

    # The first game's turn is overdue, its timeout job not run yet: the row's deadline is moved back
    # behind the scheduler's back (set_deadline would re-arm the job, which would then fire at once).
    async def overdue(db):
        await db.execute("UPDATE games SET deadline = 1.0 WHERE id = ?", (table.id,))

    await storage._write(overdue)
    served._gauges = None  # the gauges read by the first scrape are reused for GAUGE_MAX_AGE

    after = await scrape(port)
    assert value(after, "admiralty_moves_total", game="enemy-lines", kind="human") in (2, 3)
    assert value(after, "admiralty_moves_total", game="enemy-lines", kind="ai") >= 1
    assert value(after, "admiralty_moves_total", game="enemy-lines", kind="timeout") >= 1
    assert value(after, "admiralty_render_seconds_count", game="enemy-lines") == 1
    assert value(after, "admiralty_render_seconds_sum", game="enemy-lines") > 0
    running = value(after, "admiralty_games_running", game="enemy-lines")
    assert running == len(await storage.running_games()) >= 2
    assert value(after, "admiralty_timers_armed") >= 1
    assert value(after, "admiralty_timers_due") >= 1
    await host.close()


async def test_gauges_are_reused_within_their_age_and_a_scrape_from_the_loop_does_not_wait(storage, served):
    host = Host(storage, NullDelivery(), ai_delay=0.0)
    await two_player_game(host, timeout=3600)
    first = await scrape(served.port)
    assert value(first, "admiralty_games_running", game="enemy-lines") == 1
    # From the event loop's thread the scrape cannot wait for storage: it gives the last values.
    assert served.gauges() == ({"enemy-lines": 1}, 1, 0)
    await host.close()


def test_answer_timer_and_requests_count_when_enabled_and_do_nothing_when_disabled():
    metrics.disable()
    metrics.move("enemy-lines", "human")  # no error, nothing counted anywhere
    with metrics.answer_timer("command /game new"):
        pass
    m = metrics.enable()
    try:
        with metrics.answer_timer("component adm:b"):
            pass
        m.count_request("POST /channels/{channel_id}/messages", 200)
        m.count_request("POST /channels/{channel_id}/messages", 429, "shared")
        m.count_request("GET /gateway", 429, "<script>")
        reg = m.registry
        assert reg.get_sample_value("admiralty_answer_seconds_count", {"what": "component adm:b"}) == 1
        assert (
            reg.get_sample_value(
                "admiralty_discord_requests_total",
                {"route": "POST /channels/{channel_id}/messages", "status": "429"},
            )
            == 1
        )
        assert (
            reg.get_sample_value(
                "admiralty_discord_rate_limited_total",
                {"route": "POST /channels/{channel_id}/messages", "scope": "shared"},
            )
            == 1
        )
        assert (
            reg.get_sample_value(
                "admiralty_discord_rate_limited_total", {"route": "GET /gateway", "scope": "user"}
            )
            == 1
        )
        assert m.gauges() is None  # no storage watched: no gauges
    finally:
        metrics.disable()


@pytest.mark.parametrize(
    ("path", "template"),
    [
        ("/api/v10/channels/123/messages", "/channels/{id}/messages"),
        (
            "/api/v10/interactions/1234/aW50ZXJhY3Rpb246MTIzNDo.Secret-Token_x/callback",
            "/interactions/{id}/{token}/callback",
        ),
        ("/api/v10/webhooks/55/tokenABC/messages/@original", "/webhooks/{id}/{token}/messages/{x}"),
        (
            "/api/v10/channels/1/messages/2/reactions/%F0%9F%91%8D/@me",
            "/channels/{id}/messages/{id}/reactions/{x}/{x}",
        ),
        ("/api/v10/users/@me/channels?x=1", "/users/{x}/channels"),
    ],
)
def test_route_templates_keep_no_id_nor_token(path, template):
    assert metrics.route_template(path) == template


def burn(seconds: float) -> None:
    """Spend ``seconds`` of this thread's CPU."""
    import time

    end = time.thread_time() + seconds
    while time.thread_time() < end:
        pass


async def test_the_cpu_of_a_move_is_scraped_by_phase(storage, served):
    # bench/bench_load.py divides these by the moves played: engine (rules and menus), storage (the
    # SQLite thread); with drawing, the rest of the process's CPU is the event loop's own
    host = Host(storage, NullDelivery())
    before = await scrape(served.port)
    table = await two_player_game(host)
    for _ in range(4):
        table = await host.table(table.id)
        seat = table.game.to_act()[0]
        await host.act(table.id, user_of(table, seat), table.game.legal_actions(seat)[0])
    with metrics.cpu("engine"):
        burn(0.05)
    after = await scrape(served.port)
    await host.close()

    def grew(phase: str) -> float:
        name = "admiralty_cpu_seconds_total"
        return value(after, name, phase=phase) - value(before, name, phase=phase)

    assert grew("engine") >= 0.05
    assert grew("storage") > 0  # the SQLite thread's own clock: every query of the moves above
    assert grew("storage") < value(after, "process_cpu_seconds_total")
