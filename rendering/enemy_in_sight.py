"""The table image of Enemy in Sight, laid out for a chat column: one block per player, top to bottom
(badge, name, VP, hand and port, then the Line as a row of ship tiles), the last events, and the hand
(large) when the view is a player's own.

A ship tile: the nation's band with nation and rate (and in the Advanced variant the station: 1, 2, …
in the Line, R1, R2, … in the Reserve; P marks a prize), the ship's name, ``H`` Hull and ``R`` Rigging
left, and a row of word markers when something is on it (FIRE, STRUCK, DISM, BRK, RB, HIT, TARGET).
"""

from __future__ import annotations

from PIL import ImageDraw

from rendering import theme
from rendering.theme import chip, fit, font, text_width, wrap

WIDTH = theme.MAX_WIDTH
F = theme.min_font(WIDTH)  # 24: the smallest text
FN = F + 4  # names
FT = F + 10  # title
PAD = 10
GAP = 6
TILE_ROW = 30
TARGET = (60, 200, 90)

NATION_COLOURS = {
    "GB": ((176, 30, 40), (255, 255, 255)),
    "FR": ((30, 60, 150), (255, 255, 255)),
    "ES": ((230, 180, 30), (90, 10, 10)),
    "NL": ((230, 110, 20), (20, 20, 20)),
    "US": ((40, 50, 110), (230, 230, 230)),
}
FIRE = (240, 120, 20)
TILE_BG = (246, 238, 218)
PRIZE_BG = (222, 218, 240)
RESERVE_BG = (214, 224, 214)
DISMASTED_BG = (208, 200, 184)
HULL_INK = (34, 110, 50)
RIG_INK = (36, 80, 160)
CARD_TITLES = {
    "broadside": "BROADSIDE",
    "rake": "RAKE",
    "break_line": "BREAK LINE",
    "repair": "REPAIR",
    "bucket": "BUCKETS",
    "boarding": "BOARDING",
    "additional_ship": "NEW SHIP",
    "refuse_battle": "REFUSE",
    "fire_ship": "FIRE SHIP",
    "blockade": "BLOCKADE",
    "weathergauge": "WEATHER",
    "fire": "FIRE",
    "strike": "STRIKE",
    "run_aground": "AGROUND",
    "admiralty": "ADMIRALTY",
}


def _name(names, seat: int) -> str:
    return theme.display_name(names, seat)


# ------------------------------------------------------------------ ship tiles
def _markers(s: dict, mark: str | None) -> list[tuple[str, str, tuple]]:
    """(long word, short word, colour) for what is on a ship."""
    out = []
    if mark == "target":
        out.append(("TARGET", "T", TARGET))
    elif mark == "hit":
        out.append(("HIT", "HIT", (150, 110, 0)))
    elif mark == "firer":
        out.append(("FIRING", "FIR", theme.OK))
    if s.get("struck"):
        out.append(("STRUCK", "S", theme.DANGER))
    if s["fires"]:
        n = len(s["fires"])
        out.append(("FIRE" if n == 1 else f"FIRE {n}", "F" if n == 1 else f"F{n}", FIRE))
    if s.get("dismasted"):
        out.append(("DISM", "D", (90, 80, 70)))
    if s.get("breaker"):
        out.append(("BRK", "B", (120, 60, 160)))
    if s.get("immune"):
        out.append(("RB", "RB", theme.OK))
    return out


def _tile_h(with_markers: bool) -> int:
    return 3 * TILE_ROW + 16 + (TILE_ROW + 4 if with_markers else 0)


