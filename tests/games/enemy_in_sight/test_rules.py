"""Every rule of Enemy in Sight (base game), one test each, named after the rule."""

from __future__ import annotations

import pytest

from bot.games import IllegalAction
from tests.games.enemy_in_sight.helpers import (
    SPEC,
    fix_dice,
    fresh,
    give,
    hit,
    new,
    place,
    ship_id,
    to_top,
)


def first_of(g, seat, ctype):
    return next(c for c in g.state["hands"][seat] if g.card(c)["type"] == ctype)


def sh(g, name):
    return g.ship(ship_id(g, name))


def fire(g, seat, cid, firer, target, loc):
    g.apply(seat, {"type": "play", "card": cid, "ship": firer})
    return g.apply(seat, {"type": "shoot", "ship": target, "loc": loc})


# ------------------------------------------------------------------ setup
def test_setup_six_ships_and_six_cards():
    checked = 0
    for seed in range(12):
        g = new(4, seed)
        if g.state["turns"] != 1:  # a red card was auto-played: hands changed already
            continue
        checked += 1
        for p in range(4):
            ships = g.state["lines"][p] + g.state["ports"][p]
            assert len(ships) == 6
            assert len(g.state["hands"][p]) == 6
    assert checked >= 3


def test_first_dealer_by_dice():
    for seed in range(10):
        g = new(3, seed)
        rolls = g.state["dealer_rolls"]
        assert set(rolls[0]) == {"0", "1", "2"}
        for earlier in rolls[:-1]:  # ties among the highest roll again
            best = max(earlier.values())
            assert [k for k, v in earlier.items() if v == best] == sorted(rolls[rolls.index(earlier) + 1])
        last = rolls[-1]
        assert last[str(g.state["dealer"])] == max(last.values())
        assert list(last.values()).count(max(last.values())) == 1


def test_ship_pile_face_up():
    g = new(4, 3)
    v = g.view(None)
    top = g.ship(g.state["ship_deck"][0])
    assert v["ship_deck"]["top"]["name"] == top["name"]
    assert v["ship_deck"]["count"] == len(g.state["ship_deck"])
    text = str(v)
    assert all(sid not in text for sid in g.state["ship_deck"])


def test_line_left_to_right():
    g = fresh(2)
    a = place(g, 0, "Victory")
    b = place(g, 0, "Bahama")
    v = g.view(0)
    assert [s["id"] for s in v["fleets"][0]["line"]] == [a, b]


def test_hand_capacity_equals_line():
    g = fresh(2)
    for name in ("Victory", "Bahama", "Hermione"):
        place(g, 0, name)
    place(g, 0, "Santa Ana", "prize")
    assert g.capacity(0) == 3
    sh(g, "Bahama")["struck"] = True
    assert g.capacity(0) == 2


def test_hand_capacity_minimum_one():
    g = fresh(2)
    assert g.capacity(0) == 1
    place(g, 0, "Victory", "port")
    assert g.capacity(0) == 1


def test_draw_up_to_capacity():
    g = fresh(2)
    for name in ("Victory", "Bahama", "Hermione"):
        place(g, 0, name)
    place(g, 1, "Santa Ana")
    g.state["turn"] = 1
    g._begin_turn(0, [])
    assert len(g.state["hands"][0]) == 3


# ------------------------------------------------------------------ rounds
def test_dealer_plays_first_and_clockwise():
    g = fresh(3)
    for p in range(3):
        place(g, p, ["Victory", "Santa Ana", "Orient"][p])
    g.state["dealer"] = 1
    ev = []
    g._begin_turn(1, ev)
    assert g.state["turn"] == 1
    c = g.state["hands"][1][0]
    g.apply(1, {"type": "discard", "card": c})
    assert g.state["turn"] == 2
    g.apply(2, {"type": "discard", "card": g.state["hands"][2][0]})
    assert g.state["turn"] == 0


def test_round_ends_when_cannot_draw():
    g = fresh(2)
    place(g, 0, "Victory")
    place(g, 1, "Santa Ana")
    place(g, 1, "Bahama")
    st = g.state
    st["hands"][0] = [st["deck"].pop(0)]
    st["hands"][1] = []
    st["discard"] += st["deck"][1:]
    st["deck"] = st["deck"][:1]  # seat 1 needs 2 cards, the deck has 1
    events = g.apply(0, {"type": "discard", "card": st["hands"][0][0]})
    assert any(e["type"] == "deck_out" for e in events)
    assert st["round"] == 2


def test_round_scoring_and_dealer_passes():
    g = fresh(2)
    place(g, 0, "Victory")
    place(g, 1, "Santa Ana")
    sunk = place(g, 1, "Bahama")
    g._sink(sunk, 0, [], "sinks")
    st = g.state
    st["dealer"] = 0
    g._end_round([])
    assert st["scores"][0] == g.ship(sunk)["hull"] + g.ship(sunk)["rig"]
    assert st["dealer"] == 1
    assert st["sunk"][0] == []


def test_new_round_refit_and_reshuffle():
    g = fresh(2)
    a = place(g, 0, "Victory")
    place(g, 1, "Santa Ana")
    hit(g, a, "hull", 3)
    st = g.state
    total = len(st["cards"])
    g._end_round([])
    assert g.ship(a)["hits"] == []
    in_hands = sum(len(h) for h in st["hands"])
    assert len(st["deck"]) + in_hands == total
    assert st["discard"] == []
    assert len(st["hands"][0]) == 1 and len(st["hands"][1]) == 1


def test_new_round_reinforces_empty_line():
    g = fresh(2)
    place(g, 1, "Santa Ana")
    top = g.state["ship_deck"][0]
    g._end_round([])
    assert g.state["lines"][0] == [top]


def test_game_ends_at_100_vp():
    g = fresh(2)
    place(g, 0, "Victory")
    place(g, 1, "Santa Ana")
    g.state["scores"] = [95, 20]
    sunk = place(g, 1, "Bahama")
    g._sink(sunk, 0, [], "sinks")
    g._end_round([])
    assert g.is_over
    assert g.result["winners"] == [0]
    assert g.result["scores"]["0"] == 95 + g.ship(sunk)["hull"] + g.ship(sunk)["rig"]
    assert g.to_act() == []


def test_tie_at_100_shared_win():
    g = fresh(2)
    place(g, 0, "Victory")
    place(g, 1, "Santa Ana")
    g.state["scores"] = [104, 104]
    g._end_round([])
    assert g.is_over
    assert g.result["winners"] == [0, 1]


# ------------------------------------------------------------------ turn steps
def test_fire_damage_grows_each_turn():
    g = fresh(2)
    a = place(g, 0, "Victory")
    place(g, 1, "Santa Ana")
    cid = find = give(g, 1, "fire")
    g.state["hands"][1].remove(find)
    g.ship(a)["fires"].append({"card": cid, "loc": "hull"})
    g._fire_damage(a, "hull", [])
    g.state["turn"] = 1
    g._begin_turn(0, [])
    assert g.dmg(g.ship(a), "hull") == 2
    g.state["turn"] = 1
    g._begin_turn(0, [])
    assert g.dmg(g.ship(a), "hull") == 3


