"""Replay frames follow the picture rules of issue 19: every frame of a replay (and so its GIF) is
landscape, at most 800 px wide and three quarters of its width tall, all one size; no player's name
is drawn in a frame (a seat in a caption is its badge; the names are in the log); and nothing in a
caption is drawn as an empty box (a character the font lacks is spelled plainly or left out)."""

from __future__ import annotations

import dataclasses
import functools
import io

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

import rendering
from bot import replay
from bot.games import registry, who
from rendering import replay as anim
from rendering import theme
from tests.games.playouts import ai_played

OPTIONS = {
    "enemy-lines": {"quick-setup": True},
    "warships": {"quick-setup": True},
    "everrain": {"length": "short"},
}
# (game, players, seed): every game, and Enemy in Sight with 6 (its tallest board and final reveal)
GAMES = [
    ("enemy-lines", 2, 3),
    ("warships", 2, 3),
    ("everrain", 2, 3),
    ("enemy-in-sight", 2, 2),
    ("enemy-in-sight", 4, 5),
    ("enemy-in-sight", 6, 3),
]
PLAIN = ["Ann", "Bob", "Cy", "Dee", "Ed", "Flo"]
HOSTILE = ["<@1>", "Жанна Д'Арк", "東郷平八郎", "🚢⚓🌊 Nelson", "x" * 32, "Côte-d'Or **bold**"]


@functools.cache
def _played(key: str, players: int, seed: int) -> replay.Record:
    """A whole seeded AI game (played once per test session: the tests share it)."""
    game, actions, _ = ai_played(key, seed, players=players, options=OPTIONS.get(key, {}))
    return replay.Record(8, key, game.options, seed, PLAIN[:players], actions, game.result, True)


def finished(key: str, players: int, seed: int, names: list[str]) -> replay.Record:
    return dataclasses.replace(_played(key, players, seed), names=names[:players])


def assert_landscape(size: tuple[int, int], label: str) -> None:
    w, h = size
    assert w <= theme.MAX_WIDTH and h * 4 <= w * 3, f"{label}: {w}×{h} is not landscape ≤ 800×600"


@pytest.mark.parametrize("key,players,seed", GAMES)
def test_every_frame_of_a_replay_is_landscape_and_one_size(key, players, seed):
    record = finished(key, players, seed, PLAIN)
    made = replay.replay(record, max_frames=10)
    sizes = {p.size for p in made.pictures}
    assert len(sizes) == 1, sizes
    assert_landscape(sizes.pop(), key)
    gif = Image.open(io.BytesIO(made.animation))
    assert_landscape(gif.size, f"{key} GIF")
    assert gif.size == made.pictures[0].size
    for n in range(gif.n_frames):
        gif.seek(n)
        assert gif.size == made.pictures[0].size  # every frame of the GIF too
    assert made.frame_moves[-1] == made.moves and len(made.pictures) == 10
    # one palette for every frame: what did not change between frames stays the same pixels
    assert len({bytes(p.getpalette() or b"") for p in made.pictures}) == 1 and made.pictures[0].mode == "P"


def test_the_last_frame_of_a_six_player_enemy_in_sight_shows_a_short_reveal_the_log_the_hands():
    record = finished("enemy-in-sight", 6, 3, PLAIN)
    made = replay.replay(record, max_frames=4)
    final = made.game.final_reveal()
    assert final["reveal"] and final["reveal_short"]
    last = made.captions[-1]
    assert last[0] == "Final position" and last[1].startswith("Cards left in hand")
    for seat, cards in final["hands"].items():  # each seat's count, the seat as its badge's colour
        assert f"{theme.SEAT_NAMES[int(seat)]}\u00a0{len(cards)}" in last[1]
    assert not any(name in line for name in PLAIN for line in last)
    hands = made.log.partition("Revealed at the end:")[2].strip().splitlines()
    assert [line.split("'s hand")[0] for line in hands] == PLAIN  # the names are in the log, in full
    assert all(len(anim.caption_lines(c, 780, 24)) <= anim.CAPTION_LINES for c in made.captions)


