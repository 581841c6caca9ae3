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
