"""The scheduler: what happens without a click: AI seats' moves and turn timers.

What a game waits for is a row of the ``jobs`` table (migration 0006), armed in the same transaction
as the change that makes it due (a move re-arms its game's jobs; see ``Storage.record_action``): a
``reminder`` at half time, a ``timeout`` at the turn deadline (a move for the absent player, an AI
in their seat after ``MISSED_TURNS_LIMIT`` misses), an ``ai`` move ``ai_delay`` after an AI seat
became due. Nothing of it lives only in one process's memory.

A game whose last human player was handed to the AI (missed turns) is *paused* (:attr:`Table.deserted`):
its AI seats do not play it out alone and no AI job is armed for it; its deadline becomes the time it
is abandoned (``abandon_after`` from then: ``ADMIRALTY_ABANDON_AFTER``), when its ``timeout`` job
abandons it, rated for nobody, unless a player took their seat back (``/game join``) meanwhile. That
state is the seats' (in the database), so every process, and a restarted one, sees it.

The scheduler of every process runs one loop: claim the due jobs nobody holds (a lease of ``lease``
seconds; PostgreSQL: ``FOR UPDATE SKIP LOCKED``), run each, drop it. Any process runs any game's jobs,
whatever its shards. The loop sleeps until the next job is due, woken early when jobs are armed (this
process: at once; others on PostgreSQL: ``LISTEN/NOTIFY``) and polling every ``poll`` seconds anyway. A
job fires once: it does nothing unless its game is still at the version it was armed for (the move
that ran it re-arms the game's jobs), and the move it makes is a compare-and-set on that version. A
process that dies holding a job: its lease runs out and another process claims the job.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import random
import socket
from collections.abc import Callable

from bot.ai_seats import level_of, shows_ai
from bot.games.names import markdown_name
from bot.i18n import N_, Phrase
from bot.logs import log_context
from bot.publisher import cancel_all
from bot.settings import ABANDON_AFTER_DEFAULT
from bot.storage import SUSPENDED, JobRow, loglines
from bot.summary import duration_text
from bot.tables import ChannelGone, Delivery, GameUnavailable, StaleBoard, Table, Tables, UserError
from bot.thinking import REPEATABLE_ITERATIONS, Thinking
from bot.turns import Turns

log = logging.getLogger("admiralty.scheduler")

MISSED_TURNS_LIMIT = 3
LEASE = 15.0  # seconds a claimed job is held; a process that dies frees its jobs after this
POLL = 2.0  # seconds between looks at the jobs table, whatever wakes the loop
CLAIM_BATCH = 100  # jobs claimed at once
SWEEP = 30.0  # seconds between looks for a game whose AI seat is due with no job armed (a safety net)


def default_owner() -> str:
    """This process's name in ``jobs.claimed_by``: host, pid and a random tag (a restart is a new owner)."""
    return f"{socket.gethostname()}:{os.getpid()}:{random.getrandbits(32):08x}"


