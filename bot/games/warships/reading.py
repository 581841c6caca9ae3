"""The Warships position read in words, in reading order, for a screen reader (``Game.read_board``).

Every unit the view shows, per side, row by row from the top of the board (row 1) down, left to
right; then the exits and their batteries, the losses, the mines off the board and the last move.
A unit whose type the view hides is "an unknown unit": nothing here reads beyond the view.
"""

from __future__ import annotations

from bot.games.names import who
from bot.games.phrase import ENGLISH, Voice
from bot.games.warships.board import board
from bot.games.warships.texts import SIDES, last_move
from bot.games.words import counted

# The player-facing words of this module (plain English, one place: easy to translate later).
W_SIDE = "{side}'s units ({shape}), {count} on the board:"
W_NONE = "none"
W_ROW = "row {row}: {units}"
W_UNKNOWN = "unknown unit"
W_REVEALED = " (revealed)"
W_NEUTRAL = " ({turns} in neutral waters)"
W_SETUP = "Secret set-up: {states}."
W_READY = "{side} ready"
W_ARRANGING = "{side} arranging"
W_EXIT_OPEN = "exit {exit} open (both batteries gone)"
W_EXIT = "exit {exit} guarded by batteries at {standing}"
W_EXITS = "{side}'s exits: {exits}."
W_LOST = "{side} lost {total}: {parts}."
W_LOST_NONE = "{side} lost nothing."
W_UNSEEN = "{n} unseen"
W_MINES_OFF = "{side} has {mines} off the board."
W_LAST = "Last move: {move}."
W_NEUTRAL_WATERS = "Neutral waters: {squares}."
W_END = "Game over: {end}"


def _square_key(name: str) -> tuple[int, str]:
    return int(name[1:]), name[0]


def _unit_words(unit: dict) -> str:
    b = board()
    kind = b.name_of(unit["type"]) if unit.get("type") else W_UNKNOWN
    extra = W_REVEALED if unit.get("revealed") else ""
    if unit.get("nw"):
        extra += W_NEUTRAL.format(turns=counted(unit["nw"], "turn"))
    return f"{unit['sq']} {kind}{extra}"


def _side_units(view: dict, seat: int) -> list[str]:
    units = sorted(
        (u for u in view.get("units", []) if u["owner"] == seat), key=lambda u: _square_key(u["sq"])
    )
    lines = [W_SIDE.format(side=who(seat), shape=SIDES[seat], count=len(units))]
    rows: dict[int, list[str]] = {}
    for unit in units:
        rows.setdefault(_square_key(unit["sq"])[0], []).append(_unit_words(unit))
    lines += [W_ROW.format(row=row, units=", ".join(words)) for row, words in sorted(rows.items())]
    if not units:
        lines.append(W_NONE)
    return lines


def _losses(view: dict, seat: int) -> str:
    b = board()
    lost = view.get("lost", {}).get(str(seat), {"types": {}, "unknown": 0, "total": 0})
    if not lost.get("total"):
        return W_LOST_NONE.format(side=who(seat))
    parts = [
        counted(n, b.name_of(t))
        for t, n in sorted(lost["types"].items(), key=lambda kv: b.order.index(kv[0]))
    ]
    if lost.get("unknown"):
        parts.append(W_UNSEEN.format(n=lost["unknown"]))
    return W_LOST.format(side=who(seat), total=lost["total"], parts=", ".join(parts))


def _exits(view: dict, seat: int) -> str:
    out = []
    for exit_ in view.get("batteries", []):
        if exit_["seat"] != seat:
            continue
        if exit_["open"]:
            out.append(W_EXIT_OPEN.format(exit=exit_["entrance"]))
        else:
            standing = [sq for sq, alive in exit_["batteries"].items() if alive]
            out.append(W_EXIT.format(exit=exit_["entrance"], standing=" and ".join(standing)))
    return W_EXITS.format(side=who(seat), exits="; ".join(out))


def _neutral_waters() -> str:
    b = board()
    squares = sorted((b.names[i] for i in b.neutral), key=_square_key)
    rows: dict[int, list[str]] = {}
    for name in squares:
        rows.setdefault(_square_key(name)[0], []).append(name)
    return W_NEUTRAL_WATERS.format(squares="; ".join(f"{r[0]} to {r[-1]}" for r in rows.values()))


def read_board(view: dict, *, speaker: Voice = ENGLISH) -> list[str]:
    """The position of ``view`` in words, one fact a line, in reading order; seats as ``who(seat)``."""
    lines: list[str] = []
    phase = view.get("phase")
    if phase == "setup":
        ready = view.get("submitted", [False, False])
        states = [(W_READY if ready[p] else W_ARRANGING).format(side=who(p)) for p in (0, 1)]
        lines.append(W_SETUP.format(states=", ".join(states)))
    elif phase == "over" and view.get("end"):
        lines.append(W_END.format(end=view["end"]))
    for seat in (0, 1):
        lines += _side_units(view, seat)
    lines.append(_neutral_waters())
    if phase != "setup":
        lines += [_exits(view, p) for p in (0, 1)]
        lines += [_losses(view, p) for p in (0, 1)]
    for p, n in sorted((view.get("off_board_mines") or {}).items()):
        if n:
            lines.append(W_MINES_OFF.format(side=who(int(p)), mines=counted(n, "mine")))
    moved = last_move(view.get("last"))
    if moved and phase != "setup":
        lines.append(W_LAST.format(move="; ".join(moved)))
    return lines
