"""The Enemy Lines position read in words, in reading order, for a screen reader (``Game.read_board``):
the rows from the top of the board (the highest number) down, each with the side whose home row it is
and its mark, then every ship by side (its cells, size, anchored or not), the scores and the turns left."""

from __future__ import annotations

from bot.games.enemy_lines.texts import ENDING_COUNT, _last
from bot.games.names import who
from bot.games.phrase import ENGLISH, Voice

# The player-facing words of this module (plain English, one place: easy to translate later).
W_ROW = "Row {row}: {side}'s home row, mark {mark}."
W_SHIPS = "{side}'s ships, {count}:"
W_SHIP = "{size}-ship on {cells}{anchored}"
W_ANCHORED = ", anchored"
W_NONE = "none"
W_TO_PLACE = "{side} still has {ships} to place."
W_IN_LINES = "{side} has {n} of {end} ships in enemy lines."
W_SCORE = "Score so far: {scores}."
W_SCORE_ONE = "{side} {points}"
W_TURNS = "{left} turns left."
W_FINAL = "Extra final turn."
W_OVER = "Game over ({reason})."
W_LAST = "Last move: {move}."


def _cell(c: int, r: int) -> str:
    return f"{chr(65 + c)}{r + 1}"


def _ship_key(ship: dict) -> tuple[int, int]:
    top = max(r for _, r in ship["cells"])
    left = min(c for c, _ in ship["cells"])
    return -top, left


def read_board(view: dict, *, speaker: Voice = ENGLISH) -> list[str]:
    """The position of ``view`` in words, one fact a line; seats as ``who(seat)``."""
    lines = []
    for ri in sorted(view["row_info"], key=lambda ri: -ri["row"]):
        if ri["side"] is not None:
            lines.append(W_ROW.format(row=ri["row"] + 1, side=who(ri["side"]), mark=ri["mark"]))
    for seat in (0, 1):
        ships = sorted((s for s in view["ships"] if s["seat"] == seat and s["cells"]), key=_ship_key)
        lines.append(W_SHIPS.format(side=who(seat), count=len(ships)))
        for ship in ships:
            cells = sorted(ship["cells"], key=lambda cr: (-cr[1], cr[0]))
            lines.append(
                W_SHIP.format(
                    size=ship["size"],
                    cells=", ".join(_cell(c, r) for c, r in cells),
                    anchored=W_ANCHORED if ship["anchored"] else "",
                )
            )
        if not ships:
            lines.append(W_NONE)
        to_place = (view.get("to_place") or {}).get(str(seat))
        if to_place:
            lines.append(
                W_TO_PLACE.format(side=who(seat), ships=", ".join(f"{n[1:2]}-ship" for n in to_place))
            )
    for seat in (0, 1):
        n = view.get("in_enemy_lines", {}).get(str(seat), 0)
        lines.append(W_IN_LINES.format(side=who(seat), n=n, end=ENDING_COUNT))
    sc = view["scores"]
    lines.append(
        W_SCORE.format(scores=", ".join(W_SCORE_ONE.format(side=who(p), points=sc[str(p)]) for p in (0, 1)))
    )
    if view["phase"] == "over":
        lines.append(W_OVER.format(reason=(view.get("result") or {}).get("reason", "")))
    else:
        lines.append(W_TURNS.format(left=view["turn_limit"] - view["move_number"]))
        if view.get("final_turn"):
            lines.append(W_FINAL)
    last = _last(view)
    if last:
        lines.append(W_LAST.format(move=last))
    return lines
