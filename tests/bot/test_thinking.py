"""The AI thinks off the event loop (bot/thinking.py): in worker processes, a think that fails or runs
over gives the easy move, and the scheduler starts the think when the AI's turn starts, so that its
time counts towards the AI delay rather than adding to it."""

from __future__ import annotations

import asyncio
import random
import sys
import time
from pathlib import Path

import pytest

from bot.games import registry
from bot.games.ai import Budget
from bot.host import Host
from bot.storage import Storage
from bot.tables import NullDelivery
from bot.thinking import Thinking, think
from tests.hosting import AI, ALICE, CHANNEL, open_lobby, start_game

sys.path.insert(0, str(Path(__file__).resolve().parent))
import thinking_stubs  # noqa: E402 - a module the worker processes import by name


def situation_of(key: str = "enemy-lines", seed: int = 3):
    spec = registry.get(key)
    game = spec.new(players=2, options={}, seed=seed)
    return game.situation(game.to_act()[0])


async def loop_lag_while(work: asyncio.Future, tick: float = 0.01) -> float:
    """The longest the event loop took to answer a ``tick`` sleep while ``work`` ran."""
    worst = 0.0
    while not work.done():
        started = time.perf_counter()
        await asyncio.sleep(tick)
        worst = max(worst, time.perf_counter() - started - tick)
    return worst


async def test_the_event_loop_keeps_answering_while_an_ai_thinks_in_a_worker():
    thinking = Thinking(1, thinker=thinking_stubs.slow_think)
    try:
        situation = situation_of()
        await thinking.action(situation, "easy", "warm", Budget(0.01))  # the worker is up
        started = time.perf_counter()
        work = asyncio.ensure_future(thinking.action(situation, "hard", "s", Budget(1.0)))
        lag = await loop_lag_while(work)
        assert time.perf_counter() - started >= 1.0  # it did think for its second
        assert lag < 0.5, f"the event loop stalled {lag:.3f} s while the AI thought"
        assert work.result() in situation.legal and thinking.fallbacks == 0
    finally:
        await thinking.close()


async def test_a_worker_thinks_the_same_move_as_this_process_for_the_same_seed():
    thinking = Thinking(1)
    try:
        for seed in ("1:0:0", "1:5:1", "x"):
            situation = situation_of(seed=len(seed))
            here = think(situation.to_json(), "normal", 0.2, 5, seed)
            assert await thinking.action(situation, "normal", seed, Budget(0.2, 5)) == here
        assert thinking.worker_pids() and thinking.fallbacks == 0
    finally:
        await thinking.close()


async def test_a_think_past_its_budget_and_margin_falls_back_to_the_easy_move(caplog):
    thinking = Thinking(1, thinker=thinking_stubs.hang, margin=0.3)
    try:
        situation = situation_of()
        action = await thinking.action(situation, "hard", "seed", Budget(0.2))
        # stopped by its limit, the budget and the margin (not by a wall-clock guess: a busy machine may
        # take seconds to start the worker)
        assert "stopped after 0.5 s in hang" in caplog.text
        assert action == thinking.fallback(situation, "seed") and thinking.fallbacks == 1
        # its worker was stopped and replaced: the next think is answered
        thinking.thinker = think
        assert await thinking.action(situation, "easy", "seed", Budget(0.05)) in situation.legal
    finally:
        await thinking.close()


@pytest.mark.parametrize("workers", [0, 1])
async def test_a_think_that_fails_falls_back_to_the_easy_move(workers, caplog):
    thinking = Thinking(workers, thinker=thinking_stubs.broken)
    try:
        situation = situation_of()
        action = await thinking.action(situation, "normal", "seed")
        assert action == thinking.fallback(situation, "seed") and thinking.fallbacks == 1
        assert "a bug in the search" in caplog.text and "playing the easy move" in caplog.text
    finally:
        await thinking.close()


async def test_a_closed_pool_still_gives_a_move():
    thinking = Thinking(1)
    await thinking.close()
    situation = situation_of()
    assert await thinking.action(situation, "hard", "seed") == thinking.fallback(situation, "seed")


async def ai_move_after(host: Host, delay: float) -> float:
    """Seconds from Alice's move to the AI's answer in a game against it (the AI moves second)."""
    table = await start_game(host, others=[AI], seed=5, options={"quick-setup": True})
    assert table.seat_row(1).is_ai
    await host.idle()
    table = await host.table(table.id)
    action = table.game.ai_action(0, random.Random(1))
    started = time.perf_counter()
    await host.act(table.id, table.seat_row(0).user_id, action)
    version = (await host.table(table.id)).version
    while (await host.table(table.id)).version == version:
        await asyncio.sleep(0.02)
        assert time.perf_counter() - started < delay + 10
    return time.perf_counter() - started


async def ai_move_with(tmp_path, monkeypatch, *, delay: float, think: float) -> float:
    """:func:`ai_move_after` in a game whose AI thinks ``think`` seconds (asleep) under ``delay``."""
    from bot.games import ai

    # every level's budget is the stub's sleep
    monkeypatch.setattr(ai, "BUDGETS", {level: Budget(think) for level in ai.LEVELS})
    monkeypatch.setattr("bot.thinking.BUDGETS", ai.BUDGETS)
    storage = await Storage.open(tmp_path / "t.db")
    thinking = Thinking(0, thinker=thinking_stubs.sleepy)
    host = Host(storage, NullDelivery(), ai_delay=delay, thinking=thinking, job_poll=0.05)
    try:
        took = await ai_move_after(host, delay)
        assert thinking.thought >= 1 and thinking.fallbacks == 0
        return took
    finally:
        await host.close()
        await storage.close()


