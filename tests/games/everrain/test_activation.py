"""The enemy-ship rule text, one test per sentence (docs/rules/everrain.md maps them).

Test sea (conftest.TEST_SEA): ports at axial (0,0) and (8,7), an island at (4,3), rough sea at (5,6)-(6,6).
Ship crews [0, 2, 5] man only guns, so the defender rolls no Evasion dice unless a test says otherwise.
"""

from __future__ import annotations

from bot.games.everrain import board as B
from bot.games.everrain.board import distance

GUNS_ONLY = [0, 2, 5]


def _setup(kit, players=1):
    g = kit.make(players)
    f = kit.Forced(g)
    return g, f


# ---------------------------------------------------------------- Enemy Ship Movement
def test_enemy_ships_moving_is_one_of_the_things_that_can_happen_during_enemy_ship_activation(kit):
    g, f = _setup(kit)
    e = kit.add_enemy(g, "cutter", (5, 2), facing=0)
    f.faces["enemy"].append(["move", "move", "damage"])
    g._activate(e["uid"])
    la = g.state["last_activation"]
    assert (e["q"], e["r"]) != (5, 2)
    assert la["path"][0] == [5, 2] and la["path"][-1] == [e["q"], e["r"]]
    assert la["dest_moves"] == 2


def test_if_the_enemy_ship_can_attack_a_player_it_tries_to_do_so(kit):
    g, f = _setup(kit)
    s = kit.place(g, 0, (6, 2), crew=GUNS_ONLY)
    e = kit.add_enemy(g, "cutter", (5, 2), facing=0)  # (6,2) is the hex ahead
    f.faces["enemy"].append(["damage", "damage", "omen"])
    f.fates += [5, 5]
    g._activate(e["uid"])
    la = g.state["last_activation"]
    assert la["target"] == 0 and la["attacked"] and la["damage"] == 2
    assert s["destroyed"].count(True) == 2
    assert (e["q"], e["r"]) == (5, 2)


def test_otherwise_it_tries_moving_towards_its_destination(kit):
    g, f = _setup(kit)
    e = kit.add_enemy(g, "cutter", (5, 2), facing=0)  # bound for port (0,0); ship 0 sits in that port
    before = distance((5, 2), (0, 0))
    f.faces["enemy"].append(["move", "move", "move"])
    g._activate(e["uid"])
    assert g.state["last_activation"]["target"] is None
    assert distance((e["q"], e["r"]), (0, 0)) == before - 3


def test_if_it_reaches_its_destination_it_is_banished_advancing_the_agenda_by_its_health_left(kit):
    g, f = _setup(kit)
    e = kit.add_enemy(g, "brig", (1, 0), facing=3, health=3, dest=(0, 0))  # next to port (0,0), 3 of 4 hp
    f.faces["enemy"].append(["move", "damage", "omen", "omen"])
    g._activate(e["uid"])
    assert g.enemy(e["uid"]) is None
    assert g.state["agenda"] == 3
    assert g.state["last_activation"]["banished"] and g.state["last_activation"]["agenda_steps"] == 3
    assert g.state["last_activation"]["dest_moves"] == 1 and g.state["last_activation"]["path"][-1] == [0, 0]


# ---------------------------------------------------------------- Enemy Ship Activation
def test_enemy_ships_normally_activate_as_part_of_the_enemy_phase(kit):
    g = kit.make(2)
    a = kit.add_enemy(g, "sentinel", (5, 0))
    b = kit.add_enemy(g, "sentinel", (2, 4))
    c = kit.add_enemy(g, "sentinel", (9, 1))
    g.apply(0, {"type": "end_turn"})
    assert g.state["phase"] == "players" and g.to_act() == [1]
    g.apply(1, {"type": "end_turn"})
    assert g.state["phase"] == "enemy" and g.to_act() == [0]
    assert {x["enemy"] for x in g.legal_actions(0)} == {a["uid"], b["uid"], c["uid"]}
    g.apply(0, {"type": "activate", "enemy": b["uid"]})
    assert g.state["phase"] == "enemy"
    g.apply(0, {"type": "activate", "enemy": c["uid"]})  # the last one activates by itself
    assert g.state["phase"] == "players" and g.state["round"] == 2
    assert [x["enemy"] for x in g.state["activations"]] == [b["uid"], c["uid"], a["uid"]]


