"""Plain-text Warships board from a view (for channels without attachments)."""

from __future__ import annotations

from bot.games.names import fill_board, who
from bot.games.phrase import ENGLISH, Voice
from bot.games.warships.board import board
from bot.games.warships.texts import end_of


def text_view(view: dict, names: list[str] | None = None, *, speaker: Voice = ENGLISH) -> str:
    _ = speaker.gettext
    b = board()
    cells = {}
    for u in view.get("units", []):
        t = u.get("type")
        if t:
            s = b.abbr(t)
            s = s.upper() if u["owner"] == 0 else s.lower()
        else:
            s = "XX" if u["owner"] == 0 else "xx"
        cells[u["sq"]] = s
    lines = ["   " + " ".join(f"{chr(65 + c):>2}" for c in range(b.cols))]
    for r in range(b.rows):
        row = []
        for c in range(b.cols):
            i = b.at(c, r)
            assert i is not None  # c, r range over the board
            name = b.names[i]
            if name in cells:
                row.append(cells[name])
            elif i in b.neutral:
                row.append(" :")
            elif b.port_of[i] >= 0:
                row.append(" _" if i not in b.entrance_front else " ^")
            else:
                row.append(" .")
        lines.append(f"{r + 1:>2} " + " ".join(row))
    lines.append(_("{blue} UPPER/XX, {red} lower/xx; : neutral, ^ exit", blue=who(0), red=who(1)))
    lost = view.get("lost", {})
    for p in (0, 1):
        lp = lost.get(str(p), {})
        lines.append(_("{side} lost {n}", side=who(p), n=lp.get("total", 0)))
    if view.get("phase") == "over":
        lines.append(end_of(view, speaker) or _("Game over"))
    elif view.get("turn") is not None:
        lines.append(_("{side} to move", side=who(view["turn"])))
    return fill_board("```\n" + "\n".join(lines)[:1880] + "\n```", names)
