"""The Everrain, laid out for a chat column: the hex map across the width, then tracks, ships, enemies and
the last enemy activation, and (for a seat) its ship board. Player ships carry their seat number, enemy
ships their letter, dice their face letter, so no state is told by colour alone."""

from __future__ import annotations

import math

from PIL import Image, ImageDraw

from bot.games.everrain.board import DIR_NAMES, distance, label, map_of_view, tag
from rendering import theme
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
    SEAT_COLOURS,
    WHITE,
    canvas,
    font,
    to_png,
)

WIDTH = theme.MAX_WIDTH
F = theme.min_font(WIDTH)  # 24: the smallest text
FH = F + 4  # headings
LINE = F + 8
PAD = 12
R = 34  # hex radius (centre to corner)
W = math.sqrt(3) * R  # hex width
MAP_X, MAP_Y = 36, 40  # top-left of the map area
ROUGH = (36, 74, 112)
RIFT = (120, 70, 150)
ENEMY = (40, 34, 38)
ENEMY_EDGE = (200, 50, 44)
FACE_COLOURS = {
    "move": (70, 130, 200),
    "damage": DANGER,
    "omen": (130, 80, 170),
    "evade": OK,
    "blank": (200, 196, 186),
}
FACE_LETTER = {"move": "M", "damage": "D", "omen": "O", "evade": "E", "blank": ""}
KIND_COLOURS = {
    "artillery": (196, 84, 64),
    "navigation": (66, 120, 196),
    "crows_nest": GOLD,
    "blank": (170, 164, 150),
}


def _name(names, seat: int) -> str:
    return theme.display_name(names, seat)


def _centre(h) -> tuple[float, float]:
    q, r = h[0], h[1]
    return (MAP_X + W / 2 + W * (q + r / 2), MAP_Y + R + 1.5 * R * r)


def _corners(cx: float, cy: float, rad: float = R) -> list[tuple[float, float]]:
    return [
        (cx + rad * math.cos(math.radians(60 * i - 30)), cy + rad * math.sin(math.radians(60 * i - 30)))
        for i in range(6)
    ]


def _rot(points, facing: int, cx: float, cy: float):
    a = math.radians(60 * facing)
    c, s = math.cos(a), math.sin(a)
    return [(cx + x * c + y * s, cy - x * s + y * c) for x, y in points]


def _hull(draw, cx, cy, facing, fill, outline, scale=1.0):
    pts = [(0.72, 0), (0.35, -0.3), (-0.5, -0.3), (-0.6, 0), (-0.5, 0.3), (0.35, 0.3)]
    pts = [(x * R * scale, y * R * scale) for x, y in pts]
    draw.polygon(_rot(pts, facing, cx, cy), fill=fill, outline=outline, width=2)


def _arrow(draw, a, b, fill, width=4):
    draw.line([a, b], fill=fill, width=width)
    ang = math.atan2(b[1] - a[1], b[0] - a[0])
    for da in (2.6, -2.6):
        draw.line(
            [b, (b[0] + 11 * math.cos(ang + da), b[1] + 11 * math.sin(ang + da))], fill=fill, width=width
        )


def _die(draw, x, y, face: str, size=34):
    col = FACE_COLOURS.get(face, GREY)
    draw.rounded_rectangle([x, y, x + size, y + size], radius=5, fill=col, outline=WHITE, width=1)
    draw.text(
        (x + size / 2, y + size / 2),
        FACE_LETTER.get(face, "?"),
        font=font(F),
        fill=WHITE if face != "blank" else INK,
        anchor="mm",
    )