def _ship_tile(
    draw: ImageDraw.ImageDraw,
    x: float,
    y: float,
    w: float,
    h: float,
    s: dict,
    *,
    station: str | None = None,
    kind: str = "line",
    mark: str | None = None,
) -> None:
    bg = {"prize": PRIZE_BG, "reserve": RESERVE_BG}.get(kind, TILE_BG)
    if s.get("dismasted"):
        bg = DISMASTED_BG
    edge = {"target": TARGET, "hit": theme.HIGHLIGHT, "firer": theme.OK}.get(mark or "")
    draw.rounded_rectangle(
        (x, y, x + w, y + h), radius=7, fill=bg, outline=edge or theme.PANEL_DARK, width=5 if edge else 1
    )
    flag, fg = NATION_COLOURS.get(s["nation"], (theme.GREY, theme.WHITE))
    draw.rounded_rectangle((x + 3, y + 3, x + w - 3, y + 3 + TILE_ROW), radius=5, fill=flag)
    tx = x + 8
    if station:
        sw = max(TILE_ROW - 2, text_width(station, F) + 10)
        draw.rounded_rectangle(
            (x + 4, y + 4, x + 4 + sw, y + 2 + TILE_ROW),
            radius=5,
            fill=TARGET if mark == "target" else theme.PANEL_DARK,
        )
        draw.text(
            (x + 4 + sw / 2, y + 3 + TILE_ROW / 2), station, font=font(F), fill=theme.WHITE, anchor="mm"
        )
        tx = x + 10 + sw
    draw.text((tx, y + 3 + TILE_ROW / 2), f"{s['nation']} {s['rate']}", font=font(F), fill=fg, anchor="lm")
    cy = y + 4 + TILE_ROW * 1.5
    draw.text((x + 7, cy), fit(s["name"], F, w - 12), font=font(F), fill=theme.INK, anchor="lm")
    hl = max(0, s["hull"] - s["hull_dmg"])
    rl = max(0, s["rig"] - s["rig_dmg"])
    cy += TILE_ROW - 2
    hx = x + 7
    draw.text((hx, cy), f"H{hl}", font=font(F), fill=HULL_INK if hl else theme.DANGER, anchor="lm")
    hx += text_width(f"H{hl}", F) + 8
    draw.text((hx, cy), f"R{rl}", font=font(F), fill=RIG_INK if rl else theme.DANGER, anchor="lm")
    # how much of Hull and Rigging is left, as two thin bars under the numbers
    bw = w - 14
    for k, (left, full, col) in enumerate(((hl, s["hull"], HULL_INK), (rl, s["rig"], RIG_INK))):
        by = y + TILE_ROW * 3 + 5 + k * 5
        draw.rectangle((x + 7, by, x + 7 + bw, by + 3), fill=(200, 190, 170))
        if full:
            draw.rectangle((x + 7, by, x + 7 + bw * left / full, by + 3), fill=col)
    marks = _markers(s, mark)
    if marks and h > _tile_h(False):
        my = y + 18 + TILE_ROW * 3
        words = [m[0] for m in marks]
        if sum(text_width(t, F) + 12 + 4 for t in words) > w - 8:
            words = [m[1] for m in marks]
        mx = x + 5
        for word, (_, _, col) in zip(words, marks, strict=True):
            if mx + text_width(word, F) + 12 > x + w - 3:
                break
            mx += chip(draw, mx, my, word, F, col, theme.WHITE, pad=6) + 4


def _flow(draw, x0: float, y: float, width: float, tiles: list, per_row: int) -> float:
    """Draw ``tiles`` ((ship, station, kind, mark)) in rows of ``per_row``; returns the y below them."""
    if not tiles:
        return y
    w = (width - GAP * (per_row - 1)) / per_row
    for start in range(0, len(tiles), per_row):
        row = tiles[start : start + per_row]
        h = _tile_h(any(_markers(s, mark) for s, _, _, mark in row))
        for k, (s, station, kind, mark) in enumerate(row):
            _ship_tile(draw, x0 + k * (w + GAP), y, w, h, s, station=station, kind=kind, mark=mark)
        y += h + GAP
    return y


