"""The Everrain's plain-text board from a view, in the reader's language (``Game.text_view``: the table
of a channel where the bot may not attach the picture): the map as a grid of letters, then the tracks,
each ship and each enemy ship, and what the last enemy did."""

from __future__ import annotations

from bot.games.everrain.board import DIR_NAMES, ISLAND, PORT, label, map_of_view
from bot.games.everrain.text import activation
from bot.games.everrain.words import destination, facing, named, tracks
from bot.games.names import fill_board, who
from bot.games.phrase import ENGLISH, Voice

GRID = {".": ".", "~": "~", ISLAND: "#", PORT: "P", "S": "s", "?": ".", "X": "x"}


def _grid(view: dict) -> list[str]:
    m = map_of_view(view)
    grid: dict[tuple[int, int], str] = {h: GRID[t] for h, t in m.terrain.items()}
    for q, r, n in view["sites"]:
        grid[(q, r)] = "?" if n else "."
    for e in view["enemies"]:
        grid[(e["q"], e["r"])] = e["tag"]
    for s in view["ships"]:
        grid[(s["q"], s["r"])] = str(s["seat"] + 1)
    lines = ["   " + " ".join(chr(ord("A") + c) for c in range(m.width))]
    for r in range(m.height):
        row = [grid.get((c - r // 2, r), " ") for c in range(m.width)]
        lines.append(f"{r + 1:>2} " + (" " if r % 2 else "") + " ".join(row))
    return lines


def text_view(view: dict, names: list[str] | None = None, *, speaker: Voice = ENGLISH) -> str:
    """The board in a code block: ``P`` ports, ``~`` rough sea, ``#`` islands, ``s`` spawn hexes, ``x`` the
    Rift, ``?`` clue sites, digits the player ships (their badges), letters the enemy ships."""
    _ = speaker.gettext
    lines = _grid(view)
    lines.append(
        _(
            "Round {round}  Agenda {agenda}/{agenda_length}  Discovery {discovery}/{discovery_end}  "
            "Enemy Discovery {enemy}/{enemy_end}",
            round=view["round"],
            **tracks(view),
        )
    )
    for s in view["ships"]:
        mark = ">" if s["seat"] in view["to_act"] and view["phase"] == "players" else " "
        facts = dict(
            side=who(s["seat"]),
            hex=label((s["q"], s["r"])),
            facing=facing(speaker, DIR_NAMES[s["facing"]]),
            intact=s["intact"],
            orders=s["orders"],
            clues=s["clues"],
        )
        if s["in_port"]:
            line = _(
                "{side} {hex} faces {facing}  nodes {intact}/10  orders {orders}  clues {clues}  (port)",
                **facts,
            )
        else:
            line = _(
                "{side} {hex} faces {facing}  nodes {intact}/10  orders {orders}  clues {clues}", **facts
            )
        lines.append(f"{mark}{s['seat'] + 1} {line}")
    for e in view["enemies"]:
        lines.append(
            " "
            + _(
                "{tag} {name} {hex} hp {health}/{max_health} ER {er} → {dest}",
                tag=e["tag"],
                name=named(speaker, e["name"]),
                hex=label((e["q"], e["r"])),
                health=e["health"],
                max_health=e["max_health"],
                er=e["engagement"],
                dest=speaker.say(destination(e["dest_label"])),
            )
        )
    la = view.get("last_activation")
    if la:
        said = "; ".join(speaker.say(p) for p in activation(la, view["board"])).replace("**", "")
        lines.append(_("Last: {what}", what=said))
    if view.get("result"):
        lines.append(_("WON!") if view["result"]["winners"] else _("Lost to the Everrain."))
    text = "\n".join(lines)
    return fill_board("```\n" + text[:1880] + "\n```", names)
