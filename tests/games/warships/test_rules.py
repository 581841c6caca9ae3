"""One test per Warships rule (see docs/rules/warships.md for the table)."""

from __future__ import annotations

import json

import pytest

from bot.games import IllegalAction, registry
from bot.games.warships.board import board

SPEC = registry.get("warships")
B = board()


def new(seed=7, **opts):
    return SPEC.new(2, opts, seed=seed)


# ------------------------------------------------------------------ spec and data
def test_spec_registered_with_options():
    assert SPEC.key == "warships" and SPEC.title == "Warships"
    assert (SPEC.min_players, SPEC.max_players) == (2, 2)
    names = {o.name: o for o in SPEC.options}
    for n in ("harder-attack", "greater-mobility", "initial-manoeuvres", "quick-setup"):
        assert names[n].kind == "bool" and names[n].default is False
    assert 0 < len(SPEC.summary) <= 1800


def test_unit_table_counts():
    counts = {t: B.types[t]["count"] for t in B.order}
    ships = sum(n for t, n in counts.items() if t not in ("battery", "mine"))
    assert ships == 26 and counts["battery"] == 4 and counts["mine"] == 6
    assert counts["landing"] == 1 and counts["missile"] >= 2


def test_unit_table_is_coherent_cycle():
    ships = [t for t in B.order if t not in ("battery", "mine")]
    for t in B.order:
        for x in B.types[t]["destroys"]:
            assert t in B.types[x]["destroyed_by"], (t, x)
        for x in B.types[t]["destroyed_by"]:
            assert t in B.types[x]["destroys"], (t, x)
    for a in ships:
        assert any(B.beats(x, a) for x in ships if x != a) or a == "battleship"
        for c in ships:
            if a != c:
                assert B.beats(a, c) != B.beats(c, a), (a, c)
    assert B.beats("submarine", "battleship")  # the cycle closes: every ship has a master
    for a in ships:
        assert any(B.beats(x, a) for x in ships if x != a)


def test_unit_table_matches_rule_statements():
    ships = [t for t in B.order if t not in ("battery", "mine")]
    assert B.types["missile"]["range"] == 1 and B.types["landing"]["range"] == 1
    assert B.types["missile"]["range_greater_mobility"] == 2
    assert B.types["landing"]["range_greater_mobility"] == 2
    assert set(B.types["battery"]["destroys"]) == set(ships) - {"missile"}
    assert B.types["battery"]["destroyed_by"] == ["missile"]
    assert B.types["battery"]["range"] == 1 and B.types["mine"]["range"] == 0


def test_board_data():
    for seat in (0, 1):
        assert len(B.light[seat]) >= 36
        assert len(B.entrances[seat]) == 2
        assert all(B.port_of[q] == seat for q in B.light[seat])
        for e, pair in zip(B.entrances[seat], B.batteries[seat], strict=True):
            assert len(pair) == 2 and all(q in B.near[e] and B.port_of[q] == seat for q in pair)
            assert B.entrance_front[e] in B.near[e] and B.port_of[B.entrance_front[e]] == -1
        assert len(B.manoeuvres[seat]) >= 12 and all(B.port_of[q] == -1 for q in B.manoeuvres[seat])
    assert B.neutral and B.islands <= B.neutral


# ------------------------------------------------------------------ setup
def test_secret_setup_in_own_port_on_light_squares():
    g = new()
    assert g.to_act() == [0, 1]
    for u in g.state["units"]:
        if u["t"] == "battery":
            assert B.battery_squares[u["sq"]] == u["o"]
        else:
            assert u["sq"] in B.light[u["o"]]
    places = [a for a in g.legal_actions(0) if a["type"] == "place"]
    assert places and all(B.index[a["to"]] in B.light[0] for a in places)


def test_setup_is_simultaneous_and_secret():
    g = new()
    ev = g.apply(0, next(a for a in g.legal_actions(0) if a["type"] == "swap"))
    assert all(e.get("private_to") == 0 for e in ev)
    for viewer in (None, 1):
        v = g.view(viewer)
        assert all(u["owner"] != 0 or u["type"] == "battery" for u in v["units"])
    g.apply(0, {"type": "submit"})
    assert g.to_act() == [1]
    with pytest.raises(IllegalAction):
        g.apply(0, {"type": "submit"})
    ev = g.apply(1, {"type": "submit"})
    assert g.view(None)["phase"] == "play" and g.to_act() == [g.state["first"]]
    assert any(e["type"] == "start" for e in ev)