def test_check_its_dice_value_and_roll_that_many_enemy_dice(kit):
    for card, data in B.enemy_cards().items():
        g, f = _setup(kit)
        e = kit.add_enemy(g, card, (5, 2))
        g._activate(e["uid"])
        assert f.rolled[0] == ("enemy", data["dice"])
        assert len(g.state["last_activation"]["dice"]) == data["dice"]
        assert set(g.state["last_activation"]["dice"]) <= {"move", "damage", "omen"}


def test_then_check_if_any_player_ship_is_within_engagement_range_and_not_in_a_port_space(kit):
    # in range (3 hexes ahead, outside the 2-hex pattern): targeted
    g, f = _setup(kit)
    kit.place(g, 0, (8, 2), crew=GUNS_ONLY)
    e = kit.add_enemy(g, "cutter", (5, 2), facing=0)
    f.faces["enemy"].append(["move", "damage", "damage"])
    g._activate(e["uid"])
    assert g.state["last_activation"]["target"] == 0
    # 4 hexes away: beyond Engagement Range 3, not targeted
    g, f = _setup(kit)
    kit.place(g, 0, (9, 2), crew=GUNS_ONLY)
    e = kit.add_enemy(g, "cutter", (5, 2), facing=0)
    f.faces["enemy"].append(["move", "damage", "damage"])
    g._activate(e["uid"])
    assert g.state["last_activation"]["target"] is None
    # in a Port space 2 hexes ahead: not targeted
    g, f = _setup(kit)
    s = kit.place(g, 0, (0, 0), crew=GUNS_ONLY)
    e = kit.add_enemy(g, "galleon", (1, 0), facing=3)
    e["dest"], e["dest_label"] = [], "none"
    f.faces["enemy"].append(["damage"] * 5)
    g._activate(e["uid"])
    assert g.state["last_activation"]["target"] is None and not any(s["destroyed"])


def test_if_one_is_it_tries_to_attack_it_and_otherwise_moves_towards_its_destination_if_it_has_one(kit):
    # the Reef Sentinel has no destination: with nobody in range it stays put
    g, f = _setup(kit)
    e = kit.add_enemy(g, "sentinel", (5, 2), facing=0)
    f.faces["enemy"].append(["move"] * 4)
    g._activate(e["uid"])
    assert (e["q"], e["r"]) == (5, 2) and g.state["last_activation"]["path"] == [[5, 2]]
    # with a ship in range it attacks
    kit.place(g, 0, (6, 2), crew=GUNS_ONLY)
    e["activated"] = False
    f.faces["enemy"].append(["damage", "damage", "move", "omen"])
    g._activate(e["uid"])
    assert g.state["last_activation"]["attacked"] and g.state["last_activation"]["damage"] == 2


def test_if_multiple_player_ships_are_in_range_it_attacks_the_nearest_in_least_dice_spent(kit):
    g, f = _setup(kit, players=2)
    kit.place(g, 0, (4, 2), crew=GUNS_ONLY)  # 1 hex astern: nearer in hexes, but needs Move outcomes
    kit.place(g, 1, (7, 2), crew=GUNS_ONLY)  # 2 hexes ahead: already in the bow pattern
    e = kit.add_enemy(g, "cutter", (5, 2), facing=0)
    f.faces["enemy"].append(["damage", "damage", "damage"])
    g._activate(e["uid"])
    la = g.state["last_activation"]
    costs = {c["seat"]: c["cost"] for c in la["candidates"]}
    assert costs[1] == 0 and costs[0] >= 2
    assert la["target"] == 1 and la["fate"] is None
    assert g.ship(1)["destroyed"].count(True) == 3 and not any(g.ship(0)["destroyed"])


def test_in_the_event_of_a_tie_roll_the_fate_die_to_decide_which_player_ship_it_attacks(kit):
    for fate, expected in ((4, 0), (7, 1)):
        g, f = _setup(kit, players=2)
        kit.place(g, 0, (6, 2), crew=GUNS_ONLY)
        kit.place(g, 1, (4, 2), crew=GUNS_ONLY)
        e = kit.add_enemy(g, "galleon", (5, 2), facing=0)  # hits all six neighbours: both cost 0
        f.faces["enemy"].append(["damage"] * 5)
        f.fates.append(fate)
        g._activate(e["uid"])
        la = g.state["last_activation"]
        assert la["fate"] == fate and la["target"] == expected


