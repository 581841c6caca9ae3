"""What the storage gives back: one frozen dataclass per kind of row; and the game statuses."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any

from bot.clocks import overhang
from bot.rating_scale import Standing
from bot.settings import TURN_TIMEOUT_MAX

# a row as read: sqlite3.Row or asyncpg.Record, both read by column name or index
Row = Any

STATUSES = ("lobby", "running", "finished", "abandoned", "suspended")
ACTIVE = ("lobby", "running")
TERMINAL = ("finished", "abandoned")
# A suspended game (its channel was deleted) is neither: it blocks no place and is not resumed, but
# it is kept (and listed) until someone abandons it.
SUSPENDED = "suspended"


def loads(text: str | None) -> Any:
    return None if text is None else json.loads(text)


def stored_timer(
    turn_timeout: float | None, deadline: float | None, updated_at: float, clock: str | None = None
) -> tuple[float | None, float | None]:
    """A stored turn timer made harmless: a turn timeout or deadline that is not a finite number is
        dropped (no timer); a turn timeout over ``TURN_TIMEOUT_MAX`` counts as that, and a deadline lies at
        most that far after the row's last change, or for a game with a clock (bot/clocks.py) that much after
    what its clock stopped for (a vacation) or added (extra time). (Such values came from before the timer
    was bounded.)"""
    if turn_timeout is not None:
        turn_timeout = min(turn_timeout, TURN_TIMEOUT_MAX) if math.isfinite(turn_timeout) else None
    if deadline is not None:
        deadline = (
            min(deadline, updated_at + TURN_TIMEOUT_MAX + overhang(clock, updated_at))
            if math.isfinite(deadline)
            else None
        )
    return turn_timeout, deadline


@dataclass(frozen=True)
class GameRow:
    id: int
    guild_id: int | None
    channel_id: int
    thread_id: int | None
    game_key: str
    options: dict
    seed: int
    host_id: int | None
    status: str
    version: int
    state_json: str | None  # the snapshot as stored (Game.to_json text); None in the lobby
    deadline: float | None
    reminded: bool
    turn_timeout: float | None
    created_at: float
    updated_at: float
    result: dict | None
    started_at: float | None = None  # when the lobby became a game (migration 0003)
    finished_at: float | None = None  # when it finished or was abandoned
    # a finished game's rating changes, one per rated player in seat order, read only by the publish's
    # load (``load_table_view``/``load_table_log``); None: not read (or not finished), (): not rated
    rated: tuple[RatingChange, ...] | None = None
    # the move number (``move_number`` of its action log), read only by the loads that count it
    # (``load_table(..., moves=True)``, ``load_table_view``/``load_table_log``); None: not read
    moves: int | None = None
    # how many follow the game, and how many of them every move (migration 0011), read only by
    # ``load_table_view`` (what a publish reads); None: not read
    followers: int | None = None
    move_followers: int | None = None
    # the game's clock as stored (bot/clocks.py JSON, migration 0010); None: no clock (or older schema)
    clock: str | None = None

    @property
    def place(self) -> int:
        """Where the game is played: its thread, else its channel."""
        return self.thread_id if self.thread_id is not None else self.channel_id

    @property
    def active(self) -> bool:
        return self.status in ACTIVE

    @property
    def state(self) -> dict | None:
        """The snapshot parsed (a new dict at every access)."""
        return loads(self.state_json)

    @classmethod
    def _from(cls, r: Row) -> GameRow:
        clock = r["clock"] if "clock" in r.keys() else None
        turn_timeout, deadline = stored_timer(r["turn_timeout"], r["deadline"], r["updated_at"], clock)
        return cls(
            id=r["id"],
            guild_id=r["guild_id"],
            channel_id=r["channel_id"],
            thread_id=r["thread_id"],
            game_key=r["game_key"],
            options=json.loads(r["options"]),
            seed=r["seed"],
            host_id=r["host_id"],
            status=r["status"],
            version=r["version"],
            state_json=r["state"],
            deadline=deadline,
            reminded=bool(r["reminded"]),
            turn_timeout=turn_timeout,
            created_at=r["created_at"],
            updated_at=r["updated_at"],
            result=loads(r["result"]),
            started_at=r["started_at"] if "started_at" in r.keys() else None,
            finished_at=r["finished_at"] if "finished_at" in r.keys() else None,
            rated=RatingChange.parse(r["rated_json"])
            if "rated_json" in r.keys() and r["rated_json"] is not None
            else None,
            moves=int(r["moves"]) if "moves" in r.keys() else None,
            followers=int(r["followers"]) if "followers" in r.keys() else None,
            move_followers=int(r["move_followers"]) if "move_followers" in r.keys() else None,
            clock=clock,
        )


@dataclass(frozen=True)
class SeatRow:
    game_id: int
    seat: int
    user_id: int | None
    is_ai: bool
    name: str
    dm_ok: bool | None  # None = not checked yet
    missed: int
    ai_level: str | None = None  # an AI seat's level (bot/ai_seats.py: None = one stored before levels)

    @classmethod
    def _from(cls, r: Row) -> SeatRow:
        return cls(
            game_id=r["game_id"],
            seat=r["seat"],
            user_id=r["user_id"],
            is_ai=bool(r["is_ai"]),
            name=r["name"],
            dm_ok=None if r["dm_ok"] is None else bool(r["dm_ok"]),
            missed=r["missed"],
            ai_level=r["ai_level"] if "ai_level" in r.keys() else None,  # (before 0013: none)
        )


@dataclass(frozen=True)
class ActionRow:
    game_id: int
    seq: int
    seat: int
    action: dict
    created_at: float

    @classmethod
    def _from(cls, r: Row) -> ActionRow:
        return cls(
            game_id=r["game_id"],
            seq=r["seq"],
            seat=r["seat"],
            action=json.loads(r["action"]),
            created_at=r["created_at"],
        )


@dataclass(frozen=True)
class RatingRow:
    """A player's standing in one game of one server (migration 0005)."""

    guild_id: int
    game_key: str
    player: str  # a user id in decimal, or "ai:<name>"
    name: str
    mu: float
    sigma: float
    games: int
    wins: int
    losses: int
    draws: int
    updated_at: float

    @property
    def ordinal(self) -> float:
        """The model's number: mu - 3 sigma (0 for a new player); people read :meth:`standing`."""
        return self.mu - 3 * self.sigma

    def standing(self, now: float) -> Standing:
        """The rating at ``now``: its sigma grown by the time since the player's last rated game
        (``updated_at``; an AI's stays), read as points (bot/rating_scale.py)."""
        return Standing.of(self.player, self.mu, self.sigma, self.updated_at, now)

    @classmethod
    def _from(cls, r: Row) -> RatingRow:
        return cls(
            **{
                f: r[f]
                for f in (
                    "guild_id",
                    "game_key",
                    "player",
                    "name",
                    "mu",
                    "sigma",
                    "games",
                    "wins",
                    "losses",
                    "draws",
                    "updated_at",
                )
            }
        )


