"""Ratings: who finished where in a game, and the openskill update of each player's rating.

A player is a Discord user (key: the user id in decimal) or an AI seat, one per name and level (key
``ai:<name>:<level>``, so "Nelson (AI, hard)" of every game is one player, and "Nelson (AI, easy)" another:
bot/ai_seats.py; ratings earned before levels stay under the old key ``ai:<name>``, shown "Nelson (AI)"):
a lone player measures themselves against the AI. A seat an AI took over after its player resigned stays that player's (its user id is
kept), ranked last.

Ranks (0 = best): the winners first; the others by their score (higher is better) when the result has
scores, else tied; the seats that resigned last. No winner, or every seat a winner: a draw.
Cooperative games (The Everrain) are not rated: the crew wins or loses as one, so the result says
nothing about one captain against another, and a rating against "the sea" would measure the
difficulty as much as the players. They count games, wins and losses only (see :func:`outcome`).

Ratings use openskill's Plackett-Luce model (2 to 6 players, ties allowed); the number shown is the
*ordinal*, ``mu - 3 sigma`` (0 for a new player, rising as the rating grows surer).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

from bot.ai_seats import rating_key, rating_name

MODEL = PlackettLuce()
MU = MODEL.mu
SIGMA = MODEL.sigma


@dataclass(frozen=True)
class Place:
    """One seat's part in a finished game."""

    player: str  # "1234" (a user id) or "ai:Nelson:hard"
    name: str  # the name shown
    seat: int
    rank: int  # 0 = best; equal ranks are a tie
    outcome: str  # "win", "loss" or "draw"


def player_key(user_id: int | None, name: str, level: str | None = None) -> str:
    """The rating key of a seat: its user's id, else the AI's name and level ("ai:Nelson:hard"; ``level``
    None: a seat stored before levels, which plays at bot.ai_seats.UNSET_LEVEL)."""
    if user_id is not None:
        return str(user_id)
    return rating_key(name, level)


def display_name(name: str) -> str:
    """A seat's name for the ratings: a resigned player's seat "Ann (AI)" is Ann's."""
    return name.removesuffix(" (AI)").strip() or name


def ordinal(mu: float, sigma: float) -> float:
    return mu - 3 * sigma


def outcome(
    seats: list[tuple[int | None, str]],
    result: dict | None,
    *,
    resigned: Sequence[int] = (),
    cooperative: bool = False,
    levels: Sequence[str | None] = (),
) -> list[Place]:
    """Each seat's place. ``seats``: (user_id, name) by seat number, ``levels`` their AI levels (the
    seat's ``ai_level``; none given: each AI seat's stored before levels); ``result``: the game's
    (``winners``, optional ``scores`` {"0": n}); ``resigned``: seats whose players resigned, in order.
    ``cooperative``: the crew won (every seat a winner) or lost together; all share rank 0."""
    result = result or {}
    n = len(seats)
    winners = {w for w in (result.get("winners") or []) if isinstance(w, int) and 0 <= w < n}
    draw = not cooperative and (not winners or len(winners) == n)
    scores = result.get("scores")
    if not isinstance(scores, dict):
        scores = {}

    def score(seat: int) -> float:
        value = scores.get(str(seat))
        return float(value) if isinstance(value, (int, float)) else 0.0

    def key(seat: int) -> tuple:
        if draw or cooperative:
            return (0,)
        if seat in winners:
            return (0,)
        if seat in resigned:  # an earlier resignation ranks lower
            return (2, -list(resigned).index(seat))
        return (1, -score(seat))

    keys = sorted({key(s) for s in range(n)})
    places = []
    for seat, (user_id, name) in enumerate(seats):
        k = key(seat)
        rank = keys.index(k)
        kind = "draw" if draw else ("win" if seat in winners else "loss")
        level = levels[seat] if seat < len(levels) else None
        places.append(
            Place(
                player_key(user_id, name, level),
                display_name(name) if user_id is not None else rating_name(name, level),
                seat,
                rank,
                kind,
            )
        )
    return places


def update(current: list[tuple[float, float]], ranks: list[int]) -> list[tuple[float, float]]:
    """New (mu, sigma) of each player after a game they finished at ``ranks`` (one player a team)."""
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in current]
    rated = MODEL.rate(teams, ranks=[float(r) for r in ranks])
    return [(team[0].mu, team[0].sigma) for team in rated]


async def rate_game(storage, game_id: int) -> bool:
    """Rate finished game ``game_id`` (once: a second call does nothing). Called right after the
    finish is committed (a last move, a resignation) and, at start, for games a crash left unrated.
    Never raises: a rating that fails is logged, and the game is not hurt. True when it was rated now."""
    import logging

    from bot.games import registry

    try:
        row = await storage.get_game(game_id)
        if row is None or row.status != "finished" or row.guild_id is None:
            return False
        if isinstance((row.result or {}).get("imported"), dict):
            return False  # an imported game (bot/imports.py): its players are names, not members here
        seats = await storage.seats(game_id)
        resigned: list[int] = []
        for act in await storage.resigned(game_id):
            if act.seat not in resigned:
                resigned.append(act.seat)
        try:
            coop = bool(registry.get(row.game_key).extra.get("cooperative"))
        except Exception:  # noqa: BLE001 - a game type the registry no longer has: rated as competitive
            coop = False
        places = outcome(
            [(s.user_id, s.name) for s in seats],
            row.result,
            resigned=resigned,
            cooperative=coop,
            levels=[s.ai_level for s in seats],
        )
        return await storage.record_rating(game_id, places, cooperative=coop)
    except Exception:  # noqa: BLE001
        logging.getLogger("admiralty.ratings").exception("game %s: could not rate it", game_id)
        return False
