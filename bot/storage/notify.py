"""Turn alerts (migration 0009): each person's preferences (``notify_prefs``, by Discord user id, the
same in every server) and what waits for a time (``notify_jobs``: an alert held by quiet hours, a daily
digest), claimed by any process with a lease as the game jobs are (:mod:`bot.storage.jobs`)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from bot.notify import ROUTES, Prefs
from bot.storage.core import Conn, StorageCore
from bot.storage.rows import Row

NOTIFY_JOB_KINDS = ("alert", "digest")
# message kinds (bot/delivery/alerts.py): the seat's owner has alert preferences; the game was checked
NOTIFY_MARK = "notify:{seat}"
NOTIFY_CHECKED = "notify"
# the seats of ``user_id`` in lobbies and running games, as (game_id, kind of their mark)
_MARKS_SQL = (
    "SELECT s.game_id, 'notify:' || s.seat FROM seats s JOIN games g ON g.id = s.game_id "
    "WHERE s.user_id = ? AND s.is_ai = 0 AND g.status IN ('lobby', 'running')"
)


@dataclass(frozen=True)
class NotifyJob:
    """An ``alert`` of ``user_id``'s turn at ``seat`` of ``game_id``, held by their quiet hours until
    ``due``; or their daily ``digest`` (game 0, no seat), due at ``due``."""

    user_id: int
    kind: str
    game_id: int
    seat: int | None
    due: float
    claimed_by: str | None = None
    claimed_until: float | None = None

    @classmethod
    def _from(cls, r: Row) -> NotifyJob:
        return cls(
            user_id=int(r["user_id"]),
            kind=r["kind"],
            game_id=int(r["game_id"]),
            seat=None if r["seat"] is None else int(r["seat"]),
            due=float(r["due"]),
            claimed_by=r["claimed_by"],
            claimed_until=r["claimed_until"],
        )


def _prefs(r: Row) -> Prefs:
    return Prefs(
        route=r["route"],
        tz=r["tz"],
        quiet_start=r["quiet_start"],
        quiet_end=r["quiet_end"],
        heads_up=bool(r["heads_up"]),
        digest_at=r["digest_at"],
        locale=r["locale"] or "en",
    )


class NotifyStore(StorageCore):
    """Alert preferences, held alerts and digests."""

    def on_notify_jobs(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` (no arguments, not awaited) after this storage armed a job of its own (a
        held alert, a digest): the alert loop of this process wakes (others find it by polling)."""
        callbacks = self.__dict__.setdefault("_notify_callbacks", [])
        if callback not in callbacks:
            callbacks.append(callback)

    def _notify_changed(self) -> None:
        for callback in list(self.__dict__.get("_notify_callbacks", ())):
            callback()

    async def notify_prefs(self, user_ids: Iterable[int]) -> dict[int, Prefs]:
        """The preferences of those of ``user_ids`` who set any (ONE query); the others have the defaults."""
        ids = sorted({int(u) for u in user_ids if u})
        if not ids:
            return {}
        marks = ", ".join("?" for _ in ids)
        # with the language of their DMs (user_locales, migration 0012), in the same query
        rows = await self._fetchall(
            "SELECT p.*, l.locale FROM notify_prefs p LEFT JOIN user_locales l ON l.user_id = p.user_id "
            f"WHERE p.user_id IN ({marks})",
            ids,
        )
        return {int(r["user_id"]): _prefs(r) for r in rows}

    async def set_notify_prefs(
        self, user_id: int, prefs: Prefs, digest_due: float | None, now: float | None = None
    ) -> None:
        """Store ``user_id``'s preferences and, in the same transaction, arm their digest at ``digest_due``
        (None: drop it) and make their held alerts due at ``now`` (default: the time now), to be looked
        at again under the new settings (quiet hours turned off or moved: sent, or held anew)."""
        now = time.time() if now is None else now
        if prefs.route not in ROUTES:
            raise ValueError(f"unknown alert route {prefs.route!r}")

        async def body(db: Conn) -> None:
            await db.execute(
                "INSERT INTO notify_prefs (user_id, route, tz, quiet_start, quiet_end, heads_up, digest_at, "
                "updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (user_id) DO UPDATE SET "
                "route = excluded.route, tz = excluded.tz, quiet_start = excluded.quiet_start, "
                "quiet_end = excluded.quiet_end, heads_up = excluded.heads_up, digest_at = excluded.digest_at, "
                "updated_at = excluded.updated_at",
                (
                    user_id,
                    prefs.route,
                    prefs.tz,
                    prefs.quiet_start,
                    prefs.quiet_end,
                    int(prefs.heads_up),
                    prefs.digest_at,
                    now,
                ),
            )
            await db.execute(
                "UPDATE notify_jobs SET due = ? WHERE user_id = ? AND kind = 'alert' AND due > ?",
                (now, user_id, now),
            )
            # their seats' marks, which tell a publish whose preferences to read
            if prefs.is_default:
                await db.execute(f"DELETE FROM messages WHERE (game_id, kind) IN ({_MARKS_SQL})", (user_id,))
            else:
                await db.execute(
                    f"INSERT INTO messages (game_id, kind, channel_id, message_id) SELECT m.*, 0, 1 FROM "
                    f"({_MARKS_SQL}) AS m WHERE true ON CONFLICT (game_id, kind) DO NOTHING",
                    (user_id,),
                )
            if digest_due is None:
                await db.execute("DELETE FROM notify_jobs WHERE user_id = ? AND kind = 'digest'", (user_id,))
            else:
                await self._arm_notify(db, user_id, "digest", 0, None, digest_due)

        await self._write(body, games=())
        self._notify_changed()

    async def _arm_notify(
        self, db: Conn, user_id: int, kind: str, game_id: int, seat: int | None, due: float
    ) -> None:
        await db.execute(
            "INSERT INTO notify_jobs (user_id, kind, game_id, seat, due) VALUES (?, ?, ?, ?, ?) "
            "ON CONFLICT (user_id, kind, game_id) DO UPDATE SET seat = excluded.seat, due = excluded.due, "
            "claimed_by = NULL, claimed_until = NULL",
            (user_id, kind, game_id, seat, due),
        )

    async def hold_alert(self, user_id: int, game_id: int, seat: int, due: float) -> None:
        """Hold the alert of ``user_id``'s turn at ``seat`` of ``game_id`` until ``due`` (the end of their
        quiet hours). One per person and game: a newer one replaces it."""

        async def body(db: Conn) -> None:
            await self._arm_notify(db, user_id, "alert", game_id, seat, due)

        await self._write(body, games=())
        self._notify_changed()

    async def rearm_notify_job(self, job: NotifyJob, owner: str, due: float) -> bool:
        """Arm ``job`` again at ``due`` (the next day's digest; an alert whose quiet hours were moved), if
        ``owner`` still holds it. True if it did."""

        async def body(db: Conn) -> bool:
            cur = await db.execute(
                "UPDATE notify_jobs SET due = ?, claimed_by = NULL, claimed_until = NULL "
                "WHERE user_id = ? AND kind = ? AND game_id = ? AND claimed_by = ?",
                (due, job.user_id, job.kind, job.game_id, owner),
            )
            return cur.rowcount == 1

        done = await self._write(body, games=())
        self._notify_changed()
        return done

    async def claim_notify_jobs(
        self, owner: str, now: float, lease: float, limit: int = 50
    ) -> list[NotifyJob]:
        """Claim up to ``limit`` due jobs nobody holds (never claimed, or their lease ran out), for
        ``owner`` until ``now + lease``; soonest first. Two processes never claim one job at once."""

        async def body(db: Conn) -> list[NotifyJob]:
            rows = await db.execute_fetchall(
                "UPDATE notify_jobs SET claimed_by = ?, claimed_until = ? WHERE (user_id, kind, game_id) IN ("
                "SELECT user_id, kind, game_id FROM notify_jobs WHERE due <= ? "
                f"AND (claimed_until IS NULL OR claimed_until < ?) ORDER BY due LIMIT ?{self._SKIP_LOCKED}) "
                "RETURNING user_id, kind, game_id, seat, due, claimed_by, claimed_until",
                (owner, now + lease, now, now, int(limit)),
            )
            return sorted((NotifyJob._from(r) for r in rows), key=lambda j: (j.due, j.user_id, j.game_id))

        return await self._write(body, games=())

    async def complete_notify_job(self, job: NotifyJob, owner: str) -> bool:
        """Drop ``job``, if ``owner`` still holds it (it was not armed anew meanwhile). True if it did."""

        async def body(db: Conn) -> bool:
            cur = await db.execute(
                "DELETE FROM notify_jobs WHERE user_id = ? AND kind = ? AND game_id = ? AND claimed_by = ?",
                (job.user_id, job.kind, job.game_id, owner),
            )
            return cur.rowcount == 1

        return await self._write(body, games=())

    async def release_notify_jobs(self, owner: str) -> None:
        """Give up every job ``owner`` holds (a process shutting down): another may claim them at once."""

        async def body(db: Conn) -> None:
            await db.execute(
                "UPDATE notify_jobs SET claimed_by = NULL, claimed_until = NULL WHERE claimed_by = ?",
                (owner,),
            )

        await self._write(body, games=())

    async def next_notify_at(self) -> float | None:
        """When a job can next be claimed (the soonest due time, or a held one's lease end); None: none."""
        row = await self._fetchone(
            "SELECT min(CASE WHEN claimed_until IS NOT NULL AND claimed_until > due THEN claimed_until "
            "ELSE due END) FROM notify_jobs"
        )
        return None if row is None or row[0] is None else float(row[0])

    async def notify_jobs(self, user_id: int | None = None) -> list[NotifyJob]:
        """The armed jobs (of one person), soonest first."""
        rows = await self._fetchall(
            "SELECT * FROM notify_jobs WHERE user_id = coalesce(?, user_id) ORDER BY due, user_id, kind, game_id",
            (user_id,),
        )
        return [NotifyJob._from(r) for r in rows]

    async def games_of_player(self, user_id: int) -> list[int]:
        """The running games where ``user_id`` holds a seat of their own (not handed to the AI), oldest
        first: those a digest looks at."""
        rows = await self._fetchall(
            "SELECT DISTINCT g.id FROM games g JOIN seats s ON s.game_id = g.id "
            "WHERE g.status = 'running' AND s.user_id = ? AND s.is_ai = 0 ORDER BY g.id",
            (user_id,),
        )
        return [int(r[0]) for r in rows]
