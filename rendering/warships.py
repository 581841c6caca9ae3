"""Warships board image from a view (channel: view(None); a seat's DM: view(seat)), on its side.

The board is 12 columns (A–L) by 16 rows (1–16); a chat preview is landscape, so the picture lays it on
its side, flipped across its diagonal so that both axes still read in order: the row numbers 1–16 run left
to right along the top, the column letters A–L down both sides, and every square keeps the name players
type in ``/ws move`` (J15 is where the letter J meets the number 15). So Red's port (rows 1–4) is on the
left and Blue's (rows 13–16) on the right, in every view (docs/rules/warships.md says why).

The picture holds only the board and what happened on it: whose turn, the losses, the exits, the mines
off the board and the key are text beside it (``WarshipsGame.view_text`` / ``key_text``), and no
player's name is drawn. A side is its seat's colour *and* shape (``theme.SEAT_COLOURS``/``SEAT_SHAPES``:
Blue's units are circles, Red's squares), with the unit type's letters on a unit whose type the viewer
knows; shore batteries are towers, mines spiked balls.

Speed: the water, ports, fortification lines and coordinates are one layer drawn once per option set, and
every unit is a sprite drawn once (supersampled, so its edges are smooth). A board is drawn straight into
the palette (``picture``, ``rendering/paletted.py``): a copy of the reduced layer, each unit pasted as a
tile reduced once for its square, the last move drawn with palette indices; ``draw`` is the same board
in RGB, the reference its pixels are checked against.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.games.warships.board import Board, board
from rendering import paletted, theme
from rendering.paletted import RGB
from rendering.theme import DANGER, GOLD, HIGHLIGHT, INK, LAND, SAND, SEA_DARK, SEA_LIGHT, WHITE

F = theme.min_font(theme.MAX_WIDTH)  # 24: the smallest text, legible at 400 px wide
CELL = 46
LEFT = 32  # column letters left of the board
TOP = 30  # row numbers above it
COLS, ROWS = 16, 12  # as drawn: the board's rows across, its columns down
WIDTH = theme.MAX_WIDTH
HEIGHT = TOP + ROWS * CELL + 8  # 590: within 3/4 of the width
REACH = CELL // 2 - 1  # an arrow stops this far from the centre of its last square (a token's edge)
SS = 4  # sprites are drawn this many times larger, then scaled down (smooth edges)

PORT_LIGHT = (226, 210, 164)
PORT_DARK = (186, 166, 118)
NEUTRAL = (58, 110, 150)
SEA_ALT = (38, 82, 122)
LINE = (40, 34, 28)
MINE = (52, 52, 56)


def _dark(colour: tuple[int, int, int]) -> tuple[int, int, int]:
    r, g, b = colour
    return (int(r * 0.5), int(g * 0.5), int(b * 0.5))


# ----- geometry: a square's name -> its box in the picture (the board turned on its side) -----
def _origin(b: Board, i: int) -> tuple[int, int]:
    c, r = b.xy(i)
    return LEFT + r * CELL, TOP + c * CELL


def _xy(b: Board, name: str) -> tuple[int, int]:
    return _origin(b, b.index[name])


def _centre(b: Board, name: str) -> tuple[int, int]:
    x, y = _xy(b, name)
    return x + CELL // 2, y + CELL // 2


# ----- the static layer -----
@lru_cache(maxsize=2)
def _layer(manoeuvres_on: bool) -> Image.Image:
    """Water, islands, ports, fortification lines, exits, battery squares and coordinates: everything
    that depends only on the board file and the initial-manoeuvres option."""
    b = board()
    img = Image.new("RGB", (WIDTH, HEIGHT), theme.BG)
    d = ImageDraw.Draw(img)
    light = {q for s in b.light for q in b.light[s]}
    for i in range(b.n):
        x, y = _origin(b, i)
        c, r = b.xy(i)
        box = (x, y, x + CELL - 1, y + CELL - 1)
        if b.port_of[i] >= 0:
            d.rectangle(box, fill=PORT_LIGHT if i in light else PORT_DARK, outline=PORT_DARK)
        elif i in b.neutral:
            d.rectangle(box, fill=NEUTRAL, outline=SEA_DARK)
            for dx in range(5, CELL, 12):
                for dy in range(5, CELL, 12):
                    d.point((x + dx, y + dy), fill=(170, 200, 225))
        else:
            d.rectangle(box, fill=SEA_LIGHT if (c + r) % 2 == 0 else SEA_ALT, outline=SEA_DARK)
        if i in b.islands:
            d.ellipse((x + 12, y + 8, x + CELL - 12, y + CELL - 8), fill=LAND, outline=(70, 100, 60))
            d.ellipse((x + 18, y + 16, x + 27, y + 24), fill=SAND)
    for seat, squares in b.manoeuvres.items():
        if squares:
            _dashed_frame(d, b, squares, theme.seat_colour(seat) if manoeuvres_on else (120, 150, 180))
    # fortification lines: the edge between a port and the sea, open at the exits
    for i in range(b.n):
        if b.port_of[i] < 0:
            continue
        c, r = b.xy(i)
        for dr in (-1, 1):
            j = b.at(c, r + dr)
            if j is None or b.port_of[j] == b.port_of[i] or b.entrance_step(i, j) is not None:
                continue
            x, y = _origin(b, i)
            edge = x if dr == -1 else x + CELL
            d.line((edge, y - 2, edge, y + CELL + 2), fill=LINE, width=6)
    # an exit's two walls, perpendicular to the shore: a ship leaves or enters only straight through
    for ents in b.entrances.values():
        for e in ents:
            (ex, ey), (fx, _fy) = _origin(b, e), _origin(b, b.entrance_front[e])
            xa, xb = min(ex, fx) + CELL // 2, max(ex, fx) + CELL // 2
            d.line((xa, ey, xb, ey), fill=LINE, width=5)
            d.line((xa, ey + CELL, xb, ey + CELL), fill=LINE, width=5)
    for sq in b.battery_squares:
        x, y = _origin(b, sq)
        d.rectangle((x + 1, y + 1, x + CELL - 2, y + CELL - 2), outline=LINE, width=2)
    # coordinates: the board's row numbers across the top, its column letters down both sides
    for r in range(b.rows):
        x = LEFT + r * CELL + CELL // 2
        d.text((x, TOP // 2), str(r + 1), font=theme.font(F), fill=theme.TEXT_SOFT, anchor="mm")
    for c in range(b.cols):
        y = TOP + c * CELL + CELL // 2
        letter = chr(65 + c)
        d.text((LEFT // 2, y), letter, font=theme.font(F), fill=theme.TEXT_SOFT, anchor="mm")
        right = LEFT + COLS * CELL
        d.text(((right + WIDTH) // 2, y), letter, font=theme.font(F), fill=theme.TEXT_SOFT, anchor="mm")
    return img


def _dashed_frame(d: ImageDraw.ImageDraw, b: Board, squares: list[int], colour) -> None:
    boxes = [_origin(b, q) for q in squares]
    x0, y0 = min(x for x, _ in boxes) + 2, min(y for _, y in boxes) + 2
    x1, y1 = max(x for x, _ in boxes) + CELL - 3, max(y for _, y in boxes) + CELL - 3
    step = 12
    for x in range(x0, x1, 2 * step):
        d.line((x, y0, min(x + step, x1), y0), fill=colour, width=2)
        d.line((x, y1, min(x + step, x1), y1), fill=colour, width=2)
    for y in range(y0, y1, 2 * step):
        d.line((x0, y, x0, min(y + step, y1)), fill=colour, width=2)
        d.line((x1, y, x1, min(y + step, y1)), fill=colour, width=2)


# ----- sprites: one per (kind, side, type, seen), drawn large and scaled down once -----
def _shape(d: ImageDraw.ImageDraw, box, seat: int, fill, outline, width: int) -> None:
    """The seat's shape (theme.SEAT_SHAPES) filling ``box``."""
    x0, y0, x1, y1 = box
    cx, cy, r = (x0 + x1) / 2, (y0 + y1) / 2, (x1 - x0) / 2
    shape = theme.SEAT_SHAPES[seat % len(theme.SEAT_SHAPES)]
    if shape == "circle":
        d.ellipse(box, fill=fill, outline=outline, width=width)
    elif shape == "square":
        d.rounded_rectangle(box, radius=r * 0.22, fill=fill, outline=outline, width=width)
    else:  # Warships has two seats; any other shape still reads as a polygon of its own
        sides = {"triangle": 3, "diamond": 4, "hexagon": 6}.get(shape, 5)
        pts = [
            (
                cx + r * math.cos(-math.pi / 2 + 2 * math.pi * k / sides),
                cy + r * math.sin(-math.pi / 2 + 2 * math.pi * k / sides),
            )
            for k in range(sides)
        ]
        d.polygon(pts, fill=fill, outline=outline, width=width)


