"""Every change of the Advanced Enemy in Sight rules (C. F. Posey), one test per section, named after it."""

from __future__ import annotations

import random

import pytest

from bot.games import IllegalAction
from bot.games.enemy_in_sight.advanced import station_targets
from tests.games.enemy_in_sight.adv_helpers import fresh_adv, new_adv, put
from tests.games.enemy_in_sight.helpers import fix_dice, give, hit, ship_id


def names(g, ids):
    return [g.ship(s)["name"] for s in ids]


def deal_named(g, seat, ship_names):
    """Replace the six ships dealt to ``seat`` for the secret set-up by the named ones."""
    st = g.state
    a = st["arrange"][seat]
    for sid in a["line"] + a["reserve"]:
        st["ships"][sid].update(owner=None, where="deck")
        st["ship_deck"].append(sid)
    a["line"], a["reserve"] = [], []
    for n in ship_names:
        sid = ship_id(g, n)
        s = st["ships"][sid]
        if s["where"] == "deck":
            st["ship_deck"].remove(sid)
        else:  # dealt to another seat: swap with one of our returned ships
            other = st["arrange"][s["owner"]]
            spare = st["ship_deck"].pop(0)
            i = other["line"].index(sid)
            other["line"][i] = spare
            st["ships"][spare].update(owner=s["owner"], where="hand")
        s.update(owner=seat, where="hand")
        a["line"].append(sid)
    return [ship_id(g, n) for n in ship_names]


def shoot_targets(g, seat, cid, firer):
    g.apply(seat, {"type": "play", "card": cid, "ship": firer})
    out = {a["ship"] for a in g.legal_actions(seat) if a["type"] == "shoot"}
    assert set(g.view(seat)["pending"]["may_fire_at"]) == out
    g.apply(seat, {"type": "cancel"})
    return out


# ------------------------------------------------------------------ 4.4
def test_4_4_forming_line_and_reserve():
    g = new_adv(3, 4)
    st = g.state
    assert st["phase"] == "arrange" and sorted(g.to_act()) == [0, 1, 2]
    assert all(not st["lines"][p] and not st["reserves"][p] for p in range(3))
    vic, bah, sha, sur, ori, lea = deal_named(
        g, 0, ["Victory", "Bahama", "Shannon", "Surprise", "Orion", "Leander"]
    )
    for p in range(3):
        for a in g.legal_actions(p):  # only 5th and 6th rates may begin in the Reserve
            if a["type"] == "reserve":
                assert g.ship(a["ship"])["rate"] >= 5
    assert {a["ship"] for a in g.legal_actions(0) if a["type"] == "reserve"} == {sha, sur}
    g.apply(0, {"type": "reserve", "ship": sur, "to": 0})
    g.apply(0, {"type": "station", "ship": vic, "to": 2})  # any order
    assert st["arrange"][0]["line"] == [bah, sha, vic, ori, lea]
    ev = g.apply(0, {"type": "submit"})
    assert 0 not in g.to_act() and g.legal_actions(0) == []
    assert any(e.get("private_to") == 0 and e["line"] == [bah, sha, vic, ori, lea] for e in ev)
    assert not st["lines"][0]  # nothing on the table yet
    g.apply(1, {"type": "submit"})
    ev = g.apply(2, {"type": "submit"})  # the last one: all revealed at once
    reveals = [e for e in ev if e["type"] == "reveal"]
    assert [e["seat"] for e in reveals] == [0, 1, 2] and all("private_to" not in e for e in reveals)
    assert reveals[0]["line"] == [bah, sha, vic, ori, lea] and reveals[0]["reserve"] == [sur]
    assert st["lines"][0] == [bah, sha, vic, ori, lea] and st["reserves"][0] == [sur]
    assert g.ship(sur)["where"] == "reserve" and g.ship(vic)["where"] == "line"
    # revision: Reserve ships may join the Line at any station; the largest ship relocates once
    assert st["phase"] == "revise" and sorted(g.to_act()) == [0, 1, 2]
    acts = g.legal_actions(0)
    assert {a["ship"] for a in acts if a["type"] == "relocate"} == {vic}
    assert {a["to"] for a in acts if a["type"] == "to_line"} == set(range(6))
    g.apply(0, {"type": "to_line", "ship": sur, "to": 0})
    g.apply(0, {"type": "relocate", "ship": vic, "to": 5})
    assert not any(a["type"] == "relocate" for a in g.legal_actions(0))  # once only
    with pytest.raises(IllegalAction):
        g.apply(0, {"type": "relocate", "ship": vic, "to": 0})
    assert st["lines"][0] == [bah, sha, vic, ori, lea]  # revisions are not shown before all are done
    g.apply(0, {"type": "done"})
    g.apply(1, {"type": "done"})
    dealer = st["dealer"]
    for p in range(3):  # no red card in the dealer's first hand, so the dealer's turn is the first one
        for c in [c for c in st["hands"][p] if g.card(c)["red"]]:
            i = next(i for i, d in enumerate(st["deck"]) if not g.card(d)["red"])
            st["hands"][p][st["hands"][p].index(c)], st["deck"][i] = st["deck"][i], c
    ev = g.apply(2, {"type": "done"})
    assert st["lines"][0] == [sur, bah, sha, ori, lea, vic] and st["reserves"][0] == []
    assert any(e["type"] == "revised_line" and e["seat"] == 0 for e in ev)
    assert st["phase"] == "turn" and st["turn"] == dealer and g.to_act() == [dealer]
    assert st["arrange"] is None