def test_setup_swap_and_place():
    g = new()
    swap = next(a for a in g.legal_actions(0) if a["type"] == "swap")
    ta, tb = g.view(0), None
    types = {u["sq"]: u["type"] for u in ta["units"]}
    g.apply(0, swap)
    tb = {u["sq"]: u["type"] for u in g.view(0)["units"]}
    assert tb[swap["a"]] == types[swap["b"]] and tb[swap["b"]] == types[swap["a"]]
    place = next(a for a in g.legal_actions(0) if a["type"] == "place")
    moved = tb[place["from"]]
    g.apply(0, place)
    tc = {u["sq"]: u["type"] for u in g.view(0)["units"]}
    assert place["from"] not in tc and tc[place["to"]] == moved


def test_batteries_fixed_facing_opponent():
    g = new()
    for a in g.legal_actions(0):
        for k in ("a", "b", "from"):
            if k in a:
                assert B.index[a[k]] not in B.battery_squares
    v = g.view(None)  # batteries stand face up: public from the start
    bats = [u for u in v["units"] if u["type"] == "battery"]
    assert len(bats) == 8 and all(B.battery_squares[B.index[u["sq"]]] == u["owner"] for u in bats)
    g2 = new()
    for s in (0, 1):
        g2.apply(s, {"type": "submit"})
    seat = g2.to_act()[0]
    assert not any(
        B.index[a.get("from", "A1")] in B.battery_squares and a["type"] == "move"
        for a in g2.legal_actions(seat)
    )


def test_mines_in_port_or_kept_off_board():
    g = new()
    keep = next(a for a in g.legal_actions(0) if a["type"] == "keep_mine")
    g.apply(0, keep)
    v = g.view(0)
    assert v["off_board_mines"] == {"0": 1}
    assert keep["at"] not in {u["sq"] for u in v["units"]}
    put = [a for a in g.legal_actions(0) if a["type"] == "put_mine"]
    assert put and all(B.index[a["to"]] in B.light[0] for a in put)
    g.apply(0, put[0])
    assert g.view(0)["off_board_mines"] == {"0": 0}
    # the other seat learns nothing, not even how many mines are kept
    assert "0" not in g.view(1)["off_board_mines"]


def test_quick_setup():
    g = new(**{"quick-setup": True})
    assert g.state["phase"] == "play" and len(g.to_act()) == 1
    assert g.state["submitted"] == [True, True]


def test_initial_manoeuvres():
    g = new(**{"initial-manoeuvres": True})
    area = {B.names[q] for q in B.manoeuvres[0]}
    places = [a for a in g.legal_actions(0) if a["type"] == "place" and a["to"] in area]
    assert places
    units = {u["sq"]: u["type"] for u in g.view(0)["units"]}
    assert all(units[a["from"]] != "mine" for a in places)
    n = 0
    while True:
        acts = [
            a
            for a in g.legal_actions(0)
            if a["type"] == "place" and a["to"] in area and a["from"] not in area
        ]
        if not acts:
            break
        g.apply(0, acts[0])
        n += 1
    assert n == 12  # at most 12 tokens in front of the port
    plain = new()
    assert not any(a["type"] == "place" and a["to"] in area for a in plain.legal_actions(0))


# ------------------------------------------------------------------ first move
def test_first_move_out_through_exit_when_possible(ws):
    g = ws.build([(0, "escort", "C14"), (0, "cruiser", "F14")], first_done=False)
    acts = [a for a in g.legal_actions(0) if a["type"] != "lay_mine"]
    assert {a["to"] for a in acts} == {"C12", "C11"}
    with pytest.raises(IllegalAction):
        g.apply(0, {"type": "move", "from": "F14", "to": "G14"})
    g.apply(0, {"type": "move", "from": "C14", "to": "C11"})
    assert any(a["to"] == "G14" for a in g.legal_actions(0)) is False  # Red's turn now
    g.apply(1, {"type": "move", "from": "L1", "to": "K1"})
    assert {"type": "move", "from": "F14", "to": "G14"} in g.legal_actions(0)


