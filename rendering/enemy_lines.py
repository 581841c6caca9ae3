"""The Enemy Lines board picture: landscape, the board and a dock for each side beside it.

Geometry (exposed for tests): columns A..H left to right, rows 1..8 from the bottom; Blue (seat 0)
plays from the bottom edge, Red (seat 1) from the top, as the text board and the rules doc draw it.
``cell_box(col, row)`` gives the pixel box of a cell (0-based col and row, row 0 = row 1 at the
bottom). Row numbers are on the left, column letters below, like a chess diagram.

Home rows are tinted in their side's colour and carry their mark (4/3/2) on the side's badge at the
right end of the row. Beside them is that side's dock: its badge (shape and colour: the seat's mark,
which the text beside the picture names), ringed when the side is to move (gold at the end for the
winner), three slots that fill with its ships lying in enemy lines (three bring the end), and, while
placing, the ships it still has to place. Ships are hulls with a rounded stern and a pointed bow,
their size on the side's badge; a ship that scores has a gold rim; the anchored ship carries an
anchor. The last move: the squares it went to glow, the squares it left are outlined.

No names, scores or sentences: the text beside the picture (``EnemyLinesGame.view_text``) says those,
in any script; the key (``key_text``) explains the marks.

Speed: everything that depends only on the board layout (water, home tints, frames, coordinates,
marks, empty docks) is drawn once per layout and copied, each kind of ship is drawn once and pasted,
and the PNG is packed with a palette chosen once per layout; a move only pastes ships and fills its
highlights. The caches hold only what the layout and the constants give, never one game's state.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import lru_cache

from PIL import Image, ImageDraw

from rendering import palette, paletted, theme
from rendering.paletted import RGB

Ink = Callable[[RGB], "RGB | int"]  # a colour as the picture takes it: RGB, or its palette index
CELL = 60
LEFT = 30  # row numbers
TOP = 10
LABELS = 28  # column letters below the board
MARKS = 48  # the mark badges right of the board
DOCK = 138  # each side's dock, right of the marks
MARGIN = 8
COLS = 8
ROWS = 8

BOARD_X0 = LEFT
BOARD_Y0 = TOP
SIDE_COLOURS = (theme.seat_colour(0), theme.seat_colour(1))
TINT = 0.34  # share of the side colour in a home-row square
GLOW = 0.70  # share of the highlight colour in a square the last move went to
DARKEN = 0.45  # share of black in a side's dark shade (rims, badges on hulls)
ENDING_COUNT = 3  # ships in enemy lines that end the game (docs/rules/enemy-lines.md)
SLOT_Y, SLOT_STEP = 114, 34  # the dock's slots: below its top, apart
HARBOUR_Y = 92  # the dock's harbour (ships to place): below its top
# PNG: the picture has a few flat colours and the soft edges of its digits, so it is sent with a palette
# of 256 colours chosen once per layout (``_palette``), and drawn straight into it (``picture``).


def mix(a, b, t: float) -> tuple[int, int, int]:
    return tuple(round(x + (y - x) * t) for x, y in zip(a, b, strict=True))


SIDE_DARK = tuple(mix(c, (0, 0, 0), DARKEN) for c in SIDE_COLOURS)


def size_px(cols: int = COLS, rows: int = ROWS) -> tuple[int, int]:
    """Width and height of the picture: landscape, no taller than 3/4 of its width."""
    height = TOP + rows * CELL + LABELS + MARGIN // 2
    width = LEFT + cols * CELL + MARKS + DOCK + MARGIN
    return max(width, math.ceil(height * 4 / 3)), height


def cell_box(col: int, row: int, rows: int = ROWS) -> tuple[int, int, int, int]:
    """Pixel box (x0, y0, x1, y1) of a square; x1/y1 exclusive. Row 0 is row 1, at the bottom."""
    x0 = BOARD_X0 + col * CELL
    y0 = BOARD_Y0 + (rows - 1 - row) * CELL
    return x0, y0, x0 + CELL, y0 + CELL


def home_tint(seat: int) -> tuple[int, int, int]:
    return mix(theme.SEA, SIDE_COLOURS[seat], TINT)


def _font_px(cols: int, rows: int) -> int:
    return theme.min_font(size_px(cols, rows)[0])


def dock_box(seat: int, view_rows: list[dict], cols: int, rows: int) -> tuple[int, int, int, int]:
    """The dock of a side: beside its home rows, right of the marks."""
    own = [ri["row"] for ri in view_rows if ri["side"] == seat]
    top = min(cell_box(0, r, rows)[1] for r in own)
    bottom = max(cell_box(0, r, rows)[3] for r in own)
    x0 = BOARD_X0 + cols * CELL + MARKS
    return x0, top + 2, x0 + DOCK - 2, bottom - 3


# ----- ships ---------------------------------------------------------------------------
def _hull_points(box, bow: str) -> list[tuple[float, float]]:
    """A hull outline in a box: rounded stern, pointed bow towards ``bow`` (N/S/E/W)."""
    x0, y0, x1, y1 = box
    along = x1 - x0 if bow in "EW" else y1 - y0
    across = y1 - y0 if bow in "EW" else x1 - x0
    bowlen = across * 0.75
    r = across * 0.35
    pts = [(along, across / 2), (along - bowlen, 0), (r, 0)]
    steps = 5
    for i in range(1, steps):  # stern corner (top)
        a = math.pi / 2 * i / steps
        pts.append((r - r * math.sin(a), r - r * math.cos(a)))
    pts += [(0, r), (0, across - r)]
    for i in range(1, steps):  # stern corner (bottom)
        a = math.pi / 2 * i / steps
        pts.append((r - r * math.cos(a), across - r + r * math.sin(a)))
    pts += [(r, across), (along - bowlen, across)]

    def tr(u, v):
        if bow == "E":
            return (x0 + u, y0 + v)
        if bow == "W":
            return (x1 - u, y0 + v)
        if bow == "N":
            return (x0 + v, y1 - u)
        return (x0 + v, y0 + u)

    return [tr(u, v) for u, v in pts]


def _bow(seat: int, along: str) -> str:
    if along == "row":
        return "E" if seat == 0 else "W"
    return "N" if seat == 0 else "S"


def _draw_anchor(draw: ImageDraw.ImageDraw, cx: float, cy: float) -> None:
    draw.ellipse((cx - 14, cy - 14, cx + 14, cy + 14), fill=theme.INK, outline=theme.GOLD, width=2)
    g = theme.GOLD
    draw.ellipse((cx - 3, cy - 11, cx + 3, cy - 5), outline=g, width=2)  # ring
    draw.line((cx, cy - 5, cx, cy + 9), fill=g, width=2)  # shank
    draw.line((cx - 6, cy - 2, cx + 6, cy - 2), fill=g, width=2)  # stock
    draw.arc((cx - 9, cy - 3, cx + 9, cy + 10), start=20, end=160, fill=g, width=2)  # arms
    draw.polygon([(cx - 10, cy + 2), (cx - 6, cy + 2), (cx - 9, cy + 6)], fill=g)
    draw.polygon([(cx + 10, cy + 2), (cx + 6, cy + 2), (cx + 9, cy + 6)], fill=g)


INSET = 7  # between a hull and the edges of its squares


@lru_cache(maxsize=128)
def _ship_sprite(seat: int, size: int, along: str, scores: bool, anchored: bool, f: int) -> Image.Image:
    """A ship on a transparent ground the size of its squares (a ship looks the same wherever it lies):
    a hull, its deck line, its size on the side's badge, a gold rim when it scores, the anchor on the
    stern square when anchored."""
    w, h = (size * CELL, CELL) if along == "row" else (CELL, size * CELL)
    img = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img)
    bow = _bow(seat, along)
    x0, y0, x1, y1 = box = (INSET, INSET, w - INSET, h - INSET)
    # a ship that scores (lying along a row in enemy lines) has a gold rim
    rim = theme.GOLD if scores else SIDE_DARK[seat]
    draw.polygon(_hull_points(box, bow), fill=SIDE_COLOURS[seat], outline=rim, width=5 if scores else 3)
    if scores:  # a dark line inside the gold: the rim stands out from a hull of a light colour too
        inner = (x0 + 5, y0 + 5, x1 - 5, y1 - 5)
        draw.polygon(_hull_points(inner, bow), outline=SIDE_DARK[seat], width=2)
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    light = mix(SIDE_COLOURS[seat], theme.WHITE, 0.35)
    deck = {
        "E": (x0 + 14, cy, x1 - 30, cy),
        "W": (x0 + 30, cy, x1 - 14, cy),
        "N": (cx, y0 + 30, cx, y1 - 14),
        "S": (cx, y0 + 14, cx, y1 - 30),
    }
    draw.line(deck[bow], fill=light, width=2)
    # the size on the side's badge: shape, not only colour, tells the sides apart
    theme.seat_badge(draw, cx, cy, seat, f, colour=SIDE_DARK[seat], label=str(size))
    if anchored:  # on the stern square, the end away from the bow
        stern = {"E": (0, 0), "W": (w - CELL, 0), "N": (0, h - CELL), "S": (0, 0)}[bow]
        _draw_anchor(draw, stern[0] + CELL / 2, stern[1] + CELL / 2)
    return img


def _draw_ship(img: Image.Image, ship: dict, rows: int, f: int) -> None:
    sprite = _ship_sprite(
        ship["seat"],
        ship["size"],
        ship["along"],
        bool(ship.get("in_enemy_lines")),
        bool(ship.get("anchored")),
        f,
    )
    x = min(cell_box(c, r, rows)[0] for c, r in ship["cells"])
    y = min(cell_box(c, r, rows)[1] for c, r in ship["cells"])
    img.paste(sprite, (x, y), sprite)


# ----- the static layer ------------------------------------------------------------------
@lru_cache(maxsize=8)
def _base(cols: int, rows: int, row_info: tuple[tuple[int, int | None, int], ...]) -> Image.Image:
    """Water, home tints, the lines between home areas and neutral water, coordinates, row marks and
    the empty docks: everything that depends on the layout only (``row_info``: (row, side, mark))."""
    width, height = size_px(cols, rows)
    f = _font_px(cols, rows)
    img, draw = theme.canvas(width, height, theme.BG)
    info = {r: (side, mark) for r, side, mark in row_info}
    for r in range(rows):
        side, mark = info[r]
        fill = theme.SEA if side is None else home_tint(side)
        for c in range(cols):
            draw.rectangle(cell_box(c, r, rows), fill=fill, outline=theme.GRID)
    bx0, by0 = BOARD_X0, BOARD_Y0
    bx1, by1 = BOARD_X0 + cols * CELL, BOARD_Y0 + rows * CELL
    for seat in (0, 1):  # the front line of each home area
        marks = [mark for _, side, mark in row_info if side == seat]
        for r, side, mark in row_info:
            if side == seat and mark == min(marks):
                y = cell_box(0, r, rows)[1] if seat == 0 else cell_box(0, r, rows)[3] - 1
                draw.line((bx0, y, bx1, y), fill=SIDE_DARK[seat], width=3)
    draw.rectangle((bx0 - 2, by0 - 2, bx1 + 1, by1 + 1), outline=theme.PANEL_DARK, width=2)
    for c in range(cols):
        x = (cell_box(c, 0, rows)[0] + cell_box(c, 0, rows)[2]) / 2
        draw.text(
            (x, by1 + LABELS / 2 + 1), chr(65 + c), font=theme.font(f), fill=theme.TEXT_SOFT, anchor="mm"
        )
    for r in range(rows):
        x0, y0, x1, y1 = cell_box(0, r, rows)
        cy = (y0 + y1) / 2
        draw.text((LEFT / 2, cy), str(r + 1), font=theme.font(f), fill=theme.TEXT_SOFT, anchor="mm")
        side, mark = info[r]
        if side is not None:
            theme.seat_badge(draw, bx1 + MARKS / 2, cy, side, f, label=str(mark))
    rows_list = [{"row": r, "side": side} for r, side, _ in row_info]
    for seat in (0, 1):
        box = dock_box(seat, rows_list, cols, rows)
        draw.rounded_rectangle(
            box, radius=10, fill=mix(theme.PANEL, SIDE_COLOURS[seat], 0.22), outline=theme.RULE
        )
    return img


# ----- the palette -------------------------------------------------------------------------------
def _flat_colours(row_info: tuple[tuple[int, int | None, int], ...]) -> list[tuple[int, int, int]]:
    """Every colour the picture fills with: these stay exact."""
    grounds = [theme.SEA] + [home_tint(side) for _, side, _ in row_info if side is not None]
    out = [theme.BG, theme.GRID, theme.PANEL_DARK, theme.RULE, theme.TEXT_SOFT, theme.WHITE, theme.INK]
    out += [theme.HIGHLIGHT, theme.GOLD, *grounds, *(mix(g, theme.HIGHLIGHT, GLOW) for g in grounds)]
    for seat in (0, 1):
        out += [SIDE_COLOURS[seat], SIDE_DARK[seat], mix(SIDE_COLOURS[seat], theme.WHITE, 0.35)]
        out.append(mix(theme.PANEL, SIDE_COLOURS[seat], 0.22))
    return list(dict.fromkeys(out))


@lru_cache(maxsize=8)
def _palette(cols: int, rows: int, row_info: tuple[tuple[int, int | None, int], ...]) -> Image.Image:
    """The 256 colours of the pictures of a layout: its flat colours, then the commonest others (the soft
    edges of the digits) of a sheet with the static layer and every kind of ship."""
    f = _font_px(cols, rows)
    sprites = [
        _ship_sprite(seat, size, along, scores, anchored, f)
        for seat in (0, 1)
        for size in (2, 3, 4)
        for along in ("row", "column")
        for scores in (False, True)
        for anchored in (False, True)
    ]
    return palette.fixed(
        _flat_colours(row_info), palette.sheet([_base(cols, rows, row_info), *sprites], theme.SEA)
    )


# ----- the dock ---------------------------------------------------------------------------------
def _draw_dock(draw, box, seat: int, view: dict) -> None:
    over = view["phase"] == "over"
    active = not over and view.get("turn") == seat
    winner = over and seat in (view.get("winners") or [])
    ring = theme.HIGHLIGHT if active else (theme.GOLD if winner else None)
    x0, y0, x1, _ = box
    cx, cy = (x0 + x1) / 2, y0 + 44
    if ring:
        draw.rounded_rectangle(box, radius=10, outline=ring, width=5)
        draw.ellipse((cx - 36, cy - 36, cx + 36, cy + 36), fill=ring)
    theme.seat_badge(draw, cx, cy, seat, 34, label="")
    if view["phase"] == "placement":
        _draw_harbour(draw, box, seat, view)
        return
    # three slots: its ships lying in enemy lines (three end the game)
    done = int(view["in_enemy_lines"][str(seat)])
    for k in range(ENDING_COUNT):
        px, py, r = cx + (k - 1) * SLOT_STEP, y0 + SLOT_Y, 12
        if k < done:
            draw.ellipse(
                (px - r, py - r, px + r, py + r), fill=SIDE_COLOURS[seat], outline=theme.GOLD, width=4
            )
        else:
            draw.ellipse((px - r, py - r, px + r, py + r), outline=theme.TEXT_SOFT, width=2)


def _draw_harbour(draw, box, seat: int, view: dict) -> None:
    """The ships a side still has to place, the biggest first, one size a line."""
    sizes = {s["id"]: s["size"] for s in view["ships"]}
    waiting = sorted((sizes[sid] for sid in view["to_place"][str(seat)]), reverse=True)
    sq, gap = 18, 8
    y = box[1] + HARBOUR_Y
    for size in sorted(set(waiting), reverse=True):
        x = box[0] + 10
        for _ in range(waiting.count(size)):
            hull = (x, y, x + size * sq, y + sq)
            bow = "E" if seat == 0 else "W"
            draw.polygon(_hull_points(hull, bow), fill=SIDE_COLOURS[seat], outline=SIDE_DARK[seat])
            x += size * sq + gap
        y += sq + gap


# ----- main ----------------------------------------------------------------------------------------------
Layer = tuple[int, int, tuple[tuple[int, int | None, int], ...]]  # (cols, rows, row_info): one static layer


def _layer_key(view: dict) -> Layer:
    row_info = tuple((ri["row"], ri["side"], ri["mark"]) for ri in view["row_info"])
    return view.get("cols", COLS), view.get("rows", ROWS), row_info


def render(view: dict, names: list[str] | None = None) -> bytes:
    """The picture of ``view`` as a PNG with the layout's palette; ``names`` are not drawn (a seat is
    its badge: the text beside the picture names it)."""
    return theme.to_png(picture(view))


def _same(colour: RGB) -> RGB:
    return colour


def _last_move(draw: ImageDraw.ImageDraw, view: dict, rows: int, side_of: dict, ink: Ink) -> list[tuple]:
    """The last move: the squares it went to glow, the squares it left are outlined; their boxes."""
    last = view.get("last") or {}
    to_cells = {tuple(c) for c in last.get("to", [])}
    from_cells = {tuple(c) for c in last.get("from", [])} - to_cells
    boxes = []
    for c, r in sorted(to_cells):
        side = side_of.get(r)
        base = theme.SEA if side is None else home_tint(side)
        x0, y0, x1, y1 = box = cell_box(c, r, rows)
        # inside the grid lines and the front lines of the cached layer
        draw.rectangle((x0 + 2, y0 + 2, x1 - 3, y1 - 3), fill=ink(mix(base, theme.HIGHLIGHT, GLOW)))
        boxes.append(box)
    for c, r in sorted(from_cells):
        x0, y0, x1, y1 = box = cell_box(c, r, rows)
        draw.rectangle((x0 + 4, y0 + 4, x1 - 5, y1 - 5), outline=ink(theme.HIGHLIGHT), width=3)
        boxes.append(box)
    return boxes


def _ships(view: dict, rows: int, f: int):
    """(x, y, sprite arguments) of every placed ship."""
    for ship in view["ships"]:
        if ship["placed"]:
            x = min(cell_box(c, r, rows)[0] for c, r in ship["cells"])
            y = min(cell_box(c, r, rows)[1] for c, r in ship["cells"])
            key = (
                ship["seat"],
                ship["size"],
                ship["along"],
                bool(ship.get("in_enemy_lines")),
                bool(ship.get("anchored")),
                f,
            )
            yield x, y, key


def draw_picture(view: dict) -> Image.Image:
    """The picture of ``view`` in full colour: the reference ``picture`` has the pixels of, reduced."""
    cols, rows, row_info = layer = _layer_key(view)
    img = _base(*layer).copy()
    draw = ImageDraw.Draw(img)
    f = _font_px(cols, rows)
    _last_move(draw, view, rows, {r: side for r, side, _ in row_info}, _same)
    for x, y, key in _ships(view, rows, f):
        sprite = _ship_sprite(*key)
        img.paste(sprite, (x, y), sprite)
    for seat in (0, 1):
        _draw_dock(draw, dock_box(seat, view["row_info"], cols, rows), seat, view)
    return img


def picture(view: dict) -> Image.Image:
    """The picture of ``view`` drawn in its palette (mode "P", ``rendering/paletted.py``): the layer and
    each ship where it lies reduced once; the last move's squares drawn with their palette index; a
    ship over them drawn in RGB there and reduced; each side's dock as reduced once for its state."""
    cols, rows, row_info = layer = _layer_key(view)
    inks = _inks(layer)
    img = _base_reduced(layer).copy()
    draw = ImageDraw.Draw(img)
    f = _font_px(cols, rows)
    side_of = {r: side for r, side, _ in row_info}
    boxes = _last_move(draw, view, rows, side_of, inks)
    over = []  # ships over a square of the last move
    for x, y, key in _ships(view, rows, f):
        w, h = _ship_sprite(*key).size
        if any(x < x1 and x + w > x0 and y < y1 and y + h > y0 for x0, y0, x1, y1 in boxes):
            over.append((x, y, key))
        else:
            img.paste(_ship_tile(layer, key, x, y), (x, y))
    if over:
        sprites = [(x, y, _ship_sprite(*key)) for x, y, key in over]
        rgb = Image.new(
            "RGB", (max(x + s.width for x, _, s in sprites), max(y + s.height for _, y, s in sprites))
        )
        base = _base(*layer)
        for x, y, sprite in sprites:
            rgb.paste(base.crop((x, y, x + sprite.width, y + sprite.height)), (x, y))
        _last_move(ImageDraw.Draw(rgb), view, rows, side_of, _same)
        for x, y, sprite in sprites:
            rgb.paste(sprite, (x, y), sprite)
        for x, y, sprite in sprites:
            img.paste(inks.reduce(rgb.crop((x, y, x + sprite.width, y + sprite.height))), (x, y))
    for seat in (0, 1):
        patch, corner = _dock_reduced(layer, seat, _dock_state(view, seat))
        img.paste(patch, corner)
    return img