def test_refuse_battle_removed_at_next_turn():
    g = fresh(2)
    place(g, 0, "Victory")
    place(g, 1, "Santa Ana")
    rb = give(g, 0, "refuse_battle")
    g.apply(0, {"type": "play", "card": rb})
    g.apply(0, {"type": "done"})
    assert g.refusing(0)
    g.apply(1, {"type": "discard", "card": g.state["hands"][1][0]})
    assert not g.refusing(0)
    assert rb in g.state["discard"]


def test_red_card_must_be_played():
    g = fresh(2, turn=1)
    a = place(g, 0, "Victory")
    place(g, 1, "Santa Ana")
    hit(g, a, "hull", 1)
    give(g, 1, "broadside")
    cid = to_top(g, "fire")
    events = g.apply(1, {"type": "discard", "card": g.state["hands"][1][0]})
    assert any(e["type"] == "fire" for e in events)
    assert g.ship(a)["fires"] and g.ship(a)["fires"][0]["card"] == cid
    assert g.state["turn"] == 1  # the red card was seat 0's whole turn


def test_red_card_choice_when_several():
    g = fresh(2, turn=1)
    a = place(g, 0, "Victory")
    place(g, 1, "Santa Ana")
    hit(g, a, "hull", 1)
    give(g, 1, "broadside")
    to_top(g, "fire")
    to_top(g, "strike")
    g.state["hands"][0] = []
    place(g, 0, "Bahama")
    g.apply(1, {"type": "discard", "card": g.state["hands"][1][0]})
    assert g.state["phase"] == "red" and g.to_act() == [0]
    acts = g.legal_actions(0)
    assert {g.card(a["card"])["type"] for a in acts} == {"fire", "strike"}
    assert g.view(1)["phase"] == "turn"  # others do not learn that seat 0 holds two red cards


def test_red_card_passes_clockwise():
    g = fresh(3)
    place(g, 0, "Victory")
    place(g, 1, "Santa Ana")
    b = place(g, 2, "Bahama")
    hit(g, b, "hull", 1)
    cid = give(g, 0, "fire")
    g.state["hands"][0] = [cid]
    events = []
    g._play_red(0, cid, events)
    kinds = [e["type"] for e in events]
    assert kinds.count("red_pass") == 2
    assert g.ship(b)["fires"][0]["card"] == cid


def test_red_card_returns_and_is_discarded():
    g = fresh(3)
    for p, name in enumerate(("Victory", "Santa Ana", "Bahama")):
        place(g, p, name)
    cid = give(g, 0, "fire")
    events = []
    g._play_red(0, cid, events)
    assert events[-1]["type"] == "red_discard"
    assert cid in g.state["discard"]


def test_red_receiver_applies_fire_first():
    g = fresh(2)
    place(g, 0, "Victory")
    b = place(g, 1, "Bahama")
    f = give(g, 1, "fire")
    g.state["hands"][1].remove(f)
    g.ship(b)["fires"].append({"card": f, "loc": "hull"})
    g._fire_damage(b, "hull", [])
    rb = give(g, 1, "refuse_battle")
    g.state["hands"][1].remove(rb)
    g.state["in_play"]["refuse"].append({"card": rb, "by": 1})
    strike = give(g, 0, "strike")
    fix_dice(g, 1)
    g._play_red(0, strike, [])
    assert g.dmg(g.ship(b), "hull") == 2  # grew by one before the card was applied
    assert not g.refusing(1)


def test_red_card_passed_on_counts_as_receivers_turn():
    # "this counts as his sole card drawn and played for his turn": the receiver plays the card *as* his
    # turn (step 1 once, no draw, no action) and play passes on from him
    g = fresh(3, turn=2)
    place(g, 0, "Victory")
    b = place(g, 1, "Bahama")
    place(g, 2, "Santa Ana")
    f0 = give(g, 1, "fire")
    g.state["hands"][1].remove(f0)
    g.ship(b)["fires"].append({"card": f0, "loc": "hull"})
    g._fire_damage(b, "hull", [])  # burning: 1 Hull
    g.state["hands"][1] = [give(g, 1, "repair")]
    give(g, 2, "repair")
    fire = to_top(g, "fire")  # seat 0 draws it; his Victory is undamaged, so it passes to seat 1
    fix_dice(g, 1)
    g.apply(2, {"type": "discard", "card": g.state["hands"][2][0]})
    assert g.ship(b)["fires"][-1]["card"] == fire  # seat 1 played the passed card
    assert g.dmg(g.ship(b), "hull") == 3  # old fire grew once (2) + the new fire (1): step 1 ran once
    assert g.state["turn"] == 2 and g.to_act() == [2]  # seat 1's turn was the red card
    assert len(g.state["hands"][1]) == 1  # seat 1 drew nothing


def test_one_card_per_turn_discard_option():
    g = fresh(2)
    place(g, 0, "Victory")
    place(g, 1, "Santa Ana")
    for _ in range(3):
        give(g, 0, "repair")
    acts = g.legal_actions(0)
    assert {"type": "discard", "card": g.state["hands"][0][0]} in acts
    g.apply(0, {"type": "discard", "card": g.state["hands"][0][0]})
    assert len(g.state["hands"][0]) == 2
    assert g.state["turn"] == 1


# ------------------------------------------------------------------ black cards
def test_broadside_rate_limit():
    g = fresh(2)
    big = place(g, 0, "Victory")
    small = place(g, 0, "Hermione")
    place(g, 1, "Santa Ana")
    heavy = give(g, 0, "broadside", rate=1)
    light = give(g, 0, "broadside", rate=6)
    acts = g.legal_actions(0)
    firers_heavy = {a["ship"] for a in acts if a.get("card") == heavy and a["type"] == "play"}
    firers_light = {a["ship"] for a in acts if a.get("card") == light and a["type"] == "play"}
    assert firers_heavy == {big}
    assert firers_light == {big, small}
    with pytest.raises(IllegalAction):
        g.apply(0, {"type": "play", "card": heavy, "ship": small})


def test_broadside_hull_or_rigging():
    for loc in ("hull", "rig"):
        g = fresh(2)
        a = place(g, 0, "Victory")
        t = place(g, 1, "Santa Ana")
        cid = give(g, 0, "broadside", rate=1)
        dmg = g.card(cid)["damage"]
        fire(g, 0, cid, a, t, loc)
        assert g.dmg(g.ship(t), loc) == dmg
        assert g.ship(t)["hits"][0]["card"] == cid


def test_broadside_sinks_ship():
    g = fresh(2)
    a = place(g, 0, "Victory")
    t = place(g, 1, "Surprise")
    hit(g, t, "hull", 3)
    cid = give(g, 0, "broadside", rate=1)
    events = fire(g, 0, cid, a, t, "hull")
    assert any(e["type"] == "sink" for e in events)
    assert t in g.state["sunk"][0]