# ------------------------------------------------------------------ hand cards
def _hand_card(draw, x, y, w, h, c: dict, chosen=False):
    red = c.get("red")
    head = theme.RED_DARK if red else (30, 30, 30)
    draw.rounded_rectangle(
        (x, y, x + w, y + h),
        radius=9,
        fill=(250, 245, 232),
        outline=theme.HIGHLIGHT if chosen else head,
        width=6 if chosen else 2,
    )
    draw.rounded_rectangle((x + 4, y + 4, x + w - 4, y + 40), radius=7, fill=head)
    title = CARD_TITLES.get(c["type"], c["type"].upper())
    draw.text((x + w / 2, y + 22), fit(title, F, w - 12), font=font(F), fill=theme.WHITE, anchor="mm")
    mid = y + 40 + (h - 40 - (34 if red else 0)) / 2
    if c["type"] in ("broadside", "rake"):
        draw.text((x + w / 2, mid - 12), str(c["damage"]), font=font(56), fill=theme.INK, anchor="mm")
        sub = "any ship" if c["type"] == "rake" else "1st rates" if c["rate"] == 1 else f"rates 1-{c['rate']}"
        draw.text((x + w / 2, mid + 30), sub, font=font(F), fill=theme.INK_SOFT, anchor="mm")
    elif c["type"] == "break_line":  # no nation: any nation's ships may break the line
        draw.text((x + w / 2, mid - 16), "2 Hull + 2 Rig", font=font(F), fill=theme.INK, anchor="mm")
        draw.text((x + w / 2, mid + 16), "to a whole Line", font=font(F), fill=theme.INK_SOFT, anchor="mm")
    elif c["type"] == "fire":
        hm = c["hull_max"]
        draw.text((x + w / 2, mid - 16), f"Hull 1-{hm}", font=font(F), fill=theme.INK, anchor="mm")
        draw.text((x + w / 2, mid + 16), f"Rig {hm + 1}-6", font=font(F), fill=theme.INK, anchor="mm")
    else:
        lines = wrap(c["name"], F, w - 16, max_lines=2)
        for i, line in enumerate(lines):
            draw.text(
                (x + w / 2, mid + (i - (len(lines) - 1) / 2) * 30),
                line,
                font=font(F),
                fill=theme.INK,
                anchor="mm",
            )
    if red:
        draw.rounded_rectangle((x + 4, y + h - 38, x + w - 4, y + h - 4), radius=7, fill=(246, 214, 208))
        draw.text((x + w / 2, y + h - 21), "MUST PLAY", font=font(F), fill=theme.RED_DARK, anchor="mm")
    if chosen:
        chip(draw, x + w - text_width("CHOSEN", F) - 20, y - 14, "CHOSEN", F, theme.HIGHLIGHT, theme.INK)


# ------------------------------------------------------------------ header
def _status(view: dict, names) -> str:
    arranging = view.get("arranging")
    pend = view.get("pending") or {}
    if view.get("over"):
        res = view.get("result") or {}
        return "GAME OVER. Winner: " + ", ".join(_name(names, w) for w in res.get("winners", []))
    if view.get("boarding"):
        b = view["boarding"]
        return f"BOARDING: {_name(names, b['att'])} vs {_name(names, b['def'])}, secret cards being chosen"
    if view.get("capture"):
        return f"{_name(names, view['capture']['captor'])} decides: Line or Prize"
    if arranging:
        return (
            "SECRET SET-UP: Lines and Reserves are being formed"
            if arranging["phase"] == "arrange"
            else "Lines revealed: Reserve ships may join, the largest ship may move once"
        )
    if pend.get("may_fire_at"):
        return f"Turn: {_name(names, view['turn'])}. TARGET: the ships your ship may fire at"
    return f"Turn: {_name(names, view['turn'])}"


def _header(draw, view: dict, names, y: float) -> float:
    draw.text((PAD, y), "Enemy in Sight", font=font(FT), fill=theme.GOLD)
    draw.text(
        (WIDTH - PAD, y + FT - F),
        f"Round {view['round']} · first to {view.get('target_vp', 100)} VP",
        font=font(F),
        fill=theme.TEXT_SOFT,
        anchor="ra",
    )
    y += FT + 10
    for line in wrap(_status(view, names), FN, WIDTH - 2 * PAD, max_lines=2):
        draw.text((PAD, y), line, font=font(FN), fill=theme.TEXT)
        y += FN + 6
    top = view["ship_deck"].get("top")
    deck = (
        f"Ship pile {view['ship_deck']['count']}"
        + (f" (next: {top['name']}, {top['nation']} {top['rate']})" if top else "")
        + f" · Actions {view['action_deck']} · Discards {view['discard']}"
    )
    for line in wrap(deck, F, WIDTH - 2 * PAD, max_lines=2):
        draw.text((PAD, y), line, font=font(F), fill=theme.TEXT_SOFT)
        y += F + 6
    return y + 4


