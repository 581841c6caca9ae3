"""Cascading menus built from legal actions."""

from __future__ import annotations

import discord

from bot import menus, ui
from bot.games import registry


def game_in_play():
    game = registry.get("enemy-lines").new(players=2, options={"quick-setup": True}, seed=5)
    return game, game.to_act()[0]


def test_tree_holds_every_legal_action_once():
    game, seat = game_in_play()
    root = menus.build_tree(game, seat)
    leaves = []

    def walk(node):
        if node.action is not None:
            leaves.append(node.action)
        for c in node.children:
            walk(c)

    walk(root)
    assert sorted(map(str, leaves)) == sorted(map(str, game.legal_actions(seat)))


def test_levels_page_long_lists_and_offer_back():
    game, seat = game_in_play()
    root = menus.build_tree(game, seat)
    first = menus.level(game, seat, root, ())
    assert first.entries and first.back is None
    second = menus.level(game, seat, root, (first.entries[0][0],))
    assert second.back == ()
    many = 2 * menus.PAGE + 10
    big = menus.Node(
        "", "", [menus.Node(str(i), f"entry {i}", action={"type": "x", "i": i}) for i in range(many)]
    )
    lvl = menus.level(game, seat, big, (), page=1)
    assert lvl.pages == 3 and lvl.entries[0][0] == menus.PAGE and len(lvl.entries) == menus.PAGE
    view = ui.menu_view(1, 0, seat, lvl)
    selects = view.children
    assert len(selects) == menus.SELECTS and all(isinstance(s, discord.ui.Select) for s in selects)
    values = [o.value for s in selects for o in s.options]
    assert values[0] == "p0" and values[-1] == "p2" and all(len(s.options) <= 25 for s in selects)
    assert values[1:-1] == [str(i) for i in range(menus.PAGE, 2 * menus.PAGE)]
    assert len({s.custom_id for s in selects}) == len(selects), "each select has its own id"
    assert sorted(s.row for s in selects) == list(range(menus.SELECTS))


def test_custom_ids_round_trip_and_fit_discord_limits():
    cid = ui.select_id(123456789, 9999, 5, (12, 3, 24, 7), 4)
    assert len(cid) <= 100
    m = ui.SELECT_RE.fullmatch(cid)
    assert m and menus.decode_prefix(m["prefix"]) == (12, 3, 24, 7) and m["page"] == "4"
    assert menus.decode_prefix(menus.encode_prefix(())) == ()


def test_flat_choices_labels_are_unique_enough_for_autocomplete():
    game, seat = game_in_play()
    labels = [label for label, _ in menus.flat_choices(game, seat)]
    assert len(labels) == len(game.legal_actions(seat))
    assert len(set(labels)) == len(labels)


def _eis_with_a_broadside(seed: int = 8):
    import random

    game = registry.get("enemy-in-sight").new(players=2, options={}, seed=seed)
    rng = random.Random(seed)
    for _ in range(200):
        seat = game.to_act()[0]
        root = menus.build_tree(game, seat)
        chained = [(p, n) for p, n, _ in menus.leaves(root) if n.then]
        if chained:
            return game, seat, root, chained
        game.apply(seat, game.ai_action(seat, rng))
    raise AssertionError("no broadside came up")


def test_broadside_is_one_select_entry_with_description():
    game, seat, root, chained = _eis_with_a_broadside()
    prefix, node = chained[0]
    assert [a["type"] for a in node.steps] == ["play", "shoot"]
    assert len(prefix) == 2 and menus.clicks(root, prefix) <= 2, "a card, then the whole shot"
    assert "→" in node.label and ("(Hull)" in node.label or "(Rigging)" in node.label)
    lvl = menus.level(game, seat, root, prefix[:-1])
    assert lvl.descriptions[prefix[-1]] == node.description and node.description
    select = ui.menu_view(1, 0, seat, lvl).children[0]
    option = next(o for o in select.options if o.value == str(prefix[-1]))
    assert option.label == node.label and option.description == node.description[:100]


