"""The table image of Enemy in Sight: every player's Line, prizes, port and cards in play; the hand below
when the view is a player's own."""

from __future__ import annotations

from PIL import ImageDraw

from rendering import theme
from rendering.theme import font

WIDTH = 1560
INFO_W = 250
ROW_H = 132
CARD_H = 112
HEADER_H = 62
EVENTS_LINE = 20
HAND_H = 150
RESERVE_H = 76  # Advanced variant: the Reserve row under each Line
TARGET = (60, 200, 90)

NATION_COLOURS = {
    "GB": ((176, 30, 40), (255, 255, 255)),
    "FR": ((30, 60, 150), (255, 255, 255)),
    "ES": ((230, 180, 30), (120, 20, 20)),
    "NL": ((230, 110, 20), (255, 255, 255)),
    "US": ((40, 50, 110), (230, 230, 230)),
}
KIND_COLOURS = {"broadside": (40, 40, 40), "rake": (110, 110, 110), "btl": (120, 60, 160), "fire": (230, 110, 20)}
FIRE = (240, 120, 20)


def _name(names, seat: int) -> str:
    if names and seat < len(names) and names[seat]:
        return str(names[seat])
    return theme.SEAT_NAMES[seat % len(theme.SEAT_NAMES)]


def _fit(draw: ImageDraw.ImageDraw, text: str, size: int, width: int) -> str:
    if theme.text_size(draw, text, size)[0] <= width:
        return text
    while text and theme.text_size(draw, text + "…", size)[0] > width:
        text = text[:-1]
    return text + "…"


def _bar(draw, x, y, w, h, left, full, colour):
    full = max(full, 1)
    seg = w / full
    for i in range(full):
        x0 = x + i * seg
        fill = colour if i < left else (200, 190, 170)
        draw.rectangle([x0 + 1, y, x0 + seg - 1, y + h], fill=fill)


def _ship_card(draw, x, y, w, s: dict, *, prize=False, highlight=None, small=False):
    h = CARD_H if not small else 70
    bg = (246, 238, 218) if not prize else (226, 222, 240)
    if s.get("dismasted"):
        bg = (214, 206, 190)
    outline = highlight or theme.INK_SOFT
    draw.rounded_rectangle([x, y, x + w, y + h], radius=6, fill=bg, outline=outline, width=3 if highlight else 1)
    flag, fg = NATION_COLOURS.get(s["nation"], (theme.GREY, theme.WHITE))
    draw.rounded_rectangle([x + 2, y + 2, x + w - 2, y + 18], radius=4, fill=flag)
    draw.text((x + 6, y + 4), f"{s['nation']}", font=font(12), fill=fg)
    rate_txt = f"rate {s['rate']}"
    draw.text((x + w - 6, y + 4), rate_txt, font=font(12), fill=fg, anchor="ra")
    draw.text((x + 5, y + 21), _fit(draw, s["name"], 13, w - 10), font=font(13), fill=theme.INK)
    hl = max(0, s["hull"] - s["hull_dmg"])
    rl = max(0, s["rig"] - s["rig_dmg"])
    if small:
        draw.text((x + 5, y + 40), f"H {hl}/{s['hull']}  R {rl}/{s['rig']}", font=font(12), fill=theme.INK)
        return
    draw.text((x + 5, y + 39), "H", font=font(12), fill=theme.INK)
    _bar(draw, x + 18, y + 41, w - 48, 9, hl, s["hull"], (70, 130, 70))
    draw.text((x + w - 5, y + 38), f"{hl}", font=font(12), fill=theme.INK, anchor="ra")
    draw.text((x + 5, y + 54), "R", font=font(12), fill=theme.INK)
    _bar(draw, x + 18, y + 56, w - 48, 9, rl, s["rig"], (60, 100, 170))
    draw.text((x + w - 5, y + 53), f"{rl}", font=font(12), fill=theme.INK, anchor="ra")
    # hit cards
    hx = x + 5
    for hit in s["hits"][:8]:
        col = KIND_COLOURS.get(hit["kind"], theme.INK)
        draw.rectangle([hx, y + 70, hx + 12, y + 84], fill=col)
        draw.text((hx + 6, y + 77), str(hit["dmg"]), font=font(10), fill=theme.WHITE, anchor="mm")
        draw.text((hx + 6, y + 86), "H" if hit["loc"] == "hull" else "R", font=font(9), fill=theme.INK_SOFT,
                  anchor="ma")
        hx += 14
    # markers
    mx = x + 5
    my = y + h - 14
    if s["fires"]:
        draw.ellipse([mx, my - 4, mx + 14, my + 10], fill=FIRE)
        draw.text((mx + 7, my + 3), "F" if len(s["fires"]) == 1 else str(len(s["fires"])), font=font(10),
                  fill=theme.WHITE, anchor="mm")
        mx += 18
    if s.get("breaker"):
        draw.rectangle([mx, my - 3, mx + 30, my + 9], fill=(120, 60, 160))
        draw.text((mx + 15, my + 3), "BRK", font=font(10), fill=theme.WHITE, anchor="mm")
        mx += 34
    if s.get("immune"):
        draw.rectangle([mx, my - 3, mx + 22, my + 9], fill=theme.OK)
        draw.text((mx + 11, my + 3), "RB", font=font(10), fill=theme.WHITE, anchor="mm")
        mx += 26
    if s.get("dismasted"):
        draw.text((x + w - 5, my + 3), "DISMASTED", font=font(10), fill=theme.DANGER, anchor="rm")
    if s.get("struck"):
        draw.rectangle([x + 2, y + 30, x + w - 2, y + 50], fill=theme.WHITE, outline=theme.DANGER)
        draw.text((x + w / 2, y + 40), "STRUCK", font=font(13), fill=theme.DANGER, anchor="mm")


