"""The Enemy in Sight position read in words, for a screen reader (``Game.read_board``): the round, the
dealer and the decks; then each seat in turn order with its score, hand size, the cards in play on it
and its ships in Line order (then Reserve, prizes and port), each ship with its nation, rate, hull and
rigging left and its state; then a boarding, a capture or a secret set-up under way, and what the
viewer alone holds (their hand, their arrangement). Every sentence is said in the reader's language."""

from __future__ import annotations

from bot.games.enemy_in_sight.data import card_name, nation_name
from bot.games.names import who
from bot.games.phrase import ENGLISH, N_, Voice

STATES = {
    "struck": N_("struck"),
    "breaker": N_("a Line Breaker"),
    "dismasted": N_("dismasted"),
    "immune": N_("immune this turn"),
}
FIRE_PLACES = {"hull": N_("hull"), "rig": N_("rigging")}
ARRANGE_PHASES = {"arrange": N_("arranging Lines"), "revise": N_("revising Lines")}


def _ship(s: dict, speaker: Voice) -> str:
    """A ship in words: name, nation, rate, hull and rigging left of full, then its state."""
    _ = speaker.gettext
    states = [_(words) for key, words in STATES.items() if s.get(key)]
    fires = [f["loc"] for f in s.get("fires", [])]
    if fires:
        where = ", ".join(_(FIRE_PLACES[f]) if f in FIRE_PLACES else str(f) for f in fires)
        states.append(_("on fire ({where})", where=where))
    if s.get("prize"):
        states.append(_("a prize"))
    facts = {
        "name": s["name"],
        "nation": nation_name(s["nation"], speaker),
        "rate": s["rate"],
        "hull": max(0, s["hull"] - s["hull_dmg"]),
        "hull_full": s["hull"],
        "rig": max(0, s["rig"] - s["rig_dmg"]),
        "rig_full": s["rig"],
    }
    if states:
        return _(
            "{name}, {nation}, rate {rate}: hull {hull} of {hull_full}, rigging {rig} of {rig_full}; {state}",
            state=", ".join(states),
            **facts,
        )
    return _(
        "{name}, {nation}, rate {rate}: hull {hull} of {hull_full}, rigging {rig} of {rig_full}", **facts
    )


def _numbered(ships: list[dict], speaker: Voice) -> list[str]:
    """Ships in order, numbered from 1 ("none" for no ship)."""
    return [f"{n}. {_ship(s, speaker)}" for n, s in enumerate(ships, 1)] or [speaker.gettext("none")]


def _names(ships: list[dict], speaker: Voice) -> str:
    return ", ".join(s["name"] for s in ships) or speaker.gettext("none")


def _seat_line(view: dict, f: dict, speaker: Voice) -> str:
    """A seat's score and hand, and the ships it sank or its refusing battle, in one sentence."""
    p = f["seat"]
    said = {"side": who(p), "vp": view["scores"][p]}
    hand = speaker.ngettext("{n} card in hand", "{n} cards in hand", f["hand_count"])
    sank = f.get("sunk_count") or 0
    if sank and f["refuse_battle"]:
        return speaker.ngettext(
            "{side}: {vp} VP, {hand}, sank {n} ship (+{sunk_vp} VP), refusing battle.",
            "{side}: {vp} VP, {hand}, sank {n} ships (+{sunk_vp} VP), refusing battle.",
            sank,
            hand=hand,
            sunk_vp=f["sunk_vp"],
            **said,
        )
    if sank:
        return speaker.ngettext(
            "{side}: {vp} VP, {hand}, sank {n} ship (+{sunk_vp} VP).",
            "{side}: {vp} VP, {hand}, sank {n} ships (+{sunk_vp} VP).",
            sank,
            hand=hand,
            sunk_vp=f["sunk_vp"],
            **said,
        )
    if f["refuse_battle"]:
        return speaker.gettext("{side}: {vp} VP, {hand}, refusing battle.", hand=hand, **said)
    return speaker.gettext("{side}: {vp} VP, {hand}.", hand=hand, **said)


def _decks(view: dict, speaker: Voice) -> list[str]:
    _ = speaker.gettext
    top = view["ship_deck"]["top"]
    deck = view["ship_deck"]["count"]
    if top:
        nation = nation_name(top["nation"], speaker)
        first = speaker.ngettext(
            "Ship deck: {n} card, next {name} ({nation}, rate {rate}).",
            "Ship deck: {n} cards, next {name} ({nation}, rate {rate}).",
            deck,
            name=top["name"],
            nation=nation,
            rate=top["rate"],
        )
    else:
        first = speaker.ngettext("Ship deck: {n} card.", "Ship deck: {n} cards.", deck)
    actions = speaker.ngettext("Action deck: {n} card.", "Action deck: {n} cards.", view["action_deck"])
    discards = speaker.ngettext("Discard pile: {n} card.", "Discard pile: {n} cards.", view.get("discard", 0))
    return [first, actions, discards]


