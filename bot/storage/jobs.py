"""Jobs (migration 0006): what a running game waits for without a click (its reminder, its timeout, an AI
seat's move), armed in the transaction of each change, claimed by any process with a lease."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.clocks import half_turn
from bot.storage.core import _EXEC, _MANY, _ONE, Conn, Steps, StorageCore
from bot.storage.rows import JobRow, stored_timer

JOB_KINDS = ("reminder", "timeout", "ai")
JOBS_CHANNEL = "admiralty_jobs"  # PostgreSQL: the LISTEN/NOTIFY channel that wakes the schedulers


class JobsStore(StorageCore):
    """Jobs: armed in the writer's transaction, claimed with a lease, completed or released."""

    _has_clock: bool | None = None  # whether games has its clock column (known at first use)

    def on_jobs(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` (no arguments, not awaited) whenever jobs may have been armed: after this
        storage committed such a write and, on PostgreSQL once :meth:`listen_jobs` ran, when another
        process did (NOTIFY)."""
        if callback not in self._job_callbacks:
            self._job_callbacks.append(callback)

    def _jobs_changed(self) -> None:
        for callback in list(self._job_callbacks):
            callback()

    async def listen_jobs(self) -> None:
        """Hear other processes arm jobs (PostgreSQL: LISTEN on a connection of its own). SQLite has one
        process: nothing to hear."""

    def _arm_steps(self, game_id: int, *, ai_due: float | None = None, keep_ai: bool = False) -> Steps[None]:
        """Re-arm the game's jobs from its row as just written (in the writer's transaction): drop its
        jobs (but its ``ai`` job with ``keep_ai``), then a ``timeout`` at its deadline and a ``reminder``
        at half time (unless sent), and an ``ai`` job at ``ai_due``, all for its current version."""
        if not (yield from self._drop_jobs_steps(game_id, keep_ai=keep_ai)):
            return
        if self._has_clock is None:  # (migration 0010; tests open older schemas with today's code)
            self._has_clock = (yield (_ONE, self._COLUMN_SQL, ("games", "clock"))) is not None
        row = yield (
            _ONE,
            "SELECT status, version, deadline, reminded, turn_timeout, updated_at"
            f"{', clock' if self._has_clock else ''} FROM games WHERE id = ?",
            (game_id,),
        )
        if row is None or row["status"] != "running":
            return
        jobs: list[tuple[str, float]] = []
        clock = row["clock"] if self._has_clock else None
        turn_timeout, deadline = stored_timer(row["turn_timeout"], row["deadline"], row["updated_at"], clock)
        if deadline is not None:
            jobs.append(("timeout", deadline))
            # at half time: of the turn's time per turn, or with a clock of the running turn's time
            half = half_turn(clock) if clock is not None else (turn_timeout / 2 if turn_timeout else None)
            if half and not row["reminded"]:
                jobs.append(("reminder", deadline - half))
        if ai_due is not None and not keep_ai:
            jobs.append(("ai", ai_due))
        if jobs:
            yield (
                _MANY,
                "INSERT INTO jobs (game_id, kind, due, version) VALUES (?, ?, ?, ?)",
                [(game_id, kind, due, row["version"]) for kind, due in jobs],
            )
            if self._NOTIFY_SQL:
                yield (_ONE, self._NOTIFY_SQL, ())

    def _drop_jobs_steps(
        self, game_id: int, *, keep_ai: bool = False, kind: str | None = None
    ) -> Steps[bool]:
        """Drop the game's jobs (but its ``ai`` one with ``keep_ai``; only those of ``kind`` with it).
        False on a schema older than migration 0006 (no jobs table: tests open such with today's code)."""
        if self._has_jobs is None:
            self._has_jobs = (yield (_ONE, self._COLUMN_SQL, ("jobs", "kind"))) is not None
        if not self._has_jobs:
            return False
        sql = "DELETE FROM jobs WHERE game_id = ?" + (" AND kind <> 'ai'" if keep_ai else "")
        yield (_EXEC, sql + (" AND kind = ?" if kind else ""), (game_id, kind) if kind else (game_id,))
        return True

    async def arm_ai(self, game_id: int, version: int, due: float) -> bool:
        """Arm an AI seat's move of game ``game_id`` at ``version`` (a seat changed hands without a move).
        An ``ai`` job already armed for that version is left as it is, unless a process holds it: that
        one may have looked before the seat changed hands ("no AI seat to move") and would drop it, so it
        is let go (armed again, unclaimed: whoever claims it next looks again; should the holder move
        meanwhile, its move re-arms the game's jobs anyway). True if a job was armed.

        The game's row is locked first (PostgreSQL): a move of another process committing meanwhile is
        waited for and then seen (nothing armed), rather than its new job overwritten with this older
        version (which whoever claims it would drop as out of date, leaving the AI seat with no job)."""

        async def body(db: Conn) -> bool:
            game = await self._one(db, self._STATUS_SQL, (game_id,))
            if game is None or game["version"] != version or game["status"] != "running":
                return False
            rows = await db.execute_fetchall(
                "INSERT INTO jobs (game_id, kind, due, version) SELECT id, 'ai', CAST(? AS DOUBLE PRECISION), version "
                "FROM games WHERE id = ? AND version = ? AND status = 'running' "
                "ON CONFLICT (game_id, kind) DO UPDATE SET due = excluded.due, version = excluded.version, "
                "claimed_by = NULL, claimed_until = NULL "
                "WHERE jobs.version <> excluded.version OR jobs.claimed_by IS NOT NULL "
                "RETURNING game_id",
                (due, game_id, version),
            )
            if rows and self._NOTIFY_SQL:
                await db.execute_fetchall(self._NOTIFY_SQL)
            return bool(rows)

        armed = await self._write(body, games=(game_id,))
        if armed:
            self._jobs_changed()
        return armed

    async def claim_jobs(self, owner: str, now: float, lease: float, limit: int = 50) -> list[JobRow]:
        """Claim up to ``limit`` jobs due at ``now`` that nobody holds (never claimed, or their lease ran
        out: the process that held them died), for ``owner`` until ``now + lease``; soonest first. Two
        processes never claim one job at once (PostgreSQL: FOR UPDATE SKIP LOCKED; SQLite: one writer)."""

        async def body(db: Conn) -> list[JobRow]:
            rows = await db.execute_fetchall(
                "UPDATE jobs SET claimed_by = ?, claimed_until = ? WHERE (game_id, kind) IN ("
                "SELECT game_id, kind FROM jobs WHERE due <= ? AND (claimed_until IS NULL OR claimed_until < ?) "
                f"ORDER BY due LIMIT ?{self._SKIP_LOCKED}) "
                "RETURNING game_id, kind, due, version, claimed_by, claimed_until",
                (owner, now + lease, now, now, int(limit)),
            )
            return sorted((JobRow._from(r) for r in rows), key=lambda j: (j.due, j.game_id))

        return await self._write(body, games=())

    async def complete_job(self, job: JobRow, owner: str, *, reminded: bool = False) -> bool:
        """The job is done: drop it, if ``owner`` still holds it as claimed (a move since re-armed the
        game's jobs, or the lease ran out and another took it: then nothing). ``reminded``: mark the
        game's reminder as sent in the same transaction. True if it was ours."""

        async def body(db: Conn) -> bool:
            cur = await db.execute(
                "DELETE FROM jobs WHERE game_id = ? AND kind = ? AND version = ? AND claimed_by = ?",
                (job.game_id, job.kind, job.version, owner),
            )
            if cur.rowcount != 1:
                return False
            if reminded:
                await db.execute("UPDATE games SET reminded = 1 WHERE id = ?", (job.game_id,))
            return True

        return await self._write(body, games=(job.game_id,))

    async def release_jobs(self, owner: str) -> None:
        """Give up every job ``owner`` holds (a process shutting down): another may claim them at once."""

        async def body(db: Conn) -> None:
            await db.execute(
                "UPDATE jobs SET claimed_by = NULL, claimed_until = NULL WHERE claimed_by = ?", (owner,)
            )

        await self._write(body, games=())

    async def rearm_jobs(self, game_id: int) -> None:
        """Arm the game's timer jobs again from its row (its ``ai`` job is kept)."""

        async def body(db: Conn) -> None:
            await self._drive(db, self._arm_steps(game_id, keep_ai=True))

        await self._write(body, games=(game_id,))
        self._jobs_changed()

    async def next_job_at(self) -> float | None:
        """When a job can next be claimed: the soonest due time, or for a claimed job the end of its
        lease when that is later. None: no job."""
        row = await self._fetchone(
            "SELECT min(CASE WHEN claimed_until IS NOT NULL AND claimed_until > due THEN claimed_until "
            "ELSE due END) FROM jobs"
        )
        return None if row is None else row[0]

    async def unarmed_games(self, quiet_since: float, limit: int = 200) -> list[tuple[int, int, int]]:
        """(id, version, AI seats) of running games with an AI seat, no turn deadline and no job at all,
        unchanged since ``quiet_since``: where an AI seat may be due with nothing armed for it (the
        scheduler's sweep looks at each). A human's turn without a timer looks the same; the caller
        tells them apart."""
        rows = await self._fetchall(
            "SELECT g.id, g.version, (SELECT count(*) FROM seats s WHERE s.game_id = g.id AND s.is_ai = 1) AS ais "
            "FROM games g WHERE g.status = 'running' AND g.deadline IS NULL AND g.updated_at < ? "
            "AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.game_id = g.id) "
            "AND EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.is_ai = 1) ORDER BY g.id LIMIT ?",
            (quiet_since, int(limit)),
        )
        return [(int(r[0]), int(r[1]), int(r[2])) for r in rows]

    async def jobs(self, game_id: int | None = None, kind: str | None = None) -> list[JobRow]:
        """The armed jobs (of one game, of one kind), soonest first."""
        rows = await self._fetchall(
            "SELECT * FROM jobs WHERE game_id = coalesce(?, game_id) AND kind = coalesce(?, kind) "
            "ORDER BY due, game_id, kind",
            (game_id, kind),
        )
        return [JobRow._from(r) for r in rows]

    async def resume_games(self, game_ids: Sequence[int], note: str, ai_due: float) -> None:
        """After a start, in ONE transaction: a ``note`` on each game's log (at its version), and an
        ``ai`` job at ``ai_due`` for each that has an AI seat and none armed (it does nothing when no AI
        seat is to move). Timers need nothing: their jobs are rows already."""
        if not game_ids:
            return

        async def body(db: Conn) -> None:
            await db.executemany(
                "INSERT INTO log (game_id, version, seat, text) SELECT id, version, NULL, CAST(? AS TEXT) FROM games WHERE id = ?",
                [(note, gid) for gid in game_ids],
            )
            await db.executemany(
                "INSERT INTO jobs (game_id, kind, due, version) SELECT id, 'ai', CAST(? AS DOUBLE PRECISION), version "
                "FROM games g WHERE id = ? AND status = 'running' AND EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id "
                "AND s.is_ai = 1) ON CONFLICT (game_id, kind) DO NOTHING",
                [(ai_due, gid) for gid in game_ids],
            )
            if self._NOTIFY_SQL:
                await db.execute_fetchall(self._NOTIFY_SQL)

        await self._write(body)
        self._jobs_changed()
