"""The words beside the Warships picture, built from a view alone (never the full state).

``view_text``: whose turn, the last move, the losses, the exits and mines off the board (the picture
shows only the board); ``alt_text``: one sentence for a screen reader; ``key_text``: what the marks of the
picture mean. A spectator's view hides the type of every face-down unit, so nothing here can name it:
a unit's type is named only where the view itself carries it.
"""

from __future__ import annotations

from bot.games.names import fill_names, who
from bot.games.phrase import ENGLISH, N_, Phrase, Voice
from bot.games.warships.board import board

MARKS = ("🔵", "🟥")  # as bot/layout.py SEAT_MARKS: each side's colour and shape (circle, square)
SIDES = (N_("Blue circles"), N_("Red squares"))
PORTS = (N_("port right"), N_("port left"))
ALT_LIMIT = 256
# The units' names (data/warships/units.toml's, a test keeps them equal) as messages: said in the
# reader's language wherever a text names a unit.
UNIT_NAMES = {
    "battleship": N_("Battleship"),
    "cruiser": N_("Cruiser"),
    "destroyer": N_("Destroyer"),
    "submarine": N_("Submarine"),
    "escort": N_("Escort"),
    "minesweeper": N_("Minesweeper"),
    "missile": N_("Missile ship"),
    "landing": N_("Landing ship"),
    "battery": N_("Shore battery"),
    "mine": N_("Mine"),
}


def unit_name(t: str) -> Phrase:
    """A unit type's name as a message ("Battleship")."""
    return Phrase(UNIT_NAMES[t]) if t in UNIT_NAMES else Phrase(board().name_of(t))


def mark(seat: int) -> str:
    return MARKS[seat]


def end_of(view: dict, speaker: Voice = ENGLISH) -> str:
    """Why the game ended, in the language of ``speaker`` (the view keeps the sentence's message)."""
    data = view.get("end_phrase")
    if isinstance(data, dict) and "msgid" in data:
        return speaker.say(Phrase.from_json(data))
    return str(view.get("end") or "")


def _type_at(view: dict, square: str | None) -> str | None:
    """The type of the unit on ``square`` if the view shows it (own, revealed, battery), else None."""
    for unit in view.get("units", []):
        if unit["sq"] == square:
            return unit.get("type")
    return None


def last_move(last: dict | None, speaker: Voice = ENGLISH) -> list[str]:
    """The last move in words, seats as ``who(seat)``: the move, the clash and what it removed."""
    if not last or last.get("seat") is None:
        return []
    _ = speaker.gettext
    col = who(last["seat"])
    kind = last.get("kind", "")
    if kind == "lay_mine" or ("from" not in last and last.get("mines")):
        mines = last["mines"]
        return [
            speaker.ngettext(
                "{side} laid {n} mine at {squares}",
                "{side} laid {n} mines at {squares}",
                len(mines),
                side=col,
                squares=", ".join(mines),
            )
        ]
    path = "→".join([last["from"]] + [last[k] for k in ("via", "to") if last.get(k)])
    target = last.get("target", "")
    if kind == "move":
        out = [f"{col} {path}"]
    elif kind == "attack":
        out = [_("{side} {path} attacks {target}", side=col, path=path, target=target)]
    elif kind == "battery":
        out = [_("{side} {path} hits the battery at {target}", side=col, path=path, target=target)]
    elif kind == "defuse":
        out = [_("{side} {path} defuses the mine at {target}", side=col, path=path, target=target)]
    else:
        out = [f"{col} {path} {kind} {target}".rstrip()]
    clash = last.get("clash")
    if clash:
        out.append(
            _(
                "{unit} vs {target}",
                unit=_(UNIT_NAMES[clash["attacker"]]),
                target=_(UNIT_NAMES[clash["defender"]]),
            )
        )
        if clash.get("removed"):  # a battery firing at a missile ship removes nothing
            out.append(_("removed: {squares}", squares=", ".join(clash["removed"])))
    if last.get("mines"):
        out.append(_("mines laid: {squares}", squares=", ".join(last["mines"])))
    if last.get("neutral_removed"):
        out.append(_("lost in neutral waters: {squares}", squares=", ".join(last["neutral_removed"])))
    return out


