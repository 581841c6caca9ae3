"""The words beside Enemy in Sight's picture (``view_text``), the sentence a screen reader speaks for
it (``alt_text``) and its key (``key_text``): all built from a view alone, never from the full state.

The picture shows the fleets (a seat is its badge: number, shape, colour); everything words say
better is here: the round, scores, hands as counts, ships sunk and in Port, the decks, whose turn and,
in a player's own view, the cards in hand and the ships with their full names.
"""

from __future__ import annotations

from bot.games import names as seat_refs
from bot.games.enemy_in_sight import data
from bot.games.enemy_in_sight.terms import seat_name
from bot.games.phrase import ENGLISH, Voice
from bot.games.words import counted

ALT_MAX = 256  # characters: Discord's limit for an image's description
MAY_FIRE_NAMED = 8  # more targets than this (a Rake: any ship) are counted, not listed


def fill(text: str, names: list[str] | None) -> str:
    """``text`` with its seat references filled: names as the caller gave them (already escaped for
    markdown where the text is markdown), their colours without names."""
    return seat_refs.fill_names(text, names)


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


# ------------------------------------------------------------------ pieces
def ship_text(s: dict) -> str:
    """A ship in words: "Victory (GB 1) H12 R8", with its fires and state."""
    hull = max(0, s["hull"] - s["hull_dmg"])
    rig = max(0, s["rig"] - s["rig_dmg"])
    marks = []
    if s.get("fires"):
        marks.append(counted(len(s["fires"]), "fire"))
    if s.get("struck"):
        marks.append("struck")
    elif s.get("dismasted"):
        marks.append("dismasted")
    if s.get("breaker"):
        marks.append("breaking the Line")
    return f"{s['name']} ({s['nation']} {s['rate']}) H{hull} R{rig}" + (
        f", {', '.join(marks)}" if marks else ""
    )


def card_text(c: dict) -> str:
    """A card in hand in words; a red card must be played."""
    return f"**{c['name']}** (red: must play)" if c.get("red") else str(c["name"])


def status(view: dict) -> str:
    """What the table waits for, in one line."""
    if view.get("over"):
        winners = (view.get("result") or {}).get("winners", [])
        if not winners:
            return "**Game over**"
        best = max(view["scores"][w] for w in winners)
        verb = "wins" if len(winners) == 1 else "win"
        return f"**Game over**: {' and '.join(seat_name(w) for w in winners)} {verb} with {best} VP"
    board = view.get("boarding")
    if board:
        sides = f"{seat_name(board['att'])} against {seat_name(board['def'])}"
        return f"**Boarding**: {sides}, both choosing a secret card"
    capture = view.get("capture")
    if capture:
        return f"{seat_name(capture['captor'])} takes {capture['ship']['name']} into the Line or as a prize"
    arranging = view.get("arranging")
    if arranging:
        ready = len(arranging["done"])
        what = (
            "Lines and Reserves formed in secret"
            if arranging["phase"] == "arrange"
            else "Lines revealed; Reserve ships may join, the largest ship may move once"
        )
        return f"**Round {view['round']}**: {what} ({ready} of {len(arranging['ships'])} done)"
    to_act = ", ".join(seat_name(p) for p in view.get("to_act") or [view["turn"]])
    return f"**Round {view['round']}**, first to {view.get('target_vp', 100)} VP: {to_act} to act"


def fleet_line(view: dict, f: dict) -> str:
    """One seat: its badge number, score, hand (a count), sunk ships, Port and what lies on it."""
    p = f["seat"]
    bits = [f"**{view['scores'][p]} VP**", counted(f["hand_count"], "card")]
    if f["sunk_count"]:
        bits.append(f"sank {f['sunk_count']} (+{f['sunk_vp']})")
    if f["port"]:
        bits.append("Port: " + ", ".join(s["name"] for s in f["port"]))
    if p == view["dealer"]:
        bits.append("dealer")
    if f["refuse_battle"]:
        bits.append("Refuse Battle")
    for what, cards in (
        ("Line broken", view["in_play"]["btl"]),
        ("Port blockaded", view["in_play"]["blockade"]),
    ):
        by = [seat_name(c["by"]) for c in cards if c["target"] == p]
        if by:
            bits.append(f"{what} by {', '.join(by)}")
    return f"`{p + 1}` {seat_name(p)}: " + " · ".join(bits)


def decks_line(view: dict) -> str:
    top = view["ship_deck"].get("top")
    nxt = f" (next: {top['name']}, {top['nation']} {top['rate']})" if top else ""
    ships = f"Ships {view['ship_deck']['count']}{nxt}"
    return f"{ships} · actions {view['action_deck']} · discards {view['discard']}"