def test_random_first_player():
    firsts = {new(seed=s, **{"quick-setup": True}).to_act()[0] for s in range(12)}
    assert firsts == {0, 1}


def test_first_move_must_leave_port_through_exit():
    g = new(seed=3, **{"quick-setup": True})
    seat = g.to_act()[0]
    acts = [a for a in g.legal_actions(seat) if a["type"] != "lay_mine"]
    assert acts
    outside = all(B.port_of[B.index[a["to"]]] != seat for a in acts)
    onto = all(B.index[a["to"]] in B.entrances[seat] for a in acts)
    for a in acts:
        assert a["type"] == "move" and B.port_of[B.index[a["from"]]] == seat
    assert outside or onto
    g.apply(seat, acts[0])
    other = g.to_act()[0]
    assert any(B.port_of[B.index[a["to"]]] == other for a in g.legal_actions(other) if a["type"] == "move")


# ------------------------------------------------------------------ movement
def test_moves_in_eight_directions_up_to_range(ws):
    g = ws.build([(0, "escort", "F11")])
    got = ws.targets(g, 0, "F11")
    assert got == {
        "F10",
        "F9",
        "F8",
        "F12",
        "G11",
        "H11",
        "I11",
        "E11",
        "D11",
        "C11",
        "G10",
        "H9",
        "I8",
        "E10",
        "D9",
        "C8",
        "G12",
        "E12",
    }


def test_shorter_moves_allowed(ws):
    g = ws.build([(0, "destroyer", "F11")])
    got = ws.targets(g, 0, "F11")
    assert {"G11", "H11", "I11", "J11"} <= got  # 1, 2, 3 or 4 fields


def test_cannot_stop_on_or_pass_through_occupied(ws):
    g = ws.build([(0, "escort", "F11"), (0, "submarine", "F9"), (1, "cruiser", "H11")])
    got = ws.targets(g, 0, "F11")
    assert "F10" in got and "F9" not in got and "F8" not in got
    assert "G11" in got and "H11" not in got and "I11" not in got


def test_fortification_line_cannot_be_crossed(ws):
    g = ws.build([(0, "escort", "F14")])
    got = ws.targets(g, 0, "F14")
    assert "F13" in got and "F12" not in got and "E12" not in got and "G12" not in got


def test_port_left_only_through_exits(ws):
    g = ws.build([(0, "escort", "C14"), (0, "cruiser", "J13")])
    assert {"C13", "C12", "C11"} <= ws.targets(g, 0, "C14")
    out = ws.targets(g, 0, "J13")
    assert "J12" in out and "I12" not in out and "K12" not in out  # straight through, not diagonally


def test_enemy_enters_only_through_exit_without_batteries(ws):
    g = ws.build([(0, "cruiser", "C7"), (0, "missile", "C5")])
    assert "C5" not in ws.targets(g, 0, "C7") and "C6" in ws.targets(g, 0, "C7")
    assert "C4" not in ws.targets(g, 0, "C5")  # even a missile ship: both batteries must be gone
    g = ws.build([(0, "cruiser", "C8"), (0, "missile", "C5")], drop_batteries=("B4",))
    assert "C4" not in ws.targets(g, 0, "C5")
    g = ws.build([(0, "cruiser", "C8"), (0, "missile", "E5")], drop_batteries=("B4", "D4"))
    assert {"C7", "C6", "C5"} == {q for q in ws.targets(g, 0, "C8") if q[0] == "C" and int(q[1:]) < 8}
    g.apply(0, {"type": "move", "from": "C8", "to": "C5"})
    g.apply(1, {"type": "move", "from": "L1", "to": "L2"})
    assert "C4" in ws.targets(g, 0, "C5") and "C3" in ws.targets(g, 0, "C5")


