"""The words beside the Enemy Lines picture: the table text, the alt text and the key.

Built from the view alone (the board is open: every seat's view is the same but for ``seat``). Seats
are written as ``who(seat)`` and filled with the names the caller passes; in the text a seat carries
its mark (the emoji of its colour and shape, as ``bot.layout.SEAT_MARKS``), in the picture its badge.
"""

from __future__ import annotations

from bot.games.names import colour, fill_names, who
from bot.games.phrase import ENGLISH, Voice

GAME = "Enemy Lines"
# The seats' marks in text: colour and shape as the picture's badges (Blue a circle, Red a square);
# the same as bot.layout.SEAT_MARKS (games may not import the bot core; a test keeps them equal).
MARKS = ("🔵", "🟥")
SHAPES = ("circle", "square")  # as rendering.theme.SEAT_SHAPES
ALT_MAX = 256
ENDING_COUNT = 3  # ships in enemy lines that end the game


def _span(cells: list) -> str:
    def label(c: list) -> str:
        return f"{chr(65 + c[0])}{c[1] + 1}"

    if not cells:
        return "?"
    return label(cells[0]) if len(cells) == 1 else f"{label(cells[0])}–{label(cells[-1])}"


def _last(view: dict) -> str:
    """What the last move did, with seat references: "⟨1⟩'s 2-ship rotated G4–G5 → G4–H4"."""
    last = view.get("last")
    if not last:
        return ""
    side = who(last["seat"])
    if last["type"] == "pass":
        return f"{side} passed"
    sizes = {s["id"]: s["size"] for s in view["ships"]}
    size = sizes.get(last["ship"], "?")
    if last["type"] == "place":
        return f"{side} placed a {size}-ship on {_span(last['to'])}"
    verb = "travelled" if last["type"] == "travel" else "rotated"
    return f"{side}'s {size}-ship {verb} {_span(last['from'])} → {_span(last['to'])}"


def _turns_left(view: dict) -> int:
    # the turn limit's countdown, not a move number: the host numbers every move, placements too
    return int(view["turn_limit"]) - int(view["move_number"])


def _outcome(view: dict) -> str:
    res = view.get("result") or {}
    scores = res.get("scores", view["scores"])
    winners = res.get("winners") or []
    if len(winners) == 1:
        w = winners[0]
        return f"{who(w)} wins {scores[str(w)]} to {scores[str(1 - w)]}"
    return f"a draw, {scores['0']} each"


def _reason(view: dict) -> str:
    return str((view.get("result") or {}).get("reason", ""))


def view_text(view: dict, names: list[str] | None = None) -> str:
    """The table text: each side's mark, name, score and ships in enemy lines (or ships to place), whose
    turn it is, and the last move. ``names`` come escaped for markdown."""
    phase = view["phase"]
    lines = []
    for seat in (0, 1):
        line = f"{MARKS[seat]} **{who(seat)}**"
        if phase == "placement":
            line += f" · {len(view['to_place'][str(seat)])} ships to place"
        else:
            line += (
                f" · {view['scores'][str(seat)]} pts · "
                f"{view['in_enemy_lines'][str(seat)]}/{ENDING_COUNT} in enemy lines"
            )
        if phase == "over" and seat in (view.get("winners") or []):
            line += " · **winner**"
        lines.append(line)
    if phase == "over":
        reason = _reason(view)
        lines.append(f"**Game over**: {_outcome(view)}" + (f" ({reason})." if reason else "."))
    elif phase == "placement":
        lines.append(f"**Placement**: {who(view['turn'])} places a ship on its home rows.")
    elif view.get("final_turn"):
        lines.append(f"**Last turn**: {who(view['turn'])} may move once more or pass.")
    else:
        lines.append(f"**{who(view['turn'])} to move** · {_turns_left(view)} turns left")
    last = _last(view)
    if last:
        lines.append(f"Last: {last}.")
    return fill_names("\n".join(lines), names)


def alt_text(view: dict, names: list[str] | None = None) -> str:
    """One sentence for a screen reader, at most ALT_MAX characters after the names are filled: the
    less important parts go first when long names make it too long."""
    phase = view["phase"]
    sc = view["scores"]
    score = f"score {who(0)} {sc['0']}, {who(1)} {sc['1']}"
    last = _last(view)
    if phase == "over":
        head = f"{GAME}, game over: {_outcome(view)}"
        parts = [_reason(view), last]
    elif phase == "placement":
        head = f"{GAME}, placing ships: {who(view['turn'])} to place"
        parts = [last]
        score = ""
    else:
        extra = ", last turn" if view.get("final_turn") else f", {_turns_left(view)} turns left"
        head = f"{GAME}: {who(view['turn'])} to move{extra}"
        parts = [last, score]
    parts = [p for p in parts if p]
    while True:
        text = fill_names("; ".join([head, *parts]) + ".", names)
        if len(text) <= ALT_MAX or not parts:
            break
        parts.pop()  # the least important part last
    return text if len(text) <= ALT_MAX else text[: ALT_MAX - 1] + "…"


def key_text(view: dict, *, speaker: Voice = ENGLISH) -> str:
    """The key to the picture, in markdown (the marks of the rows come from the view's layout)."""
    marks = sorted({ri["mark"] for ri in view.get("row_info", []) if ri["side"] is not None}, reverse=True)
    marks_text = ", ".join(str(m) for m in marks) or "4, 3, 2"
    sides = " ".join(f"{MARKS[s]} **{colour(s)}**: a {SHAPES[s]} badge." for s in (0, 1))
    return "\n".join(
        [
            f"**{GAME}: the key to the picture**",
            f"- {sides} The text beside the board says which player is which.",
            "- Row numbers 1–8 on the left, columns A–H below. Blue plays from the bottom edge, Red from the top.",
            f"- Tinted rows: a side's home area, each row's mark ({marks_text}) on the side's badge at its end; "
            "the middle rows are neutral water. A side's enemy lines are the other side's home rows.",
            "- A ship shows its size on its side's badge; its bow points towards the enemy.",
            "- **Gold rim**: the ship lies along a row in enemy lines and scores its size × the row's mark.",
            "- **Anchor**: the ship its side moved last; it may not move on that side's next turn.",
            "- **Glowing squares**: where the last move went; **outlined squares**: the squares it left.",
            "- **Docks** beside each home area: the side's badge (yellow ring: to move; gold ring: winner), "
            f"{ENDING_COUNT} slots that fill with its ships in enemy lines ({ENDING_COUNT} bring the end) "
            "and, while placing, the ships it still has to place.",
        ]
    )