def _dock_state(view: dict, seat: int) -> tuple:
    """What a side's dock shows of ``view`` (``_draw_dock`` draws from these fields only)."""
    placing = view["phase"] == "placement"
    sizes = {s["id"]: s["size"] for s in view["ships"]} if placing else {}
    return (
        view["phase"],
        view.get("turn"),
        tuple(view.get("winners") or ()),
        tuple(sorted((sizes[sid] for sid in view["to_place"][str(seat)]), reverse=True)) if placing else (),
        None if placing else int(view["in_enemy_lines"][str(seat)]),
    )


@lru_cache(maxsize=256)
def _dock_reduced(layer: Layer, seat: int, state: tuple) -> tuple[Image.Image, tuple[int, int]]:
    """A side's dock in one state, drawn on the layer and reduced, and where it goes."""
    phase, turn, winners, waiting, done = state
    cols, rows, row_info = layer
    view_rows = [{"row": r, "side": side} for r, side, _ in row_info]
    # a view with just what the dock reads: ships of the sizes waiting, the count in enemy lines
    ships = [{"id": f"s{k}", "size": size} for k, size in enumerate(waiting)]
    view = {
        "phase": phase,
        "turn": turn,
        "winners": list(winners),
        "ships": ships,
        "to_place": {str(seat): [s["id"] for s in ships]},
        "in_enemy_lines": {str(seat): done},
    }
    img = _base(*layer).copy()
    x0, y0, x1, y1 = box = dock_box(seat, view_rows, cols, rows)
    _draw_dock(ImageDraw.Draw(img), box, seat, view)
    return _inks(layer).reduce(img.crop((x0, y0, x1 + 1, y1 + 1))), (x0, y0)


@lru_cache(maxsize=8)
def _base_reduced(layer: Layer) -> Image.Image:
    return _inks(layer).reduce(_base(*layer))


# a ship where it lies, reduced: a board shows about ten, a game a few dozen, one process draws them all
# (4-14 KiB each: 10 MiB at most)
@lru_cache(maxsize=1024)
def _ship_tile(layer: Layer, key: tuple, x: int, y: int) -> Image.Image:
    sprite = _ship_sprite(*key)
    img = _base(*layer).crop((x, y, x + sprite.width, y + sprite.height))
    img.paste(sprite, (0, 0), sprite)
    return _inks(layer).reduce(img)


@lru_cache(maxsize=8)
def _inks(layer: Layer) -> paletted.Inks:
    return paletted.Inks(_palette(*layer))
