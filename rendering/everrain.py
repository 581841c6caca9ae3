"""The Everrain, landscape for the chat preview: the hex map on the left, the round, whose turn and the
three tracks in a column beside it; a seat's own (DM) picture adds its ship board in a strip below.

No words: a renderer is not told its reader's language, so the column's lines are drawn symbols with
digits, the ship board's nodes their Fate Die faces and a crew member pips on the seat's badge; the
game's key (``key_text``, in the reader's language) says what each mark means.

What words say better (names, enemy cards, dice, the log, the key) is in the game's ``view_text``,
``alt_text`` and ``key_text`` (bot/games/everrain/text.py): the picture carries no names, a seat is its
badge (the seat's shape and colour with its number) on its ship. Player ships carry that badge, enemy
ships their letter, so no state is told by colour alone.

Speed: the terrain with its coordinates, the column's frame and the ship board's hull and nodes are
drawn once per map/size (module caches keyed by the map's hexes, which come from the scenario data
file, never by a game's state) and pasted; only the pieces, marks and tracks are drawn per view. The
PNG's 256 colours are one palette chosen once a process (``_palette``).
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

from bot.games.everrain.board import distance, map_of_view, ship_board, tag
from rendering import palette, theme
from rendering.theme import (
    DANGER,
    GOLD,
    GREY,
    INK,
    LAND,
    OK,
    SAND,
    SEA,
    SEA_DARK,
    SEA_LIGHT,
    WHITE,
    font,
)

WIDTH = theme.MAX_WIDTH
F = theme.min_font(WIDTH)  # 24: the smallest text, 12 px on a phone
R = 26.5  # hex radius (centre to corner)
W = math.sqrt(3) * R  # hex width
MAP_X, MAP_Y = 26, 30  # top-left of the hexes: room for the row numbers and the column letters
COL_X = 606  # the column of round, turn and tracks, to the right edge
COL_PAD = 8
ROUGH = (36, 74, 112)
RIFT = (120, 70, 150)
ISLAND_TOP = (96, 128, 76)
ENEMY = (40, 34, 38)
ENEMY_EDGE = (200, 50, 44)
RANGE = (176, 84, 88)  # an enemy's Engagement Range: a thin ring, drawn opaque (no alpha pass)
REACH = (236, 92, 80)
PATH = (250, 120, 60)
AGENDA = (150, 96, 196)
KIND_COLOURS = {
    "artillery": (196, 84, 64),
    "navigation": (66, 120, 196),
    "crows_nest": (200, 150, 40),
    "blank": (150, 144, 132),
}
# Where the badges of 2, 3 or 4 ships sharing one hex (a port) sit around its centre.
SHARED = {
    2: [(-15, 0), (15, 0)],
    3: [(-15, -13), (15, -13), (0, 13)],
    4: [(-15, -13), (15, -13), (-15, 13), (15, 13)],
}
STRIP_H = 200  # the ship board strip of a seat's picture
WRECK = (70, 60, 56)
RIFT_RINGS = (210, 180, 230)
LOST = (90, 90, 90)  # an enemy's lost health
TIMBER = (120, 88, 60)  # the ship board's hull


def _centre(h) -> tuple[float, float]:
    q, r = h[0], h[1]
    return (MAP_X + W / 2 + W * (q + r / 2), MAP_Y + R + 1.5 * R * r)


def _corners(cx: float, cy: float, rad: float = R) -> list[tuple[float, float]]:
    return [
        (cx + rad * math.cos(math.radians(60 * i - 30)), cy + rad * math.sin(math.radians(60 * i - 30)))
        for i in range(6)
    ]


def _rot(points, facing: int, cx: float, cy: float) -> list[tuple[float, float]]:
    a = math.radians(60 * facing)
    c, s = math.cos(a), math.sin(a)
    return [(cx + x * c + y * s, cy - x * s + y * c) for x, y in points]


def _hull(draw: ImageDraw.ImageDraw, cx: float, cy: float, facing: int, fill, outline, scale=1.0) -> None:
    pts = [(0.86, 0), (0.4, -0.36), (-0.55, -0.36), (-0.66, 0), (-0.55, 0.36), (0.4, 0.36)]
    pts = [(x * R * scale, y * R * scale) for x, y in pts]
    draw.polygon(_rot(pts, facing, cx, cy), fill=fill, outline=outline, width=2)


def _arrow(draw: ImageDraw.ImageDraw, a, b, fill, width=4) -> None:
    draw.line([a, b], fill=fill, width=width)
    ang = math.atan2(b[1] - a[1], b[0] - a[0])
    for da in (2.6, -2.6):
        draw.line(
            [b, (b[0] + 11 * math.cos(ang + da), b[1] + 11 * math.sin(ang + da))], fill=fill, width=width
        )


def map_size(hexes: tuple) -> tuple[int, int]:
    """The picture's size for a map: the map beside the column (a seat's picture adds STRIP_H)."""
    rows = max(r for _, r, _ in hexes) + 1
    return WIDTH, int(MAP_Y + R * (1.5 * (rows - 1) + 2) + 8)


# ------------------------------------------------------------------ static layers
@lru_cache(maxsize=8)
def _terrain_layer(hexes: tuple) -> Image.Image:
    """Sea, terrain, ports, spawns, the Rift and the coordinates of one scenario map, with the column's
    background: everything that never changes during a game (the map comes from the scenario data)."""
    size = map_size(hexes)
    img = Image.new("RGB", size, SEA)
    draw = ImageDraw.Draw(img)
    for q, r, t in hexes:
        cx, cy = _centre((q, r))
        fill = {"~": ROUGH, "#": LAND, "P": SAND, "X": RIFT}.get(t, SEA_LIGHT)
        draw.polygon(_corners(cx, cy), fill=fill, outline=SEA_DARK)
        if t == "~":
            for dy in (-7, 6):
                draw.arc([cx - 13, cy + dy - 5, cx - 1, cy + dy + 5], 200, 340, fill=SEA_LIGHT, width=2)
                draw.arc([cx - 1, cy + dy - 5, cx + 11, cy + dy + 5], 200, 340, fill=SEA_LIGHT, width=2)
        elif t == "#":
            draw.polygon(_corners(cx, cy, R * 0.62), fill=ISLAND_TOP)
        elif t == "P":  # an anchor
            draw.ellipse([cx - 4, cy - 15, cx + 4, cy - 7], outline=INK, width=2)
            draw.line([cx, cy - 7, cx, cy + 10], fill=INK, width=2)
            draw.arc([cx - 11, cy - 4, cx + 11, cy + 13], 20, 160, fill=INK, width=2)
            draw.line([cx - 7, cy - 3, cx + 7, cy - 3], fill=INK, width=2)
        elif t == "S":  # a spawn: a red ring with a dot, small enough to leave room for a ship
            draw.ellipse([cx - 9, cy - 9, cx + 9, cy + 9], outline=DANGER, width=2)
            draw.ellipse([cx - 3, cy - 3, cx + 3, cy + 3], fill=DANGER)
        elif t == "X":
            for rr in (6, 12, 18):
                draw.arc(
                    [cx - rr, cy - rr, cx + rr, cy + rr],
                    30 * rr,
                    30 * rr + 250,
                    fill=RIFT_RINGS,
                    width=2,
                )
    cols = max(q + r // 2 for q, r, _ in hexes) + 1
    rows = max(r for _, r, _ in hexes) + 1
    for c in range(cols):
        draw.text(
            (MAP_X + W / 2 + W * c, MAP_Y - 15),
            chr(ord("A") + c),
            font=font(F),
            fill=theme.TEXT_SOFT,
            anchor="mm",
        )
    for r in range(rows):
        draw.text(
            (MAP_X - 13, MAP_Y + R + 1.5 * R * r), str(r + 1), font=font(F), fill=theme.TEXT_SOFT, anchor="mm"
        )
    draw.rectangle([COL_X, 0, WIDTH, size[1]], fill=theme.PANEL)
    return img


# The ship board's ten nodes (Fate Die faces 0..9), stern on the left, bow on the right: x as a share
# of the hull's length, row 0 top (port side), 1 the keel line, 2 bottom (starboard). Neighbours in
# different rows sit at different x, so the strip stays short.
NODE_AT = [
    (0.95, 1),
    (0.8, 1),
    (0.56, 0),
    (0.67, 1),
    (0.42, 1),
    (0.56, 2),
    (0.29, 0),
    (0.16, 1),
    (0.29, 2),
    (0.03, 1),
]
NODE_R = 29
HULL_X0, HULL_X1 = 58, WIDTH - 10


def _node_centre(i: int, y0: float) -> tuple[float, float]:
    fx, row = NODE_AT[i]
    x0, x1 = HULL_X0 + NODE_R + 6, HULL_X1 - NODE_R - 40
    top, bottom = y0 + 30 + NODE_R, y0 + STRIP_H - 18 - NODE_R
    return x0 + fx * (x1 - x0), top + row * (bottom - top) / 2


@lru_cache(maxsize=4)
def _ship_layer(kinds: tuple) -> Image.Image:
    """The ship board strip with every node intact, numbered by its Fate Die face and coloured by its
    kind (the nodes come from the ship board data file)."""
    img = Image.new("RGB", (WIDTH, STRIP_H), theme.BG)
    draw = ImageDraw.Draw(img)
    draw.rectangle([0, 0, WIDTH, 3], fill=GOLD)
    top, bottom = 14, STRIP_H - 6
    mid = (top + bottom) / 2
    hull = [
        (HULL_X0, top + 16),
        (HULL_X1 - 120, top),
        (HULL_X1, mid),
        (HULL_X1 - 120, bottom),
        (HULL_X0, bottom - 16),
    ]
    draw.polygon(hull, fill=TIMBER, outline=theme.TEXT_SOFT, width=2)
    for i, kind in enumerate(kinds):
        cx, cy = _node_centre(i, 0)
        draw.ellipse(
            [cx - NODE_R, cy - NODE_R, cx + NODE_R, cy + NODE_R],
            fill=KIND_COLOURS.get(kind, GREY),
            outline=INK,
            width=2,
        )
        # a node goes by its Fate Die face, not its name: the picture carries no words (the key says
        # which face is which node, in the reader's language)
        draw.text((cx, cy), str(i), font=font(F), fill=WHITE, anchor="mm", stroke_width=2, stroke_fill=INK)
    return img


# ------------------------------------------------------------------ pieces
def _draw_marks(draw: ImageDraw.ImageDraw, view: dict, terrain: dict) -> None:
    """Clue sites, enemy reach and range, and what the last move and the last enemy activation did."""
    for q, r, n in view["sites"]:
        if not n:
            continue
        cx, cy = _centre((q, r))
        draw.ellipse([cx - 11, cy - 11, cx + 11, cy + 11], fill=GOLD, outline=INK, width=1)
        draw.text((cx, cy), "?", font=font(F), fill=INK, anchor="mm")
        if n > 1:
            draw.text(
                (cx + 17, cy - 14),
                str(n),
                font=font(F),
                fill=GOLD,
                anchor="mm",
                stroke_width=2,
                stroke_fill=SEA_DARK,
            )
    for e in view["enemies"]:
        here = (e["q"], e["r"])
        for h in terrain:
            if distance(h, here) == e["engagement"]:
                draw.polygon(_corners(*_centre(h), R * 0.9), outline=RANGE, width=1)
        for h in e["reach"]:
            if tuple(h) in terrain:
                cx, cy = _centre(h)
                draw.ellipse([cx - 4, cy - 4, cx + 4, cy + 4], fill=REACH)
    la = view.get("last_activation")
    if la:
        for h in la["hexes_hit"]:
            if tuple(h) in terrain:
                draw.polygon(_corners(*_centre(h), R * 0.94), outline=DANGER, width=3)
        if len(la["path"]) > 1:
            pts = [_centre(h) for h in la["path"]]
            draw.line(pts, fill=PATH, width=4, joint="curve")
            _arrow(draw, pts[-2], pts[-1], PATH)
            sx, sy = pts[0]
            draw.ellipse([sx - 5, sy - 5, sx + 5, sy + 5], fill=PATH)
    last = view.get("last")
    if last and last.get("type") in ("fire", "nav") and last.get("from") and last["from"] != last.get("to"):
        draw.line([_centre(last["from"]), _centre(last["to"])], fill=theme.HIGHLIGHT, width=3)


def _draw_ships(draw: ImageDraw.ImageDraw, view: dict) -> None:
    for e in view["enemies"]:
        cx, cy = _centre((e["q"], e["r"]))
        if view["phase"] == "enemy" and not e["activated"]:
            draw.ellipse([cx - R * 0.85, cy - R * 0.85, cx + R * 0.85, cy + R * 0.85], outline=GOLD, width=2)
        _hull(draw, cx, cy, e["facing"], ENEMY, ENEMY_EDGE)
        draw.text((cx, cy - 2), e["tag"], font=font(F), fill=WHITE, anchor="mm")
        n, pw = e["max_health"], 6
        x0 = cx - n * (pw + 1) / 2
        for k in range(n):
            colour = DANGER if k < e["health"] else LOST
            draw.rectangle(
                [x0 + k * (pw + 1), cy + 15, x0 + k * (pw + 1) + pw, cy + 21], fill=colour, outline=INK
            )
    acting = view.get("current")
    for s in view["ships"]:
        cx, cy = _centre((s["q"], s["r"]))
        here = [o["seat"] for o in view["ships"] if (o["q"], o["r"]) == (s["q"], s["r"])]
        if len(here) > 1:
            # ships sharing a port: their badges side by side (no hulls, facing does not matter there)
            dx, dy = SHARED[min(len(here), 4)][here.index(s["seat"]) % 4]
            cx, cy = cx + dx, cy + dy
            if s["seat"] == acting:
                draw.ellipse([cx - 24, cy - 24, cx + 24, cy + 24], outline=GOLD, width=3)
            theme.seat_badge(draw, cx, cy, s["seat"], F)
            continue
        if s["seat"] == acting:
            draw.ellipse([cx - R * 0.95, cy - R * 0.95, cx + R * 0.95, cy + R * 0.95], outline=GOLD, width=3)
        # the hull shows the facing: its bow reaches out beyond the badge
        _hull(draw, cx, cy, s["facing"], theme.seat_colour(s["seat"]), WHITE, scale=1.35)
        bx, by = _rot([(-4.0, 0.0)], s["facing"], cx, cy)[0]
        theme.seat_badge(draw, bx, by, s["seat"], F)
        if s["clues"]:
            draw.text(
                (cx + 16, cy + 17),
                f"?{s['clues']}",
                font=font(F),
                fill=GOLD,
                anchor="mm",
                stroke_width=2,
                stroke_fill=INK,
            )


# ------------------------------------------------------------------ column
# The column carries no words (the reader's language is not known here; the text beside the picture
# says round, turn and tracks in it): each line is a drawn symbol, explained in the key, and digits.
SYMBOL = 15  # a symbol's half-size


def _hourglass(draw: ImageDraw.ImageDraw, cx: float, cy: float) -> None:
    """The round."""
    s = SYMBOL
    draw.polygon([(cx - s * 0.8, cy - s), (cx + s * 0.8, cy - s), (cx, cy)], fill=GOLD, outline=INK)
    draw.polygon([(cx, cy), (cx - s * 0.8, cy + s), (cx + s * 0.8, cy + s)], fill=GOLD, outline=INK)
    draw.line([cx - s, cy - s, cx + s, cy - s], fill=WHITE, width=2)
    draw.line([cx - s, cy + s, cx + s, cy + s], fill=WHITE, width=2)


def _eye(draw: ImageDraw.ImageDraw, cx: float, cy: float) -> None:
    """The Agenda: the enemy's design watching."""
    s = SYMBOL
    draw.chord([cx - s, cy - s * 1.2, cx + s, cy + s * 0.5], 20, 160, fill=AGENDA, outline=WHITE, width=2)
    draw.chord([cx - s, cy - s * 0.5, cx + s, cy + s * 1.2], 200, 340, fill=AGENDA, outline=WHITE, width=2)
    draw.ellipse([cx - 4, cy - 4, cx + 4, cy + 4], fill=INK)


