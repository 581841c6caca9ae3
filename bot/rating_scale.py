"""The ratings as people read them: points on a familiar scale, a provisional mark, uncertainty that
grows back while a player rests, and the win odds of a table (no storage, no Discord).

The model (bot/ratings.py) keeps openskill's (mu, sigma) per player; its *ordinal* ``mu - 3 sigma`` is
0 for a newcomer and rises as the rating grows surer. People read ``BASE + SCALE * ordinal``, rounded:
a newcomer reads 1500. ``SCALE`` = 30 points per ordinal point, because the Plackett-Luce model behind
the ratings gives a settled player 30 * 6.67 = 200 points above another about three wins in four, as
Elo does (its update assumes P(win) = 1 / (1 + exp(-d / (sqrt(2) * beta))), beta = 25/6; Elo's is
1 / (1 + 10^(-D / 400)); the two agree at D = 29.5 d), and a simulated club whose true Elo spread is
200 points reads a spread of about 200 here (tests/bot/test_rating_scale.py). As the number is the
cautious ordinal, a settled average player reads well above 1500 (about 2000).

A rating is *provisional* ("1520?") while sigma is above ``PROVISIONAL_SIGMA``: about six two-player
games from a newcomer's 8.33. Provisional players are kept off the leaderboard.

While a player does not play, the uncertainty grows back (as Glicko's does): sigma^2 gains
``SIGMA^2 / FORGET_DAYS`` a day since their last rated game of that kind in that server, never past a
newcomer's sigma. A typical settled player (sigma 3) is provisional again after about nine months
away. It is applied whenever a rating is read and before a game is rated. An AI does not rust: its
rating (one per AI name) stays as it is.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from bot.ratings import MODEL, MU, SIGMA, ordinal

BASE = 1500
SCALE = 30
PROVISIONAL_SIGMA = 6.0
SETTLING_GAMES = 6  # two-player games that bring a newcomer's sigma to PROVISIONAL_SIGMA (tested)
FORGET_DAYS = 730
DAY = 86400.0
SIGMA_GROWTH = SIGMA**2 / FORGET_DAYS  # sigma^2 regained per day away


def points(mu: float, sigma: float) -> int:
    """The rating people read: ``BASE + SCALE * ordinal``, rounded (a newcomer's is 1500)."""
    return round(BASE + SCALE * ordinal(mu, sigma))


def provisional(sigma: float) -> bool:
    return sigma > PROVISIONAL_SIGMA


def rested(sigma: float, idle_seconds: float) -> float:
    """``sigma`` after ``idle_seconds`` without a rated game: sigma^2 grows by ``SIGMA_GROWTH`` a day,
    up to a newcomer's ``SIGMA`` (a sigma already above it is left as it is)."""
    if sigma >= SIGMA or not idle_seconds > 0:
        return sigma
    grown = math.sqrt(sigma * sigma + SIGMA_GROWTH * min(idle_seconds, 1e12) / DAY)
    return min(SIGMA, grown)


def is_ai(player: str) -> bool:
    return player.startswith("ai:")


@dataclass(frozen=True)
class Standing:
    """A player's rating as it stands now (its sigma rested), and how it reads."""

    mu: float
    sigma: float

    @classmethod
    def new(cls) -> Standing:
        return cls(MU, SIGMA)

    @classmethod
    def of(cls, player: str, mu: float, sigma: float, last_rated: float, now: float) -> Standing:
        """The standing of ``player`` rated (mu, sigma) at ``last_rated``, read at ``now``."""
        return cls(mu, sigma if is_ai(player) else rested(sigma, now - last_rated))

    @property
    def ordinal(self) -> float:
        return ordinal(self.mu, self.sigma)

    @property
    def points(self) -> int:
        return points(self.mu, self.sigma)

    @property
    def provisional(self) -> bool:
        return provisional(self.sigma)

    def __str__(self) -> str:
        """'1534', or '1520?' while provisional."""
        return f"{self.points}{'?' if self.provisional else ''}"


def change_text(before: Standing, after: Standing) -> str:
    """'1534 +18': the standing after a game and how far it moved (in the points people read)."""
    delta = after.points - before.points
    return f"{after} {'+' if delta >= 0 else '-'}{abs(delta)}"


def win_odds(standings: Sequence[Standing]) -> list[float]:
    """Each player's chance to win a game among ``standings`` (one player a side), by openskill's
    ``predict_win``; they add up to 1."""
    if len(standings) < 2:
        return [1.0] * len(standings)
    teams = [[MODEL.rating(mu=s.mu, sigma=s.sigma)] for s in standings]
    return [float(p) for p in MODEL.predict_win(teams)]
