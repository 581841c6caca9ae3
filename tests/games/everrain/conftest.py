"""Fixtures of The Everrain tests: an open test sea, ship/enemy placement and forced dice."""

from __future__ import annotations

import pytest

from bot.games.everrain import board as B
from bot.games.everrain.game import EverrainGame

# 12 columns x 8 rows, offset coordinates (col, row); axial q = col - row // 2.
TEST_SEA = [
    "P...........",
    "............",
    "............",
    ".....#......",
    "............",
    "............",
    "........~~..",
    "S..........P",
]


def hx(col: int, row: int) -> tuple[int, int]:
    return (col - row // 2, row)


def _test_map() -> B.HexMap:
    terrain = {}
    for row, line in enumerate(TEST_SEA):
        for col, ch in enumerate(line):
            terrain[hx(col, row)] = ch
    return B.HexMap(terrain)


class SeaGame(EverrainGame):
    """The real rules on an open test sea (ports at A1 and L8, an island at F4, rough sea at I7-J7)."""

    _map = _test_map()

    @property
    def map(self) -> B.HexMap:
        return self._map


class Forced:
    """Queues of forced die results; an empty queue falls back to the seeded generator."""

    def __init__(self, game: EverrainGame):
        self.game = game
        self.faces: dict[str, list[list[str]]] = {"enemy": [], "attack": [], "evasion": []}
        self.fates: list[int] = []
        self.rolled: list[tuple[str, int]] = []
        real_roll, real_fate = game._roll_faces, game._fate

        def roll(die: str, n: int) -> list[str]:
            self.rolled.append((die, n))
            if self.faces[die]:
                return list(self.faces[die].pop(0))
            return real_roll(die, n)

        def fate() -> int:
            return self.fates.pop(0) if self.fates else real_fate()

        game._roll_faces = roll
        game._fate = fate


def make_game(players: int = 1, seed: int = 1) -> SeaGame:
    g = SeaGame(players, {"scenario": "strait", "length": "short"}, seed)
    g.state["enemies"] = []
    g.state["deck"] = sorted(B.enemy_cards())
    return g


def place(g: EverrainGame, seat: int, h, facing: int = 0, crew: list[int] | None = None) -> dict:
    s = g.ship(seat)
    s["q"], s["r"], s["facing"] = h[0], h[1], facing
    if crew is not None:
        s["crew"] = list(crew)
    return s


def add_enemy(g: EverrainGame, card: str, h, facing: int = 0, health: int | None = None, dest=None) -> dict:
    c = B.enemy_cards()[card]
    if card in g.state["deck"]:
        g.state["deck"].remove(card)
    if dest is None:
        dest, dlabel = g._destination(c, h)
    else:
        dest, dlabel = [list(dest)], f"hex {B.label(dest)}"
    e = {
        "uid": g.state["next_uid"],
        "card": card,
        "q": h[0],
        "r": h[1],
        "facing": facing,
        "health": c["health"] if health is None else health,
        "dest": dest,
        "dest_label": dlabel,
        "activated": False,
    }
    g.state["next_uid"] += 1
    g.state["enemies"].append(e)
    return e


@pytest.fixture
def sea():
    return make_game


@pytest.fixture
def forced():
    return Forced


class _Kit:
    make = staticmethod(make_game)
    place = staticmethod(place)
    add_enemy = staticmethod(add_enemy)
    hx = staticmethod(hx)
    Forced = Forced


@pytest.fixture
def kit():
    return _Kit