def _finish(big: Image.Image) -> Image.Image:
    return big.resize((CELL, CELL), Image.Resampling.LANCZOS)


def _big() -> tuple[Image.Image, ImageDraw.ImageDraw]:
    img = Image.new("RGBA", (CELL * SS, CELL * SS), (0, 0, 0, 0))
    return img, ImageDraw.Draw(img)


@lru_cache(maxsize=64)
def _ship(seat: int, abbr: str | None, seen: bool) -> Image.Image:
    """A ship: the seat's shape in its colour; the type's letters when the viewer knows it (else a dark
    centre: face down); a gold rim when both players have seen its type."""
    img, d = _big()
    colour = theme.seat_colour(seat)
    m = 3 * SS
    rim = GOLD if seen else _dark(colour)
    _shape(d, (m, m, CELL * SS - m, CELL * SS - m), seat, colour, rim, 4 * SS if seen else 3 * SS)
    mid = CELL * SS / 2
    if abbr:
        d.text(
            (mid, mid),
            abbr,
            font=theme.font(F * SS),
            fill=WHITE,
            anchor="mm",
            stroke_width=SS,
            stroke_fill=_dark(colour),
        )
    else:
        q = 12 * SS
        _shape(d, (q, q, CELL * SS - q, CELL * SS - q), seat, _dark(colour), None, 0)
    return _finish(img)


