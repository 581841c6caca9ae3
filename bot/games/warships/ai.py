"""Warships AI. It sees only a view (its own types, revealed enemy types, counts
of losses) and the list of legal actions; the board geometry and the unit table
are public data.

Plan: keep the Landing ship at home behind its batteries (and a reserve Missile
ship while no enemy exit is open); send the other Missile ships to the batteries
of one enemy exit; let the other ships hunt face-down enemies (an unknown type
is a probability over the enemy's remaining units, and every ship beats the
Landing ship), first any intruder near the own exits, then through the opened
exit into the enemy port. The Landing ship sails for the open exit only when it
is close or late in the game (a draw is worth no more than a loss). Units never
linger in neutral waters past their third turn.
"""

from __future__ import annotations

import heapq
import random
from collections.abc import Iterable
from functools import lru_cache

from bot.games.warships import landing, threats
from bot.games.warships.board import board

VALUE = {
    "battleship": 45,
    "cruiser": 42,
    "destroyer": 32,
    "submarine": 30,
    "escort": 22,
    "minesweeper": 16,
    "missile": 90,
    "landing": 1000,
    "mine": 4,
    "battery": 150,
}
SHIPS = ("battleship", "cruiser", "destroyer", "submarine", "escort", "minesweeper", "missile", "landing")


def _cheb(b, a: int, c: int) -> int:
    return _cheb_table()[a][c]


@lru_cache(maxsize=1)
def _cheb_table() -> list[list[int]]:
    """King-step distance between every two squares (ignoring lines)."""
    b = board()
    xy = [b.xy(i) for i in range(b.n)]
    return [[max(abs(x0 - x1), abs(y0 - y1)) for x1, y1 in xy] for x0, y0 in xy]


def _bfs(b, goals: list[int], neutral_cost: int = 3) -> tuple[int, ...]:
    """King-step distance to the nearest goal square, crossing lines only straight through
    exits; a step into neutral waters costs more (a unit must not linger there). Remembered: the
    search asks for the same maps again and again."""
    return _distances(tuple(sorted(set(goals))), neutral_cost)


@lru_cache(maxsize=2048)
def _distances(goals: tuple[int, ...], neutral_cost: int) -> tuple[int, ...]:
    b = board()
    inf = 999
    dist = [inf] * b.n
    heap = []
    for g in goals:
        dist[g] = 0
        heap.append((0, g))
    heapq.heapify(heap)
    while heap:
        d, a = heapq.heappop(heap)
        if d > dist[a]:
            continue
        for c in b.near[a]:
            if b.crosses_line(a, c) and b.entrance_step(a, c) is None:
                continue
            nd = d + (neutral_cost if a in b.neutral else 1)
            if nd < dist[c]:
                dist[c] = nd
                heapq.heappush(heap, (nd, c))
    return tuple(dist)