class Scheduler:
    def __init__(
        self,
        tables: Tables,
        turns: Turns,
        delivery: Delivery,
        *,
        ai_delay: float,
        clock: Callable[[], float],
        lease: float = LEASE,
        poll: float = POLL,
        sweep: float = SWEEP,
        owner: str | None = None,
        abandon_after: float = ABANDON_AFTER_DEFAULT,
        thinking: Thinking | None = None,
    ) -> None:
        self.tables = tables
        self.turns = turns
        self.delivery = delivery
        self.ai_delay = ai_delay
        self.clock = clock
        self.lease = lease
        self.poll = poll
        self.sweep_every = sweep
        self.owner = owner or default_owner()
        self.abandon_after = abandon_after  # how long a game with no human left waits for one
        # where AI seats think (bot/thinking.py): worker processes, or a thread of this process; none
        # given (tests): a thread, each search capped so that a seeded game plays the same every run
        self.thinking = thinking if thinking is not None else Thinking(0, iterations=REPEATABLE_ITERATIONS)
        # game -> (version, seat, its AI's think under way or done): started when the turn starts, so
        # the think time counts towards the AI delay (the move is made at the later of the two)
        self._thoughts: dict[int, tuple[int, int, asyncio.Task[dict]]] = {}
        # The jobs being run, by game: its timer (reminder, timeout) and its AI move.
        self._timers: dict[int, asyncio.Task] = {}
        self._ai_tasks: dict[int, asyncio.Task] = {}
        self._ai_moving: set[asyncio.Task] = set()  # AI moves in flight (what ``idle`` waits for)
        self._arming: set[asyncio.Task] = set()  # AI jobs being armed (a seat changed hands)
        self._loop: asyncio.Task | None = None
        self._swept = 0.0  # when the last sweep ran
        # game -> (version, AI seats) a sweep found with no AI seat due (a seat handed to the AI changes it)
        self._sweep_ok: dict[int, tuple[int, int]] = {}
        self._wake = asyncio.Event()
        # set while the loop waits for a wake-up, having looked at every one before it (what ``idle``
        # waits for: a look still under way would otherwise fall after it, in whatever comes next)
        self._parked = asyncio.Event()
        self._closing = False

    # ------------------------------------------------------------ the loop
    def start(self) -> None:
        """Run the loop (once; the host starts it at the first change, and at resume)."""
        if self._closing or (self._loop is not None and not self._loop.done()):
            return
        self._loop = asyncio.create_task(self._run(), name="scheduler")

    def wake(self) -> None:
        self._wake.set()

    async def _run(self) -> None:
        storage = self.tables.storage
        storage.on_jobs(self.wake)
        listening = 0.0
        while not self._closing:
            now = self.clock()
            if now - listening > self.poll * 5:  # (again, should the LISTEN connection have dropped)
                listening = now
                try:
                    await storage.listen_jobs()
                except Exception as e:  # noqa: BLE001 - the poll still finds every job
                    log.warning("cannot LISTEN for armed jobs (%s); polling every %s s", e, self.poll)
            self._wake.clear()
            jobs: list[JobRow] = []
            at: float | None = None
            try:
                if now - self._swept >= self.sweep_every:
                    self._swept = now
                    await self.sweep()
                # A read first: claiming is a write transaction, taken only when a job can be claimed
                # now (most wake-ups, a move that armed a human's timer, find nothing due).
                at = await storage.next_job_at()
                if at is not None and at <= self.clock():
                    jobs = await storage.claim_jobs(self.owner, self.clock(), self.lease, CLAIM_BATCH)
                    self._spawn(jobs)
                    if jobs:
                        continue  # and look again (more may be due; else the next one's time)
            except asyncio.CancelledError:
                raise
            except Exception:
                if self._closing or storage.closed:  # shutting down: nothing more to claim
                    return
                log.exception("the scheduler could not read its jobs; trying again")
            delay = self.poll if at is None else min(self.poll, max(0.01, at - self.clock()))
            # asyncio.timeout, not wait_for: on Python 3.11 wait_for can swallow a cancellation that
            # arrives as the wake-up does, and this loop would then never end
            self._parked.set()
            try:
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(delay):
                        await self._wake.wait()
            finally:
                self._parked.clear()

    async def sweep(self) -> int:
        """The safety net: arm the AI move of any running game whose AI seat is due with no job armed
        (nothing should leave one so; should a race between processes ever do it, the game would wait
        forever). Looks at games quiet for two sweeps, each once per version and AI seats. -> AI moves
        armed."""
        storage = self.tables.storage
        armed = 0
        for game_id, version, ais in await storage.unarmed_games(self.clock() - 2 * self.sweep_every):
            if self._sweep_ok.get(game_id) == (version, ais):
                continue
            try:
                table = await self.tables.load(game_id)
            except Exception:  # noqa: BLE001 - an unplayable game is no AI's to move
                self._sweep_ok[game_id] = (version, ais)
                continue
            if table.deserted:  # no human left and no deadline to abandon it at (a crash in between)
                async with self.tables.lock(game_id):
                    table = await self.tables.load(game_id)
                    if table.deserted and table.row.deadline is None:
                        await self._pause(table)
                self._sweep_ok[game_id] = (version, ais)
                continue
            if self.turns.ai_due(table) is None:
                self._sweep_ok[game_id] = (version, ais)  # a human's turn without a timer
                continue
            if await storage.arm_ai(game_id, table.version, self.clock()):
                armed += 1
                log.warning(
                    "game %s: an AI seat was due at version %s with no job armed; armed it now",
                    game_id,
                    table.version,
                )
        if len(self._sweep_ok) > 10_000:
            self._sweep_ok.clear()
        return armed

    def _spawn(self, jobs: list[JobRow]) -> None:
        """Run claimed jobs: a game's AI move as one task, its reminder and timeout (in due order) as
        another; the game's lock orders them against each other and against clicks."""
        by_game: dict[tuple[int, bool], list[JobRow]] = {}
        for job in jobs:
            by_game.setdefault((job.game_id, job.kind == "ai"), []).append(job)
        for (game_id, ai), mine in by_game.items():
            tasks = self._ai_tasks if ai else self._timers
            task = asyncio.create_task(self._run_jobs(mine), name=f"{'ai' if ai else 'timer'}-{game_id}")
            tasks[game_id] = task

            def forget(t: asyncio.Task, g: int = game_id, d: dict[int, asyncio.Task] = tasks) -> None:
                if d.get(g) is t:  # not a newer task that took its place
                    d.pop(g)

            task.add_done_callback(forget)
            if ai:
                self._ai_moving.add(task)
                task.add_done_callback(self._ai_moving.discard)

    async def _run_jobs(self, jobs: list[JobRow]) -> None:
        handlers = {"ai": self._ai_job, "reminder": self._reminder_job, "timeout": self._timeout_job}
        for job in jobs:
            with log_context(game=job.game_id):
                gone = False  # the job's row is gone already (its move re-armed the game's jobs)
                try:
                    gone = await handlers[job.kind](job)
                except asyncio.CancelledError:
                    raise  # shutting down (or the game stopped): the job stays, another takes it
                except ChannelGone as e:  # a reminder or notice found the channel deleted
                    await self.turns.publisher.channel_gone(job.game_id, e.channel_id)
                except GameUnavailable as e:
                    log.warning("game %s: %s job dropped: %s", job.game_id, job.kind, e.reason)
                except StaleBoard:
                    pass  # the game moved on meanwhile (another process's move): its jobs were re-armed
                except UserError as e:  # (not expected: the job's move was refused; the job is dropped)
                    log.warning(
                        "game %s: %s job of version %s refused: %s", job.game_id, job.kind, job.version, e
                    )
                except Exception:
                    log.exception("game %s: %s job failed", job.game_id, job.kind)
                try:
                    if not gone:
                        await self.tables.storage.complete_job(job, self.owner)
                except Exception:
                    log.exception("game %s: %s job could not be dropped", job.game_id, job.kind)

    # ------------------------------------------------------------ changes
    def after_change(self, table: Table, *, armed: bool = False) -> None:
        """A change was committed: forget a game that ended; arm an AI seat's move unless the change
        armed the game's jobs itself (``armed``); wake the loop."""
        if self._closing:
            return
        self.start()
        game = table.game
        if game is None or game.is_over or table.row.status != "running":
            self.cancel(table.id)
            if game is not None:  # over: no need to keep the engine in memory
                self.tables.forget(table.id)
            return
        ai_seats = [s for s in game.to_act() if table.seat_row(s).is_ai]
        if not armed and not table.deserted and ai_seats:
            task = asyncio.create_task(self._arm_ai(table.id, table.version), name=f"arm-ai-{table.id}")
            self._arming.add(task)
            task.add_done_callback(self._arming.discard)
        if ai_seats and self.turns.ai_due(table) is not None:
            self._thought(table, ai_seats[0])  # the AI starts thinking as its turn starts
        self.wake()

    async def _arm_ai(self, game_id: int, version: int) -> None:
        try:
            await self.tables.storage.arm_ai(game_id, version, self.clock() + self.ai_delay)
        except Exception:
            log.exception("game %s: its AI move could not be armed", game_id)

    def cancel(self, game_id: int) -> None:
        """Stop the game's timer and AI move being run here (its jobs are dropped by the status change
        that stopped the game)."""
        for tasks in (self._timers, self._ai_tasks):
            task = tasks.pop(game_id, None)
            if task is not None and task is not asyncio.current_task():
                task.cancel()
        self._forget_thought(game_id)

    # ------------------------------------------------------------ AI
    async def _ai_job(self, job: JobRow) -> bool:
        async with self.tables.lock(job.game_id):
            table = await self.tables.load(job.game_id)
            game = table.game
            if table.version != job.version or game is None or game.is_over or table.row.status != "running":
                return False
            if table.deserted:
                # No human player is left: the AI does not play the game out alone. (Paused when the last
                # one was handed to the AI; one left so by an older version or a crash in between, now.)
                if table.row.deadline is None:
                    await self._pause(table)
                return False
            ai_seats = [s for s in game.to_act() if table.seat_row(s).is_ai]
            if not ai_seats or self.turns.ai_due(table) is None:  # (or paused by agreement)
                return False
            seat = ai_seats[0]
            thought = self._thought(table, seat)
        # Thought without the game's lock (its other seats may still choose meanwhile); begun when the
        # turn began, so usually done by now: the move comes at the later of the delay and the think.
        try:
            action = await thought
        except asyncio.CancelledError:
            current = asyncio.current_task()
            if current is not None and current.cancelling():
                raise  # this job is being stopped (shutting down, the game stopped)
            return False  # its think was dropped: the game moved on meanwhile
        async with self.tables.lock(job.game_id):
            table = await self.tables.load(job.game_id)
            game = table.game
            self._forget_thought(job.game_id, thought)
            if table.version != job.version or game is None or game.is_over or table.row.status != "running":
                return False  # the game moved on meanwhile: its jobs were armed again
            if table.deserted or self.turns.ai_due(table) is None or seat not in game.to_act():
                return False  # paused meanwhile
            try:
                await self.turns.apply_locked(table, seat, action, human=False, kind="ai")
            except UserError as e:  # the AI's search answered a move the rules refuse: a bug of its
                log.error(
                    "game %s: the AI's move %r was refused (%s); playing the easy move",
                    job.game_id,
                    action,
                    e,
                )
                situation = game.situation(seat)
                fallback = self.thinking.fallback(situation, self._seed(table, seat))
                await self.turns.apply_locked(table, seat, fallback, human=False, kind="ai")
            return True

    @staticmethod
    def _seed(table: Table, seat: int) -> str:
        """The seed of an AI move's generator: the game's, its version and the seat (a retry, a restart
        or another process thinks the same move)."""
        return f"{table.row.seed}:{table.version}:{seat}"

    def _thought(self, table: Table, seat: int) -> asyncio.Task[dict]:
        """The think of ``seat`` (an AI's, to act) at the table's version: the one under way, else begun
        now in ``self.thinking``, at the seat's level."""
        held = self._thoughts.get(table.id)
        if held is not None and held[:2] == (table.version, seat) and not held[2].cancelled():
            return held[2]
        assert table.game is not None
        situation = table.game.situation(seat)
        level = level_of(table.seat_row(seat).ai_level)
        task = asyncio.ensure_future(self.thinking.action(situation, level, self._seed(table, seat)))
        if held is not None:
            held[2].cancel()  # an older version's: nobody waits for it
        self._thoughts[table.id] = (table.version, seat, task)
        return task

    def _forget_thought(self, game_id: int, task: asyncio.Task | None = None) -> None:
        """Drop the game's think (``task``: only if it is still that one); one under way is cancelled."""
        held = self._thoughts.get(game_id)
        if held is None or (task is not None and held[2] is not task):
            return
        del self._thoughts[game_id]
        if task is None and not held[2].done():
            held[2].cancel()

    # --------------------------------------------------------------- timers
    async def _reminder_job(self, job: JobRow) -> bool:
        async with self.tables.lock(job.game_id):
            table = await self.tables.load(job.game_id)
            row = table.row
            if (
                table.version != job.version
                or row.status != "running"
                or row.deadline is None
                or row.reminded
                or self.clock() >= row.deadline
            ):
                return False
            # dropped and marked sent in one transaction: a reminder is sent once
            if not await self.tables.storage.complete_job(job, self.owner, reminded=True):
                return True
            seats = table.human_to_act()
            deadline = row.deadline
        if seats:
            try:
                await self.delivery.remind(table, seats, deadline - self.clock())
            except ChannelGone:
                raise
            except Exception:
                log.exception("game %s: reminder failed", job.game_id)
        return True

    async def _timeout_job(self, job: JobRow) -> bool:
        """The turn timer ran out: play for every absent human seat; replace repeat absentees by AI."""
        storage = self.tables.storage
        game_id = job.game_id
        async with self.tables.lock(game_id):
            table = await self.tables.load(game_id)
            if table.version != job.version or table.row.status != "running" or table.row.deadline is None:
                return False
            if self.clock() < table.row.deadline:  # claimed early (clocks differ): armed again, not run
                await storage.rearm_jobs(game_id)
                return True
            if table.deserted:  # paused, and nobody came back in time
                await self._abandon_deserted(table)
                return True
            absent = self._out_of_time(table)
            for seat in absent:
                steps = 0
                moved = table.version  # the version of the last move made for this seat
                while (
                    table.game is not None
                    and not table.game.is_over
                    and seat in table.game.to_act()
                    and steps < 200
                ):
                    rng = random.Random(f"{table.row.seed}:{table.version}:{seat}:timeout")
                    action = table.game.timeout_action(seat, rng)
                    await self.turns.apply_locked(table, seat, action, human=False, kind="timeout")
                    moved = table.version + 1  # (a compare-and-set on table.version: it succeeded)
                    table = await self.tables.load(game_id)
                    steps += 1
                    if table.version != moved:
                        # another process moved since (an AI seat moves at once): the turn that ran out
                        # is over; a next turn of this seat has a deadline of its own
                        break
                if table.row.status == SUSPENDED:
                    return True  # its channel was deleted meanwhile
                row = table.seat_row(seat)
                missed = row.missed + 1
                if missed >= MISSED_TURNS_LIMIT:
                    await storage.update_seat(
                        game_id,
                        seat,
                        missed=missed,
                        is_ai=True,
                        name=row.name if shows_ai(row.name) else f"{row.name} (AI)",
                    )
                    table = await self.tables.load(game_id)
                    # the note sits at the move it explains (another process may have moved since)
                    await storage.add_log(
                        game_id,
                        Phrase(
                            N_("{name} missed {n} turns in a row; an AI takes over their seat."),
                            name=markdown_name(row.name),
                            n=missed,
                        ),
                        version=moved,
                        kind=loglines.TAKEN_OVER,
                    )
                else:
                    await storage.update_seat(game_id, seat, missed=missed)
                    await storage.add_log(
                        game_id,
                        Phrase(
                            N_(
                                "{name} ran out of time; a move was made for them ({missed}/{limit} missed "
                                "turns)."
                            ),
                            name=markdown_name(row.name),
                            missed=missed,
                            limit=MISSED_TURNS_LIMIT,
                        ),
                        version=moved,
                        kind=loglines.TIMED_OUT,
                    )
            table = await self.tables.load(game_id)
            if table.deserted:  # the last player was handed to the AI: the game waits for one to return
                await self._pause(table)
                return True  # (its jobs were armed again for the time it is abandoned)
            if absent and table.row.status in ("running", "finished"):
                self.turns.publisher.request(game_id, [])  # the table shows the note (and "away")
            self.after_change(table)
            return table.version != job.version  # a move re-armed the game's jobs

    def _out_of_time(self, table: Table) -> list[int]:
        """The human seats to act whose time is up: with a clock, each seat's own (in a secret choice
        each seat's bank runs); else, or should the clock know of none (a deadline set by other means), all."""
        clock = self.turns.clock_for(table)
        humans = table.human_to_act()
        out = [] if clock is None else [s for s in clock.out_of_time(self.clock()) if s in humans]
        return out or humans

    async def _pause(self, table: Table) -> None:
        """No human player is left in ``table`` (every seat handed to the AI): the game waits for one to
        take their seat back (``/game join``) until ``abandon_after`` from now, its deadline, when its
        timeout job abandons it. Caller holds the lock."""
        storage = self.tables.storage
        # reminded: no half-time reminder (there is nobody to remind)
        await storage.set_deadline(table.id, self.clock() + self.abandon_after, reminded=True)
        await storage.add_log(
            table.id,
            Phrase(
                N_(
                    "Nobody is left to play, so the game is paused. A player takes their seat back with "
                    "`/game join`; otherwise the game is abandoned in {time}."
                ),
                time=duration_text(self.abandon_after),
            ),
        )
        log.info("game %s: no human player left; paused", table.id)
        self.turns.publisher.request(table.id, [])

    async def _abandon_deserted(self, table: Table) -> None:
        """The paused game's time ran out with nobody back: abandoned (never rated). Caller holds the
        lock. Should a player have taken their seat back in another process meanwhile, it goes on."""
        if not await self.tables.storage.abandon_deserted(table.id):
            return
        self.cancel(table.id)
        self.tables.forget(table.id)
        log.info("game %s: abandoned: no human player came back", table.id)
        table = await self.tables.load(table.id, unavailable_ok=True)
        try:
            await self.delivery.ended(
                table,
                Phrase(
                    N_("Game #{id} ({title}) was abandoned: no player came back to it."),
                    id=table.id,
                    title=Phrase(table.title),
                ),
            )
        except ChannelGone:
            pass  # its channel was deleted: nobody to tell there

    # ------------------------------------------------------------ lifecycle
    async def idle(self) -> None:
        """Wait until no AI move is pending or in flight (tests and the demo): an AI move being applied,
        every AI move it arms in turn (its job), and every publish they requested; and until the loop
        has looked at its jobs after every wake-up so far (its start-up, LISTEN and first sweep, too), so
        that no look of it falls after this returns (a test counting what a move costs, say)."""
        publisher = self.turns.publisher
        storage = self.tables.storage
        while True:
            pending = [t for t in (*self._ai_moving, *self._arming) if not t.done()]
            if pending:
                await asyncio.gather(*pending, return_exceptions=True)
                continue
            if publisher.busy():
                await publisher.idle()
                continue
            if self._loop is not None and not self._loop.done() and await storage.jobs(kind="ai"):
                self.wake()
                await asyncio.sleep(0.01)
                continue
            if await self._looking():
                continue
            return

    async def _looking(self) -> bool:
        """Wait while the loop is looking at its jobs or is woken and about to. -> whether it was."""
        loop = self._loop
        if loop is None or loop.done():
            return False
        if self._parked.is_set() and not self._wake.is_set():
            return False
        if self._parked.is_set():  # woken, not yet run: let it take the wake-up
            await asyncio.sleep(0)
            return True
        parked = asyncio.ensure_future(self._parked.wait())
        try:
            await asyncio.wait((parked, loop), return_when=asyncio.FIRST_COMPLETED)
        finally:
            parked.cancel()
        return True

    async def close(self, *, release: bool = True) -> None:
        """Stop. ``release``: give up the jobs this process holds, so that another process (or the next
        start) runs them at once rather than when their lease runs out."""
        self._closing = True
        if self._loop is not None:
            self._loop.cancel()
            try:
                await self._loop
            except BaseException:  # noqa: BLE001 - shutting down
                pass
        await cancel_all(self._timers)
        await cancel_all(self._ai_tasks)
        for _, _, thought in self._thoughts.values():
            thought.cancel()
        self._thoughts.clear()
        for task in list(self._arming):
            task.cancel()
        if release and self._loop is not None:
            try:
                await self.tables.storage.release_jobs(self.owner)
            except Exception:  # noqa: BLE001 - the leases run out anyway
                log.warning("could not release the jobs held by %s", self.owner, exc_info=True)