def _fleet(view: dict, f: dict, ids: dict, speaker: Voice) -> list[str]:
    _ = speaker.gettext
    p = f["seat"]
    lines = [_seat_line(view, f, speaker)]
    for b in view["in_play"]["btl"]:
        if b["target"] == p:
            breakers = ", ".join(ids.get(x, x) for x in b.get("breakers", [])) or _("none")
            lines.append(
                _(
                    "{side}'s Line is broken by {by} ({nation}); Line Breakers: {ships}.",
                    side=who(p),
                    by=who(b["by"]),
                    nation=", ".join(nation_name(code, speaker) for code in b["nation"].split("/")),
                    ships=breakers,
                )
            )
    for k in view["in_play"]["blockade"]:
        if k["target"] == p:
            lines.append(_("{side}'s Port is blockaded by {by}.", side=who(p), by=who(k["by"])))
    lines.append(
        speaker.ngettext("{side}'s Line, {n} ship:", "{side}'s Line, {n} ships:", len(f["line"]), side=who(p))
    )
    lines += _numbered(f["line"], speaker)
    if "reserve" in f:
        lines.append(
            speaker.ngettext(
                "{side}'s Reserve, {n} ship:", "{side}'s Reserve, {n} ships:", len(f["reserve"]), side=who(p)
            )
        )
        lines += _numbered(f["reserve"], speaker)
    if f["prizes"]:
        lines.append(_("{side}'s prizes: {names}.", side=who(p), names=_names(f["prizes"], speaker)))
    if f["port"]:
        lines.append(_("{side}'s Port: {names}.", side=who(p), names=_names(f["port"], speaker)))
    return lines


def read_board(view: dict, *, speaker: Voice = ENGLISH) -> list[str]:
    """The position of ``view`` in words, one fact a line; seats as ``who(seat)``."""
    _ = speaker.gettext
    lines = [
        _(
            "Round {round}; dealer {dealer}; first to {target} VP wins.",
            round=view["round"],
            dealer=who(view["dealer"]),
            target=view.get("target_vp", 100),
        ),
        *_decks(view, speaker),
    ]
    ids = {s["id"]: s["name"] for f in view["fleets"] for s in f["line"] + f.get("reserve", []) + f["prizes"]}
    for f in view["fleets"]:
        lines += _fleet(view, f, ids, speaker)
    arr = view.get("arranging")
    if arr:
        ready = ", ".join(who(p) for p in arr["done"]) or _("nobody yet")
        phase = _(ARRANGE_PHASES[arr["phase"]]) if arr["phase"] in ARRANGE_PHASES else arr["phase"]
        lines.append(_("Secret set-up ({phase}): ready {ready}.", phase=phase, ready=ready))
    b = view.get("boarding")
    if b:
        lines.append(
            _(
                "Boarding: {att}'s {boarder} boards {defender}'s {target}; secret cards chosen by {chosen}.",
                att=who(b["att"]),
                boarder=ids.get(b["boarder"], b["boarder"]),
                defender=who(b["def"]),
                target=ids.get(b["target"], b["target"]),
                chosen=", ".join(who(p) for p in b.get("chosen", [])) or _("nobody yet"),
            )
        )
        if b.get("my_choice"):
            lines.append(_("Your boarding card: {card}.", card=card_name(b["my_choice"], speaker)))
    cap = view.get("capture")
    if cap:
        ship = _ship(cap["ship"], speaker)
        lines.append(
            _("{captor} is taking {ship} into the Line or as a prize.", captor=who(cap["captor"]), ship=ship)
        )
    if view.get("hand") is not None:
        cards = ", ".join(card_name(c, speaker) for c in view["hand"]) or _("none")
        lines.append(_("Your hand: {cards}.", cards=cards))
    mine = view.get("arrange")
    if mine:
        lines.append(_("Your Line being arranged: {names}.", names=_names(mine["line"], speaker)))
        lines.append(_("Your Reserve being arranged: {names}.", names=_names(mine["reserve"], speaker)))
    pend = view.get("pending") or {}
    if pend.get("may_fire_at"):
        names = ", ".join(ids.get(x, x) for x in pend["may_fire_at"])
        lines.append(_("You may fire at: {names}.", names=names))
    if view.get("over"):
        lines.append(_("Game over."))
    return lines
