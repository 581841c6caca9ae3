"""Board layout and pure movement geometry of Enemy Lines.

Everything here works on plain values so that the game and the AI share one
implementation of the movement rules:

* a cell is ``(col, row)``, both 0-based: ``(0, 0)`` is A1 (bottom left of the
  picture), ``(7, 7)`` is H8;
* a ship position is ``(x, y, h)``: ``(x, y)`` is its lowest cell (west end when
  it lies along a row, south end when it lies along a column) and ``h`` is True
  when it lies along a row ("horizontal");
* ``ships`` maps a ship id to its position (or None while unplaced).

The numbers (board size, marks, home rows, fleet, turn limit) come from
``data/enemy_lines/board.toml``.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path

from bot.games.names import who

DATA = files("admiralty_data") / "enemy_lines" / "board.toml"  # data/enemy_lines/, installed with the package

DIRS = {"N": (0, 1), "S": (0, -1), "E": (1, 0), "W": (-1, 0)}
DIR_WORDS = {"N": "north", "S": "south", "E": "east", "W": "west"}
SIDE_NAMES = ["Blue", "Red"]


@dataclass(frozen=True)
class Layout:
    cols: int
    rows: int
    home_marks: tuple[int, ...]
    home_rows: tuple[tuple[int, ...], ...]  # per seat, 0-based, back row first
    ship_ids: tuple[str, ...]  # all ships, Blue's first
    size: dict  # ship id -> size
    seat: dict  # ship id -> seat
    fleet: tuple[tuple[str, ...], ...]  # per seat, ship ids in placing order
    turn_limit: int

    def mark(self, seat: int, row: int) -> int:
        """The mark of ``row`` in ``seat``'s own home area, or 0 if it is not one of its home rows."""
        rows = self.home_rows[seat]
        return self.home_marks[rows.index(row)] if row in rows else 0

    def enemy_mark(self, seat: int, row: int) -> int:
        """The mark of ``row`` if it is in enemy lines for ``seat`` (the opponent's home rows), else 0."""
        return self.mark(1 - seat, row)

    def placement_row(self, ship: str) -> int:
        """The home row on which a ship is placed: the row marked with its size."""
        return self.home_rows[self.seat[ship]][self.home_marks.index(self.size[ship])]

    def row_owner(self, row: int) -> int | None:
        for seat in (0, 1):
            if row in self.home_rows[seat]:
                return seat
        return None


def load_layout(path: Path | Traversable = DATA) -> Layout:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    board = data["board"]
    sides = sorted(data["sides"].values(), key=lambda s: s["seat"])
    ids: list[str] = []
    size: dict = {}
    seat_of: dict = {}
    fleet = []
    for side in sides:
        own = []
        for suffix, n in data["fleet"]["ships"]:
            sid = side["prefix"] + suffix
            ids.append(sid)
            own.append(sid)
            size[sid] = int(n)
            seat_of[sid] = int(side["seat"])
        fleet.append(tuple(own))
    return Layout(
        cols=int(board["cols"]),
        rows=int(board["rows"]),
        home_marks=tuple(int(m) for m in board["home_marks"]),
        home_rows=tuple(tuple(int(r) - 1 for r in s["home_rows"]) for s in sides),
        ship_ids=tuple(ids),
        size=size,
        seat=seat_of,
        fleet=tuple(fleet),
        turn_limit=int(data["rules"]["turn_limit"]),
    )


LAYOUT = load_layout()


# ----- labels ---------------------------------------------------------------
def cell_label(col: int, row: int) -> str:
    return f"{chr(ord('A') + col)}{row + 1}"


def span_label(cells: list) -> str:
    """ "C4" for one cell, "C4–E4" for a ship (lowest cell first)."""
    if len(cells) == 1:
        return cell_label(*cells[0])
    return f"{cell_label(*cells[0])}–{cell_label(*cells[-1])}"


def ship_name(ship: str, layout: Layout = LAYOUT) -> str:
    """ "⟨0⟩'s 3-ship": the owner as a seat reference (the host fills in the player's name)."""
    return f"{who(layout.seat[ship])}'s {layout.size[ship]}-ship"


# ----- geometry ---------------------------------------------------------------
def cells_of(size: int, pos) -> list[tuple[int, int]]:
    x, y, h = pos
    if h:
        return [(x + i, y) for i in range(size)]
    return [(x, y + i) for i in range(size)]


def on_board(cells, layout: Layout = LAYOUT) -> bool:
    return all(0 <= c < layout.cols and 0 <= r < layout.rows for c, r in cells)