def test_broadside_not_at_prizes_unless_broken():
    g = fresh(2)
    a = place(g, 0, "Victory")
    place(g, 1, "Santa Ana")
    pr = place(g, 1, "Bahama", "prize")
    assert pr not in g.targets(0, a)
    g.state["in_play"]["btl"].append({"card": "Cx", "by": 0, "target": 1})
    g.ship(a)["breaker"] = "Cx"  # Victory breaks the Line
    assert pr in g.targets(0, a)


def test_rake_one_per_turn_with_broadside():
    g = fresh(2)
    a = place(g, 0, "Victory")
    b = place(g, 0, "Bahama")
    t = place(g, 1, "Santa Ana")
    t2 = place(g, 1, "Orient")
    bs = give(g, 0, "broadside", rate=1)
    r1 = give(g, 0, "rake")
    give(g, 0, "rake")
    fire(g, 0, bs, a, t, "hull")
    acts = g.legal_actions(0)
    assert {"type": "play", "card": r1, "ship": b} in acts
    g.apply(0, {"type": "play", "card": r1, "ship": b})
    g.apply(0, {"type": "shoot", "ship": t2, "loc": "rig"})  # other target, other location
    assert g.dmg(g.ship(t2), "rig") == g.card(r1)["damage"]
    assert g.state["turn"] == 1  # no second rake: the turn ended
    assert len(g.state["hands"][0]) == 1


def test_rake_alone():
    g = fresh(2)
    a = place(g, 0, "Hermione")
    t = place(g, 1, "Santa Ana")
    r = give(g, 0, "rake")
    fire(g, 0, r, a, t, "hull")
    assert g.dmg(g.ship(t), "hull") == g.card(r)["damage"]


def _break(g, seat, target, breakers, cid):
    g.apply(seat, {"type": "play", "card": cid, "seat": target})
    for b in breakers:
        g.apply(seat, {"type": "breaker", "ship": b})
    return g.apply(seat, {"type": "done"})


def test_break_line_damage_and_breakers():
    g = fresh(2)
    gb = [place(g, 0, n) for n in ("Victory", "Bellerophon", "Orion", "Culloden")]
    line = [place(g, 1, n) for n in ("Santa Ana", "Bahama")]
    pr = place(g, 1, "Hermione", "prize")
    cid = give(g, 0, "break_line")
    _break(g, 0, 1, gb[:2], cid)
    for sid in line + [pr]:
        assert g.dmg(g.ship(sid), "hull") == 2 and g.dmg(g.ship(sid), "rig") == 2
    assert [g.ship(s)["breaker"] for s in gb] == [cid, cid, None, None]
    assert g.broken_by(1)[0]["by"] == 0


def test_break_line_max_half_line():
    g = fresh(2)
    gb = [place(g, 0, n) for n in ("Victory", "Bellerophon", "Orion", "Culloden", "Goliath")]
    place(g, 1, "Santa Ana")
    cid = give(g, 0, "break_line")
    g.apply(0, {"type": "play", "card": cid, "seat": 1})
    g.apply(0, {"type": "breaker", "ship": gb[0]})
    g.apply(0, {"type": "breaker", "ship": gb[1]})
    assert not any(a["type"] == "breaker" for a in g.legal_actions(0))  # 5 ships: at most 2
    g2 = fresh(2)
    place(g2, 0, "Victory")
    place(g2, 1, "Santa Ana")
    c2 = give(g2, 0, "break_line")
    assert not any(a.get("card") == c2 and a["type"] == "play" for a in g2.legal_actions(0))


def test_break_line_any_mobile_ships_he_owns_as_line_breakers():
    # "selects up to three (no more than half his Line) mobile ships he owns as Line Breakers": the card
    # has no nation; every Break the Line card may be played with any of his mobile ships
    g = fresh(2)
    mine = [place(g, 0, n) for n in ("Victory", "Orient", "Santa Ana", "Vrijheid", "Constitution")]
    place(g, 1, "Bahama")
    wreck = place(g, 0, "Bellerophon")
    hit(g, wreck, "rig", g.ship(wreck)["rig"])  # dismasted: not mobile
    cards = [c for c in g.state["deck"] if g.card(c)["type"] == "break_line"]
    assert len(cards) == 5
    for cid in cards:
        g.state["deck"].remove(cid)
        g.state["hands"][0] = [cid]
        play = next(a for a in g.legal_actions(0) if a["type"] == "play" and a.get("seat") == 1)
        assert set(play["ships"]["choose"]) == set(mine) == set(g.breaker_choices(0, cid))
        g.state["hands"][0] = []
        g.state["deck"].append(cid)


def test_break_line_line_breakers_are_one_choice_and_one_action():
    """ "Selects up to three (no more than half his Line) mobile ships he owns as Line Breakers": one
    open choice in the legal action, answered at once; the card then strikes in the same action."""
    g = fresh(2)
    gb = [place(g, 0, n) for n in ("Victory", "Bellerophon", "Orion", "Culloden", "Goliath")]
    line = [place(g, 1, n) for n in ("Santa Ana", "Bahama")]
    cid = give(g, 0, "break_line")
    play = next(a for a in g.legal_actions(0) if a["type"] == "play" and a["card"] == cid)
    assert play["ships"] == {"choose": gb, "min": 1, "max": g.max_breakers(0)} and g.max_breakers(0) == 2
    before = g.to_json()
    for wrong in ([], gb[:3], [line[0]], [gb[0], gb[0]]):
        with pytest.raises(IllegalAction):
            g.apply(0, {**play, "ships": wrong})
        assert g.to_json() == before
    turns = g.state["turns"]
    g.apply(0, {**play, "ships": [gb[3], gb[1]]})
    assert g.breakers_of(g.state["in_play"]["btl"][0]) == sorted([gb[1], gb[3]])
    assert all(g.dmg(g.ship(s), "hull") == 2 and g.dmg(g.ship(s), "rig") == 2 for s in line)
    assert g.state["turns"] == turns + 1 and g.to_act() == [1] and g.state["pending"] is None


def test_break_line_target_cannot_refuse_battle():
    g = fresh(2)
    gb = [place(g, 0, n) for n in ("Victory", "Bellerophon", "Orion", "Culloden")]
    place(g, 1, "Santa Ana")
    port = place(g, 1, "Bahama", "port")
    cid = give(g, 0, "break_line")
    _break(g, 0, 1, gb[:1], cid)
    give(g, 1, "refuse_battle")
    rb = first_of(g, 1, "refuse_battle")
    acts = g.legal_actions(1)
    assert not any(a["type"] == "play" and a["card"] == rb for a in acts)
    assert {"type": "discard", "card": rb, "ships": {"choose": [port], "min": 0, "max": 1}} in acts
    g.apply(1, {"type": "discard", "card": rb})  # as logged before: the ships then chosen one by one
    g.apply(1, {"type": "move", "ship": port})
    g.apply(1, {"type": "done"})
    assert port in g.state["lines"][1]
    assert g.dmg(g.ship(port), "hull") == 2 and g.dmg(g.ship(port), "rig") == 2