def test_4_4_only_frigates_in_reserve_and_a_line_kept():
    g = new_adv(2, 1)
    a, b, c = deal_named(g, 0, ["Shannon", "Surprise", "Phoebe"])
    g.apply(0, {"type": "reserve", "ship": a, "to": 0})
    g.apply(0, {"type": "reserve", "ship": b, "to": 1})
    # the last Line ship may not leave: the Line keeps at least one ship (house rule)
    assert not any(x["type"] == "reserve" and x["ship"] == c for x in g.legal_actions(0))
    g.apply(0, {"type": "reserve", "ship": b, "to": 0})  # Reserve order too
    assert g.state["arrange"][0]["reserve"] == [b, a]
    with pytest.raises(IllegalAction):
        g.apply(0, {"type": "reserve", "ship": ship_id(g, "Victory"), "to": 0})


def test_4_4_timeouts_submit_and_done():
    g = new_adv(3, 6)
    dealt = [list(g.state["arrange"][p]["line"]) for p in range(3)]
    rng = random.Random(1)
    while g.state["phase"] == "arrange":
        for p in g.to_act():
            assert g.timeout_action(p, rng) == {"type": "submit"}
        p = g.to_act()[0]
        g.apply(p, g.timeout_action(p, rng))
    assert g.state["phase"] == "revise"
    for p in range(3):
        assert g.timeout_action(p, rng) == {"type": "done"} and g.timeout_action(p, rng) in g.legal_actions(p)
        g.apply(p, g.timeout_action(p, rng))
    assert g.state["phase"] in ("turn", "red") and [g.state["lines"][p] for p in range(3)] == dealt


def test_4_4_ai_seats_take_part():
    g = new_adv(4, 3)
    rng = random.Random(3)
    while g.state["phase"] in ("arrange", "revise"):
        p = g.to_act()[0]
        a = g.ai_action(p, rng)
        assert a in g.legal_actions(p)
        g.apply(p, a)
    st = g.state
    for p in range(4):
        small = [s for s in st["lines"][p] + st["reserves"][p] if g.ship(s)["rate"] >= 5]
        # the AI keeps one frigate back when it has two or more
        assert len(st["reserves"][p]) == (1 if len(small) >= 2 else 0)


