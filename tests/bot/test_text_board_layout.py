"""The table's **Text board** button sits beside the seats, within Discord's 40 components whatever the
controls (before Follow, which gives way first); its ids are routed to the text board cog only."""

from __future__ import annotations

import re

import discord

from bot import layout, ui
from tests.bot.test_follow_layout import follow_buttons
from tests.bot.test_table_text import full_controls, parts, valid


def text_board_buttons(view: discord.ui.LayoutView) -> list[discord.ui.Button]:
    return [
        item
        for item in view.walk_children()
        if isinstance(item, discord.ui.Button) and (item.custom_id or "").startswith("adm:tb:")
    ]


def test_text_board_sits_beside_the_seats_with_follow_and_the_most_controls_a_menu_makes():
    menu = full_controls()[:3] + [[]] + [full_controls()[4][:5]]  # 15 choices, then Back / My view row
    view = layout.table_layout(
        parts(controls=menu, follow=ui.follow_button(7), text_board_button=ui.text_board_button(7))
    )
    [button] = text_board_buttons(view)
    assert button.custom_id == "adm:tb:7" and button.label == "Text board"
    assert isinstance(button.parent, discord.ui.Section) and "Ann" in button.parent.children[0].content
    assert len(follow_buttons(view)) == 1
    assert view.total_children_count <= layout.MAX_COMPONENTS and not valid(view)


def test_text_board_stays_before_follow_when_controls_leave_room_for_one():
    menu = full_controls()[:4] + [full_controls()[4][:3]]  # 4 rows of 5, then 3: 28 components
    view = layout.table_layout(
        parts(controls=menu, follow=ui.follow_button(7), text_board_button=ui.text_board_button(7))
    )
    assert len(text_board_buttons(view)) == 1 and follow_buttons(view) == []
    assert view.total_children_count <= layout.MAX_COMPONENTS and not valid(view)


def test_text_board_gives_way_to_controls_that_fill_the_message():
    view = layout.table_layout(parts(controls=full_controls(), text_board_button=ui.text_board_button(7)))
    assert text_board_buttons(view) == []
    assert view.total_children_count == layout.MAX_COMPONENTS and not valid(view)


def test_text_board_ids_are_routed_by_their_own_template_only():
    custom_id = ui.text_board_id(12)
    assert ui.TEXT_BOARD_RE.fullmatch(custom_id) and re.fullmatch(ui.OTHER_ANY, custom_id) is None
    for forged in ("adm:tb:x", "adm:tb:12:1", "adm:tb:", "adm:tb:12345678901234567890"):
        assert ui.TEXT_BOARD_RE.fullmatch(forged) is None and re.fullmatch(ui.OTHER_ANY, forged)