def test_first_level_lists_the_cards_and_discard():
    game, seat, root, _ = _eis_with_a_broadside()
    hand = {game.card(c)["name"] for c in game.state["hands"][seat]}
    labels = [c.label for c in root.children]
    assert "Discard a card" in labels
    assert all(any(name in label for name in hand) for label in labels if label != "Discard a card")


def test_a_group_of_one_play_is_a_single_click():
    leaf = menus.Node("x", "Refuse Battle: play it", action={"type": "play"})
    root = menus.Node(
        "",
        "",
        [
            menus.Node("c", "Refuse Battle", [leaf]),
            menus.Node("d", "Other", [menus.Node("y", "Something else", action={"type": "other"})]),
        ],
    )
    menus._merge_single_leaves(root)
    assert root.children[0].action == {"type": "play"} and menus.clicks(root, (0,)) == 1
    assert root.children[1].action is None, "a group whose entry does not name it keeps its level"


def test_clicks_count_levels_with_a_choice_and_page_turns():
    big = menus.Node(
        "",
        "",
        [menus.Node(str(i), f"entry {i}", action={"type": "x", "i": i}) for i in range(2 * menus.PAGE)],
    )
    assert menus.clicks(big, (0,)) == 1 and menus.clicks(big, (menus.PAGE,)) == 2
    one = menus.Node(
        "",
        "",
        [
            menus.Node(
                "g", "group", [menus.Node("a", "a", action={"t": 1}), menus.Node("b", "b", action={"t": 2})]
            )
        ],
    )
    assert menus.clicks(one, (0, 1)) == 1, "a group of one is skipped"


def _eis_turn(players: int = 3):
    """An Enemy in Sight position at seat 0's card step, hand and table set by the test."""
    from tests.games.enemy_in_sight.helpers import fresh, give, place

    return fresh(players), give, place


def _click_through(game, seat: int, action: dict):
    """The prefix of the leaf that plays ``action`` (or whose choice it answers) and the clicks to it."""
    root = menus.build_tree(game, seat)
    found = menus.find_answer(root, action)
    assert found is not None, action
    prefix, node, _, picks = found
    return root, prefix, node, picks, menus.clicks(root, prefix) + 1  # + the multi-select itself


def test_break_the_line_is_one_multi_select_in_at_most_three_clicks():
    """Break the Line took 5 actions and 11 clicks: now card, opponent, then one multi-select of the
    Line Breakers (Discord select with min_values/max_values) - one action."""
    game, give, place = _eis_turn(3)
    mine = [place(game, 0, n) for n in ("Victory", "Bellerophon", "Orion", "Culloden", "Goliath")]
    place(game, 1, "Santa Ana")
    place(game, 2, "Bahama")
    cid = give(game, 0, "break_line")
    give(game, 0, "repair")
    action = {"type": "play", "card": cid, "seat": 2, "ships": [mine[4], mine[1]]}
    assert game.is_legal(0, action)
    root, prefix, node, picks, clicks = _click_through(game, 0, action)
    assert clicks <= 3
    level = menus.choice_level(game, 0, root, prefix)
    assert level is not None and level.choose == (1, 2) and len(level.entries) == len(mine) <= 25
    assert [label for _, label in level.entries] == ["Victory", "Bellerophon", "Orion", "Culloden", "Goliath"]
    assert menus.answer(node, picks) == [{**action, "ships": [mine[1], mine[4]]}]  # in the Line's order
    assert menus.answer(node, [0, 1, 2]) is None and menus.answer(node, []) is None
    assert menus.answer(node, [0, 0]) is None and menus.answer(node, [5]) is None
    controls = ui.menu_view(1, 7, 0, level).children
    select = next(c for c in controls if isinstance(c, discord.ui.Select))
    back = next(c for c in controls if isinstance(c, discord.ui.Button) and c.label == "◀ Back")
    assert ui.parse_button(back.custom_id).prefix == prefix[:-1]  # to the choice of the opponent
    assert (select.min_values, select.max_values, len(select.options)) == (1, 2, 5)
    assert ui.parse_choice(select.custom_id) == ui.MenuId(1, 7, 0, prefix)
    game.apply(0, menus.answer(node, picks)[0])
    assert game.to_act() == [1] and game.state["in_play"]["btl"]


