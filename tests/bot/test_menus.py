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