def test_no_enemy_but_missile_moves_through_battery_range(ws):
    g = ws.build([(0, "destroyer", "F6"), (0, "missile", "F5")])
    dd = ws.targets(g, 0, "F6")
    assert "E5" not in dd and "D6" in dd and "B6" in dd
    assert "E5" in ws.targets(g, 0, "F5")  # missile ships may
    g = ws.build([(0, "destroyer", "A7")])
    assert "A6" in ws.targets(g, 0, "A7") and "A5" not in ws.targets(g, 0, "A7")


# ------------------------------------------------------------------ attacks
def test_attack_in_place(ws):
    g = ws.build([(0, "destroyer", "F11"), (1, "submarine", "F7")])
    a = {"type": "attack", "from": "F11", "target": "F7"}
    assert a in g.legal_actions(0)
    g.apply(0, a)
    assert ws.at(g, "F11")["t"] == "destroyer" and ws.at(g, "F7") is None


def test_move_then_attack_one_move(ws):
    g = ws.build([(0, "cruiser", "A12"), (1, "escort", "A8")])
    a = {"type": "attack", "from": "A12", "via": "A11", "target": "A8"}
    assert a in g.legal_actions(0)
    assert not any(x["type"] == "attack" and "via" not in x for x in g.legal_actions(0))
    g.apply(0, a)
    assert ws.at(g, "A11")["t"] == "cruiser" and ws.at(g, "A8") is None
    assert g.to_act() == [1]  # moving and attacking was one move


def test_target_within_range(ws):
    g = ws.build([(0, "submarine", "L11"), (1, "cruiser", "L6")])
    assert not any(a["type"] == "attack" for a in g.legal_actions(0) if a["from"] == "L11")
    g = ws.build([(0, "submarine", "L11"), (1, "cruiser", "L7")])  # 2 fields moved + range 2
    assert {a.get("via") for a in g.legal_actions(0) if a["type"] == "attack"} == {"L9"}


def test_attack_over_line_only_missile_and_battery(ws):
    g = ws.build([(0, "cruiser", "F5"), (0, "missile", "A5"), (1, "escort", "F4"), (1, "escort", "A4")])
    assert "F4" not in ws.targets(g, 0, "F5", "attack")
    assert "A4" in ws.targets(g, 0, "A5", "attack")
    g.apply(0, {"type": "attack", "from": "A5", "target": "A4"})  # missile loses to the escort
    assert ws.at(g, "A5") is None and ws.at(g, "A4")["rv"]


def test_clash_reveals_both_types_loser_removed_winner_face_down(ws):
    g = ws.build([(0, "battleship", "F11"), (1, "cruiser", "F10"), (1, "escort", "L10")])
    assert g.view(1)["units"] and all(u["type"] is None for u in g.view(1)["units"] if u["sq"] == "F11")
    ev = g.apply(0, {"type": "attack", "from": "F11", "target": "F10"})
    clash = next(e for e in ev if e["type"] == "clash")
    assert "private_to" not in clash and clash["attacker"] == "battleship" and clash["defender"] == "cruiser"
    assert "Battleship" in clash["text"] and "Cruiser" in clash["text"]
    assert ws.at(g, "F10") is None and ws.at(g, "F11")["t"] == "battleship"
    assert g.view(None)["lost"]["1"]["types"] == {"cruiser": 1}


def test_revealed_units_remembered(ws):
    g = ws.build([(0, "battleship", "F11"), (1, "cruiser", "F10"), (1, "escort", "L10")])
    g.apply(0, {"type": "attack", "from": "F11", "target": "F10"})
    g.apply(1, {"type": "move", "from": "L10", "to": "L11"})
    g.apply(0, {"type": "move", "from": "F11", "to": "G11"})
    for viewer in (None, 1):
        u = next(u for u in g.view(viewer)["units"] if u["sq"] == "G11")
        assert u["type"] == "battleship" and u["revealed"]


def test_same_types_destroy_each_other(ws):
    g = ws.build([(0, "cruiser", "F11"), (1, "cruiser", "F10")])
    g.apply(0, {"type": "attack", "from": "F11", "target": "F10"})
    assert ws.at(g, "F11") is None and ws.at(g, "F10") is None


def test_defender_wins_clash(ws):
    g = ws.build([(0, "escort", "F11"), (1, "battleship", "F10")])
    g.apply(0, {"type": "attack", "from": "F11", "target": "F10"})
    assert ws.at(g, "F11") is None and ws.at(g, "F10")["rv"]


