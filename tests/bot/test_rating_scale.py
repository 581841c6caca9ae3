"""The ratings as people read them (bot/rating_scale.py): the points are monotonic in the ordinal, a
rating is provisional exactly while sigma is above the line, rest never takes sigma past a newcomer's,
the scale reads like Elo, a newcomer settles in about SETTLING_GAMES games, the odds add up."""

from __future__ import annotations

import random
import statistics

from hypothesis import given
from hypothesis import strategies as st

from bot import rating_scale
from bot.rating_scale import (
    BASE,
    DAY,
    PROVISIONAL_SIGMA,
    SCALE,
    SETTLING_GAMES,
    Standing,
    change_text,
    points,
    provisional,
    rested,
    win_odds,
)
from bot.ratings import MODEL, MU, SIGMA, ordinal, update

mus = st.floats(min_value=-50, max_value=100, allow_nan=False)
sigmas = st.floats(min_value=0.01, max_value=SIGMA, allow_nan=False)
seconds = st.floats(min_value=0, max_value=50 * 365 * DAY, allow_nan=False)


def test_a_newcomer_reads_1500_provisional():
    assert str(Standing.new()) == "1500?" and Standing.new().points == BASE == points(MU, SIGMA)


@given(mus, sigmas, mus, sigmas)
def test_points_are_monotonic_in_the_ordinal(mu1, s1, mu2, s2):
    if ordinal(mu1, s1) <= ordinal(mu2, s2):
        assert points(mu1, s1) <= points(mu2, s2)
    else:
        assert points(mu1, s1) >= points(mu2, s2)
    assert abs(points(mu1, s1) - (BASE + SCALE * ordinal(mu1, s1))) <= 0.5


@given(mus, st.floats(min_value=0.01, max_value=3 * SIGMA, allow_nan=False))
def test_provisional_iff_sigma_above_the_line(mu, sigma):
    standing = Standing(mu, sigma)
    assert standing.provisional == provisional(sigma) == (sigma > PROVISIONAL_SIGMA)
    assert str(standing).endswith("?") == (sigma > PROVISIONAL_SIGMA)
    assert str(standing).rstrip("?") == str(standing.points)


@given(sigmas, seconds, seconds)
def test_rest_grows_sigma_and_never_past_a_newcomers(sigma, idle, more):
    grown = rested(sigma, idle)
    assert sigma <= grown <= SIGMA
    assert grown <= rested(sigma, idle + more)  # the longer away, the less sure


@given(st.floats(min_value=SIGMA, max_value=3 * SIGMA, allow_nan=False), seconds)
def test_rest_never_lowers_a_sigma(sigma, idle):
    assert rested(sigma, idle) == sigma


def test_rest_takes_a_settled_player_back_to_provisional_in_months():
    assert not provisional(rested(3.0, 200 * DAY))
    assert provisional(rested(3.0, 300 * DAY))
    assert rested(0.5, rating_scale.FORGET_DAYS * DAY) == SIGMA
    assert rested(3.0, -5 * DAY) == 3.0  # a clock that went back: no change


@given(mus, sigmas, seconds)
def test_an_ai_does_not_rust(mu, sigma, idle):
    assert Standing.of("ai:Nelson", mu, sigma, 0.0, idle).sigma == sigma
    assert Standing.of("1234", mu, sigma, 0.0, idle).sigma == rested(sigma, idle)


def test_change_text():
    before, after = Standing(25, 3), Standing(25.6, 3)
    assert change_text(before, after) == f"{after.points} +18"
    assert change_text(after, before) == f"{before.points} -18"
    assert change_text(Standing.new(), Standing.new()) == "1500? +0"


def test_first_game_reads_plus_and_minus():
    (win, loss) = update([(MU, SIGMA), (MU, SIGMA)], [0, 1])
    assert Standing(*win).points > 1500 > Standing(*loss).points
    assert Standing(*win).provisional and Standing(*loss).provisional


def test_a_newcomer_settles_after_about_settling_games():
    """Against a settled player, won and lost in turn: provisional for SETTLING_GAMES - 1 games."""
    me, other = (MU, SIGMA), (MU, 2.0)
    shown = []
    for n in range(SETTLING_GAMES):
        me, other = update([me, other], [n % 2, 1 - n % 2])
        shown.append(Standing(*me).provisional)
    assert shown == [True] * (SETTLING_GAMES - 1) + [False]


def test_the_spread_reads_like_elo():
    """A club whose true strengths spread like Elo ratings with a 200-point standard deviation, games
    won as Elo predicts: after 200 games each, the points people read spread about as much."""
    rng = random.Random(7)
    strength = [rng.gauss(0, 200) for _ in range(40)]
    rating = [(MU, SIGMA)] * 40
    for _ in range(4000):
        i, j = rng.sample(range(40), 2)
        i_wins = rng.random() < 1 / (1 + 10 ** ((strength[j] - strength[i]) / 400))
        rating[i], rating[j] = update([rating[i], rating[j]], [0, 1] if i_wins else [1, 0])
    spread = statistics.pstdev(points(mu, sigma) for mu, sigma in rating)
    assert 150 < spread < 260, spread


@given(st.lists(st.tuples(mus, sigmas), min_size=2, max_size=6))
def test_win_odds_add_up_and_favour_the_stronger(players):
    standings = [Standing(mu, sigma) for mu, sigma in players]
    odds = win_odds(standings)
    assert len(odds) == len(players) and abs(sum(odds) - 1) < 1e-6
    assert all(0 <= p <= 1 for p in odds)


def test_win_odds_of_two():
    assert win_odds([Standing.new(), Standing.new()]) == [0.5, 0.5]
    strong, weak = win_odds([Standing(32, 2), Standing(25, 2)])
    assert strong > 0.75 > weak
    assert win_odds([Standing.new()]) == [1.0]
    teams = [[MODEL.rating(mu=32, sigma=2)], [MODEL.rating(mu=25, sigma=2)]]
    assert [strong, weak] == MODEL.predict_win(teams)