def test_break_line_breakers_only_attack_target():
    g = fresh(3)
    gb = [place(g, 0, n) for n in ("Victory", "Bellerophon", "Orion", "Culloden")]
    t1 = place(g, 1, "Santa Ana")
    t2 = place(g, 2, "Orient")
    cid = give(g, 0, "break_line")
    _break(g, 0, 1, gb[:1], cid)
    assert g.targets(0, gb[0]) == [t1]
    assert set(g.targets(0, gb[1])) == {t1, t2}


def test_break_line_same_nation_fires_at_prizes():
    g = fresh(3)
    gb = [place(g, 0, n) for n in ("Victory", "Bellerophon", "Orion", "Culloden")]
    place(g, 1, "Santa Ana")
    pr = place(g, 1, "Hermione", "prize")
    other_gb = place(g, 2, "Temeraire")
    other_fr = place(g, 2, "Orient")
    cid = give(g, 0, "break_line")
    _break(g, 0, 1, gb[:1], cid)
    assert pr in g.targets(0, gb[0])
    assert pr in g.targets(2, other_gb)
    assert pr not in g.targets(2, other_fr)


def test_break_line_same_nationality_as_the_line_breakers():
    # "Line Breakers and every other ship (owned by any player) of the same nationality may now attack
    # Prizes behind the Line": the nationality is the Line Breakers' own (here British and French)
    g = fresh(3)
    mine = [place(g, 0, n) for n in ("Victory", "Orient", "Santa Ana", "Vrijheid")]
    place(g, 1, "Bahama")
    pr = place(g, 1, "Hermione", "prize")
    other_gb = place(g, 2, "Temeraire")
    other_fr = place(g, 2, "Redoutable")
    other_es = place(g, 2, "Argonauta")
    _break(g, 0, 1, mine[:2], give(g, 0, "break_line"))
    assert pr in g.targets(0, mine[0]) and pr in g.targets(0, mine[1])
    assert pr not in g.targets(0, mine[2])  # a Spanish ship of the breaking player, not a breaker
    assert pr in g.targets(2, other_gb) and pr in g.targets(2, other_fr)
    assert pr not in g.targets(2, other_es)
    assert g.view(2)["in_play"]["btl"][0]["nations"] == ["FR", "GB"]


def test_break_line_ends_when_breakers_gone():
    g = fresh(2)
    gb = [place(g, 0, n) for n in ("Victory", "Bellerophon", "Orion", "Culloden")]
    place(g, 1, "Santa Ana")
    cid = give(g, 0, "break_line")
    _break(g, 0, 1, gb[:1], cid)
    events = []
    g._damage(gb[0], "rig", 10, "broadside", None, 1, events)  # dismasted
    assert any(e["type"] == "btl_end" for e in events)
    assert not g.broken_by(1)
    assert g.ship(gb[0])["breaker"] is None
    g._repair_all(gb[0])
    assert g.ship(gb[0])["breaker"] is None  # a repaired breaker does not regain the status


def test_break_line_removed_by_refuse_battle():
    g = fresh(2)
    gb = [place(g, 0, n) for n in ("Victory", "Bellerophon", "Orion", "Culloden")]
    place(g, 1, "Santa Ana")
    cid = give(g, 0, "break_line")
    _break(g, 0, 1, gb[:1], cid)
    g.apply(1, {"type": "discard", "card": g.state["hands"][1][0]})
    rb = give(g, 0, "refuse_battle")
    g.apply(0, {"type": "play", "card": rb})
    g.apply(0, {"type": "done"})
    assert not g.broken_by(1)


def _escape_setup():
    """Seat 0 breaks seat 1's Line (Santa Ana, Bahama, the prize Hermione) with Victory and
    Bellerophon; Santa Ana carried a Broadside hit before."""
    g = fresh(2)
    gb = [place(g, 0, n) for n in ("Victory", "Bellerophon", "Orion", "Culloden")]
    hurt = [place(g, 1, "Santa Ana"), place(g, 1, "Bahama"), place(g, 1, "Hermione", "prize")]
    hit(g, hurt[0], "hull", 2)
    _break(g, 0, 1, gb[:2], give(g, 0, "break_line"))
    for sid in hurt:
        assert g.dmg(g.ship(sid), "hull") >= 2 and g.dmg(g.ship(sid), "rig") == 2
    return g, gb, hurt


def _escape_weathergauge(g, gb):
    g._play_red(1, give(g, 1, "weathergauge"), [])


def _escape_sunk(g, gb):
    g._damage(gb[0], "hull", 20, "broadside", None, 1, [])
    assert g.broken_by(1) and g.dmg(g.ship(g.state["lines"][1][1]), "rig") == 2  # one breaker is left
    g._damage(gb[1], "hull", 20, "broadside", None, 1, [])


def _escape_captured(g, gb):
    for sid in gb[:2]:
        g.state["phase"] = "turn"
        g._capture(sid, 1, [])


def _escape_struck(g, gb):
    for sid in gb[:2]:
        hit(g, sid, "hull", g.ship(sid)["hull"] - 1)
    fix_dice(g, 6, 6)
    g._play_red(0, give(g, 0, "strike"), [])
    assert all(g.ship(sid)["struck"] for sid in gb[:2])


def _escape_dismasted(g, gb):
    for sid in gb[:2]:
        g._damage(sid, "rig", 10, "broadside", None, 1, [])


def _escape_refuse_battle(g, gb):
    g.apply(1, {"type": "discard", "card": g.state["hands"][1][0]})
    g.apply(0, {"type": "play", "card": give(g, 0, "refuse_battle")})
    g.apply(0, {"type": "done"})


def _escape_admiralty(g, gb):
    # Admiralty's Orders send the breakers home (the other ships of the Line have struck)
    for sid in gb[2:]:
        g.ship(sid)["struck"] = True
    for _ in range(2):
        g._play_red(0, give(g, 0, "admiralty"), [])
    assert all(g.ship(sid)["where"] == "port" for sid in gb[:2])


@pytest.mark.parametrize(
    "path", ["weathergauge", "sunk", "captured", "struck", "dismasted", "refuse_battle", "admiralty"]
)
def test_escaping_a_break_the_line_card_repairs_its_damage(path):
    # "The only other way to repair damage is ... escaping a Break the Line card": when the card leaves
    # play, the 2 Hull + 2 Rigging it dealt are repaired (other damage stays)
    g, gb, hurt = _escape_setup()
    globals()[f"_escape_{path}"](g, gb)
    assert not g.broken_by(1)
    for sid in hurt:
        s = g.ship(sid)
        assert not any(h["kind"] == "btl" for h in s["hits"]), path
        assert g.dmg(s, "rig") == 0
    assert g.dmg(g.ship(hurt[0]), "hull") == 2 and g.dmg(g.ship(hurt[1]), "hull") == 0  # the old hit stays


