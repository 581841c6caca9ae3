"""Landings for the Warships search levels: when the Landing ship sails for an open enemy exit.

The game is won by a Landing ship that enters the enemy port (rule 15.1), which it can do only
through an exit whose two batteries a Missile ship has taken out (rule 6). Every enemy ship beats the
Landing ship (range 1), so it must not stop where an enemy ship could attack it on the enemy's next
turn: how many could is :mod:`.threats` (exact reach on the board: a unit moves, then fires, along
clear lines), each face-down enemy counted with the probability of each ship type it may be
(:meth:`.ai.Brain.probs`).

Two users: :func:`.ai.scored` (``informed``: the search levels' candidates) moves the Landing ship
along its way while the square it stops on is hardly more in reach than the one it leaves, and the
search's evaluation scores the same reach on a whole (sampled) position, where every type is known.
"""

from __future__ import annotations

from bot.games.warships.board import Board

# the score of one step nearer an open exit (ai.scored, and the search's evaluation), and what being
# near it adds (each of the last steps is worth more: the next one may win the game)
STEP = 60.0
NEAR = 2000.0
# the cost of each enemy ship (expected) that could attack the Landing ship where it stops: a step into
# a reach that is more than 15 % likely costs more than the step is worth, so the ship holds
EXPOSED = 400.0


def gain(d: int) -> float:
    """What a Landing ship d steps from an open exit's entrance square is worth (0 = in the port)."""
    return STEP * max(0, 24 - d) + NEAR / (d + 1)


def sea_steps(b: Board, e: int, q: int) -> int:
    """King steps from e to q for a unit of e's side: from inside its port to a square outside it,
    through one of its own exits (the straight step across the exit's wall counts one)."""
    port = b.port_of[e]
    if port < 0 or b.port_of[q] == port:
        return _cheb(b, e, q)
    return min(_cheb(b, e, x) + 1 + _cheb(b, b.entrance_front[x], q) for x in b.entrances[port])


def _cheb(b: Board, a: int, c: int) -> int:
    (x0, y0), (x1, y1) = b.xy(a), b.xy(c)
    return max(abs(x0 - x1), abs(y0 - y1))


# ----- the lane: when the Landing ship leaves a safe square ------------------------------------------
# Nobody can attack a unit in the neutral waters (rule 14): the Landing ship's way may cross them (a
# step there costs what any step costs) and it may wait there, as at home behind guarded exits, for up
# to three turns. Between two safe squares it stands in the open for a few turns (three on each side of
# the neutral waters): it leaves a safe square only when few enemy ships could reach that stretch in
# time, counting LANE_TURNS of the enemy's turns ahead (a unit of range r reaches (k + 1)·r fields in k
# turns, blockers ignored: a unit in the way now may be gone by then).
NEUTRAL_COST = 1
LANE_TURNS = 2
# the expected number of enemy ships that could reach the stretch in time, under which it sails; late
# in the game (a draw at the move limit counts a half) it takes a larger chance
LANE_OK = 0.5
LANE_OK_LATE = 1.5
# leaving a safe square onto a clear lane; an exposed Landing ship going on (standing still in the open
# is no safer than sailing on)
SAIL = 300.0
COMMIT = 150.0


class Lane:
    """The search levels' Landing ship while an enemy exit is open (:func:`.ai.scored`).

    ``d``: steps to the nearest open exit's entrance square (:data:`NEUTRAL_COST` in the neutral
    waters); ``exact(q)``: the expected number of enemy ships that could attack q on their next turn
    (:mod:`.threats`); ``enemies``: the enemy's units that may be ships, as :data:`.threats.Enemy`;
    ``safe(q)``: whether no enemy ship may attack q at all (home behind guarded exits, neutral waters);
    ``gates``: the own exits' entrance squares, each with the square in front of it (the Landing ship
    waits behind them, not on them: an exit opened while it stands there lays it open at once);
    ``late``: near the move limit.
    """

    def __init__(
        self,
        b: Board,
        d: tuple[int, ...],
        exact,
        enemies: list,
        safe,
        gates: dict[int, int],
        late: bool = False,
    ) -> None:
        self.b, self.d, self.exact, self.enemies, self.safe = b, d, exact, enemies, safe
        self.gates = gates
        self.ok = LANE_OK_LATE if late else LANE_OK
        self._risk: dict[int, float] = {}

    def stretch(self, q: int) -> list[int]:
        """The squares the Landing ship stands on from q (included) along its way, up to the first
        safe square or the exit's entrance (excluded): where it stands in the open."""
        b, d = self.b, self.d
        out: list[int] = []
        cur = q
        while d[cur] > 0 and not self.safe(cur) and len(out) < 30:
            out.append(cur)
            nxt = [
                c
                for c in b.near[cur]
                if d[c] == d[cur] - 1 and (not b.crosses_line(cur, c) or b.entrance_step(cur, c) is not None)
            ]
            if not nxt:
                break
            cur = min(nxt, key=lambda c: (not self.safe(c), self._near(c), c))
        return out

    def _near(self, q: int) -> float:
        """The expected number of enemy ships within one turn's reach of q (2r fields)."""
        return sum(p for e, kinds in self.enemies for r, _mi, p in kinds if sea_steps(self.b, e, q) <= 2 * r)

    def risk(self, q: int) -> float:
        """The expected number of enemy ships that could reach the stretch from q in time: its k-th
        square within (min(k, LANE_TURNS) + 1)·r fields of an enemy ship of range r."""
        found = self._risk.get(q)
        if found is None:
            stops = self.stretch(q)
            found = self._risk[q] = sum(
                p
                for e, kinds in self.enemies
                for r, _mi, p in kinds
                if any(
                    sea_steps(self.b, e, s) <= r * (min(k, LANE_TURNS) + 1) for k, s in enumerate(stops, 1)
                )
            )
        return found

    def clear(self, q: int) -> bool:
        """Whether the Landing ship may sail onto q, the first square of a stretch in the open."""
        return self.risk(q) + self.exact(q) <= self.ok

    def step(self, p: int, dest: int) -> float:
        """The score of the Landing ship's move p → dest (the other moves leave it where it is)."""
        gain_ = gain(self.d[dest]) - gain(self.d[p])
        if self.safe(p):
            if self.safe(dest) and dest not in self.gates:
                if p in self.gates and not self.clear(self.gates[p]):
                    return gain_ + EXPOSED  # off the own exit while the lane beyond is covered
                return gain_
            ahead = self.gates.get(dest, dest)  # onto the own exit: the first step out
            risk = self.risk(ahead) + self.exact(ahead)
            if risk <= self.ok:
                return gain_ + SAIL * (1 - risk / (2 * self.ok))  # the clearer lane first
            return gain_ - EXPOSED * (1 + risk)  # it waits in its harbour until the lane is clear
        stay = self.risk(p) + self.exact(p)
        there = 0.0 if self.safe(dest) else self.risk(dest) + self.exact(dest)
        return gain_ + COMMIT + EXPOSED * (stay - there)
