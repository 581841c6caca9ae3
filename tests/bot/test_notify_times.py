"""Quiet hours and the daily digest in a person's own time zone (bot/notify.py): across midnight and
across daylight saving changes, an alert held by quiet hours is released when the local clock shows
their end (the first instant after a skipped hour), and never while they last."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.notify import (
    DEFAULT,
    NotifyError,
    Prefs,
    in_window,
    local_minutes,
    next_digest,
    next_wall_time,
    parse_quiet,
    parse_time,
    quiet_until,
    zone,
    zone_names,
)

ZONES = ["UTC", "Europe/Paris", "America/New_York", "Australia/Lord_Howe", "Asia/Kolkata", "Pacific/Chatham"]
# 2020-01-01 to 2030-01-01: every daylight saving change of those years, in both directions
instants = st.floats(min_value=1577836800, max_value=1893456000, allow_nan=False).map(lambda t: float(int(t)))
minutes = st.integers(min_value=0, max_value=1439)


def at(tz: str, *args: int) -> float:
    return datetime(*args, tzinfo=ZoneInfo(tz)).timestamp()


def local(when: float, tz: str) -> datetime:
    return datetime.fromtimestamp(when, ZoneInfo(tz))


def test_quiet_hours_across_midnight_hold_an_alert_until_the_morning():
    prefs = Prefs(tz="Europe/Paris", quiet_start=22 * 60, quiet_end=7 * 60)
    late = at("Europe/Paris", 2026, 6, 10, 23, 40)
    early = at("Europe/Paris", 2026, 6, 11, 5, 0)
    morning = at("Europe/Paris", 2026, 6, 11, 7, 0)
    assert quiet_until(prefs, late) == morning
    assert quiet_until(prefs, early) == morning
    assert quiet_until(prefs, morning) is None  # the end is not in them
    assert quiet_until(prefs, at("Europe/Paris", 2026, 6, 11, 21, 59)) is None


def test_a_night_the_clocks_spring_forward_ends_its_quiet_hours_at_the_end_of_the_skipped_hour():
    # Paris, 2026-03-29: 02:00 jumps to 03:00; quiet hours ending at 02:30 end at 03:00 that night
    prefs = Prefs(tz="Europe/Paris", quiet_start=23 * 60, quiet_end=2 * 60 + 30)
    released = quiet_until(prefs, at("Europe/Paris", 2026, 3, 28, 23, 30))
    assert local(released, "Europe/Paris").replace(tzinfo=None) == datetime(2026, 3, 29, 3, 0)
    assert released - at("Europe/Paris", 2026, 3, 28, 23, 30) == 2.5 * 3600  # 23:30 to 03:00, an hour skipped


def test_a_night_the_clocks_fall_back_ends_at_the_first_showing_of_the_end():
    # New York, 2026-11-01: 02:00 falls back to 01:00; quiet hours 00:00-01:30 end at the first 01:30
    prefs = Prefs(tz="America/New_York", quiet_start=0, quiet_end=90)
    released = quiet_until(prefs, at("America/New_York", 2026, 11, 1, 0, 15))
    assert released - at("America/New_York", 2026, 11, 1, 0, 15) == 75 * 60


def test_the_digest_comes_at_the_chosen_hour_of_the_next_day_once_it_passed():
    prefs = Prefs(tz="Asia/Kolkata", digest_at=8 * 60)
    before = at("Asia/Kolkata", 2026, 6, 10, 7, 0)
    after = at("Asia/Kolkata", 2026, 6, 10, 8, 0)
    assert next_digest(prefs, before) == after
    assert next_digest(prefs, after) == after + 86400
    assert next_digest(DEFAULT, before) is None


@settings(max_examples=300, deadline=None)
@given(when=instants, start=minutes, end=minutes, tz=st.sampled_from(ZONES))
def test_an_alert_in_quiet_hours_waits_exactly_until_they_end(when, start, end, tz):
    if start == end:
        return
    prefs = Prefs(tz=tz, quiet_start=start, quiet_end=end)
    released = quiet_until(prefs, when)
    quiet_now = in_window(local_minutes(when, ZoneInfo(tz)), start, end)
    if not quiet_now:
        assert released is None
        return
    assert released is not None and released > when
    # never more than a day and the hour a clock change adds
    assert released - when <= 25 * 3600
    # released out of the quiet hours, and not one minute later than needed: a minute earlier is in them
    assert not in_window(local_minutes(released, ZoneInfo(tz)), start, end)
    assert in_window(local_minutes(released - 60, ZoneInfo(tz)), start, end)


@settings(max_examples=300, deadline=None)
@given(when=instants, wall=minutes, tz=st.sampled_from(ZONES))
def test_the_next_wall_time_is_the_first_instant_the_clock_shows_it(when, wall, tz):
    nxt = next_wall_time(when, wall, ZoneInfo(tz))
    assert when < nxt <= when + 25 * 3600
    shown = local_minutes(nxt, ZoneInfo(tz))
    if shown != wall:  # a time the clocks skipped: the end of the gap, within its hour (or half hour)
        gap_start = local(nxt - 1, tz)
        assert (local(nxt, tz).utcoffset() - gap_start.utcoffset()) > timedelta(0)
        assert 0 < (shown - wall) % 1440 <= 60
    # no instant between: the minute before it does not show the time (or it was skipped)
    assert local_minutes(nxt - 60, ZoneInfo(tz)) != wall or nxt - 60 <= when


@pytest.mark.parametrize(
    "text, minutes_after_midnight",
    [("7", 420), ("07:00", 420), ("22:30", 1350), ("7h", 420), ("7pm", 1140), ("12am", 0), ("12:15 pm", 735)],
)
def test_times_of_day_are_read_as_people_write_them(text, minutes_after_midnight):
    assert parse_time(text) == minutes_after_midnight


@pytest.mark.parametrize("text", ["24:00", "7:60", "13pm", "noon", "", "7:5", "-1"])
def test_a_time_that_is_not_one_is_refused_with_the_reason(text):
    with pytest.raises(NotifyError):
        parse_time(text)


def test_quiet_hours_are_a_start_and_an_end_or_off():
    assert parse_quiet("22:00-07:00") == (1320, 420)
    assert parse_quiet("off") is None
    for bad in ("22:00", "22:00-22:00", "late-early"):
        with pytest.raises(NotifyError):
            parse_quiet(bad)


def test_time_zones_are_iana_names_validated_by_zoneinfo_and_offered_by_what_was_typed():
    assert zone("Europe/Paris").key == "Europe/Paris"
    for bad in ("Mars/Olympus", "../../etc/passwd", "", "x" * 100, "Europe/Paris;"):
        with pytest.raises(NotifyError):
            zone(bad)
    assert zone(" europe/paris ").key == "Europe/Paris"  # as typed without the autocomplete
    assert zone_names("paris") == ["Europe/Paris"]
    assert "America/New_York" in zone_names("new york")
    assert len(zone_names("")) == 25


def test_the_defaults_are_todays_behaviour():
    assert (
        DEFAULT.is_default and DEFAULT.route == "channel" and DEFAULT.wants_channel and not DEFAULT.wants_dm
    )
    assert quiet_until(DEFAULT, 1e9) is None and next_digest(DEFAULT, 1e9) is None
    assert not Prefs(heads_up=True).is_default and Prefs(digest_at=60).is_default  # a digest is no alert
