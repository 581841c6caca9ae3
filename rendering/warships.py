"""Warships board image from a view (channel: view(None); DM: view(seat)), laid out for a chat column:
the status on top, the board across the full width, then the last move, exits, losses and a key below.
Blue's units are circles and Red's are squares, so the sides differ in shape as well as colour."""

from __future__ import annotations

from PIL import Image, ImageDraw

from bot.games.warships.board import board
from bot.games.words import counted
from rendering import theme
from rendering.theme import (
    BLUE,
    BLUE_DARK,
    DANGER,
    GOLD,
    HIGHLIGHT,
    INK,
    LAND,
    RED,
    RED_DARK,
    SAND,
    SEA_DARK,
    SEA_LIGHT,
    WHITE,
    canvas,
    centered_text,
    font,
    to_png,
)

WIDTH = theme.MAX_WIDTH
F = theme.min_font(WIDTH)  # 24: the smallest text
CELL = 60
MARGIN = 40
HEAD = 112  # title and status above the board
TOP = HEAD + 30  # the board's top edge, under the column letters
FILL = [BLUE, RED]
DARK = [BLUE_DARK, RED_DARK]
COLOURS = ["Blue", "Red"]
PORT_LIGHT = (226, 210, 164)
PORT_DARK = (186, 166, 118)
NEUTRAL = (58, 110, 150)
LINE = (60, 52, 44)


def _xy(b, name: str) -> tuple[int, int]:
    c, r = b.xy(b.index[name])
    return MARGIN + c * CELL, TOP + r * CELL


def _centre(b, name: str) -> tuple[int, int]:
    x, y = _xy(b, name)
    return x + CELL // 2, y + CELL // 2


def _draw_board(d: ImageDraw.ImageDraw, b, view: dict) -> None:
    im_on = view.get("options", {}).get("initial-manoeuvres")
    light = {q for s in b.light for q in b.light[s]}
    for i in range(b.n):
        c, r = b.xy(i)
        x, y = MARGIN + c * CELL, TOP + r * CELL
        box = (x, y, x + CELL, y + CELL)
        if b.port_of[i] >= 0:
            col = PORT_LIGHT if i in light else PORT_DARK
        elif i in b.neutral:
            col = NEUTRAL
        else:
            col = SEA_LIGHT if (c + r) % 2 == 0 else (38, 82, 122)
        d.rectangle(box, fill=col, outline=SEA_DARK if b.port_of[i] < 0 else PORT_DARK)
        if i in b.neutral:
            for dx in range(6, CELL, 12):
                for dy in range(6, CELL, 12):
                    d.point((x + dx, y + dy), fill=(170, 200, 225))
        if i in b.islands:
            d.ellipse((x + 10, y + 14, x + CELL - 10, y + CELL - 14), fill=LAND, outline=(70, 100, 60))
            d.ellipse((x + 20, y + 20, x + 32, y + 30), fill=SAND)
    # initial manoeuvres areas: dashed outline (tinted when the option is on)
    for seat, sqs in b.manoeuvres.items():
        if not sqs:
            continue
        xs = [b.xy(q)[0] for q in sqs]
        ys = [b.xy(q)[1] for q in sqs]
        x0, y0 = MARGIN + min(xs) * CELL + 2, TOP + min(ys) * CELL + 2
        x1, y1 = MARGIN + (max(xs) + 1) * CELL - 2, TOP + (max(ys) + 1) * CELL - 2
        colour = FILL[seat] if im_on else (120, 150, 180)
        step = 14
        for x in range(x0, x1, step * 2):
            d.line((x, y0, min(x + step, x1), y0), fill=colour, width=2)
            d.line((x, y1, min(x + step, x1), y1), fill=colour, width=2)
        for y in range(y0, y1, step * 2):
            d.line((x0, y, x0, min(y + step, y1)), fill=colour, width=2)
            d.line((x1, y, x1, min(y + step, y1)), fill=colour, width=2)
    # fortification lines: thick edges between port and sea, open at the entrances
    for i in range(b.n):
        if b.port_of[i] < 0:
            continue
        c, r = b.xy(i)
        for dc, dr in ((0, -1), (0, 1), (-1, 0), (1, 0)):
            j = b.at(c + dc, r + dr)
            if j is None or b.port_of[j] == b.port_of[i]:
                continue
            if b.entrance_step(i, j) is not None:
                continue
            x, y = MARGIN + c * CELL, TOP + r * CELL
            if dr == -1:
                d.line((x - 1, y, x + CELL + 1, y), fill=LINE, width=5)
            elif dr == 1:
                d.line((x - 1, y + CELL, x + CELL + 1, y + CELL), fill=LINE, width=5)
    # entrance walls, perpendicular to the shore, and battery squares
    bats = {}
    for e in view.get("batteries", []):
        for sq, alive in e["batteries"].items():
            bats[sq] = alive
    for _seat, ents in b.entrances.items():
        for e in ents:
            f = b.entrance_front[e]
            (ec, er), (_fc, fr) = b.xy(e), b.xy(f)
            x = MARGIN + ec * CELL
            ya, yb = TOP + min(er, fr) * CELL + CELL // 2, TOP + max(er, fr) * CELL + CELL // 2
            d.line((x, ya, x, yb), fill=LINE, width=5)
            d.line((x + CELL, ya, x + CELL, yb), fill=LINE, width=5)
    for sq, alive in bats.items():
        x, y = _xy(b, sq)
        d.rectangle((x + 2, y + 2, x + CELL - 2, y + CELL - 2), outline=LINE, width=2)
        if not alive:
            d.line((x + 8, y + 8, x + CELL - 8, y + CELL - 8), fill=DANGER, width=4)
            d.line((x + 8, y + CELL - 8, x + CELL - 8, y + 8), fill=DANGER, width=4)
    # coordinates
    for c in range(b.cols):
        centered_text(
            d,
            (MARGIN + c * CELL, TOP - 30, MARGIN + (c + 1) * CELL, TOP - 2),
            chr(65 + c),
            F,
            theme.TEXT_SOFT,
        )
        centered_text(
            d,
            (MARGIN + c * CELL, TOP + b.rows * CELL + 2, MARGIN + (c + 1) * CELL, TOP + b.rows * CELL + 30),
            chr(65 + c),
            F,
            theme.TEXT_SOFT,
        )
    for r in range(b.rows):
        centered_text(
            d, (0, TOP + r * CELL, MARGIN - 2, TOP + (r + 1) * CELL), str(r + 1), F, theme.TEXT_SOFT
        )
        centered_text(
            d,
            (WIDTH - MARGIN + 2, TOP + r * CELL, WIDTH, TOP + (r + 1) * CELL),
            str(r + 1),
            F,
            theme.TEXT_SOFT,
        )


