"""The Everrain: hex map, tracks, the last enemy activation and (for a seat) its ship board."""

from __future__ import annotations

import math

from PIL import Image, ImageDraw

from bot.games.everrain.board import DIR_NAMES, distance, label, map_of_view, tag
from rendering.theme import (
    DANGER,
    GOLD,
    GREY,
    INK,
    INK_SOFT,
    LAND,
    OK,
    PARCHMENT,
    SAND,
    SEA,
    SEA_DARK,
    SEA_LIGHT,
    SEAT_COLOURS,
    SEAT_NAMES,
    WHITE,
    canvas,
    font,
    to_png,
)

R = 34                      # hex radius (centre to corner)
W = math.sqrt(3) * R        # hex width
MAP_X, MAP_Y = 40, 56       # top-left of the map area
PANEL_W = 400
ROUGH = (36, 74, 112)
RIFT = (120, 70, 150)
ENEMY = (40, 34, 38)
ENEMY_EDGE = (200, 50, 44)
FACE_COLOURS = {"move": (70, 130, 200), "damage": DANGER, "omen": (130, 80, 170), "evade": OK,
                "blank": (200, 196, 186)}
FACE_LETTER = {"move": "M", "damage": "D", "omen": "O", "evade": "E", "blank": ""}
KIND_COLOURS = {"artillery": (196, 84, 64), "navigation": (66, 120, 196), "crows_nest": GOLD,
                "blank": (170, 164, 150)}


def _name(names, seat: int) -> str:
    if names and seat < len(names):
        return str(names[seat])[:18]
    return SEAT_NAMES[seat % len(SEAT_NAMES)]


def _centre(h) -> tuple[float, float]:
    q, r = h[0], h[1]
    return (MAP_X + W / 2 + W * (q + r / 2), MAP_Y + R + 1.5 * R * r)


def _corners(cx: float, cy: float, rad: float = R) -> list[tuple[float, float]]:
    return [(cx + rad * math.cos(math.radians(60 * i - 30)), cy + rad * math.sin(math.radians(60 * i - 30)))
            for i in range(6)]


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
        draw.line([b, (b[0] + 11 * math.cos(ang + da), b[1] + 11 * math.sin(ang + da))], fill=fill, width=width)


def _die(draw, x, y, face: str, size=22):
    col = FACE_COLOURS.get(face, GREY)
    draw.rounded_rectangle([x, y, x + size, y + size], radius=4, fill=col, outline=INK, width=1)
    draw.text((x + size / 2, y + size / 2), FACE_LETTER.get(face, "?"), font=font(13),
              fill=WHITE if face != "blank" else INK, anchor="mm")


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
            draw.text((cx - 12, cy - 15), "S", font=font(12), fill=(235, 120, 110), anchor="mm")
        elif t == "X":
            for rr in (6, 12, 18):
                draw.arc([cx - rr, cy - rr, cx + rr, cy + rr], 30 * rr, 30 * rr + 250, fill=(210, 180, 230), width=2)
        if h in sites:
            n = sites[h]
            col = GOLD if n else (120, 140, 160)
            draw.ellipse([cx - 11, cy - 11, cx + 11, cy + 11], fill=col if n else None, outline=col, width=2)
            draw.text((cx, cy), "?" if n else "", font=font(15), fill=INK, anchor="mm")
            if n > 1:
                draw.text((cx + 14, cy - 14), str(n), font=font(12), fill=GOLD, anchor="mm")
    # coordinates
    for c in range(m.width):
        draw.text((MAP_X + W / 2 + W * c, MAP_Y - 10), chr(ord("A") + c), font=font(13), fill=INK_SOFT,
                  anchor="mm")
    for r in range(m.height):
        draw.text((MAP_X - 16 + (W / 2 if r % 2 else 0) * 0, MAP_Y + R + 1.5 * R * r), str(r + 1), font=font(13),
                  fill=INK_SOFT, anchor="mm")

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
            od.polygon(_corners(cx, cy, R * 0.95), fill=(220, 60, 50, 70), outline=(240, 70, 60, 220), width=3)
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
        draw.text((cx, cy), e["tag"], font=font(14), fill=WHITE, anchor="mm")
        # health pips
        n = e["max_health"]
        pw = 6
        x0 = cx - n * (pw + 1) / 2
        for k in range(n):
            col = DANGER if k < e["health"] else (90, 90, 90)
            draw.rectangle([x0 + k * (pw + 1), cy + 18, x0 + k * (pw + 1) + pw, cy + 24], fill=col, outline=INK)
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
        draw.text((cx, cy), str(s["seat"] + 1), font=font(14), fill=WHITE, anchor="mm")
        if s["clues"]:
            draw.text((cx + 15, cy + 17), f"?{s['clues']}", font=font(12), fill=GOLD, anchor="mm")