@lru_cache(maxsize=4)
def _battery(seat: int) -> Image.Image:
    """A shore battery: a tower in the seat's colour, battlements on top, the seat's shape on it."""
    img, d = _big()
    colour, dark = theme.seat_colour(seat), _dark(theme.seat_colour(seat))
    s = SS
    x0, x1, y0, y1 = 7 * s, (CELL - 7) * s, 13 * s, (CELL - 5) * s
    merlon = (x1 - x0) / 5
    pts: list[tuple[float, float]] = [(x0, y1), (x0, y0 - 7 * s)]
    for k in range(5):
        top = y0 - 7 * s if k % 2 == 0 else y0
        pts += [(x0 + k * merlon, top), (x0 + (k + 1) * merlon, top)]
    pts += [(x1, y0 - 7 * s), (x1, y1)]
    d.polygon(pts, fill=colour, outline=dark, width=3 * s)
    r = 7 * s
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2 + 2 * s
    _shape(d, (cx - r, cy - r, cx + r, cy + r), seat, WHITE, dark, 2 * s)
    return _finish(img)


@lru_cache(maxsize=4)
def _mine(seat: int) -> Image.Image:
    """A mine: a dark spiked ball, its core the seat's shape and colour."""
    img, d = _big()
    mid, s = CELL * SS / 2, SS
    for k in range(8):
        a = math.pi * k / 4
        d.line(
            (
                mid + 9 * s * math.cos(a),
                mid + 9 * s * math.sin(a),
                mid + 19 * s * math.cos(a),
                mid + 19 * s * math.sin(a),
            ),
            fill=MINE,
            width=4 * s,
        )
    d.ellipse((mid - 14 * s, mid - 14 * s, mid + 14 * s, mid + 14 * s), fill=MINE, outline=WHITE, width=s)
    r = 7 * s
    _shape(d, (mid - r, mid - r, mid + r, mid + r), seat, theme.seat_colour(seat), WHITE, s)
    return _finish(img)


