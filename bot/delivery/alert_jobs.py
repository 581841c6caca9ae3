"""The loop that sends what waits for a time (``notify_jobs``, migration 0009): alerts held by quiet
hours, and daily digests. Like the game jobs (bot/scheduler.py) they are rows, claimed by whichever
process is free with a lease (PostgreSQL: ``FOR UPDATE SKIP LOCKED``), so they survive restarts and
process kills and are sent once with several processes. The loop sleeps until the next one is due,
woken at once when this process arms one, and looks every ``poll`` seconds for those others armed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable

from bot.storage import NotifyJob, Storage
from bot.tables import Tables

from .alerts import Alerts

log = logging.getLogger("admiralty.alerts")

LEASE = 60.0  # seconds a claimed job is held; a process that dies frees its jobs after this
POLL = 30.0  # seconds between looks for jobs other processes armed
CLAIM_BATCH = 50


class AlertJobs:
    def __init__(
        self,
        storage: Storage,
        tables: Tables,
        alerts: Alerts,
        owner: str,
        *,
        clock: Callable[[], float] = time.time,
        lease: float = LEASE,
        poll: float = POLL,
    ) -> None:
        self.storage = storage
        self.tables = tables
        self.alerts = alerts
        self.owner = owner
        self.clock = clock
        self.lease = lease
        self.poll = poll
        self._wake = asyncio.Event()
        self._loop: asyncio.Task | None = None
        self._closing = False

    def start(self) -> None:
        if self._closing or (self._loop is not None and not self._loop.done()):
            return
        self.storage.on_notify_jobs(self.wake)
        self._loop = asyncio.create_task(self._run(), name="alert-jobs")

    def wake(self) -> None:
        self._wake.set()

    async def _run(self) -> None:
        while not self._closing:
            self._wake.clear()
            at: float | None = None
            try:
                at = await self.storage.next_notify_at()
                if at is not None and at <= self.clock():
                    jobs = await self.storage.claim_notify_jobs(
                        self.owner, self.clock(), self.lease, CLAIM_BATCH
                    )
                    for job in jobs:
                        await self.run(job)
                    if jobs:
                        continue
            except asyncio.CancelledError:
                raise
            except Exception:
                if self._closing or self.storage.closed:
                    return
                log.exception("the alert loop could not read its jobs; trying again")
            delay = self.poll if at is None else min(self.poll, max(0.05, at - self.clock()))
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(delay):
                    await self._wake.wait()

    async def run(self, job: NotifyJob) -> None:
        """Send one claimed job; then drop it, or arm it again when it comes back (a digest, tomorrow)."""
        again: float | None = None
        try:
            if job.kind == "digest":
                again = await self.alerts.digest(self.tables, job.user_id)
            elif job.seat is not None:
                again = await self.alerts.release(self.tables, job.user_id, job.game_id, job.seat)
        except asyncio.CancelledError:
            raise  # shutting down: the job stays, another takes it
        except Exception:
            log.exception("%s of user %s (game %s) failed", job.kind, job.user_id, job.game_id)
            if job.kind == "digest":  # not sent today; tomorrow's is still due
                again = max(job.due + 86400.0, self.clock() + 3600.0)
        try:
            if again is None:
                await self.storage.complete_notify_job(job, self.owner)
            else:
                await self.storage.rearm_notify_job(job, self.owner, again)
        except Exception:
            log.exception("%s of user %s could not be dropped or armed again", job.kind, job.user_id)

    async def close(self) -> None:
        """Stop, and give up the jobs this process holds (another process, or the next start, runs them)."""
        self._closing = True
        if self._loop is not None:
            self._loop.cancel()
            with contextlib.suppress(BaseException):
                await self._loop
            with contextlib.suppress(Exception):
                await self.storage.release_notify_jobs(self.owner)
