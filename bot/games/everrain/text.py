"""The words beside The Everrain's picture, built from a view alone (never the game's state), in the
reader's language (``speaker``).

``view_text``: the round and whose turn, the tracks, every ship, the enemy ships and what the last
enemy did (its dice, its target, the damage), a few markdown lines shown with the picture; a seat's own
view adds its ship board. ``alt_text``: one sentence for a screen reader. ``key_text``: the key to the
picture's marks (the picture itself carries no legend and no names: a seat is its numbered badge).
``activation``: what an enemy ship did, from the activation the state keeps (its dice, target, damage),
for the view's words and the text board.
"""

from __future__ import annotations

from bot.games.everrain.board import DIR_NAMES, label, ship_board, tag
from bot.games.everrain.words import destination, dice, facing, listed, named, tracks
from bot.games.names import fill_names, seat_name, who
from bot.games.phrase import ENGLISH, N_, Phrase, Voice

ALT_MAX = 256
TEXT_MAX = 700  # the channel view's share of the 4000-character message (DM views add the ship)


def _seat(seat: int, names: list[str] | None) -> str:
    """A seat as the text names it: its badge number (the number on its ship in the picture) and name."""
    return f"**{seat + 1}** {seat_name(seat, names)}"


def _turn(view: dict, names: list[str] | None, speaker: Voice) -> str:
    _, n_ = speaker.gettext, speaker.ngettext
    res = view.get("result")
    if res:
        if res.get("winners"):
            return _(
                "**Game over**: the crews win (Discovery {discovery})", discovery=view["tracks"]["discovery"]
            )
        return _(
            "**Game over**: the Everrain wins (Discovery {discovery})", discovery=view["tracks"]["discovery"]
        )
    head = _("**Round {round}**", round=view["round"])
    if view["phase"] == "enemy":
        waiting = [e["tag"] for e in view["enemies"] if not e["activated"]]
        first = seat_name(view["first"], names)
        if waiting:
            return _(
                "{round} · **Enemy phase**: {side} picks the order ({ships} to act)",
                round=head,
                side=first,
                ships=", ".join(waiting),
            )
        return _("{round} · **Enemy phase**: {side} picks the order", round=head, side=first)
    cur = view.get("current")
    if cur is None:
        return head
    ship = view["ships"][cur]
    orders = n_("{n} order", "{n} orders", ship["orders"])
    if ship["nav"]:
        orders = n_("{orders}, {n} nav", "{orders}, {n} nav", ship["nav"], orders=orders)
    pending = view.get("pending")
    if pending:
        return n_(
            "{round} · {side} to act ({orders}); {n} Omen to keep or turn into Damage",
            "{round} · {side} to act ({orders}); {n} Omens to keep or turn into Damage",
            pending["omens"],
            round=head,
            side=_seat(cur, names),
            orders=orders,
        )
    return _("{round} · {side} to act ({orders})", round=head, side=_seat(cur, names), orders=orders)


def _tracks(view: dict, speaker: Voice) -> str:
    return speaker.gettext(
        "Agenda {agenda}/{agenda_length} · Discovery {discovery}/{discovery_end} · "
        "Enemy Discovery {enemy}/{enemy_end}",
        **tracks(view),
    )


def _ship(s: dict, names: list[str] | None, speaker: Voice) -> str:
    _, n_ = speaker.gettext, speaker.ngettext
    if s["in_port"]:
        where = _("in port")
    else:
        where = f"{label((s['q'], s['r']))} {facing(speaker, DIR_NAMES[s['facing']])}"
    clues = n_("{n} clue", "{n} clues", s["clues"])
    if s["delivered"]:
        clues = n_("{clues} (+{n} brought)", "{clues} (+{n} brought)", s["delivered"], clues=clues)
    return _(
        "{side} {where}, {intact}/10 nodes, {clues}",
        side=_seat(s["seat"], names),
        where=where,
        intact=s["intact"],
        clues=clues,
    )


def _enemy(e: dict, speaker: Voice) -> str:
    where = e.get("dest_label")
    text = speaker.gettext(
        "**{tag}** {name} {health}/{max_health} hp {hex}",
        tag=e["tag"],
        name=named(speaker, e["name"]),
        health=e["health"],
        max_health=e["max_health"],
        hex=label((e["q"], e["r"])),
    )
    if where and where != "none":
        text += " → " + speaker.say(destination(where))
    return text


