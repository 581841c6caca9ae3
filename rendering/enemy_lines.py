"""The Enemy Lines board picture.

Geometry (exposed for tests): columns A..H left to right, rows 1..8 from the bottom;
Blue (seat 0) plays from the bottom edge, Red (seat 1) from the top. ``cell_box(col, row)``
gives the pixel box of a cell (0-based col and row, row 0 = row 1 at the bottom).
Home rows are tinted in their side's colour and carry their mark (4/3/2) in the right
margin; the two neutral rows are plain sea. Ships are hulls with a rounded stern and a
pointed bow (towards the enemy when lying along a column), with their size on deck; the
anchored ship of each player carries an anchor; the last move shows its old squares
outlined and its new squares glowing.
"""

from __future__ import annotations

import math

from PIL import ImageDraw

from rendering import theme

CELL = 64
LEFT = 40  # row numbers
RIGHT = 60  # row marks
HEADER = 96
LABELS = 28  # column letters above and below the board
FOOTER = 96
COLS = 8
ROWS = 8

BOARD_X0 = LEFT
BOARD_Y0 = HEADER + LABELS
SIDE_COLOURS = (theme.BLUE, theme.RED)
SIDE_DARK = (theme.BLUE_DARK, theme.RED_DARK)
SIDE_NAMES = ("Blue", "Red")
TINT = 0.34  # share of the side colour in a home-row square
GLOW = 0.70  # share of the highlight colour in a square the last move went to


def size_px(cols: int = COLS, rows: int = ROWS) -> tuple[int, int]:
    return LEFT + cols * CELL + RIGHT, HEADER + 2 * LABELS + rows * CELL + FOOTER


def cell_box(col: int, row: int, rows: int = ROWS) -> tuple[int, int, int, int]:
    """Pixel box (x0, y0, x1, y1) of a square; x1/y1 exclusive. Row 0 is row 1, at the bottom."""
    x0 = BOARD_X0 + col * CELL
    y0 = BOARD_Y0 + (rows - 1 - row) * CELL
    return x0, y0, x0 + CELL, y0 + CELL


def mix(a, b, t: float) -> tuple[int, int, int]:
    return tuple(round(x + (y - x) * t) for x, y in zip(a, b, strict=True))


def home_tint(seat: int) -> tuple[int, int, int]:
    return mix(theme.SEA, SIDE_COLOURS[seat], TINT)


def _label(c: int, r: int) -> str:
    return f"{chr(65 + c)}{r + 1}"


def _span(cells) -> str:
    if not cells:
        return ""
    return _label(*cells[0]) if len(cells) == 1 else f"{_label(*cells[0])}-{_label(*cells[-1])}"


def _min_font() -> int:
    return theme.min_font(size_px()[0])


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


def _ship_box(cells, rows: int, inset: int = 7):
    boxes = [cell_box(c, r, rows) for c, r in cells]
    x0 = min(b[0] for b in boxes) + inset
    y0 = min(b[1] for b in boxes) + inset
    x1 = max(b[2] for b in boxes) - inset
    y1 = max(b[3] for b in boxes) - inset
    return x0, y0, x1, y1


def _draw_anchor(draw: ImageDraw.ImageDraw, cx: float, cy: float) -> None:
    draw.ellipse((cx - 14, cy - 14, cx + 14, cy + 14), fill=theme.INK, outline=theme.GOLD, width=2)
    g = theme.GOLD
    draw.ellipse((cx - 3, cy - 11, cx + 3, cy - 5), outline=g, width=2)  # ring
    draw.line((cx, cy - 5, cx, cy + 9), fill=g, width=2)  # shank
    draw.line((cx - 6, cy - 2, cx + 6, cy - 2), fill=g, width=2)  # stock
    draw.arc((cx - 9, cy - 3, cx + 9, cy + 10), start=20, end=160, fill=g, width=2)  # arms
    draw.polygon([(cx - 10, cy + 2), (cx - 6, cy + 2), (cx - 9, cy + 6)], fill=g)
    draw.polygon([(cx + 10, cy + 2), (cx + 6, cy + 2), (cx + 9, cy + 6)], fill=g)


