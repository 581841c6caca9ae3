"""Game clocks: a fixed time per turn, or a time bank (Board Game Arena's turn-based clock), with the
stops that players agree on (a pause), take (a vacation) or give (more time). Pure arithmetic: no
discord, no storage, no asyncio; every function takes ``now`` and returns a new :class:`Clock`.

A game's clock is stored as JSON in ``games.clock`` (migration 0010) and written in the transaction of
the change that moves it (a move, a pause, a vacation, an extension), with the game's deadline and its
timeout job. Each seat has its own clock, so in a simultaneous secret choice each seat's bank runs:

- ``left``: the seat's bank (seconds) as of ``since``; ``extra``: time given to the current turn by an
  opponent (spent first, never kept after the turn);
- ``since``: when the seat's clock (re)started running; it may lie in the future (the player is on
  vacation until then); None: stopped (not the seat's turn, or the game is paused);
- ``mid``: the seat is in the middle of a turn (a stopped turn resumes, it does not start again).

Mode ``bank``: a seat starts with ``bank`` seconds; a turn's time comes off it once, when the turn ends;
then ``increment`` is added, capped at ``bank``. Mode ``turn`` (the fixed time per turn): every turn
starts with ``bank`` seconds (``increment`` is unused). A seat whose time is up (``remaining`` 0) is
played for, exactly as a turn timeout.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field, replace

from bot.games.phrase import ENGLISH, N_, Phrase, Voice

MODES = ("turn", "bank")
DAY = 86400.0
EXTENSIONS = (3600.0, 12 * 3600.0, DAY, 3 * DAY)  # what "Give more time" offers
EXTRA_MAX = 30 * DAY  # the most extra time one turn may be given in all
BANK_DEFAULT = 3 * DAY
INCREMENT_DEFAULT = DAY


@dataclass(frozen=True)
class SeatClock:
    left: float
    since: float | None = None
    extra: float = 0.0
    mid: bool = False

    def used(self, now: float) -> float:
        """Time run on this turn since ``since`` (0 when stopped or not started yet)."""
        return 0.0 if self.since is None else max(0.0, now - self.since)

    def remaining(self, now: float) -> float:
        """What is left of this turn at ``now``: the extra time, then the bank; never below 0."""
        return max(0.0, self.extra + self.left - self.used(now))

    def deadline(self) -> float | None:
        return None if self.since is None else self.since + self.extra + self.left

    def settled(self, now: float) -> SeatClock:
        """Stopped at ``now``, the time run so far taken off (the extra time first)."""
        used = self.used(now)
        extra = max(0.0, self.extra - used)
        left = max(0.0, self.left - max(0.0, used - self.extra))
        return replace(self, left=left, extra=extra, since=None)


@dataclass(frozen=True)
class Clock:
    mode: str
    bank: float  # the starting bank and its cap (mode "bank"), or the time per turn (mode "turn")
    increment: float = 0.0
    seats: dict[int, SeatClock] = field(default_factory=dict)
    paused: bool = False
    away: dict[int, float] = field(default_factory=dict)  # seat -> on vacation until

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise ValueError(f"unknown clock mode {self.mode!r}")
        if not (math.isfinite(self.bank) and self.bank > 0):
            raise ValueError(f"a clock needs a positive bank, not {self.bank!r}")
        if not (math.isfinite(self.increment) and self.increment >= 0):
            raise ValueError(f"a clock's increment must be 0 or more, not {self.increment!r}")

    # ------------------------------------------------------------------ reading
    def seat(self, seat: int) -> SeatClock:
        return self.seats.get(seat) or SeatClock(left=self.bank)

    def running(self) -> list[int]:
        return sorted(s for s, c in self.seats.items() if c.since is not None)

    def deadline(self) -> float | None:
        """When the first running seat's time is up (the game's timeout job): None when none runs."""
        times = [d for c in self.seats.values() if (d := c.deadline()) is not None]
        return min(times) if times else None

    def out_of_time(self, now: float) -> list[int]:
        """The running seats whose time is up at ``now``."""
        return [s for s in self.running() if (d := self.seat(s).deadline()) is not None and d <= now]

    # ------------------------------------------------------------------ changes
    def _with(self, seat: int, clock: SeatClock) -> Clock:
        return replace(self, seats={**self.seats, seat: clock})

    def _start_at(self, seat: int, now: float) -> float:
        return max(now, self.away.get(seat, now))

    def sync(self, to_act: list[int], now: float) -> Clock:
        """Follow the game to ``now``, where ``to_act`` are the human seats to act: a running seat that is
        no longer to act has ended its turn (its time comes off once, then the increment); a seat to act
        that is not in a turn starts one (its clock runs unless the game is paused)."""
        clock = self
        wanted = set(to_act)
        for seat, c in sorted(self.seats.items()):
            if c.mid and seat not in wanted:
                clock = clock._with(seat, clock._end_turn(c, now))
        for seat in sorted(wanted):
            c = clock.seat(seat)
            if c.mid:
                continue
            left = self.bank if self.mode == "turn" else c.left
            since = None if self.paused else clock._start_at(seat, now)
            clock = clock._with(seat, SeatClock(left=left, since=since, extra=0.0, mid=True))
        return clock

    def _end_turn(self, c: SeatClock, now: float) -> SeatClock:
        done = c.settled(now)
        left = self.bank if self.mode == "turn" else min(self.bank, done.left + self.increment)
        return SeatClock(left=left, since=None, extra=0.0, mid=False)

    def pause(self, now: float) -> Clock:
        """Every clock stops where it stands (a turn under way stays under way)."""
        seats = {s: c.settled(now) if c.since is not None else c for s, c in self.seats.items()}
        return replace(self, seats=seats, paused=True)

    def resume(self, now: float) -> Clock:
        """The clocks of the turns under way run again (a player on vacation: from its end)."""
        clock = replace(self, paused=False)
        for seat, c in sorted(self.seats.items()):
            if c.mid and c.since is None:
                clock = clock._with(seat, replace(c, since=clock._start_at(seat, now)))
        return clock

    def extend(self, seat: int, seconds: float) -> Clock:
        """More time for ``seat``'s turn under way (spent first; what is not spent is not kept)."""
        if not (math.isfinite(seconds) and seconds > 0):
            raise ValueError(f"an extension must be positive, not {seconds!r}")
        c = self.seat(seat)
        if c.extra + seconds > EXTRA_MAX:
            raise ValueError(Phrase(N_("That turn was given the most extra time it may have.")))
        return self._with(seat, replace(c, extra=c.extra + seconds))

    def vacation(self, seat: int, until: float, now: float) -> Clock:
        """``seat``'s player is away until ``until``: a turn running now stops now and runs again then;
        a turn that starts meanwhile starts then."""
        clock = replace(self, away={**self.away, seat: until})
        c = self.seat(seat)
        if c.since is not None:
            clock = clock._with(seat, replace(c.settled(now), since=max(now, until)))
        return clock

    def back(self, seat: int, now: float) -> Clock:
        """``seat``'s player ended their vacation at ``now``: a clock waiting for its end runs from now."""
        clock = replace(self, away={s: u for s, u in self.away.items() if s != seat})
        c = self.seat(seat)
        if c.since is not None and c.since > now:
            clock = clock._with(seat, replace(c, since=now))
        return clock

    # ------------------------------------------------------------------ storage
    def to_json(self) -> str:
        return json.dumps(
            {
                "mode": self.mode,
                "bank": self.bank,
                "increment": self.increment,
                "paused": self.paused,
                "seats": {str(s): [c.left, c.since, c.extra, c.mid] for s, c in sorted(self.seats.items())},
                "away": {str(s): u for s, u in sorted(self.away.items())},
            },
            separators=(",", ":"),
        )

    @classmethod
    def from_json(cls, text: str | None) -> Clock | None:
        if not text:
            return None
        raw = json.loads(text)
        seats = {
            int(s): SeatClock(
                left=float(left),
                since=None if since is None else float(since),
                extra=float(extra),
                mid=bool(mid),
            )
            for s, (left, since, extra, mid) in (raw.get("seats") or {}).items()
        }
        return cls(
            mode=raw["mode"],
            bank=float(raw["bank"]),
            increment=float(raw.get("increment") or 0.0),
            seats=seats,
            paused=bool(raw.get("paused")),
            away={int(s): float(u) for s, u in (raw.get("away") or {}).items()},
        )