# ------------------------------------------------------------------ panel
def _track(draw, x, y, title, value, end, colour, cells_w=340):
    draw.text((x, y), f"{title}: {value}/{end}", font=font(15), fill=INK)
    n = end
    cw = min(34, cells_w / n)
    for i in range(n):
        bx = x + i * cw
        filled = i < value
        draw.rectangle([bx, y + 20, bx + cw - 3, y + 36], fill=colour if filled else PARCHMENT, outline=INK_SOFT)
    return y + 44


def _draw_panel(img, view: dict, names, x0: int) -> None:
    draw = ImageDraw.Draw(img)
    x = x0 + 14
    y = 12
    draw.text((x, y), f"The Everrain - {view['scenario_title']}", font=font(19), fill=INK)
    y += 26
    res = view.get("result")
    if res:
        msg, col = ("The crews win!", OK) if res["winners"] else ("The Everrain wins.", DANGER)
        draw.text((x, y), f"Game over: {msg}", font=font(17), fill=col)
    elif view["phase"] == "enemy":
        draw.text((x, y), f"Round {view['round']} · Enemy phase - {_name(names, view['first'])} picks "
                          f"the order", font=font(14), fill=DANGER)
    else:
        cur = view.get("current")
        s = view["ships"][cur]
        draw.text((x, y), f"Round {view['round']} · {_name(names, cur)} to act ({s['orders']} orders"
                          + (f", {s['nav']} nav pts" if s["nav"] else "") + ")", font=font(14),
                  fill=SEAT_COLOURS[cur % len(SEAT_COLOURS)])
    y += 28
    tr = view["tracks"]
    draw.text((x, y), f"Enemy Agenda: {tr['agenda']} of {tr['agenda_length']}", font=font(15), fill=INK)
    cw = 340 / tr["agenda_length"]
    for i in range(tr["agenda_length"]):
        bx = x + i * cw
        draw.rectangle([bx, y + 20, bx + cw - 3, y + 36], fill=PARCHMENT, outline=INK_SOFT)
        if i == tr["agenda"]:
            draw.ellipse([bx + cw / 2 - 8, y + 20, bx + cw / 2 + 6, y + 36], fill=(130, 80, 170))
    y += 44
    y = _track(draw, x, y, "Discovery (players)", tr["discovery"], tr["discovery_end"], GOLD)
    y = _track(draw, x, y, "Enemy Discovery", tr["enemy_discovery"], tr["enemy_discovery_end"], DANGER)
    # ships
    y += 4
    for s in view["ships"]:
        col = SEAT_COLOURS[s["seat"] % len(SEAT_COLOURS)]
        draw.rectangle([x, y + 2, x + 12, y + 14], fill=col)
        draw.text((x + 18, y), f"{s['seat'] + 1} {_name(names, s['seat'])}: {label((s['q'], s['r']))} "
                               f"{DIR_NAMES[s['facing']]}, nodes {s['intact']}/10, clues {s['clues']}"
                               f" (brought {s['delivered']})", font=font(13), fill=INK)
        y += 18
    y += 6
    for e in view["enemies"]:
        mark = "" if e["activated"] or view["phase"] != "enemy" else " (to act)"
        draw.text((x, y), f"{e['tag']} {e['name']} {e['health']}/{e['max_health']} hp, "
                          f"{e['dice']} dice, ER {e['engagement']} -> {e['dest_label']}{mark}",
                  font=font(13), fill=INK)
        y += 18
    if not view["enemies"]:
        draw.text((x, y), "No enemy ships in sight.", font=font(13), fill=INK_SOFT)
        y += 18
    # last activation
    la = view.get("last_activation")
    y += 8
    draw.line([x, y, x + 370, y], fill=INK_SOFT)
    y += 6
    if not la:
        draw.text((x, y), "No enemy activation yet.", font=font(14), fill=INK_SOFT)
        return
    draw.text((x, y), f"Last activation: ({tag(la['enemy'])}) {la['name']}", font=font(15), fill=INK)
    y += 22
    for i, f in enumerate(la["dice"]):
        _die(draw, x + i * 26, y, f)
    y += 28
    lines = []
    if la["target"] is not None:
        t = f"Target: {_name(names, la['target'])}"
        if len(la["candidates"]) > 1:
            t += " (" + ", ".join(f"{_name(names, c['seat'])} {c['cost']}" for c in la["candidates"]) + " moves)"
        if la["fate"] is not None:
            t += f", Fate Die {la['fate']}"
        lines.append(t)
        pairs = f" ({la['pair_moves']} from pairs)" if la.get("pair_moves") else ""
        lines.append(f"Moved {la['approach']}{pairs} into reach" if la["attacked"] else
                     f"Moved {la['approach']}{pairs}, not yet in reach")
    else:
        lines.append("No player ship in its Engagement Range.")
    if la["attacked"]:
        lines.append(f"Damage {la['damage']} - evaded {la['evaded']} = {la['damage'] - la['evaded']}")
    for line in lines:
        draw.text((x, y), line, font=font(13), fill=INK)
        y += 18
    if la["evasion"]:
        draw.text((x, y + 3), "Evasion:", font=font(13), fill=INK)
        for i, f in enumerate(la["evasion"]):
            _die(draw, x + 64 + i * 26, y, f)
        y += 28
    if la["nodes_hit"]:
        board = view["board"]
        hits = ", ".join(f"{h['fate']}->{board[h['node']]['short']}" for h in la["nodes_hit"])
        draw.text((x, y), f"Nodes hit (Fate): {hits}"[:60], font=font(13), fill=DANGER)
        y += 18
    if la["sunk"]:
        draw.text((x, y), "The ship sank and restarts in port.", font=font(13), fill=DANGER)
        y += 18
    if la["dest_moves"]:
        draw.text((x, y), f"Sailed {la['dest_moves']} toward its destination", font=font(13), fill=INK)
        y += 18
    if la["banished"]:
        draw.text((x, y), f"BANISHED: Agenda +{la['agenda_steps']}", font=font(14), fill=DANGER)
        y += 18
    acts = view.get("activations") or []
    if len(acts) > 1:
        y += 6
        draw.text((x, y), "This enemy phase:", font=font(13), fill=INK_SOFT)
        y += 17
        for a in acts[-5:]:
            draw.text((x, y), a["text"][:62], font=font(12), fill=INK_SOFT)
            y += 16


