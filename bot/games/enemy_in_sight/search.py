"""The normal and hard AI of Enemy in Sight: determinized Monte Carlo search over the seat's view.

Each iteration deals one determinization of what the seat cannot see (:mod:`.sample`: the others' hands,
both decks, their secret boarding card or Line) and plays every candidate move in it, each followed by
the same seeded rollout of today's heuristic (:func:`.ai.choose`, for every seat) for a few turns, then
scores the position (:func:`evaluate`). Playing all candidates on the same deal and the same dice (common
random numbers) compares them pair by pair, so a few dozen iterations already tell them apart. This is
the determinized flat search of Cowling, Powley and Whitehouse (2012) at the root: a decision is taken
from the information set alone (every sample agrees with the view), and the others' secret choices are
dealt, never read.

Candidates: the heuristic's best few moves and the best of every other kind of move (so that an
Additional Ship sent to Port, a capture kept in the Line, a transfer between Line and Reserve or a
relocation of the largest ship are weighed against the usual choice). The heuristic's own choice stands
unless another beats it on the same deals by a margin (:func:`_best`): the search departs from it only
on evidence, not on the noise of a few rollouts.

Boarding choices are a simultaneous secret game and are answered apart (:func:`boarding_choice`): the
odds of each card against the other side's likely cards (dealt from the samples), the cost of the card
spent, and a mixed strategy over the near-best answers, so the AI bluffs (shows a card that counts
nothing, or none) at times and not always.
"""

from __future__ import annotations

import math
import random
from typing import Any

from bot.games.ai import Budget, Situation, Stopwatch
from bot.games.base import Game, IllegalAction
from bot.games.enemy_in_sight import ai, data

PRIOR = 0.6  # VP of evaluation the heuristic's own choice is given ahead of the others
SHIFT_PRIOR = 3.0  # and ahead of moving a ship between Line and Reserve (Advanced): only a wide margin
SHIFTS = ("transfer", "relocate", "to_line", "station")  # those moves
BLUFF_TEMPERATURE = 0.8  # VP: how close two boarding answers must be to be mixed
CONFIDENCE = 1.0  # standard errors of the paired difference a move must win by to overrule the heuristic
SAFETY = 1.5  # the search stops when less time is left than this many of its slowest rollouts
MARGIN = 0.05  # and this share of the budget


def think(cls: type[Game], situation: Situation, level: str, budget: Budget, rng: random.Random) -> dict:
    watch = budget.start()  # the whole think counts, the choice of candidates included
    view, legal = situation.view, situation.legal
    if view["phase"] == "boarding":
        return boarding_choice(cls, view, legal, watch, rng)
    if view["phase"] == "arrange":
        # 4.4: the six ships come dealt in a random order, which the others cannot read: the heuristic
        # (one frigate to the Reserve, submit) keeps it; the Line is revised when the others are seen.
        return ai.choose(view, legal, rng)
    ranked = ai.rank(view, legal, rng)
    candidates = _candidates(view, ranked, rng, 6 if level == "hard" else 4)
    if len(candidates) == 1:
        return candidates[0]
    return _search(cls, situation, candidates, watch, rng)


# ------------------------------------------------------------------ candidates
def _kind(a: dict, hand: dict) -> tuple:
    """What sort of move ``a`` is: its type, the card's kind and where a ship goes."""
    card = hand.get(a.get("card")) if isinstance(a.get("card"), str) else None
    return (a["type"], card["type"] if card else None, a.get("where"), "station" in a)


def _candidates(view: dict, ranked: list[tuple[float, dict]], rng: random.Random, top: int) -> list[dict]:
    hand = {c["id"]: c for c in view.get("hand", [])}
    chosen: list[dict] = []
    kinds: set[tuple] = set()
    for i, (value, a) in enumerate(ranked):
        kind = _kind(a, hand)
        if a["type"] == "cancel" or value <= -100:
            continue
        if i < top or kind not in kinds:
            chosen.append(a)
            kinds.add(kind)
    if not chosen:
        chosen = [ranked[0][1]]
    return [ai.resolve(view, a, rng) for a in chosen]