def _losses(view: dict, seat: int, speaker: Voice = ENGLISH) -> str:
    b = board()
    lost = view.get("lost", {}).get(str(seat), {"types": {}, "unknown": 0, "total": 0})
    parts = [
        f"{b.abbr(t)}×{n}" if n > 1 else b.abbr(t)
        for t, n in sorted(lost["types"].items(), key=lambda kv: b.order.index(kv[0]))
    ]
    if lost.get("unknown"):
        parts.append(speaker.gettext("{n} unseen", n=lost["unknown"]))
    return f"{mark(seat)} {who(seat)} {lost['total']}" + (f" ({', '.join(parts)})" if parts else "")


def _exits(view: dict, seat: int, speaker: Voice = ENGLISH) -> str:
    out = []
    for exit_ in view.get("batteries", []):
        if exit_["seat"] != seat:
            continue
        left = sum(1 for alive in exit_["batteries"].values() if alive)
        out.append(
            speaker.gettext("{exit} **open**", exit=exit_["entrance"])
            if exit_["open"]
            else f"{exit_['entrance']} {left}/2"
        )
    return f"{mark(seat)} {who(seat)} " + ", ".join(out)


def _sides(view: dict, speaker: Voice = ENGLISH) -> str:
    """Which mark is whose (the picture has no names): the viewer first in a DM."""
    _ = speaker.gettext
    seat = view.get("seat")
    order = (0, 1) if seat is None else (seat, 1 - seat)
    parts = []
    for p in order:
        shape = {"shape": _(SIDES[p]), "port": _(PORTS[p])}
        parts.append(
            _("{mark} **{side}** (you): {shape}, {port}", mark=mark(p), side=who(p), **shape)
            if p == seat
            else _("{mark} **{side}**: {shape}, {port}", mark=mark(p), side=who(p), **shape)
        )
    return " · ".join(parts)


def _setup_state(view: dict, p: int, speaker: Voice) -> str:
    ready = view.get("submitted", [False, False])
    return (
        speaker.gettext("{side} ready", side=who(p))
        if ready[p]
        else speaker.gettext("{side} arranging", side=who(p))
    )


def view_text(view: dict, names: list[str] | None = None, *, speaker: Voice = ENGLISH) -> str:
    _ = speaker.gettext
    lines = [_sides(view, speaker)]
    phase = view.get("phase")
    if phase == "over":
        winners = view.get("winners") or []
        head = _("**{side} wins!**", side=who(winners[0])) if winners else _("**Draw.**")
        lines.append(f"{head} {end_of(view, speaker)}".rstrip())
    elif phase == "setup":
        state = " · ".join(f"{mark(p)} {_setup_state(view, p, speaker)}" for p in (0, 1))
        lines.append(_("**Secret set-up:** {state}", state=state))
    else:
        turn = view["turn"]
        left = view.get("move_limit", 0) - view.get("ply", 0)
        lines.append(
            speaker.ngettext(
                "{mark} **{side} to move** · {n} move to a draw",
                "{mark} **{side} to move** · {n} moves to a draw",
                left,
                mark=mark(turn),
                side=who(turn),
            )
        )
    moved = last_move(view.get("last"), speaker)
    if moved and phase != "setup":
        lines.append(_("**Last:** {move}", move="; ".join(moved)))
    if phase != "setup":
        lines.append(_("**Lost:** {losses}", losses=" · ".join(_losses(view, p, speaker) for p in (0, 1))))
        lines.append(_("**Exits:** {exits}", exits=" · ".join(_exits(view, p, speaker) for p in (0, 1))))
    off = view.get("off_board_mines") or {}
    if any(off.values()):
        mines = " · ".join(f"{mark(int(p))} {who(int(p))} {n}" for p, n in sorted(off.items()))
        lines.append(_("**Mines off the board:** {mines}", mines=mines))
    return fill_names("\n".join(lines), names)


def alt_text(view: dict, names: list[str] | None = None, *, speaker: Voice = ENGLISH) -> str:
    """One sentence: the state of play, the last move (a unit named only if the view shows its type),
    the losses. Cut to ALT_LIMIT characters after the names are filled."""
    _ = speaker.gettext
    phase = view.get("phase")
    if phase == "setup":
        status = _(
            "secret set-up, {states}", states=", ".join(_setup_state(view, p, speaker) for p in (0, 1))
        )
    elif phase == "over":
        winners = view.get("winners") or []
        status = _("game over, {side} wins", side=who(winners[0])) if winners else _("game over, a draw")
    else:
        status = _("{side} to move", side=who(view["turn"]))
    parts = [
        _(
            "{game} ({blue}, port right; {red}, port left): {status}",
            game=_("Warships"),
            blue=_(SIDES[0]),
            red=_(SIDES[1]),
            status=status,
        )
    ]
    last = view.get("last") or {}
    if phase != "setup" and last.get("seat") is not None:
        parts.append(_alt_last(view, last, speaker))
    lost = view.get("lost", {})
    if phase != "setup":
        totals = ", ".join(f"{who(p)} {lost.get(str(p), {}).get('total', 0)}" for p in (0, 1))
        parts.append(_("units lost: {losses}", losses=totals))
    text = fill_names("; ".join(parts) + ".", names)
    return text if len(text) <= ALT_LIMIT else text[: ALT_LIMIT - 1].rstrip() + "…"