class Brain:
    def __init__(self, view: dict, seat: int, options: dict, informed: bool = False) -> None:
        """``informed`` (the search levels): an enemy unit that moved is no mine and has at least the
        range of its longest move (today's heuristic, the easy level, does not use this)."""
        b = self.b = board()
        self.moved = {b.index[u["sq"]]: u.get("moved", 0) for u in view["units"]} if informed else {}
        self.seat, self.opp = seat, 1 - seat
        self.options = options
        self.mine: dict[int, str] = {}
        self.enemy: dict[int, str | None] = {}
        for u in view["units"]:
            q = b.index[u["sq"]]
            if u["owner"] == seat:
                self.mine[q] = u["type"]
            else:
                self.enemy[q] = u["type"]
        self.nw = {b.index[u["sq"]]: u["nw"] for u in view["units"] if u["owner"] == seat}
        # what the enemy may still have face down
        pool = {t: int(b.types[t]["count"]) for t in SHIPS}
        pool["mine"] = int(b.types["mine"]["count"]) - int(
            view.get("off_board_mines", {}).get(str(self.opp), 0)
        )
        for t, n in view["lost"][str(self.opp)]["types"].items():
            if t in pool:
                pool[t] -= n
        for t in self.enemy.values():
            if t in pool:
                pool[t] -= 1
        self.pool = {t: max(0, n) for t, n in pool.items()}
        self.bats = view["batteries"]
        # enemy units standing in range of one of our batteries can only be missile ships
        my_bat = [q for q, t in self.mine.items() if t == "battery"]
        self.danger_sq = {c for q in my_bat for c in b.near[q]}
        # enemy units inside their port may be mines; outside never (laid mines are revealed)
        self._probs: dict[tuple[bool, int], dict[str, float]] = {}
        self.my_missiles = sum(1 for t in self.mine.values() if t == "missile")
        self._threats: dict[tuple[int, str], float] = {}

    # ----- beliefs -----
    def probs(self, q: int) -> dict[str, float]:
        t = self.enemy.get(q)
        if t is not None:
            return {t: 1.0}
        if q in self.danger_sq:
            return {"missile": 1.0}
        in_port = self.b.port_of[q] == self.opp
        moved = self.moved.get(q, 0)
        key = (in_port, moved)
        if key not in self._probs:
            pool = dict(self.pool)
            if not in_port or moved:
                pool["mine"] = 0
            if moved:
                for t in SHIPS:
                    if self.b.range_of(t, self.options) < moved:
                        pool[t] = 0
            tot = sum(pool.values())
            if not tot:  # nothing fits (a hand-built position): what the enemy may have at all
                pool, tot = dict(self.pool), sum(self.pool.values()) or 1
            self._probs[key] = {t: n / tot for t, n in pool.items() if n > 0}
        return self._probs[key]

    def value(self, t: str, own: bool) -> float:
        v = VALUE[t]
        if own and t == "missile" and self.my_missiles <= 1:
            v += 250
        return v

    def clash_ev(self, mt: str, q: int, defuse: bool = False) -> float:
        b = self.b
        ev = 0.0
        for t, p in self.probs(q).items():
            if mt == "battery":
                # a battery is never lost by its own fire; a missile ship is immune to it
                out = 0.0 if t == "missile" else VALUE[t]
            elif t == "mine":
                out = 6.0 if defuse else VALUE["mine"] - self.value(mt, True)
            elif t == mt:
                out = VALUE[t] - self.value(mt, True)
            elif b.beats(mt, t):
                out = VALUE[t] - 0.08 * self.value(mt, True)  # our type becomes known
            else:
                out = -self.value(mt, True)
            ev += p * out
        return ev

    def threat(self, q: int, mt: str) -> float:
        """Rough expected loss of a unit of type mt standing on q next turn."""
        key = (q, mt)
        if key not in self._threats:
            self._threats[key] = self._threat(q, mt)
        return self._threats[key]

    def _threat(self, q: int, mt: str) -> float:
        b = self.b
        if q in b.neutral or b.port_of[q] == self.seat and self._home_safe(q):
            return 0.0
        risk = 0.0
        for e, et in self.enemy.items():
            if et in ("battery", "mine") or e in b.neutral:
                continue
            d = _cheb(b, q, e)
            if d > 4:
                continue
            if b.port_of[e] != b.port_of[q] and d > 1 and not self._near_exit(e):
                continue  # behind a fortification line, far from an exit
            w = 0.6 if d <= 2 else 0.3
            lose = 0.0
            for t, p in self.probs(e).items():
                if t in ("mine", "battery"):
                    continue
                if b.beats(t, mt) or t == mt:
                    lose += p
                elif b.beats(mt, t):
                    lose -= 0.3 * p
            risk += w * lose
        return max(0.0, min(risk, 1.0)) * self.value(mt, True)

    def exposure(self, q: int, radius: int = 5) -> int:
        """Enemy units that might be ships and could reach q soon (ignoring blockers)."""
        b = self.b
        n = 0
        for e, et in self.enemy.items():
            if et in ("battery", "mine"):
                continue
            d = _cheb(b, q, e)
            if d > radius:
                continue
            if b.port_of[e] != b.port_of[q] and d > 1 and not self._near_exit(e):
                continue
            n += 1
        return n

    def sea(self, leave: Iterable[str] = ("missile", "landing")) -> threats.Sea:
        """The position for exact reach questions (:mod:`.threats`), the own units of the types in
        ``leave`` taken off (each is the one that may move; the others' shelter is not counted on)."""
        b = self.b
        units = [q for q, t in self.mine.items() if t not in leave] + list(self.enemy)
        open_ents = [b.index[e["entrance"]] for e in self.bats if e["open"]]
        closed = {
            side: {c for q, t in own.items() if t == "battery" for c in b.near[q]}
            for side, own in ((self.opp, self.mine), (self.seat, self.enemy))
        }
        return threats.Sea(b, units, open_ents, closed, bool(self.options.get("harder-attack")))

    def hunters(self) -> list[threats.Enemy]:
        """Every enemy unit that may be a ship that beats (or trades with) a Missile or Landing ship:
        every ship but a Landing ship, with the range and probability of each type it may be."""
        out = []
        for e in self.enemy:
            kinds = [
                (self.b.range_of(t, self.options), t == "missile", p)
                for t, p in self.probs(e).items()
                if t in SHIPS and t != "landing"
            ]
            if kinds:
                out.append((e, kinds))
        return out

    def _near_exit(self, e: int) -> bool:
        port = self.b.port_of[e]
        return port >= 0 and any(_cheb(self.b, e, x) <= 2 for x in self.b.entrances[port])

    def _home_safe(self, q: int) -> bool:
        return all(not e["open"] for e in self.bats if e["seat"] == self.seat)