# ------------------------------------------------------------------ fleets
def _fleet(draw, view: dict, f: dict, y0: float, names, marks: dict) -> float:
    p = f["seat"]
    adv = view.get("variant") == "advanced"
    to_act = set(view.get("to_act", []))
    active = p in to_act and not view.get("over")
    x0, x1 = PAD, WIDTH - PAD
    inner = x0 + 16
    y = y0 + 8
    # first line: badge, name, VP; then the tags
    theme.seat_badge(draw, inner + 18, y + FN / 2 + 2, p, F)
    vp = f"{view['scores'][p]} VP"
    vp_w = text_width(vp, FN)
    draw.text((x1 - 10, y), vp, font=font(FN), fill=theme.GOLD, anchor="ra")
    nx = inner + 44
    head_tags = []
    if active:
        head_tags.append(("TO ACT", theme.HIGHLIGHT, theme.INK))
    if p == view["dealer"]:
        head_tags.append(("DEALER", theme.GOLD, theme.INK))
    tags_w = sum(text_width(t, F) + 20 for t, _, _ in head_tags)
    name = fit(_name(names, p), FN, x1 - 24 - vp_w - nx - tags_w)
    draw.text((nx, y), name, font=font(FN), fill=theme.TEXT)
    tx = nx + text_width(name, FN) + 12
    for text, bg, fg in head_tags:
        tx += chip(draw, tx, y + 1, text, F, bg, fg) + 8
    y += FN + 12
    tags = []
    if f["refuse_battle"]:
        tags.append(("REFUSE BATTLE", theme.OK, theme.WHITE))
    for b in view["in_play"]["btl"]:
        if b["target"] == p:
            tags.append((f"LINE BROKEN by {_name(names, b['by'])}", (120, 60, 160), theme.WHITE))
    for k in view["in_play"]["blockade"]:
        if k["target"] == p:
            tags.append((f"BLOCKADED by {_name(names, k['by'])}", theme.RED_DARK, theme.WHITE))
    tx = inner
    for text, bg, fg in tags:
        text = fit(text, F, x1 - inner - 24)
        tw = text_width(text, F) + 12
        if tx > inner and tx + tw > x1 - 8:
            tx, y = inner, y + F + 12
        chip(draw, tx, y, text, F, bg, fg)
        tx += tw + 8
    if tags:
        y += F + 12
    cards = f["hand_count"]
    info = f"{cards} card{'' if cards == 1 else 's'} in hand, draws up to {f['capacity']}"
    if f["sunk_count"]:
        info += f" · sunk {f['sunk_count']} (+{f['sunk_vp']})"
    port = f["port"]
    info += " · Port: " + (", ".join(s["name"] for s in port) if port else "empty")
    draw.text((inner, y), fit(info, F, x1 - inner - 8), font=font(F), fill=theme.TEXT_SOFT)
    y += F + 12
    # ships
    count = len(f["line"]) + len(f["prizes"]) + len(f.get("reserve", []))
    if adv and p == view.get("seat") and view.get("arrange"):
        count = len(view["arrange"]["line"]) + len(view["arrange"]["reserve"])
    per_row = 6 if count <= 6 else 7
    width = x1 - 8 - inner
    if adv:
        y = _adv_ships(draw, view, f, inner, y, width, per_row, marks)
    else:
        tiles: list[tuple[dict, str | None, str, str | None]]
        tiles = [(s, None, "line", marks.get(s["id"])) for s in f["line"]]
        tiles += [(s, "P", "prize", marks.get(s["id"])) for s in f["prizes"]]
        if not f["line"]:
            draw.text((inner, y), "No ship in Line (-15 VP at round end)", font=font(F), fill=theme.GOLD)
            y += F + 12
        y = _flow(draw, inner, y, width, tiles, per_row)
    return y + 4


def _adv_ships(
    draw, view: dict, f: dict, x: float, y: float, width: float, per_row: int, marks: dict
) -> float:
    """Advanced variant: stations 1, 2, … in the Line and R1, R2, … in the Reserve; during the secret
    set-up only the viewer's own arrangement is drawn."""
    p = f["seat"]
    arranging = view.get("arranging")
    own = view.get("arrange") if p == view.get("seat") else None
    line, reserve = f["line"], f.get("reserve", [])
    note = None
    if own:
        line, reserve = own["line"], own["reserve"]
        note = (
            "Your secret arrangement: nobody else sees it"
            if own["phase"] == "arrange"
            else "Your revision: shown to all when everyone is done"
        )
        if own["done"]:
            note += " (submitted)" if own["phase"] == "arrange" else " (done)"
    elif arranging and arranging["phase"] == "arrange":
        ready = p in arranging["done"]
        text = f"{arranging['ships'][p]} ships: Line and Reserve formed in secret, " + (
            "READY" if ready else "still arranging"
        )
        for ln in wrap(text, F, width, max_lines=2):
            draw.text((x, y), ln, font=font(F), fill=theme.GOLD if ready else theme.TEXT_SOFT)
            y += F + 8
        return y + 4
    elif arranging and p in arranging["done"]:
        note = "Done revising"
    if note:
        draw.text((x, y), fit(note, F, width), font=font(F), fill=theme.GOLD)
        y += F + 10
    if not line:
        draw.text((x, y), "No ship in Line (-15 VP at round end)", font=font(F), fill=theme.GOLD)
        y += F + 12
    tiles = [(s, str(k + 1), "line", marks.get(s["id"])) for k, s in enumerate(line)]
    tiles += [
        (
            s,
            f"R{k + 1}" + ("P" if s.get("prize") else ""),
            "prize" if s.get("prize") else "reserve",
            marks.get(s["id"]),
        )
        for k, s in enumerate(reserve)
    ]
    return _flow(draw, x, y, width, tiles, per_row)