def test_a_fate_die_tie_among_3_or_4_ships_picks_each_with_equal_chance(kit):
    # Exhaustive over the ten faces of the d10: every face either picks a ship or is rolled again,
    # and each tied ship is picked by the same number of faces (so with the same chance).
    spots = [(6, 2), (4, 2), (5, 1), (6, 1)]  # four of the Black Galleon's neighbours
    for players in (2, 3, 4):
        picked: dict[int, list[int]] = {seat: [] for seat in range(players)}
        for face in range(10):
            g, f = _setup(kit, players=players)
            for seat in range(players):
                kit.place(g, seat, spots[seat], crew=GUNS_ONLY)
            e = kit.add_enemy(g, "galleon", (5, 2), facing=0)  # hits all six neighbours: every ship costs 0
            e["dest"] = []
            f.faces["enemy"].append(["move"])
            f.fates += [face, 0]  # a face that picks nobody is rolled again (-> 0)
            g._activate(e["uid"])
            la = g.state["last_activation"]
            assert [c["cost"] for c in la["candidates"]] == [0] * players
            if la["fate"] == face:
                picked[la["target"]].append(face)
            else:  # rolled again: the second roll decided
                assert la["fate"] == 0 and la["target"] == 0
        counts = {seat: len(faces) for seat, faces in picked.items()}
        assert len(set(counts.values())) == 1, (players, picked)
        assert counts[0] * players == 10 - 10 % players, (players, picked)


def test_in_artillery_reach_it_directly_deals_as_much_damage_as_it_can_using_all_damage_outcomes(kit):
    g, f = _setup(kit)
    s = kit.place(g, 0, (6, 2), crew=GUNS_ONLY)
    e = kit.add_enemy(g, "frigate", (5, 2), facing=0)
    f.faces["enemy"].append(["damage"] * 5)
    f.fates += [0, 1, 2, 3, 4]
    g._activate(e["uid"])
    la = g.state["last_activation"]
    assert la["attacked"] and la["approach"] == 0 and la["damage"] == 5
    assert s["destroyed"] == [True] * 5 + [False] * 5
    assert (e["q"], e["r"]) == (5, 2)


def test_each_damage_outcome_deals_one_damage(kit):
    for faces, dmg in (
        (["damage", "move", "omen"], 1),
        (["damage", "damage", "omen"], 2),
        (["move", "omen", "move"], 1),
    ):
        g, f = _setup(kit)
        kit.place(g, 0, (6, 2), crew=GUNS_ONLY)
        e = kit.add_enemy(g, "cutter", (5, 2), facing=0)
        e["dest"] = []
        f.faces["enemy"].append(faces)
        g._activate(e["uid"])
        assert g.state["last_activation"]["damage"] == dmg
        assert g.ship(0)["destroyed"].count(True) == dmg


def test_it_converts_each_pair_of_same_type_other_outcomes_like_two_move_or_two_omen_to_one_damage(kit):
    for faces, dmg in (
        (["move", "move", "omen", "omen", "damage"], 3),
        (["move", "omen", "damage"], 1),
        (["move", "move", "move", "move", "omen"], 2),
        (["omen", "omen", "omen"], 1),
    ):
        g, f = _setup(kit)
        kit.place(g, 0, (6, 2), crew=GUNS_ONLY)
        e = kit.add_enemy(g, "frigate", (5, 2), facing=0)
        e["dest"] = []
        f.faces["enemy"].append(faces)
        g._activate(e["uid"])
        assert g.state["last_activation"]["damage"] == dmg, faces


def test_if_the_player_ship_is_not_in_artillery_range_it_spends_move_outcomes_to_move_into_attack_range(kit):
    g, f = _setup(kit)
    s = kit.place(g, 0, (8, 2), crew=GUNS_ONLY)  # 3 ahead; the bow pattern reaches 2
    e = kit.add_enemy(g, "cutter", (5, 2), facing=0)
    f.faces["enemy"].append(["move", "damage", "damage"])
    g._activate(e["uid"])
    la = g.state["last_activation"]
    assert la["approach"] == 1 and la["path"] == [[5, 2], [6, 2]]
    assert la["attacked"] and la["damage"] == 2 and s["destroyed"].count(True) == 2
    assert [8, 2] in la["hexes_hit"]
    # two Move outcomes needed but only one rolled: it closes in one hex and cannot attack
    g, f = _setup(kit)
    s = kit.place(g, 0, (7, 3), crew=GUNS_ONLY)
    e = kit.add_enemy(g, "cutter", (5, 2), facing=0)
    f.faces["enemy"].append(["move", "damage", "omen"])
    g._activate(e["uid"])
    la = g.state["last_activation"]
    assert la["candidates"] == [{"seat": 0, "cost": 2}]
    assert la["approach"] == 1 and not la["attacked"] and not any(s["destroyed"])
    assert distance((e["q"], e["r"]), (5, 2)) == 1


