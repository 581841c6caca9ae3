"""The Warships search levels (``normal``, ``hard``): determinized search over samples of the hidden types.

Each iteration deals the enemy's face-down units from what this seat knows (:mod:`.resample`, the
determinization of Cowling, Powley and Whitehouse 2012), plays one candidate move in it, lets both
sides answer with today's heuristic (:func:`.ai.choose`, each side deciding from its own view of the
sample) for a few plies, and scores the position reached (:func:`evaluate`). The candidates are the
heuristic's best few moves; every candidate is tried on the same samples, and the best mean wins (ties:
the heuristic's order). Mines are laid by rule first (:func:`.ai.mine_to_lay`), a landing is taken at
once. The Stopwatch is checked before every playout; with an iteration cap the choice depends only on
the rng.
"""

from __future__ import annotations

import marshal
import random
from collections import Counter
from typing import Any, Protocol

from bot.games.ai import Budget, Situation
from bot.games.warships import ai, landing, threats
from bot.games.warships.board import Board, board


class Fleet(Protocol):
    """What the search uses of a (resampled) WarshipsGame; named here, not imported, so that the game
    module, which calls the search, is not imported back."""

    state: dict
    options: dict

    @property
    def is_over(self) -> bool: ...
    def to_act(self) -> list[int]: ...
    def legal_actions(self, seat: int) -> list[dict]: ...
    def view(self, seat: int | None) -> dict: ...
    def _apply(self, seat: int, action: dict) -> list[dict]: ...
    def _occ(self) -> dict[int, int]: ...
    def _entrance_open(self, e: int, occ: dict[int, int] | None = None) -> bool: ...
    def _danger(self, seat: int, occ: dict[int, int]) -> set[int]: ...


WIN = 100_000.0
DRAW = 2_000.0  # a draw is worth little more than a loss (the move limit)
SAFETY = (0, 400, 550)  # for the first and second Missile ship while no enemy exit is open
LAST_MISSILE_EXPOSED = 200.0  # each enemy ship that could attack a side's last Missile ship next turn
# (candidates, plies of heuristic play after the candidate) per level
SHAPE = {"normal": (4, 1), "hard": (6, 3)}
MARGIN = 0.002  # seconds kept for choosing and returning the move


def think(situation: Situation, level: str, budget: Budget, rng: random.Random, game_class: Any) -> dict:
    """The move of ``situation.seat``; ``game_class`` deals the samples (its ``resample``)."""
    watch = budget.start()  # the heuristic's ranking below counts towards the budget too
    view, legal, seat = situation.view, situation.legal, situation.seat
    if not legal:
        raise ValueError("no legal action")
    if view["phase"] == "setup":
        return ai.setup_with_mines(view, legal, seat)
    mine = ai.mine_to_lay(view, legal, seat)
    if mine is not None:
        return mine
    moves = [a for a in legal if a["type"] != "lay_mine"]
    if not moves:
        return legal[0]
    ranked = ai.scored(view, moves, seat, situation.options, rng, informed=True)
    order = sorted(range(len(ranked)), key=lambda i: -ranked[i][0])
    if ranked[order[0]][0] >= 1e12:
        return ranked[order[0]][1]  # the Landing ship enters the enemy port: the game is won
    width, plies = SHAPE.get(level, SHAPE["hard"])
    candidates = [ranked[i][1] for i in order[:width]]
    if len(candidates) == 1:
        return candidates[0]
    totals = [0.0] * len(candidates)
    done = 0
    longest = 0.0  # the longest playout so far: none is started that would overrun the time
    deal = 0.0  # the longest dealing of a sample so far: none is dealt whose playouts could not all end
    while watch.more(done):
        if budget.iterations is None and watch.left() < deal + len(candidates) * longest + MARGIN:
            break
        began = watch.clock()
        sample: Fleet = game_class.resample(situation.view, situation.seat, rng)
        start = marshal.dumps(sample.state)
        deal = max(deal, watch.clock() - began)
        values = []
        for action in candidates:
            if not watch.more(done) or (budget.iterations is None and watch.left() < longest):
                break
            began = watch.clock()
            sample.state = marshal.loads(start)
            values.append(playout(sample, seat, action, plies, situation.options, rng))
            longest = max(longest, watch.clock() - began)
            done += 1
        if len(values) < len(candidates):
            break  # an unfinished sample would favour the candidates tried first
        totals = [t + v for t, v in zip(totals, values, strict=True)]
    best = max(range(len(candidates)), key=lambda i: (totals[i], -i))
    return candidates[best]


def playout(game: Fleet, seat: int, action: dict, plies: int, options: dict, rng: random.Random) -> float:
    """Play ``action`` then ``plies`` moves of the heuristic for whoever is to move; the value for seat."""
    game._apply(seat, action)
    for _ in range(plies):
        if game.is_over:
            break
        mover = game.to_act()[0]
        legal = game.legal_actions(mover)
        game._apply(mover, ai.choose(game.view(mover), legal, mover, options, rng))
    return evaluate(game, seat)


