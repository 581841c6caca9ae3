"""House rules and the player side of The Everrain (docs/rules/everrain.md)."""

from __future__ import annotations

import pytest

from bot.games import IllegalAction, registry
from bot.games.everrain import board as B
from bot.games.everrain.board import distance, pattern_hexes

GUNS_ONLY = [0, 2, 5]


def test_spec_options_and_summary():
    spec = registry.get("everrain")
    assert (spec.key, spec.title, spec.min_players, spec.max_players) == ("everrain", "The Everrain", 1, 4)
    assert spec.option("length").choices == ("short", "medium", "long")
    assert set(spec.option("scenario").choices) == {"strait", "archipelago"}
    assert 0 < len(spec.summary) <= 1800
    for length, end in (("short", 8), ("medium", 12), ("long", 16)):
        g = spec.new(players=2, options={"length": length}, seed=1)
        assert g.view(None)["tracks"]["discovery_end"] == end
    with pytest.raises(IllegalAction):
        spec.new(players=5)


def test_data_has_at_least_eight_enemy_cards_and_two_scenarios_of_six_hex_tiles():
    cards = B.enemy_cards()
    assert len(cards) >= 8
    for c in cards.values():
        assert c["health"] > 0 and c["dice"] > 0 and c["engagement"] > 0 and c["pattern"]
        assert c["destination"] == "none" or c["destination"].split(":")[0] in ("port", "edge", "mark")
    assert len(B.scenario_ids()) >= 2
    for sid in B.scenario_ids():
        m = B.scenario_map(sid)
        assert len(m.terrain) % 6 == 0 and m.ports and m.spawns and m.sites and "rift" in m.marks
    faces = B.dice()
    assert len(faces["enemy"]["faces"]) == 6 and set(faces["enemy"]["faces"]) == {"move", "damage", "omen"}
    assert set(faces["attack"]["faces"]) == {"damage", "omen", "blank"}
    assert set(faces["evasion"]["faces"]) == {"evade", "omen", "blank"}
    assert faces["fate"]["sides"] == 10
    kinds = [n["kind"] for n in B.ship_board()["node"]]
    assert len(kinds) == 10 and kinds.count("artillery") == 4 and "crows_nest" in kinds and "blank" in kinds


def test_land_blocks_line_of_sight_and_movement(kit):
    g = kit.make()
    m = g.map
    assert not m.line_of_sight((3, 3), (5, 3))  # the island (4,3) lies between
    assert m.line_of_sight((3, 2), (6, 2))
    s = kit.place(g, 0, (3, 3), facing=0)
    s["orders"] = 3
    assert {"type": "nav", "move": "forward"} not in g.legal_actions(0)


def test_navigation_gives_one_point_plus_one_per_manned_navigation_node(kit):
    g = kit.make()
    s = kit.place(g, 0, (3, 2), facing=0, crew=[1, 7, 0])  # two navigation nodes manned
    g.apply(0, {"type": "nav", "move": "forward"})
    assert s["orders"] == 2 and s["nav"] == 2 and (s["q"], s["r"]) == (4, 2)
    g.apply(0, {"type": "nav", "move": "left"})
    g.apply(0, {"type": "nav", "move": "forward"})
    assert s["facing"] == 1 and (s["q"], s["r"]) == (5, 1) and s["nav"] == 0 and s["orders"] == 2
    g.apply(0, {"type": "nav", "move": "right"})  # a new Navigation order
    assert s["orders"] == 1 and s["nav"] == 2 and s["facing"] == 0


def test_navigation_on_rough_sea_costs_two_points_per_action(kit):
    g = kit.make()
    s = kit.place(g, 0, (5, 6), facing=0, crew=GUNS_ONLY)  # rough sea, 1 point per order
    assert g._nav_points(s) == 1
    assert not any(a["type"] == "nav" for a in g.legal_actions(0))
    s["crew"] = [1, 0, 2]
    g.apply(0, {"type": "nav", "move": "forward"})
    assert s["nav"] == 0 and (s["q"], s["r"]) == (6, 6)