# ------------------------------------------------------------------ search
def _search(
    cls: type[Game], situation: Situation, candidates: list[dict], watch: Stopwatch, rng: random.Random
) -> dict:
    view, seat = situation.view, situation.seat
    # results[i][k]: candidate i in the k-th deal (every candidate meets the same deal and dice)
    results: list[list[float]] = [[] for _ in candidates]
    horizon = 8 * view["players"] + 8
    done = 0  # rollouts (an iteration cap counts them)
    slowest = 0.0  # the longest rollout so far: the search stops when another might not fit
    timed = watch.budget.iterations is None
    margin = MARGIN * watch.budget.seconds  # for the answer's way back and a busy machine
    while watch.more(done):
        world = cls.resample(view, seat, rng)
        seed = rng.getrandbits(32)
        for i, a in enumerate(candidates):
            if done and (not watch.more(done) or (timed and watch.left() < SAFETY * slowest + margin)):
                return _best(candidates, results)
            started = watch.clock()
            game = world.copy()
            done += 1
            try:
                game.apply(seat, a)
            except IllegalAction:  # not a move of this sample (cannot happen: the view decides)
                results[i].append(-1000.0)
                continue
            results[i].append(_rollout(game, seat, random.Random(seed), horizon))
            slowest = max(slowest, watch.clock() - started)
    return _best(candidates, results)


def _best(candidates: list[dict], results: list[list[float]]) -> dict:
    """The heuristic's own choice (the first candidate) unless another beats it on the same deals by
    more than :data:`PRIOR` and :data:`CONFIDENCE` standard errors of the paired differences: a few
    noisy rollouts do not overrule the heuristic, a clear margin does. Moving a ship between Line and
    Reserve the heuristic did not choose needs :data:`SHIFT_PRIOR`: short rollouts see its cost (a
    turn spent) better than its gain, and the first round's search lost Advanced games by them."""
    base = results[0]
    best, best_margin = 0, 0.0
    for i in range(1, len(candidates)):
        k = min(len(results[i]), len(base))
        if k < 2:
            continue
        diffs = [results[i][j] - base[j] for j in range(k)]
        mean = sum(diffs) / k
        spread = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (k - 1) / k)
        lead = SHIFT_PRIOR if candidates[i]["type"] in SHIFTS else PRIOR
        margin = mean - lead - CONFIDENCE * spread
        if margin > best_margin:
            best, best_margin = i, margin
    return candidates[best]


def _rollout(game: Any, me: int, rng: random.Random, horizon: int) -> float:
    """Today's heuristic plays every seat for ``horizon`` moves or to the end of the round."""
    round_no = game.state["round"]
    for _ in range(horizon):
        if game.is_over or game.state["round"] != round_no:
            break
        seat = game.to_act()[0]
        legal = game.legal_actions(seat)
        action = ai.choose(game.policy_view(seat), legal, rng)
        try:
            game._apply(seat, action)  # a legal action of the sample: the checks of apply are not needed
        except IllegalAction:
            break
    return evaluate(game, me)


def evaluate(game: Any, me: int) -> float:
    """The seat's standing in VP: its score and what it will score, its fleet as an asset for the rounds
    to come (worth less as the end nears), against the leader and the table."""
    st = game.state
    n = game.players
    if game.is_over:
        winners = st["result"]["winners"]
        return 200.0 / len(winners) if me in winners else -200.0
    top = max(st["scores"])
    target = game.H["target_vp"]
    future = max(0.2, (target - top) / target)
    worth = []
    for p in range(n):
        v = float(st["scores"][p])
        v += sum(game.ship(s)["hull"] + game.ship(s)["rig"] for s in st["sunk"][p])
        for sid in st["prizes"][p]:
            s = game.ship(sid)
            v += max(0, game.left(s, "hull")) + max(0, game.left(s, "rig"))
        fleet = 0.0
        for sid in game.line(p) + st["ports"][p] + (st["reserves"][p] if game.adv else []):
            s = game.ship(sid)
            if s["where"] == "prize":
                continue
            # a ship is worth what she is now and (refitted between rounds) what she will be
            fleet += 0.3 * (s["hull"] + s["rig"] + max(0, game.left(s, "hull")) + max(0, game.left(s, "rig")))
        fleet += 3 * game.capacity(p) + 0.5 * len(st["hands"][p])
        if not st["lines"][p]:
            v -= game.H["no_line_penalty"]
        worth.append(v + future * fleet)
    others = [worth[p] for p in range(n) if p != me]
    return worth[me] - 0.5 * max(others) - 0.5 * sum(others) / len(others)