def _lens(draw: ImageDraw.ImageDraw, cx: float, cy: float) -> None:
    """Discovery: a magnifying glass."""
    s = SYMBOL
    draw.line([cx + 2, cy + 2, cx + s, cy + s], fill=GOLD, width=5)
    draw.ellipse([cx - s, cy - s, cx + 4, cy + 4], fill=theme.PANEL_DARK, outline=GOLD, width=4)


def _enemy_mark(draw: ImageDraw.ImageDraw, cx: float, cy: float) -> None:
    """Enemy Discovery (and the enemy phase): an enemy hull, as on the map."""
    _hull(draw, cx, cy, 0, ENEMY, ENEMY_EDGE, scale=0.8)


def _tick(draw: ImageDraw.ImageDraw, cx: float, cy: float) -> None:
    """The crews won."""
    draw.line([(cx - 12, cy), (cx - 4, cy + 9), (cx + 13, cy - 10)], fill=OK, width=6, joint="curve")


def _cross(draw: ImageDraw.ImageDraw, cx: float, cy: float) -> None:
    """The crews lost."""
    draw.line([cx - 11, cy - 11, cx + 11, cy + 11], fill=DANGER, width=6)
    draw.line([cx - 11, cy + 11, cx + 11, cy - 11], fill=DANGER, width=6)