def _hand_card(draw, x, y, w, h, c: dict, chosen=False):
    red = c.get("red")
    head = theme.RED_DARK if red else (30, 30, 30)
    draw.rounded_rectangle([x, y, x + w, y + h], radius=8, fill=(250, 245, 232),
                           outline=theme.HIGHLIGHT if chosen else head, width=3 if chosen else 2)
    draw.rounded_rectangle([x + 3, y + 3, x + w - 3, y + 24], radius=6, fill=head)
    title = {"broadside": "BROADSIDE", "rake": "RAKE", "break_line": "BREAK LINE", "repair": "REPAIR",
             "bucket": "BUCKETS", "boarding": "BOARDING", "additional_ship": "NEW SHIP",
             "refuse_battle": "REFUSE", "fire_ship": "FIRE SHIP", "blockade": "BLOCKADE",
             "weathergauge": "WEATHER", "fire": "FIRE", "strike": "STRIKE", "run_aground": "AGROUND",
             "admiralty": "ADMIRALTY"}.get(c["type"], c["type"].upper())
    draw.text((x + w / 2, y + 14), title, font=font(12), fill=theme.WHITE, anchor="mm")
    if c["type"] in ("broadside", "rake"):
        draw.text((x + w / 2, y + 62), str(c["damage"]), font=font(40), fill=theme.INK, anchor="mm")
        sub = ("any ship" if c["type"] == "rake" else
               "1st rates only" if c["rate"] == 1 else f"ships of rate 1-{c['rate']}")
        draw.text((x + w / 2, y + 98), sub, font=font(12), fill=theme.INK_SOFT, anchor="mm")
    elif c["type"] == "break_line":
        flag, fg = NATION_COLOURS.get(c["nation"], (theme.GREY, theme.WHITE))
        draw.rectangle([x + 20, y + 42, x + w - 20, y + 78], fill=flag)
        draw.text((x + w / 2, y + 60), c["nation"], font=font(18), fill=fg, anchor="mm")
    elif c["type"] == "fire":
        hm = c["hull_max"]
        draw.text((x + w / 2, y + 52), f"Hull 1-{hm}", font=font(13), fill=theme.INK, anchor="mm")
        draw.text((x + w / 2, y + 72), f"Rig {hm + 1}-6", font=font(13), fill=theme.INK, anchor="mm")
    else:
        words = c["name"].split()
        for i, wd in enumerate(words[:3]):
            draw.text((x + w / 2, y + 50 + 18 * i), wd, font=font(14), fill=theme.INK, anchor="mm")
    if red:
        draw.text((x + w / 2, y + h - 14), "red: must play", font=font(11), fill=theme.RED_DARK, anchor="mm")