def _draw_last(d: ImageDraw.ImageDraw, b, last: dict | None) -> None:
    if not last:
        return
    for sq in last.get("mines", []):
        x, y = _xy(b, sq)
        d.rectangle((x + 1, y + 1, x + CELL - 1, y + CELL - 1), outline=GOLD, width=2)
    if "from" not in last:
        return
    pts = [last["from"]] + [last[k] for k in ("via", "to") if last.get(k)]
    x, y = _xy(b, last["from"])
    d.rectangle((x + 1, y + 1, x + CELL - 1, y + CELL - 1), outline=HIGHLIGHT, width=4)
    if len(pts) > 1:
        d.line([_centre(b, p) for p in pts], fill=HIGHLIGHT, width=5)
        x, y = _xy(b, pts[-1])
        d.rectangle((x + 1, y + 1, x + CELL - 1, y + CELL - 1), outline=HIGHLIGHT, width=4)
    if last.get("target"):
        src = _centre(b, pts[-1])
        dst = _centre(b, last["target"])
        d.line((src, dst), fill=DANGER, width=3)
        x, y = _xy(b, last["target"])
        d.rectangle((x, y, x + CELL, y + CELL), outline=DANGER, width=5)


def _burst(d: ImageDraw.ImageDraw, cx: int, cy: int, r: int, fill) -> None:
    import math

    pts = []
    for k in range(16):
        rad = r if k % 2 == 0 else r * 0.5
        a = math.pi * k / 8
        pts.append((cx + rad * math.cos(a), cy + rad * math.sin(a)))
    d.polygon(pts, fill=fill, outline=INK)


