"""The words around the picture: the table message holds the game's own text (``Game.view_text``), its
picture carries alt text (``Game.alt_text``, or a sentence of ours), and a **Key** button sits beside
the title, all within Discord's limits for a Components V2 message (40 components, 4000 characters)."""

from __future__ import annotations

import re

import discord
from hypothesis import given, settings
from hypothesis import strategies as st

from bot import layout, ui
from bot.delivery import rules_key
from bot.games import registry, who
from bot.games.names import markdown_name
from tests.fakediscord.models import FLAG_COMPONENTS_V2
from tests.fakediscord.validate import FormErrors, check_components


def full_controls(game_id: int = 7) -> list[list[discord.ui.Item]]:
    """Five rows of five buttons: the most controls a table holds."""
    return [
        [discord.ui.Button(label=f"b{r}{c}", custom_id=ui.button_id(game_id, 1, 0, (r, c))) for c in range(5)]
        for r in range(5)
    ]


def parts(**kw) -> layout.TableParts:
    base = dict(
        title="⚓ **Enemy Lines** · game #7 · move 3",
        log=["Blue moved"],
        seats="🔵 **Ann**\n🟥 **Bob**",
        status="▶ 🔵 **Ann** to act",
        accent=layout.seat_colour(0),
        controls=full_controls(),
        words="**Scores**: Ann 3 · Bob 5",
        alt="Enemy Lines, move 3: Ann to act.",
        key=ui.key_button(7),
    )
    base.update(kw)
    return layout.TableParts(**base)  # type: ignore[arg-type]


def valid(view: discord.ui.LayoutView) -> dict:
    """The fake Discord's own check of the payload (its errors; {} when Discord would take it)."""
    errs = FormErrors()
    check_components(errs, view.to_components(), FLAG_COMPONENTS_V2, attachment_names={layout.BOARD_FILE})
    return errs.tree


def texts(view: discord.ui.LayoutView) -> list[str]:
    out: list[str] = []

    def walk(items):
        for item in items:
            if isinstance(item, discord.ui.TextDisplay):
                out.append(item.content)
            walk(getattr(item, "children", []))

    walk(view.children)
    return out


def test_the_table_shows_the_games_words_under_the_picture_and_the_key_beside_the_title():
    view = layout.table_layout(parts())
    (container,) = view.children
    first, gallery, words = container.children[:3]
    assert isinstance(first, discord.ui.Section) and first.accessory.custom_id == "adm:key:7"
    assert isinstance(gallery, discord.ui.MediaGallery)
    assert gallery.items[0].description == "Enemy Lines, move 3: Ann to act."
    assert isinstance(words, discord.ui.TextDisplay) and words.content == "**Scores**: Ann 3 · Bob 5"
    assert view.total_children_count <= layout.MAX_COMPONENTS and not valid(view)


def test_empty_words_add_no_component_and_an_empty_alt_sends_no_description():
    view = layout.table_layout(parts(words="  ", alt=""))
    (container,) = view.children
    gallery = container.children[1]
    assert gallery.items[0].description is None
    assert [t for t in texts(view) if not t.strip()] == []


@settings(max_examples=40, deadline=None)
@given(
    words=st.text(max_size=3000),
    log=st.lists(st.text(min_size=1, max_size=900), max_size=8),
    seats=st.text(min_size=1, max_size=1200),
    status=st.text(min_size=1, max_size=900),
    board=st.one_of(st.none(), st.text(max_size=2500)),
)
def test_the_table_stays_within_discords_limits_whatever_the_texts(words, log, seats, status, board):
    view = layout.table_layout(parts(words=words, log=log, seats=seats, status=status, text_board=board))
    assert view.total_children_count <= layout.MAX_COMPONENTS
    assert sum(len(t) for t in texts(view)) <= layout.MAX_TEXT
    assert not valid(view)


def test_the_log_keeps_room_beside_long_game_words():
    log = [f"line {i} " + "x" * 40 for i in range(6)]
    view = layout.table_layout(parts(words="w" * 5000, log=log, seats="s" * 800, status="t" * 600))
    shown = texts(view)
    assert any(t.startswith("> line 5") or "\n> line 5" in t for t in shown), "the newest log line stays"
    assert max(len(t) for t in shown if t.startswith("w")) <= layout.BOARD_TEXT


def test_alt_text_is_one_line_of_at_most_256_characters_cut_at_a_word():
    assert layout.alt_clip("a\nb  c") == "a b c"
    long = "Warships, move 18: " + " ".join(["Bob's escort moved J15→I14"] * 30)
    cut = layout.alt_clip(long)
    assert len(cut) <= 256 and cut.endswith("…") and long.startswith(cut[:-1])
    assert cut[-2] != " " and long[len(cut) - 1] in " ,;:"  # ends at a word
    # never between a letter and its combining accent
    accented = "e\u0301" * 300
    cut = layout.alt_clip(accented)
    assert len(cut) <= 256 and cut[-2] == "\u0301"


def test_the_seat_key_says_whose_mark_is_whose_with_names_as_given():
    names = [markdown_name("**Ann**"), "Bob"]
    key = layout.seat_key(names)
    assert key.splitlines()[0].startswith("🔵 **\\*\\*Ann\\*\\***") and "circle" in key
    assert key.splitlines()[1].startswith("🟥 **Bob**") and "square" in key


def test_rules_show_the_key_of_every_game_even_with_the_default_hooks(monkeypatch):
    for key in registry.keys():
        spec = registry.get(key)
        text = rules_key(spec)
        assert "**Seats**" in text and "🔵 **Blue**" in text and len(text) <= 2000
    spec = registry.get("enemy-lines")
    monkeypatch.setattr(spec.cls, "key_text", staticmethod(lambda view: f"⛵ a ship of {who(0)}"))
    assert "⛵ a ship of Blue" in rules_key(spec)


def test_key_ids_are_parsed_strictly_and_not_swallowed_by_the_refusal():
    other = re.compile(ui.OTHER_ANY)
    good = ui.key_id(12)
    assert good == "adm:key:12" and ui.KEY_RE.fullmatch(good) and not other.fullmatch(good)
    assert ui.key_button(12).custom_id == good
    for bad in ("adm:key:", "adm:key:x", "adm:key:١", "adm:key:1:2", "adm:key:" + "9" * 20):
        assert not ui.KEY_RE.fullmatch(bad) and other.fullmatch(bad), bad