def test_escaping_a_break_the_line_card_repairs_only_its_own_damage():
    # two Lines break seat 1; ships brought from Port into the broken Line suffer both; when seat 0's
    # card leaves play only its damage is repaired
    g = fresh(3)
    a = [place(g, 0, n) for n in ("Victory", "Bellerophon")]
    t = place(g, 1, "Santa Ana")
    port = place(g, 1, "Bahama", "port")
    c = [place(g, 2, n) for n in ("Orient", "Redoutable")]
    _break(g, 0, 1, a[:1], give(g, 0, "break_line"))
    g.apply(1, {"type": "discard", "card": give(g, 1, "repair")})
    _break(g, 2, 1, c[:1], give(g, 2, "break_line"))
    g.apply(0, {"type": "discard", "card": g.state["hands"][0][0]})
    give(g, 1, "refuse_battle")
    g.apply(1, {"type": "discard", "card": first_of(g, 1, "refuse_battle")})
    g.apply(1, {"type": "move", "ship": port})
    g.apply(1, {"type": "done"})
    for sid in (t, port):
        assert g.dmg(g.ship(sid), "hull") == 4 and g.dmg(g.ship(sid), "rig") == 4
    events = []
    g._damage(a[0], "rig", 10, "broadside", None, 1, events)  # seat 0's only breaker is dismasted
    assert [b["by"] for b in g.broken_by(1)] == [2]
    assert any(e["type"] == "btl_end" for e in events)
    for sid in (t, port):
        assert g.dmg(g.ship(sid), "hull") == 2 and g.dmg(g.ship(sid), "rig") == 2


def test_repair_removes_broadside_only():
    g = fresh(2)
    a = place(g, 0, "Victory")
    place(g, 1, "Santa Ana")
    hit(g, a, "hull", 3)
    hit(g, a, "hull", 2, kind="btl")
    hit(g, a, "rig", 1, kind="fire")
    rp = give(g, 0, "repair")
    acts = [x for x in g.legal_actions(0) if x.get("card") == rp and x["type"] == "play"]
    assert acts == [{"type": "play", "card": rp, "ship": a, "hit": 0}]
    g.apply(0, acts[0])
    assert [h["kind"] for h in g.ship(a)["hits"]] == ["btl", "fire"]


def test_bucket_brigade_stops_fire():
    g = fresh(2)
    a = place(g, 0, "Victory")
    place(g, 1, "Santa Ana")
    f = give(g, 0, "fire")
    g.state["hands"][0].remove(f)
    g.ship(a)["fires"].append({"card": f, "loc": "hull"})
    g._fire_damage(a, "hull", [])
    bb = give(g, 0, "bucket")
    g.apply(0, {"type": "play", "card": bb, "ship": a, "hit": 0})
    assert g.ship(a)["fires"] == []
    assert g.dmg(g.ship(a), "hull") == 1  # damage already done stays
    g.apply(1, {"type": "discard", "card": g.state["hands"][1][0]})
    assert g.dmg(g.ship(a), "hull") == 1


def _board_setup():
    g = fresh(2)
    a = place(g, 0, "Victory")
    t = place(g, 1, "Bahama")
    place(g, 1, "Orient")
    hit(g, t, "rig", 4)
    hit(g, t, "rig", 2)
    bp = give(g, 0, "boarding")
    return g, a, t, bp


def test_boarding_secret_simultaneous():
    g, a, t, bp = _board_setup()
    g.apply(0, {"type": "play", "card": bp, "ship": a, "target": t})
    assert g.state["phase"] == "boarding"
    assert sorted(g.to_act()) == [0, 1]
    mine = give(g, 0, "broadside", rate=1)
    give(g, 1, "broadside", rate=3)
    ev = g.apply(0, {"type": "secret", "card": mine})
    public = [e for e in ev if "private_to" not in e]
    assert all(mine not in str(e) for e in public)
    assert g.to_act() == [1]
    assert g.view(0)["boarding"]["my_choice"]["id"] == mine
    assert "my_choice" not in g.view(1)["boarding"]
    assert mine not in str(g.view(1)) and mine not in str(g.view(None))
    fix_dice(g, 3)
    ev = g.apply(1, {"type": "secret", "card": None})
    reveal = next(e for e in ev if e["type"] == "boarding_reveal")
    assert (
        reveal["att_card"] == g.card(mine)["name"] and reveal["def_card"] == "no card" and reveal["roll"] == 3
    )


def test_boarding_result_states_the_roll_the_total_and_what_was_needed():
    """The reveal reads like a table: each card's hits ("1 hit", "2 hits", never "(1 hits)"), the
    die and its total, and the totals that capture (5 or more) or lose the boarders (1 or less)."""
    g, a, t, bp = _board_setup()
    g.apply(0, {"type": "play", "card": bp, "ship": a, "target": t})
    mine = give(g, 0, "rake")  # 1 hit
    theirs = give(g, 1, "broadside", rate=3)  # 2 hits from a 3rd rate
    fix_dice(g, 4)
    g.apply(0, {"type": "secret", "card": mine})
    ev = g.apply(1, {"type": "secret", "card": theirs})
    text = next(e for e in ev if e["type"] == "boarding_reveal")["text"]
    assert "(1 hit)" in text and "(2 hits)" in text and "hits)" not in text.replace("(2 hits)", "")
    assert "die 4-1 = 3" in text
    assert "5 or more captures" in text and "1 or less loses the boarders" in text
    assert "(s)" not in text


def test_eis_texts_count_in_the_right_number():
    """No "(s)" and no "1 ships": the round score counts sunk ships, a Port target its ships."""
    g = fresh(2)
    place(g, 0, "Victory")
    sunk = place(g, 1, "Bahama")
    g._sink(sunk, 0, [], "sinks")
    events: list = []
    g._score_round(events)
    score = next(e["text"] for e in events if e["type"] == "score" and e["seat"] == 0)
    assert "1 sunk ship " in score and "(s)" not in score
    fs = give(g, 0, "fire_ship")
    place(g, 1, "Orient")
    place(g, 1, "Surprise", "port")
    texts = [str(step) for _, path in g.menu_entries(0) for step in path if "Port" in str(step)]
    assert any("1 ship" in t for t in texts) and not any("1 ships" in t for t in texts), texts
    assert fs in g.state["hands"][0]


def test_boarding_success_captures_and_removes_smallest_rigging_hit():
    g, a, t, bp = _board_setup()
    g.apply(0, {"type": "play", "card": bp, "ship": a, "target": t})
    fix_dice(g, 5)
    g.apply(0, {"type": "secret", "card": None})
    g.apply(1, {"type": "secret", "card": None})
    assert g.state["phase"] == "capture" and g.to_act() == [0]
    assert [h["dmg"] for h in g.ship(t)["hits"]] == [4]
    g.apply(0, {"type": "capture", "where": "prize"})
    assert t in g.state["prizes"][0]
    assert g.ship(t)["owner"] == 0


def test_boarding_hit_difference_counts():
    g, a, t, bp = _board_setup()
    g.apply(0, {"type": "play", "card": bp, "ship": a, "target": t})
    mine = give(g, 0, "broadside", rate=1)
    bluff = give(g, 1, "broadside", rate=6)  # Bahama (rate 3) cannot fire a rate-6... it can: 3 <= 6
    fix_dice(g, 2)
    g.apply(0, {"type": "secret", "card": mine})
    ev = g.apply(1, {"type": "secret", "card": bluff})
    reveal = next(e for e in ev if e["type"] == "boarding_reveal")
    assert reveal["total"] == 2 + g.card(mine)["damage"] - g.card(bluff)["damage"]
    assert mine in g.state["discard"] and bluff in g.state["discard"]