def test_if_there_are_unspent_move_outcomes_after_the_attack_it_moves_towards_its_destination(kit):
    g, f = _setup(kit)
    kit.place(g, 0, (6, 2), crew=GUNS_ONLY)
    e = kit.add_enemy(g, "cutter", (5, 2), facing=0)  # destination: port (0,0)
    f.faces["enemy"].append(["move", "move", "move"])
    g._activate(e["uid"])
    la = g.state["last_activation"]
    assert la["attacked"] and la["damage"] == 1  # the pair of Moves became one damage
    assert la["dest_moves"] == 1
    assert distance((e["q"], e["r"]), (0, 0)) == distance((5, 2), (0, 0)) - 1


def test_pairs_of_unspent_damage_or_omen_outcomes_are_converted_to_extra_move_points(kit):
    g, f = _setup(kit)
    e = kit.add_enemy(g, "frigate", (5, 2), facing=0)
    e["dest"], e["dest_label"] = [[0, 2]], "test hex"
    f.faces["enemy"].append(["move", "damage", "damage", "omen", "omen"])
    g._activate(e["uid"])
    assert g.state["last_activation"]["dest_moves"] == 3 and (e["q"], e["r"]) == (2, 2)
    # a Damage and an Omen are not a pair
    g, f = _setup(kit)
    e = kit.add_enemy(g, "frigate", (5, 2), facing=0)
    e["dest"], e["dest_label"] = [[0, 2]], "test hex"
    f.faces["enemy"].append(["move", "damage", "omen", "move", "move"])
    g._activate(e["uid"])
    assert g.state["last_activation"]["dest_moves"] == 3


def test_pairs_of_damage_or_omen_become_move_points_only_after_the_attack_not_to_close_in(kit):
    # A10 spends Move outcomes to move into attack range; A12 converts pairs "after performing the attack".
    # Two Move outcomes needed, one rolled: no pair of Damage or Omen carries it the missing hex.
    for faces in (
        ["move", "damage", "damage"],
        ["move", "omen", "omen", "damage"],
        ["move", "damage", "omen", "damage", "omen"],
    ):
        g, f = _setup(kit)
        s = kit.place(g, 0, (7, 3), crew=GUNS_ONLY)
        e = kit.add_enemy(g, "cutter", (5, 2), facing=0)
        f.faces["enemy"].append(faces)
        g._activate(e["uid"])
        la = g.state["last_activation"]
        assert la["candidates"] == [{"seat": 0, "cost": 2}], faces
        assert la["approach"] == 1 and len(la["path"]) == 2, faces
        assert not la["attacked"] and la["damage"] == 0 and not any(s["destroyed"]), faces
        # still closing in: it ends the activation on its route (H6), the pairs unused
        assert la["dest_moves"] == 0 and distance((e["q"], e["r"]), (5, 2)) == 1, faces
    # no Move outcome at all: it does not move, however many pairs it rolled
    g, f = _setup(kit)
    s = kit.place(g, 0, (7, 3), crew=GUNS_ONLY)
    e = kit.add_enemy(g, "cutter", (5, 2), facing=0)
    f.faces["enemy"].append(["damage", "omen", "damage", "omen"])
    g._activate(e["uid"])
    la = g.state["last_activation"]
    assert la["approach"] == 0 and not la["attacked"] and (e["q"], e["r"]) == (5, 2)
    assert not any(s["destroyed"])


def test_if_an_enemy_ship_reaches_its_destination_it_is_banished_advancing_the_agenda_by_its_remaining_health(
    kit,
):
    g, f = _setup(kit)
    g.state["agenda"] = 8
    e = kit.add_enemy(g, "brig", (1, 0), facing=3, dest=(0, 0))  # full health 4; Agenda 8 + 4 wraps past 10
    f.faces["enemy"].append(["move", "damage", "omen", "omen"])
    g._activate(e["uid"])
    assert g.state["agenda"] == 2 and g.state["enemy_discovery"] == 1
    assert g.state["last_activation"]["agenda_steps"] == 4