def own_lines(view: dict) -> list[str]:
    """A player's own view: the hand, the chosen card, the ships that may be fired at, the fleet."""
    seat = view.get("seat")
    hand = view.get("hand")
    if seat is None or hand is None:
        return []
    lines = ["**Your hand**: " + (", ".join(card_text(c) for c in hand) if hand else "no cards")]
    pend = view.get("pending") or {}
    if pend.get("card_view"):
        lines.append(f"Playing: {pend['card_view']['name']}")
    board = view.get("boarding") or {}
    if board.get("my_choice"):
        lines.append(f"Your secret boarding card: {board['my_choice']['name']}")
    if pend.get("may_fire_at"):
        ships = {s["id"]: s for f in view["fleets"] for s in f["line"] + f["prizes"] + f.get("reserve", [])}
        aims = [ships[x]["name"] for x in pend["may_fire_at"] if x in ships]
        shown = ", ".join(aims) if len(aims) <= MAY_FIRE_NAMED else counted(len(aims), "ship")
        lines.append(f"May fire at (green outline): {shown}")
    fleet = view["fleets"][seat]
    ships = fleet["line"] + fleet["prizes"] + fleet.get("reserve", [])
    if ships:
        lines.append("Your ships: " + " · ".join(ship_text(s) for s in ships))
    return lines


def reveal_lines(view: dict) -> list[str]:
    """A finished game's final reveal (a replay's last picture): every hand at the end."""
    return list(view.get("reveal", []))


# ------------------------------------------------------------------ the hooks
def view_text(view: dict, names: list[str] | None = None, extra: list[str] | None = None) -> str:
    lines = [status(view)]
    lines += [fleet_line(view, f) for f in view["fleets"]]
    lines.append(decks_line(view))
    lines += extra or []
    lines += own_lines(view)
    lines += reveal_lines(view)
    return fill("\n".join(lines), names)


def alt_text(view: dict, names: list[str] | None = None) -> str:
    n = view["players"]
    if view.get("over"):
        now = status(view).replace("**", "").replace("Game over", "game over")
    elif view.get("arranging"):
        now = f"round {view['round']}, Lines being formed in secret"
    else:
        now = (
            f"round {view['round']}: "
            + ", ".join(seat_name(p) for p in view.get("to_act") or [view["turn"]])
            + " to act"
        )
    ships = " ".join(
        str(len(f["line"]) + len(f["prizes"]) + len(f.get("reserve", []))) for f in view["fleets"]
    )
    text = f"Enemy in Sight, {n} fleets, {now}; ships at sea {ships}"
    events = view.get("last_events") or []
    if events and not view.get("over"):
        text += f"; last: {events[-1]}"
    return clip(fill(text.rstrip(".") + ".", names), ALT_MAX)


NATION_BANDS = {"GB": "red", "FR": "blue", "ES": "yellow", "NL": "orange", "US": "navy"}


def key_lines() -> list[str]:
    nations = ", ".join(
        f"{code} {name} ({NATION_BANDS.get(code, 'grey')})" for code, name in data.nations().items()
    )
    return [
        "**Enemy in Sight: the picture**",
        "- One panel per seat; its badge (number, shape and colour) is on the strip at the left: the "
        "number is the seat's number in the text. Gold frame: to act (at the end, the winners). White "
        "frame: your own fleet.",
        "- Strip tags: **D** dealer · **RB** Refuse Battle (its ships immune) · **BL** its Line broken · "
        "**BK** its Port blockaded.",
        f"- A ship card: a band in its nation's colour with nation and rate ({nations}); its name; "
        "Hull left (green) and Rigging left (blue), red at 0 (dismasted), bars below them.",
        "- Cream: in the Line · lilac with **P**: a prize · light blue with an anchor: in Port · grey with "
        "a white flag: struck.",
        "- A flame: fire on board (two flames: two fires or more) · a purple chevron: breaks the Line.",
        "- Outlines: yellow, hit by the last action · white, the ship that acted · green, may be fired at "
        "now (or is being boarded).",
    ]


def key_text(view: dict, *, speaker: Voice = ENGLISH) -> str:
    return "\n".join(key_lines())


def advanced_key_text(view: dict, *, speaker: Voice = ENGLISH) -> str:
    return "\n".join(
        key_lines()
        + [
            "- Advanced game: Line ships stand in station order (lead at the left), then the Reserve: "
            "green cards with **R** (a prize in the Reserve: **P**).",
            "- Face-down **?** cards: a fleet still being arranged in secret; a tick on the strip: done.",
        ]
    )


def arrangement_lines(view: dict) -> list[str]:
    """The Advanced game's secret set-up in a player's own view: their Line and Reserve as arranged."""
    mine = view.get("arrange")
    if not mine:
        return []
    line = ", ".join(f"{k + 1} {s['name']}" for k, s in enumerate(mine["line"])) or "empty"
    reserve = ", ".join(f"R{k + 1} {s['name']}" for k, s in enumerate(mine["reserve"])) or "empty"
    done = " (done)" if mine["done"] else ""
    return [f"**Your secret Line**{done}: {line} · **Reserve**: {reserve}"]