def test_other_order_ends_the_navigation_order(kit):
    g = kit.make()
    s = kit.place(g, 0, (3, 2), facing=0, crew=[1, 4, 7])
    g.apply(0, {"type": "nav", "move": "forward"})
    assert s["nav"] == 3
    g.apply(0, {"type": "crew", "member": 0, "to": 0})
    assert s["nav"] == 0 and s["orders"] == 1


def test_artillery_needs_a_manned_node_line_of_sight_and_the_arc_of_its_pattern(
    kit,
):
    g = kit.make()
    kit.place(g, 0, (3, 3), facing=0, crew=[0, 7, 1])  # bow gun manned; island (4,3) ahead
    e = kit.add_enemy(g, "galleon", (5, 3))
    assert not any(a["type"] == "fire" for a in g.legal_actions(0))  # no line of sight
    kit.place(g, 0, (3, 2), facing=0)
    e["q"], e["r"] = 5, 2
    assert {"type": "fire", "node": 0, "enemy": e["uid"]} in g.legal_actions(0)
    e["q"], e["r"] = 3, 1  # ahead-left: the port gun's arc, unmanned
    assert (3, 1) in pattern_hexes((3, 2), 0, B.ship_board()["node"][2]["arc"])
    assert not any(a["type"] == "fire" for a in g.legal_actions(0))
    g.ship(0)["crew"] = [2, 7, 1]
    assert {"type": "fire", "node": 2, "enemy": e["uid"]} in g.legal_actions(0)


def test_artillery_rolls_attack_dice_each_damage_is_one_trauma(
    kit,
):
    g = kit.make()
    f = kit.Forced(g)
    kit.place(g, 0, (3, 2), facing=0, crew=[0, 7, 1])
    e = kit.add_enemy(g, "galleon", (5, 2))
    f.faces["attack"].append(["damage", "damage"])
    g.apply(0, {"type": "fire", "node": 0, "enemy": e["uid"]})
    assert ("attack", 2) in f.rolled and e["health"] == 4 and g.ship(0)["orders"] == 2
    g.ship(0)["crew"] = [0, 3, 1]  # crow's nest manned: +1 Attack die
    f.faces["attack"].append(["blank", "blank", "blank"])
    g.apply(0, {"type": "fire", "node": 0, "enemy": e["uid"]})
    assert ("attack", 3) in f.rolled and e["health"] == 4


def test_an_unused_order_may_turn_an_omen_into_a_damage(kit):
    g = kit.make()
    f = kit.Forced(g)
    s = kit.place(g, 0, (3, 2), facing=0, crew=[0, 7, 1])
    e = kit.add_enemy(g, "galleon", (5, 2))
    f.faces["attack"].append(["omen", "omen"])
    g.apply(0, {"type": "fire", "node": 0, "enemy": e["uid"]})
    assert g.legal_actions(0) == [{"type": "omen", "convert": True}, {"type": "omen", "convert": False}]
    g.apply(0, {"type": "omen", "convert": True})
    assert e["health"] == 5 and s["orders"] == 1 and g.state["pending"]["omens"] == 1
    g.apply(0, {"type": "omen", "convert": False})
    assert g.state["pending"] is None and s["orders"] == 1 and e["health"] == 5


def test_sinking_an_enemy_ship_wins_its_clues_and_returns_its_card(kit):
    g = kit.make()
    f = kit.Forced(g)
    s = kit.place(g, 0, (3, 2), facing=0, crew=[0, 7, 1])
    e = kit.add_enemy(g, "brig", (5, 2), health=1)
    f.faces["attack"].append(["damage", "blank"])
    g.apply(0, {"type": "fire", "node": 0, "enemy": e["uid"]})
    assert g.enemy(e["uid"]) is None and s["clues"] == 2 and s["kills"] == 1 and "brig" in g.state["deck"]