def _setup_action(view: dict, legal: list[dict], seat: int) -> dict:
    for a in legal:
        if a["type"] == "keep_mine":
            return a
    return _landing_to_back_row(view, legal, seat) or {"type": "submit"}


def _landing_to_back_row(view: dict, legal: list[dict], seat: int) -> dict | None:
    b = board()
    own = {b.index[u["sq"]]: u["type"] for u in view["units"] if u["owner"] == seat}
    light = b.light[seat]
    front = b.front_row[seat]
    far = max(abs(b.xy(q)[1] - front) for q in light)
    back = [q for q in light if abs(b.xy(q)[1] - front) == far and 3 <= b.xy(q)[0] <= b.cols - 4]
    ls = next((q for q, t in own.items() if t == "landing"), None)
    if ls is not None and ls not in back:
        want = {b.names[q] for q in back}
        for a in legal:
            if a["type"] == "place" and a["from"] == b.names[ls] and a["to"] in want:
                return a
            if a["type"] == "swap" and (
                (a["a"] == b.names[ls] and a["b"] in want) or (a["b"] == b.names[ls] and a["a"] in want)
            ):
                return a
    return None


# ----- mines (the search levels) ------------------------------------------------------------
MINES_KEPT_OFF = 4  # of six: laid in play in front of the own batteries; the rest guard the Landing ship


def setup_with_mines(view: dict, legal: list[dict], seat: int) -> dict:
    """The secret set-up of the search levels: the Landing ship on the back row, four mines kept off
    the board to be laid in play, the other two set up face down next to the Landing ship (an enemy that
    breaks into the port and attacks them loses its ship), but not on its way out (mines never move)."""
    b = board()
    step = _landing_to_back_row(view, legal, seat)
    if step is not None:
        return step
    if int(view.get("off_board_mines", {}).get(str(seat), 0)) < MINES_KEPT_OFF:
        for a in legal:
            if a["type"] == "keep_mine":
                return a
    own = {b.index[u["sq"]]: u["type"] for u in view["units"] if u["owner"] == seat}
    ls = next((q for q, t in own.items() if t == "landing"), None)
    sweeper = _sweeper_behind_an_exit(own, legal, seat)
    if sweeper is not None:
        return sweeper
    if ls is not None:
        way = _way_out(b, ls, seat)
        ships = {q for q, t in own.items() if t not in ("mine", "landing", "battery")}
        beside = {b.names[q] for q in ships if q in b.near[ls] and q not in way}
        mines = {b.names[q] for q, t in own.items() if t == "mine" and (q not in b.near[ls] or q in way)}
        elsewhere = {b.names[q] for q in ships if q not in b.near[ls]}
        free = {b.names[q] for q in b.near[ls] if q not in own and q not in way}
        for a in legal:
            if a["type"] == "place" and a["from"] in mines and a["to"] in free:
                return a
            if a["type"] != "swap" or a["a"] not in mines:
                continue
            if a["b"] in beside or b.index[a["a"]] in way and a["b"] in elsewhere:
                return a
    return {"type": "submit"}


