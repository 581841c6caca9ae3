"""The words beside The Everrain's picture, built from a view alone (never the game's state).

``view_text``: the round and whose turn, the tracks, every ship, the enemy ships and what the last
enemy did (its dice, its target, the damage), a few markdown lines shown with the picture; a seat's own
view adds its ship board. ``alt_text``: one sentence for a screen reader. ``key_text``: the key to the
picture's marks (the picture itself carries no legend and no names: a seat is its numbered badge).
"""

from __future__ import annotations

from bot.games.everrain.board import DIR_NAMES, label, tag
from bot.games.names import seat_name
from bot.games.phrase import ENGLISH, Voice
from bot.games.words import counted

# The order dice faces are named in; a face kind a die does not show is simply left out.
FACE_ORDER = ("move", "damage", "evade", "omen", "blank")
ALT_MAX = 256
TEXT_MAX = 700  # the channel view's share of the 4000-character message (DM views add the ship)


def dice_words(faces: list[str]) -> str:
    """A roll as a player reads it: "3 Move, 1 Damage and 1 Omen" (the rules' capitalised outcome names;
    blank faces in lower case, as they are no outcome)."""
    counts = [(faces.count(kind), kind) for kind in FACE_ORDER if kind in faces]
    counts += [(faces.count(kind), kind) for kind in dict.fromkeys(faces) if kind not in FACE_ORDER]
    parts = [f"{n} {kind if kind == 'blank' else kind.capitalize()}" for n, kind in counts]
    if not parts:
        return "no dice"
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _seat(seat: int, names: list[str] | None) -> str:
    """A seat as the text names it: its badge number (the number on its ship in the picture) and name."""
    return f"**{seat + 1}** {seat_name(seat, names)}"


def _turn(view: dict, names: list[str] | None) -> str:
    res = view.get("result")
    if res:
        outcome = "the crews win" if res.get("winners") else "the Everrain wins"
        return f"**Game over**: {outcome} (Discovery {view['tracks']['discovery']})"
    head = f"**Round {view['round']}**"
    if view["phase"] == "enemy":
        waiting = [e["tag"] for e in view["enemies"] if not e["activated"]]
        return f"{head} · **Enemy phase**: {seat_name(view['first'], names)} picks the order" + (
            f" ({', '.join(waiting)} to act)" if waiting else ""
        )
    cur = view.get("current")
    if cur is None:
        return head
    ship = view["ships"][cur]
    orders = counted(ship["orders"], "order") + (f", {ship['nav']} nav" if ship["nav"] else "")
    pending = view.get("pending")
    omens = f"; {counted(pending['omens'], 'Omen')} to keep or turn into Damage" if pending else ""
    return f"{head} · {_seat(cur, names)} to act ({orders}){omens}"


def _tracks(view: dict) -> str:
    t = view["tracks"]
    return (
        f"Agenda {t['agenda']}/{t['agenda_length']} · Discovery {t['discovery']}/{t['discovery_end']} · "
        f"Enemy Discovery {t['enemy_discovery']}/{t['enemy_discovery_end']}"
    )


def _ship(s: dict, names: list[str] | None) -> str:
    where = "in port" if s["in_port"] else f"{label((s['q'], s['r']))} {DIR_NAMES[s['facing']]}"
    clues = counted(s["clues"], "clue") + (f" (+{s['delivered']} brought)" if s["delivered"] else "")
    return f"{_seat(s['seat'], names)} {where}, {s['intact']}/10 nodes, {clues}"


def _enemy(e: dict) -> str:
    dest = f" → {e['dest_label']}" if e.get("dest_label") and e["dest_label"] != "none" else ""
    return f"**{e['tag']}** {e['name']} {e['health']}/{e['max_health']} hp {label((e['q'], e['r']))}{dest}"


def _activation(view: dict, names: list[str] | None) -> str:
    """What the last enemy ship did: its dice, its target, the damage and the nodes it destroyed."""
    la = view["last_activation"]
    parts = [f"**{tag(la['enemy'])}** {la['name']} rolled {dice_words(la['dice'])}"]
    if la["target"] is not None:
        fate = f" (Fate Die {la['fate']})" if la["fate"] is not None else ""
        parts.append(f"targets {seat_name(la['target'], names)}{fate}")
        if la["approach"]:
            parts.append(f"closes {la['approach']}")
        if la["attacked"]:
            hit = f"hits {la['damage']}" + (
                f", {dice_words(la['evasion'])} on Evasion dice evades {la['evaded']}"
                if la["evasion"]
                else ""
            )
            parts.append(hit)
            if la["nodes_hit"]:
                board = view["board"]
                parts.append("destroys " + ", ".join(board[h["node"]]["name"] for h in la["nodes_hit"]))
            if la["sunk"]:
                parts.append("**sinks** it")
    else:
        parts.append("no ship in its Engagement Range")
    if la["dest_moves"]:
        parts.append(f"sails {la['dest_moves']} toward its destination")
    if la["banished"]:
        parts.append(f"is **Banished**: Agenda +{la['agenda_steps']}")
    return "Last enemy: " + "; ".join(parts)


