"""Static Warships geometry and unit table, loaded from data/warships/.

Pure data (no state): squares are integers ``i = row0 * columns + col0``;
their names are a column letter and a row number ("C4"; row 1 is the top).
"""

from __future__ import annotations

import tomllib
from functools import lru_cache
from importlib.resources import files

DATA = files("admiralty_data") / "warships"  # data/warships/, installed with the package
DIRS = [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)]


class Board:
    def __init__(self, data: dict, units: dict) -> None:
        self.cols = int(data["columns"])
        self.rows = int(data["rows"])
        self.n = self.cols * self.rows
        self.names = [self._name(i) for i in range(self.n)]
        self.index = {name: i for i, name in enumerate(self.names)}
        self.neutral = frozenset(self.expand(data.get("neutral", [])))
        self.islands = frozenset(self.expand(data.get("islands", [])))
        self.port_of = [-1] * self.n  # seat whose port holds the square, else -1
        self.light: dict[int, list[int]] = {}
        self.entrances: dict[int, list[int]] = {}
        self.batteries: dict[int, list[list[int]]] = {}
        self.manoeuvres: dict[int, list[int]] = {}
        self.front_row: dict[int, int] = {}
        self.entrance_front: dict[int, int] = {}  # entrance square -> sea square in front of it
        for port in data["port"]:
            seat = int(port["seat"])
            for i in self.expand(port["squares"]):
                self.port_of[i] = seat
            self.light[seat] = sorted(self.expand(port["light"]))
            self.entrances[seat] = [self.index[e] for e in port["entrances"]]
            self.batteries[seat] = [[self.index[b] for b in pair] for pair in port["batteries"]]
            self.manoeuvres[seat] = sorted(self.expand(port.get("manoeuvres", [])))
            self.front_row[seat] = int(port["front_row"]) - 1
        for seat, ents in self.entrances.items():
            for e in ents:
                c, r = self.xy(e)
                for dx, dy in ((0, -1), (0, 1), (-1, 0), (1, 0)):
                    j = self.at(c + dx, r + dy)
                    if j is not None and self.port_of[j] != seat:
                        self.entrance_front[e] = j
        self.battery_squares = {b: seat for seat, pairs in self.batteries.items() for p in pairs for b in p}
        # neighbours within one field (battery range), for every square
        self.near = [
            [j for j in (self.at(self.xy(i)[0] + dx, self.xy(i)[1] + dy) for dx, dy in DIRS) if j is not None]
            for i in range(self.n)
        ]
        # the squares along each of the 8 directions from every square, nearest first
        self.rays = [
            [
                [
                    q
                    for q in (self.at(self.xy(i)[0] + dx * k, self.xy(i)[1] + dy * k) for k in range(1, 17))
                    if q is not None
                ]
                for dx, dy in DIRS
            ]
            for i in range(self.n)
        ]
        # unit table
        self.order: list[str] = list(units["order"])
        self.types: dict[str, dict] = units["types"]
        self.rules: dict = units.get("rules", {})
        self.move_limit = int(self.rules.get("move_limit", 500))
        self.neutral_turns = int(self.rules.get("neutral_turns", 3))

    # ----- coordinates --------------------------------------------------
    def _name(self, i: int) -> str:
        return f"{chr(65 + i % self.cols)}{i // self.cols + 1}"

    def xy(self, i: int) -> tuple[int, int]:
        return i % self.cols, i // self.cols

    def at(self, c: int, r: int) -> int | None:
        if 0 <= c < self.cols and 0 <= r < self.rows:
            return r * self.cols + c
        return None

    def expand(self, specs: list[str]) -> list[int]:
        out: list[int] = []
        for spec in specs:
            if ":" in spec:
                a, b = spec.split(":")
                (c0, r0), (c1, r1) = self.xy(self.index[a]), self.xy(self.index[b])
                for r in range(min(r0, r1), max(r0, r1) + 1):
                    for c in range(min(c0, c1), max(c0, c1) + 1):
                        i = self.at(c, r)
                        assert i is not None  # between two named squares, so on the board
                        out.append(i)
            else:
                out.append(self.index[spec])
        return out

    def crosses_line(self, a: int, b: int) -> bool:
        """Whether a one-field step a→b crosses a fortification line."""
        return self.port_of[a] != self.port_of[b]

    def entrance_step(self, a: int, b: int) -> int | None:
        """The entrance square if a→b is the straight step through an exit, else None."""
        if self.entrance_front.get(a) == b:
            return a
        if self.entrance_front.get(b) == a:
            return b
        return None

    def entrance_seat(self, e: int) -> int:
        return self.port_of[e]

    def entrance_batteries(self, e: int) -> list[int]:
        seat = self.port_of[e]
        return self.batteries[seat][self.entrances[seat].index(e)]

    # ----- unit table -----------------------------------------------------
    def name_of(self, t: str) -> str:
        return self.types[t]["name"]

    def abbr(self, t: str) -> str:
        return self.types[t]["abbr"]

    def range_of(self, t: str, options: dict) -> int:
        """How far a unit of type t moves and fires under these game options."""
        info = self.types[t]
        if options.get("greater-mobility") and "range_greater_mobility" in info:
            return int(info["range_greater_mobility"])
        return int(info["range"])

    def beats(self, a: str, b: str) -> bool:
        return b in self.types[a]["destroys"]


@lru_cache(maxsize=1)
def board() -> Board:
    with (DATA / "board.toml").open("rb") as f:
        data = tomllib.load(f)
    with (DATA / "units.toml").open("rb") as f:
        units = tomllib.load(f)
    return Board(data, units)
