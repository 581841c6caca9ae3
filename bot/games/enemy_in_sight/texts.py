"""The words beside Enemy in Sight's picture (``view_text``), the sentence a screen reader speaks for
it (``alt_text``) and its key (``key_text``): all built from a view alone, never from the full state.

The picture shows the fleets (a seat is its badge: number, shape, colour); everything words say
better is here: the round, scores, hands as counts, ships sunk and in Port, the decks, whose turn and,
in a player's own view, the cards in hand and the ships with their full names. Every sentence is said in
the reader's language (``speaker``).
"""

from __future__ import annotations

from bot.games import names as seat_refs
from bot.games.enemy_in_sight import data
from bot.games.enemy_in_sight.data import card_name, nation_name
from bot.games.enemy_in_sight.terms import logged, seat_name
from bot.games.phrase import ENGLISH, N_, Voice

ALT_MAX = 256  # characters: Discord's limit for an image's description
MAY_FIRE_NAMED = 8  # more targets than this (a Rake: any ship) are counted, not listed


def fill(text: str, names: list[str] | None) -> str:
    """``text`` with its seat references filled: names as the caller gave them (already escaped for
    markdown where the text is markdown), their colours without names."""
    return seat_refs.fill_names(text, names)


def clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


# ------------------------------------------------------------------ pieces
def ship_text(s: dict, speaker: Voice = ENGLISH) -> str:
    """A ship in words: "Victory (GB 1) H12 R8", with its fires and state."""
    _ = speaker.gettext
    marks = []
    if s.get("fires"):
        marks.append(speaker.ngettext("{n} fire", "{n} fires", len(s["fires"])))
    if s.get("struck"):
        marks.append(_("struck"))
    elif s.get("dismasted"):
        marks.append(_("dismasted"))
    if s.get("breaker"):
        marks.append(_("breaking the Line"))
    facts = {
        "name": s["name"],
        "nation": s["nation"],
        "rate": s["rate"],
        "hull": max(0, s["hull"] - s["hull_dmg"]),
        "rig": max(0, s["rig"] - s["rig_dmg"]),
    }
    if marks:
        return _("{name} ({nation} {rate}) H{hull} R{rig}, {marks}", marks=", ".join(marks), **facts)
    return _("{name} ({nation} {rate}) H{hull} R{rig}", **facts)


def card_text(c: dict, speaker: Voice = ENGLISH) -> str:
    """A card in hand in words; a red card must be played."""
    name = card_name(c, speaker)
    return speaker.gettext("**{card}** (red: must play)", card=name) if c.get("red") else name


def seat_list(seats: list[int], speaker: Voice) -> str:
    """Seats as a list a sentence holds: "A", "A and B", "A, B and C"."""
    said = [seat_name(p) for p in seats]
    if len(said) < 2:
        return "".join(said)
    return speaker.gettext("{seats} and {last}", seats=", ".join(said[:-1]), last=said[-1])


def _winning(view: dict, speaker: Voice) -> str | None:
    """Who won, with how many VP ("⟨0⟩ wins with 104 VP"); None when nobody did."""
    winners = (view.get("result") or {}).get("winners", [])
    if not winners:
        return None
    best = max(view["scores"][w] for w in winners)
    return speaker.ngettext(
        "{winners} wins with {vp} VP",
        "{winners} win with {vp} VP",
        len(winners),
        winners=seat_list(winners, speaker),
        vp=best,
    )


def _to_act(view: dict) -> str:
    return ", ".join(seat_name(p) for p in view.get("to_act") or [view["turn"]])


def status(view: dict, speaker: Voice = ENGLISH) -> str:
    """What the table waits for, in one line."""
    _ = speaker.gettext
    if view.get("over"):
        won = _winning(view, speaker)
        return _("**Game over**: {result}", result=won) if won else _("**Game over**")
    board = view.get("boarding")
    if board:
        return _(
            "**Boarding**: {attacker} against {defender}, both choosing a secret card",
            attacker=seat_name(board["att"]),
            defender=seat_name(board["def"]),
        )
    capture = view.get("capture")
    if capture:
        return _(
            "{captor} takes {ship} into the Line or as a prize",
            captor=seat_name(capture["captor"]),
            ship=capture["ship"]["name"],
        )
    arranging = view.get("arranging")
    if arranging:
        counts = {"round": view["round"], "ready": len(arranging["done"]), "total": len(arranging["ships"])}
        if arranging["phase"] == "arrange":
            return _(
                "**Round {round}**: Lines and Reserves formed in secret ({ready} of {total} done)", **counts
            )
        return _(
            "**Round {round}**: Lines revealed; Reserve ships may join, the largest ship may move once "
            "({ready} of {total} done)",
            **counts,
        )
    return _(
        "**Round {round}**, first to {target} VP: {to_act} to act",
        round=view["round"],
        target=view.get("target_vp", 100),
        to_act=_to_act(view),
    )


