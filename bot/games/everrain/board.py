"""Hex geometry, the data files and the scenario maps of The Everrain.

Pointy-top hexes in axial coordinates (q, r). Directions are numbered
counter-clockwise on screen, starting East: 0 E, 1 NE, 2 NW, 3 W, 4 SW, 5 SE,
so "turn left" (to port) is facing + 1 and "turn right" is facing - 1.

Artillery patterns are strings of direction digits relative to the ship's
facing: "0" is the hex ahead, "00" two ahead, "1" ahead-left, "12" two hexes to
the left, "3" astern, and so on.

Everything here is pure: the renderer and the AI use it on a view's map too.
"""

from __future__ import annotations

import tomllib
from collections import deque
from functools import cache, lru_cache
from importlib.resources import files

DATA = files("admiralty_data") / "everrain"  # data/everrain/, installed with the package

DIRS: list[tuple[int, int]] = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)]
DIR_NAMES = ["E", "NE", "NW", "W", "SW", "SE"]

CALM, ROUGH, ISLAND, PORT, SPAWN, SITE, MARK = ".", "~", "#", "P", "S", "?", "X"


# ---------------------------------------------------------------- geometry
def add(a, b) -> tuple[int, int]:
    return (a[0] + b[0], a[1] + b[1])


def step(h, direction: int) -> tuple[int, int]:
    d = DIRS[direction % 6]
    return (h[0] + d[0], h[1] + d[1])


def distance(a, b) -> int:
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def relative(h, facing: int, code: str) -> tuple[int, int]:
    """The hex reached from h by the pattern string ``code`` for a ship facing ``facing``."""
    out = (h[0], h[1])
    for ch in code:
        out = step(out, facing + int(ch))
    return out


def pattern_hexes(h, facing: int, pattern: list[str]) -> list[tuple[int, int]]:
    seen: list[tuple[int, int]] = []
    for code in pattern:
        x = relative(h, facing, code)
        if x not in seen:
            seen.append(x)
    return seen


def _cube_round(x: float, z: float) -> tuple[int, int]:
    y = -x - z
    rx, ry, rz = round(x), round(y), round(z)
    dx, dy, dz = abs(rx - x), abs(ry - y), abs(rz - z)
    if dx > dy and dx > dz:
        rx = -ry - rz
    elif dy > dz:
        ry = -rx - rz
    else:
        rz = -rx - ry
    return (int(rx), int(rz))


def line(a, b, nudge: float = 1e-6) -> list[tuple[int, int]]:
    """The hexes on the straight line from a to b, both ends included."""
    n = distance(a, b)
    if n == 0:
        return [(a[0], a[1])]
    ax, az = a[0] + nudge, a[1] + nudge
    bx, bz = b[0] + nudge, b[1] + nudge
    return [_cube_round(ax + (bx - ax) * i / n, az + (bz - az) * i / n) for i in range(n + 1)]


def label(h) -> str:
    """A human hex name: column letter (A..) and row number (1..), as printed on the map."""
    col = h[0] + h[1] // 2
    return f"{chr(ord('A') + col)}{h[1] + 1}" if 0 <= col < 26 else f"{h[0]},{h[1]}"


def tag(uid: int) -> str:
    """The letter an enemy ship goes by on the map and in menus (stable while it is on the board)."""
    return chr(ord("a") + (uid - 1) % 26)


def key(h) -> str:
    return f"{h[0]},{h[1]}"


def unkey(s: str) -> tuple[int, int]:
    q, r = s.split(",")
    return (int(q), int(r))


# ---------------------------------------------------------------- data
@cache
def _toml(name: str) -> dict:
    with (DATA / name).open("rb") as fh:
        return tomllib.load(fh)


def dice() -> dict:
    return _toml("dice.toml")


def rules() -> dict:
    return _toml("rules.toml")


def ship_board() -> dict:
    return _toml("ship_board.toml")


@cache
def enemy_cards() -> dict[str, dict]:
    return {c["id"]: c for c in _toml("enemy_ships.toml")["ship"]}


def scenario_ids() -> tuple[str, ...]:
    return tuple(_toml("scenarios.toml")["scenario"].keys())