# ------------------------------------------------------------------ 5.13
def test_5_13_hand_capacity():
    g = fresh_adv(2)
    put(g, 0, "Victory")
    put(g, 0, "Bahama")
    s = put(g, 0, "Orion")
    g.ship(s)["struck"] = True
    put(g, 0, "Surprise", "reserve")
    put(g, 0, "Shannon", "reserve")
    put(g, 0, "Santa Ana", "prize")
    put(g, 0, "Leander", "port")
    put(g, 1, "Orient")
    assert g.capacity(0) == 2  # Line ships only: not struck, prizes, Reserve or Port
    assert g.view(None)["fleets"][0]["capacity"] == 2
    g._begin_turn(0, [])
    assert len(g.state["hands"][0]) == 2


# ------------------------------------------------------------------ 7
def _transfer_setup():
    g = fresh_adv(2)
    vic = put(g, 0, "Victory")
    bah = put(g, 0, "Bahama")
    ori = put(g, 0, "Orion")
    sur = put(g, 0, "Surprise", "reserve")
    hit(g, vic, "hull", 2)
    hit(g, ori, "rig", g.ship(ori)["rig"])  # dismasted
    put(g, 1, "Santa Ana")
    return g, vic, bah, ori, sur


def test_7_actions_transfer():
    g, vic, bah, ori, sur = _transfer_setup()
    card = give(g, 0, "repair")
    moves = {(a["ship"], a["station"]) for a in g.legal_actions(0) if a["type"] == "transfer"}
    assert {s for s, _ in moves} == {vic, ori, sur}  # Bahama is undamaged
    assert {k for s, k in moves if s == sur} == {0, 1, 2, 3}  # any station of the Line
    g.apply(0, {"type": "transfer", "ship": vic, "station": 1})
    assert g.state["reserves"][0] == [sur, vic] and g.ship(vic)["where"] == "reserve"
    assert g.to_act() == [0] and g.state["pending"]["step"] == "transfer"  # one or more ships
    assert not any(a["type"] in ("play", "discard") for a in g.legal_actions(0))  # a card OR transfers
    assert {"type": "done"} in g.legal_actions(0)
    g.apply(0, {"type": "transfer", "ship": sur, "station": 0})
    assert g.state["lines"][0] == [sur, bah, ori]
    # nothing else may move (Orion has no tow now): the turn ends by itself, the card stays in hand
    assert g.state["turn"] == 1 and card in g.state["hands"][0]


def test_7_actions_transfer_on_any_turn():
    # 7: on any turn a player plays or discards a card OR transfers ships - also right after a transfer
    # turn (the former house rule "no transfer turn right after a transfer turn" is gone)
    g, vic, bah, ori, sur = _transfer_setup()
    put(g, 1, "Orient")
    g.apply(0, {"type": "transfer", "ship": vic, "station": 0})
    g.apply(0, {"type": "done"})
    assert g.state["turn"] == 1
    c1 = g.state["hands"][1][0]
    g.apply(1, {"type": "discard", "card": c1})
    assert g.state["turn"] == 0
    assert {"type": "transfer", "ship": vic, "station": 0} in g.legal_actions(0)
    g.apply(0, {"type": "transfer", "ship": vic, "station": 0})
    assert g.ship(vic)["where"] == "line"


def test_7_actions_only_damaged_ships_leave_the_line():
    g, vic, bah, ori, sur = _transfer_setup()
    legal = g.legal_actions(0)
    assert not any(a["type"] == "transfer" and a["ship"] == bah for a in legal)
    with pytest.raises(IllegalAction):
        g.apply(0, {"type": "transfer", "ship": bah, "station": 0})
    hit(g, bah, "rig", 1)
    assert any(a["type"] == "transfer" and a["ship"] == bah for a in g.legal_actions(0))


