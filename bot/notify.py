"""Turn alerts as each person wants them (`/notify`): the preferences, and the clock arithmetic of quiet
hours and the daily digest in the person's own time zone.

Pure: no Discord, no database. What stores them is :mod:`bot.storage.notify`; what sends the alerts is
:mod:`bot.delivery.alerts`.

Times of day are minutes after local midnight (0..1439) in the person's IANA time zone. Quiet hours
are a window ``[start, end)`` of wall-clock time that may run across midnight (22:00-07:00). An alert
that falls in them waits until they end: the first instant at or after which the local clock shows
``end`` (on a day the clocks skip that time, the first instant after the gap). The game's deadline is
not moved. Daylight saving changes are zoneinfo's: a window is wall-clock time, so it lasts an hour
more or less on the night the clocks change.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from bot.i18n import ENGLISH, N_, Speaker

ROUTES = ("channel", "dm", "both", "none")
# the first line of /notify's answer, one whole sentence per route
ROUTE_LINES = {
    "channel": N_("🔔 **Your turn alerts** (in every server): a ping in the game's channel."),
    "dm": N_("🔔 **Your turn alerts** (in every server): a direct message."),
    "both": N_(
        "🔔 **Your turn alerts** (in every server): a ping in the game's channel and a direct message."
    ),
    "none": N_("🔔 **Your turn alerts** (in every server): no alert."),
}
DAY = 24 * 60


class NotifyError(ValueError):
    """A setting that cannot be taken; the message says why (shown privately, in the person's language:
    :meth:`text`; ``str()`` is the English)."""

    def __init__(self, msgid: str, **params: object) -> None:
        super().__init__(msgid.format(**params))
        self.msgid = msgid
        self.params = params

    def text(self, speaker: Speaker) -> str:
        return speaker.gettext(self.msgid, **self.params)


@dataclass(frozen=True)
class Prefs:
    """One person's alert preferences. The defaults are the bot's behaviour without any: a ping in the
    game's channel, no quiet hours, no heads-up, no digest."""

    route: str = "channel"
    tz: str = "UTC"
    quiet_start: int | None = None  # minutes after local midnight; both or neither set
    quiet_end: int | None = None
    heads_up: bool = False
    digest_at: int | None = None  # minutes after local midnight; None: no digest
    locale: str = "en"  # the language of their DMs: the Discord locale they last used /notify with

    @property
    def speaker(self) -> Speaker:
        return Speaker(self.locale)

    @property
    def is_default(self) -> bool:
        return self.route == "channel" and self.quiet_start is None and not self.heads_up

    @property
    def wants_channel(self) -> bool:
        return self.route in ("channel", "both")

    @property
    def wants_dm(self) -> bool:
        return self.route in ("dm", "both")

    @property
    def zone(self) -> ZoneInfo:
        return zone(self.tz)


DEFAULT = Prefs()


def zone(name: str) -> ZoneInfo:
    """The time zone ``name`` (an IANA name such as Europe/Paris), or NotifyError."""
    name = name.strip()
    if not name or len(name) > 64 or not re.fullmatch(r"[A-Za-z0-9_+\-/]+", name) or ".." in name:
        raise NotifyError(
            N_("{value} is not a time zone: use a name like Europe/Paris or America/New_York."),
            value=repr(name[:64]),
        )
    exact = {n.lower(): n for n in available_timezones()}.get(name.lower())  # typed in another case
    try:
        return ZoneInfo(exact or name)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        raise NotifyError(
            N_("I do not know the time zone {value}: use a name like Europe/Paris or America/New_York."),
            value=repr(name),
        ) from None


def zone_names(typed: str, limit: int = 25) -> list[str]:
    """Time zone names for an autocomplete: those containing what was typed (case and spaces ignored),
    the ones that start with it first."""
    key = typed.strip().lower().replace(" ", "_")
    names = sorted(
        n for n in available_timezones() if not n.startswith(("Etc/", "SystemV/")) or n == "Etc/UTC"
    )
    hits = [n for n in names if key in n.lower()]
    hits.sort(key=lambda n: (not n.lower().startswith(key) and f"/{key}" not in n.lower(), n))
    return hits[:limit]


_TIME = re.compile(r"^(\d{1,2})(?:[:.h](\d{2}))?h?\s*(am|pm)?$")


def parse_time(text: str) -> int:
    """'7', '07:00', '22:30', '7h', '7pm' → minutes after midnight; NotifyError otherwise."""
    m = _TIME.match(text.strip().lower())
    shown = repr(text.strip()[:20])
    if m is None:
        raise NotifyError(N_("{value} is not a time of day: write it like 07:00 or 22:30."), value=shown)
    hours, minutes, half = int(m.group(1)), int(m.group(2) or 0), m.group(3)
    if half is not None:
        if not 1 <= hours <= 12:
            raise NotifyError(
                N_("{value} is not a time of day: with am or pm, hours go from 1 to 12."), value=shown
            )
        hours = hours % 12 + (12 if half == "pm" else 0)
    if hours > 23 or minutes > 59:
        raise NotifyError(N_("{value} is not a time of day: hours 0-23, minutes 0-59."), value=shown)
    return hours * 60 + minutes