# ---------------------------------------------------------------- maps
class HexMap:
    """Terrain of one scenario (or of a view's "map" entry)."""

    def __init__(self, terrain: dict[tuple[int, int], str]):
        self.terrain = terrain
        self._hexes: list | None = None
        order = sorted(terrain, key=lambda h: (h[1], h[0]))
        self.order = order
        self.ports = [h for h in order if terrain[h] == PORT]
        self.spawns = [h for h in order if terrain[h] == SPAWN]
        self.sites = [h for h in order if terrain[h] == SITE]
        self.marks = {"rift": h for h in order if terrain[h] == MARK}  # noqa: B035 (one mark kind)
        rows: dict[int, list[tuple[int, int]]] = {}
        for h in order:
            rows.setdefault(h[1], []).append(h)
        top, bottom = min(rows), max(rows)
        sea = [h for h in order if terrain[h] != ISLAND]
        self.edges = {
            "W": [h for h in sea if h == min(rows[h[1]], key=lambda x: x[0])],
            "E": [h for h in sea if h == max(rows[h[1]], key=lambda x: x[0])],
            "N": [h for h in sea if h[1] == top],
            "S": [h for h in sea if h[1] == bottom],
        }
        self.width = max(h[0] + h[1] // 2 for h in order) + 1
        self.height = bottom + 1

    def on_map(self, h) -> bool:
        return (h[0], h[1]) in self.terrain

    def at(self, h) -> str | None:
        return self.terrain.get((h[0], h[1]))

    def sea(self, h) -> bool:
        t = self.at(h)
        return t is not None and t != ISLAND

    def line_of_sight(self, a, b) -> bool:
        """Islands between a and b block sight; on a hex corner either side clear is enough."""
        for nudge in (1e-6, -1e-6):
            if all(self.at(h) != ISLAND for h in line(a, b, nudge)[1:-1]):
                return True
        return False

    def distances_from(self, goals, blocked) -> dict[tuple[int, int], int]:
        """Sea-route distance of every reachable hex to the nearest goal hex (goals are always enterable)."""
        goals = [(g[0], g[1]) for g in goals]
        dist = {g: 0 for g in goals}
        todo = deque(goals)
        while todo:
            h = todo.popleft()
            for d in range(6):
                n = step(h, d)
                if n in dist or not self.sea(n) or n in blocked:
                    continue
                dist[n] = dist[h] + 1
                todo.append(n)
        return dist

    def to_view(self) -> dict:
        # one hexes list per map, shared by its views (never changed), so map_of_view knows it again
        if self._hexes is None:
            self._hexes = [[h[0], h[1], self.terrain[h]] for h in self.order]
        return {"width": self.width, "height": self.height, "hexes": self._hexes}

    @classmethod
    def from_view(cls, m: dict) -> HexMap:
        return cls({(q, r): t for q, r, t in m["hexes"]})


@cache
def scenario_map(sid: str) -> HexMap:
    data = _toml("scenarios.toml")
    tiles = data["tiles"]
    grid = data["scenario"][sid]["grid"]
    terrain: dict[tuple[int, int], str] = {}
    for ty, row in enumerate(grid):
        for tx, name in enumerate(row.split()):
            top, bottom = tiles[name].split("|")
            for j, part in enumerate((top, bottom)):
                for i, ch in enumerate(part):
                    terrain[(3 * tx - ty + i, 2 * ty + j)] = ch
    return HexMap(terrain)


def scenario_info(sid: str) -> dict:
    return _toml("scenarios.toml")["scenario"][sid]


@lru_cache(maxsize=16)
def map_from_view_cached(frozen: tuple) -> HexMap:
    return HexMap({(q, r): t for q, r, t in frozen})


_seen: dict[int, tuple[list, HexMap]] = {}


def map_of_view(view: dict) -> HexMap:
    hexes = view["map"]["hexes"]
    known = _seen.get(id(hexes))
    if known is not None and known[0] is hexes:  # the same list as before (a map's own, see to_view)
        return known[1]
    found = map_from_view_cached(tuple(tuple(x) for x in hexes))
    if len(_seen) > 16:
        _seen.clear()
    _seen[id(hexes)] = (hexes, found)
    return found
