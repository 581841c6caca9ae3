"""Worker processes (the drawing's, the AI's): a pipe each, read by the event loop itself.

``concurrent.futures.ProcessPoolExecutor`` hands every call through two threads of the bot's process
(its manager thread, and a queue's feeder thread that pickles and writes) and back through the manager
thread and the loop's self-pipe: a picture cost ~0.4 ms of the bot's CPU that way, under the GIL its
event loop needs. Here a call is pickled and written by the event loop to an idle worker's pipe, and
the answer read when the loop sees the pipe readable (``add_reader``): no thread, no queue.

A worker is spawned (not forked: the bot runs an event loop and threads), runs ``initializer`` and
says it is ready, then answers calls one at a time. Calls wait in a queue while every worker is busy or
starting. A worker that dies (the OOM killer, a crash in Pillow) fails its call in flight with
``BrokenProcessPool`` (the caller may try once more) and is replaced; one that dies idle is replaced.
A call that runs past ``limit`` seconds (a picture that never finishes: a loop in a renderer) has its
worker killed, and fails the same way: a hung drawing must not hold a game's table up for ever.
"""

from __future__ import annotations

import asyncio
import collections
import logging
import multiprocessing
import os
import pickle
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.connection import Connection
from typing import Any

log = logging.getLogger("admiralty.drawing")


class Overdue(BrokenProcessPool):
    """A call ran past the limit and its worker was stopped (not tried again: it would hang again)."""


READY = b"ready"  # a worker's first message, once its initializer ran
STOP = b""  # the message that ends a worker


def _serve(conn: Connection, initializer: Callable[..., Any] | None, initargs: tuple) -> None:
    """A worker's life: initialise, say so, then answer ``(fn, args)`` with ``(ok, result or error)``."""
    if initializer is not None:
        initializer(*initargs)
    conn.send_bytes(READY)
    while True:
        try:
            data = conn.recv_bytes()
        except (EOFError, OSError):  # the bot is gone
            return
        if data == STOP:
            return
        fn, args = pickle.loads(data)
        try:
            answer: tuple[bool, Any] = (True, fn(*args))
        except BaseException as e:  # noqa: BLE001 - raised in the bot, where the call was made
            answer = (False, e)
        try:
            out = pickle.dumps(answer, pickle.HIGHEST_PROTOCOL)
        except Exception as e:  # noqa: BLE001 - an answer that cannot cross: say why
            out = pickle.dumps((False, RuntimeError(f"{fn.__name__}: its answer cannot be sent: {e}")))
        conn.send_bytes(out)


class _Worker:
    def __init__(self, process: multiprocessing.process.BaseProcess, conn: Connection) -> None:
        self.process = process
        self.conn = conn
        self.ready = False
        self.call: asyncio.Future | None = None  # the call in flight
        self.name = ""  # its function's name, for the log
        self.overdue: asyncio.TimerHandle | None = None  # kills it when its call runs past the limit
        self.killed_overdue = False
        self.limit: float | None = None  # its call's limit


class PoolOwner:
    """What runs its calls in :class:`Workers` (the drawing, the AI's thinking): ``workers`` processes
    (0: none, the owner uses a thread), started by :meth:`start` with the event loop running (it reads
    their pipes) and stopped by :meth:`close`, which waits for them to exit; calls still queued then fail
    as for a worker that died. ``_new_pool`` makes the owner's Workers."""

    workers: int
    _pool: Workers | None
    _closed: bool

    def _new_pool(self) -> Workers:
        raise NotImplementedError

    def start(self) -> None:
        if self.workers > 0 and self._pool is None and not self._closed:
            self._pool = self._new_pool()

    def worker_pids(self) -> list[int]:
        """The worker processes running now (for tests and operators)."""
        return self._pool.pids() if self._pool is not None else []

    async def close(self) -> None:
        self._closed = True
        pool, self._pool = self._pool, None
        if pool is not None:
            await pool.close()


