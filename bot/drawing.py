"""Drawing the boards: off the event loop, on every core, each picture once.

A board is a pure function of (game, view, names) (``rendering.render``), so :class:`Drawing` keys
each picture by the game it belongs to and a digest of exactly that: a view that did not change (the
spectators' view asked for by the table, ``/game status``, a resume and a retry; a seat whose view a
move did not touch) is drawn once and its bytes shared, and a view that changed is drawn again. Two
seats with different views never share a picture (the digest is of the view itself: hidden
information stays with the view it belongs to). Requests for a picture being drawn wait for that
one drawing (no thundering herd); the pictures drawn last are kept in memory, least recently used
first out, up to :data:`CACHE_BYTES`.

Pictures are drawn by a pool of worker processes (``ADMIRALTY_DRAW_WORKERS``, by default one per core
this process may use): a view (a JSON-able dict) and names go in, PNG bytes come out, and the bot's
event loop and its GIL stay free for clicks. ``0`` draws in a thread of this process instead (tiny
machines, tests). Each worker loads the fonts and draws every game once when it starts, so that its
layer caches are warm before the first move. Each worker has a pipe of its own, written and read by
the event loop (``bot/drawing_pool.py``: no thread of the bot's process in between). A worker that dies
(out of memory, a crash in Pillow) is replaced and the picture tried once more; when that fails too
the board is shown as text (a log line says why). A drawing still running after
:data:`DRAW_LIMIT_SECONDS` has its worker stopped and replaced, and the board is shown as text at once
(not tried again: it would hang again). Workers ignore Ctrl-C (the bot shuts the pool down)
and exit by themselves when the bot's process is gone, however it ended.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import os
import signal
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import orjson

import rendering
from bot import metrics
from bot.drawing_pool import Overdue, PoolOwner, Workers

log = logging.getLogger("admiralty.drawing")

CACHE_BYTES = 32 * 1024 * 1024  # pictures kept for sharing (a board is 20-150 KiB: a few hundred)
# A picture takes milliseconds and a replay frame well under a second; one still running after this
# long never ends (a loop in a renderer): its process is stopped and the board shown as text.
DRAW_LIMIT_SECONDS = 30.0
PARENT_CHECK_SECONDS = 0.5  # how often a worker looks whether the bot's process is still there

Key = tuple[str, int | None, str]  # (game key, game id, digest of the view and names)
Drawer = Callable[[str, dict, "list[str] | None"], "tuple[bytes, float, float]"]


def machine_cores() -> int:
    """The cores this process may run on (its CPU affinity where the system tells it)."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:  # macOS, Windows
        return os.cpu_count() or 1


_CANONICAL = orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS  # keys sorted; 1 and "1" alike, as in JSON


def view_digest(game_key: str, view: dict, names: list[str] | None) -> str:
    """What a picture is a function of, digested: equal digests, equal pictures. The view is encoded
    once, as canonical JSON (keys sorted) by orjson: several times faster than the json module, and
    asked for every picture a move shows, the ones already drawn included."""
    what = [game_key, view, names]
    try:
        text = orjson.dumps(what, option=_CANONICAL)
    except TypeError:  # beyond what orjson encodes (an integer over 64 bits): the json module's text
        text = json.dumps(what, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()
    return hashlib.blake2b(text, digest_size=20).hexdigest()


def draw(game_key: str, view: dict, names: list[str] | None) -> tuple[bytes, float, float]:
    """The PNG of ``view``, the seconds it took and the CPU seconds (run in a worker process or a
    thread: its thread's CPU clock)."""
    start, cpu = time.perf_counter(), time.thread_time()
    png = rendering.render(game_key, view, names)
    return png, time.perf_counter() - start, time.thread_time() - cpu


def worker_start(parent: int, warm: bool) -> None:
    """A worker process's first steps: leave Ctrl-C to the bot, exit with it, warm the caches (``warm``).
    (bot/thinking.py's workers start so too.)"""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_exit_with, args=(parent,), name="parent-watch", daemon=True).start()
    if warm:
        warm_up()


def _exit_with(parent: int) -> None:
    """Ends this worker when the process that started it is gone (killed, crashed): a worker blocks
    reading a queue whose writing end it holds itself, so it would wait for work forever."""
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK_SECONDS)
    os._exit(0)


def warm_up() -> None:
    """Draws every game's opening views once: fonts, sprites and static layers are loaded and
    cached in this process before the first real move needs them."""
    from bot.games import registry

    for key in registry.keys():
        if not rendering.has_renderer(key):
            continue
        try:
            spec = registry.get(key)
            game = spec.new(max(2, spec.min_players), {}, 0)
            for seat in (None, 0):
                rendering.render(key, game.view(seat), None)
        except Exception:  # noqa: BLE001 - a cold cache only costs time
            log.warning("warming the %s renderer failed", key, exc_info=True)