# ------------------------------------------------------------------ map
def _draw_map(img: Image.Image, view: dict, names) -> None:
    draw = ImageDraw.Draw(img)
    m = map_of_view(view)
    sites = {(q, r): n for q, r, n in view["sites"]}
    for h, t in m.terrain.items():
        cx, cy = _centre(h)
        fill = {"~": ROUGH, "#": LAND, "P": SAND, "X": RIFT}.get(t, SEA_LIGHT)
        draw.polygon(_corners(cx, cy), fill=fill, outline=SEA_DARK)
        if t == "~":
            for dy in (-8, 6):
                draw.arc([cx - 14, cy + dy - 5, cx - 2, cy + dy + 5], 200, 340, fill=SEA_LIGHT, width=2)
                draw.arc([cx - 2, cy + dy - 5, cx + 10, cy + dy + 5], 200, 340, fill=SEA_LIGHT, width=2)
        elif t == "#":
            draw.polygon(_corners(cx, cy, R * 0.62), fill=(96, 128, 76))
        elif t == "P":
            # anchor
            draw.ellipse([cx - 4, cy - 16, cx + 4, cy - 8], outline=INK, width=2)
            draw.line([cx, cy - 8, cx, cy + 10], fill=INK, width=2)
            draw.arc([cx - 11, cy - 4, cx + 11, cy + 13], 20, 160, fill=INK, width=2)
            draw.line([cx - 7, cy - 4, cx + 7, cy - 4], fill=INK, width=2)
        elif t == "S":
            draw.text((cx - 10, cy - 12), "S", font=font(F), fill=(235, 120, 110), anchor="mm")
        elif t == "X":
            for rr in (6, 12, 18):
                draw.arc(
                    [cx - rr, cy - rr, cx + rr, cy + rr],
                    30 * rr,
                    30 * rr + 250,
                    fill=(210, 180, 230),
                    width=2,
                )
        if h in sites:
            n = sites[h]
            col = GOLD if n else (120, 140, 160)
            draw.ellipse([cx - 11, cy - 11, cx + 11, cy + 11], fill=col if n else None, outline=col, width=2)
            draw.text((cx, cy), "?" if n else "", font=font(F), fill=INK, anchor="mm")
            if n > 1:
                draw.text(
                    (cx + 17, cy - 15),
                    str(n),
                    font=font(F),
                    fill=GOLD,
                    anchor="mm",
                    stroke_width=2,
                    stroke_fill=SEA_DARK,
                )
    # coordinates
    for c in range(m.width):
        draw.text(
            (MAP_X + W / 2 + W * c, MAP_Y - 18),
            chr(ord("A") + c),
            font=font(F),
            fill=theme.TEXT_SOFT,
            anchor="mm",
        )
    for r in range(m.height):
        draw.text(
            (MAP_X - 18, MAP_Y + R + 1.5 * R * r), str(r + 1), font=font(F), fill=theme.TEXT_SOFT, anchor="mm"
        )

    overlay = Image.new("RGBA", img.size, (0, 0, 0, 0))
    od = ImageDraw.Draw(overlay)
    la = view.get("last_activation")
    # faint Engagement Range of every enemy ship
    for e in view["enemies"]:
        for h in m.terrain:
            if distance(h, (e["q"], e["r"])) == e["engagement"]:
                cx, cy = _centre(h)
                od.polygon(_corners(cx, cy, R * 0.92), outline=(230, 90, 80, 70), width=2)
        for h in e["reach"]:
            if tuple(h) in m.terrain:
                cx, cy = _centre(h)
                od.ellipse([cx - 4, cy - 4, cx + 4, cy + 4], fill=(230, 80, 70, 120))
    if la:
        for h in la["hexes_hit"]:
            if tuple(h) not in m.terrain:
                continue
            cx, cy = _centre(h)
            od.polygon(
                _corners(cx, cy, R * 0.95), fill=(220, 60, 50, 70), outline=(240, 70, 60, 220), width=3
            )
    last = view.get("last")
    if last and last.get("type") == "fire":
        a, b = _centre(last["from"]), _centre(last["to"])
        od.line([a, b], fill=(255, 214, 90, 200), width=3)
    img.paste(Image.alpha_composite(img.convert("RGBA"), overlay).convert("RGB"))
    draw = ImageDraw.Draw(img)

    # last enemy path
    if la and len(la["path"]) > 1:
        pts = [_centre(h) for h in la["path"]]
        draw.line(pts, fill=(250, 120, 60), width=4, joint="curve")
        _arrow(draw, pts[-2], pts[-1], (250, 120, 60))
        sx, sy = pts[0]
        draw.ellipse([sx - 5, sy - 5, sx + 5, sy + 5], fill=(250, 120, 60))
    if last and last.get("type") == "nav" and last["from"] != last["to"]:
        a, b = _centre(last["from"]), _centre(last["to"])
        draw.line([a, b], fill=(255, 214, 90), width=2)

    # enemy ships
    for e in view["enemies"]:
        cx, cy = _centre((e["q"], e["r"]))
        if view["phase"] == "enemy" and not e["activated"]:
            draw.ellipse([cx - R * 0.8, cy - R * 0.8, cx + R * 0.8, cy + R * 0.8], outline=GOLD, width=2)
        _hull(draw, cx, cy, e["facing"], ENEMY, ENEMY_EDGE)
        draw.text((cx, cy), e["tag"], font=font(F), fill=WHITE, anchor="mm")
        # health pips
        n = e["max_health"]
        pw = 6
        x0 = cx - n * (pw + 1) / 2
        for k in range(n):
            col = DANGER if k < e["health"] else (90, 90, 90)
            draw.rectangle(
                [x0 + k * (pw + 1), cy + 18, x0 + k * (pw + 1) + pw, cy + 24], fill=col, outline=INK
            )
    # player ships
    acting = view.get("current")
    for s in view["ships"]:
        cx, cy = _centre((s["q"], s["r"]))
        col = SEAT_COLOURS[s["seat"] % len(SEAT_COLOURS)]
        if s["in_port"]:
            others = [o for o in view["ships"] if (o["q"], o["r"]) == (s["q"], s["r"])]
            k = others.index(s)
            cx += (k - (len(others) - 1) / 2) * 12
        if s["seat"] == acting:
            draw.ellipse([cx - R * 0.85, cy - R * 0.85, cx + R * 0.85, cy + R * 0.85], outline=GOLD, width=3)
        _hull(draw, cx, cy, s["facing"], col, WHITE)
        draw.text(
            (cx, cy),
            str(s["seat"] + 1),
            font=font(F),
            fill=WHITE,
            anchor="mm",
            stroke_width=2,
            stroke_fill=INK,
        )
        if s["clues"]:
            draw.text(
                (cx + 17, cy + 19),
                f"?{s['clues']}",
                font=font(F),
                fill=GOLD,
                anchor="mm",
                stroke_width=2,
                stroke_fill=INK,
            )


