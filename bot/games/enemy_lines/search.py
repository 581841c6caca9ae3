"""The Enemy Lines search (levels normal and hard): iterative-deepening alpha-beta (negamax) over the
position rebuilt from the view, with a transposition table, move ordering (the table's move, moves that
enter enemy lines, killer moves, the history heuristic) and today's evaluation (:mod:`.ai`) at the
leaves, read from a table per ship and square so a move updates it by one subtraction.

Enemy Lines has no hidden information: the view is the whole position. The search mirrors the rules of
``game.py`` (anchors, the extra turn the second player may decline, the pass of a side without a move,
the turn limit); ``test_search.py`` checks its move generation against the game's legal actions.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from bot.games.ai import Budget, Stopwatch
from bot.games.enemy_lines import ai
from bot.games.enemy_lines import board as B
from bot.games.enemy_lines.board import LAYOUT as L

IDS = L.ship_ids
INDEX = {sid: i for i, sid in enumerate(IDS)}
SIZE = tuple(L.size[s] for s in IDS)
SEAT = tuple(L.seat[s] for s in IDS)
FLEET = tuple(tuple(i for i in range(len(IDS)) if SEAT[i] == seat) for seat in (0, 1))
MAX_DEPTH = 64
INF = float("inf")
EXACT, LOWER, UPPER = 0, 1, 2
RESERVE = 0.15  # the share of a timed budget kept unspent (a loaded machine overshoots the last check)
Move = tuple[int, tuple, tuple] | None  # (ship index, new position, the move's words), or PASS
PASS = None  # the pass move (a side without a move, or declining the extra turn)


def _value_table() -> tuple[dict, ...]:
    """For each ship, its evaluation (today's ``ship_value``) at every position on the board."""
    out = []
    for i, sid in enumerate(IDS):
        table = {}
        for x in range(L.cols):
            for y in range(L.rows):
                for h in (True, False):
                    if B.on_board(B.cells_of(SIZE[i], (x, y, h))):
                        table[(x, y, h)] = ai.ship_value(sid, (x, y, h))
        out.append(table)
    return tuple(out)


VALUE = _value_table()


def _rays() -> tuple[dict, ...]:
    """For each ship and position, its moves as rays: a travel's steps in one direction (blocked from
    the first step that meets a ship), each rotation a ray of one; each step with the squares it needs."""
    out = []
    for i in range(len(IDS)):
        size = SIZE[i]
        table = {}
        for pos in VALUE[i]:
            rays = []
            for d, (dx, dy) in B.DIRS.items():
                ray: list[tuple] = []
                for dist in range(1, size + 1):
                    npos = (pos[0] + dx * dist, pos[1] + dy * dist, pos[2])
                    if npos not in VALUE[i]:
                        break
                    ray.append((npos, tuple(B.cells_of(size, npos)), ("travel", d, dist)))
                rays.append(ray)
            for pivot in B.ends(size, pos):
                for to in ("N", "S") if pos[2] else ("E", "W"):
                    npos = B.rotated(size, pos, pivot, to)
                    if npos in VALUE[i]:
                        rays.append([(npos, tuple(B.cells_of(size, npos)), ("rotate", pivot, to))])
            table[pos] = rays
        out.append(table)
    return tuple(out)


RAYS = _rays()


def _points(i: int, pos) -> int:
    return SIZE[i] * B.in_enemy_lines(IDS[i], pos)


@dataclass
class Position:
    """The whole game state the search needs, with the evaluation kept up to date for seat 0."""

    ships: list  # per ship index: (x, y, h) or None
    anchors: list  # per seat: ship index or None
    turn: int
    start: int
    final: bool
    moves: int
    score0: float = 0.0  # today's evaluation from seat 0's side

    @classmethod
    def from_view(cls, view: dict) -> Position:
        ships = ai.ships_from_view(view)
        anchors = [
            None if view["anchors"][str(s)] is None else INDEX[view["anchors"][str(s)]] for s in (0, 1)
        ]
        pos = cls(
            ships=[ships[sid] for sid in IDS],
            anchors=anchors,
            turn=int(view["turn"]),
            start=int(view["start"]),
            final=bool(view["final_turn"]),
            moves=int(view["move_number"]),
        )
        pos.score0 = sum((1 if SEAT[i] == 0 else -1) * VALUE[i][p] for i, p in enumerate(pos.ships) if p)
        return pos

    def key(self) -> tuple:
        return (*self.ships, *self.anchors, self.turn, self.final, self.moves)

    def occupancy(self) -> dict:
        occ = {}
        for i, p in enumerate(self.ships):
            if p is not None:
                for cell in B.cells_of(SIZE[i], p):
                    occ[cell] = i
        return occ

    def moves_of(self, seat: int, ignore_anchor: bool = False) -> list[tuple[int, tuple, tuple]]:
        """Every move of ``seat`` as (ship index, new position, the move's words for the game)."""
        occ = self.occupancy()
        anchored = None if ignore_anchor else self.anchors[seat]
        out = []
        for i in FLEET[seat]:
            pos = self.ships[i]
            if i == anchored or pos is None:
                continue
            for ray in RAYS[i][pos]:
                for npos, cells, words in ray:
                    if any(occ.get(c, i) != i for c in cells):
                        break  # no travelling through a ship; a rotation is a ray of one
                    out.append((i, npos, words))
        return out

    def points(self) -> list[int]:
        out = [0, 0]
        for i, p in enumerate(self.ships):
            if p is not None:
                out[SEAT[i]] += _points(i, p)
        return out

    def in_lines(self, seat: int) -> int:
        return sum(1 for i in FLEET[seat] if self.ships[i] and B.in_enemy_lines(IDS[i], self.ships[i]))


def as_action(move: Move) -> dict:
    """A search move in the game's words (the legal action it stands for)."""
    if move is None:
        return {"type": "pass"}
    i, _, words = move
    if words[0] == "travel":
        return {"type": "travel", "ship": IDS[i], "dir": words[1], "dist": words[2]}
    return {"type": "rotate", "ship": IDS[i], "pivot": words[1], "to": words[2]}


def legal_moves(pos: Position) -> list:
    """The moves of the side to move, as the rules list them (a pass when none, or as well in the extra
    turn, where passing declines it)."""
    moves: list = pos.moves_of(pos.turn)
    if not moves:
        return [PASS]
    if pos.final:
        return [*moves, PASS]
    return moves


class _Out(Exception):
    """The stopwatch ran out in the middle of a depth."""


class Searcher:
    def __init__(self, watch: Stopwatch, rng: random.Random, seat: int) -> None:
        self.watch, self.rng, self.seat = watch, rng, seat
        self.abortable = False
        self.last_cost = 0.0  # the seconds the last completed depth took
        # stop with a share of the budget to spare: the p99 must stay within the budget
        self.reserve = 0.0 if watch.budget.iterations is not None else watch.budget.seconds * RESERVE
        self.nodes = 0
        self.table: dict = {}
        self.killers: list[list] = [[] for _ in range(MAX_DEPTH + 2)]
        self.history: dict = {}
        self.noise: dict = {}  # a tiny random tie-break per move, fixed for the whole search

    # ----- rules, as in game.py -------------------------------------------------------------------
    def _play(self, pos: Position, move) -> tuple[Position, float | None]:
        """The position after ``move`` by the side to move, and its exact value for the side that moved
        if the game is over (else None)."""
        mover = pos.turn
        ships, anchors = list(pos.ships), list(pos.anchors)
        score0 = pos.score0
        if move is PASS:
            if pos.final and pos.moves_of(mover):  # declining the extra turn ends the game
                child = Position(ships, anchors, mover, pos.start, False, pos.moves + 1, score0)
                return child, self._final(child, mover)
            anchors[mover] = None
        else:
            i, npos, _ = move
            old = ships[i]
            ships[i] = npos
            anchors[mover] = i
            sign = 1 if SEAT[i] == 0 else -1
            score0 += sign * (VALUE[i][npos] - VALUE[i][old])
        child = Position(ships, anchors, 1 - mover, pos.start, False, pos.moves + 1, score0)
        if pos.final:
            return child, self._final(child, mover)
        if child.in_lines(mover) >= 3:
            if mover == pos.start:
                child.final = True
            else:
                return child, self._final(child, mover)
        elif child.moves >= L.turn_limit:
            return child, self._final(child, mover)
        return child, None

    def _final(self, pos: Position, seat: int) -> float:
        """The exact value of a finished game for ``seat``; a draw counts as a loss of ``DRAW`` for the
        seat searching (it plays on for the win) and as that much gained for its opponent."""
        pts = pos.points()
        diff = pts[seat] - pts[1 - seat]
        if diff > 0:
            return ai.WIN + diff
        if diff < 0:
            return -ai.WIN + diff
        return ai.DRAW if seat == self.seat else -ai.DRAW

    @staticmethod
    def _static(pos: Position) -> float:
        return pos.score0 if pos.turn == 0 else -pos.score0

    # ----- ordering ----------------------------------------------------------------------------------
    def _order(self, pos: Position, moves: list, ply: int, best) -> list:
        killers = self.killers[ply]
        seat = pos.turn

        def rank(move) -> float:
            if move == best:
                return -1e9
            if move is PASS:
                return 0.0
            i, npos, _ = move
            gain = VALUE[i][npos] - VALUE[i][pos.ships[i]]
            score = -gain * 10
            if _points(i, npos) and not _points(i, pos.ships[i]):
                score -= 1e6  # entering enemy lines first (this game's captures)
            if move in killers:
                score -= 1e5
            score -= self.history.get((seat, i, npos), 0)
            return score + self.noise.setdefault((i, npos), self.rng.random() * 1e-3)

        return sorted(moves, key=rank)

    # ----- alpha-beta ----------------------------------------------------------------------------------
    def negamax(self, pos: Position, depth: int, alpha: float, beta: float, ply: int) -> float:
        self.nodes += 1
        if self.abortable and (self.nodes & 7 == 0 or self.watch.budget.iterations is not None):
            if not self.watch.more(self.nodes) or self.watch.left() < self.reserve:
                raise _Out
        if depth <= 0:
            return self._static(pos)
        key = pos.key()
        entry = self.table.get(key)
        tt_move = None
        if entry is not None:
            e_depth, e_flag, e_value, tt_move = entry
            if e_depth >= depth:
                if e_flag == EXACT:
                    return e_value
                if e_flag == LOWER and e_value >= beta:
                    return e_value
                if e_flag == UPPER and e_value <= alpha:
                    return e_value
        moves: list = pos.moves_of(pos.turn)
        if not moves:
            if not pos.moves_of(0, True) and not pos.moves_of(1, True):
                return self._final(pos, pos.turn)  # no ship of either side can move: the game ends
            moves = [PASS]
        elif pos.final:
            moves.append(PASS)
        if depth == 1:
            return self._frontier(pos, moves)
        alpha0 = alpha
        best_value, best_move = -INF, None
        for move in self._order(pos, moves, ply, tt_move):
            child, over = self._play(pos, move)
            if over is not None:
                value = over
            else:
                value = -self.negamax(child, depth - 1, -beta, -alpha, ply + 1)
            if value > best_value:
                best_value, best_move = value, move
            if value > alpha:
                alpha = value
            if alpha >= beta:
                if move is not PASS:
                    killers = self.killers[ply]
                    if move not in killers:
                        killers.insert(0, move)
                        del killers[2:]
                    hkey = (pos.turn, move[0], move[1])
                    self.history[hkey] = self.history.get(hkey, 0) + depth * depth
                break
        flag = EXACT if alpha0 < best_value < beta else (LOWER if best_value >= beta else UPPER)
        self.table[key] = (depth, flag, best_value, best_move)
        return best_value

    def _frontier(self, pos: Position, moves: list) -> float:
        """The value of a position one move from the leaves: its best move by the evaluation after it
        (a quiet move updates the evaluation in place; one that may end the game is played out)."""
        best = -INF
        sign0 = 1 if pos.turn == 0 else -1
        risky = pos.final or pos.moves + 1 >= L.turn_limit
        for move in moves:
            if move is not PASS and not risky:
                i, npos, _ = move
                if not _points(i, npos):
                    delta = VALUE[i][npos] - VALUE[i][pos.ships[i]]
                    value = sign0 * pos.score0 + delta  # own ships only: the mover gains delta
                    if value > best:
                        best = value
                    continue
            child, over = self._play(pos, move)
            value = over if over is not None else -self._static(child)
            if value > best:
                best = value
        return best

    def root(self, pos: Position, depth: int, prev_best) -> tuple[Move, float]:
        """The best root move at ``depth`` (searched with full windows so ties are seen as ties)."""
        alpha = -INF
        best_move, best_value = None, -INF
        for move in self._order(pos, legal_moves(pos), 0, prev_best):
            child, over = self._play(pos, move)
            if over is not None:
                value = over
            else:
                value = -self.negamax(child, depth - 1, -INF, -alpha, 1)
            if value > best_value:
                best_move, best_value = move, value
                alpha = value
        return best_move, best_value

    def search(self, pos: Position) -> tuple[Move, float, int]:
        """Iterative deepening: (best move, its value, the deepest depth completed)."""
        self.abortable = False  # depth 1 is always completed: an answer whatever the budget
        best, value = self.root(pos, 1, None)
        done = 1
        self.abortable = True
        for depth in range(2, MAX_DEPTH + 1):
            if self.watch.budget.iterations is None and self.watch.left() < self.reserve + self.last_cost * 2:
                break  # the next depth would not finish in time: keep the time
            started = self.watch.left()
            try:
                best, value = self.root(pos, depth, best)
            except _Out:
                break
            done = depth
            self.last_cost = started - self.watch.left()
            if abs(value) >= ai.WIN / 2:
                break  # the outcome is decided: a deeper search finds nothing new
        return best, value, done


def choose_move(view: dict, budget: Budget, rng: random.Random) -> dict:
    """The searched move of the side to move in ``view`` (play phase)."""
    pos = Position.from_view(view)
    move, _, _ = Searcher(budget.start(), rng, pos.turn).search(pos)
    return as_action(move)