def activation(la: dict, board: list[dict]) -> list[Phrase]:
    """What an enemy ship did (the state's ``last_activation``, kept as data): its dice, its target, the
    damage and the nodes it destroyed, where it sailed; one clause each, seats as ``who(seat)``. Built
    from the activation's data alone, so a game saved before the words were translated reads the same."""
    name = Phrase(la["name"])
    parts = [
        Phrase(N_("**{tag}** {enemy} rolled {dice}"), tag=tag(la["enemy"]), enemy=name, dice=dice(la["dice"]))
    ]
    if la.get("target") is not None:
        side = who(la["target"])
        if la.get("fate") is not None:
            parts.append(Phrase(N_("targets {side} (Fate Die {fate})"), side=side, fate=la["fate"]))
        else:
            parts.append(Phrase(N_("targets {side}"), side=side))
        if la.get("approach"):
            parts.append(Phrase.ngettext("closes {n} hex", "closes {n} hexes", la["approach"]))
        if la.get("attacked"):
            if la.get("evasion"):
                parts.append(
                    Phrase(
                        N_("hits {damage}, {dice} on Evasion dice evades {evaded}"),
                        damage=la["damage"],
                        dice=dice(la["evasion"]),
                        evaded=la.get("evaded", 0),
                    )
                )
            else:
                parts.append(Phrase(N_("hits {damage}"), damage=la["damage"]))
            if la.get("nodes_hit"):
                nodes = listed([Phrase(board[h["node"]]["name"]) for h in la["nodes_hit"]])
                parts.append(Phrase(N_("destroys {nodes}"), nodes=nodes))
            if la.get("sunk"):
                parts.append(Phrase(N_("**sinks** it")))
    else:
        parts.append(Phrase(N_("no ship in its Engagement Range")))
    if la.get("dest_moves"):
        parts.append(
            Phrase.ngettext(
                "sails {n} hex toward its destination",
                "sails {n} hexes toward its destination",
                la["dest_moves"],
            )
        )
    if la.get("banished"):
        parts.append(Phrase(N_("is **Banished**: Agenda +{steps}"), steps=la.get("agenda_steps", 0)))
    return parts


def _activation(view: dict, names: list[str] | None, speaker: Voice) -> str:
    said = "; ".join(speaker.say(p) for p in activation(view["last_activation"], view["board"]))
    return fill_names(speaker.gettext("Last enemy: {what}", what=said), names)


def _my_ship(view: dict, speaker: Voice) -> str:
    """A seat's own ship board: orders, dice, crew and the destroyed nodes."""
    _, n_ = speaker.gettext, speaker.ngettext
    s = view["my_ship"]
    board = view["board"]
    crew_names = view.get("crew_names", [])
    crew = ", ".join(
        _(
            "{member} at {node}",
            member=named(speaker, crew_names[k]) if k < len(crew_names) else k + 1,
            node=named(speaker, board[n]["name"]),
        )
        for k, n in enumerate(s["crew"])
    )
    lost = [named(speaker, board[i]["name"]) for i, dead in enumerate(s["destroyed"]) if dead]
    orders = n_("{n} order left", "{n} orders left", s["orders"])
    if s["nav"]:
        orders = n_("{orders} ({n} nav point)", "{orders} ({n} nav points)", s["nav"], orders=orders)
    lines = [
        _(
            "**Your ship ({number})**: {orders} · Navigation {nav} per order · {evasion} · {attack}",
            number=s["seat"] + 1,
            orders=orders,
            nav=1 + s["manned_nav"],
            evasion=n_("{n} Evasion die", "{n} Evasion dice", s["manned_nav"]),
            attack=n_("{n} Attack die", "{n} Attack dice", 2 + (1 if s["nest"] else 0)),
        ),
        _("Crew: {crew}", crew=crew) if crew else _("Crew: none"),
        _("Destroyed: {nodes}", nodes=", ".join(lost)) if lost else _("No node destroyed"),
    ]
    return "\n".join(lines)


def _enemies(view: dict, room: int, speaker: Voice) -> str:
    """The enemy ships in at most ``room`` characters: the last ones are counted when they do not fit."""
    shown = [_enemy(e, speaker) for e in view["enemies"]]
    if not shown:
        return speaker.gettext("No enemy ship in sight.")
    for n in range(len(shown), 0, -1):
        text = speaker.gettext("Enemies: {ships}", ships=" · ".join(shown[:n]))
        if n < len(shown):
            text = speaker.ngettext(
                "{ships} · and {n} more", "{ships} · and {n} more", len(shown) - n, ships=text
            )
        if len(text) <= room or n == 1:
            return text
    return text


def view_text(view: dict, names: list[str] | None = None, *, speaker: Voice = ENGLISH) -> str:
    """The markdown beside the picture; ``names`` come already escaped for markdown. The channel part
    stays within TEXT_MAX characters with four players' long names (the enemy list gives way)."""
    lines = [
        _turn(view, names, speaker),
        _tracks(view, speaker),
        speaker.gettext("Ships: {ships}", ships=" · ".join(_ship(s, names, speaker) for s in view["ships"])),
    ]
    if view.get("last_activation"):
        lines.append(_activation(view, names, speaker))
    used = sum(len(line) + 1 for line in lines)
    lines.insert(3, _enemies(view, TEXT_MAX - used, speaker))
    if view.get("my_ship"):
        lines.append(_my_ship(view, speaker))
    return "\n".join(lines)


