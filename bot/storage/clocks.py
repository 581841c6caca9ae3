"""Clocks (migration 0010): a game's clock changed outside a move (paused, resumed, extended), and
vacations: a player's running games' clocks stopped for some days, from a yearly allowance per server.

Every change writes the game's clock, its deadline and its timer jobs in ONE transaction (the game's row
locked on PostgreSQL), so the timeout job always waits for the deadline the stored clock sets.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass

from bot.clocks import DAY, Clock
from bot.i18n import N_
from bot.storage.core import Conn
from bot.storage.errors import NoSuchGame, StorageError, WrongStatus
from bot.storage.jobs import JobsStore

VACATION_DAYS_DEFAULT = 30  # a server's yearly allowance unless it set one (/admiralty vacation-days)
NO_GUILD = 0  # the allowance key of games outside a server


class NoClock(StorageError):
    """The game has no clock (no timer, or it started before clocks were stored)."""


class VacationRefused(StorageError):
    """A vacation cannot be taken (or ended): ``reason`` says why, in words for the player; ``short``:
    the servers whose allowance is too small, with the days each has left (NO_GUILD: outside one)."""

    def __init__(self, reason: str, short: tuple[tuple[int, int], ...] = (), **params: object) -> None:
        super().__init__(reason.format(**params))
        self.reason = reason  # a message of the catalogues (bot/i18n.py), with ``params`` to fill in
        self.params = params
        self.short = short


@dataclass(frozen=True)
class Vacation:
    user_id: int
    started_at: float
    until: float
    days: int
    year: int
    guilds: tuple[int, ...]  # the servers whose allowance it was taken from (NO_GUILD: outside one)


class ClocksStore(JobsStore):
    """Game clocks changed by agreement or by a vacation; vacation allowances."""

    async def _write_clock(self, db: Conn, game_id: int, clock: Clock, now: float) -> None:
        await db.execute(
            "UPDATE games SET clock = ?, deadline = ?, updated_at = ? WHERE id = ?",
            (clock.to_json(), clock.deadline(), now, game_id),
        )
        await self._drive(db, self._arm_steps(game_id, keep_ai=True))

    async def change_clock(self, game_id: int, change: Callable[[Clock], Clock], now: float) -> Clock:
        """Apply ``change`` (pure, may raise) to running game ``game_id``'s stored clock and store the
        result with the deadline it sets and the timer jobs for it, in one transaction. Raises
        NoSuchGame, WrongStatus (not running), NoClock."""

        async def body(db: Conn) -> Clock:
            status = await self._one(db, self._STATUS_SQL, (game_id,))
            if status is None:
                raise NoSuchGame(game_id)
            if status["status"] != "running":
                raise WrongStatus(game_id, status["status"], "change its clock")
            row = await self._one(db, "SELECT clock FROM games WHERE id = ?", (game_id,))
            clock = Clock.from_json(row["clock"] if row is not None else None)
            if clock is None:
                raise NoClock(f"game {game_id} has no clock")
            clock = change(clock)
            await self._write_clock(db, game_id, clock, now)
            return clock

        clock = await self._write(body, games=(game_id,))
        self._jobs_changed()
        return clock

    # ------------------------------------------------------------------ allowances
    async def vacation_allowance(self, guild_id: int | None) -> int:
        row = await self._fetchone(
            "SELECT days FROM vacation_allowance WHERE guild_id = ?", (guild_id or NO_GUILD,)
        )
        return VACATION_DAYS_DEFAULT if row is None else int(row[0])

    async def set_vacation_allowance(self, guild_id: int, days: int) -> None:
        async def body(db: Conn) -> None:
            await db.execute(
                "INSERT INTO vacation_allowance (guild_id, days) VALUES (?, ?) "
                "ON CONFLICT (guild_id) DO UPDATE SET days = excluded.days",
                (guild_id, int(days)),
            )

        await self._write(body, games=())

    # (guild, default allowance, user, guild, year) -> the days of the guild's allowance left that year
    _DAYS_LEFT_SQL = (
        "SELECT coalesce((SELECT days FROM vacation_allowance WHERE guild_id = ?), ?) - coalesce("
        "(SELECT used FROM vacation_days WHERE user_id = ? AND guild_id = ? AND year = ?), 0)"
    )

    async def vacation_days_left(self, user_id: int, guild_id: int | None, year: int) -> int:
        """Days of ``guild_id``'s allowance ``user_id`` has not taken in ``year``."""
        guild = guild_id or NO_GUILD
        row = await self._fetchone(self._DAYS_LEFT_SQL, (guild, VACATION_DAYS_DEFAULT, user_id, guild, year))
        return max(0, int(row[0])) if row is not None else VACATION_DAYS_DEFAULT

    # ------------------------------------------------------------------ vacations
    async def vacation(self, user_id: int) -> Vacation | None:
        """``user_id``'s vacation row (it may have ended already: compare ``until`` with the time)."""
        row = await self._fetchone("SELECT * FROM vacations WHERE user_id = ?", (user_id,))
        if row is None:
            return None
        return Vacation(
            user_id=int(row["user_id"]),
            started_at=float(row["started_at"]),
            until=float(row["until"]),
            days=int(row["days"]),
            year=int(row["year"]),
            guilds=tuple(int(g) for g in json.loads(row["guilds"])),
        )

    async def away_until(self, user_ids: list[int], now: float) -> dict[int, float]:
        """The players of ``user_ids`` on vacation at ``now``: user id -> when it ends."""
        if not user_ids:
            return {}
        marks = ", ".join("?" * len(user_ids))
        rows = await self._fetchall(
            f"SELECT user_id, until FROM vacations WHERE user_id IN ({marks}) AND until > ?", (*user_ids, now)
        )
        return {int(r[0]): float(r[1]) for r in rows}

    _PLAYER_GAMES_SQL = (
        "SELECT g.id, g.guild_id, g.clock, s.seat FROM games g JOIN seats s ON s.game_id = g.id "
        "WHERE s.user_id = ? AND s.is_ai = 0 AND g.status = 'running' ORDER BY g.id"
    )

    async def take_vacation(
        self, user_id: int, days: int, now: float, year: int, guild_id: int | None
    ) -> tuple[Vacation, list[int]]:
        """``user_id`` goes on vacation for ``days`` from ``now``: each server where they play a running
        game (and ``guild_id``, where they asked) gives ``days`` of its ``year``'s allowance, whether or
        not a turn of theirs is pending; every clock of theirs stops until the end. One transaction: all
        or nothing. Raises VacationRefused (already away; a server's allowance too small). -> the
        vacation and the games whose clocks it changed."""
        if days <= 0:
            raise VacationRefused(N_("Take at least one day."))
        until = now + days * DAY

        async def body(db: Conn) -> tuple[Vacation, list[int]]:
            old = await self._one(db, "SELECT until FROM vacations WHERE user_id = ?", (user_id,))
            if old is not None and float(old["until"]) > now:
                raise VacationRefused(
                    N_("You are on vacation until {until} already; end it first (`/vacation end:True`)."),
                    until=f"<t:{int(old['until'])}:f>",
                )
            games = await db.execute_fetchall(self._PLAYER_GAMES_SQL, (user_id,))
            guilds = sorted({int(g["guild_id"] or NO_GUILD) for g in games} | {guild_id or NO_GUILD})
            short = []
            for guild in guilds:
                left = await self._one(
                    db, self._DAYS_LEFT_SQL, (guild, VACATION_DAYS_DEFAULT, user_id, guild, year)
                )
                have = int(left[0]) if left is not None else VACATION_DAYS_DEFAULT
                if have < days:
                    short.append((guild, max(0, have)))
            if short:
                raise VacationRefused(N_("Not enough vacation days left this year."), tuple(short))
            await db.executemany(
                "INSERT INTO vacation_days (user_id, guild_id, year, used) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (user_id, guild_id, year) DO UPDATE SET used = vacation_days.used + excluded.used",
                [(user_id, guild, year, days) for guild in guilds],
            )
            await db.execute("DELETE FROM vacations WHERE user_id = ?", (user_id,))
            await db.execute(
                "INSERT INTO vacations (user_id, started_at, until, days, year, guilds) VALUES (?, ?, ?, ?, ?, ?)",
                (user_id, now, until, days, year, json.dumps(guilds)),
            )
            changed = await self._each_clock(db, games, lambda c, seat: c.vacation(seat, until, now), now)
            return Vacation(user_id, now, until, days, year, tuple(guilds)), changed

        taken = await self._write(body, games=None)
        self._jobs_changed()
        return taken

    async def end_vacation(self, user_id: int, now: float) -> tuple[int, list[int]]:
        """``user_id`` is back early: the unused whole days go back to each server's allowance they were
        taken from, and their clocks run from now. Raises VacationRefused (not on vacation). -> (days
        given back, the games whose clocks it changed)."""

        async def body(db: Conn) -> tuple[int, list[int]]:
            row = await self._one(db, "SELECT * FROM vacations WHERE user_id = ?", (user_id,))
            if row is None or float(row["until"]) <= now:
                raise VacationRefused(N_("You are not on vacation."))
            back = min(int(row["days"]), math.floor((float(row["until"]) - now) / DAY))
            if back:
                await db.executemany(
                    "UPDATE vacation_days SET used = CASE WHEN used > ? THEN used - ? ELSE 0 END "
                    "WHERE user_id = ? AND guild_id = ? AND year = ?",
                    [(back, back, user_id, guild, int(row["year"])) for guild in json.loads(row["guilds"])],
                )
            await db.execute("UPDATE vacations SET until = ? WHERE user_id = ?", (now, user_id))
            games = await db.execute_fetchall(self._PLAYER_GAMES_SQL, (user_id,))
            changed = await self._each_clock(db, games, lambda c, seat: c.back(seat, now), now)
            return back, changed

        ended = await self._write(body, games=None)
        self._jobs_changed()
        return ended

    async def _each_clock(
        self, db: Conn, games: list, change: Callable[[Clock, int], Clock], now: float
    ) -> list[int]:
        """Apply ``change`` to the clock of each of ``games`` (rows of _PLAYER_GAMES_SQL) that has one."""
        changed = []
        for game in games:
            if game["clock"] is None:
                continue
            game_id = int(game["id"])
            await self._one(db, self._STATUS_SQL, (game_id,))  # (PostgreSQL: lock the row, then read it)
            row = await self._one(
                db, "SELECT clock FROM games WHERE id = ? AND status = 'running'", (game_id,)
            )
            clock = Clock.from_json(row["clock"] if row is not None else None)
            if clock is None:
                continue
            await self._write_clock(db, game_id, change(clock, int(game["seat"])), now)
            changed.append(game_id)
        return changed
