"""The publisher: shows a game as it now stands, and keeps trying when Discord does not take it.

A failed delivery never stops a game: it is retried in the background (with the same events)
until it goes through or the game moves on.
"""

from __future__ import annotations

import asyncio
import logging

from bot.tables import Delivery, Table, Tables

log = logging.getLogger("admiralty.publisher")

RETRY_FIRST_DELAY = 0.5  # seconds before a failed delivery is tried again; doubles each time
RETRY_MAX_DELAY = 60.0
RETRY_ATTEMPTS = 12


class Publisher:
    def __init__(self, tables: Tables, delivery: Delivery) -> None:
        self.tables = tables
        self.delivery = delivery
        self._retries: dict[int, asyncio.Task] = {}

    async def publish(self, table: Table, events: list[dict], note: str = "", actor: int | None = None) -> bool:
        """``actor`` is the seat whose action this was (its private message is updated in place)."""
        try:
            await self.delivery.publish(table, events, note, actor=actor)
            return True
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
            except Exception:
                log.warning("game %s: delivery retry failed", game_id, exc_info=True)
        log.error("game %s: gave up delivering version %s; /game status posts the board again", game_id,
                  version)

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
