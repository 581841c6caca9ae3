"""The table image of Enemy in Sight: a landscape grid of fleet panels, one per seat, made for a chat
preview (800 px wide, at most 600 tall, for 2 to 6 players).

A panel: a strip in the seat's colour with its badge (shape + colour + number: no names in the picture)
and its tags (D dealer, RB Refuse Battle, BL its Line broken, BK its Port blockaded, a tick when a secret
arrangement is done), then its ships as compact cards. A card: the nation's band with nation and rate
and, on the right, its place (1, 2, … a Line station and R1, R2, … a Reserve station in the Advanced
game; P a prize; an anchor: in Port), the ship's name, and the Hull (green) and Rigging (blue) left
with two bars; a flame for each fire, a white flag when struck, a purple chevron on a ship breaking the
Line. Outlines: yellow = hit by the last action, white = the ship that acted, green = a ship that may be
fired at now. The panel of the seat to act has a gold frame. Scores, hands, the deck, the round and the
key are words beside the picture (the game's ``view_text``/``key_text``), not in it.

Speed: the frame of the panels, each card's face (band, name) and each Hull/Rigging row are drawn
once and pasted; all of them depend only on sizes and the ship list, never on one game. The picture is
drawn straight into one palette chosen once a process (``_palette``, ``picture``): every piece reduced
to it once, the icons and outlines drawn with palette indices (``rendering/paletted.py``); ``draw`` is
the same picture in RGB, the reference its pixels are checked against.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from rendering import palette, paletted, theme
from rendering.paletted import RGB
from rendering.theme import font, text_width

WIDTH = theme.MAX_WIDTH
Ink = Callable[[RGB], "RGB | int"]  # a colour as the picture takes it: RGB, or its palette index
MAX_HEIGHT = WIDTH * 3 // 4  # landscape: at most 3/4 of the width tall
F = theme.min_font(WIDTH)  # 24: the only text size (legible at 400 px)
MARGIN = 6  # around and between panels
PAD = 5  # inside a panel
GAP = 5  # between cards
STRIP = 48  # the seat's strip at the left of its panel: its badge, its tags below it
WIDE_STRIP = 92  # in one column of wide panels: the tags also stand in a column right of the badge
ROW = 26  # one row of text on a card
NAMED_H = 3 * ROW + 8  # a card with its ship's name: band, name, Hull/Rigging
PLAIN_H = 2 * ROW + 10  # without the name
NAMED_WIDTHS = (124, 112, 104, 96, 88, 78)  # the card widths tried, widest first
PLAIN_WIDTHS = (72, 60, 52)

NATION_COLOURS = {
    "GB": ((176, 30, 40), theme.WHITE),
    "FR": ((30, 60, 150), theme.WHITE),
    "ES": ((230, 180, 30), (60, 10, 10)),
    "NL": ((230, 110, 20), (20, 20, 20)),
    "US": ((40, 50, 110), (230, 230, 230)),
}
CARD_BG = {
    "line": (246, 238, 218),
    "prize": (226, 220, 244),
    "reserve": (214, 228, 212),
    "port": (206, 220, 234),
    "hidden": (70, 92, 120),
}
STRUCK_BG = (196, 192, 186)
HULL_INK = (30, 116, 50)
RIG_INK = (34, 84, 170)
BAR_BG = (204, 194, 172)
FIRE = (240, 120, 20)
BREAKER = (130, 60, 170)
TARGET = (60, 210, 100)
HATCH = (84, 108, 138)  # the stripes on a card face down
HIT = theme.HIGHLIGHT
FIRER = theme.WHITE
TAGS = {  # strip tags: (text, background, ink)
    "dealer": ("D", theme.GOLD, theme.INK),
    "refuse": ("RB", theme.OK, theme.WHITE),
    "broken": ("BL", BREAKER, theme.WHITE),
    "blockade": ("BK", theme.RED_DARK, theme.WHITE),
}


@dataclass(frozen=True)
class Grid:
    """A panel's cards: ``per_row`` to a row in ``card_rows`` rows, each ``card_w`` × ``card_h``;
    ``named`` cards have a row for the ship's name."""

    card_w: int
    card_h: int
    per_row: int
    card_rows: int
    named: bool

    @property
    def places(self) -> int:
        return self.per_row * self.card_rows

    @property
    def height(self) -> int:
        return self.card_rows * self.card_h + (self.card_rows - 1) * GAP