def _unit_shape(d: ImageDraw.ImageDraw, box, owner: int, fill, outline, width: int) -> None:
    """Blue: a circle; Red: a rounded square (the seat badge shapes of the theme)."""
    if owner == 0:
        d.ellipse(box, fill=fill, outline=outline, width=width)
    else:
        d.rounded_rectangle(box, radius=9, fill=fill, outline=outline, width=width)


def _draw_units(d: ImageDraw.ImageDraw, b, view: dict) -> None:
    last = view.get("last") or {}
    for u in view.get("units", []):
        x, y = _xy(b, u["sq"])
        o = u["owner"]
        t = u.get("type")
        if t == "battery":
            pts = [
                (x + 5, y + CELL - 5),
                (x + 5, y + 16),
                (x + 16, y + 5),
                (x + CELL - 16, y + 5),
                (x + CELL - 5, y + 16),
                (x + CELL - 5, y + CELL - 5),
            ]
            d.polygon(pts, fill=FILL[o], outline=DARK[o])
            centered_text(d, (x, y + 4, x + CELL, y + CELL), "BT", F, WHITE)
            continue
        box = (x + 4, y + 4, x + CELL - 4, y + CELL - 4)
        if t == "mine":
            cx, cy = x + CELL // 2, y + CELL // 2
            for dx, dy in ((0, -1), (0, 1), (-1, 0), (1, 0)):
                d.line((cx + dx * 20, cy + dy * 20, cx + dx * 28, cy + dy * 28), fill=INK, width=5)
            _unit_shape(d, (x + 8, y + 8, x + CELL - 8, y + CELL - 8), o, (60, 60, 60), FILL[o], 4)
            centered_text(d, (x, y, x + CELL, y + CELL), "MN", F, WHITE)
        else:
            _unit_shape(d, box, o, FILL[o], GOLD if u.get("revealed") else DARK[o], 4)
            if t:
                centered_text(d, (x, y, x + CELL, y + CELL), b.abbr(t), F, WHITE)
            else:
                d.ellipse((x + 22, y + 22, x + CELL - 22, y + CELL - 22), fill=DARK[o])
        if u.get("nw"):
            limit = view.get("neutral_turns", 3)
            d.rectangle((x + CELL - 24, y, x + CELL, y + 28), fill=WHITE, outline=INK)
            centered_text(
                d, (x + CELL - 24, y, x + CELL, y + 28), str(u["nw"]), F, DANGER if u["nw"] >= limit else INK
            )
    clash = last.get("clash")
    if clash and last.get("target"):
        cx, cy = _centre(b, last["target"])
        _burst(d, cx + CELL // 2 - 8, cy - CELL // 2 + 8, 12, HIGHLIGHT)
    for sq in (clash or {}).get("removed", []) + last.get("neutral_removed", []):
        x, y = _xy(b, sq)
        d.line((x + 10, y + 10, x + CELL - 10, y + CELL - 10), fill=DANGER, width=5)
        d.line((x + 10, y + CELL - 10, x + CELL - 10, y + 10), fill=DANGER, width=5)


PAD = 12
FH = F + 4  # headings


def _header(d: ImageDraw.ImageDraw, view: dict, names: list[str] | None) -> None:
    seat = view.get("seat")
    d.text((PAD, 8), "WARSHIPS", font=font(F + 10), fill=GOLD)
    who = "channel view" if seat is None else f"{_name(names, seat)}'s own view ({COLOURS[seat]})"
    d.text((WIDTH - PAD, 14), theme.fit(who, F, WIDTH - 230), font=font(F), fill=theme.TEXT_SOFT, anchor="ra")
    y0, y1 = 54, HEAD - 8
    phase = view.get("phase")
    if phase == "over":
        w = view.get("winners") or []
        msg = f"{_name(names, w[0])} ({COLOURS[w[0]]}) wins!" if w else "Draw"
        if view.get("end"):
            msg += f" {view['end']}"
        d.rounded_rectangle((PAD, y0, WIDTH - PAD, y1), radius=8, fill=GOLD)
        d.text(
            (PAD + 12, (y0 + y1) / 2),
            theme.fit(msg, FH, WIDTH - 3 * PAD),
            font=font(FH),
            fill=INK,
            anchor="lm",
        )
    elif phase == "setup":
        sub = view.get("submitted", [False, False])
        d.rounded_rectangle((PAD, y0, WIDTH - PAD, y1), radius=8, fill=theme.PANEL_LIGHT)
        x: float = PAD + 12
        d.text((x, (y0 + y1) / 2), "Secret setup:", font=font(FH), fill=theme.TEXT, anchor="lm")
        x += theme.text_width("Secret setup:", FH) + 16
        for p in (0, 1):
            theme.seat_badge(d, x + 20, (y0 + y1) / 2, p, F, label=COLOURS[p][0])
            txt = f"{_name(names, p, 10)} {'ready' if sub[p] else 'arranging'}"
            d.text((x + 46, (y0 + y1) / 2), txt, font=font(F), fill=theme.TEXT, anchor="lm")
            x += 46 + theme.text_width(txt, F) + 20
    else:
        t = view["turn"]
        d.rounded_rectangle((PAD, y0, WIDTH - PAD, y1), radius=8, fill=DARK[t], outline=HIGHLIGHT, width=3)
        theme.seat_badge(d, PAD + 30, (y0 + y1) / 2, t, F, label=COLOURS[t][0])
        # the move limit's countdown (a draw at 0), not a move number: "move n" is the host's count
        mv = f"{view.get('move_limit', 0) - view.get('ply', 0)} moves to a draw"
        d.text((WIDTH - PAD - 12, (y0 + y1) / 2), mv, font=font(F), fill=WHITE, anchor="rm")
        msg = theme.fit(
            f"{_name(names, t)} ({COLOURS[t]}) to move", FH, WIDTH - 2 * PAD - 90 - theme.text_width(mv, F)
        )
        d.text((PAD + 56, (y0 + y1) / 2), msg, font=font(FH), fill=WHITE, anchor="lm")


def _panel(d: ImageDraw.ImageDraw, b, view: dict, names: list[str] | None, y0: int) -> int:
    """The text under the board, in two columns, and the key; returns the bottom."""
    col_w = (WIDTH - 3 * PAD) // 2
    line_h = F + 8
    # left column: last move, exits
    x, y = PAD, y0
    last = view.get("last")
    if last and last.get("seat") is not None:
        d.text((x, y), "Last move", font=font(FH), fill=GOLD)
        y += FH + 8
        for line in _last_text(last, names):
            for part in theme.wrap(line, F, col_w, max_lines=2):
                d.text((x, y), part, font=font(F), fill=theme.TEXT)
                y += line_h
        y += 8
    d.text((x, y), "Exits", font=font(FH), fill=GOLD)
    y += FH + 8
    for e in view.get("batteries", []):
        left = sum(1 for v in e["batteries"].values() if v)
        state = "OPEN" if e["open"] else f"{left}/2 batteries"
        theme.seat_badge(d, x + 21, y + F / 2 + 2, e["seat"], F, label=COLOURS[e["seat"]][0])
        d.text(
            (x + 48, y), f"{e['entrance']}: {state}", font=font(F), fill=DANGER if e["open"] else theme.TEXT
        )
        y += line_h + 4
    left_bottom = y
    # right column: losses, mines off the board
    x, y = 2 * PAD + col_w, y0
    d.text((x, y), "Units lost", font=font(FH), fill=GOLD)
    y += FH + 8
    lost = view.get("lost", {})
    for p in (0, 1):
        lp = lost.get(str(p), {"types": {}, "unknown": 0, "total": 0})
        theme.seat_badge(d, x + 21, y + F / 2 + 2, p, F, label=COLOURS[p][0])
        d.text((x + 48, y), f"{_name(names, p, 12)}: {lp['total']}", font=font(F), fill=theme.TEXT)
        y += line_h + 2
        parts = [
            f"{b.abbr(t)}x{n}" for t, n in sorted(lp["types"].items(), key=lambda kv: b.order.index(kv[0]))
        ]
        if lp.get("unknown"):
            parts.append(f"?x{lp['unknown']}")
        for line in theme.wrap("  ".join(parts), F, col_w - 48, max_lines=3) if parts else []:
            d.text((x + 48, y), line, font=font(F), fill=theme.TEXT_SOFT)
            y += line_h
        y += 4
    off = view.get("off_board_mines", {})
    if off:
        y += 4
        d.text((x, y), "Mines off the board", font=font(FH), fill=GOLD)
        y += FH + 8
        d.text(
            (x, y),
            ", ".join(f"{_name(names, int(p), 12)} {n}" for p, n in off.items()),
            font=font(F),
            fill=theme.TEXT,
        )
        y += line_h
    # key, across the width
    y = max(y, left_bottom) + 10
    d.line((PAD, y, WIDTH - PAD, y), fill=theme.RULE, width=2)
    y += 12
    s = 30
    items = []

    def facedown(x, y):
        d.ellipse((x, y, x + s, y + s), fill=BLUE, outline=BLUE_DARK, width=3)
        d.ellipse((x + 10, y + 10, x + s - 10, y + s - 10), fill=BLUE_DARK)

    def seen(x, y):
        d.rounded_rectangle((x, y, x + s, y + s), radius=6, fill=RED, outline=GOLD, width=4)

    def neutral(x, y):
        d.rectangle((x, y, x + s, y + s), fill=NEUTRAL)
        d.rectangle((x + s - 14, y, x + s, y + 16), fill=WHITE, outline=INK)

    def fort(x, y):
        d.line((x, y + s / 2, x + s, y + s / 2), fill=LINE, width=7)

    items = [
        (facedown, "face down: type unknown"),
        (seen, "gold rim: type seen by both"),
        (neutral, f"neutral water, turns there (of {view.get('neutral_turns', 3)})"),
        (fort, "fortification line; exits walled"),
    ]
    for k, (icon, text) in enumerate(items):
        cx = PAD + (k % 2) * (col_w + PAD)
        cy = y + (k // 2) * (line_h + 8)
        d.rectangle((cx - 2, cy - 2, cx + s + 2, cy + s + 2), fill=SEA_DARK)
        icon(cx, cy)
        for j, part in enumerate(theme.wrap(text, F, col_w - s - 12, max_lines=1)):
            d.text(
                (cx + s + 10, cy + s / 2 + j * line_h), part, font=font(F), fill=theme.TEXT_SOFT, anchor="lm"
            )
    y += 2 * (line_h + 8)
    for line in theme.wrap(
        "BB battleship · CR cruiser · DD destroyer · SS submarine · ES escort · "
        "MS minesweeper · MI missile · LS landing ship · BT battery · MN mine",
        F,
        WIDTH - 2 * PAD,
        max_lines=3,
    ):
        d.text((PAD, y), line, font=font(F), fill=theme.TEXT_SOFT)
        y += line_h
    return y + 6


def _last_text(last: dict, names: list[str] | None = None) -> list[str]:
    col = _name(names, last["seat"])
    k = last.get("kind", "")
    out = []
    if k == "lay_mine" or ("from" not in last and last.get("mines")):
        return [f"{col} laid {counted(len(last['mines']), 'mine')} at {', '.join(last['mines'])}"]
    if k == "move":
        out.append(f"{col} {last['from']}-{last['to']}")
    else:
        via = f"-{last['via']}" if last.get("via") else ""
        verb = {"attack": "attacks", "battery": "hits battery", "defuse": "defuses"}.get(k, k)
        out.append(f"{col} {last['from']}{via} {verb} {last.get('target', '')}")
    c = last.get("clash")
    if c:
        b = board()
        out.append(f"{b.name_of(c['attacker'])} vs {b.name_of(c['defender'])}")
        if c.get("removed"):  # a battery firing at a missile ship removes nothing
            out.append("removed: " + ", ".join(c["removed"]))
    if last.get("mines"):
        out.append("mines laid: " + ", ".join(last["mines"]))
    if last.get("neutral_removed"):
        out.append("lost in neutral waters: " + ", ".join(last["neutral_removed"]))
    return out


def _name(names: list[str] | None, seat: int, limit: int = theme.NAME_CHARS) -> str:
    if names and 0 <= seat < len(names) and names[seat]:
        return theme.display_name(names, seat, limit)
    return COLOURS[seat]


def render(view: dict, names: list[str] | None = None) -> bytes:
    view = theme.filled(view, names)  # texts name seats by who(seat): show the names
    b = board()
    img, d = canvas(WIDTH, 2400, theme.BG)
    _header(d, view, names)
    _draw_board(d, b, view)
    _draw_last(d, b, view.get("last"))
    _draw_units(d, b, view)
    h = _panel(d, b, view, names, TOP + b.rows * CELL + 40)
    return to_png(img.crop((0, 0, WIDTH, h)).convert("P", palette=Image.Palette.ADAPTIVE, colors=128))