def _my_ship(view: dict) -> str:
    """A seat's own ship board: orders, dice, crew and the destroyed nodes."""
    s = view["my_ship"]
    board = view["board"]
    crew_names = view.get("crew_names", [])
    crew = ", ".join(
        f"{crew_names[k] if k < len(crew_names) else k + 1} at {board[n]['name']}"
        for k, n in enumerate(s["crew"])
    )
    lost = [board[i]["name"] for i, dead in enumerate(s["destroyed"]) if dead]
    orders = counted(s["orders"], "order") + (f" ({s['nav']} nav points)" if s["nav"] else "")
    lines = [
        f"**Your ship ({s['seat'] + 1})**: {orders} left · Navigation {1 + s['manned_nav']} per order · "
        f"{counted(s['manned_nav'], 'Evasion die', 'Evasion dice')} · "
        f"{counted(2 + (1 if s['nest'] else 0), 'Attack die', 'Attack dice')}",
        f"Crew: {crew or 'none'}",
        f"Destroyed: {', '.join(lost)}" if lost else "No node destroyed",
    ]
    return "\n".join(lines)


def _enemies(view: dict, room: int) -> str:
    """The enemy ships in at most ``room`` characters: the last ones are counted when they do not fit."""
    shown = [_enemy(e) for e in view["enemies"]]
    if not shown:
        return "No enemy ship in sight."
    for n in range(len(shown), 0, -1):
        more = f" · and {len(shown) - n} more" if n < len(shown) else ""
        text = "Enemies: " + " · ".join(shown[:n]) + more
        if len(text) <= room or n == 1:
            return text
    return text


def view_text(view: dict, names: list[str] | None = None) -> str:
    """The markdown beside the picture; ``names`` come already escaped for markdown. The channel part
    stays within TEXT_MAX characters with four players' long names (the enemy list gives way)."""
    lines = [
        _turn(view, names),
        _tracks(view),
        "Ships: " + " · ".join(_ship(s, names) for s in view["ships"]),
    ]
    if view.get("last_activation"):
        lines.append(_activation(view, names))
    used = sum(len(line) + 1 for line in lines)
    lines.insert(3, _enemies(view, TEXT_MAX - used))
    if view.get("my_ship"):
        lines.append(_my_ship(view))
    return "\n".join(lines)


def alt_text(view: dict, names: list[str] | None = None) -> str:
    """One sentence for a screen reader, at most 256 characters with the names filled in."""
    head = f"The Everrain, {view['scenario_title']}, round {view['round']}: "
    res = view.get("result")
    if res:
        head += "game over, " + ("the crews win" if res.get("winners") else "the Everrain wins")
    elif view["phase"] == "enemy":
        head += "enemy phase"
    elif view.get("current") is not None:
        head += f"{seat_name(view['current'], names)}'s ship {view['current'] + 1} to act"
    t = view["tracks"]
    parts = [
        f"Agenda {t['agenda']} of {t['agenda_length']}, Discovery {t['discovery']} of {t['discovery_end']}, "
        f"Enemy Discovery {t['enemy_discovery']} of {t['enemy_discovery_end']}",
        f"{counted(len(view['ships']), 'player ship')}, {counted(len(view['enemies']), 'enemy ship')}",
    ]
    la = view.get("last_activation")
    if la:
        target = f" at {seat_name(la['target'], names)}'s ship" if la["target"] is not None else ""
        parts.append(f"{la['name']} last moved{target}" + (", hitting" if la["attacked"] else ""))
    if view.get("my_ship"):
        parts.append(f"your ship {view['my_ship']['intact']} of 10 nodes intact")
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
            "**Column** Round and who is to act; tracks: Agenda (the ring marks its step), Discovery (gold), "
            "Enemy Discovery (red; \u201cEnemy disc.\u201d)"
        ),
    ]
    # a seat's own view, or no game at all (/game rules): the ship board's key too
    if view.get("my_ship") is not None or "map" not in view:
        lines.append(
            _(
                "**Ship board** (your own view) The ten nodes, stern left, bow right: red guns, blue "
                "navigation, yellow Crow's nest, grey blank; a crossed dark node is destroyed; your badge "
                "with a letter on a node: a crew member there (Mate, Gunner, Bosun)"
            )
        )
    return "\n".join(lines)