# ------------------------------------------------------------------ ship board
NODE_POS = [(0.94, 0.5), (0.76, 0.5), (0.62, 0.16), (0.58, 0.5), (0.42, 0.5), (0.62, 0.84), (0.3, 0.2),
            (0.18, 0.5), (0.3, 0.8), (0.05, 0.5)]


def _draw_ship_board(img, view: dict, names, y0: int) -> None:
    draw = ImageDraw.Draw(img)
    s = view["my_ship"]
    board = view["board"]
    col = SEAT_COLOURS[s["seat"] % len(SEAT_COLOURS)]
    draw.rectangle([0, y0, img.width, img.height], fill=(226, 214, 186))
    draw.text((16, y0 + 10), f"Ship board - {_name(names, s['seat'])} (ship {s['seat'] + 1})", font=font(17),
              fill=col)
    x0, x1, yt, yb = 40, 720, y0 + 44, y0 + 224
    hull = [(x0, yt + 20), (x1 - 90, yt), (x1, (yt + yb) / 2), (x1 - 90, yb), (x0, yb - 20)]
    draw.polygon(hull, fill=(170, 126, 84), outline=INK, width=2)
    crew_names = view.get("crew_names", [])
    for i, (fx, fy) in enumerate(NODE_POS):
        cx = x0 + 20 + fx * (x1 - x0 - 60)
        cy = yt + 12 + fy * (yb - yt - 24)
        n = board[i]
        kcol = KIND_COLOURS.get(n["kind"], GREY)
        dead = s["destroyed"][i]
        draw.ellipse([cx - 26, cy - 24, cx + 26, cy + 24], fill=(70, 60, 56) if dead else kcol, outline=INK, width=2)
        draw.text((cx, cy - 7), n["short"], font=font(13), fill=WHITE, anchor="mm")
        draw.text((cx, cy + 9), str(i), font=font(12), fill=WHITE, anchor="mm")
        if dead:
            draw.line([cx - 17, cy - 17, cx + 17, cy + 17], fill=DANGER, width=4)
            draw.line([cx - 17, cy + 17, cx + 17, cy - 17], fill=DANGER, width=4)
        if i in s["crew"]:
            k = s["crew"].index(i)
            draw.ellipse([cx + 12, cy - 30, cx + 32, cy - 10], fill=col, outline=WHITE, width=2)
            initial = crew_names[k][0] if k < len(crew_names) else "C"
            draw.text((cx + 22, cy - 20), initial, font=font(12), fill=WHITE, anchor="mm")
    # legend and numbers
    lx = 750
    ly = y0 + 44
    info = [
        f"Orders left: {s['orders']}" + (f" (navigation points {s['nav']})" if s["nav"] else ""),
        f"Nodes intact: {s['intact']}/10",
        f"Navigation: {1 + s['manned_nav']} points per order",
        f"Evasion dice: {s['manned_nav']}",
        f"Attack dice: {2 + (1 if s['nest'] else 0)}" + (" (Crow's nest manned)" if s["nest"] else ""),
        f"Clues aboard: {s['clues']}   brought to port: {s['delivered']}",
        "In port (safe)" if s["in_port"] else f"Facing {DIR_NAMES[s['facing']]}",
    ]
    for line in info:
        draw.text((lx, ly), line, font=font(14), fill=INK)
        ly += 21
    ly += 6
    for kind, name in (("artillery", "gun"), ("navigation", "navigation"), ("crows_nest", "crow's nest"),
                       ("blank", "blank")):
        draw.ellipse([lx, ly, lx + 12, ly + 12], fill=KIND_COLOURS[kind])
        draw.text((lx + 18, ly - 1), name, font=font(13), fill=INK)
        lx += 24 + 8 * len(name)
    lx = 750
    ly += 20
    crew_txt = ", ".join(f"{crew_names[k] if k < len(crew_names) else k}@{board[n]['short']}"
                         for k, n in enumerate(s["crew"]))
    draw.text((lx, ly), f"Crew: {crew_txt}", font=font(13), fill=INK)


