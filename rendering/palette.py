"""Fixed 256-colour palettes for the boards' PNGs: a board's flat colours stay exact, the other entries go
to the soft edges its text leaves.

Why fixed: reducing a picture to 256 colours is part of every board's encoding (``theme.to_png``).
Pillow's octree chooses a palette per picture, which was half of an Enemy in Sight or Everrain
picture's CPU; mapping to a palette chosen once per process is a table look-up per pixel (5× cheaper).
Pillow maps a pixel to the palette entry nearest the low corner of its 4×4×4 cell of colours (up to 3
levels a channel away), so an entry a few levels from a flat colour would take that colour's pixels:
none is kept within ``KEEP_CLEAR`` (per channel) of one, and two flat colours of a board must not be
that close either (tests/rendering/test_board_palettes.py).
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Iterable, Sequence

from PIL import Image

RGB = tuple[int, int, int]
KEEP_CLEAR = 8  # an entry 9 levels off in a channel is ≥ 6 from the corner, a flat colour ≤ 3√3 ≈ 5.2


def fixed(flat: Sequence[RGB], sample: Image.Image) -> Image.Image:
    """A palette image (mode "P") for ``Image.quantize(palette=…)``: the ``flat`` colours, then up to 256
    in all of the other colours of ``sample`` (an RGB sheet of what the pictures are made of), none
    within ``KEEP_CLEAR`` of a flat colour.

    The others are chosen one at a time: the colour whose pixels are worst served by the palette so far
    (the square of its distance to the nearest entry, times the square root of how many pixels have it),
    so a rare edge colour far from every entry comes in before a common one that is nearly matched: the
    soft edges of small text keep their shade (at most about 20 levels off a channel on the boards,
    Pillow's octree per picture up to 50)."""
    keep = list(dict.fromkeys((int(c[0]), int(c[1]), int(c[2])) for c in flat))
    if len(keep) > 256:
        raise ValueError(f"{len(keep)} flat colours: a palette has 256")
    # one candidate a 4×4×4 cell (its commonest colour, weighed by all of the cell's pixels): Pillow maps a
    # whole cell to one entry anyway
    cells: dict[RGB, tuple[int, int, RGB]] = {}
    rgb_sample = sample.convert("RGB")
    # Pillow sizes its count's table by ``maxcolors``: the pixels' number bounds the colours and is far
    # cheaper than the 2²⁴ possible. Sorted by colour: the table's order is Pillow's, and ties (a cell's
    # commonest colour, the worst-served one) must not depend on it.
    counted = rgb_sample.getcolors(maxcolors=rgb_sample.width * rgb_sample.height) or []
    for n, c in sorted(counted, key=lambda nc: nc[1]):
        rgb = (int(c[0]), int(c[1]), int(c[2]))  # type: ignore[index]
        if _near_any(rgb, keep):
            continue
        cell = (rgb[0] >> 2, rgb[1] >> 2, rgb[2] >> 2)
        total, most, colour = cells.get(cell, (0, 0, rgb))
        cells[cell] = (total + n, n, rgb) if n > most else (total + n, most, colour)
    weights = [math.sqrt(total) for total, _, _ in cells.values()]
    colours = [rgb for _, _, rgb in cells.values()]
    chosen = list(keep)
    # Lazy greedy: a colour's score (weight × squared distance to its nearest entry) only falls as entries
    # come in, so a score computed against fewer entries bounds it from above. The heap holds
    # (-score, index, entries it was computed against); the top, once brought up to date and still on
    # top, is the worst-served colour: the same pick, and the same tie (lowest index), as scoring every
    # colour after every pick, in a fraction of the time (the first picture of a board waited for it).
    nearest = [min((r - a) ** 2 + (g - b) ** 2 + (u - c) ** 2 for a, b, c in keep) for r, g, u in colours]
    heap = [(-weights[i] * nearest[i], i, len(chosen)) for i in range(len(colours))]
    heapq.heapify(heap)
    while len(chosen) < 256 and heap:
        _, i, seen = heapq.heappop(heap)
        if seen < len(chosen):
            nearest[i] = min(nearest[i], *(_distance2(colours[i], c) for c in chosen[seen:]))
            heapq.heappush(heap, (-weights[i] * nearest[i], i, len(chosen)))
            continue
        if not nearest[i]:
            break
        chosen.append(colours[i])
    chosen += [keep[0]] * (256 - len(chosen))
    palette = Image.new("P", (1, 1))
    palette.putpalette([v for c in chosen for v in c])
    return palette


def _distance2(a: RGB, b: RGB) -> int:
    return (a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2 + (a[2] - b[2]) ** 2


def _near_any(colour: RGB, flat: Sequence[RGB]) -> bool:
    r, g, b = colour
    return any(
        abs(r - x) <= KEEP_CLEAR and abs(g - y) <= KEEP_CLEAR and abs(b - z) <= KEEP_CLEAR for x, y, z in flat
    )


def sheet(pieces: Iterable[Image.Image], background: RGB) -> Image.Image:
    """The ``pieces`` side by side on one RGB sheet (RGBA ones pasted through their alpha), to sample."""
    items = list(pieces)
    img = Image.new(
        "RGB", (sum(p.width for p in items) or 1, max((p.height for p in items), default=1)), background
    )
    x = 0
    for piece in items:
        img.paste(piece, (x, 0), piece if piece.mode == "RGBA" else None)
        x += piece.width
    return img