async def test_the_think_time_counts_towards_the_ai_delay(tmp_path, monkeypatch):
    """A think of 1.5 s under a delay of 2 s: the AI moves after about 2 s, not 3.5 s (the two apart
    by more than a loaded machine's slack)."""
    took = await ai_move_with(tmp_path, monkeypatch, delay=2.0, think=1.5)
    assert 1.9 <= took < 3.2, f"the AI moved {took:.2f} s after the turn began"


async def test_an_ai_thinking_for_longer_than_the_delay_moves_when_done(tmp_path, monkeypatch):
    took = await ai_move_with(tmp_path, monkeypatch, delay=0.1, think=0.8)
    # not before its think is done; the upper bound only catches a move that waits for something else
    # (a loaded machine adds its own slack: a bound near 0.8 s failed under a load of 10)
    assert 0.75 <= took < 3.0, f"the AI moved {took:.2f} s after the turn began"


async def test_a_move_the_rules_refuse_gives_way_to_the_easy_move(tmp_path, caplog):
    storage = await Storage.open(tmp_path / "t.db")
    thinking = Thinking(0, thinker=thinking_stubs.illegal)
    host = Host(storage, NullDelivery(), ai_delay=0.0, thinking=thinking, job_poll=0.05)
    try:
        await ai_move_after(host, 0.0)  # the AI moved all the same
        assert "was refused" in caplog.text and "playing the easy move" in caplog.text
    finally:
        await host.close()
        await storage.close()


def test_the_ai_workers_setting():
    from bot.settings import Settings, SettingsError

    nowhere = Path("/nonexistent")
    assert Settings.load({}, nowhere).ai_workers is None  # one per core
    assert Settings.load({"ADMIRALTY_AI_WORKERS": "0"}, nowhere).ai_workers == 0
    assert Settings.load({"ADMIRALTY_AI_WORKERS": " 3 "}, nowhere).ai_workers == 3
    for bad in ("-1", "65", "two", "1.5"):
        with pytest.raises(SettingsError, match="ADMIRALTY_AI_WORKERS"):
            Settings.load({"ADMIRALTY_AI_WORKERS": bad}, nowhere)
    assert Thinking(None).workers >= 1 and Thinking(0).workers == 0


async def test_think_times_and_fallbacks_are_counted_in_the_metrics():
    from bot import metrics

    metrics.disable()
    m = metrics.enable()
    thinking = Thinking(0, thinker=thinking_stubs.broken)
    try:
        situation = situation_of()
        await thinking.action(situation, "hard", "seed")
        thinking.thinker = think
        await thinking.action(situation, "easy", "seed", Budget(0.05))
        count = m.registry.get_sample_value
        assert (
            count(
                "admiralty_ai_think_seconds_count",
                {"game": "enemy-lines", "level": "hard", "outcome": "fallback"},
            )
            == 1
        )
        assert (
            count(
                "admiralty_ai_think_seconds_count",
                {"game": "enemy-lines", "level": "easy", "outcome": "thought"},
            )
            == 1
        )
    finally:
        metrics.disable()
        await thinking.close()


async def test_a_hard_ai_thinking_in_one_game_never_slows_another_games_clicks(tmp_path, monkeypatch):
    """Game 1: Alice against a hard AI that thinks 1.5 s of CPU (in a worker process); game 2, in another
    channel: Alice and Bob. While the AI thinks, game 2's moves are answered at once."""
    from bot.games import ai

    monkeypatch.setattr("bot.thinking.BUDGETS", {**ai.BUDGETS, "hard": Budget(1.5)})
    storage = await Storage.open(tmp_path / "t.db")
    thinking = Thinking(1, thinker=thinking_stubs.slow_think)
    host = Host(storage, NullDelivery(), ai_delay=0.0, thinking=thinking, job_poll=0.05)
    try:
        thinking.start()
        await open_lobby(host, others=[], seed=5, options={"quick-setup": True})
        await host.add_ai(CHANNEL, ALICE, level="hard")
        first = await host.start(CHANNEL, ALICE)
        other = await start_game(host, channel=CHANNEL + 1, seed=6, options={"quick-setup": True})
        await host.idle()
        first = await host.table(first.id)
        if 0 in first.game.to_act():  # Alice moves: the AI's turn (and its think) begins
            await host.act(first.id, ALICE, first.game.legal_actions(0)[0])
        thought = thinking.thought
        started = time.perf_counter()
        clicks = []
        while time.perf_counter() - started < 1.2:  # the AI still thinks
            other = await host.table(other.id)
            if other.game.is_over:
                break
            seat = other.game.to_act()[0]
            t = time.perf_counter()
            await host.act(other.id, other.seat_row(seat).user_id, other.game.legal_actions(seat)[0])
            clicks.append(time.perf_counter() - t)
        assert thinking.thought == thought  # game 1's AI was still thinking all that time
        assert len(clicks) >= 3 and max(clicks) < 0.5, f"moves took {max(clicks):.2f} s while the AI thought"
        await host.idle()
        assert thinking.thought == thought + 1 and thinking.fallbacks == 0
    finally:
        await host.close()
        await thinking.close()
        await storage.close()