def _station(draw, x, y, k: int, colour=None):
    draw.rounded_rectangle([x - 4, y - 4, x + 18, y + 12], radius=4, fill=colour or theme.INK)
    draw.text((x + 7, y + 4), str(k), font=font(11), fill=theme.WHITE, anchor="mm")


def render(view: dict, names: list[str] | None = None) -> bytes:
    n = view["players"]
    fleets = view["fleets"]
    hand = view.get("hand")
    events = view.get("last_events", [])[-4:]
    adv = view.get("variant") == "advanced"
    row_h = ROW_H + (RESERVE_H if adv else 0)
    height = HEADER_H + n * row_h + 12 + EVENTS_LINE * max(1, len(events)) + 14
    if hand is not None:
        height += HAND_H + 28
    img, draw = theme.canvas(WIDTH, height, theme.SEA)
    to_act = set(view.get("to_act", []))
    last = view.get("last") or {}
    hit_ids = set(last.get("ships", []))
    firer = last.get("firer")
    pend = view.get("pending") or {}
    may_fire = set(pend.get("may_fire_at") or [])  # own view, a firing ship chosen: its legal targets
    if may_fire:
        hit_ids, firer = set(), pend.get("firer")
    arranging = view.get("arranging")

    # ---- header
    draw.rectangle([0, 0, WIDTH, HEADER_H], fill=theme.SEA_DARK)
    draw.text((16, 10), "Enemy in Sight", font=font(26), fill=theme.GOLD)
    status = f"Round {view['round']}   ·   Dealer: {_name(names, view['dealer'])}"
    if view.get("over"):
        res = view.get("result") or {}
        status += "   ·   GAME OVER - winner: " + ", ".join(_name(names, w) for w in res.get("winners", []))
    elif view.get("boarding"):
        b = view["boarding"]
        status += (f"   ·   BOARDING: {_name(names, b['att'])} vs {_name(names, b['def'])} - "
                   "secret cards being chosen")
    elif view.get("capture"):
        status += f"   ·   {_name(names, view['capture']['captor'])} decides: Line or Prize"
    elif arranging:
        status += ("   ·   SECRET SET-UP: Lines & Reserves are being formed" if arranging["phase"] == "arrange"
                   else "   ·   Lines revealed: Reserve ships may join, largest ship may move once")
    elif may_fire:
        status += f"   ·   Turn: {_name(names, view['turn'])} - green: stations your ship may fire at"
    else:
        status += f"   ·   Turn: {_name(names, view['turn'])}"
    draw.text((16, 40), status, font=font(15), fill=theme.WHITE)
    top = view["ship_deck"].get("top")
    deck_txt = (f"Ship pile {view['ship_deck']['count']}" + (f" (next: {top['name']}, {top['nation']} {top['rate']})"
                                                                if top else "")
                + f"   ·   Action deck {view['action_deck']}   ·   Discards {view['discard']}"
                + f"   ·   First to {view.get('target_vp', 100)} VP")
    draw.text((WIDTH - 16, 14), deck_txt, font=font(14), fill=theme.PARCHMENT, anchor="ra")

    # ---- fleets
    if adv:
        mine = view.get("arrange") or {}
        max_cards = max([len(f["line"]) for f in fleets] + [len(f.get("reserve", [])) for f in fleets]
                        + [len(mine.get("line", [])), len(mine.get("reserve", [])), 6])
    else:
        max_cards = max([len(f["line"]) + len(f["prizes"]) for f in fleets] + [6])
    avail = WIDTH - INFO_W - 30 - (16 if any(f["prizes"] for f in fleets) else 0)
    card_w = max(78, min(132, avail // max_cards - 6))
    btls = view["in_play"]["btl"]
    blocks = view["in_play"]["blockade"]
    for i, f in enumerate(fleets):
        p = f["seat"]
        y0 = HEADER_H + 6 + i * row_h
        colour = theme.SEAT_COLOURS[p % len(theme.SEAT_COLOURS)]
        active = p in to_act and not view.get("over")
        draw.rectangle([6, y0, WIDTH - 6, y0 + row_h - 6], fill=theme.SEA_LIGHT if active else theme.SEA,
                       outline=theme.HIGHLIGHT if active else theme.GRID, width=3 if active else 1)
        draw.rectangle([10, y0 + 4, 22, y0 + row_h - 10], fill=colour)
        label = _name(names, p)
        cname = theme.SEAT_NAMES[p % len(theme.SEAT_NAMES)]
        if label != cname:
            label = f"{label} ({cname})"
        nm = _fit(draw, label, 18, INFO_W - 80)
        draw.text((30, y0 + 6), nm, font=font(18), fill=theme.WHITE)
        draw.text((INFO_W - 8, y0 + 4), f"{view['scores'][p]}", font=font(24), fill=theme.GOLD, anchor="ra")
        draw.text((INFO_W - 8, y0 + 30), "VP", font=font(11), fill=theme.PARCHMENT, anchor="ra")
        line2 = f"hand {f['hand_count']}/{f['capacity']}"
        if f["sunk_count"]:
            line2 += f" · sunk {f['sunk_count']}: +{f['sunk_vp']}"
        draw.text((30, y0 + 30), line2, font=font(12), fill=theme.PARCHMENT)
        tags = []
        if p == view["dealer"]:
            tags.append(("DEALER", theme.GOLD, theme.INK))
        if active:
            tags.append(("TO ACT", theme.HIGHLIGHT, theme.INK))
        if f["refuse_battle"]:
            tags.append(("REFUSE BATTLE", theme.OK, theme.WHITE))
        for b in btls:
            if b["target"] == p:
                tags.append((f"BROKEN by {_name(names, b['by'])[:8]} ({b['nation']})", (120, 60, 160), theme.WHITE))
        for k in blocks:
            if k["target"] == p:
                tags.append((f"BLOCKADED by {_name(names, k['by'])[:8]}", theme.RED_DARK, theme.WHITE))
        tx, ty = 30, y0 + 48
        for text, bg, fg in tags:
            tw = theme.text_size(draw, text, 11)[0] + 10
            if tx + tw > INFO_W:
                tx, ty = 30, ty + 18
            draw.rounded_rectangle([tx, ty, tx + tw, ty + 15], radius=4, fill=bg)
            draw.text((tx + 5, ty + 2), text, font=font(11), fill=fg)
            tx += tw + 4
        port = f["port"]
        port_txt = "Port: " + (", ".join(s["name"] for s in port) if port else "empty")
        draw.text((30, y0 + row_h - 26), _fit(draw, port_txt, 12, INFO_W - 30), font=font(12),
                  fill=theme.PARCHMENT)
        if adv:
            _adv_fleet(draw, view, f, y0, card_w, hit_ids, firer, may_fire, names)
            continue
        # line
        x = INFO_W + 10
        cy = y0 + 6
        if not f["line"]:
            draw.text((x + 8, cy + CARD_H / 2), "no ship in Line (-15 VP at round end)", font=font(14),
                      fill=theme.PARCHMENT, anchor="lm")
            x += 300
        for s in f["line"]:
            hl = theme.HIGHLIGHT if s["id"] in hit_ids else (theme.OK if s["id"] == firer else None)
            _ship_card(draw, x, cy, card_w, s, highlight=hl)
            x += card_w + 6
        if f["prizes"]:
            draw.line([x + 2, cy, x + 2, cy + CARD_H], fill=theme.GOLD, width=2)
            draw.text((x + 8, cy - 2), "PRIZES", font=font(10), fill=theme.GOLD)
            x += 10
            for s in f["prizes"]:
                hl = theme.HIGHLIGHT if s["id"] in hit_ids else None
                _ship_card(draw, x, cy + 10, card_w, s, prize=True, highlight=hl, small=True)
                x += card_w + 6

    # ---- events
    ey = HEADER_H + n * row_h + 10
    for j, text in enumerate(events):
        fill = theme.WHITE if j == len(events) - 1 else theme.PARCHMENT
        draw.text((16, ey), _fit(draw, ("> " if j == len(events) - 1 else "  ") + text, 15, WIDTH - 32),
                  font=font(15), fill=fill)
        ey += EVENTS_LINE

    # ---- hand
    if hand is not None:
        hy = height - HAND_H - 20
        draw.rectangle([0, hy - 8, WIDTH, height], fill=theme.SEA_DARK)
        seat = view.get("seat")
        who = _name(names, seat) if seat is not None else ""
        bchoice = ((view.get("boarding") or {}).get("my_choice") or {}).get("id")
        note = ""
        if bchoice:
            note = "  (highlighted: your secret boarding card)"
        elif view.get("boarding") and seat in (view["boarding"]["att"], view["boarding"]["def"]):
            note = "  (boarding: choose your secret card)"
        draw.text((16, hy - 2), f"{who}'s hand{note}", font=font(14), fill=theme.GOLD)
        chosen = pend.get("card")
        cw, ch = 104, HAND_H - 16
        if len(hand) > 13:
            cw = max(70, (WIDTH - 32) // len(hand) - 10)
        for k, c in enumerate(hand[:20]):
            _hand_card(draw, 16 + k * (cw + 10), hy + 16, cw, ch, c, chosen=c["id"] in (chosen, bchoice))
        if not hand:
            draw.text((16, hy + 40), "(no cards)", font=font(14), fill=theme.PARCHMENT)
    return theme.to_png(img)


def _adv_fleet(draw, view: dict, f: dict, y0: int, card_w: int, hit_ids: set, firer, may_fire: set, names) -> None:
    """Advanced variant: numbered Line stations, the Reserve row below, legal targets in green; during the
    secret set-up only the viewer's own arrangement is drawn."""
    p = f["seat"]
    arranging = view.get("arranging")
    own = view.get("arrange") if p == view.get("seat") else None
    line, reserve = f["line"], f.get("reserve", [])
    x0 = INFO_W + 10
    cy = y0 + 6
    ry = y0 + ROW_H - 4
    note = None
    if own:
        line, reserve = own["line"], own["reserve"]
        note = ("your secret arrangement - nobody else sees it" if own["phase"] == "arrange"
                else "your revision - shown to all when everyone is done")
        if own["done"]:
            note += " (submitted)" if own["phase"] == "arrange" else " (done)"
    elif arranging and arranging["phase"] == "arrange":
        ready = p in arranging["done"]
        draw.text((x0 + 8, cy + CARD_H / 2), f"{arranging['ships'][p]} ships: Line & Reserve formed in secret - "
                  + ("READY" if ready else "still arranging"), font=font(15),
                  fill=theme.GOLD if ready else theme.PARCHMENT, anchor="lm")
        return
    elif arranging and p in arranging["done"]:
        note = "done revising"
    x = x0 + 4
    if not line:
        draw.text((x + 8, cy + CARD_H / 2), "no ship in Line (-15 VP at round end)", font=font(14),
                  fill=theme.PARCHMENT, anchor="lm")
    for k, s in enumerate(line):
        target = s["id"] in may_fire
        hl = (TARGET if target else theme.HIGHLIGHT if s["id"] in hit_ids else
              theme.OK if s["id"] == firer else None)
        _ship_card(draw, x, cy, card_w, s, highlight=hl)
        _station(draw, x + card_w // 2 - 7, cy + 6, k + 1, TARGET if target else None)
        x += card_w + 6
    if note:
        draw.text((WIDTH - 16, cy - 4), note, font=font(11), fill=theme.GOLD, anchor="ra")
    # Reserve row
    draw.line([x0, ry - 3, WIDTH - 16, ry - 3], fill=theme.GRID, width=1)
    draw.text((x0 - 4, ry + 2), "RESERVE", font=font(10), fill=theme.GOLD, anchor="ra")
    x = x0 + 4
    if not reserve:
        draw.text((x + 8, ry + 30), "Reserve empty", font=font(12), fill=theme.PARCHMENT, anchor="lm")
    for k, s in enumerate(reserve):
        target = s["id"] in may_fire
        hl = TARGET if target else theme.HIGHLIGHT if s["id"] in hit_ids else None
        _ship_card(draw, x, ry + 2, card_w, s, prize=bool(s.get("prize")), highlight=hl, small=True)
        _station(draw, x + card_w // 2 - 7, ry + 8, k + 1, TARGET if target else None)
        if s.get("prize"):
            draw.text((x + 5, ry + 56), "PRIZE", font=font(10), fill=theme.RED_DARK)
        x += card_w + 6
