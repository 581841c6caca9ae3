"""Warships board image from a view (channel: view(None); DM: view(seat))."""

from __future__ import annotations

from PIL import ImageDraw

from bot.games.warships.board import board
from rendering.theme import (
    BLUE,
    BLUE_DARK,
    DANGER,
    GOLD,
    GREY,
    HIGHLIGHT,
    INK,
    INK_SOFT,
    LAND,
    OK,
    PARCHMENT,
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

CELL = 40
MARGIN = 26
TOP = 44
PANEL = 310
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
            for dx in range(5, CELL, 9):
                for dy in range(5, CELL, 9):
                    d.point((x + dx, y + dy), fill=(170, 200, 225))
        if i in b.islands:
            d.ellipse((x + 8, y + 10, x + CELL - 8, y + CELL - 10), fill=LAND, outline=(70, 100, 60))
            d.ellipse((x + 14, y + 15, x + 22, y + 22), fill=SAND)
    # initial manoeuvres areas: dashed outline (tinted when the option is on)
    for seat, sqs in b.manoeuvres.items():
        if not sqs:
            continue
        xs = [b.xy(q)[0] for q in sqs]
        ys = [b.xy(q)[1] for q in sqs]
        x0, y0 = MARGIN + min(xs) * CELL + 2, TOP + min(ys) * CELL + 2
        x1, y1 = MARGIN + (max(xs) + 1) * CELL - 2, TOP + (max(ys) + 1) * CELL - 2
        colour = FILL[seat] if im_on else (120, 150, 180)
        step = 10
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
            d.line((x + 6, y + 6, x + CELL - 6, y + CELL - 6), fill=DANGER, width=3)
            d.line((x + 6, y + CELL - 6, x + CELL - 6, y + 6), fill=DANGER, width=3)
    # coordinates
    for c in range(b.cols):
        centered_text(d, (MARGIN + c * CELL, TOP - 20, MARGIN + (c + 1) * CELL, TOP - 2), chr(65 + c), 14, INK)
        centered_text(d, (MARGIN + c * CELL, TOP + b.rows * CELL + 2, MARGIN + (c + 1) * CELL,
                          TOP + b.rows * CELL + 20), chr(65 + c), 14, INK)
    for r in range(b.rows):
        centered_text(d, (0, TOP + r * CELL, MARGIN - 2, TOP + (r + 1) * CELL), str(r + 1), 13, INK)


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
    d.rectangle((x + 1, y + 1, x + CELL - 1, y + CELL - 1), outline=HIGHLIGHT, width=3)
    if len(pts) > 1:
        d.line([_centre(b, p) for p in pts], fill=HIGHLIGHT, width=4)
        x, y = _xy(b, pts[-1])
        d.rectangle((x + 1, y + 1, x + CELL - 1, y + CELL - 1), outline=HIGHLIGHT, width=3)
    if last.get("target"):
        src = _centre(b, pts[-1])
        dst = _centre(b, last["target"])
        d.line((src, dst), fill=DANGER, width=3)
        x, y = _xy(b, last["target"])
        d.rectangle((x, y, x + CELL, y + CELL), outline=DANGER, width=4)


def _burst(d: ImageDraw.ImageDraw, cx: int, cy: int, r: int, fill) -> None:
    import math

    pts = []
    for k in range(16):
        rad = r if k % 2 == 0 else r * 0.5
        a = math.pi * k / 8
        pts.append((cx + rad * math.cos(a), cy + rad * math.sin(a)))
    d.polygon(pts, fill=fill, outline=INK)


def _draw_units(d: ImageDraw.ImageDraw, b, view: dict) -> None:
    last = view.get("last") or {}
    for u in view.get("units", []):
        x, y = _xy(b, u["sq"])
        o = u["owner"]
        t = u.get("type")
        if t == "battery":
            pts = [(x + 6, y + CELL - 6), (x + 6, y + 12), (x + 12, y + 6), (x + CELL - 12, y + 6),
                   (x + CELL - 6, y + 12), (x + CELL - 6, y + CELL - 6)]
            d.polygon(pts, fill=FILL[o], outline=DARK[o])
            centered_text(d, (x, y + 2, x + CELL, y + CELL), "BT", 14, WHITE)
            continue
        box = (x + 4, y + 4, x + CELL - 4, y + CELL - 4)
        if t == "mine":
            d.ellipse(box, fill=(60, 60, 60), outline=FILL[o], width=4)
            for dx, dy in ((0, -1), (0, 1), (-1, 0), (1, 0)):
                cx, cy = x + CELL // 2, y + CELL // 2
                d.line((cx + dx * 15, cy + dy * 15, cx + dx * 20, cy + dy * 20), fill=INK, width=4)
            centered_text(d, (x, y, x + CELL, y + CELL), "MN", 12, WHITE)
        else:
            d.ellipse(box, fill=FILL[o], outline=GOLD if u.get("revealed") else DARK[o], width=3)
            if t:
                centered_text(d, (x, y, x + CELL, y + CELL), b.abbr(t), 15, WHITE)
            else:
                d.ellipse((x + 15, y + 15, x + CELL - 15, y + CELL - 15), fill=DARK[o])
        if u.get("nw"):
            d.rectangle((x + CELL - 17, y, x + CELL, y + 14), fill=WHITE, outline=INK)
            centered_text(d, (x + CELL - 17, y, x + CELL, y + 14), f"{u['nw']}/{view.get('neutral_turns', 3)}",
                          10, DANGER if u["nw"] >= view.get("neutral_turns", 3) else INK)
    clash = last.get("clash")
    if clash and last.get("target"):
        cx, cy = _centre(b, last["target"])
        _burst(d, cx + CELL // 2 - 6, cy - CELL // 2 + 6, 9, HIGHLIGHT)
    for sq in (clash or {}).get("removed", []) + last.get("neutral_removed", []):
        x, y = _xy(b, sq)
        d.line((x + 8, y + 8, x + CELL - 8, y + CELL - 8), fill=DANGER, width=4)
        d.line((x + 8, y + CELL - 8, x + CELL - 8, y + 8), fill=DANGER, width=4)


def _panel(d: ImageDraw.ImageDraw, b, view: dict, names: list[str] | None, x0: int, h: int) -> None:
    x = x0 + 12
    y = 12
    seat = view.get("seat")
    who = "everyone (channel)" if seat is None else f"{_name(names, seat)} ({COLOURS[seat]})"
    d.text((x, y), "WARSHIPS", font=font(22), fill=INK)
    y += 28
    d.text((x, y), f"View of {who}", font=font(13), fill=INK_SOFT)
    y += 24
    phase = view.get("phase")
    if phase == "over":
        w = view.get("winners") or []
        msg = f"{_name(names, w[0])} ({COLOURS[w[0]]}) wins!" if w else "Draw"
        d.rectangle((x - 4, y - 2, x0 + PANEL - 12, y + 44), fill=GOLD)
        d.text((x, y), msg, font=font(17), fill=INK)
        d.text((x, y + 22), (view.get("end") or "")[:44], font=font(11), fill=INK)
        y += 54
    elif phase == "setup":
        sub = view.get("submitted", [False, False])
        d.text((x, y), "Secret setup", font=font(17), fill=INK)
        y += 22
        for p in (0, 1):
            d.text((x, y), f"{COLOURS[p]}: {'ready' if sub[p] else 'arranging...'}", font=font(13),
                   fill=FILL[p])
            y += 18
        y += 6
    else:
        t = view.get("turn")
        d.rectangle((x - 4, y - 2, x0 + PANEL - 12, y + 26), fill=FILL[t])
        d.text((x, y + 2), f"{_name(names, t)} ({COLOURS[t]}) to move", font=font(16), fill=WHITE)
        y += 32
        d.text((x, y), f"Move {view.get('ply', 0)} / {view.get('move_limit', 0)}", font=font(12), fill=INK_SOFT)
        y += 20
    # last move
    last = view.get("last")
    if last and last.get("seat") is not None:
        txt = _last_text(last)
        d.text((x, y), "Last: " + txt[0], font=font(12), fill=INK)
        y += 16
        for line in txt[1:]:
            d.text((x + 10, y), line, font=font(12), fill=INK)
            y += 16
        y += 6
    # batteries
    d.text((x, y), "Exits and batteries", font=font(15), fill=INK)
    y += 20
    for e in view.get("batteries", []):
        left = sum(1 for v in e["batteries"].values() if v)
        state = "OPEN" if e["open"] else f"{left}/2 batteries"
        d.rectangle((x, y + 3, x + 10, y + 13), fill=FILL[e["seat"]])
        d.text((x + 16, y), f"{COLOURS[e['seat']]} exit {e['entrance']}: {state}", font=font(12),
               fill=DANGER if e["open"] else INK)
        y += 17
    y += 8
    # losses
    d.text((x, y), "Units lost", font=font(15), fill=INK)
    y += 20
    lost = view.get("lost", {})
    for p in (0, 1):
        lp = lost.get(str(p), {"types": {}, "unknown": 0, "total": 0})
        d.rectangle((x, y + 3, x + 10, y + 13), fill=FILL[p])
        d.text((x + 16, y), f"{COLOURS[p]}: {lp['total']}", font=font(13), fill=INK)
        y += 17
        parts = [f"{b.abbr(t)} x{n}" for t, n in sorted(lp["types"].items(), key=lambda kv: b.order.index(kv[0]))]
        if lp.get("unknown"):
            parts.append(f"? x{lp['unknown']}")
        line = ""
        for part in parts:
            if len(line) + len(part) > 34:
                d.text((x + 16, y), line, font=font(12), fill=INK_SOFT)
                y += 15
                line = ""
            line += part + "  "
        if line:
            d.text((x + 16, y), line, font=font(12), fill=INK_SOFT)
            y += 15
        y += 4
    off = view.get("off_board_mines", {})
    if off:
        y += 4
        d.text((x, y), "Mines off the board: " + ", ".join(f"{COLOURS[int(p)]} {n}" for p, n in off.items()),
               font=font(12), fill=INK)
        y += 18
    # legend
    y = max(y + 8, h - 150)
    d.text((x, y), "Key", font=font(14), fill=INK)
    y += 18
    d.ellipse((x, y, x + 16, y + 16), fill=GREY, outline=INK_SOFT, width=2)
    d.text((x + 22, y + 1), "face-down unit (type unknown)", font=font(11), fill=INK)
    y += 20
    d.ellipse((x, y, x + 16, y + 16), fill=GREY, outline=GOLD, width=3)
    d.text((x + 22, y + 1), "gold ring: type seen by both", font=font(11), fill=INK)
    y += 20
    d.rectangle((x, y, x + 16, y + 16), fill=NEUTRAL)
    d.text((x + 22, y + 1), "neutral waters (n/3 turns there)", font=font(11), fill=INK)
    y += 20
    d.line((x, y + 8, x + 16, y + 8), fill=LINE, width=5)
    d.text((x + 22, y + 1), "fortification line; exits walled", font=font(11), fill=INK)
    y += 20
    d.text((x, y), "BB CR DD SS ES MS MI(missile) LS(landing)", font=font(11), fill=INK_SOFT)


def _last_text(last: dict) -> list[str]:
    col = COLOURS[last["seat"]]
    k = last.get("kind")
    out = []
    if k == "lay_mine" or ("from" not in last and last.get("mines")):
        return [f"{col} laid mine(s) at {', '.join(last['mines'])}"]
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
        out.append("removed: " + ", ".join(c["removed"]))
    if last.get("mines"):
        out.append("mines laid: " + ", ".join(last["mines"]))
    if last.get("neutral_removed"):
        out.append("lost in neutral waters: " + ", ".join(last["neutral_removed"]))
    return out


def _name(names: list[str] | None, seat: int) -> str:
    if names and 0 <= seat < len(names):
        return str(names[seat])[:18]
    return COLOURS[seat]


def render(view: dict, names: list[str] | None = None) -> bytes:
    b = board()
    w = MARGIN * 2 + b.cols * CELL + PANEL
    h = TOP + b.rows * CELL + 26
    img, d = canvas(w, h, PARCHMENT)
    _draw_board(d, b, view)
    _draw_last(d, b, view.get("last"))
    _draw_units(d, b, view)
    seat = view.get("seat")
    title = "Warships - channel view" if seat is None else f"Warships - {COLOURS[seat]}'s own view"
    d.text((MARGIN, 6), title, font=font(16), fill=INK)
    px = MARGIN * 2 + b.cols * CELL
    d.rectangle((px, 0, w, h), fill=(230, 220, 196))
    d.line((px, 0, px, h), fill=INK_SOFT, width=2)
    _panel(d, b, view, names, px, h)
    if view.get("phase") == "over":
        d.rectangle((MARGIN, TOP - 4, MARGIN + b.cols * CELL, TOP - 2), fill=OK)
    return to_png(img.convert("P", palette=1, colors=128))