def _alt_last(view: dict, last: dict, speaker: Voice = ENGLISH) -> str:
    _ = speaker.gettext
    b = board()
    seat = last["seat"]
    if "from" not in last:
        return speaker.ngettext(
            "{side} laid {n} mine", "{side} laid {n} mines", len(last.get("mines", [])), side=who(seat)
        )
    clash = last.get("clash") or {}
    kind = clash.get("attacker") or _type_at(view, last.get("to") or last.get("via") or last["from"])
    unit = _(UNIT_NAMES[kind]).lower() if kind and kind in b.types and kind in UNIT_NAMES else _("unit")
    path = "→".join([last["from"]] + [last[k] for k in ("via", "to") if last.get(k)])
    moved = "→" in path
    who_unit = {"side": who(seat), "unit": unit, "path": path}
    target = last.get("target")
    if not target:
        text = (
            _("{side}'s {unit} moved {path}", **who_unit)
            if moved
            else _("{side}'s {unit} at {path}", **who_unit)
        )
    else:
        did = last.get("kind", "")
        if did == "battery":
            text = (
                _("{side}'s {unit} moved {path} and hit the battery at {target}", target=target, **who_unit)
                if moved
                else _("{side}'s {unit} at {path} hit the battery at {target}", target=target, **who_unit)
            )
        elif did == "defuse":
            text = (
                _("{side}'s {unit} moved {path} and defused the mine at {target}", target=target, **who_unit)
                if moved
                else _("{side}'s {unit} at {path} defused the mine at {target}", target=target, **who_unit)
            )
        else:
            text = (
                _("{side}'s {unit} moved {path} and attacked {target}", target=target, **who_unit)
                if moved
                else _("{side}'s {unit} at {path} attacked {target}", target=target, **who_unit)
            )
    if clash.get("removed"):
        text += ", " + speaker.ngettext("{n} unit removed", "{n} units removed", len(clash["removed"]))
    return text


def key_text(view: dict, *, speaker: Voice = ENGLISH) -> str:
    _ = speaker.gettext
    b = board()
    ships = ", ".join(f"**{b.abbr(t)}** {_(UNIT_NAMES[t])}" for t in b.order if t not in ("battery", "mine"))
    limit = view.get("neutral_turns", b.neutral_turns)
    return "\n".join(
        [
            _("**{game}: the key to the board**", game=_("Warships")),
            _(
                "The board is drawn on its side: the row numbers 1–16 run across the top and the column "
                "letters A–L down the sides, so a square keeps the name you type in `/ws move`: J15 is "
                "where letter J meets number 15. Red's port (rows 1–4) is on the left, Blue's (13–16) on "
                "the right."
            ),
            "- "
            + _(
                "{blue} Blue's units are **circles**, {red} Red's are **squares**.",
                blue=MARKS[0],
                red=MARKS[1],
            ),
            "- " + _("Letters on a unit: its type. {ships}.", ships=ships),
            "- "
            + _(
                "No letters, a dark centre: face down, its type unknown to you. A **gold rim**: its type "
                "has been seen by both players."
            ),
            "- "
            + _(
                "A **tower**: a shore battery, beside an exit. A **spiked ball**: a mine (you see your own)."
            ),
            "- "
            + _(
                "Tan squares: a port, behind the thick **fortification line**; the walled gaps are its "
                "exits. A red cross on a battery square: that battery is gone."
            ),
            "- "
            + _(
                "Dotted water with islands: **neutral waters**; a number tag on a unit: turns it has "
                "ended there (a unit ending turn {n} there is removed).",
                n=limit + 1,
            ),
            "- " + _("Dashed frames: the initial-manoeuvres areas (coloured when that option is on)."),
            "- "
            + _(
                "The last move: a **yellow arrow** and frames from where the unit came to where it went, a "
                "**red arrow** and frame on what it attacked, a **red cross** on a unit it removed, gold "
                "frames on mines just laid."
            ),
        ]
    )