def test_boarding_bluff_counts_nothing():
    g, a, t, bp = _board_setup()
    g.apply(0, {"type": "play", "card": bp, "ship": a, "target": t})
    bluff = give(g, 0, "repair")
    fix_dice(g, 4)
    g.apply(0, {"type": "secret", "card": bluff})
    ev = g.apply(1, {"type": "secret", "card": None})
    assert next(e for e in ev if e["type"] == "boarding_reveal")["total"] == 4
    assert g.state["turn"] == 1


def test_boarding_failure_captures_boarder():
    g, a, t, bp = _board_setup()
    g.apply(0, {"type": "play", "card": bp, "ship": a, "target": t})
    fix_dice(g, 1)
    g.apply(0, {"type": "secret", "card": None})
    g.apply(1, {"type": "secret", "card": None})
    assert g.to_act() == [1]
    g.apply(1, {"type": "capture", "where": "line"})
    assert a in g.state["lines"][1]


def test_boarding_struck_ship_surrenders():
    g = fresh(2)
    a = place(g, 0, "Victory")
    t = place(g, 1, "Bahama")
    place(g, 1, "Orient")
    hit(g, t, "hull", g.ship(t)["hull"] - 4)
    g.ship(t)["struck"] = True
    bp = give(g, 0, "boarding")
    g.apply(0, {"type": "play", "card": bp, "ship": a, "target": t})
    assert g.state["phase"] == "capture"
    assert not g.ship(t)["struck"]


def test_boarding_with_dismasting_broadside():
    g = fresh(2)
    a = place(g, 0, "Victory")
    t = place(g, 1, "Surprise")
    place(g, 1, "Orient")
    cid = give(g, 0, "broadside", rate=1)
    bp = give(g, 0, "boarding")
    fire(g, 0, cid, a, t, "rig")
    assert g.dismasted(g.ship(t))
    acts = g.legal_actions(0)
    assert {"type": "board", "card": bp, "ship": a} in acts
    g.apply(0, {"type": "board", "card": bp, "ship": a})
    assert g.state["phase"] == "boarding"


def test_boarding_needs_dismasted_or_struck_target():
    g = fresh(2)
    place(g, 0, "Victory")
    place(g, 1, "Bahama")
    bp = give(g, 0, "boarding")
    assert not any(x.get("card") == bp and x["type"] == "play" for x in g.legal_actions(0))


def test_additional_ship_line_or_port():
    for where in ("line", "port"):
        g = fresh(2)
        place(g, 0, "Victory")
        place(g, 1, "Santa Ana")
        top = g.state["ship_deck"][0]
        cid = give(g, 0, "additional_ship")
        g.apply(0, {"type": "play", "card": cid, "where": where})
        assert top in g.state["lines" if where == "line" else "ports"][0]


def test_refuse_battle_immunity():
    g = fresh(2)
    a = place(g, 0, "Victory")
    d = place(g, 0, "Bahama")
    hit(g, d, "rig", 6)
    b = place(g, 1, "Santa Ana")
    rb = give(g, 0, "refuse_battle")
    g.apply(0, {"type": "play", "card": rb})
    g.apply(0, {"type": "done"})
    assert a not in g.targets(1, b)
    assert d in g.targets(1, b)  # dismasted ships are not immune


def test_refuse_battle_moves_and_repairs():
    g = fresh(2)
    a = place(g, 0, "Victory")
    p = place(g, 0, "Orion", "port")
    place(g, 1, "Santa Ana")
    hit(g, a, "hull", 3)
    g.ship(a)["struck"] = True
    rb = give(g, 0, "refuse_battle")
    g.apply(0, {"type": "play", "card": rb})
    g.apply(0, {"type": "move", "ship": a})
    g.apply(0, {"type": "move", "ship": p})
    g.apply(0, {"type": "done"})
    assert a in g.state["ports"][0] and p in g.state["lines"][0]
    assert g.ship(a)["hits"] == [] and not g.ship(a)["struck"]


def test_refuse_battle_dismasted_needs_tow():
    g = fresh(2)
    a = place(g, 0, "Victory")
    d = place(g, 0, "Bahama")
    hit(g, d, "rig", 6)
    place(g, 1, "Santa Ana")
    rb = give(g, 0, "refuse_battle")
    g.apply(0, {"type": "play", "card": rb})
    g.apply(0, {"type": "move", "ship": d})
    assert {"type": "done"} not in g.legal_actions(0)
    g.apply(0, {"type": "move", "ship": a})
    g.apply(0, {"type": "done"})
    assert d in g.state["ports"][0] and a in g.state["ports"][0]


def test_refuse_battle_ships_to_move_are_one_choice_and_one_action():
    """ "Remove ships from the Line to Port and/or bring ships from Port into the Line": the ships are
    one decision - an open choice of every movable ship in the legal action, answered at once."""
    g = fresh(2)
    a = place(g, 0, "Victory")
    d = place(g, 0, "Bahama")
    hit(g, d, "rig", 6)  # dismasted: goes to Port only towed
    keep = place(g, 0, "Orient")
    p = place(g, 0, "Orion", "port")
    place(g, 1, "Santa Ana")
    rb = give(g, 0, "refuse_battle")
    play = next(x for x in g.legal_actions(0) if x["type"] == "play" and x["card"] == rb)
    assert play["ships"] == {"choose": [p, a, d, keep], "min": 0, "max": 4}  # Port first
    before = g.to_json()
    with pytest.raises(IllegalAction, match="towed"):
        g.apply(0, {**play, "ships": [d, p]})  # no tow for the dismasted ship
    with pytest.raises(IllegalAction):
        g.apply(0, {**play, "ships": [p, p]})  # a ship twice
    assert g.to_json() == before
    turns = g.state["turns"]
    ev = g.apply(0, {**play, "ships": [p, d, a]})
    assert d in g.state["ports"][0] and a in g.state["ports"][0] and p in g.state["lines"][0]
    assert keep in g.state["lines"][0] and g.refusing(0)
    assert g.state["turns"] == turns + 1 and g.to_act() == [1]  # one action: the turn is over
    assert any(e["type"] == "refuse" for e in ev)


def test_refuse_battle_discarded_brings_chosen_ships_out_of_port_in_one_action():
    g = fresh(2)
    place(g, 0, "Victory")
    p1, p2 = place(g, 0, "Orion", "port"), place(g, 0, "Orient", "port")
    place(g, 1, "Santa Ana")
    rb = give(g, 0, "refuse_battle")
    discard = next(x for x in g.legal_actions(0) if x["type"] == "discard" and x["card"] == rb)
    assert discard["ships"] == {"choose": [p1, p2], "min": 0, "max": 2}
    g.apply(0, {**discard, "ships": [p2]})
    assert p2 in g.state["lines"][0] and p1 in g.state["ports"][0] and rb in g.state["discard"]
    assert not g.refusing(0) and g.to_act() == [1]