def evaluate(game: Fleet, seat: int) -> float:
    """How good the (sampled, whole) position is for ``seat``: the game's end, else material (the unit
    values of the heuristic), the Missile ships a side needs while the enemy exits stand (and whether
    enemy ships could attack the last one), the open enemy exits and how near the Landing ship is to one
    and out of the enemy's reach."""
    s = game.state
    if s["phase"] == "over":
        winners = s["winners"]
        return WIN if winners == [seat] else (-DRAW if not winners else -WIN)
    b = board()
    occ = game._occ()
    count: dict[int, Counter[str]] = {0: Counter(), 1: Counter()}
    landing_at: dict[int, int] = {}
    for u in s["units"]:
        if not u["dead"]:
            count[u["o"]][u["t"]] += 1
            if u["t"] == "landing":
                landing_at[u["o"]] = u["sq"]
    total = 0.0
    for p in (0, 1):
        c = count[p]
        value: float = sum(ai.VALUE[t] * n for t, n in c.items())
        open_exits = [e for e in b.entrances[1 - p] if game._entrance_open(e, occ)]
        if not open_exits:
            # without a Missile ship while both enemy exits are guarded, a side has lost: the last one
            # must not stand where an enemy ship could attack it
            value += SAFETY[min(c["missile"], 2)]
            if c["missile"] == 1:
                at = next(
                    u["sq"] for u in s["units"] if u["o"] == p and u["t"] == "missile" and not u["dead"]
                )
                value -= LAST_MISSILE_EXPOSED * _attackers(game, b, p, at, occ, MISSILE_HUNTERS)
        else:
            # an open exit: that loss can no longer happen, and the Landing ship has a way in
            value += SAFETY[2] + 200
            if p in landing_at:
                value += _landing_value(game, b, p, landing_at[p], open_exits, occ)
        total += value if p == seat else -value
    return total


def _landing_value(
    game: Fleet, b: Board, p: int, at: int, open_exits: list[int], occ: dict[int, int]
) -> float:
    """Side p's Landing ship on ``at`` while an enemy exit is open: each step nearer the exit is worth
    :func:`.landing.gain` (more than a ship won: a way open is taken), each enemy ship of the sample that
    could attack it next turn costs :data:`.landing.EXPOSED`, and each one closing in on it as much."""
    gain = landing.gain(ai._bfs(b, open_exits, landing.NEUTRAL_COST)[at])
    return gain - landing.EXPOSED * (
        _attackers(game, b, p, at, occ, ai.SHIPS) + _closing(game, b, p, at, occ)
    )


def _closing(game: Fleet, b: Board, p: int, at: int, occ: dict[int, int]) -> int:
    """How many enemy ships of the sample are within one turn's rough reach (2r fields, blockers
    ignored) of side p's Landing ship on ``at``, out in the open: the ranking's lane counts them too
    (:class:`.landing.Lane`); none in the neutral waters or at home behind guarded exits."""
    if at in b.neutral or _sheltered(game, b, p, at, occ):
        return 0
    return sum(
        1
        for u in game.state["units"]
        if not u["dead"]
        and u["o"] != p
        and u["sq"] >= 0
        and u["t"] in MISSILE_HUNTERS
        and landing.sea_steps(b, u["sq"], at) <= 2 * b.range_of(u["t"], game.options)
    )


def _sheltered(game: Fleet, b: Board, p: int, at: int, occ: dict[int, int]) -> bool:
    """Whether ``at`` is in side p's port while every exit of it is guarded: no enemy ship reaches it."""
    return b.port_of[at] == p and not any(game._entrance_open(e, occ) for e in b.entrances[p])


def _attackers(game: Fleet, b: Board, p: int, at: int, occ: dict[int, int], kinds: tuple[str, ...]) -> int:
    """How many enemy ships of ``kinds`` in the sample could attack side p's unit on ``at`` next turn
    (exact reach on the board, :mod:`.threats`); none at home behind guarded exits."""
    if _sheltered(game, b, p, at, occ):
        return 0
    units = game.state["units"]
    sea = threats.Sea(
        b,
        occ,
        [e for side in (0, 1) for e in b.entrances[side] if game._entrance_open(e, occ)],
        {side: game._danger(side, occ) for side in (0, 1)},
        bool(game.options.get("harder-attack")),
    )
    return sum(
        1
        for u in units
        if not u["dead"]
        and u["o"] != p
        and u["sq"] >= 0
        and u["t"] in kinds
        and sea.attacks(u["sq"], u["o"], b.range_of(u["t"], game.options), u["t"] == "missile", at)
    )


# every ship but the Landing ship beats a Missile ship (another Missile ship takes it along)
MISSILE_HUNTERS = tuple(t for t in ai.SHIPS if t != "landing")