# ------------------------------------------------------------------ batteries
def test_battery_taken_out_only_by_missile_ship_one_per_move(ws):
    g = ws.build([(0, "missile", "C5"), (0, "cruiser", "B5")])
    bats = {a["target"] for a in g.legal_actions(0) if a["type"] == "battery"}
    assert bats == {"B4", "D4"}
    assert not any(a.get("target") in ("B4", "D4") for a in g.legal_actions(0) if a["from"] == "B5")
    g.apply(0, {"type": "battery", "from": "C5", "target": "B4"})
    assert ws.at(g, "B4") is None and g.to_act() == [1]
    e = next(x for x in g.view(None)["batteries"] if x["entrance"] == "C4")
    assert e["batteries"] == {"B4": False, "D4": True} and not e["open"]
    assert ws.at(g, "C5")["rv"]  # only a missile ship can do that: its type is known


def test_battery_destroys_all_but_missile_within_one_field_including_port(ws):
    g = ws.build([(0, "battleship", "C3"), (0, "missile", "E5"), (0, "cruiser", "A5")], turn=1)
    tg = ws.targets(g, 1, "B4", "attack")
    assert tg == {"C3", "A5"}  # in the port and over the line; E5 is out of reach of B4
    g.apply(1, {"type": "attack", "from": "B4", "target": "C3"})
    assert ws.at(g, "C3") is None and ws.at(g, "B4")["t"] == "battery"
    g = ws.build([(0, "missile", "E5")], turn=1)
    g.apply(1, {"type": "attack", "from": "D4", "target": "E5"})
    # a missile ship is immune to a battery, and a battery is lost only when a missile ship takes it out
    assert ws.at(g, "D4")["t"] == "battery" and ws.at(g, "E5")["t"] == "missile"


def test_battery_removed_only_by_missile_ship(ws):
    """No action but a missile ship's "I'm taking out the battery" removes a battery."""
    # the battery fires at a missile ship: the missile ship is immune, nothing is removed
    g = ws.build([(0, "missile", "E5")], turn=1)
    a = {"type": "attack", "from": "D4", "target": "E5"}
    assert a in g.legal_actions(1)
    ev = g.apply(1, a)
    assert ws.at(g, "D4")["t"] == "battery" and ws.at(g, "E5")["t"] == "missile"
    assert ws.at(g, "E5")["rv"] and ev[0]["removed"] == [] and g.state["lost"]["1"] == []
    assert g.to_act() == [0] and not g.is_over
    # the battery fires at a mine: the mine goes, the battery stays (no "both removed" for a battery)
    g = ws.build([(0, "mine", "C5")], turn=1)
    g.apply(1, {"type": "attack", "from": "B4", "target": "C5"})
    assert ws.at(g, "C5") is None and ws.at(g, "B4")["t"] == "battery"
    # the battery destroys every other enemy type within one field and stays
    for t in ("battleship", "cruiser", "destroyer", "submarine", "escort", "minesweeper", "landing"):
        g = ws.build([(0, t, "C5")], turn=1)
        g.apply(1, {"type": "attack", "from": "B4", "target": "C5"})
        assert ws.at(g, "C5") is None and ws.at(g, "B4")["t"] == "battery", t
    # no other unit can attack a battery: not a ship next to it, not a ship firing into the port,
    # not a minesweeper's defusal, not a missile ship's plain attack (only "battery")
    for t in (
        "battleship",
        "cruiser",
        "destroyer",
        "submarine",
        "escort",
        "minesweeper",
        "landing",
        "missile",
    ):
        g = ws.build([(0, t, "C5"), (0, t, "G3")], drop_batteries=("I4", "K4"))
        g.state["units"].append(ws.unit(1, "battery", "E3"))  # a battery inside reach from the port
        for a in g.legal_actions(0):
            if a.get("target") in ("B4", "D4", "E3"):
                assert t == "missile" and a["type"] == "battery", a
    # and a missile ship taking it out removes exactly the battery
    g = ws.build([(0, "missile", "C5")])
    g.apply(0, {"type": "battery", "from": "C5", "target": "B4"})
    assert ws.at(g, "B4") is None and ws.at(g, "C5")["t"] == "missile"


