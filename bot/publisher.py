"""The publisher: shows a game as it now stands, and keeps trying when Discord does not take it.

A failed delivery never stops a game: it is retried in the background (with the same events)
until it goes through or the game moves on. The one exception: when the game's channel (or thread)
was deleted, the game is suspended (stored; its timers, AI and retries stop; it is not resumed).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from bot.storage import SUSPENDED, WrongStatus
from bot.tables import ChannelGone, Delivery, Table, Tables

log = logging.getLogger("admiralty.publisher")

RETRY_FIRST_DELAY = 0.5  # seconds before a failed delivery is tried again; doubles each time
RETRY_MAX_DELAY = 60.0
RETRY_ATTEMPTS = 12


class Publisher:
    def __init__(self, tables: Tables, delivery: Delivery) -> None:
        self.tables = tables
        self.delivery = delivery
        self._retries: dict[int, asyncio.Task] = {}
        # Called with the id of a game just suspended (the scheduler stops its timer and AI).
        self.on_suspend: Callable[[int], None] = lambda game_id: None

    async def publish(self, table: Table, events: list[dict], note: str = "", actor: int | None = None,
                      via: object = None) -> bool:
        """``actor`` is the seat whose action this was (its private message is updated in place);
        ``via`` the click that caused it (opaque here: the delivery may answer through it).
        False when it was not delivered (it is then retried, or the game was suspended)."""
        try:
            await self.delivery.publish(table, events, note, actor=actor, via=via)
            return True
        except ChannelGone as e:
            await self.channel_gone(table.id, e.channel_id)
            return False
        except Exception:
            log.exception("game %s: delivery of version %s failed; will retry", table.id, table.version)
            task = self._retries.get(table.id)
            if task is None or task.done():
                self._retries[table.id] = asyncio.create_task(
                    self._republish(table.id, table.version, events, note), name=f"republish-{table.id}")
            return False

    async def _republish(self, game_id: int, version: int, events: list[dict], note: str) -> None:
        delay = RETRY_FIRST_DELAY
        for _ in range(RETRY_ATTEMPTS):
            await asyncio.sleep(delay)
            delay = min(delay * 2, RETRY_MAX_DELAY)
            try:
                async with self.tables.lock(game_id):
                    table = await self.tables.load(game_id)
                    if table.row.status not in ("running", "finished"):
                        return
                    await self.delivery.publish(table, events if table.version == version else [],
                                                note or "retry")
                    return
            except asyncio.CancelledError:
                raise
            except ChannelGone as e:
                await self.channel_gone(game_id, e.channel_id)
                return
            except Exception:
                log.warning("game %s: delivery retry failed", game_id, exc_info=True)
        log.error("game %s: gave up delivering version %s; /game status posts the board again", game_id,
                  version)

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
        log.warning("game %s: its channel %s was deleted; the game is suspended (`/game abandon game:%s` "
                    "clears it)", game_id, channel_id, game_id)
        return True

    async def close(self) -> None:
        await cancel_all(self._retries)


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