# ------------------------------------------------------------------ panel
def _track(draw, y, title, value, end, colour, marker=False) -> float:
    """A track: its name and value on the left, one box per step on the right (filled up to the value,
    or for the Agenda a marker on the current step)."""
    x = PAD
    draw.text((x, y + 17), f"{title} {value}/{end}", font=font(F), fill=theme.TEXT, anchor="lm")
    x0, x1 = 330, WIDTH - PAD
    cw = (x1 - x0) / max(end, 1)
    for i in range(end):
        bx = x0 + i * cw
        filled = (i < value) and not marker
        draw.rectangle(
            [bx, y + 4, bx + cw - 4, y + 30],
            fill=colour if filled else theme.PANEL_LIGHT,
            outline=theme.TEXT_SOFT if filled else theme.RULE,
        )
        if marker and i == value:
            draw.ellipse(
                [bx + cw / 2 - 12, y + 5, bx + cw / 2 + 10, y + 29], fill=colour, outline=WHITE, width=2
            )
    return y + 40


def _text(draw, x, y, text, fill=None, size=F, width=WIDTH - 2 * PAD, max_lines=2) -> float:
    for line in theme.wrap(text, size, width, max_lines=max_lines):
        draw.text((x, y), line, font=font(size), fill=fill or theme.TEXT)
        y += size + 8
    return y