def _track(draw: ImageDraw.ImageDraw, y: float, symbol, value: int, end: int, colour, marker=False) -> float:
    """A track: its symbol and value, then one box per step (filled up to the value, or for the Agenda a
    marker on the current step)."""
    x0, x1 = COL_X + COL_PAD, WIDTH - COL_PAD
    symbol(draw, x0 + SYMBOL + 2, y + F / 2 + 2)
    draw.text((x1, y), f"{value}/{end}", font=font(F), fill=theme.TEXT, anchor="ra")
    y += F + 8
    cw = (x1 - x0 + 2) / max(end, 1)
    for i in range(end):
        bx = x0 + i * cw
        filled = i < value and not marker
        draw.rectangle([bx, y, bx + cw - 2, y + 20], fill=colour if filled else theme.PANEL_LIGHT)
        if marker and i == value:
            draw.ellipse([bx - 3, y - 3, bx + cw + 1, y + 23], fill=colour, outline=WHITE, width=2)
    return y + 38


def _draw_column(draw: ImageDraw.ImageDraw, view: dict, height: int) -> None:
    x = COL_X + COL_PAD
    y = 8.0
    res = view.get("result")
    _hourglass(draw, x + SYMBOL + 2, y + F / 2 + 2)
    draw.text((x + 2 * SYMBOL + 12, y), str(view["round"]), font=font(F), fill=GOLD)
    y += F + 30
    cx, cy = x + F * 0.85 + 4, y + F / 2
    if res:
        (_tick if res.get("winners") else _cross)(draw, cx, cy)
    elif view["phase"] == "enemy":
        draw.ellipse([cx - F, cy - F, cx + F, cy + F], outline=GOLD, width=3)
        _enemy_mark(draw, cx, cy)
    elif view.get("current") is not None:
        # the gold ring of the ship to act on the map, round its badge
        draw.ellipse([cx - F, cy - F, cx + F, cy + F], outline=GOLD, width=3)
        theme.seat_badge(draw, cx, cy, view["current"], F)
    y += F + 22
    tr = view["tracks"]
    y = _track(draw, y, _eye, tr["agenda"], tr["agenda_length"], AGENDA, marker=True)
    y = _track(draw, y, _lens, tr["discovery"], tr["discovery_end"], GOLD)
    _track(draw, y, _enemy_mark, tr["enemy_discovery"], tr["enemy_discovery_end"], DANGER)


