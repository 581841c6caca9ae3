"""Fixtures for the Enemy Lines tests: build a game in the movement phase from a position."""

from __future__ import annotations

import random

import pytest

from bot.games import registry
from bot.games.enemy_lines.board import LAYOUT


def parse_span(span: str, size: int) -> list:
    """ "C4-E4" -> [x, y, h] (lowest cell first); checks the span has the ship's length."""
    a, b = span.split("-")
    (x0, y0), (x1, y1) = [(ord(s[0]) - 65, int(s[1:]) - 1) for s in (a, b)]
    x0, x1, y0, y1 = min(x0, x1), max(x0, x1), min(y0, y1), max(y0, y1)
    h = y0 == y1
    assert (x1 - x0 + 1 if h else y1 - y0 + 1) == size, f"{span} is not {size} squares long"
    return [x0, y0, h]


@pytest.fixture
def spec():
    return registry.get("enemy-lines")


@pytest.fixture
def position(spec):
    """make({"b3a": "C4-E4", ...}, turn=0, start=0, anchors=(None, None)) -> game in the play phase.
    Ships not listed are off the board (unplaced), which the engine ignores."""

    def make(ships: dict, turn: int = 0, start: int = 0, anchors=(None, None), moves: int = 0):
        game = spec.new(2, {}, seed=0)
        st = game.state
        st["ships"] = {sid: None for sid in LAYOUT.ship_ids}
        for sid, span in ships.items():
            st["ships"][sid] = parse_span(span, LAYOUT.size[sid])
        st.update(
            phase="play", turn=turn, start=start, moves=moves, anchor={"0": anchors[0], "1": anchors[1]}
        )
        return game

    return make


def play_out(game, seed: int, limit: int = 10_000):
    """Random legal play to the end; returns every (seat, action, events)."""
    rng = random.Random(seed)
    log = []
    for _ in range(limit):
        if game.is_over:
            break
        seat = game.to_act()[0]
        action = rng.choice(game.legal_actions(seat))
        log.append((seat, action, game.apply(seat, action)))
    return log


@pytest.fixture
def playout():
    return play_out