def test_enemy_reaching_destination_while_closing_in_is_banished(kit):
    # the only hex from which the Grey Cutter reaches the Blue ship is its destination
    g, f = _setup(kit)
    s = kit.place(g, 0, (8, 2), crew=GUNS_ONLY)
    e = kit.add_enemy(g, "cutter", (5, 2), facing=0, dest=(6, 2))
    f.faces["enemy"].append(["move", "damage", "damage"])
    g._activate(e["uid"])
    la = g.state["last_activation"]
    assert la["target"] == 0 and la["approach"] == 1 and la["path"] == [[5, 2], [6, 2]]
    assert la["banished"] and la["agenda_steps"] == 2 and g.state["agenda"] == 2
    assert not la["attacked"] and not any(s["destroyed"])
    assert g.enemy(e["uid"]) is None and "cutter" in g.state["deck"]
    # a destination in the middle of its route: Banished there, it sails no further
    g, f = _setup(kit)
    s = kit.place(g, 0, (7, 3), crew=GUNS_ONLY)
    e = kit.add_enemy(g, "cutter", (5, 2), facing=0, dest=(5, 3))
    assert g.attack_route(e, (7, 3))[0][:2] == [5, 3]
    f.faces["enemy"].append(["move", "move", "damage"])
    g._activate(e["uid"])
    la = g.state["last_activation"]
    assert la["banished"] and la["path"] == [[5, 2], [5, 3]] and not la["attacked"]
    assert g.enemy(e["uid"]) is None and g.state["agenda"] == 2 and not any(s["destroyed"])


def test_enemy_ship_standing_on_its_destination_is_banished_when_it_activates(kit):
    # (a ship left on its destination by a game saved before closing-in Banishment existed)
    g, f = _setup(kit)
    e = kit.add_enemy(g, "sloop", (0, 3), facing=3, dest=(0, 3))
    f.faces["enemy"].append(["move", "move", "damage"])
    g._activate(e["uid"])
    la = g.state["last_activation"]
    assert la["banished"] and la["agenda_steps"] == 3 and la["dest_moves"] == 0
    assert g.enemy(e["uid"]) is None and g.state["agenda"] == 3 and "sloop" in g.state["deck"]


def test_when_this_happens_shuffle_the_card_back_into_the_deck_and_remove_its_miniature(kit):
    g, f = _setup(kit)
    e = kit.add_enemy(g, "cutter", (1, 0), facing=3, dest=(0, 0))
    assert "cutter" not in g.state["deck"]
    size = len(g.state["deck"])
    f.faces["enemy"].append(["move", "move", "move"])
    g._activate(e["uid"])
    assert "cutter" in g.state["deck"] and len(g.state["deck"]) == size + 1
    assert all(x["card"] != "cutter" for x in g.state["enemies"])
    assert all(x["card"] != "cutter" for x in g.view(None)["enemies"])


# ---------------------------------------------------------------- the defender
def test_the_defender_rolls_one_evasion_die_per_manned_navigation_node_each_evade_cancels_one_damage(kit):
    g, f = _setup(kit)
    s = kit.place(g, 0, (6, 2), crew=[1, 4, 7])  # Foresail, Mainsail, Helm
    e = kit.add_enemy(g, "frigate", (5, 2), facing=0)
    e["dest"] = []
    f.faces["enemy"].append(["damage"] * 3 + ["move", "omen"])
    f.faces["evasion"].append(["evade", "evade", "blank"])
    g._activate(e["uid"])
    la = g.state["last_activation"]
    assert ("evasion", 3) in f.rolled
    assert la["damage"] == 3 and la["evaded"] == 2 and s["destroyed"].count(True) == 1
    # an unmanned (destroyed) navigation node does not roll
    g, f = _setup(kit)
    s = kit.place(g, 0, (6, 2), crew=[1, 4, 0])
    s["destroyed"][4] = True
    e = kit.add_enemy(g, "frigate", (5, 2), facing=0)
    f.faces["enemy"].append(["damage"] * 5)
    g._activate(e["uid"])
    assert ("evasion", 1) in f.rolled
