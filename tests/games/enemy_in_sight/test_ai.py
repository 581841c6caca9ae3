"""The AI of Enemy in Sight (issue 22): resample gives back the seat's view, the search decides from the
view alone at every level, boarding answers are mixed (bluffs at times), and AI games end."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from bench.baselines.enemy_in_sight_today import today
from bot.games.ai import Budget
from bot.games.enemy_in_sight import ai, data, search
from tests.games.enemy_in_sight.helpers import SPEC, check_invariants, fresh, give, hit, place

CAP = Budget(seconds=1.0, iterations=6)  # a small iteration cap: repeatable and fast


def _walk(players: int, variant: str, seed: int, steps: int):
    """A seeded game after ``steps`` moves of the easy AI (mostly) and random moves."""
    g = SPEC.new(players, {"variant": variant}, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if g.is_over:
            break
        seats = g.to_act()
        seat = seats[rng.randrange(len(seats))]
        g.apply(seat, g.ai_action(seat, rng) if rng.random() < 0.7 else rng.choice(g.legal_actions(seat)))
    return g


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=hs.integers(2, 6),
    variant=hs.sampled_from(["base", "advanced"]),
    seed=hs.integers(0, 10_000),
    steps=hs.integers(0, 400),
    sample_seed=hs.integers(0, 2**31),
)
def test_resample_gives_back_the_view_of_every_seat(players, variant, seed, steps, sample_seed):
    g = _walk(players, variant, seed, steps)
    cls = type(g)
    for seat in range(players):
        view = g.view(seat)
        world = cls.resample(view, seat, random.Random(sample_seed))
        assert world.view(seat) == view
        assert sorted(world.state["cards"].values()) == list(range(len(data.card_list())))
        assert len(world.state["ships"]) == len(data.ship_list())
        if variant == "base":
            check_invariants(world)


def test_resample_along_whole_playouts_gives_back_the_view_and_plays_on():
    for variant, players, seed in (("base", 5, 2), ("advanced", 3, 3)):
        g = SPEC.new(players, {"variant": variant}, seed)
        rng = random.Random(seed)
        while not g.is_over:
            seat = g.to_act()[0]
            view = g.view(seat)
            world = type(g).resample(view, seat, random.Random(len(g.state["log"])))
            assert world.view(seat) == view
            assert world.legal_actions(seat) == g.legal_actions(seat)
            g.apply(seat, g.ai_action(seat, rng))


def test_resample_deals_what_the_view_hides_differently():
    g = _walk(4, "base", 7, 60)
    seat = g.to_act()[0]
    view = g.view(seat)
    worlds = [type(g).resample(view, seat, random.Random(k)) for k in range(8)]

    def names(w, ids):
        return tuple(sorted(data.card_list()[w.state["cards"][c]]["name"] for c in ids))

    other = (seat + 1) % 4
    assert len({names(w, w.state["hands"][other]) for w in worlds}) > 1
    assert len({names(w, w.state["deck"][:5]) for w in worlds}) > 1
    assert len({tuple(w.ship(s)["name"] for s in w.state["ship_deck"][1:4]) for w in worlds}) > 1
    assert {names(w, w.state["hands"][seat]) for w in worlds} == {names(g, g.state["hands"][seat])}
    assert all(w.rng.getstate() != g.rng.getstate() for w in worlds)  # no die to come is known


def test_resample_deals_the_others_secret_advanced_arrangements():
    g = SPEC.new(3, {"variant": "advanced"}, 5)
    assert g.state["phase"] == "arrange"
    view = g.view(0)
    worlds = [type(g).resample(view, 0, random.Random(k)) for k in range(8)]
    assert all(w.view(0) == view for w in worlds)
    assert len({tuple(w.ship(s)["name"] for s in w.state["arrange"][1]["line"]) for w in worlds}) > 1
    assert {tuple(w.state["arrange"][0]["line"]) for w in worlds} == {tuple(g.state["arrange"][0]["line"])}


def _scramble(g, seat: int, seed: int) -> None:
    """Deal everything ``seat`` cannot see anew: the other hands and the deck."""
    st = g.state
    pool = st["deck"] + [c for p in range(g.players) if p != seat for c in st["hands"][p]]
    random.Random(seed).shuffle(pool)
    for p in range(g.players):
        if p != seat:
            k = len(st["hands"][p])
            st["hands"][p], pool = pool[:k], pool[k:]
    st["deck"] = pool


def test_search_does_not_peek_at_every_level():
    checked = 0
    for seed in range(8):
        g = _walk(2 + seed % 3, "base" if seed % 2 else "advanced", seed, 30 + 7 * seed)
        if g.is_over or g.state["phase"] in ("boarding", "arrange", "revise"):
            continue
        seat = g.to_act()[0]
        for level in ("easy", "normal", "hard"):
            first = g.ai_action(seat, random.Random(seed), level, CAP)
            other = type(g).from_json(g.to_json())
            _scramble(other, seat, seed)
            assert other.state["hands"] != g.state["hands"] or g.players == 1
            assert other.ai_action(seat, random.Random(seed), level, CAP) == first
            checked += 1
    assert checked >= 9


def _boarding_positions():
    """Boarding positions from seeded easy-AI games where the seat to choose holds a card that hits."""
    found = []
    for seed in range(60):
        g = SPEC.new(2 + seed % 3, {}, 500 + seed)
        rng = random.Random(seed)
        while not g.is_over and len(found) < 12:
            seat = g.to_act()[0]
            if g.state["phase"] == "boarding":
                b = g.state["boarding"]
                ship = b["boarder"] if seat == b["att"] else b["target"]
                if any(g._card_hits(c, ship) for c in g.state["hands"][seat]):
                    found.append((type(g).from_json(g.to_json()), seat, ship))
            g.apply(seat, g.ai_action(seat, rng))
        if len(found) >= 12:
            break
    return found


def test_boarding_bluffs_sometimes_and_not_always():
    choices = Counter()
    positions = _boarding_positions()
    assert len(positions) >= 6
    for g, seat, ship in positions:
        for k in range(10):
            a = g.ai_action(seat, random.Random(k), "normal", CAP)
            assert a in g.legal_actions(seat)
            choices["hit" if a["card"] and g._card_hits(a["card"], ship) else "bluff"] += 1
    assert choices["bluff"] > 0 and choices["hit"] > 0
    assert choices["hit"] > choices["bluff"]  # a bluff is the exception


def test_boarding_answer_weighs_odds_against_the_card_spent():
    # a mighty card is not thrown away on a boarding whose odds one hit barely changes...
    assert search.card_cost({"type": "broadside", "damage": 3, "rate": 1}) > search.card_cost(None)
    # ...and a card of no use is shown for free (it leaves a place in hand for a fresh draw)
    assert search.card_cost({"type": "blockade"}) < 0
    assert search._odds(4) == (1.0, 0.0) and search._odds(-4) == (0.0, 5 / 6)


def _capture_position(wreck: bool, scores: tuple[int, int]):
    g = fresh(2)
    a = place(g, 0, "Victory")
    place(g, 0, "Bahama")
    t = place(g, 1, "Orient")
    place(g, 1, "Redoutable")
    hit(g, t, "rig", 8)  # dismasted (a 1st rate: Hull 12, Rigging 8)
    if wreck:
        hit(g, t, "hull", 10)
    bp = give(g, 0, "boarding")
    for _ in range(3):
        give(g, 0, "repair")
    g.state["scores"] = list(scores)
    g.apply(0, {"type": "play", "card": bp, "ship": a, "target": t})
    g.rng.d = lambda sides=6: 6  # the boarding succeeds
    g.apply(0, {"type": "secret", "card": None})
    g.apply(1, {"type": "secret", "card": None})
    assert g.state["phase"] == "capture"
    return g


def test_capture_goes_to_line_or_prize_by_value(monkeypatch):
    # near the end a whole prize is VP now (and double if brought into Port): a Prize
    late_and_whole = _capture_position(wreck=False, scores=(90, 85))
    assert late_and_whole.ai_action(0, random.Random(1), "hard", Budget(1.0, 20))["where"] == "prize"
    # the choice is the evaluation's, not a fixed rule: where Line ships are worth more, the Line
    real = search.evaluate

    def ships_first(game, me):
        return real(game, me) + 100 * len(game.state["lines"][me])

    monkeypatch.setattr(search, "evaluate", ships_first)
    early = _capture_position(wreck=True, scores=(0, 0))
    assert early.ai_action(0, random.Random(1), "hard", Budget(1.0, 20))["where"] == "line"


def test_search_changes_the_advanced_line_at_times():
    """Revising the Line once the others' are seen, or a transfer between Line and Reserve."""
    changes = 0
    for seed in range(2, 8):
        g = SPEC.new(2, {"variant": "advanced"}, seed)
        rng = random.Random(seed)
        while not g.is_over and g.state["round"] < 2 and not changes:
            seat = g.to_act()[0]
            a = g.ai_action(seat, rng, "normal", Budget(1.0, 4)) if seat == 0 else g.ai_action(seat, rng)
            changes += a["type"] in ("transfer", "relocate", "to_line")
            g.apply(seat, a)
        if changes:
            break
    assert changes