def occupancy(ships: dict, layout: Layout = LAYOUT) -> dict:
    """cell -> ship id for every placed ship."""
    occ = {}
    for sid, pos in ships.items():
        if pos is not None:
            for cell in cells_of(layout.size[sid], pos):
                occ[cell] = sid
    return occ


def ends(size: int, pos) -> dict:
    """The two end cells of a ship by compass name: W/E when along a row, S/N along a column."""
    x, y, h = pos
    if h:
        return {"W": (x, y), "E": (x + size - 1, y)}
    return {"S": (x, y), "N": (x, y + size - 1)}


def rotated(size: int, pos, pivot: str, to: str):
    """Position after rotating about end ``pivot`` so that the ship extends from it towards ``to``.
    None when the rotation is not a quarter turn (``to`` must be perpendicular to the ship)."""
    h = pos[2]
    if h and to not in ("N", "S") or not h and to not in ("E", "W"):
        return None
    end = ends(size, pos).get(pivot)
    if end is None:
        return None
    px, py = end
    if to == "N":
        return (px, py, False)
    if to == "S":
        return (px, py - size + 1, False)
    if to == "E":
        return (px, py, True)
    return (px - size + 1, py, True)


def shifted(pos, d: str, dist: int):
    dx, dy = DIRS[d]
    return (pos[0] + dx * dist, pos[1] + dy * dist, pos[2])


def free_for(cells, occ: dict, ship: str, layout: Layout = LAYOUT) -> bool:
    """All cells on the board and empty or occupied by ``ship`` itself."""
    for c, r in cells:
        if not (0 <= c < layout.cols and 0 <= r < layout.rows):
            return False
        other = occ.get((c, r))
        if other is not None and other != ship:
            return False
    return True


def ship_moves(ships: dict, occ: dict, ship: str, layout: Layout = LAYOUT) -> list[tuple[dict, tuple]]:
    """Every legal move of one ship as (action, new position).

    Travel: 1..size squares N/S/E/W; every intermediate position must be on the board and
    free (no moving through a ship). Rotation: a quarter turn about either end; only the
    squares of the final position are checked (house rule, see the rules doc)."""
    size = layout.size[ship]
    pos = tuple(ships[ship])
    out = []
    for d in ("N", "E", "S", "W"):
        for dist in range(1, size + 1):
            npos = shifted(pos, d, dist)
            if not free_for(cells_of(size, npos), occ, ship, layout):
                break
            out.append(({"type": "travel", "ship": ship, "dir": d, "dist": dist}, npos))
    for pivot in ends(size, pos):
        for to in ("N", "S") if pos[2] else ("E", "W"):
            npos = rotated(size, pos, pivot, to)
            if free_for(cells_of(size, npos), occ, ship, layout):
                out.append(({"type": "rotate", "ship": ship, "pivot": pivot, "to": to}, npos))
    return out


def move_result(ships: dict, action: dict, layout: Layout = LAYOUT):
    """The new position of the moved ship for a travel/rotate action (no legality check)."""
    ship = action["ship"]
    pos = tuple(ships[ship])
    if action["type"] == "travel":
        return shifted(pos, action["dir"], int(action["dist"]))
    return rotated(layout.size[ship], pos, action["pivot"], action["to"])


def placements(ships: dict, occ: dict, ship: str, layout: Layout = LAYOUT) -> list[int]:
    """Columns where ``ship`` may be placed (its west end), lying along its placement row."""
    row = layout.placement_row(ship)
    size = layout.size[ship]
    return [x for x in range(layout.cols - size + 1) if all((x + i, row) not in occ for i in range(size))]


def in_enemy_lines(ship: str, pos, layout: Layout = LAYOUT) -> int:
    """The mark of the enemy row a ship lies along (scoring), or 0."""
    if pos is None or not pos[2]:
        return 0
    return layout.enemy_mark(layout.seat[ship], pos[1])


def scores(ships: dict, layout: Layout = LAYOUT) -> list[int]:
    """Points of each seat: ship size × row mark for each ship lying along a row in enemy lines."""
    out = [0, 0]
    for sid, pos in ships.items():
        m = in_enemy_lines(sid, pos, layout)
        if m:
            out[layout.seat[sid]] += layout.size[sid] * m
    return out


def count_in_enemy_lines(ships: dict, seat: int, layout: Layout = LAYOUT) -> int:
    return sum(
        1 for sid, pos in ships.items() if layout.seat[sid] == seat and in_enemy_lines(sid, pos, layout)
    )