def test_crew_order_moves_one_crew_member(kit):
    g = kit.make()
    s = g.ship(0)
    g.apply(0, {"type": "crew", "member": 1, "to": 3})
    assert s["crew"] == [7, 3, 5] and s["orders"] == 2
    with pytest.raises(IllegalAction):
        g.apply(0, {"type": "crew", "member": 0, "to": 5})  # occupied
    s["destroyed"][6] = True
    assert {"type": "crew", "member": 0, "to": 6} not in g.legal_actions(0)


def test_explore_takes_a_clue_from_a_site_in_reach(kit):
    g = kit.make()
    g.state["sites"] = {"6,2": 1}
    s = kit.place(g, 0, (4, 2), crew=[7, 2, 5])
    assert not any(a["type"] == "explore" for a in g.legal_actions(0))  # 2 away
    s["crew"] = [7, 3, 5]  # crow's nest: range 2
    g.apply(0, {"type": "explore", "site": "6,2"})
    assert s["clues"] == 1 and g.state["sites"]["6,2"] == 0
    assert not any(a["type"] == "explore" for a in g.legal_actions(0))


def test_visiting_a_port_repairs_and_delivers_clues_to_discovery(kit):
    g = kit.make()
    s = kit.place(g, 0, (1, 0), facing=3, crew=[1, 4, 7])
    s["destroyed"][0] = s["destroyed"][9] = True
    s["clues"] = 3
    g.apply(0, {"type": "nav", "move": "forward"})
    assert (s["q"], s["r"]) == (0, 0) and not any(s["destroyed"])
    assert s["clues"] == 0 and s["delivered"] == 3 and g.state["discovery"] == 3


def test_ships_in_a_port_cannot_attack(kit):
    g = kit.make()
    kit.place(g, 0, (0, 0), facing=0, crew=[0, 7, 1])
    kit.add_enemy(g, "galleon", (1, 0))
    assert not any(a["type"] == "fire" for a in g.legal_actions(0))


def test_each_damage_rolls_the_fate_die_to_destroy_that_node_else_nearest_lower_intact_else_higher(kit):
    g = kit.make()
    f = kit.Forced(g)
    s = g.ship(0)
    f.fates += [4, 4, 4, 0, 0]  # 4; 4 is gone -> 3; -> 2; 0; 0 and nothing lower -> 1
    g._damage_player(s, 5)
    assert [i for i, d in enumerate(s["destroyed"]) if d] == [0, 1, 2, 3, 4]
    f.fates += [9, 9]
    g._damage_player(s, 2)
    assert [i for i, d in enumerate(s["destroyed"]) if d] == [0, 1, 2, 3, 4, 8, 9]


def test_all_nodes_destroyed_sinks_the_ship_which_restarts_at_the_nearest_free_port(kit):
    g = kit.make(2)
    f = kit.Forced(g)
    s = kit.place(g, 0, (6, 5), crew=GUNS_ONLY)
    kit.place(g, 1, (8, 7))  # in the nearer port
    s["destroyed"] = [True] * 9 + [False]
    s["clues"] = 2
    f.fates.append(3)
    g._damage_player(s, 1)
    assert (s["q"], s["r"]) == (0, 0) and not any(s["destroyed"])
    assert s["clues"] == 0 and s["sunk"] == 1 and g.state["agenda"] == B.rules()["sink_agenda"]
    assert s["crew"] == B.ship_board()["crew_start"]


def test_agenda_advances_two_plus_one_per_player_and_wraps_into_enemy_discovery(kit):
    for players in (1, 3):
        g = kit.make(players)
        g.state["agenda"] = 7
        for seat in range(players):
            g.apply(seat, {"type": "end_turn"})
        total = 7 + 2 + players
        assert g.state["agenda"] == total % 10
        assert g.state["enemy_discovery"] == total // 10
        assert g.state["round"] == 2