def _draw_ship(draw, ship: dict, rows: int) -> None:
    cells = ship["cells"]
    seat = ship["seat"]
    bow = _bow(seat, ship["along"])
    box = _ship_box(cells, rows)
    pts = _hull_points(box, bow)
    # a ship that scores (lying along a row in enemy lines) has a gold rim
    rim = theme.GOLD if ship.get("in_enemy_lines") else SIDE_DARK[seat]
    draw.polygon(pts, fill=SIDE_COLOURS[seat], outline=rim, width=4 if ship.get("in_enemy_lines") else 3)
    # deck line
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    light = mix(SIDE_COLOURS[seat], theme.WHITE, 0.35)
    if bow in "EW":
        draw.line(
            (x0 + 14, cy, x1 - 30, cy) if bow == "E" else (x0 + 30, cy, x1 - 14, cy), fill=light, width=2
        )
    else:
        draw.line(
            (cx, y0 + 30, cx, y1 - 14) if bow == "N" else (cx, y0 + 14, cx, y1 - 30), fill=light, width=2
        )
    # the size on the side's badge (Blue a circle, Red a square): shape, not only colour, tells the sides apart
    theme.seat_badge(draw, cx, cy, seat, 22, colour=SIDE_DARK[seat], label=str(ship["size"]))
    if ship.get("anchored"):
        # anchor on the stern square (the end away from the bow)
        stern = {"E": min, "N": min, "W": max, "S": max}[bow]
        key = (lambda c: c[0]) if bow in "EW" else (lambda c: c[1])
        sc = stern(cells, key=key)
        bx = cell_box(sc[0], sc[1], rows)
        _draw_anchor(draw, (bx[0] + bx[2]) / 2, (bx[1] + bx[3]) / 2)


# ----- header and footer -----------------------------------------------------------------------
def _player_panel(draw, box, seat: int, name: str, score: int, active: bool, winner: bool) -> None:
    x0, y0, x1, y1 = box
    f = _min_font()
    border = theme.HIGHLIGHT if active else (theme.GOLD if winner else theme.RULE)
    fill = mix(theme.PANEL, SIDE_COLOURS[seat], 0.22)
    draw.rounded_rectangle(box, radius=10, fill=fill, outline=border, width=5 if active or winner else 1)
    theme.seat_badge(draw, x0 + 26, y0 + 28, seat, f, label=SIDE_NAMES[seat][0])
    draw.text(
        (x0 + 52, y0 + 12), theme.fit(name, f + 3, x1 - x0 - 60), font=theme.font(f + 3), fill=theme.TEXT
    )
    draw.text((x0 + 12, y0 + 46), f"{score} pts", font=theme.font(f + 3), fill=theme.TEXT)
    tag = "TO MOVE" if active else ("WINNER" if winner else "")
    if tag:
        tw = theme.text_width(tag, f) + 12
        theme.chip(draw, x1 - 10 - tw, y0 + 47, tag, f, theme.HIGHLIGHT if active else theme.GOLD, theme.INK)


def _status(view: dict, names: list[str]) -> tuple[str, str]:
    phase = view["phase"]
    if phase == "over":
        res = view["result"] or {}
        sc = res.get("scores", view["scores"])
        winners = res.get("winners", [])
        if len(winners) == 1:
            head = f"Game over: {names[winners[0]]} wins {sc[str(winners[0])]} to {sc[str(1 - winners[0])]}"
        else:
            head = f"Game over: a draw, {sc['0']} each"
        reason = str(res.get("reason", ""))
        return head, reason[:1].upper() + reason[1:]
    turn = view["turn"]
    who = names[turn]
    if phase == "placement":
        left = len(view["to_place"][str(turn)])
        head = f"Placement: {who} places a ship ({left} left)"
    else:
        # the turn limit's countdown, not a move number: "move n" is the host's count (every move that
        # stands, the placements too) and is shown beside the board
        head = f"{who} to move ({view['turn_limit'] - view['move_number']} turns left)"
        if view.get("final_turn"):
            head = f"Last turn: {who} to move"
    last = view.get("last")
    if not last:
        return head, "Each side places its 4-, 3- and 2-ships on the rows marked 4, 3 and 2."
    side = names[last["seat"]]
    if last["type"] == "pass":
        return head, f"Last: {side} could not move and passed"
    ship = next((s for s in view["ships"] if s["id"] == last["ship"]), None)
    size = ship["size"] if ship else "?"
    if last["type"] == "place":
        return head, f"Last: {side} placed a {size}-ship on {_span(last['to'])}"
    verb = "travelled" if last["type"] == "travel" else "rotated"
    return head, f"Last: {side} {size}-ship {verb} {_span(last['from'])} -> {_span(last['to'])}"