def alt_text(view: dict, names: list[str] | None = None, *, speaker: Voice = ENGLISH) -> str:
    """One sentence for a screen reader, at most 256 characters with the names filled in."""
    _, n_ = speaker.gettext, speaker.ngettext
    res = view.get("result")
    if res:
        state = _("game over, the crews win") if res.get("winners") else _("game over, the Everrain wins")
    elif view["phase"] == "enemy":
        state = _("enemy phase")
    elif view.get("current") is not None:
        state = _(
            "{side}'s ship {number} to act",
            side=seat_name(view["current"], names),
            number=view["current"] + 1,
        )
    else:
        state = ""
    scenario = named(speaker, view["scenario_title"])
    if state:
        head = _(
            "The Everrain, {scenario}, round {round}: {state}",
            scenario=scenario,
            round=view["round"],
            state=state,
        )
    else:
        head = _("The Everrain, {scenario}, round {round}:", scenario=scenario, round=view["round"])
    parts = [
        _(
            "Agenda {agenda} of {agenda_length}, Discovery {discovery} of {discovery_end}, "
            "Enemy Discovery {enemy} of {enemy_end}",
            **tracks(view),
        ),
        _(
            "{players}, {enemies}",
            players=n_("{n} player ship", "{n} player ships", len(view["ships"])),
            enemies=n_("{n} enemy ship", "{n} enemy ships", len(view["enemies"])),
        ),
    ]
    la = view.get("last_activation")
    if la:
        enemy = named(speaker, la["name"])
        if la["target"] is None:
            parts.append(_("{enemy} last moved", enemy=enemy))
        elif la["attacked"]:
            parts.append(
                _(
                    "{enemy} last moved at {side}'s ship, hitting",
                    enemy=enemy,
                    side=seat_name(la["target"], names),
                )
            )
        else:
            parts.append(
                _("{enemy} last moved at {side}'s ship", enemy=enemy, side=seat_name(la["target"], names))
            )
    if view.get("my_ship"):
        parts.append(_("your ship {intact} of 10 nodes intact", intact=view["my_ship"]["intact"]))
    text = head
    for part in parts:
        if len(text) + 2 + len(part) + 1 > ALT_MAX:
            break
        text += "; " + part
    text += "."
    return text if len(text) <= ALT_MAX else text[: ALT_MAX - 1] + "…"


def key_text(view: dict, *, speaker: Voice = ENGLISH) -> str:
    """The key to the picture, in the reader's language."""
    _ = speaker.gettext
    lines = [
        _("**The Everrain: key to the picture**"),
        _(
            "**Map** Anchor: a port (safe; repairs; clues are brought there) · dark wavy hexes: rough sea "
            "(2 navigation points a move) · green: island (blocks moves and sight) · purple swirl: the Rift · "
            "red ring with a dot: an enemy spawn hex · gold **?**: a clue site (a number beside it: clues there)"
        ),
        _(
            "**Ships** A player ship is its seat's badge (shape, colour and number, as beside the picture) on a "
            "hull pointing the way it faces; gold **?n**: clues it carries; a gold ring: the ship to act. "
            "An enemy ship is a dark hull with its letter; red pips under it: its health."
        ),
        _(
            "**Enemy reach** Red dots: the hexes its guns reach · thin red hex outlines: its Engagement Range · "
            "orange line and arrow: the last enemy ship's path · red outlined hexes: the hexes it hit · "
            "yellow line: the last player move or shot"
        ),
        _(
            "**Column** hourglass: the round · badge in a gold ring: the seat to act (dark hull: the enemy "
            "phase) · green tick: won · red cross: lost"
        ),
        _(
            "**Tracks** purple eye: the Agenda (the ring marks its step) · gold "
            "magnifying glass: Discovery · red-edged hull: Enemy Discovery"
        ),
    ]
    # the ship board is drawn in each seat's own picture (DM); /game rules and the table's Key (the
    # spectators' view) explain it too, as each reader is, or may become, a captain
    board = ship_board()
    faces = ", ".join(
        _("{face} {node}", face=face, node=named(speaker, node["name"]))
        for face, node in enumerate(board["node"])
    )
    pips = ", ".join(
        speaker.ngettext("{n} pip: {member}", "{n} pips: {member}", k + 1, member=named(speaker, member))
        for k, member in enumerate(board["crew"])
    )
    lines.append(
        _(
            "**Ship board** nodes by Fate Die face: {faces}; crossed: destroyed; badge with pips: "
            "crew ({pips})",
            faces=faces,
            pips=pips,
        )
    )
    return "\n".join(lines)