def fleet_line(view: dict, f: dict, speaker: Voice = ENGLISH) -> str:
    """One seat: its badge number, score, hand (a count), sunk ships, Port and what lies on it."""
    _ = speaker.gettext
    p = f["seat"]
    bits = [
        _("**{vp} VP**", vp=view["scores"][p]),
        speaker.ngettext("{n} card", "{n} cards", f["hand_count"]),
    ]
    if f["sunk_count"]:
        bits.append(_("sank {n} (+{vp})", n=f["sunk_count"], vp=f["sunk_vp"]))
    if f["port"]:
        bits.append(_("Port: {ships}", ships=", ".join(s["name"] for s in f["port"])))
    if p == view["dealer"]:
        bits.append(_("dealer"))
    if f["refuse_battle"]:
        bits.append(_(data.TYPE_NAMES["refuse_battle"]))
    broken = [seat_name(c["by"]) for c in view["in_play"]["btl"] if c["target"] == p]
    if broken:
        bits.append(_("Line broken by {seats}", seats=", ".join(broken)))
    blockaded = [seat_name(c["by"]) for c in view["in_play"]["blockade"] if c["target"] == p]
    if blockaded:
        bits.append(_("Port blockaded by {seats}", seats=", ".join(blockaded)))
    return f"`{p + 1}` {seat_name(p)}: " + " · ".join(bits)


def decks_line(view: dict, speaker: Voice = ENGLISH) -> str:
    _ = speaker.gettext
    top = view["ship_deck"].get("top")
    counts = {
        "ships": view["ship_deck"]["count"],
        "actions": view["action_deck"],
        "discards": view["discard"],
    }
    if top:
        return _(
            "Ships {ships} (next: {name}, {nation} {rate}) · actions {actions} · discards {discards}",
            name=top["name"],
            nation=top["nation"],
            rate=top["rate"],
            **counts,
        )
    return _("Ships {ships} · actions {actions} · discards {discards}", **counts)


def own_lines(view: dict, speaker: Voice = ENGLISH) -> list[str]:
    """A player's own view: the hand, the chosen card, the ships that may be fired at, the fleet."""
    _ = speaker.gettext
    seat = view.get("seat")
    hand = view.get("hand")
    if seat is None or hand is None:
        return []
    cards = ", ".join(card_text(c, speaker) for c in hand) if hand else _("no cards")
    lines = [_("**Your hand**: {cards}", cards=cards)]
    pend = view.get("pending") or {}
    if pend.get("card_view"):
        lines.append(_("Playing: {card}", card=card_name(pend["card_view"], speaker)))
    board = view.get("boarding") or {}
    if board.get("my_choice"):
        lines.append(_("Your secret boarding card: {card}", card=card_name(board["my_choice"], speaker)))
    if pend.get("may_fire_at"):
        ships = {s["id"]: s for f in view["fleets"] for s in f["line"] + f["prizes"] + f.get("reserve", [])}
        aims = [ships[x]["name"] for x in pend["may_fire_at"] if x in ships]
        if len(aims) <= MAY_FIRE_NAMED:
            lines.append(_("May fire at (green outline): {ships}", ships=", ".join(aims)))
        else:
            lines.append(
                speaker.ngettext(
                    "May fire at (green outline): {n} ship",
                    "May fire at (green outline): {n} ships",
                    len(aims),
                )
            )
    fleet = view["fleets"][seat]
    ships = fleet["line"] + fleet["prizes"] + fleet.get("reserve", [])
    if ships:
        lines.append(_("Your ships: {ships}", ships=" · ".join(ship_text(s, speaker) for s in ships)))
    return lines


def reveal_lines(view: dict, speaker: Voice = ENGLISH) -> list[str]:
    """A finished game's final reveal (a replay's last picture): every hand at the end."""
    _ = speaker.gettext
    return [
        _(
            "{seat}'s hand at the end: {cards}",
            seat=seat_name(int(p)),
            cards=", ".join(card_name(c, speaker) for c in cards) if cards else _("no cards"),
        )
        for p, cards in (view.get("hands") or {}).items()
    ]


# ------------------------------------------------------------------ the hooks
def view_text(
    view: dict, names: list[str] | None = None, extra: list[str] | None = None, *, speaker: Voice = ENGLISH
) -> str:
    lines = [status(view, speaker)]
    lines += [fleet_line(view, f, speaker) for f in view["fleets"]]
    lines.append(decks_line(view, speaker))
    lines += extra or []
    lines += own_lines(view, speaker)
    lines += reveal_lines(view, speaker)
    return fill("\n".join(lines), names)