def test_agenda_wrap_refills_sites_and_spawns_an_enemy(kit):
    g = kit.make(1)
    g.state["agenda"] = 8
    g.state["sites"] = {"6,2": 0}
    g.apply(0, {"type": "end_turn"})
    assert g.state["enemy_discovery"] == 1 and g.state["sites"]["6,2"] == 1
    # min_enemies of the strait is 2, one wrap: two ships spawn on the spawn hex... only one fits
    assert len(g.state["enemies"]) == 1
    assert (g.state["enemies"][0]["q"], g.state["enemies"][0]["r"]) == g.map.spawns[0]


def test_first_player_rotates_and_chooses_the_activation_order(kit):
    g = kit.make(2)
    a = kit.add_enemy(g, "sentinel", (5, 0))
    kit.add_enemy(g, "sentinel", (2, 4))
    g.apply(0, {"type": "end_turn"})
    g.apply(1, {"type": "end_turn"})
    assert g.to_act() == [0]
    g.apply(0, {"type": "activate", "enemy": a["uid"]})
    assert g.state["round"] == 2 and g.state["first"] == 1 and g.to_act() == [1]
    g.apply(1, {"type": "end_turn"})
    g.apply(0, {"type": "end_turn"})
    assert g.to_act() == [1] and g.state["phase"] == "enemy"


def test_discovery_end_wins_for_everyone(kit):
    g = kit.make(2)
    g.state["discovery"] = 7
    s = kit.place(g, 0, (1, 0), facing=3)
    s["clues"] = 1
    g.apply(0, {"type": "nav", "move": "forward"})
    assert g.is_over and g.result["winners"] == [0, 1] and g.to_act() == []
    assert g.result["scores"] == {"0": 1, "1": 0}


def test_enemy_discovery_end_loses_for_everyone(kit):
    g = kit.make(1)
    assert g.enemy_discovery_end() == B.rules()["enemy_discovery_end"]["short"] + 1  # solo bonus
    assert kit.make(2).enemy_discovery_end() == B.rules()["enemy_discovery_end"]["short"]
    g.state["enemy_discovery"] = g.enemy_discovery_end() - 1
    g.state["agenda"] = 9
    g.apply(0, {"type": "end_turn"})
    assert g.is_over and g.result["winners"] == [] and g.legal_actions(0) == []
    with pytest.raises(IllegalAction):
        g.apply(0, {"type": "end_turn"})


def test_turn_ends_by_itself_when_no_order_is_left(kit):
    g = kit.make(2)
    kit.place(g, 0, (3, 2), crew=GUNS_ONLY)
    for to in (1, 4, 7):
        g.apply(0, {"type": "crew", "member": 0, "to": to})
    assert g.to_act() == [1]


def test_enemy_destinations_port_edge_mark_and_none(kit):
    g = kit.make()
    m = g.map
    for card, kind in (("cutter", "port"), ("sloop", "edge"), ("frigate", "mark"), ("sentinel", "none")):
        e = kit.add_enemy(g, card, (5, 2))
        if kind == "port":
            assert e["dest"] == [[0, 0]]  # 7 away, nearer than (8,7)
        elif kind == "edge":
            assert [list(h) for h in m.edges["W"]] == e["dest"]
        elif kind == "mark":  # the test sea has no Rift: nearest port
            assert e["dest"] == [[0, 0]]
        else:
            assert e["dest"] == []
    # a port closer than 5 hexes to the spawn hex is skipped; an edge it spawned on becomes the far one
    assert kit.add_enemy(g, "cutter", (2, 0))["dest"] == [[8, 7]]
    west = kit.add_enemy(g, "sloop", (1, 2))
    assert west["dest_label"] == "E edge" and [list(h) for h in m.edges["E"]] == west["dest"]
    real = B.scenario_map("strait")
    assert all(distance(h, real.marks["rift"]) > 0 for h in real.spawns)


