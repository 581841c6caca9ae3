"""The Enemy Lines AI: a depth-2 alpha-beta search (its move, the opponent's best reply).

It reads only the view (full information: Enemy Lines has no hidden state) and the legal
actions; the search replays moves with the shared geometry of ``board.py``. The
evaluation counts, for each side, the points already scored (size × mark of each ship
lying along a row in enemy lines) plus a smaller credit for progress towards the enemy
rows; terminal positions (three ships in, the extra turn, the turn limit) are scored
exactly. In the extra turn the AI passes (declining it) only when every move would
end the game worse for it than the position as it stands. Ties between equally good
moves are broken by the given random generator, so the choice is deterministic for a
given generator state.
"""

from __future__ import annotations

import random

from bot.games.enemy_lines import board as B
from bot.games.enemy_lines.board import LAYOUT as L

WIN = 1000.0
DRAW = -50.0  # a draw is worse than a position where we are merely level: keep playing for the win
PROGRESS = 0.3  # credit per row of advance per ship square, outside enemy lines
VERTICAL_IN = 0.6  # share of the row value credited to a ship lying along a column inside enemy lines


def _advance(seat: int, row: int) -> int:
    """How far a row is from the seat's own back row (0 = back row)."""
    back = L.home_rows[seat][0]
    return abs(row - back)


def ship_value(sid: str, pos) -> float:
    seat, size = L.seat[sid], L.size[sid]
    x, y, h = pos
    if h:
        m = L.enemy_mark(seat, y)
        if m:
            return size * m + 0.5
        return size * PROGRESS * _advance(seat, y)
    rows = (y, y + size - 1)
    front = max(rows, key=lambda r: _advance(seat, r))
    m = L.enemy_mark(seat, front)
    if m:
        return size * m * VERTICAL_IN
    return size * PROGRESS * _advance(seat, front)


def evaluate(ships: dict, seat: int) -> float:
    total = 0.0
    for sid, pos in ships.items():
        if pos is None:
            continue
        v = ship_value(sid, pos)
        total += v if L.seat[sid] == seat else -v
    return total


def terminal_value(ships: dict, seat: int) -> float:
    pts = B.scores(ships)
    diff = pts[seat] - pts[1 - seat]
    if diff > 0:
        return WIN + diff
    if diff < 0:
        return -WIN + diff
    return DRAW


def _after(ships: dict, mover: int, start: int, final: bool, moves: int) -> tuple[bool, bool]:
    """(game over?, extra turn pending?) after ``mover`` has played, mirroring the rules."""
    if final:
        return True, False
    if B.count_in_enemy_lines(ships, mover) >= 3:
        if mover == start:
            return False, True
        return True, False
    if moves >= L.turn_limit:
        return True, False
    return False, False


def _moves(ships: dict, seat: int, anchored: str | None) -> list[tuple[dict, tuple]]:
    occ = B.occupancy(ships)
    out = []
    for sid in L.fleet[seat]:
        if sid != anchored and ships[sid] is not None:
            out += B.ship_moves(ships, occ, sid)
    return out


def ships_from_view(view: dict) -> dict:
    ships: dict[str, tuple[int, int, bool] | None] = {}
    for s in view["ships"]:
        if s["placed"]:
            c, r = s["cells"][0]
            ships[s["id"]] = (c, r, s["along"] == "row")
        else:
            ships[s["id"]] = None
    return ships


def choose_move(view: dict, legal: list[dict], seat: int, rng: random.Random) -> dict:
    ships = ships_from_view(view)
    start = view["start"]
    final = bool(view["final_turn"])
    moves = int(view["move_number"]) + 1
    opp = 1 - seat
    opp_anchor = view["anchors"][str(opp)]
    order = [a for a in legal if a["type"] != "pass"]
    rng.shuffle(order)  # deterministic tie-breaks for a given generator
    best, best_val = order[0], -float("inf")
    for action in order:
        child = dict(ships)
        child[action["ship"]] = B.move_result(ships, action)
        over, extra = _after(child, seat, start, final, moves)
        if over:
            val = terminal_value(child, seat)
        else:
            # the opponent's reply (minimising); its anchor stays where it is
            val = float("inf")
            replies = _moves(child, opp, opp_anchor)
            if not replies:
                val = evaluate(child, seat)
            for reply, npos in replies:
                grand = dict(child)
                grand[reply["ship"]] = npos
                over2, _ = _after(grand, opp, start, extra, moves + 1)
                v = terminal_value(grand, seat) if over2 else evaluate(grand, seat)
                if v < val:
                    val = v
                    if val <= best_val:  # alpha cut: this move cannot beat the best so far
                        break
        if val > best_val:
            best, best_val = action, val
    if final and {"type": "pass"} in legal and best_val < terminal_value(ships, seat):
        # declining the extra turn ends the game as it stands: better when every move loses points
        return {"type": "pass"}
    return best


def choose_placement(view: dict, legal: list[dict], seat: int, rng: random.Random) -> dict:
    """Place where the squares ahead (towards the enemy) are free and no own ship behind is blocked."""
    ships = ships_from_view(view)
    occ = B.occupancy(ships)
    step = 1 if L.home_rows[seat][1] > L.home_rows[seat][0] else -1
    scored = []
    for a in legal:
        size = L.size[a["ship"]]
        cells = B.cells_of(size, (a["col"], a["row"], True))
        ahead = sum(1 for c, r in cells if 0 <= r + step < L.rows and (c, r + step) not in occ)
        behind = sum(1 for c, r in cells if occ.get((c, r - step)) and L.seat[occ[(c, r - step)]] == seat)
        centre = -abs((a["col"] + size / 2) - L.cols / 2) * 0.1
        scored.append((ahead - 1.5 * behind + centre + rng.random() * 0.05, a))
    return max(scored, key=lambda t: t[0])[1]


def choose_action(view: dict, legal: list[dict], seat: int, rng: random.Random) -> dict:
    if not legal:
        raise ValueError("no legal action")
    if len(legal) == 1:
        return legal[0]
    if view["phase"] == "placement":
        return choose_placement(view, legal, seat, rng)
    return choose_move(view, legal, seat, rng)


def greedy(view: dict, legal: list[dict], seat: int, rng: random.Random) -> dict:
    """The one-move greedy player (a bench baseline, issue 22): every legal move applied, the one with
    the best immediate evaluation (exact when it ends the game); placement as today's AI."""
    if view["phase"] == "placement" or len(legal) == 1:
        return choose_action(view, legal, seat, rng)
    ships = ships_from_view(view)
    final = bool(view["final_turn"])
    moves = int(view["move_number"]) + 1
    order = list(legal)
    rng.shuffle(order)

    def value(action: dict) -> float:
        if action["type"] == "pass":
            return terminal_value(ships, seat) if final else evaluate(ships, seat)
        child = dict(ships)
        child[action["ship"]] = B.move_result(ships, action)
        over, _ = _after(child, seat, view["start"], final, moves)
        return terminal_value(child, seat) if over else evaluate(child, seat)

    return max(order, key=value)


EASY_NOISE = 0.1  # the easy level's chance of a random legal move instead of today's choice


def easy(view: dict, legal: list[dict], seat: int, rng: random.Random) -> dict:
    """The easy level: today's choice, or with a chance of EASY_NOISE a random legal move."""
    if len(legal) > 1 and rng.random() < EASY_NOISE:
        return rng.choice(legal)
    return choose_action(view, legal, seat, rng)


BASELINES = {"greedy": greedy, "today": choose_action}
