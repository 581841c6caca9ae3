"""The Everrain AI at levels normal and hard: flat Monte Carlo planning over the dice (issue 22).

A crew member's candidate orders (the crewmate's choice, ending the turn, each Navigation step, each
shot, each Explore, the Omen choice, each enemy to activate next, crewing a gun, a navigation node or
the Crow's nest) are each tried in determinizations of the view (:meth:`EverrainGame.resample`: the
unseen enemy deck shuffled, fresh dice), then played on by the race-aware crewmate (:func:`ai.crewmate`)
for every captain and every enemy activation to the start of the next round, and scored
by :func:`race`: the Discovery track against the Enemy Discovery track. All candidates share each
determinization and its dice (common random numbers); another order replaces the crewmate's choice
only when it beats it by more than MARGIN on average and by CLEAR standard errors (a paired test).
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

from bot.games.ai import Budget, Stopwatch
from bot.games.everrain import ai
from bot.games.everrain import board as B
from bot.games.everrain.board import distance, unkey

WIN, LOSS = 10.0, -10.0
MAX_CANDIDATES = 9
ROLLOUT_STEPS = 400  # a rollout's most actions (a round of four captains is far fewer)
RESERVE = 0.1  # the share of a timed budget left unspent (the p99 must stay within it)
ROUNDS_AHEAD = 1  # rollouts run to the start of this many rounds on (the next enemy phase included)
MARGIN = 0.1  # another order must beat the crewmate's choice by this much on average to be taken
CLEAR = 3.0  # ... and by this many standard errors of that average (a paired test)
MIN_SAMPLES = 30  # ... over at least this many samples (fewer: the crewmate's choice stands)
REENTRY = 3  # hexes race() counts for clues held in a port (out, turn about, back in)
# The order types the planner may put in place of the crewmate's choice in a crew: those shown to help at
# the real budget. None so far: in every round measured its overrides won no more games than the crewmate
# alone (third round, hard at its real budget: 31 of 37 lone-captain games against the crewmate's 33 on
# the same seeds; bench/RESULTS.md), so a crew's normal and hard play the crewmate's choice, and a hard AI
# is never weaker than its own policy. Add a type here only with a bench that shows it.
OVERRIDES: frozenset[str] = frozenset()
# ... and for a lone captain: every order type. Fourth round, hard at its real budget on three lone-captain
# lines, with this round's crewmate in its rollouts: 122 of 140 games against its crewmate's 109 on the same
# seeds (20 won that the crewmate lost, 7 the reverse; bench/RESULTS.md, "Fourth round"). Both levels run
# the same clear-gain test; normal, with a fifth of hard's time, reaches MIN_SAMPLES samples less often.
LONE_OVERRIDES: frozenset[str] = frozenset({"nav", "fire", "explore", "crew", "end_turn", "omen", "activate"})


def overrides(view: dict) -> frozenset[str]:
    """The order types the planner may take in place of the crewmate's choice for this view's crew."""
    return LONE_OVERRIDES if int(view["players"]) == 1 else OVERRIDES


def race(game) -> float:
    """How well the crews stand in the race of the two tracks (higher is better for the crews): the
    Discovery done, and carried (the nearer a port, the more it counts), against the Enemy Discovery
    steps left; then the ships' health, the enemies' health (each point a Banishment could add to the
    Agenda) and how near an empty-handed ship is to a clue site."""
    st = game.state
    if st["result"] is not None:
        return WIN if st["result"]["winners"] else LOSS
    rules = B.rules()
    end = rules["discovery_end"][game.options["length"]]
    m = game.map
    sites = [unkey(k) for k, n in st["sites"].items() if n > 0]
    found = float(st["discovery"])
    near = 0.0
    for s in st["ships"]:
        at = (s["q"], s["r"])
        if s["clues"]:
            # clues count on entering a port: a ship holding them in one must leave and come back in
            port = min(distance(at, p) for p in m.ports) or REENTRY
            found += s["clues"] * (0.9 - 0.04 * min(port, 10))
        elif sites:
            near += 0.1 * (1 - min(min(distance(at, h) for h in sites), 10) / 10)
    total = game.enemy_discovery_end() * rules["agenda_length"]
    spent = st["enemy_discovery"] * rules["agenda_length"] + st["agenda"]
    clock = (total - spent) / total
    health = sum(s["destroyed"].count(False) for s in st["ships"]) / (10 * len(st["ships"]))
    threat = sum(e["health"] for e in st["enemies"] if e["dest"]) / 20
    return 3.0 * found / end + 2.0 * clock + 0.5 * health - 0.5 * threat + near / len(st["ships"])


def candidates(view: dict, legal: list[dict], rng: random.Random) -> list[dict]:
    """The crewmate's choice first, then the orders worth comparing with it (at most MAX_CANDIDATES)."""
    first = ai.crewmate(view, legal, random.Random(rng.random()))
    out = [first]
    board = view.get("board", [])
    useful = {"navigation", "artillery", "crows_nest"}
    for a in legal:
        if a in out:
            continue
        if a["type"] == "crew" and board[a["to"]]["kind"] not in useful:
            continue
        out.append(a)
    if len(out) > MAX_CANDIDATES:
        head, rest = out[:1], out[1:]
        rank = {"fire": 0, "explore": 1, "end_turn": 2, "nav": 3, "activate": 3, "omen": 3, "crew": 4}
        rest.sort(key=lambda a: rank.get(a["type"], 5))
        out = head + rest[: MAX_CANDIDATES - 1]
    return out


