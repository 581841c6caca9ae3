"""The scheduler: what happens without a click: AI seats' moves and turn timers.

After every committed change the scheduler looks at who must act: an AI seat gets a move after
``ai_delay`` seconds; a human turn with a deadline gets a timer (a reminder at half time, a move for
the absent player at the deadline, an AI in their seat after ``MISSED_TURNS_LIMIT`` misses). The
deadline lives in the game's row, so a restart re-arms it.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable

from bot.logs import log_context
from bot.publisher import cancel_all
from bot.storage import SUSPENDED
from bot.tables import ChannelGone, Delivery, Table, Tables
from bot.turns import Turns

log = logging.getLogger("admiralty.scheduler")

MISSED_TURNS_LIMIT = 3


class Scheduler:
    def __init__(self, tables: Tables, turns: Turns, delivery: Delivery, *, ai_delay: float,
                 clock: Callable[[], float]) -> None:
        self.tables = tables
        self.turns = turns
        self.delivery = delivery
        self.ai_delay = ai_delay
        self.clock = clock
        self._timers: dict[int, asyncio.Task] = {}
        self._ai_tasks: dict[int, asyncio.Task] = {}
        # Every AI move not yet finished, also one that already left ``_ai_tasks`` (it does so before it
        # applies its action, so that the next AI move can be scheduled): what ``idle`` waits for.
        self._ai_moving: set[asyncio.Task] = set()
        self._closing = False

    def after_change(self, table: Table) -> None:
        """Schedule what the game now waits for (an AI move, a turn timer); forget a game that ended."""
        if self._closing:
            return
        game = table.game
        if game is None or game.is_over or table.row.status != "running":
            self.cancel(table.id)
            if game is not None:  # over: no need to keep the engine in memory
                self.tables.forget(table.id)
            return
        if any(table.seat_row(s).is_ai for s in game.to_act()):
            task = self._ai_tasks.get(table.id)
            if task is None or task.done():
                task = asyncio.create_task(self._ai_turn(table.id), name=f"ai-{table.id}")
                self._ai_tasks[table.id] = task
                self._ai_moving.add(task)
                task.add_done_callback(self._ai_moving.discard)
        self._arm_timer(table)

    def cancel(self, game_id: int) -> None:
        """Stop the game's timer and pending AI move."""
        for tasks in (self._timers, self._ai_tasks):
            task = tasks.pop(game_id, None)
            if task is not None and task is not asyncio.current_task():
                task.cancel()

    # ------------------------------------------------------------------- AI
    async def _ai_turn(self, game_id: int) -> None:
        with log_context(game=game_id):
            await self._ai_move(game_id)

    async def _ai_move(self, game_id: int) -> None:
        await asyncio.sleep(self.ai_delay)
        try:
            async with self.tables.lock(game_id):
                table = await self.tables.load(game_id)
                game = table.game
                if game is None or game.is_over or table.row.status != "running":
                    return
                ai_seats = [s for s in game.to_act() if table.seat_row(s).is_ai]
                if not ai_seats:
                    return
                seat = ai_seats[0]
                rng = random.Random(f"{table.row.seed}:{table.version}:{seat}")
                action = game.ai_action(seat, rng)
                self._ai_tasks.pop(game_id, None)
                await self.turns.apply_locked(table, seat, action, human=False, kind="ai")
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("game %s: AI seat failed to move", game_id)

    # --------------------------------------------------------------- timers
    def _arm_timer(self, table: Table) -> None:
        old = self._timers.pop(table.id, None)
        if old is not None and old is not asyncio.current_task():
            old.cancel()
        if table.row.deadline is None or table.row.status != "running":
            return
        self._timers[table.id] = asyncio.create_task(self._timer(table.id), name=f"timer-{table.id}")

    async def _timer(self, game_id: int) -> None:
        with log_context(game=game_id):
            await self._run_timer(game_id)

    async def _run_timer(self, game_id: int) -> None:
        try:
            while True:
                row = await self.tables.storage.get_game(game_id)
                if row is None or row.status != "running" or row.deadline is None:
                    return
                now = self.clock()
                timeout = row.turn_timeout or 0
                remind_at = row.deadline - timeout / 2
                if not row.reminded and now < row.deadline:
                    if now >= remind_at:
                        await self._remind(game_id, row.deadline)
                        continue
                    await asyncio.sleep(max(0.0, remind_at - now))
                    continue
                if now < row.deadline:
                    await asyncio.sleep(max(0.0, row.deadline - now))
                    continue
                await self._deadline(game_id)
                return
        except asyncio.CancelledError:
            raise
        except ChannelGone as e:  # a reminder or notice found the channel deleted
            await self.turns.publisher.channel_gone(game_id, e.channel_id)
        except Exception:
            log.exception("game %s: turn timer failed", game_id)

    async def _remind(self, game_id: int, deadline: float) -> None:
        async with self.tables.lock(game_id):
            table = await self.tables.load(game_id)
            if table.row.deadline != deadline or table.row.reminded:
                return
            await self.tables.storage.mark_reminded(game_id)
            seats = table.human_to_act()
        if seats:
            try:
                await self.delivery.remind(table, seats, deadline - self.clock())
            except ChannelGone:
                raise
            except Exception:
                log.exception("game %s: reminder failed", game_id)

    async def _deadline(self, game_id: int) -> None:
        """The turn timer ran out: play for every absent human seat; replace repeat absentees by AI."""
        storage = self.tables.storage
        async with self.tables.lock(game_id):
            table = await self.tables.load(game_id)
            if table.row.deadline is None or self.clock() < table.row.deadline:
                self._arm_timer(table)
                return
            absent = table.human_to_act()
            for seat in absent:
                steps = 0
                while (table.game is not None and not table.game.is_over and seat in table.game.to_act()
                       and steps < 200):
                    rng = random.Random(f"{table.row.seed}:{table.version}:{seat}:timeout")
                    action = table.game.timeout_action(seat, rng)
                    await self.turns.apply_locked(table, seat, action, human=False, kind="timeout")
                    table = await self.tables.load(game_id)
                    steps += 1
                if table.row.status == SUSPENDED:
                    return  # its channel was deleted meanwhile
                row = table.seat_row(seat)
                missed = row.missed + 1
                if missed >= MISSED_TURNS_LIMIT:
                    await storage.update_seat(game_id, seat, missed=missed, is_ai=True, name=row.name if row.name.endswith(" (AI)") else f"{row.name} (AI)")
                    table = await self.tables.load(game_id)
                    await storage.add_log(
                        game_id, f"{row.name} missed {missed} turns in a row; an AI takes over their seat.")
                else:
                    await storage.update_seat(game_id, seat, missed=missed)
                    await storage.add_log(
                        game_id, f"{row.name} ran out of time; a move was made for them "
                        f"({missed}/{MISSED_TURNS_LIMIT} missed turns).")
            table = await self.tables.load(game_id)
            if absent and table.row.status in ("running", "finished"):
                self.turns.publisher.request(game_id, [])  # the table shows the note (and "away")
            self.after_change(table)

    # ------------------------------------------------------------ lifecycle
    async def idle(self) -> None:
        """Wait until no AI move is pending or in flight (tests and the demo): an AI move being applied,
        every AI move it schedules in turn, and every publish they requested."""
        publisher = self.turns.publisher
        while True:
            pending = [t for t in self._ai_moving if not t.done()]
            if not pending and not publisher.busy():
                return
            await asyncio.gather(*pending, return_exceptions=True)
            await publisher.idle()

    async def close(self) -> None:
        self._closing = True
        await cancel_all(self._timers)
        await cancel_all(self._ai_tasks)