@lru_cache(maxsize=8)
def _turns_badge(turns: int, last: bool) -> Image.Image:
    """The turns a unit has ended in neutral waters: a white tag, red on the last one allowed."""
    w, h = 20, 26
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle((0, 0, w - 1, h - 1), radius=4, fill=DANGER if last else WHITE, outline=INK)
    d.text((w / 2, h / 2 + 1), str(turns), font=theme.font(F), fill=WHITE if last else INK, anchor="mm")
    return img


# ----- one board -----
Ink = Callable[[RGB], "RGB | int"]  # a colour as the picture takes it: RGB, or its palette index


def _same(colour: RGB) -> RGB:
    return colour


def _sprite_key(b: Board, unit: dict) -> tuple:
    kind, seat = unit.get("type"), int(unit["owner"])
    if kind in ("battery", "mine"):
        return (kind, seat)
    return ("ship", seat, b.abbr(kind) if kind else None, bool(unit.get("revealed")))


def _badge_key(unit: dict, limit: int) -> tuple[int, bool] | None:
    turns = int(unit.get("nw") or 0)
    return (turns, turns >= limit) if turns else None


def _dress(img: Image.Image, x: int, y: int, sprite_key: tuple, badge: tuple[int, bool] | None) -> None:
    """A unit's sprite, and its neutral-waters tag, pasted through their alpha on its square at (x, y)."""
    kind, seat = sprite_key[0], sprite_key[1]
    if kind == "battery":
        sprite = _battery(seat)
    elif kind == "mine":
        sprite = _mine(seat)
    else:
        sprite = _ship(seat, *sprite_key[2:])
    img.paste(sprite, (x, y), sprite)
    if badge:
        tag = _turns_badge(*badge)
        img.paste(tag, (x + CELL - tag.width, y), tag)


def _ring(d: ImageDraw.ImageDraw, b: Board, name: str, colour, width: int) -> None:
    x, y = _xy(b, name)
    d.rectangle((x + 1, y + 1, x + CELL - 2, y + CELL - 2), outline=colour, width=width)


def _cross(d: ImageDraw.ImageDraw, b: Board, name: str, ink: Ink) -> None:
    x, y = _xy(b, name)
    for a, z in (
        ((x + 9, y + 9), (x + CELL - 10, y + CELL - 10)),
        ((x + 9, y + CELL - 10), (x + CELL - 10, y + 9)),
    ):
        d.line((a, z), fill=ink(INK), width=9)
        d.line((a, z), fill=ink(DANGER), width=5)


ARROW_REACH = (
    16  # how far an arrow's ink goes past the box of its points (its outline's half width, its head)
)


def _arrow(d: ImageDraw.ImageDraw, points: list[tuple[int, int]], colour: RGB, width: int, ink: Ink) -> None:
    """A path with an arrowhead at its end, drawn over the water between the squares it joins."""
    d.line(points, fill=ink(INK), width=width + 4, joint="curve")
    d.line(points, fill=ink(colour), width=width, joint="curve")
    (x0, y0), (x1, y1) = points[-2], points[-1]
    a = math.atan2(y1 - y0, x1 - x0)
    tip = (x1 - REACH * math.cos(a), y1 - REACH * math.sin(a))  # at the edge of the token, not under it
    head = [
        tip,
        (tip[0] - 14 * math.cos(a - 0.5), tip[1] - 14 * math.sin(a - 0.5)),
        (tip[0] - 14 * math.cos(a + 0.5), tip[1] - 14 * math.sin(a + 0.5)),
    ]
    d.polygon(head, fill=ink(colour), outline=ink(INK))