# ------------------------------------------------------------------ ship board
def _draw_ship_board(img: Image.Image, view: dict, y0: int) -> None:
    s = view["my_ship"]
    kinds = tuple(n["kind"] for n in view["board"])
    img.paste(_ship_layer(kinds), (0, y0))
    draw = ImageDraw.Draw(img)
    theme.seat_badge(draw, 28, y0 + (STRIP_H + 8) / 2, s["seat"], F)
    for i, dead in enumerate(s["destroyed"]):
        if dead:
            cx, cy = _node_centre(i, y0)
            draw.ellipse(
                [cx - NODE_R, cy - NODE_R, cx + NODE_R, cy + NODE_R], fill=WRECK, outline=INK, width=2
            )
            draw.line([cx - 18, cy - 18, cx + 18, cy + 18], fill=DANGER, width=4)
            draw.line([cx - 18, cy + 18, cx + 18, cy - 18], fill=DANGER, width=4)
            # still numbered: which node is lost matters for repairs
            draw.text(
                (cx, cy),
                str(i),
                font=font(F),
                fill=theme.TEXT_SOFT,
                anchor="mm",
                stroke_width=2,
                stroke_fill=INK,
            )
    for k, node in enumerate(s["crew"]):
        cx, cy = _node_centre(node, y0)
        _crew_badge(draw, cx + 30, cy - 29, s["seat"], k)


