"""Game clocks (bot/clocks.py): a time bank never above its cap nor below 0, a move's time taken exactly
once, stops (pause, vacation) that stop it, extra time that is spent first and not kept."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.clock_ui import clock_words
from bot.clocks import DAY, Clock, bank_problem, new_clock, rematch_clock, short_duration

HOUR = 3600.0


def bank(start: float = 3 * DAY, increment: float = DAY) -> Clock:
    return Clock("bank", start, increment)


def test_a_turn_starts_the_seat_to_act_and_its_deadline_is_its_bank():
    clock = bank().sync([0], now=1000.0)
    assert clock.running() == [0]
    assert clock.deadline() == 1000.0 + 3 * DAY
    assert clock.seat(1).since is None


def test_a_move_takes_its_time_off_the_bank_then_adds_the_increment():
    clock = bank().sync([0], now=0.0)
    clock = clock.sync([1], now=2 * DAY)  # seat 0 moved after two days
    assert clock.seat(0).left == pytest.approx(3 * DAY - 2 * DAY + DAY)
    assert clock.seat(0).since is None and not clock.seat(0).mid
    assert clock.running() == [1]


def test_the_increment_is_capped_at_the_starting_bank():
    clock = bank().sync([0], now=0.0).sync([1], now=HOUR)
    assert clock.seat(0).left == 3 * DAY


def test_a_bank_never_goes_below_zero_however_late_the_move():
    clock = bank(increment=0.0).sync([0], now=0.0).sync([1], now=10 * DAY)
    assert clock.seat(0).left == 0.0
    assert clock.seat(0).remaining(20 * DAY) == 0.0


def test_several_steps_of_one_turn_take_its_time_once():
    clock = bank(increment=0.0).sync([0], now=0.0)
    clock = clock.sync([0], now=HOUR)  # a first step: still seat 0's turn
    clock = clock.sync([0], now=2 * HOUR)
    clock = clock.sync([1], now=3 * HOUR)
    assert clock.seat(0).left == pytest.approx(3 * DAY - 3 * HOUR)


def test_in_a_secret_choice_each_seat_spends_its_own_bank():
    clock = Clock("bank", DAY, 0.0).sync([0, 1], now=0.0)
    clock = clock.sync([1], now=HOUR)  # seat 0 chose after an hour; seat 1 still choosing
    assert clock.seat(0).left == pytest.approx(DAY - HOUR)
    assert clock.running() == [1]
    assert clock.deadline() == DAY
    assert clock.out_of_time(DAY) == [1]


def test_a_time_per_turn_gives_every_turn_the_full_time():
    clock = Clock("turn", HOUR).sync([0], now=0.0).sync([1], now=50 * 60).sync([0], now=HOUR)
    assert clock.seat(0).left == HOUR
    assert clock.deadline() == 2 * HOUR


def test_a_pause_stops_every_clock_and_a_resume_starts_the_turn_where_it_stood():
    clock = bank(increment=0.0).sync([0], now=0.0).pause(now=HOUR)
    assert clock.deadline() is None and clock.paused
    assert clock.sync([0], now=5 * DAY).deadline() is None, "no clock runs while paused"
    clock = clock.resume(now=10 * DAY)
    assert clock.seat(0).remaining(10 * DAY) == pytest.approx(3 * DAY - HOUR)
    assert clock.deadline() == pytest.approx(10 * DAY + 3 * DAY - HOUR)


def test_a_turn_paused_in_time_per_turn_mode_resumes_rather_than_starts_again():
    clock = Clock("turn", HOUR).sync([0], now=0.0).pause(now=40 * 60).resume(now=DAY)
    assert clock.deadline() == pytest.approx(DAY + 20 * 60)


def test_extra_time_is_spent_first_and_not_kept_after_the_turn():
    clock = bank(increment=0.0).sync([0], now=0.0).extend(0, DAY)
    assert clock.deadline() == 4 * DAY
    used_half = clock.sync([1], now=DAY / 2)
    assert used_half.seat(0).left == 3 * DAY, "the half day came out of the extra time"
    used_more = clock.sync([1], now=2 * DAY)
    assert used_more.seat(0).left == pytest.approx(2 * DAY)


def test_a_vacation_stops_the_running_turn_until_it_ends():
    clock = bank(increment=0.0).sync([0], now=0.0).vacation(0, until=10 * DAY, now=DAY)
    assert clock.deadline() == pytest.approx(10 * DAY + 2 * DAY)
    assert clock.seat(0).remaining(5 * DAY) == pytest.approx(2 * DAY)


def test_a_turn_that_starts_during_a_vacation_starts_when_it_ends():
    clock = bank().vacation(1, until=10 * DAY, now=0.0).sync([1], now=DAY)
    assert clock.seat(1).since == 10 * DAY


def test_ending_a_vacation_early_starts_the_waiting_clock_now():
    clock = bank().vacation(0, until=10 * DAY, now=0.0).sync([0], now=DAY).back(0, now=2 * DAY)
    assert clock.seat(0).since == 2 * DAY
    assert 0 not in clock.away


def test_the_clock_reads_back_as_it_was_stored():
    clock = bank().sync([0, 1], now=5.0).extend(1, HOUR).vacation(0, 99.0, 6.0).pause(7.0)
    assert Clock.from_json(clock.to_json()) == clock
    assert Clock.from_json(None) is None


def test_a_bank_and_increment_are_checked():
    assert bank_problem(3 * DAY, DAY, 30.0, 30 * DAY) is None
    assert bank_problem(10.0, 0.0, 30.0, 30 * DAY)
    assert bank_problem(DAY, 2 * DAY, 30.0, 30 * DAY), "an increment larger than the bank"
    assert bank_problem(float("inf"), 0.0, 30.0, 30 * DAY)
    with pytest.raises(ValueError):
        Clock("bank", -1.0)


def test_a_new_game_and_its_rematch_get_the_same_clock_afresh():
    assert new_clock(None, None) is None
    assert Clock.from_json(new_clock(HOUR, None)) == Clock("turn", HOUR)
    stored = bank().sync([0], now=3.0).to_json()
    assert Clock.from_json(rematch_clock(stored)) == bank()


def test_short_durations_read_as_the_table_shows_them():
    assert short_duration(2 * DAY + 4 * HOUR + 59) == "2d 4h"
    assert short_duration(5 * HOUR + 600) == "5h 10m"
    assert short_duration(3 * DAY) == "3d"
    assert short_duration(-5) == "0m"


# ---------------------------------------------------------------- properties
ops = st.lists(
    st.tuples(
        st.sampled_from(["move0", "move1", "both", "pause", "resume", "extend", "vacation", "back"]),
        st.floats(min_value=0.0, max_value=5 * DAY),
    ),
    max_size=30,
)


@settings(max_examples=300, deadline=None)
@given(
    start=st.floats(min_value=60.0, max_value=30 * DAY),
    increment_share=st.floats(min_value=0.0, max_value=1.0),
    steps=ops,
)
def test_a_bank_is_never_above_its_cap_nor_negative_and_a_moves_time_is_taken_once(
    start, increment_share, steps
):
    increment = start * increment_share
    clock = Clock("bank", start, increment).sync([0], now=0.0)
    now = 0.0
    for op, dt in steps:
        now += dt
        before = clock
        if op in ("move0", "move1", "both"):
            to_act = {"move0": [1], "move1": [0], "both": [0, 1]}[op]
            clock = clock.sync(to_act, now)
            for seat in before.running():
                if seat not in to_act:
                    # the turn that ended: its time (extra time first) came off once, then the increment
                    c = before.seat(seat)
                    used = max(0.0, now - c.since)
                    expected = min(start, max(0.0, c.left - max(0.0, used - c.extra)) + increment)
                    assert clock.seat(seat).left == pytest.approx(expected, abs=1e-6)
            for seat in before.seats:
                if seat in to_act and before.seat(seat).mid:
                    assert clock.seat(seat) == before.seat(seat), "a turn going on is not charged again"
        elif op == "pause":
            clock = clock.pause(now)
            assert clock.deadline() is None
        elif op == "resume":
            clock = clock.resume(now)
        elif op == "extend" and clock.running():
            clock = clock.extend(clock.running()[0], 3600.0)
        elif op == "vacation":
            clock = clock.vacation(0, now + dt, now)
        elif op == "back":
            clock = clock.back(0, now)
        for c in clock.seats.values():
            assert 0.0 <= c.left <= start + 1e-6
            assert c.remaining(now) >= 0.0
            assert c.extra >= 0.0
        assert Clock.from_json(clock.to_json()) == clock


def test_the_table_shows_every_bank_but_only_the_running_turns_time_per_turn():
    banks = bank().sync([0], now=0.0).vacation(1, until=5 * DAY, now=0.0)
    assert clock_words(banks, 0, now=DAY) == " · ⏳ 2d"
    assert clock_words(banks, 1, now=DAY) == f" · ⏳ 3d · 🏖 on vacation until <t:{int(5 * DAY)}:f>"
    turns = Clock("turn", 2 * HOUR).sync([0], now=0.0)
    assert clock_words(turns, 0, now=HOUR) == " · ⏳ 1h"
    assert clock_words(turns, 1, now=HOUR) == ""