# ------------------------------------------------------------------ mines
def test_mines_laid_next_to_minesweeper_outside_neutral(ws):
    g = ws.build([(0, "minesweeper", "F11")], mines_off={0: 2})
    lay = {a["at"] for a in g.legal_actions(0) if a["type"] == "lay_mine"}
    assert lay == {"E10", "F10", "G10", "E11", "G11", "E12", "F12", "G12"}
    g = ws.build([(0, "minesweeper", "F10")], mines_off={0: 2})
    lay = {a["at"] for a in g.legal_actions(0) if a["type"] == "lay_mine"}
    assert lay == {"E10", "G10", "E11", "F11", "G11"}  # not into neutral waters
    g = ws.build([(0, "minesweeper", "F9")], mines_off={0: 2})
    assert not any(a["type"] == "lay_mine" for a in g.legal_actions(0))


def test_mines_any_number_not_a_move_never_moved(ws):
    g = ws.build([(0, "minesweeper", "F11")], mines_off={0: 2})
    ev = g.apply(0, {"type": "lay_mine", "at": "F12"})
    assert g.to_act() == [0] and "private_to" not in ev[0]
    g.apply(0, {"type": "lay_mine", "at": "G12"})
    assert g.to_act() == [0] and ws.at(g, "F12")["t"] == "mine" and ws.at(g, "G12")["t"] == "mine"
    assert not any(a["type"] == "lay_mine" for a in g.legal_actions(0))  # none left off the board
    assert not any(a.get("from") in ("F12", "G12") for a in g.legal_actions(0))
    g.apply(0, {"type": "move", "from": "F11", "to": "F10"})
    assert g.to_act() == [1]


def test_defuse_by_minesweeper(ws):
    g = ws.build([(0, "minesweeper", "F12"), (0, "destroyer", "H11"), (1, "mine", "F10")])
    assert {"type": "defuse", "from": "F12", "target": "F10"} in g.legal_actions(0)
    assert not any(a["type"] == "defuse" for a in g.legal_actions(0) if a["from"] == "H11")
    g.apply(0, {"type": "defuse", "from": "F12", "target": "F10"})
    assert ws.at(g, "F10") is None and ws.at(g, "F12")["t"] == "minesweeper"


def test_attack_on_mine_removes_both(ws):
    for kind, frm, t in (("attack", "F12", "minesweeper"), ("attack", "H10", "destroyer")):
        g = ws.build([(0, t, frm), (1, "mine", "F10")])
        g.apply(0, {"type": kind, "from": frm, "target": "F10"})
        assert ws.at(g, "F10") is None and ws.at(g, frm) is None


# ------------------------------------------------------------------ neutral waters
def test_neutral_waters_no_attacks_into_or_out_of(ws):
    g = ws.build(
        [(0, "destroyer", "F11"), (1, "submarine", "F9"), (0, "cruiser", "H9"), (1, "escort", "H11")]
    )
    assert "F9" not in ws.targets(g, 0, "F11", "attack")
    from_h9 = [a for a in g.legal_actions(0) if a["type"] == "attack" and a["from"] == "H9"]
    assert from_h9 and all("via" in a for a in from_h9)  # only after leaving the neutral waters
    assert not any(a.get("via") and B.index[a["via"]] in B.neutral for a in g.legal_actions(0))


def test_neutral_waters_unit_removed_after_three_turns(ws):
    g = ws.build([(0, "escort", "F10"), (1, "escort", "A7")])
    g.apply(0, {"type": "move", "from": "F10", "to": "F9"})
    assert next(u for u in g.view(None)["units"] if u["sq"] == "F9")["nw"] == 1
    red = [("A7", "A6"), ("A6", "A7"), ("A7", "A6")]
    blue = [("A16", "B16"), ("B16", "A16"), ("A16", "B16")]
    for k in range(2, 5):
        g.apply(1, {"type": "move", "from": red[k - 2][0], "to": red[k - 2][1]})
        ev = g.apply(0, {"type": "move", "from": blue[k - 2][0], "to": blue[k - 2][1]})
        if k < 4:
            assert next(u for u in g.view(1)["units"] if u["sq"] == "F9")["nw"] == k
    assert ws.at(g, "F9") is None
    pub = [e for e in ev if e["type"] == "neutral_removed"]
    assert pub and "Escort" not in pub[0]["text"]
    assert g.view(1)["lost"]["0"] == {"types": {}, "unknown": 1, "total": 1}
    assert g.view(0)["lost"]["0"]["types"] == {"escort": 1}


