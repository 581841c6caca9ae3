"""The shared look of every image: palette, fonts and small drawing helpers.

Images go to a Discord chat column, mostly in dark mode and often on a phone, where an image is shown
about 400 px wide. So every image is at most ``MAX_WIDTH`` px wide and its smallest text is at least
12 px high at 400 px: ``min_font(width)`` (24 px at 800 px wide). Colour is never the only cue: each
seat is a badge of its own shape as well as its own colour (``SEAT_COLOURS``, ``SEAT_SHAPES``,
``seat_badge``; the palette stays distinct under protanopia, deuteranopia and tritanopia), sides and
states carry words or letters.

Fonts: Pillow's own embedded font (``ImageFont.load_default(size)``, Pillow ≥ 10.1 with FreeType,
Aileron Regular), so no system font is needed on a clean machine. It has basic Latin only (no accented
letters, dashes, arrows or ticks: "é", "—", "→" draw as boxes), so the fonts policy is: **pictures
carry no player names.** A name is anything a person typed (accents, Cyrillic, Greek, CJK, emoji),
which this font draws as empty boxes; in a picture a seat is its badge (shape, colour, number), and
the message beside it (Discord's fonts, any script) says whose badge is whose.
What a picture does draw comes from the game's data files (ship, unit, card names in ``data/``) and its
own fixed words, and every glyph of it must be in the shipped font (``missing_glyphs``):
tests/rendering/test_fonts.py checks every string of ``data/`` and every string the renderers draw.
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from rendering import paletted, png

MAX_WIDTH = 800
SHOWN_WIDTH = 400  # how wide a phone shows a chat image
MIN_SHOWN_PX = 12  # smallest text height at that width

# Discord dark mode: the chat background and the slightly darker sidebar/embed colour.
BG = (49, 51, 56)  # #313338
PANEL = (43, 45, 49)  # #2b2d31
PANEL_LIGHT = (64, 66, 73)
PANEL_DARK = (30, 31, 34)
TEXT = (242, 243, 245)
TEXT_SOFT = (181, 186, 193)
RULE = (78, 80, 88)

# Boards: sea blues, and the fleet colours.
SEA = (28, 66, 102)
SEA_LIGHT = (44, 92, 136)
SEA_DARK = (18, 44, 70)
GRID = (88, 128, 168)
PARCHMENT = (238, 228, 204)  # card faces
INK = (34, 30, 26)  # text on card faces
INK_SOFT = (96, 88, 78)
WHITE = (250, 250, 250)
GOLD = (232, 186, 64)
HIGHLIGHT = (255, 214, 90)
DANGER = (232, 76, 64)
OK = (86, 168, 96)
BLUE = (52, 120, 220)
BLUE_DARK = (26, 66, 140)
RED = (208, 58, 52)
RED_DARK = (128, 28, 24)
LAND = (116, 150, 92)
SAND = (214, 196, 140)
GREY = (150, 150, 150)

# Fleet colours by seat number, for games with up to six players, each with its own badge shape. Derived
# from the Okabe–Ito palette (blue, vermillion, bluish green, yellow, reddish purple, sky blue), moved
# apart so that every pair stays at least 12 CIEDE2000 apart under protanopia, deuteranopia and
# tritanopia (Machado et al. 2009), and from the Discord dark background and the sea blues: checked by
# tests/rendering/test_palette.py. Seat 0 against seat 1 (the two-player games) is blue against vermillion.
SEAT_COLOURS = [(40, 130, 220), (213, 94, 0), (6, 183, 107), (210, 210, 67), (205, 139, 169), (98, 220, 255)]
SEAT_NAMES = ["Blue", "Red", "Green", "Yellow", "Pink", "Sky"]  # as bot/games/names.py names them
SEAT_SHAPES = ["circle", "square", "triangle", "diamond", "hexagon", "pentagon"]


def min_font(width: int) -> int:
    """The smallest font size that stays MIN_SHOWN_PX high when an image ``width`` wide is shown at 400 px."""
    return math.ceil(MIN_SHOWN_PX * width / SHOWN_WIDTH)


@lru_cache(maxsize=64)
def font(size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


GLYPH_PROBE_SIZE = 24
NO_GLYPH = "\ue000"  # a private-use code point: no font has it, so it draws the font's .notdef box


@lru_cache(maxsize=4096)
def _glyph(char: str) -> tuple[tuple[int, int], bytes]:
    mask = font(GLYPH_PROBE_SIZE).getmask(char)
    return mask.size, bytes(mask)


def missing_glyphs(text: str) -> set[str]:
    """The characters of ``text`` that the shipped font does not have (drawn as its .notdef box)."""
    notdef = _glyph(NO_GLYPH)
    return {c for c in set(text) if not c.isspace() and _glyph(c) == notdef}


def canvas(width: int, height: int, colour=BG) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    img = Image.new("RGB", (width, height), colour)
    return img, ImageDraw.Draw(img)


def text_size(draw: ImageDraw.ImageDraw, text: str, size: int) -> tuple[float, float]:
    left, top, right, bottom = draw.textbbox((0, 0), text, font=font(size))
    return right - left, bottom - top


def text_width(text: str, size: int) -> float:
    return font(size).getlength(text)


def centered_text(
    draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], text: str, size: int, fill=TEXT
) -> None:
    x0, y0, x1, y1 = box
    draw.text(((x0 + x1) / 2, (y0 + y1) / 2), text, font=font(size), fill=fill, anchor="mm")


def fit(text: str, size: int, width: float) -> str:
    """``text`` cut with … so that it is at most ``width`` px wide at ``size``."""
    text = str(text)
    if text_width(text, size) <= width:
        return text
    while text and text_width(text.rstrip() + "…", size) > width:
        text = text[:-1]
    return text.rstrip() + "…"


def wrap(text: str, size: int, width: float, max_lines: int = 3) -> list[str]:
    """Word-wrap ``text`` to lines at most ``width`` px wide; the last line is cut with … if needed."""
    words = str(text).split()
    lines: list[str] = []
    cur = ""
    for i, word in enumerate(words):
        trial = f"{cur} {word}".strip()
        if text_width(trial, size) <= width or not cur:
            cur = trial
            continue
        lines.append(cur)
        cur = word
        if len(lines) == max_lines - 1:
            cur = " ".join(words[i:])
            break
    if cur:
        lines.append(cur)
    return [fit(line, size, width) for line in lines[:max_lines]]


def seat_colour(seat: int) -> tuple[int, int, int]:
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def _polygon(cx: float, cy: float, r: float, n: int, rot: float) -> list[tuple[float, float]]:
    return [
        (cx + r * math.cos(rot + 2 * math.pi * k / n), cy + r * math.sin(rot + 2 * math.pi * k / n))
        for k in range(n)
    ]


def seat_badge(
    draw: ImageDraw.ImageDraw,
    cx: float,
    cy: float,
    seat: int,
    text_px: int,
    colour=None,
    label: str | None = None,
) -> None:
    """The seat's badge: its colour in its own shape, with its number (1-based, at ``text_px``) on it;
    about 1.7 × text_px across."""
    r = text_px * 0.85
    fill = colour or seat_colour(seat)
    shape = SEAT_SHAPES[seat % len(SEAT_SHAPES)]
    outline = WHITE
    if shape == "circle":
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=outline, width=2)
    elif shape == "square":
        draw.rectangle(
            (cx - r * 0.88, cy - r * 0.88, cx + r * 0.88, cy + r * 0.88), fill=fill, outline=outline, width=2
        )
    elif shape == "triangle":
        draw.polygon(
            _polygon(cx, cy + r * 0.18, r * 1.18, 3, -math.pi / 2), fill=fill, outline=outline, width=2
        )
    elif shape == "diamond":
        draw.polygon(_polygon(cx, cy, r * 1.05, 4, -math.pi / 2), fill=fill, outline=outline, width=2)
    elif shape == "hexagon":
        draw.polygon(_polygon(cx, cy, r, 6, 0), fill=fill, outline=outline, width=2)
    else:
        draw.polygon(
            _polygon(cx, cy + r * 0.06, r * 1.05, 5, -math.pi / 2), fill=fill, outline=outline, width=2
        )
    text = str(seat + 1) if label is None else label
    draw.text(
        (cx, cy + (r * 0.12 if shape == "triangle" else 0)),
        text,
        font=font(text_px),
        fill=WHITE,
        anchor="mm",
        stroke_width=1,
        stroke_fill=PANEL_DARK,
    )


def chip(
    draw: ImageDraw.ImageDraw, x: float, y: float, text: str, size: int, bg, fg=WHITE, pad: int = 6
) -> float:
    """A rounded label with a word on it, top-left at (x, y); returns its width."""
    w = text_width(text, size) + 2 * pad
    h = size + pad
    draw.rounded_rectangle((x, y, x + w, y + h), radius=5, fill=bg)
    draw.text((x + w / 2, y + h / 2), text, font=font(size), fill=fg, anchor="mm")
    return w


def to_png(img: Image.Image, palette: Image.Image | None = None) -> bytes:
    """The picture as a 256-colour PNG (``rendering/png.py``): the one encoder of every board.

    A board has a few dozen flat colours and their anti-aliased edges, so 256 colours keep it as it
    looks, and a palette image encodes in about a third of the time of an RGB one, in half the bytes.
    Encoding was most of a board's cost, and drawing limits how many games one process runs
    (bench/bench_render.py). ``palette``: a fixed palette image (``Image.quantize(palette=…)``, no
    dithering; every board has one, ``rendering/palette.py``) that keeps every flat colour exact;
    without one, Pillow's fast octree picks the colours per picture (five times the cost of the
    mapping). A picture drawn in its palette already (mode "P", ``rendering/paletted.py``) is encoded
    as it is."""
    if img.mode == "P":
        reduced = img
    elif palette is not None:
        reduced = paletted.reduce(img, palette)
    else:
        reduced = img.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    return png.encode(reduced)
