"""Cascading menus built from legal actions."""

from __future__ import annotations

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
    big = menus.Node("", "", [menus.Node(str(i), f"entry {i}", action={"type": "x", "i": i}) for i in range(60)])
    lvl = menus.level(game, seat, big, (), page=1)
    assert lvl.pages == 3 and lvl.entries[0][0] == menus.PAGE and len(lvl.entries) == menus.PAGE
    view = ui.menu_view(1, 0, seat, lvl)
    select = view.children[0]
    values = [o.value for o in select.options]
    assert values[0] == "p0" and values[-1] == "p2" and len(values) <= 25


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