def test_refuse_battle_moves_are_one_multi_select_with_a_none_button():
    game, give, place = _eis_turn(2)
    a = place(game, 0, "Victory")
    p = place(game, 0, "Orion", "port")
    place(game, 1, "Santa Ana")
    rb = give(game, 0, "refuse_battle")
    action = {"type": "play", "card": rb, "ships": [p, a]}
    root, prefix, node, picks, clicks = _click_through(game, 0, action)
    assert clicks <= 2
    level = menus.choice_level(game, 0, root, prefix)
    assert level.choose == (0, 2) and level.none_label == "Move no ship"
    assert [label for _, label in level.entries] == ["Orion: Port → Line", "Victory: Line → Port"]
    view = ui.menu_view(1, 7, 0, level)
    none = next(c for c in view.children if isinstance(c, discord.ui.Button) and c.label == "Move no ship")
    assert ui.parse_choice_none(none.custom_id) == ui.MenuId(1, 7, 0, prefix)
    assert menus.answer(node, []) == [{**action, "ships": []}]
    # discarded with ships in Port: Discard › Refuse Battle › the Port's ships
    discard = {"type": "discard", "card": rb, "ships": [p]}
    assert _click_through(game, 0, discard)[4] <= 3


def test_a_choice_of_more_candidates_than_a_select_holds_is_played_step_by_step():
    node = menus.Node(
        "x", "x", action={"type": "play", "ships": {"choose": list(range(26)), "min": 0, "max": 26}}
    )
    assert menus.choice_of(node) is None
    node.action["ships"]["choose"] = list(range(25))
    assert menus.choice_of(node) == ("ships", node.action["ships"])


def test_full_label_says_a_card_once_when_a_later_step_repeats_it():
    crumbs = [
        "Broadside 2 (rate 3)",
        "From Hercules (NL 3, H10/10 R6/6)",
        "Broadside 2 (rate 3) → Hermione (Hull)",
    ]
    assert (
        menus.full_label(crumbs) == "Broadside 2 (rate 3) from Hercules (NL 3, H10/10 R6/6) → Hermione (Hull)"
    )
    assert (
        menus.full_label(["Refuse Battle", "Refuse Battle: bring ships out"])
        == "Refuse Battle: bring ships out"
    )
    assert menus.full_label(["3-ship at C4", "travel east 2 → E4"]) == "3-ship at C4 › travel east 2 → E4"


def test_played_label_of_every_enemy_in_sight_entry_names_each_thing_once():
    """The "✅ Played" answer (and /move's choices) is the entry's full label: along random playouts of
    Enemy in Sight (both variants), no part of a label is said again in a later part."""
    import random

    checked = 0
    for options in ({}, {"variant": "advanced"}):
        game = registry.get("enemy-in-sight").new(2, options, seed=3)
        rnd = random.Random(3)
        for _ in range(120):
            if game.is_over:
                break
            seat = game.to_act()[0]
            for _, _, crumbs in menus.leaves(menus.build_tree(game, seat)):
                parts = menus.full_label(crumbs).split(" › ")
                for n, part in enumerate(parts):
                    assert not any(part.lower() in later.lower() for later in parts[n + 1 :]), parts
                checked += len(crumbs) > 2
            game.apply(seat, rnd.choice(game.legal_actions(seat)))
    assert checked, "entries of three steps (a card, its firer, its target) were met"