def test_7_actions_dismasted_needs_a_tow():
    g, vic, bah, ori, sur = _transfer_setup()
    assert any(a["type"] == "transfer" and a["ship"] == ori for a in g.legal_actions(0))
    g.ship(sur)["rate"] = 4  # no 5th/6th rate in the Reserve to tow her
    assert not any(a["type"] == "transfer" and a["ship"] == ori for a in g.legal_actions(0))
    g.ship(sur)["rate"] = 6
    hit(g, sur, "rig", 3)  # the frigate is dismasted herself: no tow
    assert not any(a["type"] == "transfer" and a["ship"] == ori for a in g.legal_actions(0))
    g.ship(sur)["hits"] = []
    g.apply(0, {"type": "transfer", "ship": ori, "station": 1})
    # one tow per dismasted ship: a second dismasted ship needs a second frigate
    hit(g, vic, "rig", g.ship(vic)["rig"])
    assert not any(a["type"] == "transfer" and a["ship"] == vic for a in g.legal_actions(0))
    g.apply(0, {"type": "done"})
    assert g.state["turn"] == 1 and g.state["reserves"][0] == [sur, ori]


def test_7_actions_reserve_to_line_rules():
    g, vic, bah, ori, sur = _transfer_setup()
    pr = put(g, 0, "Santa Ana", "prize")
    put(g, 1, "Orient")
    dis = put(g, 0, "Shannon", "reserve")
    hit(g, dis, "rig", g.ship(dis)["rig"])
    movers = {
        a["ship"]
        for a in g.legal_actions(0)
        if a["type"] == "transfer" and g.ship(a["ship"])["where"] != "line"
    }
    assert movers == {sur}  # not the prize, not the dismasted ship
    g.apply(0, {"type": "transfer", "ship": sur, "station": 2})
    assert g.state["lines"][0] == [vic, bah, sur, ori]
    assert pr in g.state["reserves"][0]


def test_7_actions_reserve_not_fired_on_while_line_unbroken():
    g = fresh_adv(2)
    a = put(g, 0, "Bellerophon")
    t = put(g, 1, "Santa Ana")
    r = put(g, 1, "Surprise", "reserve")
    cid = give(g, 0, "broadside", rate=6)
    assert shoot_targets(g, 0, cid, a) == {t}
    fs = give(g, 0, "fire_ship")
    assert {x.get("ship") for x in g.legal_actions(0) if x.get("card") == fs and x["type"] == "play"} == {t}
    bl = give(g, 0, "break_line")
    g.state["hands"][0].remove(bl)
    g.state["in_play"]["btl"].append({"card": bl, "by": 0, "target": 1})
    g.ship(a)["breaker"] = bl
    assert shoot_targets(g, 0, cid, a) == {t, r}
    assert {x.get("ship") for x in g.legal_actions(0) if x.get("card") == fs and x["type"] == "play"} == {
        t,
        r,
    }


# ------------------------------------------------------------------ 7.111
def _lines(g, a_names, b_names):
    A = [put(g, 0, n) for n in a_names]
    B = [put(g, 1, n) for n in b_names]
    return A, B


GB5 = ["Bellerophon", "Agamemnon", "Orion", "Culloden", "Goliath"]
ES5 = ["San Nicolas", "Argonauta", "Bahama", "Monarca", "San Juan Nepomuceno"]


def test_7_111_target_selection_4_vs_5_example():
    g = fresh_adv(2)
    A, B = _lines(g, GB5[:4], ES5)
    cid = give(g, 0, "broadside", rate=6)
    # Ship #2 of Line A may target #2 or #3 of Line B, not #4 (A's #3 needs a ship to lie opposite)
    assert shoot_targets(g, 0, cid, A[1]) == {B[1], B[2]}
    assert shoot_targets(g, 0, cid, A[2]) == {B[2], B[3]}
    assert shoot_targets(g, 0, cid, A[0]) == {B[0]}  # lead on lead
    assert shoot_targets(g, 0, cid, A[3]) == {B[4]}  # rear on rear
    assert station_targets(4, 5, 1) == [1, 2] and station_targets(5, 4, 2) == [1, 2]
    # and from the longer Line: the middle ships of B each find their possible opposites in A
    g.state["turn"] = 1
    c2 = give(g, 1, "broadside", rate=6)
    assert shoot_targets(g, 1, c2, B[1]) == {A[1]}
    assert shoot_targets(g, 1, c2, B[2]) == {A[1], A[2]}
    assert shoot_targets(g, 1, c2, B[3]) == {A[2]}