def behind_exits(seat: int) -> list[int]:
    """The port squares straight behind the own exits: a range-2 unit there sails out in one move onto
    the square in front of the exit."""
    b = board()
    out = []
    for e in b.entrances[seat]:
        (ex, ey), (fx, fy) = b.xy(e), b.xy(b.entrance_front[e])
        q = b.at(2 * ex - fx, 2 * ey - fy)
        if q is not None and b.port_of[q] == seat:
            out.append(q)
    return out


def _sweeper_behind_an_exit(own: dict[int, str], legal: list[dict], seat: int) -> dict | None:
    """A set-up step that puts a Minesweeper straight behind an own exit, or None when one stands there:
    its first move ends in front of the exit, beside the squares in front of both batteries, where it lays
    the mines kept off the board (:func:`mine_to_lay`) early in the game."""
    b = board()
    behind = behind_exits(seat)
    if any(own.get(q) == "minesweeper" for q in behind):
        return None
    sweepers = {b.names[q] for q, t in own.items() if t == "minesweeper"}
    for q in behind:
        if own.get(q) in ("landing", "mine"):
            continue
        for a in legal:
            if a["type"] == "place" and a["from"] in sweepers and a["to"] == b.names[q]:
                return a
            if a["type"] == "swap" and a["a"] in sweepers and a["b"] == b.names[q]:
                return a
    return None


def _way_out(b, ls: int, seat: int) -> set[int]:
    """The squares beside the Landing ship on ls that are nearer the own exits: its way out."""
    d = _bfs(b, b.entrances[seat])
    return {q for q in b.near[ls] if d[q] < d[ls]}


def mine_front(view: dict, seat: int) -> set[int]:
    """Where the search levels lay mines: the sea squares beside the own active batteries, where an
    enemy Missile ship must stand to take them out, but not in front of an exit (the own ships' way out)."""
    b = board()
    out: set[int] = set()
    fronts = {b.entrance_front[e] for e in b.entrances[seat]}
    for e in view["batteries"]:
        if e["seat"] != seat:
            continue
        for name, standing in e["batteries"].items():
            if standing:
                out.update(
                    q
                    for q in b.near[b.index[name]]
                    if b.port_of[q] == -1 and q not in fronts and q not in b.neutral
                )
    return out


def mine_to_lay(view: dict, legal: list[dict], seat: int) -> dict | None:
    """A mine to lay now (it is not a move: the turn goes on), or None."""
    front = mine_front(view, seat)
    for a in legal:
        if a["type"] == "lay_mine" and board().index[a["at"]] in front:
            return a
    return None


def _layer_plan(view: dict, seat: int, br: Brain) -> tuple[tuple[int, ...] | None, int | None]:
    """Distances to where a Minesweeper can lay on a free mine square, and the Minesweeper that goes."""
    b = br.b
    if not int(view.get("off_board_mines", {}).get(str(seat), 0)):
        return None, None
    free = [q for q in mine_front(view, seat) if q not in br.mine and q not in br.enemy]
    stands = sorted({c for q in free for c in b.near[q] if b.port_of[c] == -1 and c not in b.neutral})
    if not stands:
        return None, None
    dist = _bfs(b, stands)
    sweepers = [q for q, t in br.mine.items() if t == "minesweeper"]
    if not sweepers:
        return None, None
    return dist, min(sweepers, key=lambda q: (dist[q], q))


