"""Replay animations: frames (PNG bytes drawn by a game's renderer from public views) into one GIF.

This module gets pictures and short captions, never a game state: ``bot/replay.py`` decides which
views are drawn (the spectator view after each move, the game's ``final_reveal`` at the end).

A frame is landscape like every picture the bot sends: at most :data:`theme.MAX_WIDTH` wide and at
most three quarters of its width tall. The drawn view is scaled to fit the box above a caption strip
of at most :data:`CAPTION_LINES` lines ("Move 12 of 80 · ● moves a ship C15->C14."), the same box for
every frame of a GIF, so the board does not jump. A caption names no player: a seat reference
(``who(seat)``, "⟨0⟩") is drawn as the seat's badge (shape, colour, number: ``theme.seat_badge``),
and a character the font lacks is spelled without it (an arrow as "->", "é" as "e") or left out,
never drawn as an empty box. The words with the players' names are in the replay's log.

``layout(pictures)`` gives a GIF's one frame size and where its caption strip starts;
``frame(png, caption)`` / ``gif_frame`` draw one frame; ``animate(frames)`` makes the GIF, every frame
shown :data:`FRAME_MS`, the last one :data:`LAST_MS`, and shrinks it (fewer frames, then smaller ones)
until it fits in ``max_bytes`` (Discord takes at most 10 MiB a file).
"""

from __future__ import annotations

import io
import math
import re
import unicodedata
from collections.abc import Sequence
from typing import NamedTuple

from PIL import Image, ImageDraw

from bot.games.names import TOKEN, who
from rendering import theme

FRAME_MS = 900  # each move
LAST_MS = 6000  # the final position, held longer
MAX_BYTES = 9 * 1024 * 1024  # under Discord's 10 MiB per file, with room to spare
CAPTION_LINES = 2  # at most, the caption of one frame (the rest of the story is in the log)
ASPECT = 3 / 4  # a frame is at most this tall for its width
NBSP = "\u00a0"
# characters the default font has no glyph for, in the texts of the games' events
PLAIN = str.maketrans(
    {"→": "->", "←": "<-", "–": "-", "—": "-", "×": "x", "’": "'", "“": '"', "”": '"', NBSP: " "}
)
# a caption's pieces: the spaces it may break at, seat references, and runs of text (a no-break
# space, as between a seat and its count, joins a run: a line is not broken there)
PIECES = re.compile(r"[^\S\u00a0]+|" + TOKEN.pattern + r"|(?:[^\s⟨]|\u00a0)+|⟨")

Caption = list[str] | tuple[str, ...]
Piece = str | int  # words, or a seat (drawn as its badge)


def printable(text: str) -> str:
    """``text`` with only characters the font draws: the arrows and dashes of the games' texts
    spelled plainly, accented letters without their accents, anything else the font lacks left out."""
    text = text.translate(PLAIN)
    missing = theme.missing_glyphs(text)
    if not missing:
        return text
    out = []
    for char in text:
        if char not in missing:
            out.append(char)
            continue
        base = "".join(c for c in unicodedata.normalize("NFKD", char) if not unicodedata.combining(c))
        if base and base != char and not theme.missing_glyphs(base):
            out.append(base)
    return "".join(out)


def text_size(width: int) -> int:
    """The caption's font size in a frame ``width`` wide: legible when the chat shows it 400 px wide."""
    return theme.min_font(width)


def _step(size: int) -> int:
    """A caption line's height: a seat's badge (about 1.7 × the text) fits in it."""
    return round(size * 1.8)


def strip_height(lines: int, size: int) -> int:
    return lines * _step(size) + 8 if lines else 0


def board_box(width: int, lines: int = CAPTION_LINES) -> tuple[int, int]:
    """The room a drawn view has in a frame ``width`` wide: the frame's ``ASPECT`` less a caption of
    ``lines`` lines (by default a full one)."""
    return width, max(1, int(width * ASPECT) - strip_height(lines, text_size(width)))


