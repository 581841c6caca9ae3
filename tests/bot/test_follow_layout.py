"""The table's **Follow** button sits beside the status, within Discord's 40 components whatever the
controls; and its ids are routed to the follow cog only."""

from __future__ import annotations

import re

import discord

from bot import layout, ui
from tests.bot.test_table_text import full_controls, parts, valid


def follow_buttons(view: discord.ui.LayoutView) -> list[discord.ui.Button]:
    return [
        item
        for item in view.walk_children()
        if isinstance(item, discord.ui.Button) and (item.custom_id or "").startswith("adm:follow:")
    ]


def test_follow_sits_beside_the_status_with_the_most_controls_a_menu_makes():
    menu = full_controls()[:3] + [[]] + [full_controls()[4][:5]]  # 15 choices, then Back / My view row
    view = layout.table_layout(
        parts(controls=menu, follow=ui.follow_button(7), status="▶ Ann\n👁 3 following")
    )
    [button] = follow_buttons(view)
    assert button.custom_id == "adm:follow:7:on" and isinstance(button.parent, discord.ui.Section)
    assert "👁 3 following" in button.parent.children[0].content
    assert view.total_children_count <= layout.MAX_COMPONENTS and not valid(view)


def test_follow_gives_way_to_controls_that_fill_the_message():
    view = layout.table_layout(parts(controls=full_controls(), follow=ui.follow_button(7)))
    assert follow_buttons(view) == []
    assert view.total_children_count == layout.MAX_COMPONENTS and not valid(view)


def test_follow_ids_are_routed_by_their_own_template_only():
    for op in ("on", "every", "end", "off"):
        custom_id = ui.follow_id(12, op)
        assert ui.FOLLOW_RE.fullmatch(custom_id)
        assert re.fullmatch(ui.OTHER_ANY, custom_id) is None
    for forged in ("adm:follow:12:maybe", "adm:follow:x:on", "adm:follow:12:on:1"):
        assert ui.FOLLOW_RE.fullmatch(forged) is None and re.fullmatch(ui.OTHER_ANY, forged)


def test_a_followers_choices_offer_the_other_choice_and_unfollow():
    labels = [[b.label for b in ui.follow_view(3, every).children] for every in (False, True)]
    assert labels == [["Every move too", "Unfollow"], ["Only when it ends", "Unfollow"]]
    assert [b.label for b in ui.follow_view(3, True, choices=False).children] == ["Unfollow"]
