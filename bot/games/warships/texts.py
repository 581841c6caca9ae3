"""The words beside the Warships picture, built from a view alone (never the full state).

``view_text``: whose turn, the last move, the losses, the exits and mines off the board (the picture
shows only the board); ``alt_text``: one sentence for a screen reader; ``key_text``: what the marks of the
picture mean. A spectator's view hides the type of every face-down unit, so nothing here can name it:
a unit's type is named only where the view itself carries it.
"""

from __future__ import annotations

from bot.games.names import fill_names, who
from bot.games.phrase import ENGLISH, Voice
from bot.games.warships.board import board
from bot.games.words import counted

MARKS = ("🔵", "🟥")  # as bot/layout.py SEAT_MARKS: each side's colour and shape (circle, square)
SIDES = ("Blue circles", "Red squares")
ALT_LIMIT = 256
VERBS = {"attack": "attacks", "battery": "hits the battery at", "defuse": "defuses the mine at"}
DONE = {"attack": "attacked", "battery": "hit the battery at", "defuse": "defused the mine at"}


def mark(seat: int) -> str:
    return MARKS[seat]


def _type_at(view: dict, square: str | None) -> str | None:
    """The type of the unit on ``square`` if the view shows it (own, revealed, battery), else None."""
    for unit in view.get("units", []):
        if unit["sq"] == square:
            return unit.get("type")
    return None


def last_move(last: dict | None) -> list[str]:
    """The last move in words, seats as ``who(seat)``: the move, the clash and what it removed."""
    if not last or last.get("seat") is None:
        return []
    b = board()
    col = who(last["seat"])
    kind = last.get("kind", "")
    if kind == "lay_mine" or ("from" not in last and last.get("mines")):
        return [f"{col} laid {counted(len(last['mines']), 'mine')} at {', '.join(last['mines'])}"]
    path = "→".join([last["from"]] + [last[k] for k in ("via", "to") if last.get(k)])
    if kind == "move":
        out = [f"{col} {path}"]
    else:
        out = [f"{col} {path} {VERBS.get(kind, kind)} {last.get('target', '')}".rstrip()]
    clash = last.get("clash")
    if clash:
        out.append(f"{b.name_of(clash['attacker'])} vs {b.name_of(clash['defender'])}")
        if clash.get("removed"):  # a battery firing at a missile ship removes nothing
            out.append("removed: " + ", ".join(clash["removed"]))
    if last.get("mines"):
        out.append("mines laid: " + ", ".join(last["mines"]))
    if last.get("neutral_removed"):
        out.append("lost in neutral waters: " + ", ".join(last["neutral_removed"]))
    return out


def _losses(view: dict, seat: int) -> str:
    b = board()
    lost = view.get("lost", {}).get(str(seat), {"types": {}, "unknown": 0, "total": 0})
    parts = [
        f"{b.abbr(t)}×{n}" if n > 1 else b.abbr(t)
        for t, n in sorted(lost["types"].items(), key=lambda kv: b.order.index(kv[0]))
    ]
    if lost.get("unknown"):
        parts.append(f"{lost['unknown']} unseen")
    return f"{mark(seat)} {who(seat)} {lost['total']}" + (f" ({', '.join(parts)})" if parts else "")


def _exits(view: dict, seat: int) -> str:
    out = []
    for exit_ in view.get("batteries", []):
        if exit_["seat"] != seat:
            continue
        left = sum(1 for alive in exit_["batteries"].values() if alive)
        out.append(f"{exit_['entrance']} **open**" if exit_["open"] else f"{exit_['entrance']} {left}/2")
    return f"{mark(seat)} {who(seat)} " + ", ".join(out)


def _sides(view: dict) -> str:
    """Which mark is whose (the picture has no names): the viewer first in a DM."""
    seat = view.get("seat")
    order = (0, 1) if seat is None else (seat, 1 - seat)
    port = {0: "port right", 1: "port left"}
    parts = []
    for p in order:
        you = " (you)" if p == seat else ""
        parts.append(f"{mark(p)} **{who(p)}**{you}: {SIDES[p]}, {port[p]}")
    return " · ".join(parts)