def test_7_111_target_selection_equal_lines_station_on_station():
    g = fresh_adv(2)
    A, B = _lines(g, GB5[:4], ES5[:4])
    cid = give(g, 0, "broadside", rate=6)
    for i in range(4):
        assert shoot_targets(g, 0, cid, A[i]) == {B[i]}


def test_7_111_target_selection_1_ship():
    g = fresh_adv(2)
    A, B = _lines(g, GB5[:1], ES5)
    cid = give(g, 0, "broadside", rate=6)
    assert shoot_targets(g, 0, cid, A[0]) == set(B)  # a one-ship Line fires at any station
    g.state["turn"] = 1
    c2 = give(g, 1, "broadside", rate=6)
    for b in B:  # and every ship of the longer Line may fire at it
        assert shoot_targets(g, 1, c2, b) == {A[0]}


def test_7_111_target_selection_2_ships():
    g = fresh_adv(2)
    A, B = _lines(g, GB5[:2], ES5)
    cid = give(g, 0, "broadside", rate=6)
    assert shoot_targets(g, 0, cid, A[0]) == set(B) and shoot_targets(g, 0, cid, A[1]) == set(B)
    g.state["turn"] = 1
    c2 = give(g, 1, "broadside", rate=6)
    assert shoot_targets(g, 1, c2, B[0]) == set(A) and shoot_targets(g, 1, c2, B[2]) == set(A)


def test_7_111_target_selection_stations_menus_and_firers():
    g = fresh_adv(2)
    A, B = _lines(g, GB5[:3], ES5[:3])
    g.ship(B[1])["struck"] = True  # A's #2 has nobody it may fire at: it is not offered as a firer
    cid = give(g, 0, "broadside", rate=6)
    firers = {a["ship"] for a in g.legal_actions(0) if a.get("card") == cid and a["type"] == "play"}
    assert firers == {A[0], A[2]}
    g.apply(0, {"type": "play", "card": cid, "ship": A[0]})
    paths = {tuple(k for k, _ in g.action_path(0, a)) for a in g.legal_actions(0) if a["type"] == "shoot"}
    assert {p[1] for p in paths} == {f"t:{B[0]}"}  # the DM menu offers only the legal station


# ------------------------------------------------------------------ 7.121
def test_7_121_line_breakers():
    g = fresh_adv(3)
    A = [put(g, 0, n) for n in ["Bucentaure", "Redoutable", "Franklin", "Fougueux"]]
    res = put(g, 0, "Hermione", "reserve")
    B = [put(g, 1, n) for n in ["Victory", "Temeraire", "Vrijheid", "Haarlem"]]
    C = [put(g, 2, n) for n in ["Bellerophon", "San Nicolas", "Argonauta", "Monarca"]]
    bl = give(g, 1, "break_line")
    g.state["hands"][1].remove(bl)
    g.state["in_play"]["btl"].append({"card": bl, "by": 1, "target": 0})
    g.ship(B[0])["breaker"] = bl
    # the broken Line keeps its stations and attacks its opposites in any Line, not only the breaker's
    cid = give(g, 0, "broadside", rate=6)
    assert shoot_targets(g, 0, cid, A[1]) == {B[1], C[1]}
    # ships of the breaking nationality, of any player, fire at any ship of the broken Line or its Reserve
    g.state["turn"] = 2
    c2 = give(g, 2, "broadside", rate=6)
    assert shoot_targets(g, 2, c2, C[0]) == set(A) | {res, B[0]}
    assert shoot_targets(g, 2, c2, C[1]) == {A[1], B[1]}  # a Spanish ship keeps to its station
    # the Line Breaker attacks only the broken player, at any station
    g.state["turn"] = 1
    c1 = give(g, 1, "broadside", rate=6)
    assert shoot_targets(g, 1, c1, B[0]) == set(A) | {res}
    # the broken Line may itself break Lines
    g.state["turn"] = 0
    fb = give(g, 0, "break_line")
    assert {a["seat"] for a in g.legal_actions(0) if a.get("card") == fb and a["type"] == "play"} == {1, 2}


