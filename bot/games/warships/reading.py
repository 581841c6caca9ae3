"""The Warships position read in words, in reading order, for a screen reader (``Game.read_board``).

Every unit the view shows, per side, row by row from the top of the board (row 1) down, left to
right; then the exits and their batteries, the losses, the mines off the board and the last move.
A unit whose type the view hides is "an unknown unit": nothing here reads beyond the view.
"""

from __future__ import annotations

from bot.games.names import who
from bot.games.phrase import ENGLISH, Voice
from bot.games.warships.board import board
from bot.games.warships.texts import SIDES, UNIT_NAMES, end_of, last_move


def n_(singular: str, plural: str) -> tuple[str, str]:  # noqa: N802 - marks a plural for the extractor
    return singular, plural


# how many of each type a side lost, in the reader's language ("2 Battleships")
LOST_COUNTS = {
    "battleship": n_("{n} Battleship", "{n} Battleships"),
    "cruiser": n_("{n} Cruiser", "{n} Cruisers"),
    "destroyer": n_("{n} Destroyer", "{n} Destroyers"),
    "submarine": n_("{n} Submarine", "{n} Submarines"),
    "escort": n_("{n} Escort", "{n} Escorts"),
    "minesweeper": n_("{n} Minesweeper", "{n} Minesweepers"),
    "missile": n_("{n} Missile ship", "{n} Missile ships"),
    "landing": n_("{n} Landing ship", "{n} Landing ships"),
    "battery": n_("{n} Shore battery", "{n} Shore batteries"),
    "mine": n_("{n} Mine", "{n} Mines"),
}


def _square_key(name: str) -> tuple[int, str]:
    return int(name[1:]), name[0]


def _unit_words(unit: dict, speaker: Voice) -> str:
    _ = speaker.gettext
    kind = _(UNIT_NAMES[unit["type"]]) if unit.get("type") in UNIT_NAMES else _("unknown unit")
    where = {"square": unit["sq"], "unit": kind}
    nw = unit.get("nw")
    if unit.get("revealed"):
        if nw:
            return speaker.ngettext(
                "{square} {unit} (revealed) ({n} turn in neutral waters)",
                "{square} {unit} (revealed) ({n} turns in neutral waters)",
                nw,
                **where,
            )
        return _("{square} {unit} (revealed)", **where)
    if nw:
        return speaker.ngettext(
            "{square} {unit} ({n} turn in neutral waters)",
            "{square} {unit} ({n} turns in neutral waters)",
            nw,
            **where,
        )
    return f"{unit['sq']} {kind}"


def _side_units(view: dict, seat: int, speaker: Voice) -> list[str]:
    _ = speaker.gettext
    units = sorted(
        (u for u in view.get("units", []) if u["owner"] == seat), key=lambda u: _square_key(u["sq"])
    )
    lines = [
        speaker.ngettext(
            "{side}'s units ({shape}), {n} on the board:",
            "{side}'s units ({shape}), {n} on the board:",
            len(units),
            side=who(seat),
            shape=_(SIDES[seat]),
        )
    ]
    rows: dict[int, list[str]] = {}
    for unit in units:
        rows.setdefault(_square_key(unit["sq"])[0], []).append(_unit_words(unit, speaker))
    lines += [_("row {row}: {units}", row=row, units=", ".join(words)) for row, words in sorted(rows.items())]
    if not units:
        lines.append(_("none"))
    return lines


def _losses(view: dict, seat: int, speaker: Voice) -> str:
    _ = speaker.gettext
    b = board()
    lost = view.get("lost", {}).get(str(seat), {"types": {}, "unknown": 0, "total": 0})
    if not lost.get("total"):
        return _("{side} lost nothing.", side=who(seat))
    parts = [
        speaker.ngettext(*LOST_COUNTS[t], n)
        for t, n in sorted(lost["types"].items(), key=lambda kv: b.order.index(kv[0]))
    ]
    if lost.get("unknown"):
        parts.append(_("{n} unseen", n=lost["unknown"]))
    return _("{side} lost {total}: {parts}.", side=who(seat), total=lost["total"], parts=", ".join(parts))


def _exits(view: dict, seat: int, speaker: Voice) -> str:
    _ = speaker.gettext
    out = []
    for exit_ in view.get("batteries", []):
        if exit_["seat"] != seat:
            continue
        if exit_["open"]:
            out.append(_("exit {exit} open (both batteries gone)", exit=exit_["entrance"]))
        else:
            standing = [sq for sq, alive in exit_["batteries"].items() if alive]
            shown = (
                standing[0]
                if len(standing) == 1
                else _("{first} and {last}", first=", ".join(standing[:-1]), last=standing[-1])
            )
            out.append(
                _("exit {exit} guarded by batteries at {standing}", exit=exit_["entrance"], standing=shown)
            )
    return _("{side}'s exits: {exits}.", side=who(seat), exits="; ".join(out))


def _neutral_waters(speaker: Voice) -> str:
    b = board()
    squares = sorted((b.names[i] for i in b.neutral), key=_square_key)
    rows: dict[int, list[str]] = {}
    for name in squares:
        rows.setdefault(_square_key(name)[0], []).append(name)
    spans = "; ".join(speaker.gettext("{first} to {last}", first=r[0], last=r[-1]) for r in rows.values())
    return speaker.gettext("Neutral waters: {squares}.", squares=spans)


def read_board(view: dict, *, speaker: Voice = ENGLISH) -> list[str]:
    """The position of ``view`` in words, one fact a line, in reading order, in the language of
    ``speaker``; seats as ``who(seat)``."""
    _ = speaker.gettext
    lines: list[str] = []
    phase = view.get("phase")
    if phase == "setup":
        ready = view.get("submitted", [False, False])
        states = [
            _("{side} ready", side=who(p)) if ready[p] else _("{side} arranging", side=who(p)) for p in (0, 1)
        ]
        lines.append(_("Secret set-up: {states}.", states=", ".join(states)))
    elif phase == "over" and view.get("end"):
        lines.append(_("Game over: {end}", end=end_of(view, speaker)))
    for seat in (0, 1):
        lines += _side_units(view, seat, speaker)
    lines.append(_neutral_waters(speaker))
    if phase != "setup":
        lines += [_exits(view, p, speaker) for p in (0, 1)]
        lines += [_losses(view, p, speaker) for p in (0, 1)]
    for p, n in sorted((view.get("off_board_mines") or {}).items()):
        if n:
            lines.append(
                speaker.ngettext(
                    "{side} has {n} mine off the board.",
                    "{side} has {n} mines off the board.",
                    n,
                    side=who(int(p)),
                )
            )
    moved = last_move(view.get("last"), speaker)
    if moved and phase != "setup":
        lines.append(_("Last move: {move}.", move="; ".join(moved)))
    return lines
