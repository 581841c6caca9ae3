"""Menus in the reader's language (issue 21): the tree is built in the reader's language, and its shape
(which groups of one entry become that entry) is decided by the English labels, so that a menu position
made in one language means the same entry in every other; the pager and Back in the reader's language."""

from __future__ import annotations

from bot import menus, ui
from bot.games import registry
from bot.games.base import Game
from bot.games.phrase import ENGLISH
from bot.i18n import PSEUDO, Speaker


class Other:
    """A language whose words share nothing with the English ones (no group's label inside its entry's)."""

    language = "xx"

    def gettext(self, msgid: str, /, **params: object) -> str:
        return "«" + msgid.format(**params)[::-1] + "»"

    def ngettext(self, singular: str, plural: str, n: int, /, **params: object) -> str:
        return self.gettext(singular if n == 1 else plural, n=n, **params)

    def say(self, text: str) -> str:
        return self.gettext(text)


class TwoGroups(Game):
    """A group of one entry named in it ("Refuse" › "Refuse: all"), merged into one click in English,
    and a group of two."""

    key = "two-groups"

    def setup(self) -> None:
        self.state = {}

    def to_act(self) -> list[int]:
        return [0]

    def legal_actions(self, seat: int) -> list[dict]:
        return [{"type": "refuse"}, {"type": "fire", "at": 1}, {"type": "fire", "at": 2}]

    def action_path(self, seat, action, *, speaker=ENGLISH):
        said = speaker.gettext
        if action["type"] == "refuse":
            return [("refuse", said("Refuse")), ("all", said("Refuse: all"))]
        return [("fire", said("Fire")), (f"at{action['at']}", said("at {n}", n=action["at"]))]


def test_a_menu_in_another_language_has_the_shape_of_the_english_one():
    game = TwoGroups(1)
    english = menus.build_tree(game, 0)
    other = menus.build_tree(game, 0, speaker=Other())
    assert [c.label for c in english.children] == ["Refuse: all", "Fire"]
    assert [c.label for c in other.children] == ["«lla :esufeR»", "«eriF»"]  # merged as in English
    assert english.key == other.key
    for (prefix, node, _), (prefix2, node2, _) in zip(
        menus.leaves(english), menus.leaves(other), strict=True
    ):
        assert prefix == prefix2 and node.steps == node2.steps
    assert menus.build_tree(game, 0) is english, "the English tree is kept apart from the other's"


def test_every_games_tree_has_the_same_entries_at_the_same_places_in_every_language():
    for key, players in (("enemy-in-sight", 3), ("everrain", 2), ("enemy-lines", 2), ("warships", 2)):
        game = registry.get(key).new(players, {}, seed=4)
        for seat in game.to_act():
            english = menus.leaves(menus.build_tree(game, seat))
            for speaker in (Speaker("pl"), Speaker(PSEUDO), Other()):
                other = menus.leaves(menus.build_tree(game, seat, speaker=speaker))
                assert [(p, n.steps) for p, n, _ in other] == [(p, n.steps) for p, n, _ in english], key


def test_the_pager_and_back_are_in_the_readers_language():
    game = registry.get("enemy-in-sight").new(3, {}, seed=4)
    seat = game.to_act()[0]
    level = menus.open_level(game, seat, speaker=Speaker("pl"))
    assert level is not None
    paged = menus.Level(
        title=level.title,
        prefix=(0,),
        entries=[(i, f"entry {i}") for i in range(30)],
        page=1,
        pages=3,
        breadcrumb=[],
        back=(),
    )
    view = ui.menu_view(1, 1, seat, paged, speaker=Speaker("pl"))
    labels = [o.label for item in view.children if hasattr(item, "options") for o in item.options]
    buttons = [
        item.label for item in view.children if hasattr(item, "label") and not hasattr(item, "options")
    ]
    assert labels[0] == "◀ Poprzednie" and labels[-1] == "Więcej ▶"
    assert "◀ Wstecz" in buttons
    placeholders = [item.placeholder for item in view.children if hasattr(item, "options")]
    assert all("strona 2/3" in p for p in placeholders)
