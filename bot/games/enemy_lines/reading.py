"""The Enemy Lines position read in words, in reading order, for a screen reader (``Game.read_board``):
the rows from the top of the board (the highest number) down, each with the side whose home row it is
and its mark, then every ship by side (its cells, size, anchored or not), the scores and the turns left."""

from __future__ import annotations

from bot.games.enemy_lines.texts import ENDING_COUNT, _last, _reason
from bot.games.names import who
from bot.games.phrase import ENGLISH, Voice


def _cell(c: int, r: int) -> str:
    return f"{chr(65 + c)}{r + 1}"


def _ship_key(ship: dict) -> tuple[int, int]:
    top = max(r for _, r in ship["cells"])
    left = min(c for c, _ in ship["cells"])
    return -top, left


def read_board(view: dict, *, speaker: Voice = ENGLISH) -> list[str]:
    """The position of ``view`` in words, one fact a line, in the language of ``speaker``; seats as
    ``who(seat)``."""
    _ = speaker.gettext
    lines = []
    for ri in sorted(view["row_info"], key=lambda ri: -ri["row"]):
        if ri["side"] is not None:
            lines.append(
                _(
                    "Row {row}: {side}'s home row, mark {mark}.",
                    row=ri["row"] + 1,
                    side=who(ri["side"]),
                    mark=ri["mark"],
                )
            )
    for seat in (0, 1):
        ships = sorted((s for s in view["ships"] if s["seat"] == seat and s["cells"]), key=_ship_key)
        lines.append(_("{side}'s ships, {count}:", side=who(seat), count=len(ships)))
        for ship in ships:
            cells = ", ".join(_cell(c, r) for c, r in sorted(ship["cells"], key=lambda cr: (-cr[1], cr[0])))
            lines.append(
                _("{size}-ship on {cells}, anchored", size=ship["size"], cells=cells)
                if ship["anchored"]
                else _("{size}-ship on {cells}", size=ship["size"], cells=cells)
            )
        if not ships:
            lines.append(_("none"))
        to_place = (view.get("to_place") or {}).get(str(seat))
        if to_place:
            sizes = ", ".join(_("{size}-ship", size=n[1:2]) for n in to_place)
            lines.append(_("{side} still has {ships} to place.", side=who(seat), ships=sizes))
    for seat in (0, 1):
        n = view.get("in_enemy_lines", {}).get(str(seat), 0)
        lines.append(
            _("{side} has {n} of {end} ships in enemy lines.", side=who(seat), n=n, end=ENDING_COUNT)
        )
    sc = view["scores"]
    scores = ", ".join(f"{who(p)} {sc[str(p)]}" for p in (0, 1))
    lines.append(_("Score so far: {scores}.", scores=scores))
    if view["phase"] == "over":
        lines.append(_("Game over ({reason}).", reason=_reason(view, speaker)))
    else:
        left = view["turn_limit"] - view["move_number"]
        lines.append(speaker.ngettext("{n} turn left.", "{n} turns left.", left))
        if view.get("final_turn"):
            lines.append(_("Extra final turn."))
    last = _last(view, speaker)
    if last:
        lines.append(_("Last move: {move}.", move=last))
    return lines