@dataclass(frozen=True)
class RatingChange:
    """What a finished game did to one player's rating (a ``rating_events`` row): before (its sigma
    rested to the game's time) and after."""

    seat: int
    player: str
    before: Standing
    after: Standing

    @classmethod
    def parse(cls, text: str | None) -> tuple[RatingChange, ...]:
        """From a JSON array of [seat, player, mu_before, sigma_before, mu_after, sigma_after]."""
        return tuple(
            cls(int(seat), str(player), Standing(mu0, s0), Standing(mu1, s1))
            for seat, player, mu0, s0, mu1, s1 in sorted(json.loads(text or "[]"), key=lambda e: e[0])
        )


@dataclass(frozen=True)
class Leaderboard:
    """One page of a server's ranking of a game: its settled players with their standing as read,
    how many settled players it has in all, and how many provisional ones it leaves out."""

    rows: list[tuple[RatingRow, Standing]]
    total: int
    provisional: int
    guild_locale: str | None = None  # the language the server chose (/admiralty language), read with it


JOB_KINDS = ("reminder", "timeout", "ai")
JOBS_CHANNEL = "admiralty_jobs"  # PostgreSQL: the LISTEN/NOTIFY channel that wakes the schedulers


@dataclass(frozen=True)
class JobRow:
    """Something a game waits for that no click brings (migration 0006): the half-time ``reminder``, the
    ``timeout`` at its deadline, an ``ai`` seat's move; due at ``due``, armed for game ``version``.
    ``claimed_by``/``claimed_until``: the process that runs it and until when its lease holds."""

    game_id: int
    kind: str
    due: float
    version: int
    claimed_by: str | None = None
    claimed_until: float | None = None

    @classmethod
    def _from(cls, r: Row) -> JobRow:
        return cls(
            game_id=r["game_id"],
            kind=r["kind"],
            due=r["due"],
            version=r["version"],
            claimed_by=r["claimed_by"],
            claimed_until=r["claimed_until"],
        )


@dataclass(frozen=True)
class PastGame:
    """One rated game of a player: when, which game, how it went, against whom."""

    game_id: int
    game_key: str
    when: float
    outcome: str  # "win", "loss" or "draw"
    rank: int
    opponents: tuple[str, ...]  # the other seats' names


@dataclass(frozen=True)
class HistoryEntry:
    """One past game as /game history lists it: when, which game, who sat, how it ended."""

    game_id: int
    game_key: str
    guild_id: int | None
    channel_id: int
    thread_id: int | None
    status: str  # "finished" or "abandoned"
    version: int
    when: float  # its end (else its last change)
    result: dict | None
    names: tuple[str, ...]  # the seats' names, in seat order
    user_ids: tuple[int | None, ...]

    @property
    def place(self) -> int:
        return self.thread_id if self.thread_id is not None else self.channel_id

    @classmethod
    def _from(cls, r: Row) -> HistoryEntry:
        seats = sorted(
            json.loads(r["seats_json"] or "[]")
            if isinstance(r["seats_json"], str)
            else (r["seats_json"] or []),
            key=lambda s: s[0],
        )
        when = r["finished_at"] if r["finished_at"] is not None else r["updated_at"]
        return cls(
            game_id=r["id"],
            game_key=r["game_key"],
            guild_id=r["guild_id"],
            channel_id=r["channel_id"],
            thread_id=r["thread_id"],
            status=r["status"],
            version=r["version"],
            when=when,
            result=loads(r["result"]),
            names=tuple(s[3] for s in seats),
            user_ids=tuple(s[1] for s in seats),
        )