def _draw_panel(img, view: dict, names, y: float) -> float:
    draw = ImageDraw.Draw(img)
    x = PAD
    y = _text(draw, x, y, f"The Everrain · {view['scenario_title']}", GOLD, FH, max_lines=1)
    res = view.get("result")
    if res:
        msg, col = ("The crews win!", OK) if res["winners"] else ("The Everrain wins.", DANGER)
        y = _text(draw, x, y, f"Game over: {msg}", col, FH)
    elif view["phase"] == "enemy":
        y = _text(
            draw,
            x,
            y,
            f"Round {view['round']} · ENEMY PHASE: {_name(names, view['first'])} picks the order",
            DANGER,
        )
    else:
        cur = view["current"]
        s = view["ships"][cur]
        theme.seat_badge(draw, x + 20, y + FH / 2 + 2, cur, F)
        txt = (
            f"Round {view['round']} · {_name(names, cur)} to act ({s['orders']} orders"
            + (f", {s['nav']} nav" if s["nav"] else "")
            + ")"
        )
        y = _text(draw, x + 48, y, txt, theme.TEXT, FH, WIDTH - 2 * PAD - 48)
    y += 6
    tr = view["tracks"]
    y = _track(draw, y, "Enemy Agenda", tr["agenda"], tr["agenda_length"], (130, 80, 170), marker=True)
    y = _track(draw, y, "Discovery", tr["discovery"], tr["discovery_end"], GOLD)
    y = _track(draw, y, "Enemy Discovery", tr["enemy_discovery"], tr["enemy_discovery_end"], DANGER)
    y += 6
    for s in view["ships"]:
        theme.seat_badge(draw, x + 20, y + F / 2 + 3, s["seat"], F)
        txt = (
            f"{_name(names, s['seat'])}: {label((s['q'], s['r']))} {DIR_NAMES[s['facing']]} · nodes "
            f"{s['intact']}/10 · clues {s['clues']} (+{s['delivered']})"
        )
        draw.text((x + 48, y), theme.fit(txt, F, WIDTH - 2 * PAD - 48), font=font(F), fill=theme.TEXT)
        y += LINE + 6
    for e in view["enemies"]:
        mark = "" if e["activated"] or view["phase"] != "enemy" else " · TO ACT"
        y = _text(
            draw,
            x,
            y,
            f"{e['tag']}: {e['name']} {e['health']}/{e['max_health']} hp · {e['dice']} dice · "
            f"ER {e['engagement']} · to {e['dest_label']}{mark}",
            theme.TEXT_SOFT,
            max_lines=1,
        )
    if not view["enemies"]:
        y = _text(draw, x, y, "No enemy ships in sight.", theme.TEXT_SOFT)
    # last activation
    la = view.get("last_activation")
    y += 6
    draw.line([x, y, WIDTH - PAD, y], fill=theme.RULE, width=2)
    y += 10
    if not la:
        return _text(draw, x, y, "No enemy activation yet.", theme.TEXT_SOFT)
    y = _text(draw, x, y, f"Last activation: {tag(la['enemy'])} {la['name']}", GOLD, FH, max_lines=1)
    draw.text((x, y + 17), "Dice", font=font(F), fill=theme.TEXT, anchor="lm")
    for i, f in enumerate(la["dice"]):
        _die(draw, x + 70 + i * 40, y, f)
    if la["evasion"]:
        ex = x + 90 + len(la["dice"]) * 40
        draw.text((ex, y + 17), "Evasion", font=font(F), fill=theme.TEXT, anchor="lm")
        for i, f in enumerate(la["evasion"]):
            _die(draw, ex + 100 + i * 40, y, f)
    y += 44
    lines = []
    if la["target"] is not None:
        t = f"Target: {_name(names, la['target'])}"
        if len(la["candidates"]) > 1:
            t += (
                " ("
                + ", ".join(f"{_name(names, c['seat'])} {c['cost']}" for c in la["candidates"])
                + " moves)"
            )
        if la["fate"] is not None:
            t += f", Fate Die {la['fate']}"
        lines.append(t)
        lines.append(
            f"Moved {la['approach']} into reach"
            if la["attacked"]
            else f"Moved {la['approach']}, not yet in reach"
        )
    else:
        lines.append("No player ship in its Engagement Range.")
    if la["attacked"]:
        lines.append(f"Damage {la['damage']} - evaded {la['evaded']} = {la['damage'] - la['evaded']}")
    for line in lines:
        y = _text(draw, x, y, line)
    if la["nodes_hit"]:
        board = view["board"]
        hits = ", ".join(f"{h['fate']}: {board[h['node']]['short']}" for h in la["nodes_hit"])
        y = _text(draw, x, y, f"Nodes hit (Fate): {hits}", DANGER)
    if la["sunk"]:
        y = _text(draw, x, y, "The ship sank and restarts in port.", DANGER)
    if la["dest_moves"]:
        y = _text(draw, x, y, f"Sailed {la['dest_moves']} toward its destination")
    if la["banished"]:
        y = _text(draw, x, y, f"BANISHED: Agenda +{la['agenda_steps']}", DANGER)
    acts = view.get("activations") or []
    if len(acts) > 1:
        y += 4
        y = _text(draw, x, y, "This enemy phase:", theme.TEXT_SOFT)
        for a in acts[-4:]:
            y = _text(draw, x + 12, y, a["text"], theme.TEXT_SOFT, max_lines=1)
    return y


