"""Random legal playouts shared by the games' tests."""

from __future__ import annotations

import random
from collections.abc import Iterator

from bot.games import registry
from bot.games.base import Game


def positions(
    key: str, seed: int, steps: int, *, players: int | None = None, options: dict | None = None
) -> Iterator[tuple[Game, int]]:
    """(game, the first seat to act) at each position of a random legal playout of ``key`` (seeded by
    ``seed``, at most ``steps`` moves); the game is live: look at it before the next position."""
    spec = registry.get(key)
    g = spec.new(players or spec.min_players, options or {}, seed=seed)
    rnd = random.Random(seed)
    for _ in range(steps):
        if g.is_over:
            return
        seat = g.to_act()[0]
        yield g, seat
        g.apply(seat, rnd.choice(g.legal_actions(seat)))


def played(
    key: str, seed: int, steps: int, *, players: int | None = None, options: dict | None = None
) -> Game:
    """The game at the end of the random legal playout of ``positions`` (at most ``steps`` moves)."""
    spec = registry.get(key)
    game = spec.new(players or spec.min_players, options or {}, seed=seed)  # the same, if no move is made
    for position, _ in positions(key, seed, steps, players=players, options=options):
        game = position  # the same game each time, one move on
    return game


def ai_positions(
    key: str, seed: int, steps: int, *, players: int | None = None, options: dict | None = None
) -> Iterator[Game]:
    """The game after each move its AI plays (seeded by ``seed``, at most ``steps`` moves); the game is
    live: look at it before the next one."""
    spec = registry.get(key)
    game = spec.new(players or max(2, spec.min_players), options or {}, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over:
            return
        seat = game.to_act()[0]
        game.apply(seat, game.ai_action(seat, rng))
        yield game


def ai_played(
    key: str, seed: int, *, players: int | None = None, options: dict | None = None
) -> tuple[Game, list[tuple[int, dict]], list[dict]]:
    """A whole game of ``key`` played by its AI (seeded by ``seed``): the game over, the (seat, action)
    moves in order, and every event they gave, as a replay rebuilds them."""
    spec = registry.get(key)
    game = spec.new(players or max(2, spec.min_players), options or {}, seed)
    rng = random.Random(seed)
    actions: list[tuple[int, dict]] = []
    events: list[dict] = []
    while not game.is_over:
        seat = game.to_act()[0]
        action = game.ai_action(seat, rng)
        events.extend(game.apply(seat, action))
        actions.append((seat, action))
    return game, actions, events
