"""The publisher: shows a game as it now stands, and keeps trying when Discord does not take it.

Publishing holds no game lock: a committed change is handed over as a request, and one task per
game shows the newest stored version (requests made meanwhile coalesce into its next publish).
A failed delivery never stops a game: it is retried in the background (with the same events)
until it goes through or the game moves on. The one exception: when the game's channel (or thread)
was deleted, the game is suspended (stored; its timers, AI and retries stop; it is not resumed).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass, field

from bot.logs import log_context
from bot.storage import SUSPENDED, WrongStatus
from bot.tables import ChannelGone, Delivery, Table, Tables

log = logging.getLogger("admiralty.publisher")

RETRY_FIRST_DELAY = 0.5  # seconds before a failed delivery is tried again; doubles each time
RETRY_MAX_DELAY = 60.0
RETRY_ATTEMPTS = 12


@dataclass
class _Request:
    """What waits to be shown of one game: the events of every action since the last publish (their
    private parts go to each seat's DM), the seats that acted, the clicks that asked (newest last),
    and who waits for it to be shown."""

    events: list[dict] = field(default_factory=list)
    actors: list[int] = field(default_factory=list)
    vias: list[object] = field(default_factory=list)
    note: str = ""
    waiters: list[asyncio.Future] = field(default_factory=list)

    def add(self, events: list[dict], actor: int | None, via: object, note: str) -> None:
        self.events += events
        if actor is not None and actor not in self.actors:
            self.actors.append(actor)
        if via is not None:
            self.vias.append(via)
        self.note = note or self.note

    def settle(self, ok: bool) -> None:
        for waiter in self.waiters:
            if not waiter.done():
                waiter.set_result(ok)


@dataclass
class _Next:
    """The publish after the one in flight (bot.tables.Successor): the pending request of the game,
    shown next by the same task (:meth:`Publisher._run`)."""

    pending: dict[int, _Request]
    game_id: int

    def waiting(self) -> bool:
        return self.game_id in self.pending


class Publisher:
    """Shows games, one publish at a time per game, never under the game's lock.

    A change is committed under the lock, then handed here as a request (:meth:`request`). A per-game
    task draws the newest stored version (an engine of its own, built from the snapshot: never one a
    move is being applied to) and sends it. Requests that arrive while a publish is in flight wait
    together for the next one: a burst of moves is shown once, at its newest version, and a version
    is never sent after a newer one."""

    def __init__(self, tables: Tables, delivery: Delivery) -> None:
        self.tables = tables
        self.delivery = delivery
        self._retries: dict[int, asyncio.Task] = {}
        self._tasks: dict[int, asyncio.Task] = {}  # the publishing task of each game
        self._pending: dict[int, _Request] = {}  # what waits for the next publish of each game
        self._flying: dict[int, _Request] = {}  # what the publish in flight shows
        self._shown: dict[int, int] = {}  # the version last published of each game
        self._closing = False
        # Whether other processes (shards on one database) publish these games too: only then may a
        # newer version have been committed elsewhere (:meth:`_catch_up`). A delivery says so (``shared``);
        # one that does not say is taken as shared.
        self.shared = bool(getattr(delivery, "shared", True))
        # Called with the id of a game just suspended (the scheduler stops its timer and AI).
        self.on_suspend: Callable[[int], None] = lambda game_id: None

    def request(
        self, game_id: int, events: list[dict], note: str = "", actor: int | None = None, via: object = None
    ) -> asyncio.Future:
        """Have the game shown as it stands (soon, and after every request before it). ``actor`` is the
        seat whose action this was (its private message is updated in place); ``via`` the click that
        caused it (opaque here: the delivery may answer through it). The future resolves (never
        raises) once a publish that covers this request is done: True if it was delivered."""
        waiter = asyncio.get_running_loop().create_future()
        if self._closing:
            waiter.set_result(False)
            return waiter
        pending = self._pending.setdefault(game_id, _Request())
        pending.add(events, actor, via, note)
        pending.waiters.append(waiter)
        task = self._tasks.get(game_id)
        if task is None or task.done():
            self._tasks[game_id] = asyncio.create_task(self._run(game_id), name=f"publish-{game_id}")
        return waiter

    def waiter(self, game_id: int) -> asyncio.Future:
        """A future that resolves when what was requested so far for the game has been published."""
        waiter = asyncio.get_running_loop().create_future()
        request = self._pending.get(game_id) or self._flying.get(game_id)
        if request is None:
            waiter.set_result(True)
        else:
            request.waiters.append(waiter)
        return waiter

    async def publish(
        self, table: Table, events: list[dict], note: str = "", actor: int | None = None, via: object = None
    ) -> bool:
        """Request a publish of ``table``'s game and wait until it is done (see :meth:`request`).
        False when it was not delivered (it is then retried, or the game was suspended)."""
        return await self.request(table.id, events, note, actor=actor, via=via)

    async def _run(self, game_id: int) -> None:
        try:
            while (request := self._pending.pop(game_id, None)) is not None:
                self._flying[game_id] = request
                ok = False
                try:
                    ok = await self._publish_newest(game_id, request)
                finally:
                    self._flying.pop(game_id, None)
                    request.settle(ok)
        finally:
            if self._tasks.get(game_id) is asyncio.current_task():
                del self._tasks[game_id]

    async def _publish_newest(self, game_id: int, request: _Request) -> bool:
        try:
            # with the lines of its log that the delivery shows (``log_lines``) and, for a delivery that
            # keeps messages (``keeps_messages``), the game's stored messages: all in the same query
            table = await self.tables.load(
                game_id,
                fresh=True,
                log_lines=getattr(self.delivery, "log_lines", 0),
                messages=getattr(self.delivery, "keeps_messages", False),
            )
        except Exception:
            log.exception("game %s: cannot be loaded to be shown", game_id)
            return False
        if table.version < self._shown.get(game_id, -1):
            return True  # a newer version was already shown (cannot happen: one publisher per game)
        with log_context(game=game_id, guild=table.row.guild_id, version=table.version):
            return await self._deliver(table, request)

    async def _deliver(self, table: Table, request: _Request) -> bool:
        game_id = table.id
        try:
            await self.delivery.publish(
                table,
                request.events,
                request.note,
                actors=tuple(request.actors),
                vias=tuple(request.vias),
                successor=_Next(self._pending, game_id),
            )
            self._shown[game_id] = table.version
            await self._catch_up(table)
            return True
        except asyncio.CancelledError:
            raise
        except ChannelGone as e:
            await self.channel_gone(table.id, e.channel_id)
            return False
        except Exception:
            log.exception("game %s: delivery of version %s failed; will retry", table.id, table.version)
            task = self._retries.get(table.id)
            if not self._closing and (task is None or task.done()):
                self._retries[table.id] = asyncio.create_task(
                    self._republish(table.id, table.version, request.events, request.note),
                    name=f"republish-{table.id}",
                )
            return False

    async def _catch_up(self, table: Table) -> None:
        """With several processes (shards), another one may have committed a newer version and shown
        it while this one was being sent, and this older one may have landed after it: then show the
        newest again. (Within this process a newer version always has its request pending already.)"""
        if table.id in self._pending or self._closing or not self.shared:
            return
        try:
            row = await self.tables.storage.get_game(table.id)
        except Exception:  # noqa: BLE001 - only a check; the version shown stays as it is
            log.warning("game %s: could not check for a newer version", table.id, exc_info=True)
            return
        if row is not None and row.version > table.version and row.status in ("running", "finished"):
            log.info("game %s: version %s was made elsewhere meanwhile; showing it", table.id, row.version)
            self.request(table.id, [])

    async def _republish(self, game_id: int, version: int, events: list[dict], note: str) -> None:
        delay = RETRY_FIRST_DELAY
        for _ in range(RETRY_ATTEMPTS):
            await asyncio.sleep(delay)
            delay = min(delay * 2, RETRY_MAX_DELAY)
            try:
                if self._shown.get(game_id, -1) >= version:
                    return  # a later publish went through
                row = await self.tables.storage.get_game(game_id)
                if row is None or row.status not in ("running", "finished"):
                    return
                if await self.request(game_id, events if row.version == version else [], note or "retry"):
                    return
                row = await self.tables.storage.get_game(game_id)
                if row is None or row.status not in ("running", "finished"):
                    return  # suspended meanwhile
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("game %s: delivery retry failed", game_id, exc_info=True)
        log.error(
            "game %s: gave up delivering version %s; /game status posts the board again", game_id, version
        )

    async def idle(self) -> None:
        """Wait until no publish is pending or in flight (retries, which wait, are not waited for)."""
        while True:
            pending = [t for t in self._tasks.values() if not t.done()]
            if not pending:
                return
            await asyncio.gather(*pending, return_exceptions=True)

    def busy(self) -> bool:
        return any(not t.done() for t in self._tasks.values())

    async def channel_gone(self, game_id: int, channel_id: int) -> bool:
        """The game's channel (or thread) was deleted: suspend the running game. It is stored as
        suspended (so it is not resumed at a restart and blocks nothing), its timer, AI and delivery
        retries stop, and one line is logged. True if this call suspended it. The caller may hold the
        game's lock (this takes no lock: the status change is one checked transaction)."""
        row = await self.tables.storage.get_game(game_id)
        if row is None or row.status != "running":
            return False  # already suspended, finished or abandoned: nothing goes on that could fail
        try:
            await self.tables.storage.set_status(game_id, SUSPENDED)
        except WrongStatus:  # it ended meanwhile
            return False
        self.tables.forget(game_id)
        retry = self._retries.pop(game_id, None)
        if retry is not None and retry is not asyncio.current_task():
            retry.cancel()
        self.on_suspend(game_id)
        log.warning(
            "game %s: its channel %s was deleted; the game is suspended (`/game abandon game:%s` clears it)",
            game_id,
            channel_id,
            game_id,
        )
        return True

    async def close(self) -> None:
        self._closing = True
        await cancel_all(self._retries)
        await cancel_all(self._tasks)
        for requests in (self._pending, self._flying):
            for request in requests.values():
                request.settle(False)
            requests.clear()


async def cancel_all(tasks: dict[int, asyncio.Task]) -> None:
    """Cancel every task of ``tasks``, wait for them to end, and empty the dict."""
    pending = list(tasks.values())
    tasks.clear()
    for task in pending:
        task.cancel()
    for task in pending:
        try:
            await task
        except BaseException:  # noqa: BLE001 - shutting down
            pass