def test_escaping_a_break_the_line_card_breaker_to_the_reserve_repairs_line_and_reserve():
    # base rule "escaping a Break the Line card" repairs its damage; in the Advanced game the card also
    # leaves play when its Line Breaker leaves the Line for the Reserve, and its damage behind the Line
    # (the Reserve) is repaired too
    g = fresh_adv(2)
    A = [put(g, 0, n) for n in ["Victory", "Bellerophon", "Orion", "Culloden"]]
    t = put(g, 1, "Santa Ana")
    r = put(g, 1, "Surprise", "reserve")
    g.apply(0, {"type": "play", "card": give(g, 0, "break_line"), "seat": 1})
    g.apply(0, {"type": "breaker", "ship": A[0]})
    g.apply(0, {"type": "done"})
    assert all(g.dmg(g.ship(x), "rig") == 2 for x in (t, r))
    g.apply(1, {"type": "discard", "card": g.state["hands"][1][0]})
    hit(g, A[0], "hull", 1)  # only damaged ships may leave the Line
    g.apply(0, {"type": "transfer", "ship": A[0], "station": 0})
    assert not g.broken_by(1)
    assert all(g.dmg(g.ship(x), "hull") == 0 and g.dmg(g.ship(x), "rig") == 0 for x in (t, r))


# ------------------------------------------------------------------ 7.34
def test_7_34_prize_to_any_reserve_station():
    g = fresh_adv(2)
    a = put(g, 0, "Victory")
    r1 = put(g, 0, "Surprise", "reserve")
    r2 = put(g, 0, "Shannon", "reserve")
    t = put(g, 1, "Bahama")
    put(g, 1, "Orient")
    hit(g, t, "hull", g.ship(t)["hull"] - 4)
    g.ship(t)["struck"] = True
    bp = give(g, 0, "boarding")
    g.apply(0, {"type": "play", "card": bp, "ship": a, "target": t})
    assert g.state["phase"] == "capture"
    legal = g.legal_actions(0)
    assert {x.get("station") for x in legal if x["where"] == "prize"} == {0, 1, 2}
    assert g.timeout_action(0, random.Random(0)) in legal
    g.apply(0, {"type": "capture", "where": "prize", "station": 1})
    assert g.state["reserves"][0] == [r1, t, r2] and t in g.state["prizes"][0]
    assert g.ship(t)["where"] == "prize"
    v = g.view(None)["fleets"][0]["reserve"]
    assert [s["id"] for s in v] == [r1, t, r2] and v[1]["prize"] and not v[0]["prize"]


# ------------------------------------------------------------------ 7.4
def test_7_4_additional_ship_to_reserve_or_port():
    for where in ("reserve", "port"):
        g = fresh_adv(2)
        put(g, 0, "Victory")
        put(g, 1, "Santa Ana")
        cid = give(g, 0, "additional_ship")
        wheres = {a["where"] for a in g.legal_actions(0) if a.get("card") == cid and a["type"] == "play"}
        assert wheres == {"reserve", "port"}  # not the Line
        top = g.state["ship_deck"][0]
        g.apply(0, {"type": "play", "card": cid, "where": where})
        assert g.ship(top)["where"] == where
        assert top in g.state["reserves" if where == "reserve" else "ports"][0]


# ------------------------------------------------------------------ 7.6
def _fs_setup():
    g = fresh_adv(2)
    put(g, 0, "Victory")
    fs = give(g, 0, "fire_ship")
    return g, fs


def _fs_targets(g, fs):
    return [
        {k: v for k, v in a.items() if k in ("ship", "port")}
        for a in g.legal_actions(0)
        if a.get("card") == fs and a["type"] == "play"
    ]