def test_refuse_battle_nothing_to_move_is_no_choice():
    g = fresh(2)
    place(g, 1, "Santa Ana")
    rb = give(g, 0, "refuse_battle")
    assert {"type": "play", "card": rb, "ships": []} in g.legal_actions(0)


def test_refuse_battle_as_logged_before_still_plays_step_by_step():
    """Games stored before the ships were one choice replay their logged actions: the opener without
    "ships" (and the open choice itself, applied as it stands) then asks ship by ship."""
    g = fresh(2)
    a = place(g, 0, "Victory")
    place(g, 1, "Santa Ana")
    hit(g, a, "hull", 1)
    rb = give(g, 0, "refuse_battle")
    g.apply(0, {"type": "play", "card": rb})
    assert g.state["pending"]["step"] == "move"
    g.apply(0, {"type": "move", "ship": a})
    g.apply(0, {"type": "done"})
    assert a in g.state["ports"][0]


def test_refuse_battle_prize_scores_double():
    g = fresh(2)
    place(g, 0, "Victory")
    pr = place(g, 0, "Bahama", "prize")
    place(g, 1, "Santa Ana")
    rb = give(g, 0, "refuse_battle")
    g.apply(0, {"type": "play", "card": rb})
    g.apply(0, {"type": "move", "ship": pr})
    g.apply(0, {"type": "done"})
    assert g.state["scores"][0] == 2 * (g.ship(pr)["hull"] + g.ship(pr)["rig"])
    assert pr not in g.state["prizes"][0]


def test_refuse_battle_removes_own_blockade():
    g = fresh(2)
    place(g, 0, "Victory")
    place(g, 1, "Santa Ana")
    bl = give(g, 0, "blockade")
    g.state["hands"][0].remove(bl)
    g.state["in_play"]["blockade"].append({"card": bl, "by": 0, "target": 1})
    rb = give(g, 0, "refuse_battle")
    g.apply(0, {"type": "play", "card": rb})
    g.apply(0, {"type": "done"})
    assert g.state["in_play"]["blockade"] == []


def test_fire_ship_sinks_on_six_with_bonus():
    g = fresh(2)
    place(g, 0, "Victory")
    t = place(g, 1, "Santa Ana")
    fs = give(g, 0, "fire_ship")
    fix_dice(g, 5)
    g.apply(0, {"type": "play", "card": fs, "ship": t})
    assert t in g.state["lines"][1]  # 5 at sea, not dismasted: survives
    g2 = fresh(2)
    place(g2, 0, "Victory")
    place(g2, 1, "Santa Ana")
    p1 = place(g2, 1, "Bahama", "port")
    p2 = place(g2, 1, "Orion", "port")
    fs = give(g2, 0, "fire_ship")
    fix_dice(g2, 5, 4)
    g2.apply(0, {"type": "play", "card": fs, "port": 1})
    assert p1 in g2.state["sunk"][0]  # 5 + 1 (in Port) = 6
    assert p2 in g2.state["ports"][1]


def test_blockade_roll_beats_mobile_line():
    g = fresh(2)
    for n in ("Victory", "Orion"):
        place(g, 0, n)
    place(g, 1, "Santa Ana")
    p = place(g, 1, "Bahama", "port")
    bl = give(g, 0, "blockade")
    g.apply(0, {"type": "play", "card": bl, "seat": 1})
    give(g, 1, "refuse_battle")
    rb = first_of(g, 1, "refuse_battle")
    fix_dice(g, 2)  # 2 is not greater than 2 mobile ships
    g.apply(1, {"type": "discard", "card": rb})
    g.apply(1, {"type": "move", "ship": p})
    g.apply(1, {"type": "done"})
    assert p in g.state["ports"][1]
    g.state["turn"], g.state["pending"] = 1, None
    give(g, 1, "refuse_battle")
    rb2 = first_of(g, 1, "refuse_battle")
    fix_dice(g, 3)
    g.apply(1, {"type": "discard", "card": rb2})
    g.apply(1, {"type": "move", "ship": p})
    g.apply(1, {"type": "done"})
    assert p in g.state["lines"][1]


def test_blockade_one_port_per_player():
    g = fresh(3)
    place(g, 0, "Victory")
    place(g, 1, "Santa Ana")
    place(g, 2, "Orient")
    bl = give(g, 0, "blockade")
    g.apply(0, {"type": "play", "card": bl, "seat": 1})
    g.state["turn"], g.state["pending"] = 0, None
    bl2 = give(g, 0, "blockade")
    assert not any(x.get("card") == bl2 and x["type"] == "play" for x in g.legal_actions(0))


def test_blockade_removed_without_mobile_line():
    g = fresh(2)
    a = place(g, 0, "Victory")
    place(g, 1, "Santa Ana")
    bl = give(g, 0, "blockade")
    g.apply(0, {"type": "play", "card": bl, "seat": 1})
    events = []
    g._damage(a, "rig", 8, "broadside", None, 1, events)
    assert g.state["in_play"]["blockade"] == []
    assert bl in g.state["discard"]


# ------------------------------------------------------------------ red cards
def test_weathergauge_clears_cards_and_reshuffles_ships():
    g = fresh(2)
    gb = [place(g, 0, n) for n in ("Victory", "Bellerophon", "Orion", "Culloden")]
    place(g, 1, "Santa Ana")
    cid = give(g, 0, "break_line")
    _break(g, 0, 1, gb[:1], cid)
    before = list(g.state["ship_deck"])
    wg = give(g, 1, "weathergauge")
    g._play_red(1, wg, [])
    assert g.state["in_play"]["btl"] == []
    assert sorted(before) == sorted(g.state["ship_deck"]) and before != g.state["ship_deck"]
    assert g.ship(gb[0])["breaker"] is None


def test_fire_card_die_split():
    for roll, loc in ((3, "hull"), (4, "rig")):
        g = fresh(2)
        a = place(g, 0, "Victory")
        place(g, 1, "Santa Ana")
        hit(g, a, "hull", 1)
        f = give(g, 0, "fire", hull_max=3)
        fix_dice(g, roll)
        g._play_red(0, f, [])
        assert g.ship(a)["fires"] == [{"card": f, "loc": loc}]
        assert g.dmg(g.ship(a), loc) == 1 + (1 if loc == "hull" else 0)


def test_fire_applies_to_prizes_and_struck():
    g = fresh(2)
    pr = place(g, 0, "Bahama", "prize")
    place(g, 1, "Santa Ana")
    hit(g, pr, "rig", 1)
    f = give(g, 0, "fire")
    g._play_red(0, f, [])
    assert g.ship(pr)["fires"]


def test_fire_explosion_no_vp():
    g = fresh(2)
    a = place(g, 0, "Surprise")
    place(g, 1, "Santa Ana")
    hit(g, a, "hull", g.ship(a)["hull"] - 1)
    f = give(g, 0, "fire", hull_max=3)
    fix_dice(g, 1)
    events = []
    g._play_red(0, f, events)
    assert any("explodes" in e["text"] for e in events)
    assert a not in g.state["sunk"][1] and g.ship(a)["where"] == "lost"