class Drawing(PoolOwner):
    """The bot's one way to draw a board (``picture``): through the pool, the cache and the
    drawings under way. ``workers`` None: one per core; 0: a thread of this process. Closed, drawings
    not started are dropped."""

    def __init__(
        self,
        workers: int | None = None,
        *,
        cache_bytes: int = CACHE_BYTES,
        warm: bool = True,
        drawer: Drawer = draw,
        limit: float = DRAW_LIMIT_SECONDS,
    ) -> None:
        self.workers = machine_cores() if workers is None else workers
        self.limit = limit  # seconds one drawing may run in a worker process
        self.cache_bytes = cache_bytes
        self.warm = warm
        self.drawer = drawer  # a module-level function (worker processes import it by name)
        self.drawn = 0  # pictures drawn (not served from the cache or a drawing under way)
        self.shared = 0  # requests answered by a picture drawn or being drawn for another
        self.cpu = 0.0  # CPU seconds the pictures drawn took, wherever they were drawn
        self._pool: Workers | None = None
        self._cache: OrderedDict[Key, bytes] = OrderedDict()
        self._cached = 0  # bytes in the cache
        self._drawing: dict[Key, asyncio.Task[bytes | None]] = {}
        self._closed = False

    # ----------------------------------------------------------------- pool
    def _new_pool(self) -> Workers:
        # spawned, whose parent is the bot (which they watch), each warming its caches; started by
        # ``start`` at the bot's start, not at the first move
        return Workers(self.workers, worker_start, (os.getpid(), self.warm), limit=self.limit)

    # ----------------------------------------------------------------- pictures
    async def picture(
        self,
        game_key: str,
        view: dict,
        names: list[str] | None,
        *,
        game_id: int | None = None,
        urgent: bool = False,
    ) -> bytes | None:
        """The PNG of ``view`` of game ``game_id``: from the cache, from the drawing of it under way,
        or drawn now. None when it cannot be drawn (the caller shows the text board). ``urgent``: a
        click's answer waits for it, so it is drawn before the pictures queued so far."""
        key: Key = (game_key, game_id, view_digest(game_key, view, names))
        png = self._cache.get(key)
        if png is not None:
            self._cache.move_to_end(key)
            self.shared += 1
            return png
        task = self._drawing.get(key)
        if task is None:
            task = self._drawing[key] = asyncio.ensure_future(self._draw_and_keep(key, view, names, urgent))
        else:
            self.shared += 1
        # shielded: a request given up (a click's answer cancelled) leaves the drawing to the others
        return await asyncio.shield(task)

    async def _draw_and_keep(
        self, key: Key, view: dict, names: list[str] | None, urgent: bool = False
    ) -> bytes | None:
        try:
            png = await self._draw(key[0], view, names, key[1], urgent)
        finally:
            del self._drawing[key]
        if png is not None:
            self._keep(key, png)
        return png

    def _keep(self, key: Key, png: bytes) -> None:
        if len(png) > self.cache_bytes:
            return
        self._cache[key] = png
        self._cached += len(png)
        while self._cached > self.cache_bytes:
            _, old = self._cache.popitem(last=False)
            self._cached -= len(old)

    async def run(self, fn: Callable[..., Any], *args: Any, urgent: bool = False) -> Any:
        """``fn(*args)`` in a worker process (a thread when there are none), tried once more when the
        worker died under it (it is replaced; BrokenProcessPool again the second time). ``fn`` must be
        a module-level function, its arguments and result plain data: pictures, views, captions."""
        if self.workers > 0 and self._pool is None and not self._closed:
            self.start()
        pool = self._pool
        if pool is None:  # no workers (or stopped): a thread of this process
            return await asyncio.to_thread(fn, *args)
        try:
            return await pool.call(fn, *args, urgent=urgent)
        except Overdue:
            raise
        except BrokenProcessPool:
            if self._closed:
                raise
            log.warning("a drawing process died (%s); trying once more in a new one", fn.__name__)
        return await pool.call(fn, *args, urgent=urgent)

    async def _draw(
        self, game_key: str, view: dict, names: list[str] | None, game_id: int | None, urgent: bool = False
    ) -> bytes | None:
        try:
            png, seconds, cpu = await self.run(self.drawer, game_key, view, names, urgent=urgent)
        except Overdue as e:
            log.error("%s drawing game %s (%s); showing the text board", e, game_id, game_key)
            return None
        except BrokenProcessPool:
            if not self._closed:  # (shutting down: the pool was stopped under it)
                log.error(
                    "drawing processes died twice drawing game %s (%s); showing the text board",
                    game_id,
                    game_key,
                )
            return None
        except Exception:
            log.exception("could not draw game %s (%s); showing the text board", game_id, game_key)
            return None
        self.drawn += 1
        self.cpu += cpu
        metrics.rendered(game_key, seconds, cpu)
        return png