def test_spawns_until_the_scenario_minimum_plus_one_per_extra_player():
    spec = registry.get("everrain")
    for players in (1, 3):
        g = spec.new(players=players, options={"scenario": "strait"}, seed=4)
        g.state["enemies"] = []
        g.state["agenda"] = 0
        for seat in g.state["order"]:
            g.apply(seat, {"type": "end_turn"})
        floor = B.scenario_info("strait")["min_enemies"] + B.rules()["enemies_per_extra_player"] * (
            players - 1
        )
        assert len(g.state["enemies"]) == floor
        spawns = set(g.map.spawns)
        assert all((e["q"], e["r"]) in spawns for e in g.state["enemies"])
        assert all(e["card"] not in g.state["deck"] for e in g.state["enemies"])


def test_ships_block_movement_except_in_ports(kit):
    g = kit.make(2)
    kit.place(g, 0, (3, 2), facing=0)
    e = kit.add_enemy(g, "sentinel", (4, 2))
    assert {"type": "nav", "move": "forward"} not in g.legal_actions(0)
    e["q"], e["r"] = 9, 0
    kit.place(g, 1, (4, 2))
    assert {"type": "nav", "move": "forward"} not in g.legal_actions(0)
    kit.place(g, 1, (0, 0))  # another ship in the port: may share it
    kit.place(g, 0, (1, 0), facing=3)
    assert {"type": "nav", "move": "forward"} in g.legal_actions(0)


def test_ai_reads_no_hidden_state(kit):
    import random

    spec = registry.get("everrain")
    for seed in range(5):
        g = spec.new(players=2, options={"scenario": "archipelago"}, seed=seed)
        rng = random.Random(seed)
        for _ in range(40):
            if g.is_over:
                break
            seat = g.to_act()[0]
            other = spec.from_json(g.to_json())
            other.state["deck"].reverse()  # hidden: the deck order
            other.rng.seed(seed + 99)  # hidden: future dice
            a = g.ai_action(seat, random.Random(seed))
            assert a == other.ai_action(seat, random.Random(seed))
            assert a in g.legal_actions(seat)
            g.apply(seat, rng.choice([a, *g.legal_actions(seat)]))


def test_dice_are_written_as_words_a_player_reads(kit):
    # an enemy roll, its attack with the defender's Evasion dice, and a player's shot: each roll reads as
    # counted outcome words ("3 Move, 1 Damage and 1 Omen"), never as face letters ("M/D/O/M/M")
    g = kit.make()
    f = kit.Forced(g)
    kit.place(g, 0, (6, 3), crew=[7, 1, 0])  # two manned navigation nodes: two Evasion dice
    e = kit.add_enemy(g, "cutter", (5, 3), facing=0)
    e["dest"] = []
    f.faces["enemy"].append(["move", "damage", "omen", "move", "move"])
    f.faces["evasion"].append(["evade", "blank"])
    events = g._activate(e["uid"])
    texts = [x["text"] for x in events]
    assert "Grey Cutter activates and rolls 3 Move, 1 Damage and 1 Omen." in texts
    attack = next(x["text"] for x in events if x["type"] == "enemy_attack")
    assert attack.endswith(": 2 damage; Evasion dice roll 1 Evade and 1 blank, cancelling 1."), attack
    trace = g.state["last_activation"]["text"]
    assert trace.startswith("Grey Cutter: 3 Move, 1 Damage and 1 Omen; "), trace
    assert g.state["activations"][-1]["text"] == trace
    f.faces["attack"].append(["damage", "blank"])
    kit.place(g, 0, (3, 2), facing=0, crew=[0, 7, 1])
    target = kit.add_enemy(g, "galleon", (5, 2))
    (shot, *_) = g.apply(0, {"type": "fire", "node": 0, "enemy": target["uid"]})
    assert shot["text"].endswith(": 1 Damage and 1 blank → 1 trauma."), shot["text"]
    for text in [*texts, trace, shot["text"]]:
        assert "/" not in text and "move, " not in text and "evade, " not in text, text