def _arrows(b: Board, last: dict) -> list[tuple[list[tuple[int, int]], RGB, int]]:
    """The last move's arrows (points, colour, width): its path (from → via → to) and its shot."""
    if "from" not in last:
        return []
    path = [last["from"]] + [last[k] for k in ("via", "to") if last.get(k)]
    out = []
    if len(path) > 1:
        out.append(([_centre(b, p) for p in path], HIGHLIGHT, 5))
    if last.get("target"):
        out.append(([_centre(b, path[-1]), _centre(b, last["target"])], DANGER, 3))
    return out


def _lost(view: dict) -> list[str]:
    """The squares of the shore batteries destroyed."""
    return [
        sq for exit_ in view.get("batteries", []) for sq, alive in exit_["batteries"].items() if not alive
    ]


def _under(d: ImageDraw.ImageDraw, b: Board, view: dict, last: dict, ink: Ink) -> None:
    """What goes under the units: the lost batteries' crosses, the last move's arrows."""
    for sq in _lost(view):
        _cross(d, b, sq, ink)
    for points, colour, width in _arrows(b, last):
        _arrow(d, points, colour, width, ink)


def _under_boxes(b: Board, view: dict, last: dict) -> list[tuple[int, int, int, int]]:
    """Boxes (x0, y0, x1, y1, exclusive ends) that hold everything ``_under`` draws: a unit on a square
    outside them has only the layer under it."""
    boxes = []
    for sq in _lost(view):
        x, y = _xy(b, sq)
        boxes.append((x, y, x + CELL, y + CELL))
    for points, _, _ in _arrows(b, last):
        xs, ys = [x for x, _ in points], [y for _, y in points]
        boxes.append(
            (
                min(xs) - ARROW_REACH,
                min(ys) - ARROW_REACH,
                max(xs) + ARROW_REACH + 1,
                max(ys) + ARROW_REACH + 1,
            )
        )
    return boxes


def _last_move_over(d: ImageDraw.ImageDraw, b: Board, last: dict, ink: Ink) -> None:
    """The squares of the last move, over the units: where it came from and went (yellow), what it
    attacked (red), mines just laid (gold), and what the clash or neutral waters removed (a red cross)."""
    for sq in last.get("mines", []):
        _ring(d, b, sq, ink(GOLD), 3)
    if "from" in last:
        _ring(d, b, last["from"], ink(HIGHLIGHT), 3)
        end = last.get("to") or last.get("via")
        if end:
            _ring(d, b, end, ink(HIGHLIGHT), 4)
        if last.get("target"):
            _ring(d, b, last["target"], ink(DANGER), 4)
    for sq in (last.get("clash") or {}).get("removed", []) + last.get("neutral_removed", []):
        _cross(d, b, sq, ink)


def _units(b: Board, view: dict):
    """(x, y, square index, sprite key, tag key) of every unit the view shows."""
    limit = int(view.get("neutral_turns", b.neutral_turns))
    for unit in view.get("units", []):
        i = b.index[unit["sq"]]
        x, y = _origin(b, i)
        yield x, y, i, _sprite_key(b, unit), _badge_key(unit, limit)


def draw(view: dict) -> Image.Image:
    """The board of ``view`` as an RGB image: the reference ``picture`` draws the same pixels of."""
    b = board()
    img = _layer(bool(view.get("options", {}).get("initial-manoeuvres"))).copy()
    d = ImageDraw.Draw(img)
    last = view.get("last") or {}
    _under(d, b, view, last, _same)
    for x, y, _, sprite_key, badge in _units(b, view):
        _dress(img, x, y, sprite_key, badge)
    _last_move_over(d, b, last, _same)
    return img