# ------------------------------------------------------------------ ship board
NODE_POS = [
    (0.94, 0.5),
    (0.76, 0.5),
    (0.62, 0.14),
    (0.58, 0.5),
    (0.42, 0.5),
    (0.62, 0.86),
    (0.3, 0.18),
    (0.18, 0.5),
    (0.3, 0.82),
    (0.05, 0.5),
]
NODE_R = 36


def _draw_ship_board(img, view: dict, names, y0: float) -> float:
    draw = ImageDraw.Draw(img)
    s = view["my_ship"]
    board = view["board"]
    col = SEAT_COLOURS[s["seat"] % len(SEAT_COLOURS)]
    draw.rectangle([0, y0, WIDTH, y0 + 4], fill=GOLD)
    y0 += 14
    theme.seat_badge(draw, PAD + 20, y0 + FH / 2 + 2, s["seat"], F)
    draw.text(
        (PAD + 48, y0),
        theme.fit(f"Ship board: {_name(names, s['seat'])} (ship {s['seat'] + 1})", FH, WIDTH - 80),
        font=font(FH),
        fill=theme.TEXT,
    )
    x0, x1, yt, yb = 20, WIDTH - 20, y0 + 50, y0 + 300
    hull = [(x0, yt + 24), (x1 - 110, yt), (x1, (yt + yb) / 2), (x1 - 110, yb), (x0, yb - 24)]
    draw.polygon(hull, fill=(120, 88, 60), outline=theme.TEXT_SOFT, width=2)
    crew_names = view.get("crew_names", [])
    for i, (fx, fy) in enumerate(NODE_POS):
        cx = x0 + NODE_R + 4 + fx * (x1 - x0 - 2 * NODE_R - 30)
        cy = yt + NODE_R + 4 + fy * (yb - yt - 2 * NODE_R - 8)
        n = board[i]
        kcol = KIND_COLOURS.get(n["kind"], GREY)
        dead = s["destroyed"][i]
        draw.ellipse(
            [cx - NODE_R, cy - NODE_R, cx + NODE_R, cy + NODE_R],
            fill=(70, 60, 56) if dead else kcol,
            outline=INK,
            width=2,
        )
        draw.text(
            (cx, cy), n["short"], font=font(F), fill=WHITE, anchor="mm", stroke_width=2, stroke_fill=INK
        )
        if dead:
            draw.line([cx - 26, cy - 26, cx + 26, cy + 26], fill=DANGER, width=5)
            draw.line([cx - 26, cy + 26, cx + 26, cy - 26], fill=DANGER, width=5)
        if i in s["crew"]:
            k = s["crew"].index(i)
            draw.ellipse([cx + 14, cy - 46, cx + 48, cy - 12], fill=col, outline=WHITE, width=2)
            initial = crew_names[k][0] if k < len(crew_names) else "C"
            draw.text(
                (cx + 31, cy - 29),
                initial,
                font=font(F),
                fill=WHITE,
                anchor="mm",
                stroke_width=1,
                stroke_fill=INK,
            )
    y = yb + 14
    info = [
        f"Orders left: {s['orders']}" + (f" (nav points {s['nav']})" if s["nav"] else ""),
        f"Nodes intact: {s['intact']}/10",
        f"Navigation: {1 + s['manned_nav']} per order",
        f"Evasion dice: {s['manned_nav']}",
        f"Attack dice: {2 + (1 if s['nest'] else 0)}" + (" (nest)" if s["nest"] else ""),
        f"Clues: {s['clues']} (brought {s['delivered']})",
        "In port (safe)" if s["in_port"] else f"Facing {DIR_NAMES[s['facing']]}",
    ]
    col_w = (WIDTH - 3 * PAD) / 2
    for k, line in enumerate(info):
        draw.text(
            (PAD + (k % 2) * (col_w + PAD), y + (k // 2) * LINE),
            theme.fit(line, F, col_w),
            font=font(F),
            fill=theme.TEXT,
        )
    y += ((len(info) + 1) // 2) * LINE + 6
    lx: float = PAD
    for kind, name in (
        ("artillery", "gun"),
        ("navigation", "navigation"),
        ("crows_nest", "crow's nest"),
        ("blank", "blank"),
    ):
        draw.ellipse([lx, y + 4, lx + 22, y + 26], fill=KIND_COLOURS[kind])
        draw.text((lx + 30, y), name, font=font(F), fill=theme.TEXT_SOFT)
        lx += 30 + theme.text_width(name, F) + 24
    y += LINE + 4
    crew_txt = ", ".join(
        f"{crew_names[k] if k < len(crew_names) else k} at {board[n]['short']}"
        for k, n in enumerate(s["crew"])
    )
    return _text(draw, PAD, y, f"Crew: {crew_txt}")


def render(view: dict, names: list[str] | None = None) -> bytes:
    view = theme.filled(view, names)  # texts name seats by who(seat): show the names
    m = map_of_view(view)
    map_h = int(MAP_Y + R * (1.5 * (m.height - 1) + 2) + 12)
    img, draw = canvas(WIDTH, 3000, theme.BG)
    draw.rectangle([0, 0, WIDTH, map_h], fill=SEA)
    _draw_map(img, view, names)
    draw = ImageDraw.Draw(img)
    y: float = map_h + 8
    legend = (
        "Anchor: port (safe, repairs, clues count there) · ? clue site · S enemy spawn · swirl: the Rift · "
        "red dots: enemy gun reach · faint red ring: Engagement Range · orange line: last enemy path"
    )
    y = _text(draw, PAD, y, legend, theme.TEXT_SOFT, max_lines=4) + 6
    draw.line([PAD, y, WIDTH - PAD, y], fill=theme.RULE, width=2)
    y = _draw_panel(img, view, names, y + 10) + 8
    if view.get("my_ship"):
        y = _draw_ship_board(img, view, names, y) + 8
    return to_png(img.crop((0, 0, WIDTH, int(y))))