# ------------------------------------------------------------------ the image
def render(view: dict, names: list[str] | None = None) -> bytes:
    view = theme.filled(view, names)  # texts name seats by who(seat): show the names
    hand = view.get("hand")
    img, draw = theme.canvas(WIDTH, 4000, theme.BG)
    last = view.get("last") or {}
    pend = view.get("pending") or {}
    marks: dict[str, str] = {sid: "hit" for sid in last.get("ships", [])}
    if last.get("firer"):
        marks[last["firer"]] = "firer"
    if pend.get("may_fire_at"):
        marks = {sid: "target" for sid in pend["may_fire_at"]}
        if pend.get("firer"):
            marks[pend["firer"]] = "firer"
    y = _header(draw, view, names, 10)
    to_act = set(view.get("to_act", []))
    for f in view["fleets"]:
        active = f["seat"] in to_act and not view.get("over")
        top = y
        end = _measure(view, f, top, names, marks)  # a dry run first, to draw the block's frame behind it
        draw.rounded_rectangle(
            (PAD - 4, top, WIDTH - PAD + 4, end),
            radius=10,
            fill=theme.PANEL_LIGHT if active else theme.PANEL,
            outline=theme.HIGHLIGHT if active else theme.RULE,
            width=4 if active else 1,
        )
        draw.rectangle((PAD, top + 8, PAD + 6, end - 8), fill=theme.seat_colour(f["seat"]))
        _fleet(draw, view, f, top, names, marks)
        y = end + 8
    # events
    events = view.get("last_events", [])[-4:]
    for j, text in enumerate(events):
        newest = j == len(events) - 1
        lines = (
            wrap(text, F, WIDTH - 2 * PAD - 16, max_lines=2)
            if newest
            else [fit(text, F, WIDTH - 2 * PAD - 16)]
        )
        for k, line in enumerate(lines):
            draw.text(
                (PAD, y),
                ("> " if newest and k == 0 else "   ") + line,
                font=font(F),
                fill=theme.TEXT if newest else theme.TEXT_SOFT,
            )
            y += F + 8
    y += 6
    if hand is not None:
        y = _hand(draw, view, hand, names, pend, y)
    return theme.to_png(img.crop((0, 0, WIDTH, int(y) + 6)))


class _NullDraw:
    """Stands in for ImageDraw to measure a block's height without drawing it."""

    def __getattr__(self, name):
        return lambda *a, **k: None


def _measure(view, f, top, names, marks) -> float:
    return _fleet(_NullDraw(), view, f, top, names, marks)


def _hand(draw, view: dict, hand: list, names, pend: dict, y: float) -> float:
    seat = view.get("seat")
    draw.rectangle((0, y, WIDTH, y + 4), fill=theme.GOLD)
    y += 12
    bchoice = ((view.get("boarding") or {}).get("my_choice") or {}).get("id")
    note = ""
    if bchoice:
        note = " (CHOSEN: your secret boarding card)"
    elif view.get("boarding") and seat in (view["boarding"]["att"], view["boarding"]["def"]):
        note = " (boarding: choose your secret card)"
    who = _name(names, seat) if seat is not None else "Your"
    draw.text(
        (PAD, y),
        fit(f"{who}'s hand, {len(hand)} cards{note}", FN, WIDTH - 2 * PAD),
        font=font(FN),
        fill=theme.GOLD,
    )
    y += FN + 22
    if not hand:
        draw.text((PAD, y), "(no cards)", font=font(F), fill=theme.TEXT_SOFT)
        return y + F + 10
    n = len(hand)
    per_row = 5 if n <= 5 or n > 10 else (n + 1) // 2  # 6 cards: two rows of 3, larger
    gap = 10
    cw = (WIDTH - 2 * PAD - gap * (per_row - 1)) / per_row
    ch = 160
    chosen = pend.get("card")
    for k, c in enumerate(hand):
        r, col = divmod(k, per_row)
        _hand_card(
            draw,
            PAD + col * (cw + gap),
            y + r * (ch + gap + 8),
            cw,
            ch,
            c,
            chosen=c["id"] in (chosen, bchoice),
        )
    rows = (len(hand) + per_row - 1) // per_row
    return y + rows * (ch + gap + 8)