def test_7_6_fire_ship_not_against_a_line_refusing_battle_but_into_its_port():
    g, fs = _fs_setup()
    t = put(g, 1, "Santa Ana")
    d = put(g, 1, "Bahama")
    hit(g, d, "rig", g.ship(d)["rig"])  # dismasted: not immune, still not a target under Refuse Battle
    put(g, 1, "Orient", "port")
    assert {"ship": t} in _fs_targets(g, fs) and {"ship": d} in _fs_targets(g, fs)
    rb = give(g, 1, "refuse_battle")
    g.state["hands"][1].remove(rb)
    g.state["in_play"]["refuse"].append({"card": rb, "by": 1})
    assert _fs_targets(g, fs) == [{"port": 1}]


def test_7_6_fire_ship_reserve_frigates_minus_one_each():
    g, fs = _fs_setup()
    t = put(g, 1, "Santa Ana")
    put(g, 1, "Surprise", "reserve")
    put(g, 1, "Shannon", "reserve")
    dm = put(g, 1, "Phoebe", "reserve")
    hit(g, dm, "rig", g.ship(dm)["rig"])  # a dismasted frigate does not count
    put(g, 1, "Leander", "reserve")  # nor a 4th rate
    fix_dice(g, 6)
    ev = g.apply(0, {"type": "play", "card": fs, "ship": t})
    miss = next(e for e in ev if e["type"] == "fire_ship_miss")
    assert "die 6-2 = 4" in miss["text"] and g.ship(t)["where"] == "line"


def test_7_6_fire_ship_dismasted_plus_one_six_sinks():
    g, fs = _fs_setup()
    t = put(g, 1, "Santa Ana")
    hit(g, t, "rig", g.ship(t)["rig"])
    fix_dice(g, 5)
    ev = g.apply(0, {"type": "play", "card": fs, "ship": t})
    assert any(e["type"] == "fire_ship_hit" and "die 5+1 = 6" in e["text"] for e in ev)
    assert t in g.state["sunk"][0]
    # with one frigate in the Reserve the bonus is cancelled: 6 still sinks, 5 does not
    for die, sinks in ((6, True), (5, False)):
        g, fs = _fs_setup()
        t = put(g, 1, "Santa Ana")
        put(g, 1, "Surprise", "reserve")
        hit(g, t, "rig", g.ship(t)["rig"])
        fix_dice(g, die)
        g.apply(0, {"type": "play", "card": fs, "ship": t})
        assert (t in g.state["sunk"][0]) == sinks


def test_7_6_fire_ship_each_ship_in_port_separately():
    g, fs = _fs_setup()
    put(g, 1, "Santa Ana")
    p1 = put(g, 1, "Orient", "port")
    p2 = put(g, 1, "Bahama", "port")
    fix_dice(g, 5, 4)
    ev = g.apply(0, {"type": "play", "card": fs, "port": 1})
    assert [e["type"] for e in ev if e["type"].startswith("fire_ship_")] == [
        "fire_ship_hit",
        "fire_ship_miss",
    ]
    assert p1 in g.state["sunk"][0] and p2 in g.state["ports"][1]


def test_advanced_7_6_fire_ship_against_port_counts_mobile_reserve():
    """ "-1 for every mobile 5th or 6th rate ship in the opponent's Reserve": into a Port too."""
    g, fs = _fs_setup()
    put(g, 1, "Santa Ana")
    put(g, 1, "Surprise", "reserve")
    put(g, 1, "Shannon", "reserve")
    p1 = put(g, 1, "Orient", "port")
    p2 = put(g, 1, "Bahama", "port")
    fix_dice(g, 6, 6)
    ev = g.apply(0, {"type": "play", "card": fs, "port": 1})
    rolls = [e["text"] for e in ev if e["type"].startswith("fire_ship_")]
    assert rolls and all("die 6-1 = 5" in text for text in rolls), rolls  # +1 in Port, -2 for the frigates
    assert p1 in g.state["ports"][1] and p2 in g.state["ports"][1]