def overhang(stored: str | None, at: float) -> float:
    """How much later than a bank allows from ``at`` a stored clock may set its deadline: the extra time
    given to a turn and the wait for a vacation's end (0 without a clock, or with a damaged one)."""
    try:
        clock = Clock.from_json(stored)
    except (ValueError, TypeError, KeyError):
        return 0.0
    if clock is None:
        return 0.0
    waits = [max(0.0, c.since - at) + c.extra for c in clock.seats.values() if c.since is not None]
    return max(waits, default=0.0) if all(math.isfinite(w) for w in waits) else 0.0


def half_turn(stored: str | None) -> float | None:
    """Half of the time the running turn that times out first had when it (re)started: when the
    half-time reminder falls before its deadline. None: no turn runs (or the clock is damaged)."""
    try:
        clock = Clock.from_json(stored)
    except (ValueError, TypeError, KeyError):
        return None
    if clock is None:
        return None
    running = [c for c in clock.seats.values() if c.since is not None]
    if not running:
        return None
    first = min(running, key=lambda c: c.deadline() or math.inf)
    return (first.extra + first.left) / 2


def bank_problem(bank: float, increment: float, minimum: float, maximum: float) -> Phrase | None:
    """Why (``bank``, ``increment``) cannot be a game's time bank (None when it can): the bank lies
    between ``minimum`` and ``maximum`` (the turn timer's bounds), the increment from 0 to the bank."""
    if not (math.isfinite(bank) and minimum <= bank <= maximum):
        return Phrase(
            N_("The bank must be from {least} to {most}, e.g. 3d."),
            least=duration_phrase(minimum),
            most=duration_phrase(maximum),
        )
    if not (math.isfinite(increment) and 0 <= increment <= bank):
        return Phrase(N_("The increment must be from 0 to the bank, e.g. 1d."))
    return None


