"""Plain-text Warships board from a view (for channels without attachments)."""

from __future__ import annotations

from bot.games.names import fill_board, who
from bot.games.warships.board import board


def text_view(view: dict, names: list[str] | None = None) -> str:
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
    lines.append(f"{who(0)} UPPER/XX, {who(1)} lower/xx; : neutral, ^ exit")
    lost = view.get("lost", {})
    for p in (0, 1):
        lp = lost.get(str(p), {})
        lines.append(f"{who(p)} lost {lp.get('total', 0)}")
    if view.get("phase") == "over":
        lines.append(view.get("end", "Game over"))
    elif view.get("turn") is not None:
        lines.append(f"{who(view['turn'])} to move")
    return fill_board("```\n" + "\n".join(lines)[:1880] + "\n```", names)
