"""Prometheus metrics, served on ``ADMIRALTY_METRICS_PORT`` (off when unset: every call here is then a
no-op costing one attribute test).

The code that does the work calls the module functions (``move``, ``answer_timer``,
``rendered``); the bot's REST calls are counted by a middleware on discord.py's HTTP session
(``count_requests``), with the route template of each request. Gauges of games and timers are read
from storage when Prometheus scrapes.

Metric names (all prefixed ``admiralty_``):

- ``moves_total{game, kind}``: actions applied; kind ``human``, ``ai`` or ``timeout``.
- ``answer_seconds{what}``: from the start of handling a click or command to its answer (the cogs'
  ``guarded``); ``what`` is ``command /game new``, ``component adm:b`` and the like.
- ``render_seconds{game}``: board images rendered (``_count``) and the time they took.
- ``render_cpu_seconds_total{game}``: the CPU time drawing them took, wherever they were drawn (the
  drawing processes' CPU is not in this process's ``process_cpu_seconds_total``).
- ``discord_requests_total{route, status}``: REST calls to Discord by route template
  (``POST /channels/{channel_id}/messages``) and HTTP status.
- ``discord_rate_limited_total{route, scope}``: the 429 answers among them (scope: user, global,
  shared).
- ``cpu_seconds_total{phase}``: the CPU time this process spent on ``engine`` (rules: snapshots read
  and written, moves applied, legal moves and their menus) and ``storage`` (the SQLite worker thread).
  With drawing (``render_cpu_seconds_total`` when drawn in a thread of this process; else the drawing
  processes' own), the rest of ``process_cpu_seconds_total`` is the event loop's own: Discord I/O
  (discord.py, aiohttp, JSON), the host, publisher and message layout. ``bench/bench_load.py`` divides
  each by the moves played.
- ``games_running{game}``, ``timers_armed``, ``timers_due``: running games, those with a turn deadline,
  and those whose deadline has passed (should stay near 0: a timer that did not fire). Read from the
  database, so every process of a sharded deployment reports the same totals.

Label values never carry ids, tokens or anything a player chose.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import re
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, Protocol
from wsgiref.simple_server import WSGIServer

import aiohttp
from prometheus_client import (
    CollectorRegistry,
    Counter,
    Histogram,
    gc_collector,
    platform_collector,
    process_collector,
    start_http_server,
)
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily


class Storage(Protocol):
    """What the gauges read of ``bot.storage.Storage`` (not imported: the storage counts its thread's
    CPU here, ``cpu_thread``)."""

    async def running_games(self) -> list[Any]: ...


log = logging.getLogger("admiralty.metrics")

KINDS = ("human", "ai", "timeout")
PHASES = ("engine", "storage")  # CPU time of this process counted apart (``cpu``, ``cpu_thread``)
SCRAPE_TIMEOUT = 5.0  # seconds a scrape waits for the database
GAUGE_MAX_AGE = 5.0  # seconds the gauges' values are reused between scrapes

_route: contextvars.ContextVar[str | None] = contextvars.ContextVar("admiralty_http_route", default=None)


class Metrics:
    """The metrics of one process, on their own registry, served over HTTP by ``start``."""

    def __init__(self, registry=None) -> None:
        self.registry = registry if registry is not None else CollectorRegistry()
        if registry is None:
            process_collector.ProcessCollector(registry=self.registry)
            platform_collector.PlatformCollector(registry=self.registry)
            gc_collector.GCCollector(registry=self.registry)
        r = self.registry
        self.moves = Counter("admiralty_moves", "Actions applied to games", ["game", "kind"], registry=r)
        self.answer = Histogram(
            "admiralty_answer_seconds",
            "From handling a click or command to its answer",
            ["what"],
            registry=r,
            buckets=(0.05, 0.1, 0.25, 0.5, 1, 2, 3, 5, 10, 30),
        )
        self.render = Histogram(
            "admiralty_render_seconds",
            "Board images rendered and their time",
            ["game"],
            registry=r,
            buckets=(0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5),
        )
        self.think = Histogram(
            "admiralty_ai_think_seconds",
            "AI seats' moves and their think time (outcome: thought, or fallback to the easy move)",
            ["game", "level", "outcome"],
            registry=r,
            buckets=(0.01, 0.05, 0.1, 0.25, 0.5, 1, 1.5, 2, 3, 5),
        )
        self.collector_pause = Histogram(
            "admiralty_gc_pause_seconds",
            "Pauses of Python's cyclic garbage collector, by generation collected (0 young, 2 full): "
            "everything in flight waits them out",
            ["generation"],
            registry=r,
            buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1),
        )
        self.render_cpu = Counter(
            "admiralty_render_cpu_seconds",
            "CPU time spent drawing board images (in the drawing processes, or a thread)",
            ["game"],
            registry=r,
        )
        self.requests = Counter(
            "admiralty_discord_requests", "REST calls to Discord", ["route", "status"], registry=r
        )
        self.rate_limited = Counter(
            "admiralty_discord_rate_limited", "429 answers from Discord", ["route", "scope"], registry=r
        )
        self._request_counters: dict[tuple[str, int | str], Any] = {}
        self.cpu: dict[str, float] = dict.fromkeys(PHASES, 0.0)  # seconds, by phase (see ``cpu``)
        self._cpu_threads: list[tuple[str, threading.Thread]] = []  # threads whose CPU is all one phase
        self._storage: Storage | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._clock: Callable[[], float] = time.time
        self._gauges: tuple[float, dict[str, int], int, int] | None = None
        self._gauge_lock = threading.Lock()
        r.register(_GameGauges(self))
        r.register(_CpuByPhase(self))
        self._server: WSGIServer | None = None
        self._thread: threading.Thread | None = None
        self.port: int | None = None

    # ----------------------------------------------------------- serving
    def start(self, port: int, addr: str = "127.0.0.1") -> int:
        """Serve ``/metrics`` on ``addr:port`` (port 0: a free one) in a thread; returns the port."""
        self._server, self._thread = start_http_server(port, addr=addr, registry=self.registry)
        self.port = self._server.server_port
        return self.port

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def watch(
        self,
        storage: Storage,
        loop: asyncio.AbstractEventLoop | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        """Read the game gauges from ``storage`` (on ``loop``, the bot's event loop) at scrape time."""
        self._storage = storage
        self._loop = loop or asyncio.get_running_loop()
        self._clock = clock
        self._gauges = None

    async def read_gauges(self) -> tuple[dict[str, int], int, int]:
        assert self._storage is not None  # gauges() asks only once watch() gave the storage
        rows = await self._storage.running_games()
        now = self._clock()
        games: dict[str, int] = {}
        for row in rows:
            games[row.game_key] = games.get(row.game_key, 0) + 1
        armed = [r.deadline for r in rows if r.deadline is not None]
        return games, len(armed), sum(1 for d in armed if d <= now)

    def gauges(self) -> tuple[dict[str, int], int, int] | None:
        """The games and timers gauges: fresh from storage (from the scrape's thread), or the last ones
        read (a scrape from the event loop's own thread cannot wait for it)."""
        if self._storage is None or self._loop is None:
            return None
        with self._gauge_lock:
            cached = self._gauges
            if cached is not None and time.monotonic() - cached[0] < GAUGE_MAX_AGE:
                return cached[1:]
            try:
                running = asyncio.get_running_loop()
            except RuntimeError:
                running = None
            if running is self._loop or self._loop.is_closed():
                return cached[1:] if cached else None
            try:
                fresh = asyncio.run_coroutine_threadsafe(self.read_gauges(), self._loop).result(
                    SCRAPE_TIMEOUT
                )
            except Exception:  # noqa: BLE001 - a scrape must not fail because the database is busy
                log.warning("metrics: could not read the games from the database", exc_info=True)
                return cached[1:] if cached else None
            self._gauges = (time.monotonic(), *fresh)
            return fresh

    # ----------------------------------------------------------- CPU by phase
    def cpu_seconds(self) -> dict[str, float]:
        """The CPU seconds counted so far by phase: the blocks timed by ``cpu`` plus the threads given to
        ``cpu_thread`` (read from their clocks now; a thread that ended keeps what it had when last read)."""
        out = dict(self.cpu)
        for phase, thread in self._cpu_threads:
            out[phase] = out.get(phase, 0.0) + _thread_cpu(thread)
        return out

    # ----------------------------------------------------------- HTTP
    def count_request(self, route: str, status: int | str, scope: str | None = None) -> None:
        key = (route, status)
        counter = self._request_counters.get(key)
        if counter is None:  # (labels() takes a lock and joins the label values: once per route and status)
            counter = self._request_counters[key] = self.requests.labels(route, str(status))
        counter.inc()
        if status == 429:
            self.rate_limited.labels(route, scope if scope in ("user", "global", "shared") else "user").inc()


class _GameGauges:
    """A collector that asks storage at scrape time."""

    def __init__(self, metrics: Metrics) -> None:
        self.metrics = metrics

    def describe(self):
        return []

    def collect(self):
        values = self.metrics.gauges()
        if values is None:
            return
        games, armed, due = values
        running = GaugeMetricFamily("admiralty_games_running", "Running games", labels=["game"])
        for key, count in sorted(games.items()):
            running.add_metric([key], count)
        yield running
        yield GaugeMetricFamily("admiralty_timers_armed", "Running games with a turn deadline", value=armed)
        yield GaugeMetricFamily(
            "admiralty_timers_due", "Running games whose turn deadline has passed", value=due
        )


class _CpuByPhase:
    """``admiralty_cpu_seconds_total{phase}``, read at scrape time."""

    def __init__(self, metrics: Metrics) -> None:
        self.metrics = metrics

    def describe(self):
        return []

    def collect(self):
        family = CounterMetricFamily(
            "admiralty_cpu_seconds", "CPU time of the process by phase", labels=["phase"]
        )
        for phase, seconds in sorted(self.metrics.cpu_seconds().items()):
            family.add_metric([phase], seconds)
        yield family


# the last CPU reading of each thread given to cpu_thread (a thread that ended keeps it)
_thread_seen: weakref.WeakKeyDictionary[threading.Thread, float] = weakref.WeakKeyDictionary()


def _thread_cpu(thread: threading.Thread) -> float:
    """The CPU seconds ``thread`` has used (Linux: its own clock), or its last reading once it ended."""
    ident = thread.ident
    if ident is not None and thread.is_alive():
        try:
            _thread_seen[thread] = time.clock_gettime(time.pthread_getcpuclockid(ident))
        except (AttributeError, OSError):  # no per-thread clocks here
            pass
    return _thread_seen.get(thread, 0.0)


# --------------------------------------------------------------- the process's metrics
_metrics: Metrics | None = None
_threads: list[tuple[str, threading.Thread]] = []  # cpu_thread's, for metrics enabled later


def enabled() -> Metrics | None:
    return _metrics


def enable(
    port: int | None = None,
    addr: str = "127.0.0.1",
    *,
    storage=None,
    loop: asyncio.AbstractEventLoop | None = None,
) -> Metrics:
    """Turn metrics on for this process (replacing any earlier ones); serve them when ``port`` is given
    (0: a free port, see ``Metrics.port``)."""
    global _metrics
    disable()
    m = Metrics()
    m._cpu_threads = [(phase, t) for phase, t in _threads if t.is_alive()]
    if storage is not None:
        m.watch(storage, loop)
    if port is not None:
        m.start(port, addr)
    _metrics = m
    return m


def disable() -> None:
    global _metrics
    if _metrics is not None:
        _metrics.stop()
    _metrics = None


def move(game_key: str, kind: str) -> None:
    """One action applied (``kind``: human, ai or timeout)."""
    if _metrics is not None:
        _metrics.moves.labels(game_key, kind).inc()


@contextmanager
def answer_timer(what: str) -> Iterator[None]:
    """Time the handling of a click or command, to its answer."""
    if _metrics is None:
        yield
        return
    start = time.perf_counter()
    try:
        yield
    finally:
        if _metrics is not None:
            _metrics.answer.labels(what).observe(time.perf_counter() - start)


def thought(game_key: str, level: str, seconds: float, outcome: str) -> None:
    """An AI seat's move thought in ``seconds`` (waiting for a free worker included); ``outcome``
    "thought", or "fallback" when the think failed or ran over and the easy move was played."""
    if _metrics is not None:
        _metrics.think.labels(game_key, level, outcome).observe(seconds)


def collector_paused(generation: int, seconds: float) -> None:
    """The garbage collector stopped everything for ``seconds`` to collect up to ``generation``."""
    if _metrics is not None:
        _metrics.collector_pause.labels(str(generation)).observe(seconds)


def rendered(game_key: str, seconds: float, cpu: float = 0.0) -> None:
    """A board image drawn in ``seconds``, taking ``cpu`` seconds of CPU (measured where it was drawn:
    a drawing process or a thread)."""
    if _metrics is not None:
        _metrics.render.labels(game_key).observe(seconds)
        _metrics.render_cpu.labels(game_key).inc(cpu)


@contextmanager
def cpu(phase: str) -> Iterator[None]:
    """Count the CPU time this thread spends in the block under ``phase`` (one of ``PHASES``). For
    synchronous blocks only: an ``await`` inside would count what other tasks did meanwhile."""
    if _metrics is None:
        yield
        return
    start = time.thread_time()
    try:
        yield
    finally:
        if _metrics is not None:
            _metrics.cpu[phase] += time.thread_time() - start


def cpu_thread(phase: str, thread: threading.Thread) -> None:
    """Count all of ``thread``'s CPU time under ``phase`` (a worker that does nothing else, such as
    aiosqlite's). Kept for the process's later metrics too."""
    _threads[:] = [(p, t) for p, t in _threads if t.is_alive()] + [(phase, thread)]
    if _metrics is not None:
        _metrics._cpu_threads.append((phase, thread))


# --------------------------------------------------------------- Discord REST calls
_SEGMENT = re.compile(r"[a-z][a-z0-9_-]{0,31}", re.ASCII)
_TOKEN_AFTER = ("webhooks", "interactions")


def route_template(path: str) -> str:
    """A request path with its ids and tokens taken out: ``/channels/{id}/messages``. Only plain
    lower-case words are kept; ``/api/v10`` is dropped; the segment after a webhook's or an
    interaction's id (its token) is ``{token}``."""
    parts = [p for p in path.split("?", 1)[0].split("/") if p]
    if len(parts) >= 2 and parts[0] == "api" and re.fullmatch(r"v\d+", parts[1]):
        parts = parts[2:]
    out: list[str] = []
    for i, part in enumerate(parts):
        if i >= 2 and out[i - 2] in _TOKEN_AFTER and out[i - 1] == "{id}":
            out.append("{token}")
        elif part.isascii() and part.isdigit():
            out.append("{id}")
        elif _SEGMENT.fullmatch(part):
            out.append(part)
        else:
            out.append("{x}")
    return "/" + "/".join(out)


def count_requests(http) -> None:
    """Count every REST call (and 429) of ``http`` (discord.py's ``HTTPClient``, logged in: its session
    exists), by route template: ``POST /channels/{channel_id}/messages`` (``Route.key`` without its
    metadata) for the library's routes, the path's template for the webhook adapter's (interaction
    answers, follow-ups), which share the session."""
    original = http.request
    if getattr(original, "_admiralty_wrapped", False):
        return

    async def request(route, *args, **kwargs):
        method, path = getattr(route, "method", None), getattr(route, "path", None)
        token = _route.set(f"{method} {path}" if method and path else None)
        try:
            return await original(route, *args, **kwargs)
        finally:
            _route.reset(token)

    request._admiralty_wrapped = True  # type: ignore[attr-defined]
    http.request = request
    # A client middleware (aiohttp 3.12), not a TraceConfig: a session with a trace builds a parameters
    # object for each of its ten signals on every request, whether anything listens or not (3-4 % of
    # the event loop's CPU under load). discord.py makes the session and takes no middleware, so it is
    # added to the session it made; tests/e2e/test_metrics_e2e.py sees the counts through it.
    session = http._HTTPClient__session
    session._middlewares = (*session._middlewares, _count_request)


async def _count_request(request: aiohttp.ClientRequest, handler) -> aiohttp.ClientResponse:
    if _metrics is None:
        return await handler(request)
    route = _route.get() or f"{request.method} {route_template(request.url.path)}"
    try:
        response = await handler(request)
    except Exception:
        _metrics.count_request(route, "error")
        raise
    status = response.status
    scope = response.headers.get("X-RateLimit-Scope") if status == 429 else None
    if status == 429 and scope is None and response.headers.get("X-RateLimit-Global"):
        scope = "global"
    _metrics.count_request(route, status, scope)
    return response