def new_clock(turn_timeout: float | None, bank: tuple[float, float] | None) -> str | None:
    """The clock of a new game (no seat yet): a time bank (``bank``: starting bank and increment), a
    time per turn (``turn_timeout``), or none (None)."""
    if bank is not None:
        return Clock("bank", bank[0], bank[1]).to_json()
    if turn_timeout:
        return Clock("turn", turn_timeout).to_json()
    return None


def rematch_clock(stored: str | None) -> str | None:
    """A rematch's clock: the same kind and times as the finished game's, afresh."""
    clock = Clock.from_json(stored)
    return None if clock is None else Clock(clock.mode, clock.bank, clock.increment).to_json()


def duration_phrase(seconds: float) -> Phrase:
    """A bank as the table shows it, in any language: "2d 4h", "5h 10m", "12m", "0m" (a stored log line
    keeps it as data)."""
    total = max(0, int(seconds // 60))
    days, rest = divmod(total, 24 * 60)
    hours, minutes = divmod(rest, 60)
    if days:
        return Phrase(N_("{d}d {h}h"), d=days, h=hours) if hours else Phrase(N_("{d}d"), d=days)
    if hours:
        return Phrase(N_("{h}h {m}m"), h=hours, m=minutes) if minutes else Phrase(N_("{h}h"), h=hours)
    return Phrase(N_("{m}m"), m=minutes)


def short_duration(seconds: float, speaker: Voice = ENGLISH) -> str:
    """:func:`duration_phrase` said in the language of ``speaker``."""
    return speaker.say(duration_phrase(seconds))