def _crew_badge(draw: ImageDraw.ImageDraw, cx: float, cy: float, seat: int, member: int) -> None:
    """A crew member: the seat's badge with pips instead of its number, one for the first member (the
    Mate), two for the second, three for the third (no initial: a name's letter is a language's)."""
    theme.seat_badge(draw, cx, cy, seat, F, label="")
    n = member + 1
    for p in range(n):
        px = cx + (p - (n - 1) / 2) * 10
        draw.ellipse([px - 4, cy - 4, px + 4, cy + 4], fill=WHITE, outline=INK)


def render(view: dict, names: list[str] | None = None) -> bytes:
    """The picture of ``view``; ``names`` is not drawn (seats are their badges; the text beside says
    whose is whose), it is taken for the renderers' common signature."""
    hexes = tuple(tuple(x) for x in view["map"]["hexes"])
    width, height = map_size(hexes)
    mine = bool(view.get("my_ship"))
    img = Image.new("RGB", (width, height + (STRIP_H if mine else 0)), theme.BG)
    img.paste(_terrain_layer(hexes), (0, 0))
    draw = ImageDraw.Draw(img)
    terrain = map_of_view(view).terrain
    _draw_marks(draw, view, terrain)
    _draw_ships(draw, view)
    _draw_column(draw, view, height)
    if mine:
        _draw_ship_board(img, view, height)
    return theme.to_png(img, _palette())