@pytest.mark.parametrize("key,players,seed", GAMES)
def test_names_never_reach_a_frame_hostile_names_give_the_same_gif(key, players, seed):
    plain = replay.replay(finished(key, players, seed, PLAIN), max_frames=6)
    hostile = replay.replay(finished(key, players, seed, HOSTILE), max_frames=6)
    assert hostile.animation == plain.animation
    assert all(h.tobytes() == p.tobytes() for h, p in zip(hostile.pictures, plain.pictures, strict=True))
    assert "2 Red square: Жанна Д'Арк" in hostile.log.splitlines()[1]  # the names are in the log


@pytest.mark.parametrize("key,players,seed", GAMES)
def test_no_caption_draws_a_name_or_a_character_the_font_lacks(key, players, seed, drawn, monkeypatch):
    record = finished(key, players, seed, HOSTILE)
    made = replay.plan(record, 8)
    pngs = [rendering.render(key, view, record.names) for _, view, _ in made.shots]
    badges: list[int] = []
    real_badge = theme.seat_badge
    monkeypatch.setattr(
        theme,
        "seat_badge",
        lambda d, x, y, seat, *a, **k: badges.append(seat) or real_badge(d, x, y, seat, *a, **k),
    )
    drawn.clear()
    laid = anim.layout([(png, caption) for png, (_, _, caption) in zip(pngs, made.shots, strict=True)])
    for png, (_, _, caption) in zip(pngs, made.shots, strict=True):
        anim.frame(png, caption, layout=laid)
    assert drawn, "the captions were drawn"
    for text in drawn:
        assert not theme.missing_glyphs(text), (text, theme.missing_glyphs(text))
        assert "⟨" not in text
        assert not any(part in text for name in HOSTILE for part in name.split() if len(part) > 2), text
    seats = [int(t) for _, _, caption in made.shots for line in caption for t in anim.TOKEN.findall(line)]
    assert sorted(badges) == sorted(seats)  # every seat in a caption drawn as its badge


def test_a_seat_in_a_caption_is_drawn_as_its_badge_and_odd_characters_are_spelled_plainly(drawn, monkeypatch):
    png = rendering.render("enemy-lines", registry.get("enemy-lines").new(2, {}, 1).view(None), None)
    badges: list[int] = []
    monkeypatch.setattr(theme, "seat_badge", lambda d, x, y, seat, *a, **k: badges.append(seat))
    anim.frame(png, [f"Move 3 of 9 · {who(1)}'s ship C2→C5 – Côte 東 🚢 done"])
    assert badges == [1]
    joined = " ".join(drawn)
    assert "'s ship C2->C5 - Cote" in joined and "done" in joined
    assert not theme.missing_glyphs(joined) and "Red" not in joined


def test_a_tall_view_is_scaled_to_leave_room_for_two_caption_lines():
    """A tall view (the 800 px wide boards of the channel) is scaled down to leave room for two caption
    lines; a wide and short one is not scaled."""
    tall = Image.new("RGB", (800, 600), theme.SEA)
    short = Image.new("RGB", (800, 300), theme.SEA)
    pngs = []
    for img in (tall, short):
        buf = io.BytesIO()
        img.save(buf, format="PNG")
        pngs.append(buf.getvalue())
    long = ["Move 1 of 2 · " + "word " * 200]
    laid = anim.layout([(pngs[0], long), (pngs[1], ["Start"])])
    assert_landscape(laid.size, "layout")
    assert laid.size[0] == 800 and laid.scale < 1
    one = anim.frame(pngs[0], long, layout=laid)
    two = anim.frame(pngs[1], ["Start"], layout=laid)
    assert one.size == two.size == laid.size
    assert_landscape(anim.frame(pngs[0], long).size, "one frame")
    assert anim.frame(pngs[1], ["Start"]).size == (800, 300 + anim.strip_height(1, anim.text_size(800)))


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.text(min_size=1, max_size=30), st.integers(0, 5).map(who), st.just(" "), st.just("\u00a0")
        ),
        max_size=40,
    ),
    st.integers(200, 800),
)
def test_caption_lines_fit_two_lines_of_the_frame_whatever_the_text(parts, width):
    size = anim.text_size(width)
    lines = anim.caption_lines(["".join(parts), "Final position"], width - 20, size)
    assert 1 <= len(lines) <= anim.CAPTION_LINES
    for line in lines:
        assert anim._width(line, size) <= width - 20
        for piece in line:
            assert isinstance(piece, int) or not theme.missing_glyphs(piece)