def test_fire_on_dismasted_spreads_to_hull():
    g = fresh(2)
    a = place(g, 0, "Victory")
    place(g, 1, "Santa Ana")
    hit(g, a, "rig", g.ship(a)["rig"])
    f = give(g, 0, "fire", hull_max=3)
    fix_dice(g, 6)
    g._play_red(0, f, [])
    assert g.ship(a)["fires"][0]["loc"] == "rig"
    assert g.dmg(g.ship(a), "hull") == 1


def test_strike_roll():
    g = fresh(2)
    a = place(g, 0, "Victory")
    b = place(g, 0, "Orion")
    place(g, 1, "Santa Ana")
    hit(g, a, "hull", g.ship(a)["hull"] - 4)  # 4 left
    hit(g, b, "hull", g.ship(b)["hull"] - 5)  # 5 left
    s = give(g, 0, "strike")
    fix_dice(g, 4, 4)
    g._play_red(0, s, [])
    assert g.ship(a)["struck"] and not g.ship(b)["struck"]


def test_strike_needs_hull_damage_under_six():
    g = fresh(2)
    place(g, 0, "Surprise")  # 4 Hull but undamaged
    a = place(g, 1, "Victory")
    hit(g, a, "hull", 3)  # 7 left
    s = give(g, 0, "strike")
    ev = []
    g._play_red(0, s, ev)
    assert ev[-1]["type"] == "red_discard"


def test_struck_ships_not_counted_and_not_fired_at():
    g = fresh(2)
    a = place(g, 0, "Victory")
    t = place(g, 1, "Bahama")
    place(g, 1, "Orion")
    g.ship(t)["struck"] = True
    assert t not in g.targets(0, a)
    assert g.capacity(1) == 1
    assert not g.can_fire(1, t)


def test_run_aground_sinks_on_die_ge_rate():
    g = fresh(2)
    a = place(g, 0, "Bahama")  # rate 3
    place(g, 1, "Santa Ana")
    ra = give(g, 0, "run_aground")
    fix_dice(g, 2)
    g._play_red(0, ra, [])
    assert a in g.state["lines"][0]
    ra2 = give(g, 0, "run_aground")
    fix_dice(g, 3)
    g._play_red(0, ra2, [])
    assert g.ship(a)["where"] == "lost"


def test_admiralty_orders_returns_to_port():
    g = fresh(2)
    a = place(g, 0, "Victory")
    place(g, 1, "Santa Ana")
    hit(g, a, "hull", 2)
    ao = give(g, 0, "admiralty")
    g._play_red(0, ao, [])
    assert a in g.state["ports"][0] and g.ship(a)["hits"] == []


# ------------------------------------------------------------------ scoring
def test_sinker_scores_hull_plus_rigging_at_round_end():
    g = fresh(2)
    a = place(g, 0, "Victory")
    t = place(g, 1, "Bahama")
    place(g, 1, "Orion")
    hit(g, t, "hull", g.ship(t)["hull"] - 1)
    vp = g.ship(t)["hull"] + g.ship(t)["rig"]
    cid = give(g, 0, "broadside", rate=1)
    fire(g, 0, cid, a, t, "hull")
    assert g.state["scores"][0] == 0
    assert g.view(None)["fleets"][0]["sunk_vp"] == vp
    g._end_round([])
    assert g.state["scores"][0] == vp


def test_prize_at_sea_scores_undamaged_factors():
    g = fresh(2)
    place(g, 0, "Victory")
    pr = place(g, 0, "Bahama", "prize")
    place(g, 1, "Santa Ana")
    hit(g, pr, "hull", 3)
    hit(g, pr, "rig", 2)
    g._end_round([])
    assert g.state["scores"][0] == (g.ship(pr)["hull"] - 3) + (g.ship(pr)["rig"] - 2)
    assert pr not in g.state["prizes"][0]


def test_no_line_penalty_15():
    g = fresh(2)
    place(g, 0, "Victory", "port")
    place(g, 1, "Santa Ana")
    g._end_round([])
    assert g.state["scores"] == [-15, 0]


def test_aground_and_explosion_no_vp():
    g = fresh(2)
    a = place(g, 0, "Victory")  # rate 1: any die runs it aground
    place(g, 1, "Santa Ana")
    ra = give(g, 0, "run_aground")
    g._play_red(0, ra, [])
    g._end_round([])
    assert g.state["scores"] == [-15, 0]
    assert g.ship(a)["where"] == "lost"


def test_advanced_variant_is_an_option():
    # (was test_advanced_variant_not_available_yet; the variant now exists, tests in test_advanced.py)
    assert SPEC.new(4, {"variant": "advanced"}, 1).state["phase"] == "arrange"
    assert SPEC.new(4, {"variant": "base"}, 1).options["variant"] == "base"
    assert SPEC.new(4, {}, 1).state["phase"] != "arrange"
    with pytest.raises(IllegalAction):
        SPEC.new(4, {"variant": "expert"}, 1)


def test_prize_reaching_100_ends_game():
    g = fresh(2)
    place(g, 0, "Victory")
    pr = place(g, 0, "Santa Ana", "prize")
    place(g, 1, "Bahama")
    g.state["scores"] = [70, 10]
    rb = give(g, 0, "refuse_battle")
    g.apply(0, {"type": "play", "card": rb})
    g.apply(0, {"type": "move", "ship": pr})
    events = g.apply(0, {"type": "done"})
    assert g.is_over and g.result["winners"] == [0]
    assert g.result["scores"]["0"] == 70 + 2 * (g.ship(pr)["hull"] + g.ship(pr)["rig"])
    assert events[-1]["type"] == "game_over"


def test_fire_ship_bonus_against_dismasted():
    g = fresh(2)
    place(g, 0, "Victory")
    t = place(g, 1, "Santa Ana")
    hit(g, t, "rig", g.ship(t)["rig"])
    fs = give(g, 0, "fire_ship")
    fix_dice(g, 5)
    events = g.apply(0, {"type": "play", "card": fs, "ship": t})
    assert t in g.state["sunk"][0]
    assert any("5+1 = 6" in e["text"] for e in events)


def test_blockade_one_roll_per_blockade():
    g = fresh(3)
    place(g, 0, "Victory")
    place(g, 1, "Orient")
    place(g, 2, "Santa Ana")
    p = place(g, 2, "Bahama", "port")
    for q in (0, 1):
        bl = give(g, q, "blockade")
        g.state["hands"][q].remove(bl)
        g.state["in_play"]["blockade"].append({"card": bl, "by": q, "target": 2})
    g.state["turn"] = 2
    give(g, 2, "refuse_battle")
    rb = first_of(g, 2, "refuse_battle")
    fix_dice(g, 4, 1)  # passes the first Blockade, stopped by the second
    events = g.apply(2, {"type": "discard", "card": rb})
    g.apply(2, {"type": "move", "ship": p})
    events = g.apply(2, {"type": "done"})
    kinds = [e["type"] for e in events]
    assert kinds.count("blockade_pass") == 1 and kinds.count("blockade_stop") == 1
    assert p in g.state["ports"][2]