# ------------------------------------------------------------------ the palette
def _flat_colours() -> list[tuple[int, int, int]]:
    """Every colour the pictures fill with: these stay exact."""
    out = [SEA, SEA_LIGHT, SEA_DARK, ROUGH, LAND, SAND, RIFT, RIFT_RINGS, ISLAND_TOP, INK, DANGER, GOLD, OK]
    out += [theme.BG, theme.PANEL, theme.PANEL_LIGHT, theme.PANEL_DARK, theme.TEXT, theme.TEXT_SOFT, WHITE]
    out += [ENEMY, ENEMY_EDGE, LOST, RANGE, REACH, PATH, AGENDA, theme.HIGHLIGHT, GREY, WRECK, TIMBER]
    return out + list(KIND_COLOURS.values()) + theme.SEAT_COLOURS


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    """One palette for every Everrain picture: the flat colours, then the soft edges of the text on a
    sheet of what pictures are made of: a map with every terrain and its coordinates, every seat's
    ship and crew badges, enemy ships and clue sites on it, the column in each state and the ship board."""
    terrains = ".~#PS?X"
    hexes = tuple((c - r // 2, r, terrains[(c + r) % len(terrains)]) for r in range(4) for c in range(9))
    width, height = map_size(hexes)
    sea = _terrain_layer.__wrapped__(hexes)  # drawn here, not kept among the scenarios' layers
    draw = ImageDraw.Draw(sea)
    crew = ship_board()["crew"]
    for seat, colour in enumerate(theme.SEAT_COLOURS):
        cx, cy = _centre((seat - 1, 2))
        _hull(draw, cx, cy, seat, colour, WHITE, scale=1.35)
        theme.seat_badge(draw, cx, cy, seat, F)
        _crew_badge(draw, cx + 14, cy - 40, seat, seat % len(crew))
    for k in range(6):
        cx, cy = _centre((k, 0))
        _hull(draw, cx, cy, k, ENEMY, ENEMY_EDGE)
        draw.text((cx, cy - 2), tag(k + 1), font=font(F), fill=WHITE, anchor="mm")
        cx, cy = _centre((k - 2, 3))
        draw.ellipse([cx - 11, cy - 11, cx + 11, cy + 11], fill=GOLD, outline=INK, width=1)
        draw.text((cx, cy), "?", font=font(F), fill=INK, anchor="mm")
    for q, r, _ in hexes:  # the counts over every terrain
        cx, cy = _centre((q, r))
        draw.text((cx + 17, cy - 14), "2", font=font(F), fill=GOLD, stroke_width=2, stroke_fill=SEA_DARK)
        draw.text((cx + 16, cy + 17), "?3", font=font(F), fill=GOLD, stroke_width=2, stroke_fill=INK)
    tags, draw = theme.canvas(26 * F, 2 * F, ENEMY_EDGE)  # a tall letter reaches its hull's edge
    draw.rectangle([0, F, 26 * F, 2 * F], fill=ENEMY)
    for k in range(26):
        draw.text((k * F, F - F // 3), tag(k + 1), font=font(F), fill=WHITE)
    tracks = {"agenda": 3, "agenda_length": 12, "discovery": 2, "discovery_end": 6}
    tracks |= {"enemy_discovery": 4, "enemy_discovery_end": 6}
    columns = []
    states: tuple[dict, ...] = (
        {"current": 1},
        {"phase": "enemy"},
        {"result": {"winners": [0]}},
        {"result": {"winners": []}},
    )
    for state in states:
        column, draw = theme.canvas(width, height, theme.PANEL)
        _draw_column(draw, {"round": 12, "phase": "crew", "tracks": tracks} | state, height)
        columns.append(column.crop((COL_X, 0, width, height)))
    board = ship_board()
    ship, _ = theme.canvas(WIDTH, STRIP_H)
    _draw_ship_board(
        ship,
        {
            "my_ship": {"seat": 0, "destroyed": [k % 3 == 0 for k in range(10)], "crew": board["crew_start"]},
            "board": board["node"],
        },
        0,
    )
    return palette.fixed(_flat_colours(), palette.sheet([sea, tags, *columns, ship], theme.BG))
