"""The Everrain AI at levels normal and hard: flat Monte Carlo planning over the dice (issue 22).

A crew member's candidate orders (today's choice, ending the turn, each Navigation step, each shot,
each Explore, crewing a working gun or navigation node) are each tried in many determinizations of
the view (:meth:`EverrainGame.resample`: the unseen enemy deck shuffled, fresh dice), then played on
by today's heuristic for every captain and every enemy activation until the end of the next enemy
phase, and scored by :func:`race`: the Discovery track against the Enemy Discovery track. Candidates
share the rollouts by UCB1, so the promising ones get most; the one with the best mean wins. In the
enemy phase (which enemy activates next) the same rollouts compare the activation orders.
"""

from __future__ import annotations

import math
import random

from bot.games.ai import Budget
from bot.games.everrain import ai
from bot.games.everrain import board as B
from bot.games.everrain.board import distance, unkey

WIN, LOSS = 10.0, -10.0
MAX_CANDIDATES = 9
ROUNDS_AHEAD = 1  # rollouts run to the start of this many rounds on (the next enemy phase included)
MARGIN = 0.05  # another order must beat today's choice by this much on average to be taken
EXPLORE = 1.5  # UCB1 exploration constant (values span a few units)


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
            port = min(distance(at, p) for p in m.ports)
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
    """Today's choice first, then the orders worth comparing with it (at most MAX_CANDIDATES)."""
    first = ai.choose(view, legal, random.Random(rng.random()), race=True)
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


def rollout(game, horizon_round: int, rng: random.Random, limit: int = 400) -> float:
    """Play today's heuristic for everybody until the game ends or round ``horizon_round`` begins."""
    for _ in range(limit):
        st = game.state
        if st["result"] is not None or st["round"] >= horizon_round:
            break
        seat = game.to_act()[0]
        legal = game.legal_actions(seat)
        game.apply(seat, ai.choose(game.view(seat), legal, rng, race=True))
    return race(game)


def plan(situation, budget: Budget, rng: random.Random) -> dict:
    """The candidate order with the best mean race value over the rollouts the budget allows."""
    from bot.games.everrain.game import EverrainGame

    view, legal, seat = situation.view, situation.legal, situation.seat
    options = candidates(view, legal, rng)
    if len(options) == 1:
        return options[0]
    horizon = int(view["round"]) + ROUNDS_AHEAD + (1 if view["phase"] == "enemy" else 0)
    totals = [0.0] * len(options)
    counts = [0] * len(options)
    watch = budget.start()
    done = 0
    while watch.more(done) or done < len(options):
        if done < len(options):
            k = done  # every candidate once first
        else:
            log_n = math.log(done)
            k = max(
                range(len(options)),
                key=lambda i: totals[i] / counts[i] + EXPLORE * math.sqrt(log_n / counts[i]),
            )
        game = EverrainGame.resample(view, seat, rng)
        game.apply(seat, options[k])
        totals[k] += rollout(game, horizon, rng)
        counts[k] += 1
        done += 1
    means = [totals[i] / counts[i] for i in range(len(options))]
    best = max(range(len(options)), key=lambda i: (means[i] - (0 if i == 0 else MARGIN), -i))
    return options[best]
