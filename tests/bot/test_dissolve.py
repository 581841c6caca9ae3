"""bot/layout.dissolve: a view that was sent is freed by reference counting, not left in a reference
cycle for the garbage collector (issue 19, the collector's pauses under load)."""

from __future__ import annotations

import gc
import weakref

from bot import layout, menus, ui
from bot.games import registry
from tests.bot.test_table_text import parts


def freed_without_the_collector(make) -> bool:
    """Whether the view ``make()`` builds, once dissolved and dropped, is gone with the collector off."""
    gc.collect()
    gc.disable()
    try:
        view = make()
        view.to_components()  # (as sent)
        gone = weakref.ref(view)
        layout.dissolve(view)
        del view
        return gone() is None
    finally:
        gc.enable()


def test_a_table_sent_is_freed_without_the_collector():
    assert freed_without_the_collector(lambda: layout.table_layout(parts(follow=ui.follow_button(7))))


def test_a_menu_sent_is_freed_without_the_collector():
    game = registry.get("enemy-lines").new(players=2, options={"quick-setup": True}, seed=7)
    seat = game.to_act()[0]
    level = menus.open_level(game, seat, names={0: "Ann", 1: "Bob"})

    assert freed_without_the_collector(lambda: ui.menu_view(7, 1, seat, level))


def test_a_view_not_dissolved_is_left_to_the_collector():
    # (the cycle this module breaks: should discord.py ever make views acyclic, dissolve can go)
    gc.collect()
    gc.disable()
    try:
        view = layout.table_layout(parts())
        gone = weakref.ref(view)
        del view
        assert gone() is not None
    finally:
        gc.enable()
        gc.collect()
