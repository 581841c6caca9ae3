"""The Everrain position read in words, in reading order, for a screen reader (``Game.read_board``):
the scenario and its tracks; the map row by row from the top (row 1) down, left to right, naming every
hex that is not calm sea (ports, rough sea, islands, spawn hexes, the Rift, clue sites); then each
player ship and each enemy ship with where it is, where it faces and what it carries."""

from __future__ import annotations

from bot.games.everrain.board import DIR_NAMES, ISLAND, MARK, PORT, ROUGH, SPAWN, label, map_of_view
from bot.games.everrain.text import activation
from bot.games.everrain.words import destination, facing, named, tracks
from bot.games.names import who
from bot.games.phrase import ENGLISH, N_, Voice

TERRAIN = {
    PORT: N_("port"),
    ROUGH: N_("rough sea"),
    ISLAND: N_("island"),
    SPAWN: N_("enemy spawn"),
    MARK: N_("the Rift"),
}


def _map_rows(view: dict, speaker: Voice) -> list[str]:
    _ = speaker.gettext
    m = map_of_view(view)
    marks: dict[tuple[int, int], str] = {}
    for h, t in m.terrain.items():
        if t in TERRAIN:
            marks[h] = _(TERRAIN[t])
    for q, r, n in view["sites"]:
        if n:
            marks[(q, r)] = speaker.ngettext("clue site ({n} clue)", "clue site ({n} clues)", n)
        else:
            marks[(q, r)] = _("empty clue site")
    by_row: dict[int, list[tuple[int, str]]] = {}
    for (q, r), words in marks.items():
        by_row.setdefault(r, []).append((q + r // 2, f"{label((q, r))} {words}"))
    lines = [_("Map, row by row (calm sea not listed):")]
    for r in range(m.height):
        hexes = [words for _n, words in sorted(by_row.get(r, []))]
        if hexes:
            lines.append(_("row {row}: {hexes}", row=r + 1, hexes=", ".join(hexes)))
        else:
            lines.append(_("row {row}: calm sea", row=r + 1))
    return lines


def _ship(view: dict, s: dict, speaker: Voice) -> str:
    _, n_ = speaker.gettext, speaker.ngettext
    names = view.get("crew_names") or []
    crew = ", ".join(
        _("{name} on node {node}", name=named(speaker, names[k]) if k < len(names) else k + 1, node=node + 1)
        for k, node in enumerate(s["crew"])
    )
    destroyed = [str(k + 1) for k, gone in enumerate(s.get("destroyed", [])) if gone]
    where = dict(
        side=who(s["seat"]), hex=label((s["q"], s["r"])), facing=facing(speaker, DIR_NAMES[s["facing"]])
    )
    if s["in_port"]:
        head = _("{side}'s ship at {hex}, facing {facing}, in port", **where)
    else:
        head = _("{side}'s ship at {hex}, facing {facing}", **where)
    if destroyed:
        state = _(
            "{intact} of 10 nodes intact (destroyed: nodes {nodes})",
            intact=s["intact"],
            nodes=", ".join(destroyed),
        )
    else:
        state = _("{intact} of 10 nodes intact", intact=s["intact"])
    facts = [
        _("crew {crew}", crew=crew or _("none")),
        n_("{n} order left", "{n} orders left", s["orders"]),
        n_(
            "{n} clue carried, {delivered} delivered",
            "{n} clues carried, {delivered} delivered",
            s["clues"],
            delivered=s.get("delivered", 0),
        ),
        n_("{n} enemy sunk", "{n} enemies sunk", s.get("kills", 0)),
    ]
    return f"{head}: {state}; " + "; ".join(facts)


def read_board(view: dict, *, speaker: Voice = ENGLISH) -> list[str]:
    """The position of ``view`` in words, one fact a line; seats as ``who(seat)``."""
    _, n_ = speaker.gettext, speaker.ngettext
    lines = [
        _(
            "The Everrain, {scenario}, round {round}.",
            scenario=named(speaker, view.get("scenario_title", "")),
            round=view["round"],
        ),
        _(
            "Agenda {agenda} of {agenda_length}; Discovery {discovery} of {discovery_end}; "
            "Enemy Discovery {enemy} of {enemy_end}.",
            **tracks(view),
        ),
    ]
    lines += _map_rows(view, speaker)
    lines.append(_("Player ships:"))
    lines += [_ship(view, s, speaker) for s in sorted(view["ships"], key=lambda s: s["seat"])]
    lines.append(_("Enemy ships:"))
    enemies = sorted(view["enemies"], key=lambda e: e["tag"])
    lines += [
        _(
            "{tag}: {name} at {hex}, facing {facing}, health {health} of {max_health}, engagement range {er}, "
            "heading to {dest}",
            tag=e["tag"],
            name=named(speaker, e["name"]),
            hex=label((e["q"], e["r"])),
            facing=facing(speaker, DIR_NAMES[e["facing"]]),
            health=e["health"],
            max_health=e["max_health"],
            er=e["engagement"],
            dest=speaker.say(destination(e["dest_label"])),
        )
        for e in enemies
    ] or [_("none")]
    lines.append(n_("Enemy deck: {n} card.", "Enemy deck: {n} cards.", view.get("deck_size", 0)))
    pending = view.get("pending")
    if pending and pending.get("omens") and pending.get("seat") is not None:
        lines.append(
            n_(
                "{side} has {n} Omen to keep or turn into Damage.",
                "{side} has {n} Omens to keep or turn into Damage.",
                pending["omens"],
                side=who(pending["seat"]),
            )
        )
    last = view.get("last_activation")
    if last:
        said = "; ".join(speaker.say(p) for p in activation(last, view["board"])).replace("**", "")
        lines.append(_("Last enemy activation: {text}", text=said))
    if view.get("result"):
        lines.append(
            _("Game over: the players won.")
            if view["result"]["winners"]
            else _("Game over: lost to the Everrain.")
        )
    return lines