# ------------------------------------------------------------------ boarding: a secret simultaneous choice
CARD_WORTH = {
    "broadside": 1.0,  # plus its damage
    "rake": 1.5,
    "boarding": 3.0,
    "additional_ship": 3.0,
    "break_line": 3.0,
    "refuse_battle": 2.0,
    "repair": 1.5,
    "fire_ship": 2.0,
}
REDRAW = 1.6  # what the card drawn in place of one spent is worth on average


def card_cost(card: dict | None) -> float:
    """What showing ``card`` in a boarding costs: its worth in hand less that of the card drawn in its
    place (a card of little use is shown for free: a bluff that also clears the hand)."""
    if card is None:
        return 0.0
    worth = CARD_WORTH.get(card["type"], 1.0) + (card.get("damage", 0) if card["type"] == "broadside" else 0)
    return worth - REDRAW


def hits_of(card: dict | None, rate: int) -> int:
    """The hits a boarding card counts for a ship of ``rate`` (a Broadside the ship could fire, a Rake)."""
    if card is None:
        return 0
    if card["type"] == "rake" or (card["type"] == "broadside" and rate <= card["rate"]):
        return int(card["damage"])
    return 0


def _odds(diff: int) -> tuple[float, float]:
    """(capture, boarders lost) for the attacker, from a die plus the hit difference."""
    win = min(1.0, max(0.0, (2 + diff) / 6))  # die >= 5 - diff
    lose = min(1.0, max(0.0, (1 - diff) / 6))  # die <= 1 - diff
    return win, lose


def boarding_choice(
    cls: type[Game], view: dict, legal: list[dict], watch: Stopwatch, rng: random.Random
) -> dict:
    """A mixed answer to the boarding's secret choice: each answer's expected VP against the other side's
    likely answers (dealt from samples of its hand), and a softmax over them, so that a near-best bluff
    is shown at times."""
    me = view["seat"]
    b = view["boarding"]
    ships = ai._index(view)
    attacking = me == b["att"]
    mine, theirs = (b["boarder"], b["target"]) if attacking else (b["target"], b["boarder"])
    other = b["def"] if attacking else b["att"]
    gain = ships[b["target"]]["hull"] + ships[b["target"]]["rig"]  # the target as a prize or a ship
    loss = ships[b["boarder"]]["hull"] + ships[b["boarder"]]["rig"]
    hand = {c["id"]: c for c in view.get("hand", [])}
    rate = ships[mine]["rate"]
    # the other side's answers, from samples of its hand: its best card mostly, no card at times
    theirs_hits: list[tuple[int, float]] = []  # (hits, weight)
    done = 0
    limit = 24
    while done < limit and watch.more(done):
        world = cls.resample(view, me, rng)
        choice = world.state["boarding"]["choice"]
        if str(other) in choice:  # already chosen: dealt with the sample
            cid = choice[str(other)]
            card = data.card_list()[world.state["cards"][cid]] if cid else None
            theirs_hits.append((hits_of(card, ships[theirs]["rate"]), 1.0))
        else:
            best = 0
            for cid in world.state["hands"][other]:
                best = max(best, hits_of(data.card_list()[world.state["cards"][cid]], ships[theirs]["rate"]))
            theirs_hits += [(best, 0.75), (0, 0.25)]
        done += 1
    total = sum(w for _, w in theirs_hits) or 1.0
    values = []
    for a in legal:
        card = hand.get(a["card"]) if a["card"] else None
        h = hits_of(card, rate)
        ev = 0.0
        for oh, w in theirs_hits:
            diff = h - oh if attacking else oh - h
            win, lose = _odds(diff)
            payoff = win * gain - lose * loss  # to the attacker
            ev += w * (payoff if attacking else -payoff)
        values.append(ev / total - card_cost(card))
    top = max(values)
    weights = [math.exp((v - top) / BLUFF_TEMPERATURE) for v in values]
    return rng.choices(legal, weights)[0]
