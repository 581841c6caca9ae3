"""The Everrain position read in words, in reading order, for a screen reader (``Game.read_board``):
the scenario and its tracks; the map row by row from the top (row 1) down, left to right, naming every
hex that is not calm sea (ports, rough sea, islands, spawn hexes, the Rift, clue sites); then each
player ship and each enemy ship with where it is, where it faces and what it carries."""

from __future__ import annotations

from bot.games.everrain.board import ISLAND, MARK, PORT, ROUGH, SPAWN, label, map_of_view
from bot.games.names import who
from bot.games.phrase import ENGLISH, Voice
from bot.games.words import counted

# The player-facing words of this module (plain English, one place: easy to translate later).
W_HEAD = "The Everrain, {scenario}, round {round}."
W_TRACKS = "Agenda {agenda} of {agenda_length}; Discovery {discovery} of {discovery_end}; Enemy Discovery {enemy} of {enemy_end}."
W_MAP = "Map, row by row (calm sea not listed):"
W_ROW = "row {row}: {hexes}"
W_ROW_CALM = "row {row}: calm sea"
TERRAIN = {PORT: "port", ROUGH: "rough sea", ISLAND: "island", SPAWN: "enemy spawn", MARK: "the Rift"}
W_SITE = "clue site ({clues})"
W_SITE_EMPTY = "empty clue site"
FACING = {
    "E": "east",
    "NE": "north-east",
    "NW": "north-west",
    "W": "west",
    "SW": "south-west",
    "SE": "south-east",
}
W_SHIPS = "Player ships:"
W_SHIP = (
    "{side}'s ship at {hex}, facing {facing}{port}: {intact} of 10 nodes intact{destroyed}; crew {crew}; "
    "{orders} left; {clues} carried, {delivered} delivered; {kills} sunk"
)
W_IN_PORT = ", in port"
W_DESTROYED = " (destroyed: nodes {nodes})"
W_CREW = "{name} on node {node}"
W_ENEMIES = "Enemy ships:"
W_ENEMY = (
    "{tag}: {name} at {hex}, facing {facing}, health {health} of {max_health}, engagement range {er}, "
    "heading to {dest}"
)
W_NONE = "none"
W_DECK = "Enemy deck: {cards}."
W_NO_DEST = "no destination"
W_OMENS = "{side} has {omens} to keep or turn into Damage."
W_LAST = "Last enemy activation: {text}"
W_WON = "Game over: the players won."
W_LOST = "Game over: lost to the Everrain."


def _facing(d: int) -> str:
    from bot.games.everrain.board import DIR_NAMES

    return FACING[DIR_NAMES[d]]


def _map_rows(view: dict) -> list[str]:
    m = map_of_view(view)
    marks: dict[tuple[int, int], str] = {}
    for h, t in m.terrain.items():
        if t in TERRAIN:
            marks[h] = TERRAIN[t]
    for q, r, n in view["sites"]:
        marks[(q, r)] = W_SITE.format(clues=counted(n, "clue")) if n else W_SITE_EMPTY
    by_row: dict[int, list[tuple[int, str]]] = {}
    for (q, r), words in marks.items():
        by_row.setdefault(r, []).append((q + r // 2, f"{label((q, r))} {words}"))
    lines = [W_MAP]
    for r in range(m.height):
        hexes = [words for _, words in sorted(by_row.get(r, []))]
        lines.append(
            W_ROW.format(row=r + 1, hexes=", ".join(hexes)) if hexes else W_ROW_CALM.format(row=r + 1)
        )
    return lines


def _ship(view: dict, s: dict) -> str:
    names = view.get("crew_names") or []
    crew = ", ".join(
        W_CREW.format(name=names[k] if k < len(names) else k + 1, node=node + 1)
        for k, node in enumerate(s["crew"])
    )
    destroyed = [str(k + 1) for k, gone in enumerate(s.get("destroyed", [])) if gone]
    return W_SHIP.format(
        side=who(s["seat"]),
        hex=label((s["q"], s["r"])),
        facing=_facing(s["facing"]),
        port=W_IN_PORT if s["in_port"] else "",
        intact=s["intact"],
        destroyed=W_DESTROYED.format(nodes=", ".join(destroyed)) if destroyed else "",
        crew=crew or W_NONE,
        orders=counted(s["orders"], "order"),
        clues=counted(s["clues"], "clue"),
        delivered=s.get("delivered", 0),
        kills=counted(s.get("kills", 0), "enemy", "enemies"),
    )


def read_board(view: dict, *, speaker: Voice = ENGLISH) -> list[str]:
    """The position of ``view`` in words, one fact a line; seats as ``who(seat)``."""
    t = view["tracks"]
    lines = [
        W_HEAD.format(scenario=view.get("scenario_title", ""), round=view["round"]),
        W_TRACKS.format(
            agenda=t["agenda"],
            agenda_length=t["agenda_length"],
            discovery=t["discovery"],
            discovery_end=t["discovery_end"],
            enemy=t["enemy_discovery"],
            enemy_end=t["enemy_discovery_end"],
        ),
    ]
    lines += _map_rows(view)
    lines.append(W_SHIPS)
    lines += [_ship(view, s) for s in sorted(view["ships"], key=lambda s: s["seat"])]
    lines.append(W_ENEMIES)
    enemies = sorted(view["enemies"], key=lambda e: e["tag"])
    lines += [
        W_ENEMY.format(
            tag=e["tag"],
            name=e["name"],
            hex=label((e["q"], e["r"])),
            facing=_facing(e["facing"]),
            health=e["health"],
            max_health=e["max_health"],
            er=e["engagement"],
            dest=W_NO_DEST if e["dest_label"] == "none" else e["dest_label"],
        )
        for e in enemies
    ] or [W_NONE]
    lines.append(W_DECK.format(cards=counted(view.get("deck_size", 0), "card")))
    pending = view.get("pending")
    if pending and pending.get("omens") and pending.get("seat") is not None:
        lines.append(W_OMENS.format(side=who(pending["seat"]), omens=counted(pending["omens"], "Omen")))
    last = view.get("last_activation")
    if last:
        lines.append(W_LAST.format(text=last["text"]))
    if view.get("result"):
        lines.append(W_WON if view["result"]["winners"] else W_LOST)
    return lines