def parse_quiet(text: str) -> tuple[int, int] | None:
    """'22:00-07:00' → (start, end) minutes; 'off' (or 'none') → None; NotifyError otherwise."""
    if text.strip().lower() in ("off", "none", "no", "-"):
        return None
    start, sep, end = text.partition("-")
    if not sep:
        raise NotifyError(N_("Write quiet hours as a start and an end, like 22:00-07:00 (or `off`)."))
    window = parse_time(start), parse_time(end)
    if window[0] == window[1]:
        raise NotifyError(N_("Quiet hours must not start and end at the same time (that would be all day)."))
    return window


def clock_text(minutes: int) -> str:
    return f"{minutes // 60:02d}:{minutes % 60:02d}"


def local_minutes(when: float, tz: ZoneInfo) -> int:
    """The wall-clock time at ``when`` (unix seconds) in ``tz``, in minutes after local midnight."""
    local = datetime.fromtimestamp(when, tz)
    return local.hour * 60 + local.minute


def in_window(minute: int, start: int, end: int) -> bool:
    """Whether wall-clock ``minute`` falls in ``[start, end)`` (a window may run across midnight)."""
    if start < end:
        return start <= minute < end
    return minute >= start or minute < end


def next_wall_time(when: float, minutes: int, tz: ZoneInfo) -> float:
    """The first instant strictly after ``when`` at which the local clock in ``tz`` shows ``minutes``
    (after midnight), or, on a day the clocks skip that time, the end of the skipped hour."""
    local = datetime.fromtimestamp(when, tz)
    day = local.date()
    for offset in range(0, 3):
        d = day + timedelta(days=offset)
        wall = datetime(d.year, d.month, d.day, minutes // 60, minutes % 60, tzinfo=tz)
        instant = _existing(wall)
        if instant > when:
            return instant
    raise AssertionError("a wall-clock time comes within three days")  # pragma: no cover


def _existing(wall: datetime) -> float:
    """The instant of a wall-clock time (aware, in its zone). A time the clocks show twice (falling
    back) is its first showing; one they skip (springing forward) is the end of the skipped hour."""
    tz = wall.tzinfo
    after_gap = wall.replace(fold=0).timestamp()  # a skipped time read with the offset before the change
    if datetime.fromtimestamp(after_gap, tz).replace(tzinfo=None) == wall.replace(tzinfo=None):
        return after_gap
    # skipped: the change lies between that reading and the one with the offset after it; the gap ends
    # at the change, the first second with the new offset
    lo, hi = int(wall.replace(fold=1).timestamp()), int(after_gap)
    before = datetime.fromtimestamp(lo, tz).utcoffset()
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if datetime.fromtimestamp(mid, tz).utcoffset() == before:
            lo = mid
        else:
            hi = mid
    return float(hi)


def quiet_until(prefs: Prefs, when: float) -> float | None:
    """When the quiet hours around ``when`` end (unix seconds), or None when ``when`` is not in them."""
    if prefs.quiet_start is None or prefs.quiet_end is None:
        return None
    tz = prefs.zone
    if not in_window(local_minutes(when, tz), prefs.quiet_start, prefs.quiet_end):
        return None
    return next_wall_time(when, prefs.quiet_end, tz)


def next_digest(prefs: Prefs, when: float) -> float | None:
    """When the next daily digest after ``when`` is due (unix seconds); None without a digest."""
    if prefs.digest_at is None:
        return None
    return next_wall_time(when, prefs.digest_at, prefs.zone)


def describe(prefs: Prefs, speaker: Speaker = ENGLISH) -> str:
    """The settings as /notify shows them (privately), in ``speaker``'s language."""
    _ = speaker.gettext
    lines = [_(ROUTE_LINES[prefs.route])]
    lines.append(_("• Time zone: **{zone}**.", zone=prefs.tz))
    if prefs.quiet_start is not None and prefs.quiet_end is not None:
        lines.append(
            _(
                "• Quiet hours: **{start}-{end}**: an alert waits until they end (the game's deadline "
                "does not).",
                start=clock_text(prefs.quiet_start),
                end=clock_text(prefs.quiet_end),
            )
        )
    else:
        lines.append(_("• Quiet hours: none."))
    if prefs.heads_up:
        lines.append(
            _("• Heads-up when the player before you starts their turn: **on** (by direct message).")
        )
    else:
        lines.append(_("• Heads-up when the player before you starts their turn: off."))
    if prefs.digest_at is not None:
        lines.append(
            _("• Daily digest of the games waiting for you: **{time}**.", time=clock_text(prefs.digest_at))
        )
    else:
        lines.append(_("• Daily digest: off."))
    return "\n".join(lines)