def frame_width(view: tuple[int, int], width: int = theme.MAX_WIDTH) -> int:
    """The width of a frame for a view of this size: wide enough for the view and, up to ``width``,
    for the view and a full caption strip under it to be at most ``ASPECT`` of it (a tall view is
    scaled down less in a wider frame)."""
    high = view[1] + strip_height(CAPTION_LINES, text_size(width))
    return min(width, max(view[0], math.ceil(high / ASPECT)))


def _fit(size: tuple[int, int], box: tuple[int, int]) -> float:
    """How much ``size`` is scaled down (never up) to fit in ``box``, its proportions kept."""
    return min(1.0, box[0] / size[0], box[1] / size[1])


def _scaled(size: tuple[int, int], scale: float) -> tuple[int, int]:
    if scale >= 1.0:
        return size
    return max(1, round(size[0] * scale)), max(1, round(size[1] * scale))


class Layout(NamedTuple):
    """The frames of one GIF: their one size, the height where every caption strip starts (under
    the tallest view) and the one scale of every view (a board keeps its size from frame to frame)."""

    size: tuple[int, int]
    top: int
    scale: float


def _words(line: str) -> list[list[Piece]]:
    """A caption line as words, each a run of text pieces and seats (no space between a seat and the
    "'s" after it)."""
    words: list[list[Piece]] = [[]]
    for m in PIECES.finditer(line):
        piece = m.group(0)
        if piece.isspace():
            if words[-1]:
                words.append([])
        elif m.group(1) is not None:
            words[-1].append(int(m.group(1)))
        elif text := printable(piece):
            words[-1].append(text)
    return [w for w in words if w]


def _badge_width(size: int) -> int:
    return round(size * 2.1)  # the badge (about 1.7 × the text) and a little room either side


def _width(word: Sequence[Piece], size: int) -> float:
    return sum(_badge_width(size) if isinstance(p, int) else theme.text_width(p, size) for p in word)


def caption_lines(caption: Caption, width: float, size: int) -> list[list[Piece]]:
    """``caption`` (its parts joined by " · ") cut at spaces into at most :data:`CAPTION_LINES` lines
    of at most ``width`` pixels, the last one ended with … when the words do not all fit."""
    words = [w for part in caption if part for w in _words(f"{part} ·")]
    if words and words[-1] == ["·"]:
        words.pop()
    space = theme.text_width(" ", size)
    lines: list[list[list[Piece]]] = [[]]
    used = 0.0
    for word in words:
        w = _width(word, size)
        if lines[-1] and used + space + w > width:
            if len(lines) == CAPTION_LINES:
                return [_joined(line) for line in lines[:-1]] + [_cut(lines[-1], width, size)]
            lines.append([])
            used = 0.0
        if not lines[-1] and w > width:  # one word wider than a line (a long card name): cut
            word = [theme.fit("".join(p for p in word if isinstance(p, str)), size, width)]
            w = width
        lines[-1].append(word)
        used += (space if len(lines[-1]) > 1 else 0) + w
    return [_joined(line) for line in lines if line]


def _joined(words: list[list[Piece]]) -> list[Piece]:
    """Words as one line: spaces between them, each run of text one piece (drawn at once)."""
    out: list[Piece] = []
    for n, word in enumerate(words):
        for piece in ([" "] if n else []) + word:
            if isinstance(piece, str) and out and isinstance(out[-1], str):
                out[-1] += piece
            else:
                out.append(piece)
    return out


def _cut(words: list[list[Piece]], width: float, size: int) -> list[Piece]:
    """The words of a last line that fit with … after them."""
    words = list(words)
    while words:
        line = _joined([*words, ["…"]])
        if _width(line, size) <= width:
            return line
        words.pop()
    return ["…"]


def _draw_line(draw: ImageDraw.ImageDraw, x: float, y: float, line: list[Piece], size: int) -> None:
    """One caption line, its middle at height ``y``: words, and each seat as its badge."""
    for piece in line:
        w: float
        if isinstance(piece, int):
            w = _badge_width(size)
            theme.seat_badge(draw, x + w / 2, y, piece, size)
        else:
            draw.text((x, y), piece, font=theme.font(size), fill=theme.TEXT, anchor="lm")
            w = theme.text_width(piece, size)
        x += w