LOST_GAME = 1e6  # a move that loses the Landing ship (the search levels' ranking)
CLEAR_THE_WAY = 40.0  # a ship beside the Landing ship, nearer the open exit, that steps aside (search levels)


class Exposure:
    """The expected number of enemy ships that could attack a square on their next turn (exact reach on
    the board, :mod:`.threats`), for the own Missile and Landing ships (the search levels); none at home
    behind guarded exits."""

    def __init__(self, br: Brain) -> None:
        self.br = br
        self.sea = br.sea()
        self.enemies = br.hunters()
        self._at: dict[int, float] = {}

    def __call__(self, q: int) -> float:
        found = self._at.get(q)
        if found is None:
            br = self.br
            home = br.b.port_of[q] == br.seat and br._home_safe(q)
            found = self._at[q] = 0.0 if home else self.sea.expected(q, br.opp, self.enemies)
        return found


def _lane(br: Brain, d_ls: tuple[int, ...], exposure: Exposure, late: bool) -> landing.Lane:
    """The search levels' Landing ship once an enemy exit is open (:class:`.landing.Lane`): safe at home
    behind guarded exits and in the neutral waters."""
    b = br.b
    home = br._home_safe(0)

    def safe(q: int) -> bool:
        return q in b.neutral or (home and b.port_of[q] == br.seat)

    gates = {e: b.entrance_front[e] for e in b.entrances[br.seat]}
    return landing.Lane(b, d_ls, exposure, exposure.enemies, safe, gates, late)


# the search levels' Missile ship: one field nearer its battery is worth MISSILE_STEP; standing where
# enemy ships could attack it costs its value times the chance (at most 1) that one can
MISSILE_STEP = 10.0


def _missile_step(br: Brain, p: int, dest: int, d_mi: tuple[int, ...], exposure: Exposure) -> float:
    risk = min(1.0, exposure(dest)) - min(1.0, exposure(p))
    return (d_mi[p] - d_mi[dest]) * MISSILE_STEP - risk * br.value("missile", True)


def choose(view: dict, legal: list[dict], seat: int, options: dict, rng: random.Random) -> dict:
    """Today's heuristic (the ``easy`` level without noise, and the rollout policy of the search)."""
    if not legal:
        raise ValueError("no legal action")
    if view["phase"] == "setup":
        return _setup_action(view, legal, seat)
    moves = [a for a in legal if a["type"] != "lay_mine"]
    if not moves:
        return legal[0]
    return max(scored(view, moves, seat, options, rng), key=lambda pair: pair[0])[1]


EASY_SLIP = 0.1  # how often the easy level plays its second choice


def easy(view: dict, legal: list[dict], seat: int, options: dict, rng: random.Random) -> dict:
    """The ``easy`` level: today's heuristic, with a small chance of its second-best move."""
    if view["phase"] == "setup" or rng.random() >= EASY_SLIP:
        return choose(view, legal, seat, options, rng)
    moves = [a for a in legal if a["type"] != "lay_mine"]
    ranked = sorted(scored(view, moves, seat, options, rng), key=lambda pair: -pair[0])
    if len(ranked) < 2 or ranked[0][0] >= 1e12:
        return ranked[0][1] if ranked else legal[0]
    return ranked[1][1]


def informed(view: dict, legal: list[dict], seat: int, options: dict, rng: random.Random) -> dict:
    """The search levels without their search: their set-up and mines, then the best of their candidate
    ranking (``scored(informed=True)``): a cheap player to measure the ranking's plans against."""
    if view["phase"] == "setup":
        return setup_with_mines(view, legal, seat)
    moves = [a for a in legal if a["type"] != "lay_mine"]
    if not moves:
        return legal[0]
    return (
        mine_to_lay(view, legal, seat)
        or max(scored(view, moves, seat, options, rng, informed=True), key=lambda pair: pair[0])[1]
    )