def alt_text(view: dict, names: list[str] | None = None, *, speaker: Voice = ENGLISH) -> str:
    _ = speaker.gettext
    if view.get("over"):
        won = _winning(view, speaker)
        now = _("game over: {result}", result=won) if won else _("game over")
    elif view.get("arranging"):
        now = _("round {round}, Lines being formed in secret", round=view["round"])
    else:
        now = _("round {round}: {to_act} to act", round=view["round"], to_act=_to_act(view))
    ships = " ".join(
        str(len(f["line"]) + len(f["prizes"]) + len(f.get("reserve", []))) for f in view["fleets"]
    )
    said = {"now": now, "ships": ships}
    events = view.get("last_events") or []
    if events and not view.get("over"):
        last = speaker.say(logged(events[-1])).rstrip(".")
        text = speaker.ngettext(
            "Enemy in Sight, {n} fleet, {now}; ships at sea {ships}; last: {last}.",
            "Enemy in Sight, {n} fleets, {now}; ships at sea {ships}; last: {last}.",
            view["players"],
            last=last,
            **said,
        )
    else:
        text = speaker.ngettext(
            "Enemy in Sight, {n} fleet, {now}; ships at sea {ships}.",
            "Enemy in Sight, {n} fleets, {now}; ships at sea {ships}.",
            view["players"],
            **said,
        )
    return clip(fill(text, names), ALT_MAX)


NATION_BANDS = {"GB": "red", "FR": "blue", "ES": "yellow", "NL": "orange", "US": "navy"}
BAND_WORDS = {
    "red": N_("red"),
    "blue": N_("blue"),
    "yellow": N_("yellow"),
    "orange": N_("orange"),
    "navy": N_("navy"),
    "grey": N_("grey"),
}


def key_lines(speaker: Voice = ENGLISH) -> list[str]:
    _ = speaker.gettext
    nations = ", ".join(
        _(
            "{code} {nation} ({colour})",
            code=code,
            nation=nation_name(code, speaker),
            colour=_(BAND_WORDS[NATION_BANDS.get(code, "grey")]),
        )
        for code in data.nations()
    )
    return [
        _("**Enemy in Sight: the picture**"),
        _(
            "- One panel per seat; its badge (number, shape and colour) is on the strip at the left: the "
            "number is the seat's number in the text. Gold frame: to act (at the end, the winners). White "
            "frame: your own fleet."
        ),
        _(
            "- Strip tags: **D** dealer · **RB** Refuse Battle (its ships immune) · **BL** its Line broken · "
            "**BK** its Port blockaded."
        ),
        _(
            "- A ship card: a band in its nation's colour with nation and rate ({nations}); its name; "
            "Hull left (green) and Rigging left (blue), red at 0 (dismasted), bars below them.",
            nations=nations,
        ),
        _(
            "- Cream: in the Line · lilac with **P**: a prize · light blue with an anchor: in Port · grey with "
            "a white flag: struck."
        ),
        _("- A flame: fire on board (two flames: two fires or more) · a purple chevron: breaks the Line."),
        _(
            "- Outlines: yellow, hit by the last action · white, the ship that acted · green, may be fired at "
            "now (or is being boarded)."
        ),
    ]


def key_text(view: dict, *, speaker: Voice = ENGLISH) -> str:
    return "\n".join(key_lines(speaker))


def advanced_key_text(view: dict, *, speaker: Voice = ENGLISH) -> str:
    _ = speaker.gettext
    return "\n".join(
        key_lines(speaker)
        + [
            _(
                "- Advanced game: Line ships stand in station order (lead at the left), then the Reserve: "
                "green cards with **R** (a prize in the Reserve: **P**)."
            ),
            _("- Face-down **?** cards: a fleet still being arranged in secret; a tick on the strip: done."),
        ]
    )


def arrangement_lines(view: dict, speaker: Voice = ENGLISH) -> list[str]:
    """The Advanced game's secret set-up in a player's own view: their Line and Reserve as arranged."""
    _ = speaker.gettext
    mine = view.get("arrange")
    if not mine:
        return []
    line = ", ".join(f"{k + 1} {s['name']}" for k, s in enumerate(mine["line"])) or _("empty")
    reserve = ", ".join(f"R{k + 1} {s['name']}" for k, s in enumerate(mine["reserve"])) or _("empty")
    if mine["done"]:
        return [_("**Your secret Line** (done): {line} · **Reserve**: {reserve}", line=line, reserve=reserve)]
    return [_("**Your secret Line**: {line} · **Reserve**: {reserve}", line=line, reserve=reserve)]