def view_text(view: dict, names: list[str] | None = None) -> str:
    lines = [_sides(view)]
    phase = view.get("phase")
    if phase == "over":
        winners = view.get("winners") or []
        head = f"**{who(winners[0])} wins!**" if winners else "**Draw.**"
        lines.append(f"{head} {view.get('end') or ''}".rstrip())
    elif phase == "setup":
        ready = view.get("submitted", [False, False])
        state = " · ".join(f"{mark(p)} {who(p)} {'ready' if ready[p] else 'arranging'}" for p in (0, 1))
        lines.append(f"**Secret set-up:** {state}")
    else:
        turn = view["turn"]
        left = view.get("move_limit", 0) - view.get("ply", 0)
        lines.append(f"{mark(turn)} **{who(turn)} to move** · {counted(left, 'move')} to a draw")
    moved = last_move(view.get("last"))
    if moved and phase != "setup":
        lines.append("**Last:** " + "; ".join(moved))
    if phase != "setup":
        lines.append("**Lost:** " + " · ".join(_losses(view, p) for p in (0, 1)))
        lines.append("**Exits:** " + " · ".join(_exits(view, p) for p in (0, 1)))
    off = view.get("off_board_mines") or {}
    if any(off.values()):
        lines.append(
            "**Mines off the board:** "
            + " · ".join(f"{mark(int(p))} {who(int(p))} {n}" for p, n in sorted(off.items()))
        )
    return fill_names("\n".join(lines), names)


def alt_text(view: dict, names: list[str] | None = None) -> str:
    """One sentence: the state of play, the last move (a unit named only if the view shows its type),
    the losses. Cut to ALT_LIMIT characters after the names are filled."""
    phase = view.get("phase")
    if phase == "setup":
        ready = view.get("submitted", [False, False])
        status = "secret set-up, " + ", ".join(
            f"{who(p)} {'ready' if ready[p] else 'arranging'}" for p in (0, 1)
        )
    elif phase == "over":
        winners = view.get("winners") or []
        status = f"game over, {who(winners[0])} wins" if winners else "game over, a draw"
    else:
        status = f"{who(view['turn'])} to move"
    parts = [f"Warships ({SIDES[0]}, port right; {SIDES[1]}, port left): {status}"]
    last = view.get("last") or {}
    if phase != "setup" and last.get("seat") is not None:
        parts.append(_alt_last(view, last))
    lost = view.get("lost", {})
    if phase != "setup":
        parts.append(
            "units lost: " + ", ".join(f"{who(p)} {lost.get(str(p), {}).get('total', 0)}" for p in (0, 1))
        )
    text = fill_names("; ".join(parts) + ".", names)
    return text if len(text) <= ALT_LIMIT else text[: ALT_LIMIT - 1].rstrip() + "…"


def _alt_last(view: dict, last: dict) -> str:
    b = board()
    seat = last["seat"]
    if "from" not in last:
        return f"{who(seat)} laid {counted(len(last.get('mines', [])), 'mine')}"
    clash = last.get("clash") or {}
    kind = clash.get("attacker") or _type_at(view, last.get("to") or last.get("via") or last["from"])
    unit = b.name_of(kind).lower() if kind and kind in b.types else "unit"
    path = "→".join([last["from"]] + [last[k] for k in ("via", "to") if last.get(k)])
    text = f"{who(seat)}'s {unit} moved {path}" if "→" in path else f"{who(seat)}'s {unit} at {path}"
    if last.get("target"):
        text += (
            f"{' and' if '→' in path else ''} {DONE.get(last.get('kind', ''), 'attacked')} {last['target']}"
        )
    if clash.get("removed"):
        text += f", {counted(len(clash['removed']), 'unit')} removed"
    return text


def key_text(view: dict, *, speaker: Voice = ENGLISH) -> str:
    b = board()
    ships = ", ".join(f"**{b.abbr(t)}** {b.name_of(t)}" for t in b.order if t not in ("battery", "mine"))
    limit = view.get("neutral_turns", b.neutral_turns)
    return "\n".join(
        [
            "**Warships: the key to the board**",
            "The board is drawn on its side: the row numbers 1–16 run across the top and the column "
            "letters A–L down the sides, so a square keeps the name you type in `/ws move`: J15 is "
            "where letter J meets number 15. Red's port (rows 1–4) is on the left, Blue's (13–16) on "
            "the right.",
            f"- {MARKS[0]} Blue's units are **circles**, {MARKS[1]} Red's are **squares**.",
            f"- Letters on a unit: its type. {ships}.",
            "- No letters, a dark centre: face down, its type unknown to you. A **gold rim**: its type "
            "has been seen by both players.",
            "- A **tower**: a shore battery, beside an exit. A **spiked ball**: a mine (you see your own).",
            "- Tan squares: a port, behind the thick **fortification line**; the walled gaps are its "
            "exits. A red cross on a battery square: that battery is gone.",
            f"- Dotted water with islands: **neutral waters**; a number tag on a unit: turns it has "
            f"ended there (a unit ending turn {limit + 1} there is removed).",
            "- Dashed frames: the initial-manoeuvres areas (coloured when that option is on).",
            "- The last move: a **yellow arrow** and frames from where the unit came to where it went, a "
            "**red arrow** and frame on what it attacked, a **red cross** on a unit it removed, gold "
            "frames on mines just laid.",
        ]
    )