# today's heuristic, without the easy level's slips, and the search levels' ranking alone, for
# bench/bench_ai.py
BASELINES = {
    "today": lambda view, legal, seat, rng: choose(view, legal, seat, view.get("options", {}), rng),
    "informed": lambda view, legal, seat, rng: informed(view, legal, seat, view.get("options", {}), rng),
}


def scored(
    view: dict, moves: list[dict], seat: int, options: dict, rng: random.Random, informed: bool = False
) -> list[tuple[float, dict]]:
    """Every move (no mine laying) with its heuristic score, in the order given. ``informed`` (the
    search levels): beliefs use how each enemy unit moved, and the Minesweeper nearest to the free mine
    squares in front of the own batteries heads there while mines are left off the board (the search
    levels lay them there: :func:`mine_to_lay`)."""
    br = Brain(view, seat, options, informed=informed)
    b = br.b
    opp = br.opp
    # target exit: fewest batteries left, then fewest enemy units near its front
    ents = [e for e in br.bats if e["seat"] == opp]

    def ent_key(e):
        left = sum(1 for v in e["batteries"].values() if v)
        front = b.entrance_front[b.index[e["entrance"]]]
        crowd = sum(1 for q in br.enemy if _cheb(b, q, front) <= 2)
        return (left, crowd, e["entrance"])

    target = min(ents, key=ent_key)
    t_ent = b.index[target["entrance"]]
    t_left = [b.index[s] for s, v in target["batteries"].items() if v]
    open_ents = [b.index[e["entrance"]] for e in ents if e["open"]]
    # distance maps
    if t_left:
        mi_goal = sorted({c for bq in t_left for c in b.near[bq] if b.port_of[c] != opp})
    else:
        mi_goal = [b.entrance_front[t_ent]]
    # the search levels' Missile ships may cross the neutral waters, where nobody can attack them
    d_mi = _bfs(b, mi_goal, 2 if informed else 8)
    # the search levels' Landing ship may cross the neutral waters and wait there (nobody attacks there)
    ls_cost = landing.NEUTRAL_COST if informed else 30
    d_ls = _bfs(b, open_ents, ls_cost) if open_ents else _bfs(b, [b.entrance_front[t_ent]], 30)
    hunt = [
        q
        for q in br.enemy
        if q not in b.neutral
        and br.enemy[q] not in ("battery", "mine")
        and (b.port_of[q] != opp or open_ents)
    ]
    hunt_goal = hunt + [b.entrance_front[t_ent]]
    if open_ents:
        hunt_goal += [q for q in range(b.n) if b.port_of[q] == opp]
    my_open = [b.index[e["entrance"]] for e in br.bats if e["seat"] == seat and e["open"]]
    intruders = [
        q
        for q in br.enemy
        if br.enemy[q] not in ("battery", "mine")
        and (b.port_of[q] == seat or q in br.danger_sq or any(_cheb(b, q, x) <= 3 for x in my_open))
    ]
    if intruders:
        hunt_goal = intruders
    d_hunt = _bfs(b, hunt_goal)
    n_missiles = br.my_missiles
    missiles_out = sum(1 for q, t in br.mine.items() if t == "missile" and b.port_of[q] != seat)
    ply = int(view.get("ply", 0))
    late = ply >= b.move_limit * 17 // 20  # a draw is worth no more than a loss: then the LS sails
    roaming = sum(1 for q, t in br.enemy.items() if t not in ("battery", "mine") and b.port_of[q] != opp)
    d_home = _bfs(b, [q for q in range(b.n) if b.port_of[q] == seat], 30)

    doomed = {q: br.mine[q] for q, n in br.nw.items() if n >= b.neutral_turns and q in b.neutral}
    d_layer, layer_at = _layer_plan(view, seat, br) if informed else (None, None)
    exposure = Exposure(br) if informed else None
    ls_at = next((q for q, t in br.mine.items() if t == "landing"), None) if informed and open_ents else None
    clear = {q for q in b.near[ls_at] if d_ls[q] < d_ls[ls_at]} if ls_at is not None else set()
    lane = _lane(br, d_ls, exposure, late) if exposure is not None and open_ents else None
    out: list[tuple[float, dict]] = []
    for a in moves:
        p = b.index[a["from"]]
        mt = br.mine[p]
        kind = a["type"]
        dest = b.index[a.get("via") or a.get("to") or a["from"]]
        score = rng.random() * 0.5
        if kind == "move" and mt == "landing" and b.port_of[dest] == opp:
            out.append((1e12, a))  # the landing wins the game
            continue
        if kind == "battery":
            score += 5000
        elif kind in ("attack", "defuse"):
            tq = b.index[a["target"]]
            ev = br.clash_ev(mt, tq, kind == "defuse")
            if mt == "battery":
                ev -= 10
            score += ev * 2
        # positional part for the square the unit ends on
        exact = False
        if dest != p:
            if mt == "missile":
                keep_home = (
                    n_missiles - missiles_out <= 1
                    and (n_missiles >= 2 or roaming > 4)
                    and b.port_of[p] == seat
                    and not open_ents
                )
                if exposure is not None and not keep_home:
                    score += _missile_step(br, p, dest, d_mi, exposure)
                    exact = True
                else:
                    score += (d_mi[p] - d_mi[dest]) * (10 if not keep_home else -4)
            elif mt == "landing" and lane is not None:
                score += lane.step(p, dest)
                exact = True
            elif mt == "landing":
                if open_ents and late:
                    score += (d_ls[p] - d_ls[dest]) * 12
                elif open_ents and b.port_of[dest] == seat and b.port_of[p] == seat:
                    # the Landing ship is the whole game: it waits at home while the others hunt
                    score -= 60
                elif open_ents and roaming > 2 and d_ls[p] > 3:
                    # too many enemies at sea: wait at home while the hunters thin them out
                    score += (d_home[p] - d_home[dest]) * 12 - 400 * (b.port_of[dest] != seat)
                elif open_ents:
                    score += (d_ls[p] - d_ls[dest]) * 12
                    if b.port_of[dest] != seat or b.port_of[p] != seat:
                        score += (br.exposure(p) - br.exposure(dest)) * 150 - 150 * br.exposure(dest)
                elif b.port_of[p] != seat:
                    score += (d_home[p] - d_home[dest]) * 12
                elif my_open:
                    score += (
                        min(_cheb(b, dest, x) for x in my_open) - min(_cheb(b, p, x) for x in my_open)
                    ) * 20
                else:
                    score -= 60
            elif p == layer_at and d_layer is not None:
                score += (d_layer[p] - d_layer[dest]) * 6
            elif p in clear and dest not in clear:
                score += CLEAR_THE_WAY  # a ship that stood in the Landing ship's way steps aside
            else:
                score += (d_hunt[p] - d_hunt[dest]) * 1.5
                if b.port_of[p] == seat and b.port_of[dest] != seat:
                    score += 2
            if not exact:  # the exact reach above replaces the rough threat
                tw = 1.0 if mt == "landing" else 0.25
                score += (br.threat(p, mt) - br.threat(dest, mt)) * tw
            if dest in b.neutral and p not in b.neutral and not (mt == "landing" and lane is not None):
                score -= 5000 if mt == "landing" else 8
            if p in b.neutral and dest not in b.neutral:
                score += br.nw.get(p, 0) * 6
        if doomed:
            # a unit that ends this turn in neutral waters again is removed: save it if possible
            lost = [t for q, t in doomed.items() if q != p or (dest in b.neutral and kind == "move")]
            score -= sum(br.value(t, True) + 40 for t in lost)
            if informed and "landing" in lost:
                score -= LOST_GAME  # the search levels: losing the Landing ship loses the game
        out.append((score, a))
    return out