# ----- main ----------------------------------------------------------------------------------------------
def render(view: dict, names: list[str] | None = None) -> bytes:
    view = theme.filled(view, names)  # texts name seats by who(seat): show the names
    cols, rows = view.get("cols", COLS), view.get("rows", ROWS)
    names = [
        theme.display_name(names, i) if names and i < len(names) and names[i] else SIDE_NAMES[i]
        for i in (0, 1)
    ]
    width, height = size_px(cols, rows)
    f = theme.min_font(width)
    img, draw = theme.canvas(width, height, theme.BG)
    info = {ri["row"]: ri for ri in view["row_info"]}
    last = view.get("last") or {}
    to_cells = {tuple(c) for c in last.get("to", [])}
    from_cells = {tuple(c) for c in last.get("from", [])} - to_cells

    # squares
    for r in range(rows):
        side = info[r]["side"]
        base = theme.SEA if side is None else home_tint(side)
        for c in range(cols):
            fill = mix(base, theme.HIGHLIGHT, GLOW) if (c, r) in to_cells else base
            draw.rectangle(cell_box(c, r, rows), fill=fill, outline=theme.GRID)
    bx0, by0 = BOARD_X0, BOARD_Y0
    bx1, by1 = BOARD_X0 + cols * CELL, BOARD_Y0 + rows * CELL
    # lines between home areas and neutral water
    for seat in (0, 1):
        front = [
            ri["row"]
            for ri in view["row_info"]
            if ri["side"] == seat
            and ri["mark"] == min(x["mark"] for x in view["row_info"] if x["side"] == seat)
        ]
        for r in front:
            y: float = cell_box(0, r, rows)[1] if seat == 0 else cell_box(0, r, rows)[3] - 1
            draw.line((bx0, y, bx1, y), fill=SIDE_DARK[seat], width=3)
    draw.rectangle((bx0 - 2, by0 - 2, bx1 + 1, by1 + 1), outline=theme.PANEL_DARK, width=2)

    # coordinates and marks
    for c in range(cols):
        x = (cell_box(c, 0, rows)[0] + cell_box(c, 0, rows)[2]) / 2
        for y in (by0 - LABELS / 2, by1 + LABELS / 2):
            draw.text((x, y), chr(65 + c), font=theme.font(f), fill=theme.TEXT_SOFT, anchor="mm")
    for r in range(rows):
        x0, y0, x1, y1 = cell_box(0, r, rows)
        draw.text(
            (LEFT / 2, (y0 + y1) / 2), str(r + 1), font=theme.font(f), fill=theme.TEXT_SOFT, anchor="mm"
        )
        side, mark = info[r]["side"], info[r]["mark"]
        if side is not None:
            mx = bx1 + RIGHT / 2
            my = (y0 + y1) / 2
            theme.seat_badge(draw, mx, my, side, f + 1, label=str(mark))

    # last move: the squares it left, outlined
    for c, r in sorted(from_cells):
        x0, y0, x1, y1 = cell_box(c, r, rows)
        draw.rectangle((x0 + 4, y0 + 4, x1 - 5, y1 - 5), outline=theme.HIGHLIGHT, width=3)

    for ship in view["ships"]:
        if ship["placed"]:
            _draw_ship(draw, ship, rows)

    # header
    turn = view.get("turn")
    winners = view.get("winners") or []
    half = (width - 30) // 2
    for seat in (0, 1):
        x0 = 10 + seat * (half + 10)
        _player_panel(
            draw,
            (x0, 10, x0 + half, HEADER - 10),
            seat,
            names[seat],
            view["scores"][str(seat)],
            turn == seat and view["phase"] != "over",
            seat in winners and view["phase"] == "over",
        )

    # footer
    head, sub = _status(view, names)
    fy = by1 + LABELS + 8
    draw.text(
        (width / 2, fy + 12),
        theme.fit(head, f + 3, width - 16),
        font=theme.font(f + 3),
        fill=theme.TEXT,
        anchor="mm",
    )
    for k, line in enumerate(theme.wrap(sub, f, width - 16, max_lines=2)):
        draw.text(
            (width / 2, fy + 42 + k * (f + 6)), line, font=theme.font(f), fill=theme.TEXT_SOFT, anchor="mm"
        )
    return theme.to_png(img)