def test_advanced_7_6_7_34_mobile_prize_in_reserve_counts():
    """7.34 puts a Prize "in any station in his Reserve": a mobile 5th or 6th rate Prize is one of the
    Reserve's mobile frigates for 7.6 (a dismasted or bigger Prize is not)."""
    g, fs = _fs_setup()
    t = put(g, 1, "Santa Ana")
    put(g, 1, "Hermione", "prize")  # FR 5th rate, mobile
    dm = put(g, 1, "Surprise", "prize")
    hit(g, dm, "rig", g.ship(dm)["rig"])  # dismasted: no screen
    put(g, 1, "Bahama", "prize")  # 3rd rate: no screen
    fix_dice(g, 6)
    ev = g.apply(0, {"type": "play", "card": fs, "ship": t})
    miss = next(e for e in ev if e["type"] == "fire_ship_miss")
    assert "die 6-1 = 5" in miss["text"] and g.ship(t)["where"] == "line"
    # and against the Port
    g, fs = _fs_setup()
    put(g, 1, "Santa Ana")
    put(g, 1, "Hermione", "prize")
    p1 = put(g, 1, "Orient", "port")
    fix_dice(g, 5)
    ev = g.apply(0, {"type": "play", "card": fs, "port": 1})
    assert any("die 5 = 5" in e["text"] for e in ev if e["type"] == "fire_ship_miss")
    assert p1 in g.state["ports"][1]


def test_7_6_fire_ship_not_against_reserve_unless_broken():
    g, fs = _fs_setup()
    t = put(g, 1, "Santa Ana")
    r = put(g, 1, "Surprise", "reserve")
    assert _fs_targets(g, fs) == [{"ship": t}]
    bl = give(g, 1, "break_line")
    g.state["hands"][1].remove(bl)
    g.state["in_play"]["btl"].append({"card": bl, "by": 0, "target": 1})
    g.ship(g.state["lines"][0][0])["breaker"] = bl
    assert {"ship": r} in _fs_targets(g, fs)


def test_7_6_fire_ship_burning_ship_is_not_a_fire_ship():
    g = fresh_adv(2)
    a = put(g, 0, "Victory")
    put(g, 0, "Bahama")
    t = put(g, 1, "Santa Ana")
    hit(g, a, "hull", 1)
    fire = give(g, 0, "fire", hull_max=3)
    g.state["hands"][0].remove(fire)
    g.ship(a)["fires"].append({"card": fire, "loc": "hull"})
    give(g, 0, "repair")
    # a burning ship gives no Fire Ship attack: only a Fire Ship card makes one
    legal = g.legal_actions(0)
    assert not any(x["type"] == "play" and g.card(x["card"])["type"] == "fire_ship" for x in legal)
    assert not any(x.get("ship") == t for x in legal)


# ------------------------------------------------------------------ 8.3
def test_8_3_line_maintenance_reserve_becomes_line():
    g = fresh_adv(2)
    a = put(g, 0, "Victory")
    t = put(g, 1, "Bahama")
    r = put(g, 1, "Surprise", "reserve")
    pr = put(g, 1, "Santa Ana", "prize")
    hit(g, t, "hull", g.ship(t)["hull"] - 1)
    cid = give(g, 0, "broadside", rate=1)
    g.apply(0, {"type": "play", "card": cid, "ship": a})
    ev = g.apply(0, {"type": "shoot", "ship": t, "loc": "hull"})
    assert any(e["type"] == "reserve_to_line" for e in ev)
    assert g.state["lines"][1] == [r] and g.state["reserves"][1] == [pr]  # prizes never join the Line
    g._end_round([])
    assert g.state["scores"][1] >= 0  # a Line at sea at the end of the hand: no penalty


def test_8_3_line_maintenance_penalty_negative_scores():
    g = fresh_adv(2)
    put(g, 0, "Victory")
    pr = put(g, 1, "Surprise", "prize")  # a Reserve of prizes only is no Line
    hit(g, pr, "hull", 4)
    hit(g, pr, "rig", 3)
    put(g, 1, "Bahama", "port")  # nor are ships in Port
    g._check_cards([])
    assert g.state["lines"][1] == []
    g._end_round([])
    assert g.state["scores"] == [0, 1 - 15]  # prize at sea worth its undamaged 1 Hull, minus 15: negative
