"""The words beside the Enemy Lines picture: the table text, the alt text and the key.

Built from the view alone (the board is open: every seat's view is the same but for ``seat``). Seats
are written as ``who(seat)`` and filled with the names the caller passes; in the text a seat carries
its mark (the emoji of its colour and shape, as ``bot.layout.SEAT_MARKS``), in the picture its badge.
"""

from __future__ import annotations

from bot.games.names import fill_names, who
from bot.games.phrase import ENGLISH, N_, Phrase, Voice

GAME = "Enemy Lines"
# The seats' marks in text: colour and shape as the picture's badges (Blue a circle, Red a square);
# the same as bot.layout.SEAT_MARKS (games may not import the bot core; a test keeps them equal).
MARKS = ("🔵", "🟥")
ALT_MAX = 256
SHAPES = ("circle", "square")  # as rendering.theme.SEAT_SHAPES (the key's words name them)
ENDING_COUNT = 3  # ships in enemy lines that end the game


def _span(cells: list) -> str:
    def label(c: list) -> str:
        return f"{chr(65 + c[0])}{c[1] + 1}"

    if not cells:
        return "?"
    return label(cells[0]) if len(cells) == 1 else f"{label(cells[0])}–{label(cells[-1])}"


def _last(view: dict, speaker: Voice = ENGLISH) -> str:
    """What the last move did, with seat references: "⟨1⟩'s 2-ship rotated G4–G5 → G4–H4"."""
    last = view.get("last")
    if not last:
        return ""
    _ = speaker.gettext
    side = who(last["seat"])
    if last["type"] == "pass":
        return _("{side} passed", side=side)
    sizes = {s["id"]: s["size"] for s in view["ships"]}
    size = sizes.get(last["ship"], "?")
    if last["type"] == "place":
        return _("{side} placed a {size}-ship on {squares}", side=side, size=size, squares=_span(last["to"]))
    moved = {"side": side, "size": size, "before": _span(last["from"]), "after": _span(last["to"])}
    if last["type"] == "travel":
        return _("{side}'s {size}-ship travelled {before} → {after}", **moved)
    return _("{side}'s {size}-ship rotated {before} → {after}", **moved)


def _turns_left(view: dict) -> int:
    # the turn limit's countdown, not a move number: the host numbers every move, placements too
    return int(view["turn_limit"]) - int(view["move_number"])


def _outcome(view: dict, speaker: Voice = ENGLISH) -> str:
    res = view.get("result") or {}
    scores = res.get("scores", view["scores"])
    winners = res.get("winners") or []
    if len(winners) == 1:
        w = winners[0]
        return speaker.gettext(
            "{side} wins {points} to {other}", side=who(w), points=scores[str(w)], other=scores[str(1 - w)]
        )
    return speaker.gettext("a draw, {points} each", points=scores["0"])


def _reason(view: dict, speaker: Voice = ENGLISH) -> str:
    """Why the game ended, in the language of ``speaker`` (the result keeps the reason's message)."""
    res = view.get("result") or {}
    data = res.get("reason_phrase")
    if isinstance(data, dict) and "msgid" in data:
        return speaker.say(Phrase.from_json(data))
    return str(res.get("reason", ""))


def view_text(view: dict, names: list[str] | None = None, *, speaker: Voice = ENGLISH) -> str:
    """The table text: each side's mark, name, score and ships in enemy lines (or ships to place), whose
    turn it is, and the last move. ``names`` come escaped for markdown."""
    _ = speaker.gettext
    phase = view["phase"]
    lines = []
    for seat in (0, 1):
        line = f"{MARKS[seat]} **{who(seat)}**"
        if phase == "placement":
            line += " · " + speaker.ngettext(
                "{n} ship to place", "{n} ships to place", len(view["to_place"][str(seat)])
            )
        else:
            line += " · " + _(
                "{points} pts · {n}/{end} in enemy lines",
                points=view["scores"][str(seat)],
                n=view["in_enemy_lines"][str(seat)],
                end=ENDING_COUNT,
            )
        if phase == "over" and seat in (view.get("winners") or []):
            line += " · " + _("**winner**")
        lines.append(line)
    if phase == "over":
        reason = _reason(view, speaker)
        outcome = _outcome(view, speaker)
        lines.append(
            _("**Game over**: {outcome} ({reason}).", outcome=outcome, reason=reason)
            if reason
            else _("**Game over**: {outcome}.", outcome=outcome)
        )
    elif phase == "placement":
        lines.append(_("**Placement**: {side} places a ship on its home rows.", side=who(view["turn"])))
    elif view.get("final_turn"):
        lines.append(_("**Last turn**: {side} may move once more or pass.", side=who(view["turn"])))
    else:
        lines.append(
            speaker.ngettext(
                "**{side} to move** · {n} turn left",
                "**{side} to move** · {n} turns left",
                _turns_left(view),
                side=who(view["turn"]),
            )
        )
    last = _last(view, speaker)
    if last:
        lines.append(_("Last: {move}.", move=last))
    return fill_names("\n".join(lines), names)


