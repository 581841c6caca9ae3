"""The shared look of every image: palette, fonts and small drawing helpers.

Fonts: Pillow's own embedded font (``ImageFont.load_default(size)``, Pillow
≥ 10.1 with FreeType), so no system font is needed.
"""

from __future__ import annotations

import io
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

# Palette (RGB). Sea blues, parchment, and the two fleet colours.
SEA = (28, 66, 102)
SEA_LIGHT = (44, 92, 136)
SEA_DARK = (18, 44, 70)
GRID = (88, 128, 168)
PARCHMENT = (238, 228, 204)
INK = (34, 30, 26)
INK_SOFT = (96, 88, 78)
WHITE = (250, 250, 250)
GOLD = (232, 186, 64)
HIGHLIGHT = (255, 214, 90)
DANGER = (214, 64, 52)
OK = (86, 168, 96)
BLUE = (52, 120, 220)
BLUE_DARK = (26, 66, 140)
RED = (208, 58, 52)
RED_DARK = (128, 28, 24)
LAND = (116, 150, 92)
SAND = (214, 196, 140)
GREY = (150, 150, 150)

# Fleet colours by seat number, for games with up to six players.
SEAT_COLOURS = [BLUE, RED, (64, 160, 90), (200, 140, 40), (140, 90, 190), (60, 170, 180)]
SEAT_NAMES = ["Blue", "Red", "Green", "Amber", "Purple", "Teal"]


@lru_cache(maxsize=32)
def font(size: int) -> ImageFont.ImageFont:
    return ImageFont.load_default(size=size)


def canvas(width: int, height: int, colour=PARCHMENT) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    img = Image.new("RGB", (width, height), colour)
    return img, ImageDraw.Draw(img)


def text_size(draw: ImageDraw.ImageDraw, text: str, size: int) -> tuple[int, int]:
    left, top, right, bottom = draw.textbbox((0, 0), text, font=font(size))
    return right - left, bottom - top


def centered_text(draw: ImageDraw.ImageDraw, box: tuple[int, int, int, int], text: str, size: int,
                  fill=INK) -> None:
    x0, y0, x1, y1 = box
    draw.text(((x0 + x1) / 2, (y0 + y1) / 2), text, font=font(size), fill=fill, anchor="mm")


def to_png(img: Image.Image) -> bytes:
    buf = io.BytesIO()
    # Pillow's default compression: optimize=True made files ~8% smaller for 5× the time
    # (33 of 40 ms per board), and drawing was the bot's throughput limit (bench/RESULTS.md).
    img.save(buf, format="PNG")
    return buf.getvalue()