# ------------------------------------------------------------------ game end
def test_landing_ship_in_enemy_port_wins(ws):
    g = ws.build([(0, "landing", "C5")], drop_batteries=("B4", "D4"))
    g.apply(0, {"type": "move", "from": "C5", "to": "C4"})
    assert g.is_over and g.result["winners"] == [0]


def test_landing_ship_entering_enemy_port_wins_even_if_it_then_attacks(ws):
    """The entry is the win: a move-then-attack whose move enters the port ends the game there."""
    for t in ("battleship", "mine", "landing", "missile"):
        g = ws.build([(0, "landing", "C5"), (1, t, "C3")], drop_batteries=("B4", "D4"))
        a = {"type": "attack", "from": "C5", "via": "C4", "target": "C3"}
        assert a in g.legal_actions(0)
        ev = g.apply(0, a)
        assert g.is_over and g.result["winners"] == [0], t
        assert ws.at(g, "C4")["t"] == "landing" and ws.at(g, "C3")["t"] == t  # the attack never happens
        assert [e["type"] for e in ev] == ["move", "game_over"]
        assert g.view(None)["last"] == {"seat": 0, "kind": "move", "from": "C5", "to": "C4"}
    # also with greater mobility (two fields in, then the attack)
    g = ws.build(
        [(0, "landing", "C6"), (1, "battleship", "B3")],
        drop_batteries=("B4", "D4"),
        options={"greater-mobility": True},
    )
    g.apply(0, {"type": "attack", "from": "C6", "via": "C4", "target": "B3"})
    assert g.is_over and g.result["winners"] == [0]


def test_destroyed_landing_ship_loses(ws):
    g = ws.build([(0, "landing", "F11"), (1, "minesweeper", "F12")], turn=1)
    g.apply(1, {"type": "attack", "from": "F12", "target": "F11"})
    assert g.is_over and g.result["winners"] == [1] and g.result["scores"] == {"0": 0, "1": 1}


def test_no_missile_ship_with_guarded_entrances_loses(ws):
    g = ws.build([(0, "missile", "F11"), (1, "escort", "F12")], turn=1)
    g.apply(1, {"type": "attack", "from": "F12", "target": "F11"})
    assert g.is_over and g.result["winners"] == [1]
    g = ws.build([(0, "missile", "F11"), (1, "escort", "F12")], turn=1, drop_batteries=("I4", "K4"))
    g.apply(1, {"type": "attack", "from": "F12", "target": "F11"})
    assert not g.is_over  # one enemy exit is open: a landing there is still possible
    g = ws.build([(0, "missile", "F11"), (1, "escort", "F12")], turn=1, drop_batteries=("I4",))
    g.apply(1, {"type": "attack", "from": "F12", "target": "F11"})
    assert g.is_over  # one battery left still guards that exit


def test_no_legal_move_loses(ws):
    g = ws.build([(1, "mine", "F11"), (0, "escort", "F12")], defaults=False)
    g.state["units"] += [
        ws.unit(0, "landing", "A16"),
        ws.unit(0, "missile", "L16"),
        ws.unit(1, "landing", "A1"),
        ws.unit(1, "missile", "L1"),
    ]
    # Red's only ships are walled in by its own mines
    for sq in ("A2", "B2", "B1", "K1", "K2", "L2"):
        g.state["units"].append(ws.unit(1, "mine", sq))
    g.apply(0, {"type": "move", "from": "F12", "to": "E12"})
    assert g.is_over and g.result["winners"] == [0] and "no legal move" in g.result["reason"]


def test_move_limit_house_rule(ws):
    g = ws.build([(0, "escort", "F11"), (1, "escort", "F6")])
    g.state["ply"] = B.move_limit - 1
    g.apply(0, {"type": "move", "from": "F11", "to": "F12"})
    assert g.is_over and g.result["winners"] == [] and g.result["scores"] == {"0": 0, "1": 0}