def alt_text(view: dict, names: list[str] | None = None, *, speaker: Voice = ENGLISH) -> str:
    """One sentence for a screen reader, at most ALT_MAX characters after the names are filled: the
    less important parts go first when long names make it too long."""
    _ = speaker.gettext
    game = _(GAME)
    phase = view["phase"]
    sc = view["scores"]
    score = _(
        "score {blue} {blue_points}, {red} {red_points}",
        blue=who(0),
        blue_points=sc["0"],
        red=who(1),
        red_points=sc["1"],
    )
    last = _last(view, speaker)
    if phase == "over":
        head = _("{game}, game over: {outcome}", game=game, outcome=_outcome(view, speaker))
        parts = [_reason(view, speaker), last]
    elif phase == "placement":
        head = _("{game}, placing ships: {side} to place", game=game, side=who(view["turn"]))
        parts = [last]
        score = ""
    else:
        head = (
            _("{game}: {side} to move, last turn", game=game, side=who(view["turn"]))
            if view.get("final_turn")
            else speaker.ngettext(
                "{game}: {side} to move, {n} turn left",
                "{game}: {side} to move, {n} turns left",
                _turns_left(view),
                game=game,
                side=who(view["turn"]),
            )
        )
        parts = [last, score]
    parts = [p for p in parts if p]
    while True:
        text = fill_names("; ".join([head, *parts]) + ".", names)
        if len(text) <= ALT_MAX or not parts:
            break
        parts.pop()  # the least important part last
    return text if len(text) <= ALT_MAX else text[: ALT_MAX - 1] + "…"


SIDE_LINES = (
    N_("{mark} **Blue**: a circle badge."),
    N_("{mark} **Red**: a square badge."),
)


def key_text(view: dict, *, speaker: Voice = ENGLISH) -> str:
    """The key to the picture, in markdown (the marks of the rows come from the view's layout)."""
    _ = speaker.gettext
    marks = sorted({ri["mark"] for ri in view.get("row_info", []) if ri["side"] is not None}, reverse=True)
    marks_text = ", ".join(str(m) for m in marks) or "4, 3, 2"
    sides = " ".join(_(SIDE_LINES[s], mark=MARKS[s]) for s in (0, 1))
    return "\n".join(
        [
            _("**{game}: the key to the picture**", game=_(GAME)),
            "- " + _("{sides} The text beside the board says which player is which.", sides=sides),
            "- "
            + _(
                "Row numbers 1–8 on the left, columns A–H below. Blue plays from the bottom edge, Red from the top."
            ),
            "- "
            + _(
                "Tinted rows: a side's home area, each row's mark ({marks}) on the side's badge at its end; "
                "the middle rows are neutral water. A side's enemy lines are the other side's home rows.",
                marks=marks_text,
            ),
            "- " + _("A ship shows its size on its side's badge; its bow points towards the enemy."),
            "- "
            + _(
                "**Gold rim**: the ship lies along a row in enemy lines and scores its size × the row's mark."
            ),
            "- " + _("**Anchor**: the ship its side moved last; it may not move on that side's next turn."),
            "- "
            + _("**Glowing squares**: where the last move went; **outlined squares**: the squares it left."),
            "- "
            + _(
                "**Docks** beside each home area: the side's badge (yellow ring: to move; gold ring: winner), "
                "{n} slots that fill with its ships in enemy lines ({n} bring the end) "
                "and, while placing, the ships it still has to place.",
                n=ENDING_COUNT,
            ),
        ]
    )