def _board(png: bytes, width: int, scale: float | None = None) -> Image.Image:
    """The drawn view scaled by ``scale``, by default to fit the board box of a frame ``width`` wide."""
    img = Image.open(io.BytesIO(png)).convert("RGB")
    scaled = _scaled(img.size, _fit(img.size, board_box(width)) if scale is None else scale)
    # BOX: each pixel the mean of the pixels it covers. For a scale near 1 it is as legible as LANCZOS
    # and adds fewer new colours (no ringing): a 6-player Enemy in Sight replay's GIF is 3.9 MiB
    # instead of 5.8, drawn in 60 % of the time
    return img if scaled == img.size else img.resize(scaled, Image.Resampling.BOX)


def frame(
    png: bytes,
    caption: Caption = (),
    width: int = theme.MAX_WIDTH,
    size: tuple[int, int] | None = None,
    layout: Layout | None = None,
) -> Image.Image:
    """The drawn view (PNG bytes) fitted in a frame at most ``width`` wide, with ``caption`` in a
    strip under it; on a canvas of ``size`` (top left) when given; laid out as every frame of a GIF
    when ``layout`` is given (:func:`layout`: its size and scale, the caption strip in its place from
    frame to frame). The frame is landscape, at most three quarters of its width tall; the room left
    under a short caption is background."""
    if layout is not None:
        size = layout.size
    w = size[0] if size is not None else frame_width(Image.open(io.BytesIO(png)).size, width)
    img = _board(png, w, layout.scale if layout is not None else None)
    px = text_size(w)
    lines = caption_lines(caption, w - 20, px)
    y0 = img.height if layout is None else layout.top
    h = size[1] if size is not None else y0 + strip_height(len(lines), px)
    out, draw = theme.canvas(w, h, theme.BG)
    out.paste(img, ((w - img.width) // 2, 0))
    if lines:
        draw.rectangle((0, y0, w, y0 + strip_height(len(lines), px) - 1), fill=theme.PANEL_DARK)
        for n, line in enumerate(lines):
            _draw_line(draw, 10, y0 + 4 + _step(px) * (n + 0.5), line, px)
    return out


def frame_size(png: bytes, caption: Caption = (), width: int = theme.MAX_WIDTH) -> tuple[int, int]:
    """The size :func:`frame` gives (the picture's size is read from its header, not decoded)."""
    size = Image.open(io.BytesIO(png)).size
    w = frame_width(size, width)
    px = text_size(w)
    board = _scaled(size, _fit(size, board_box(w)))
    return w, board[1] + strip_height(len(caption_lines(caption, w - 20, px)), px)


def layout(pictures: Sequence[tuple[bytes, Caption]], width: int = theme.MAX_WIDTH) -> Layout:
    """How every frame of a GIF of these (picture, caption) frames is laid out: the widest view sets
    the frame's width (at most ``width``), every view is scaled alike so that the largest fits the
    box above the longest caption, and every caption strip starts under the tallest view."""
    sizes = [Image.open(io.BytesIO(png)).size for png, _ in pictures]
    w = max(frame_width(s, width) for s in sizes)
    px = text_size(w)
    lines = max(len(caption_lines(caption, w - 20, px)) for _, caption in pictures)
    scale = min(_fit(s, board_box(w, lines)) for s in sizes)
    top = max(_scaled(s, scale)[1] for s in sizes)
    return Layout((w, top + strip_height(lines, px)), top, scale)


def gif_frame(
    png: bytes,
    caption: Caption,
    size: tuple[int, int],
    layout: Layout | None = None,
    palette: bytes | None = None,
) -> Image.Image:
    """One frame ready for :func:`animate`: captioned, on the GIF's ``size`` (laid out as its every
    frame: ``layout``), in 256 colours, the GIF's ``palette`` when given (:func:`gif_palette`; each
    frame is made on its own, so that a pool of processes makes them side by side)."""
    img = frame(png, caption, size=size, layout=layout)
    if palette is None:
        return _palette(img)
    colours = Image.new("P", (1, 1))
    colours.putpalette(palette)
    return img.quantize(palette=colours, dither=Image.Dither.NONE)


def gif_palette(first: bytes, last: bytes, layout: Layout) -> bytes:
    """The one palette (256 colours, RGB bytes) of a GIF's frames, taken from its first and last
    views as drawn (unscaled: the board's flat colours, exact) and a caption strip with every seat's
    badge. Frames reduced to one palette keep what did not change between them pixel for pixel, so
    the GIF stores only what changed (a view scaled down has thousands of blended colours: reduced
    each on its own they differed everywhere, and the GIF was half as large again)."""
    views = [Image.open(io.BytesIO(png)).convert("RGB") for png in (first, last)]
    badges = frame(first, [" ".join(who(seat) for seat in range(len(theme.SEAT_COLOURS)))], layout=layout)
    strip = badges.crop((0, layout.top, badges.width, badges.height))
    parts = [*views, strip]
    source, _ = theme.canvas(max(p.width for p in parts), sum(p.height for p in parts))
    y = 0
    for part in parts:
        source.paste(part, (0, y))
        y += part.height
    reduced = source.quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    return bytes(reduced.getpalette() or [])


def _pad(frames: list[Image.Image]) -> list[Image.Image]:
    """Every frame on one canvas size (the largest), top-left aligned."""
    w = max(f.width for f in frames)
    h = max(f.height for f in frames)
    out = []
    for f in frames:
        if f.size == (w, h):
            out.append(f)
            continue
        c, _ = theme.canvas(w, h, theme.BG)
        c.paste(f, (0, 0))
        out.append(c)
    return out


def _palette(img: Image.Image) -> Image.Image:
    """A frame in 256 colours by the fast octree method, without dithering (flat boards stay flat;
    Pillow's default for GIF, median cut, takes several times as long)."""
    if img.mode == "P":
        return img
    return img.convert("RGB").quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


def _gif(frames: list[Image.Image], frame_ms: int, last_ms: int) -> bytes:
    buf = io.BytesIO()
    durations = [frame_ms] * (len(frames) - 1) + [last_ms]
    first, *rest = [_palette(f) for f in frames]
    first.save(
        buf,
        format="GIF",
        save_all=True,
        append_images=rest,
        duration=durations,
        loop=0,
        optimize=False,
        disposal=1,
    )
    return buf.getvalue()


def pick(n: int, keep: int) -> list[int]:
    """``keep`` indices of ``range(n)`` spread evenly, the first and the last always among them."""
    if n <= keep:
        return list(range(n))
    if keep <= 1:
        return [n - 1]
    return sorted({round(i * (n - 1) / (keep - 1)) for i in range(keep)})


def animate(
    frames: list[Image.Image], *, max_bytes: int = MAX_BYTES, frame_ms: int = FRAME_MS, last_ms: int = LAST_MS
) -> bytes:
    """One looping GIF of ``frames`` (the last held ``last_ms``), at most ``max_bytes``: when it is
    larger, every other move is left out (the first and last frames stay), then frames are shrunk."""
    if not frames:
        raise ValueError("no frames to animate")
    frames = _pad(frames)
    scale = 1.0
    while True:
        gif = _gif(frames, frame_ms, last_ms)
        if len(gif) <= max_bytes:
            return gif
        if len(frames) > 8:
            frames = [frames[i] for i in pick(len(frames), max(2, len(frames) // 2))]
            continue
        scale *= 0.75
        if scale < 0.1:
            raise ValueError("cannot make the replay small enough")
        frames = [
            f.convert("RGB").resize(
                (max(1, round(f.width * 0.75)), max(1, round(f.height * 0.75))), Image.Resampling.LANCZOS
            )
            for f in frames
        ]