class Workers:
    """``count`` worker processes (``name``: what they do); :meth:`call` runs a module-level function in
    one of them."""

    def __init__(
        self,
        count: int,
        initializer: Callable[..., Any] | None = None,
        initargs: tuple = (),
        *,
        limit: float | None = None,
        name: str = "drawing",
    ) -> None:
        self.count = count
        self.limit = limit  # seconds a call may run; None: no limit
        self.name = name  # what the workers do ("drawing", "thinking"): their process name and log lines
        self.initializer = initializer
        self.initargs = initargs
        self._context = multiprocessing.get_context("spawn")
        self._loop = asyncio.get_running_loop()
        self._workers: list[_Worker] = []
        self._idle: collections.deque[_Worker] = collections.deque()
        # (call, its future, its function's name, its limit): the urgent ones (a click's answer waits for
        # them) go first, each queue in its order
        self._urgent: collections.deque[tuple[bytes, asyncio.Future, str, float | None]] = collections.deque()
        self._queue: collections.deque[tuple[bytes, asyncio.Future, str, float | None]] = collections.deque()
        self._closed = False
        for _ in range(count):
            self._spawn()

    def _spawn(self) -> None:
        mine, theirs = self._context.Pipe(duplex=True)
        process = self._context.Process(
            target=_serve,
            args=(theirs, self.initializer, self.initargs),
            name=f"admiralty-{self.name.lower()}",
            daemon=True,
        )
        process.start()
        theirs.close()
        worker = _Worker(process, mine)
        self._workers.append(worker)
        self._loop.add_reader(mine.fileno(), self._readable, worker)
        # uvloop's add_reader makes the pipe non-blocking (libuv's uv_poll_init does), and then a message
        # read or written in parts fails half way with BlockingIOError, taken for a dead worker. The
        # loop only waits for the pipe to be readable; the reads and writes here expect whole messages.
        os.set_blocking(mine.fileno(), True)

    def pids(self) -> list[int]:
        return sorted(
            w.process.pid for w in self._workers if w.process.pid is not None and w.process.is_alive()
        )

    async def call(
        self, fn: Callable[..., Any], *args: Any, limit: float | None = None, urgent: bool = False
    ) -> Any:
        """``fn(*args)`` in a worker: its result, or its exception raised here; BrokenProcessPool when the
        worker died under it. ``limit``: this call's own limit in seconds (else the pool's). ``urgent``:
        someone waits for it (a click's answer): it goes before the calls queued so far."""
        if self._closed:
            raise BrokenProcessPool(f"the {self.name} processes are stopped")
        future = self._loop.create_future()
        data = pickle.dumps((fn, args), pickle.HIGHEST_PROTOCOL)
        call = (data, future, fn.__name__, self.limit if limit is None else limit)
        (self._urgent if urgent else self._queue).append(call)
        self._dispatch()
        return await future

    def _dispatch(self) -> None:
        while (self._urgent or self._queue) and self._idle:
            queue = self._urgent or self._queue
            data, future, name, limit = call = queue.popleft()
            if future.done():  # given up meanwhile
                continue
            worker = self._idle.popleft()
            worker.call, worker.name, worker.limit = future, name, limit
            try:
                worker.conn.send_bytes(data)
            except OSError:  # it died idle: its reader sees the end of its pipe and replaces it
                worker.call = None
                queue.appendleft(call)
                return
            if limit is not None:
                worker.overdue = self._loop.call_later(limit, self._kill_overdue, worker, future)

    def _kill_overdue(self, worker: _Worker, future: asyncio.Future) -> None:
        """The call still runs past the limit: kill its worker (its pipe's end fails the call and
        replaces it, as for any worker that dies)."""
        if worker.call is future and not future.done():
            log.error(
                "a %s process ran %s for more than %g s; it is stopped", self.name, worker.name, worker.limit
            )
            worker.killed_overdue = True
            worker.process.kill()

    def _readable(self, worker: _Worker) -> None:
        try:
            data = worker.conn.recv_bytes()
        except (EOFError, OSError):
            self._died(worker)
            return
        if not worker.ready:
            worker.ready = data == READY
            self._idle.append(worker)
            self._dispatch()
            return
        future, worker.call = worker.call, None
        if worker.overdue is not None:
            worker.overdue.cancel()
            worker.overdue = None
        self._idle.append(worker)
        if future is not None and not future.done():
            ok, value = pickle.loads(data)
            if ok:
                future.set_result(value)
            else:
                future.set_exception(value)
        self._dispatch()

    def _died(self, worker: _Worker) -> None:
        self._loop.remove_reader(worker.conn.fileno())
        worker.conn.close()
        worker.process.join(0)
        self._workers.remove(worker)
        if worker in self._idle:
            self._idle.remove(worker)
        if worker.overdue is not None:
            worker.overdue.cancel()
        if worker.call is not None and not worker.call.done():
            error: BrokenProcessPool
            if worker.killed_overdue:
                error = Overdue(
                    f"a {self.name} process was stopped after {worker.limit:g} s in {worker.name}"
                )
            else:
                error = BrokenProcessPool(
                    f"a {self.name} process died (exit code {worker.process.exitcode}) in {worker.name}"
                )
            worker.call.set_exception(error)
        if not self._closed:
            self._spawn()

    async def close(self) -> None:
        """Stops the workers (calls not started fail) and waits for them to exit."""
        self._closed = True
        for _, future, _, _ in (*self._urgent, *self._queue):
            if not future.done():
                future.set_exception(BrokenProcessPool(f"the {self.name} processes are stopped"))
        self._urgent.clear()
        self._queue.clear()
        workers, self._workers = self._workers, []
        for worker in workers:
            self._loop.remove_reader(worker.conn.fileno())
            if worker.call is not None:  # drawing: its answer would go unread
                worker.process.kill()
                continue
            try:
                worker.conn.send_bytes(STOP)
            except OSError:
                pass
        for worker in workers:
            await asyncio.to_thread(worker.process.join, 10)
            if worker.process.is_alive():
                worker.process.kill()
                await asyncio.to_thread(worker.process.join, 5)
            worker.conn.close()
            if worker.call is not None and not worker.call.done():
                worker.call.set_exception(BrokenProcessPool(f"the {self.name} processes are stopped"))