class _Out(Exception):
    """The clock ran out in the middle of a sample."""


def rollout(game, horizon_round: int, rng: random.Random, watch: Stopwatch | None = None) -> float:
    """Play the race-aware crewmate for everybody until the game ends or round ``horizon_round``
    begins; with ``watch`` (a timed budget), give up (:class:`_Out`) when its reserve is reached."""
    for _ in range(ROLLOUT_STEPS):
        st = game.state
        if st["result"] is not None or st["round"] >= horizon_round:
            break
        if watch is not None and watch.left() <= watch.budget.seconds * RESERVE:
            raise _Out
        seat = game.to_act()[0]
        legal = game.legal_actions(seat)
        # the crewmate picks from the legal actions: skip apply's legality check and snapshot (a
        # rollout's game is thrown away)
        game._apply(seat, ai.crewmate(game.view(seat), legal, rng))
    return race(game)


def plan(situation, budget: Budget, rng: random.Random, resample: Callable) -> dict:
    """The candidate order that beats the crewmate's choice by the most over the rollouts the budget
    allows (clearly: :func:`clear_gain`), else the crewmate's choice. Every candidate is played in
    the same determinizations with the same rollout dice (common random numbers), so the comparison
    measures the order, not the luck of the sample. ``resample`` is the game's
    (:meth:`EverrainGame.resample`)."""
    view, legal, seat = situation.view, situation.legal, situation.seat
    options = candidates(view, legal, rng)
    allowed = overrides(view)
    options = options[:1] + [a for a in options[1:] if a["type"] in allowed]
    if len(options) == 1:
        return options[0]  # nothing the planner may choose instead: the crewmate's choice, at once
    horizon = int(view["round"]) + ROUNDS_AHEAD + (1 if view["phase"] == "enemy" else 0)
    gains = [0.0] * len(options)  # summed over the samples: value of candidate k - value of the choice
    squares = [0.0] * len(options)  # and their squares (how much the gain varies between samples)
    samples = done = 0
    watch = budget.start()
    timed = budget.iterations is None
    per_sample = 0.0
    while samples == 0 or (watch.more(done) and (not timed or watch.left() > per_sample)):
        began = watch.left()
        seed = rng.getrandbits(64)
        values = []
        try:
            for option in options:
                game = resample(view, seat, random.Random(seed))
                game.apply(seat, option)
                values.append(rollout(game, horizon, random.Random(seed + 1), watch if timed else None))
                done += 1
        except _Out:
            break  # out of time in the middle of a sample: it does not count
        gains = [g + v - values[0] for g, v in zip(gains, values, strict=True)]
        squares = [q + (v - values[0]) ** 2 for q, v in zip(squares, values, strict=True)]
        samples += 1
        per_sample = max(per_sample, began - watch.left())  # a sample must fit in the time left
        if settled(gains, squares, samples):
            break  # the choice is clear already: the rest of the budget would not change it
    if not samples:
        return options[0]  # not one whole sample in the time: the crewmate's choice
    best = max(range(len(options)), key=lambda k: (gains[k], -k))
    return options[best] if clear_gain(gains[best], squares[best], samples) else options[0]


def settled(gains: list[float], squares: list[float], n: int) -> bool:
    """Whether the choice is already clear after ``n`` paired samples (MIN_SAMPLES or more), so that
    the planner stops early (the player waits less, and the budget is not spent for nothing): either
    the best candidate is a clear gain over the crewmate's choice, or none is within reach of one (every
    candidate's mean gain plus CLEAR standard errors stays below MARGIN)."""
    if n < MIN_SAMPLES:
        return False
    best = max(range(len(gains)), key=lambda k: (gains[k], -k))
    if best and clear_gain(gains[best], squares[best], n):
        return True
    return all(g / n + CLEAR * _error(g, q, n) < MARGIN for g, q in zip(gains[1:], squares[1:], strict=True))


def _error(total: float, squares: float, n: int) -> float:
    """The standard error of the mean of ``n`` values summed to ``total`` (their squares to ``squares``)."""
    mean = total / n
    return math.sqrt(max(0.0, (squares - n * mean * mean) / (n - 1)) / n)


def clear_gain(total: float, squares: float, n: int) -> bool:
    """Whether a candidate's gain over the crewmate's choice, summed (``total``, and its ``squares``)
    over ``n`` paired samples, is worth taking: more than MARGIN on average and CLEAR standard errors
    above nothing, over MIN_SAMPLES samples or more. A few samples decide nothing (the crewmate's choice
    stands): with 3 and 10 samples the rollouts' short-sighted score led the planner astray more often
    than not (bench/RESULTS.md); normal's 200 ms give about 12, hard's second about 60."""
    mean = total / n
    if n < MIN_SAMPLES or mean <= MARGIN:
        return False  # a few samples tell little of the gain's spread
    return mean > CLEAR * _error(total, squares, n)