@lru_cache(maxsize=256)
def grid(inner: int, room: int, ships: int) -> Grid:
    """The cards of a fleet of ``ships`` in a space ``inner`` wide and ``room`` tall: named cards if
    they fit; among those the fewest rows (a Line reads left to right in station order), then the
    widest cards. A fleet longer than any grid holds: the narrowest cards, as many rows as fit (the
    picture ends it with a "+n" card)."""
    ships = max(1, ships)
    for named, card_h, widths in ((True, NAMED_H, NAMED_WIDTHS), (False, PLAIN_H, PLAIN_WIDTHS)):
        fits = []
        for width in widths:
            per_row = max(1, (inner + GAP) // (width + GAP))
            card_rows = math.ceil(ships / per_row)
            if card_rows * card_h + (card_rows - 1) * GAP <= room:
                fits.append((card_rows, -width, per_row))
        if fits:
            card_rows, _, per_row = min(fits)
            return Grid((inner - (per_row - 1) * GAP) // per_row, card_h, per_row, card_rows, named)
    per_row = max(1, (inner + GAP) // (PLAIN_WIDTHS[-1] + GAP))
    card_rows = max(1, (room + GAP) // (PLAIN_H + GAP))
    return Grid((inner - (per_row - 1) * GAP) // per_row, PLAIN_H, per_row, card_rows, False)


@dataclass(frozen=True)
class Layout:
    """Where everything goes for one picture: a grid of ``cols`` × ``rows`` panels, each ``panel_w`` ×
    ``panel_h`` with a ``strip`` at its left; ``cards`` is the grid of the longest fleet."""

    players: int
    strip: int
    cols: int
    rows: int
    panel_w: int
    panel_h: int
    room: int  # the most a panel's cards may take, in height
    cards: Grid

    @property
    def height(self) -> int:
        return self.rows * self.panel_h + (self.rows + 1) * MARGIN

    @property
    def inner(self) -> int:
        return self.panel_w - self.strip - 2 * PAD

    def grid_for(self, ships: int) -> Grid:
        """One panel's cards. In one column of wide panels every fleet has the same cards, so that the
        Lines' stations stand one above the other; in two columns a shorter fleet may have larger,
        named cards (the panels are as tall as the tallest fleet's cards)."""
        if self.cols == 1:
            return self.cards
        return grid(self.inner, self.room, ships)

    def panel_origin(self, seat: int) -> tuple[int, int]:
        r, c = divmod(seat, self.cols)
        return MARGIN + c * (self.panel_w + MARGIN), MARGIN + r * (self.panel_h + MARGIN)

    def card_origin(self, seat: int, k: int, cards: Grid) -> tuple[int, int]:
        x, y = self.panel_origin(seat)
        r, c = divmod(k, cards.per_row)
        return x + self.strip + PAD + c * (cards.card_w + GAP), y + PAD + r * (cards.card_h + GAP)

    def badge_centre(self, seat: int) -> tuple[float, float]:
        x, y = self.panel_origin(seat)
        return (x + 27 if self.strip == WIDE_STRIP else x + self.strip / 2 + 2), y + PAD + F

    def tag_slots(self, seat: int) -> list[tuple[float, float]]:
        """The centres of the places for a panel's tags (each F + 2 tall), in the order they fill."""
        x, y = self.panel_origin(seat)
        step = F + 5
        bottom = y + self.panel_h - PAD - F / 2 - 1
        right = []
        if self.strip == WIDE_STRIP:
            right = [(x + 71.0, y + PAD + F / 2 + 1 + k * step) for k in range(6)]
        below = [(self.badge_centre(seat)[0] + 1, y + PAD + 2 * F + 7 + F / 2 + k * step) for k in range(6)]
        return [(cx, cy) for cx, cy in right + below if cy <= bottom]


@lru_cache(maxsize=256)
def layout(players: int, fleet_sizes: tuple[int, ...]) -> Layout:
    """The panels for ``players`` fleets of ``fleet_sizes`` cards, within 800×600: one column of wide
    panels up to 3 players, two columns from 4; the panels as tall as the tallest fleet's cards."""
    cols = 1 if players <= 3 else 2
    rows = math.ceil(players / cols)
    panel_w = (WIDTH - (cols + 1) * MARGIN) // cols
    strip = WIDE_STRIP if cols == 1 else STRIP
    room = (MAX_HEIGHT - (rows + 1) * MARGIN) // rows - 2 * PAD  # the card rows' height in a panel
    inner = panel_w - strip - 2 * PAD
    longest = grid(inner, room, max(fleet_sizes, default=1))
    tallest = longest.height if cols == 1 else max(grid(inner, room, n).height for n in fleet_sizes or (1,))
    return Layout(players, strip, cols, rows, panel_w, tallest + 2 * PAD, room, longest)


# ------------------------------------------------------------------ cached layers
@lru_cache(maxsize=32)
def _frame(lay: Layout) -> Image.Image:
    """The background: every panel with its strip and badge (the seats' marks do not change)."""
    img, draw = theme.canvas(WIDTH, lay.height, theme.BG)
    for seat in range(lay.players):
        x, y = lay.panel_origin(seat)
        draw.rounded_rectangle(
            (x, y, x + lay.panel_w, y + lay.panel_h), radius=8, fill=theme.PANEL, outline=theme.RULE
        )
        draw.rounded_rectangle((x, y, x + lay.strip, y + lay.panel_h), radius=8, fill=theme.PANEL_DARK)
        draw.rectangle((x + 2, y + 4, x + 6, y + lay.panel_h - 4), fill=theme.seat_colour(seat))
        theme.seat_badge(draw, *lay.badge_centre(seat), seat, F)
    return img


@lru_cache(maxsize=512)  # one game needs ~40: room for a dozen games drawn by one process
def _face(
    name: str, nation: str, rate: int, kind: str, tag: str, struck: bool, w: int, h: int, named: bool
) -> Image.Image:
    """A card's face without its damage: background (grey when struck), the nation's band with nation
    and rate, its place tag and the ship's name (all from the ship list and the card's size)."""
    img = Image.new("RGB", (w, h), theme.PANEL)
    draw = ImageDraw.Draw(img)
    bg = STRUCK_BG if struck else CARD_BG[kind]
    draw.rounded_rectangle((0, 0, w - 1, h - 1), radius=6, fill=bg, outline=theme.PANEL_DARK)
    flag, ink = NATION_COLOURS.get(nation, (theme.GREY, theme.WHITE))
    draw.rounded_rectangle((2, 2, w - 3, ROW + 1), radius=5, fill=flag)
    tag_w = 0.0
    if tag == "port":
        tag_w = 22.0
        _anchor(draw, w - 14, ROW / 2 + 2, ink)
    elif tag:
        tag_w = text_width(tag, F) + 8
        draw.rounded_rectangle((w - tag_w - 4, 4, w - 4, ROW - 1), radius=4, fill=theme.PANEL_DARK)
        draw.text((w - 4 - tag_w / 2, ROW / 2 + 2), tag, font=font(F), fill=theme.WHITE, anchor="mm")
    band = f"{nation}{rate}"
    if text_width(band, F) + tag_w + 12 > w:  # a narrow card: the band's colour names the nation
        band = str(rate)
    draw.text((6, ROW / 2 + 2), band, font=font(F), fill=ink, anchor="lm")
    if named:
        draw.text((5, ROW * 1.5 + 3), _clip(name, w - 9), font=font(F), fill=theme.INK, anchor="lm")
    return img


@lru_cache(maxsize=512)  # one game needs ~40: room for a dozen games drawn by one process
def _stats(hull_left: int, hull: int, rig_left: int, rig: int, w: int, bg: tuple) -> Image.Image:
    """A card's Hull/Rigging row: the two numbers left (red at 0) over two bars of what is left."""
    img = Image.new("RGB", (w - 4, ROW + 4), bg)
    draw = ImageDraw.Draw(img)
    x = 3.0
    for left, ink in ((hull_left, HULL_INK), (rig_left, RIG_INK)):
        text = str(left)
        draw.text((x, ROW / 2 - 2), text, font=font(F), fill=ink if left else theme.DANGER, anchor="lm")
        x += text_width(text, F) + 9
    bw = w - 12
    for k, (left, full, ink) in enumerate(((hull_left, hull, HULL_INK), (rig_left, rig, RIG_INK))):
        by = ROW - 3 + k * 4
        draw.rectangle((3, by, 3 + bw, by + 2), fill=BAR_BG)
        if full and left:
            draw.rectangle((3, by, 3 + bw * left / full, by + 2), fill=ink)
    return img


def _clip(name: str, width: float) -> str:
    """As much of a ship's name as fits: a narrow card shows its first letters (no … : a letter more
    to read; the full names are in the words beside the picture and in the menus)."""
    while name and text_width(name, F) > width:
        name = name[:-1]
    return name.rstrip()


@lru_cache(maxsize=16)
def _more(hidden: int, w: int, h: int) -> Image.Image:
    """The last place of a fleet too long for its panel: how many more ships it has."""
    img = Image.new("RGB", (w, h), theme.PANEL)
    draw = ImageDraw.Draw(img)
    draw.rounded_rectangle((0, 0, w - 1, h - 1), radius=6, outline=theme.TEXT_SOFT, width=2)
    draw.text((w / 2, h / 2), f"+{hidden}", font=font(F), fill=theme.TEXT, anchor="mm")
    return img


@lru_cache(maxsize=16)
def _back(w: int, h: int) -> Image.Image:
    """A ship not yet shown (the Advanced game's secret set-up)."""
    img = Image.new("RGB", (w, h), theme.PANEL)
    draw = ImageDraw.Draw(img)
    draw.rounded_rectangle((0, 0, w - 1, h - 1), radius=6, fill=CARD_BG["hidden"], outline=theme.PANEL_DARK)
    for k in range(-h, w, 12):
        draw.line((k, h - 3, k + h, 3), fill=HATCH, width=3)
    draw.text((w / 2, h / 2), "?", font=font(F), fill=theme.TEXT, anchor="mm")
    return img


# ------------------------------------------------------------------ small drawn icons (no text)
def _anchor(draw: ImageDraw.ImageDraw, cx: float, cy: float, ink) -> None:
    draw.line((cx, cy - 9, cx, cy + 9), fill=ink, width=2)
    draw.ellipse((cx - 3, cy - 12, cx + 3, cy - 6), outline=ink, width=2)
    draw.line((cx - 6, cy - 4, cx + 6, cy - 4), fill=ink, width=2)
    draw.arc((cx - 9, cy - 1, cx + 9, cy + 11), 20, 160, fill=ink, width=2)


def _same(colour: RGB) -> RGB:
    return colour


def _flame(draw: ImageDraw.ImageDraw, x: float, y: float, ink: Ink = _same) -> None:
    """A flame 12×18 with its top-left at (x, y)."""
    draw.polygon(
        [(x + 6, y), (x + 12, y + 10), (x + 10, y + 17), (x + 2, y + 17), (x, y + 10)], fill=ink(FIRE)
    )
    draw.polygon(
        [(x + 6, y + 7), (x + 9, y + 13), (x + 6, y + 17), (x + 3, y + 13)], fill=ink(theme.HIGHLIGHT)
    )


def _flag(draw: ImageDraw.ImageDraw, x: float, y: float, ink: Ink = _same) -> None:
    """A white flag (struck colours) 14×18 with its top-left at (x, y)."""
    draw.line((x + 1, y, x + 1, y + 18), fill=ink(theme.INK), width=2)
    draw.rectangle((x + 2, y + 1, x + 14, y + 9), fill=ink(theme.WHITE), outline=ink(theme.INK))


def _chevron(draw: ImageDraw.ImageDraw, x: float, y: float, ink: Ink = _same) -> None:
    """A ship breaking the Line: a purple chevron 14×18 with its top-left at (x, y)."""
    draw.polygon([(x, y), (x + 14, y + 9), (x, y + 18), (x + 5, y + 9)], fill=ink(BREAKER))


def _tick(draw: ImageDraw.ImageDraw, cx: float, cy: float, ink: Ink = _same) -> None:
    draw.line((cx - 9, cy, cx - 3, cy + 7, cx + 10, cy - 8), fill=ink(TARGET), width=5)


# ------------------------------------------------------------------ the cards of one fleet
def _cards(view: dict, fleet: dict) -> list[tuple[dict | None, str, str]]:
    """(ship or None for a card face down, kind, place tag) in the order the panel shows them."""
    seat = fleet["seat"]
    arranging = view.get("arranging")
    own = view.get("arrange") if seat == view.get("seat") else None
    if arranging and arranging["phase"] == "arrange" and not own:
        return [(None, "hidden", "")] * arranging["ships"][seat]
    line, reserve = (own["line"], own["reserve"]) if own else (fleet["line"], fleet.get("reserve", []))
    out: list[tuple[dict | None, str, str]] = [(s, "line", "") for s in line]
    if "reserve" in fleet:  # the Advanced game: Line stations in order, then the Reserve's
        out += [(s, "prize", "P") if s.get("prize") else (s, "reserve", "R") for s in reserve]
    else:
        out += [(s, "prize", "P") for s in fleet["prizes"]]
    out += [(s, "port", "port") for s in fleet["port"]]
    return out


def _marks(view: dict) -> dict[str, tuple]:
    """Ship id -> outline colour: what the last action hit and who acted, or what may be fired at now."""
    last = view.get("last") or {}
    pend = view.get("pending") or {}
    marks: dict[str, tuple] = {sid: HIT for sid in last.get("ships", [])}
    if last.get("firer"):
        marks[last["firer"]] = FIRER
    board = view.get("boarding")
    if board:
        marks = {board["target"]: TARGET, board["boarder"]: FIRER}
    if pend.get("may_fire_at"):
        marks = {sid: TARGET for sid in pend["may_fire_at"]}
        if pend.get("firer"):
            marks[pend["firer"]] = FIRER
    return marks


def _card(
    img: Image.Image, draw: ImageDraw.ImageDraw, paint: _Paint, cards: Grid, x: int, y: int, card, marks
) -> None:
    ship, kind, tag = card
    w, h = cards.card_w, cards.card_h
    if ship is None:
        img.paste(paint.piece(_back, w, h), (x, y))
        return
    struck = bool(ship.get("struck"))
    bg = STRUCK_BG if struck else CARD_BG[kind]
    face = paint.piece(
        _face, ship["name"], ship["nation"], ship["rate"], kind, tag, struck, w, h, cards.named
    )
    img.paste(face, (x, y))
    hl = max(0, ship["hull"] - ship["hull_dmg"])
    rl = max(0, ship["rig"] - ship["rig_dmg"])
    sy = y + h - ROW - 6
    img.paste(paint.piece(_stats, hl, ship["hull"], rl, ship["rig"], w, bg), (x + 2, sy))
    # icons at the right of the Hull/Rigging row, right to left
    ix = x + w - 18
    iy = sy + 2
    if struck:
        _flag(draw, ix - 2, iy, paint.ink)
        ix -= 18
    fires = len(ship.get("fires", []))
    for _ in range(min(fires, 2)):
        _flame(draw, ix, iy, paint.ink)
        ix -= 14
    if ship.get("breaker"):
        _chevron(draw, ix - 2, iy, paint.ink)
    edge = marks.get(ship["id"])
    if edge:
        draw.rounded_rectangle(
            (x - 2, y - 2, x + w + 1, y + h + 1), radius=7, outline=paint.ink(edge), width=4
        )


# ------------------------------------------------------------------ the picture
def _fleet_tags(view: dict, seat: int) -> list[str]:
    fleet = view["fleets"][seat]
    tags = []
    if seat == view["dealer"]:
        tags.append("dealer")
    if fleet["refuse_battle"]:
        tags.append("refuse")
    if any(b["target"] == seat for b in view["in_play"]["btl"]):
        tags.append("broken")
    if any(k["target"] == seat for k in view["in_play"]["blockade"]):
        tags.append("blockade")
    return tags


def _tag(draw: ImageDraw.ImageDraw, cx: float, cy: float, tag: str) -> None:
    text, bg, ink = TAGS[tag]
    tw = text_width(text, F) + 6
    draw.rounded_rectangle((cx - tw / 2, cy - F / 2 - 1, cx + tw / 2, cy + F / 2 + 1), radius=4, fill=bg)
    draw.text((cx, cy), text, font=font(F), fill=ink, anchor="mm")


def _strip(
    img: Image.Image, draw: ImageDraw.ImageDraw, paint: _Paint, lay: Layout, view: dict, seat: int
) -> None:
    """The panel's tags in its strip; a tick when its secret arrangement is done."""
    slots = lay.tag_slots(seat)
    tags = _fleet_tags(view, seat)
    for slot, tag in enumerate(tags[: len(slots)]):
        paint.tag(img, draw, lay, seat, slot, tag)
    arranging = view.get("arranging")
    if arranging and seat in arranging["done"]:
        free = slots[len(tags) :]
        x, y = lay.panel_origin(seat)
        cx, cy = free[0] if free else (x + lay.strip / 2, y + lay.panel_h - PAD - 12)
        _tick(draw, cx, cy, paint.ink)


class _Paint:
    """How a picture is drawn: in RGB (the reference, ``draw``): the pieces as they are drawn, colours as
    they are."""

    ink: Ink = staticmethod(_same)

    def frame(self, lay: Layout) -> Image.Image:
        return _frame(lay).copy()

    def piece(self, make: Callable[..., Image.Image], *args: Any) -> Image.Image:
        return make(*args)

    def tag(
        self, img: Image.Image, draw: ImageDraw.ImageDraw, lay: Layout, seat: int, slot: int, tag: str
    ) -> None:
        _tag(draw, *lay.tag_slots(seat)[slot], tag)


class _InPalette(_Paint):
    """In the palette (``picture``): every piece reduced once, flat shapes drawn with their index, a
    tag's text pasted as reduced once over the frame, through a mask of what it changes."""

    def __init__(self) -> None:
        self.ink = _inks()

    def frame(self, lay: Layout) -> Image.Image:
        return _frame_reduced(lay).copy()

    def piece(self, make: Callable[..., Image.Image], *args: Any) -> Image.Image:
        return _reduced(make, args)

    def tag(
        self, img: Image.Image, draw: ImageDraw.ImageDraw, lay: Layout, seat: int, slot: int, tag: str
    ) -> None:
        patch, mask, corner = _tag_patch(lay, seat, slot, tag)
        img.paste(patch, corner, mask)


@lru_cache(maxsize=32)
def _frame_reduced(lay: Layout) -> Image.Image:
    return _inks().reduce(_frame(lay))


# a card face, a Hull/Rigging row, a face-down card, reduced (the RGB ones are kept by their own caches;
# up to 10 KiB each: 10 MiB at most)
@lru_cache(maxsize=1024)
def _reduced(make: Callable[..., Image.Image], args: tuple) -> Image.Image:
    return _inks().reduce(make(*args))


@lru_cache(maxsize=256)
def _tag_patch(
    lay: Layout, seat: int, slot: int, tag: str
) -> tuple[Image.Image, Image.Image, tuple[int, int]]:
    """A strip tag drawn on the frame and reduced, the mask of the pixels it changed, and where it goes."""
    img = _frame(lay).copy()
    cx, cy = lay.tag_slots(seat)[slot]
    _tag(ImageDraw.Draw(img), cx, cy, tag)
    half = text_width(TAGS[tag][0], F) / 2 + 3 + F  # wider than the tag and its text: the mask trims it
    box = (
        max(0, math.floor(cx - half)),
        max(0, math.floor(cy - F)),
        min(img.width, math.ceil(cx + half)),
        min(img.height, math.ceil(cy + F)),
    )
    inks = _inks()
    patch = inks.reduce(img.crop(box))
    under = _frame_reduced(lay).crop(box)
    mask = Image.frombytes(
        "L",
        patch.size,
        bytes(0 if a == b else 255 for a, b in zip(patch.tobytes(), under.tobytes(), strict=True)),
    )
    return patch, mask, (box[0], box[1])


@lru_cache(maxsize=1)
def _inks() -> paletted.Inks:
    return paletted.Inks(_palette())


def render(view: dict, names: list[str] | None = None) -> bytes:
    """The picture of ``view`` (``names`` are not drawn: a seat is its badge; the text beside the
    picture says whose badge is which)."""
    return theme.to_png(picture(view))


def draw(view: dict) -> Image.Image:
    """The picture of ``view`` drawn in RGB: the reference ``picture`` has the pixels of, reduced."""
    return _drawn(view, _Paint())


def picture(view: dict) -> Image.Image:
    """The picture of ``view`` drawn in its palette (mode "P", ``rendering/paletted.py``)."""
    return _drawn(view, _InPalette())


def _drawn(view: dict, paint: _Paint) -> Image.Image:
    fleets = view["fleets"]
    cards = [_cards(view, f) for f in fleets]
    lay = layout(len(fleets), tuple(len(c) for c in cards))
    img = paint.frame(lay)
    draw = ImageDraw.Draw(img)
    marks = _marks(view)
    to_act = set(view.get("to_act", [])) if not view.get("over") else set()
    winners = set((view.get("result") or {}).get("winners", [])) if view.get("over") else set()
    for seat, fleet_cards in enumerate(cards):
        x, y = lay.panel_origin(seat)
        _strip(img, draw, paint, lay, view, seat)
        places = lay.grid_for(len(fleet_cards))
        shown = fleet_cards if len(fleet_cards) <= places.places else fleet_cards[: places.places - 1]
        for k, card in enumerate(shown):
            _card(img, draw, paint, places, *lay.card_origin(seat, k, places), card, marks)
        if len(shown) < len(fleet_cards):
            more = paint.piece(_more, len(fleet_cards) - len(shown), places.card_w, places.card_h)
            img.paste(more, lay.card_origin(seat, len(shown), places))
        if seat in to_act or seat in winners:
            draw.rounded_rectangle(
                (x, y, x + lay.panel_w, y + lay.panel_h),
                radius=8,
                outline=paint.ink(theme.HIGHLIGHT),
                width=4,
            )
        elif seat == view.get("seat"):
            draw.rounded_rectangle(
                (x, y, x + lay.panel_w, y + lay.panel_h), radius=8, outline=paint.ink(theme.TEXT), width=2
            )
    return img


# ------------------------------------------------------------------ the palette
def _flat_colours() -> list[tuple[int, int, int]]:
    """Every colour the pictures fill with: these stay exact."""
    out = [theme.BG, theme.PANEL, theme.PANEL_DARK, theme.RULE, theme.TEXT, theme.TEXT_SOFT, theme.WHITE]
    out += [theme.INK, theme.HIGHLIGHT, theme.DANGER, theme.GREY, *theme.SEAT_COLOURS]
    out += [c for flag in NATION_COLOURS.values() for c in flag] + list(CARD_BG.values())
    out += [STRUCK_BG, HULL_INK, RIG_INK, BAR_BG, FIRE, BREAKER, TARGET, HATCH]
    return out + [c for _, bg, ink in TAGS.values() for c in (bg, ink)]


@lru_cache(maxsize=1)
def _palette() -> Image.Image:
    """One palette for every Enemy in Sight picture: the flat colours, then the soft edges of the text on
    a sheet of what pictures are made of: six panels (every badge), a named card of every nation,
    kind and state, Hull/Rigging rows on every card colour, the strip's tags and the icons."""
    w, h = NAMED_WIDTHS[0], NAMED_H
    places = {"line": "", "prize": "P", "reserve": "R", "port": "port"}
    pieces = [_frame(layout(6, (4,) * 6)), _back(w, h), _more(3, w, h)]
    pieces += [
        _face("Victory", nation, rate, kind, tag, struck, w, h, True)
        for nation in NATION_COLOURS
        for rate, (kind, tag) in enumerate(places.items(), start=1)
        for struck in (False, True)
    ]
    for bg in (*(CARD_BG[kind] for kind in places), STRUCK_BG):
        pieces += [_stats(0, 3, 2, 3, w, bg), _stats(14, 17, 9, 10, w, bg), _stats(5, 8, 0, 6, w, bg)]
    icons, draw = theme.canvas(8 * (F + 12), 2 * (F + 12), CARD_BG["line"])
    for k, tag in enumerate(TAGS):
        _tag(draw, (k + 0.5) * (F + 12), (F + 12) / 2, tag)
    _flame(draw, 4 * (F + 12), 4)
    _flag(draw, 5 * (F + 12), 4)
    _chevron(draw, 6 * (F + 12), 4)
    draw.rectangle((0, F + 12, 8 * (F + 12), 2 * (F + 12)), fill=theme.PANEL_DARK)
    _tick(draw, (F + 12) / 2, 1.5 * (F + 12))
    return palette.fixed(_flat_colours(), palette.sheet([*pieces, icons], theme.PANEL))