def render(view: dict, names: list[str] | None = None) -> bytes:
    m = map_of_view(view)
    map_w = int(MAP_X + W * (m.width + 0.5) + 16)
    map_h = int(MAP_Y + R * (1.5 * (m.height - 1) + 2) + 16)
    width = map_w + PANEL_W
    acts = len(view.get("activations") or [])
    panel_h = 250 + 18 * (len(view["ships"]) + max(1, len(view["enemies"]))) + 250 + 17 * min(5, acts)
    height = max(map_h, 560, panel_h)
    board_h = 250 if view.get("my_ship") else 0
    img, draw = canvas(width, height + board_h, PARCHMENT)
    draw.rectangle([0, 0, map_w, height], fill=SEA)
    _draw_map(img, view, names)
    legend = ["Anchor: port (safe; repairs; clues count there)   ? clue site   S enemy spawn   swirl: the Rift",
              "Red dots: enemy artillery reach   faint red ring: Engagement Range   orange: last enemy path"]
    for i, line in enumerate(legend):
        draw.text((MAP_X - 24, map_h - 8 + 17 * i), line, font=font(13), fill=(200, 214, 228))
    _draw_panel(img, view, names, map_w)
    if board_h:
        _draw_ship_board(img, view, names, height)
    return to_png(img)
