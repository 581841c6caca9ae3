"""The Warships set-up menu: Submit is a button, and a swap takes at most 2 clicks."""

from __future__ import annotations

import discord
import pytest

from bot import menus, ui
from bot.games import registry

OPTIONS = [{}, {"initial-manoeuvres": True}]


def _controls(
    game, seat: int, prefix: tuple[int, ...], root: menus.Node | None = None
) -> tuple[menus.Level, discord.ui.View]:
    root = root or menus.build_tree(game, seat)
    level = menus.level(game, seat, root, menus.collapse(root, prefix))
    assert level is not None
    return level, ui.menu_view(1, 0, seat, level, my_view_label="My fleet")


def _shown(view: discord.ui.View) -> tuple[dict[str, str], dict[str, str]]:
    """(button label → custom id, select option label → value) of a message's controls."""
    buttons = {b.label: b.custom_id for b in view.children if isinstance(b, discord.ui.Button)}
    options = {o.label: o.value for s in view.children if isinstance(s, discord.ui.Select) for o in s.options}
    return buttons, options


@pytest.mark.parametrize("options", OPTIONS)
def test_setup_submit_is_a_button_on_the_first_menu(options):
    game = registry.get("warships").new(players=2, options=options, seed=3)
    for seat in (0, 1):
        level, view = _controls(game, seat, ())
        buttons, select_options = _shown(view)
        assert "✅ Submit this arrangement" in buttons, buttons
        assert not any("Submit" in label for label in select_options)
        assert not any(label.startswith("More choices") for label in select_options), "no page turn"
        root = menus.build_tree(game, seat)
        prefix, _, _ = menus.find_leaf(root, {"type": "submit"})
        assert menus.clicks(root, prefix) == 1
        assert sum(isinstance(c, discord.ui.Select) for c in view.children) <= menus.SELECTS
        assert all(len(s.options) <= 25 for s in view.children if isinstance(s, discord.ui.Select))


@pytest.mark.parametrize("options", OPTIONS)
def test_setup_every_swap_takes_at_most_two_clicks(options):
    """Every swap is one pick of a unit and one of its partner, each shown at once (no page to turn)
    in the controls as they are drawn."""
    game = registry.get("warships").new(players=2, options=options, seed=5)
    seat = 0
    root = menus.build_tree(game, seat)
    _, first_view = _controls(game, seat, (), root)
    _, first_options = _shown(first_view)
    swapped = []
    for i, unit in enumerate(root.children):
        if unit.action is not None:
            continue  # Submit
        assert first_options.get(unit.label) == str(i), unit.label
        _, second_view = _controls(game, seat, (i,), root)
        _, second_options = _shown(second_view)
        for j, entry in enumerate(unit.children):
            assert second_options.get(entry.label) == str(j), (unit.label, entry.label)
            assert menus.clicks(root, (i, j)) == 2
            if entry.action["type"] == "swap":
                swapped.append(entry.action)
    swaps = [a for a in game.legal_actions(seat) if a["type"] == "swap"]
    assert len(swaps) > 100 and sorted(map(str, swapped)) == sorted(map(str, swaps))