# ------------------------------------------------------------------ optional rules
def test_harder_attack(ws):
    g = ws.build([(0, "cruiser", "A12"), (1, "escort", "A8")])
    assert {"type": "attack", "from": "A12", "via": "A11", "target": "A8"} in g.legal_actions(0)
    g = ws.build([(0, "cruiser", "A12"), (1, "escort", "A8")], options={"harder-attack": True})
    assert not any(a["type"] == "attack" for a in g.legal_actions(0))
    g = ws.build([(0, "cruiser", "A12"), (1, "escort", "A9")], options={"harder-attack": True})
    vias = {a.get("via") for a in g.legal_actions(0) if a["type"] == "attack"}
    assert vias == {None, "A11", "A10"}


def test_greater_mobility(ws):
    g = ws.build([(0, "missile", "F11"), (0, "landing", "C11")])
    assert "F13" not in ws.targets(g, 0, "F11") and "H11" not in ws.targets(g, 0, "F11")
    g = ws.build([(0, "missile", "F11"), (0, "landing", "C11")], options={"greater-mobility": True})
    assert "H11" in ws.targets(g, 0, "F11") and "E11" in ws.targets(g, 0, "C11")
    assert "D9" in ws.targets(g, 0, "F11") and "F9" in ws.targets(g, 0, "F11")


# ------------------------------------------------------------------ views and host helpers
def test_view_battery_status_and_losses(ws):
    g = ws.build([(0, "missile", "C5"), (1, "escort", "L9")], drop_batteries=("D4",))
    g.apply(0, {"type": "battery", "from": "C5", "target": "B4"})
    v = g.view(None)
    e = next(x for x in v["batteries"] if x["entrance"] == "C4")
    assert e["open"] and e["batteries"] == {"B4": False, "D4": False}
    assert v["lost"]["1"]["types"] == {"battery": 1}
    assert v["last"]["kind"] == "battery" and v["last"]["target"] == "B4"
    json.dumps(v)


def test_action_paths_and_labels():
    g = new(seed=5)
    for seat in (0, 1):
        paths = [tuple(g.action_path(seat, a)) for a in g.legal_actions(seat)]
        assert len(set(paths)) == len(paths)
        for p in paths:
            assert all(len(label) <= 100 for _, label in p)
    assert len(g.menu_titles(0)) == 2
    for s in (0, 1):
        g.apply(s, {"type": "submit"})
    seat = g.to_act()[0]
    acts = g.legal_actions(seat)
    paths = [g.action_path(seat, a) for a in acts]
    assert len({tuple(p) for p in paths}) == len(paths)
    assert all(p[0][0].startswith("from:") for p in paths)
    assert all(len(g.describe(a)) <= 100 for a in acts)
    assert g.prompt(seat) and g.prompt(1 - seat).startswith("Waiting")
    assert len(g.text_view(g.view(None))) <= 1900


def test_lay_mine_menu_group(ws):
    g = ws.build([(0, "minesweeper", "F11")], mines_off={0: 1})
    lay = [a for a in g.legal_actions(0) if a["type"] == "lay_mine"]
    assert all(g.action_path(0, a)[0][0] == "mines" for a in lay)


def test_timeout_action_in_setup_submits():
    g = new()
    import random

    assert g.timeout_action(0, random.Random(1)) == {"type": "submit"}


def test_defuse_on_non_mine_is_a_clash(ws):
    g = ws.build([(0, "minesweeper", "F12"), (1, "escort", "F10")])
    ev = g.apply(0, {"type": "defuse", "from": "F12", "target": "F10"})
    assert ws.at(g, "F12") is None and ws.at(g, "F10")["rv"]  # the escort beats the minesweeper
    assert "but it is an Escort" in ev[-1]["text"]


def test_no_mines_in_enemy_battery_range(ws):
    g = ws.build([(0, "minesweeper", "F6")], mines_off={0: 1})
    lay = {a["at"] for a in g.legal_actions(0) if a["type"] == "lay_mine"}
    assert "E5" not in lay and {"F5", "G5", "E6", "E7"} <= lay