def picture(view: dict) -> Image.Image:
    """The board of ``view`` drawn in its palette (mode "P"): the pixels of ``draw(view)`` reduced to the
    palette, without drawing or reducing the whole picture in RGB (``rendering/paletted.py``). A unit
    on a square with only the layer under it is a tile reduced once; one over the last move's arrows or
    a lost battery's cross is drawn in RGB over them and reduced there."""
    b = board()
    manoeuvres_on = bool(view.get("options", {}).get("initial-manoeuvres"))
    inks = _inks()
    img = _layer_reduced(manoeuvres_on).copy()
    d = ImageDraw.Draw(img)
    last = view.get("last") or {}
    _under(d, b, view, last, inks)
    boxes = _under_boxes(b, view, last)
    over = []  # units over something _under drew
    for x, y, i, sprite_key, badge in _units(b, view):
        if any(x < x1 and x + CELL > x0 and y < y1 and y + CELL > y0 for x0, y0, x1, y1 in boxes):
            over.append((x, y, sprite_key, badge))
        else:
            img.paste(_tile(manoeuvres_on, i, sprite_key, badge), (x, y))
    if over:
        # RGB only as far as those squares reach: the layer on each, then what is under them, then them
        rgb = Image.new("RGB", (max(x for x, *_ in over) + CELL, max(y for _, y, *_ in over) + CELL))
        layer = _layer(manoeuvres_on)
        for x, y, _, _ in over:
            rgb.paste(layer.crop((x, y, x + CELL, y + CELL)), (x, y))
        _under(ImageDraw.Draw(rgb), b, view, last, _same)
        for x, y, sprite_key, badge in over:
            _dress(rgb, x, y, sprite_key, badge)
            img.paste(inks.reduce(rgb.crop((x, y, x + CELL, y + CELL))), (x, y))
    _last_move_over(d, b, last, inks)
    return img


def render(view: dict, names: list[str] | None = None) -> bytes:
    """The board picture of ``view``; ``names`` is accepted for the renderer contract and never drawn."""
    return theme.to_png(picture(view))


@lru_cache(maxsize=2)
def _layer_reduced(manoeuvres_on: bool) -> Image.Image:
    return _inks().reduce(_layer(manoeuvres_on))


# a unit on its square, reduced: a board shows up to ~60, and one process draws every running game
# (about 2.5 KiB each: 10 MiB at most)
@lru_cache(maxsize=4096)
def _tile(manoeuvres_on: bool, i: int, sprite_key: tuple, badge: tuple[int, bool] | None) -> Image.Image:
    x, y = _origin(board(), i)
    img = _layer(manoeuvres_on).crop((x, y, x + CELL, y + CELL))
    _dress(img, 0, 0, sprite_key, badge)
    return _inks().reduce(img)


@lru_cache(maxsize=1)
def _inks() -> paletted.Inks:
    return paletted.Inks(_palette())


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    """One 256-colour palette for every board, taken from the layer, every kind of sprite and the
    last-move colours as drawn (so each board is quantised to it without building a palette of its own)."""
    b = board()
    sprites = [_ship(s, None, seen) for s in (0, 1) for seen in (False, True)]
    sprites += [
        _ship(s, b.abbr(t), seen)
        for s in (0, 1)
        for t in ("battleship", "minesweeper")
        for seen in (False, True)
    ]
    sprites += [_battery(s) for s in (0, 1)] + [_mine(s) for s in (0, 1)]
    sprites += [_turns_badge(n, n >= 3) for n in (1, 3)]
    sample = Image.new("RGB", (WIDTH, HEIGHT + 2 * CELL), theme.BG)
    sample.paste(_layer(True), (0, 0))
    d = ImageDraw.Draw(sample)
    for k, colour in enumerate((HIGHLIGHT, DANGER, GOLD, INK)):
        d.rectangle((k * 2 * CELL, HEIGHT + CELL, (k + 1) * 2 * CELL - 1, HEIGHT + 2 * CELL - 1), fill=colour)
    for k, sprite in enumerate(sprites):
        sample.paste(sprite, (k * CELL, HEIGHT), sprite)
    return sample.quantize(colors=256, method=Image.Quantize.MEDIANCUT)