def test_ai_games_end_at_every_level():
    for variant, levels in (("base", ("hard", "easy")), ("advanced", ("easy", "normal"))):
        g = SPEC.new(2, {"variant": variant}, 9)
        rng = random.Random(9)
        steps = 0
        while not g.is_over:
            seat = g.to_act()[0]
            g.apply(seat, g.ai_action(seat, rng, levels[seat], Budget(1.0, 2)))
            steps += 1
            assert steps < 5000, "the game stalls"


def test_resample_shares_nothing_with_the_view():
    g = _walk(3, "base", 4, 50)
    seat = g.to_act()[0]
    view = g.view(seat)
    before = repr(view)
    world = type(g).resample(view, seat, random.Random(0))
    rng = random.Random(0)
    for _ in range(30):
        if world.is_over:
            break
        s = world.to_act()[0]
        world.apply(s, world.ai_action(s, rng))
    assert repr(view) == before


def test_today_weights_play_the_heuristic_as_it_was_before_issue_22():
    """``ai.TODAY`` (the easy level's heuristic) chooses as the frozen copy of today's AI the bench plays
    against (bench/baselines/enemy_in_sight_today.py): same move, same use of the generator."""
    moves = 0
    for players, seed in ((2, 1), (4, 2)):
        g = SPEC.new(players, {}, seed)
        while not g.is_over and moves < 1500:
            seat = g.to_act()[0]
            view, legal = g.view(seat), g.legal_actions(seat)
            a = ai.choose(view, legal, random.Random(moves), ai.TODAY)
            assert a == today(view, legal, seat, random.Random(moves))
            g.apply(seat, a)
            moves += 1
    assert moves > 300


def test_a_shift_between_line_and_reserve_needs_a_wide_margin():
    """The search overrules the heuristic for an ordinary move on a steady lead of 2 VP, but not for a
    transfer or relocation (short rollouts see a turn spent better than a Line improved)."""
    heuristic = {"type": "play", "card": "C1", "ship": "S1"}
    lead = [[0.0, 1.0, 2.0, 0.5] * 5, [2.0, 3.0, 4.0, 2.5] * 5]  # +2 VP on every deal
    assert search._best([heuristic, {"type": "discard", "card": "C2"}], lead) != heuristic
    for shift in ({"type": "transfer", "ship": "S2", "station": 1}, {"type": "relocate", "ship": "S2"}):
        assert search._best([heuristic, shift], lead) == heuristic
        wide = [lead[0], [x + 3 for x in lead[1]]]  # +5 VP
        assert search._best([heuristic, shift], wide) == shift
