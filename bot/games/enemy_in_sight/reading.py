"""The Enemy in Sight position read in words, for a screen reader (``Game.read_board``): the round, the
dealer and the decks; then each seat in turn order with its score, hand size, the cards in play on it
and its ships in Line order (then Reserve, prizes and port), each ship with its nation, rate, hull and
rigging left and its state; then a boarding, a capture or a secret set-up under way, and what the
viewer alone holds (their hand, their arrangement)."""

from __future__ import annotations

from bot.games.enemy_in_sight.data import nations
from bot.games.names import who
from bot.games.phrase import ENGLISH, Voice
from bot.games.words import counted

# The player-facing words of this module (plain English, one place: easy to translate later).
W_HEAD = "Round {round}; dealer {dealer}; first to {target} VP wins."
W_DECKS = "Ship deck: {ships}, next {top}. Action deck: {actions}; discard pile: {discards}."
W_NO_TOP = "none"
W_TOP = "{name} ({nation}, rate {rate})"
W_SEAT = "{side}: {vp} VP, {cards} in hand{extra}."
W_SANK = ", sank {ships} (+{vp} VP)"
W_REFUSING = ", refusing battle"
W_BROKEN = "{side}'s Line is broken by {by} ({nation}); Line Breakers: {ships}."
W_BLOCKADE = "{side}'s Port is blockaded by {by}."
W_LINE = "{side}'s Line, {ships}:"
W_RESERVE = "{side}'s Reserve, {ships}:"
W_PRIZES = "{side}'s prizes: {names}."
W_PORT = "{side}'s Port: {names}."
W_SHIP = "{n}. {name}, {nation}, rate {rate}: hull {hull} of {hull_full}, rigging {rig} of {rig_full}{state}"
W_PRIZE_MARK = ", a prize"
STATES = {
    "struck": "struck",
    "breaker": "a Line Breaker",
    "dismasted": "dismasted",
    "immune": "immune this turn",
}
W_FIRE = "on fire ({where})"
W_NONE = "none"
W_ARRANGING = "Secret set-up ({phase}): ready {ready}."
W_ARRANGE_PHASE = {"arrange": "arranging Lines", "revise": "revising Lines"}
W_NOBODY = "nobody yet"
W_BOARDING = "Boarding: {att}'s {boarder} boards {defender}'s {target}; secret cards chosen by {chosen}."
W_MY_BOARDING = "Your boarding card: {card}."
W_CAPTURE = "{captor} is taking {ship} into the Line or as a prize."
W_HAND = "Your hand: {cards}."
W_MY_LINE = "Your Line being arranged: {names}."
W_MY_RESERVE = "Your Reserve being arranged: {names}."
W_FIRE_AT = "You may fire at: {names}."
W_OVER = "Game over."


def _nation(code: str) -> str:
    return nations().get(code, code)


def _ship(n: int, s: dict, prize: bool = False) -> str:
    states = [words for key, words in STATES.items() if s.get(key)]
    fires = [f["loc"] for f in s.get("fires", [])]
    if fires:
        states.append(W_FIRE.format(where=", ".join("rigging" if f == "rig" else f for f in fires)))
    if prize or s.get("prize"):
        states.append(W_PRIZE_MARK.lstrip(", "))
    return W_SHIP.format(
        n=n,
        name=s["name"],
        nation=_nation(s["nation"]),
        rate=s["rate"],
        hull=max(0, s["hull"] - s["hull_dmg"]),
        hull_full=s["hull"],
        rig=max(0, s["rig"] - s["rig_dmg"]),
        rig_full=s["rig"],
        state=("; " + ", ".join(states)) if states else "",
    )


def _names(ships: list[dict]) -> str:
    return ", ".join(s["name"] for s in ships) or W_NONE


def read_board(view: dict, *, speaker: Voice = ENGLISH) -> list[str]:
    """The position of ``view`` in words, one fact a line; seats as ``who(seat)``."""
    top = view["ship_deck"]["top"]
    lines = [
        W_HEAD.format(round=view["round"], dealer=who(view["dealer"]), target=view.get("target_vp", 100)),
        W_DECKS.format(
            ships=counted(view["ship_deck"]["count"], "card"),
            top=W_TOP.format(name=top["name"], nation=_nation(top["nation"]), rate=top["rate"])
            if top
            else W_NO_TOP,
            actions=counted(view["action_deck"], "card"),
            discards=counted(view.get("discard", 0), "card"),
        ),
    ]
    ids = {s["id"]: s["name"] for f in view["fleets"] for s in f["line"] + f.get("reserve", []) + f["prizes"]}
    for f in view["fleets"]:
        p = f["seat"]
        extra = (
            W_SANK.format(ships=counted(f["sunk_count"], "ship"), vp=f["sunk_vp"])
            if f.get("sunk_count")
            else ""
        )
        if f["refuse_battle"]:
            extra += W_REFUSING
        lines.append(
            W_SEAT.format(
                side=who(p), vp=view["scores"][p], cards=counted(f["hand_count"], "card"), extra=extra
            )
        )
        for b in view["in_play"]["btl"]:
            if b["target"] == p:
                breakers = ", ".join(ids.get(x, x) for x in b.get("breakers", [])) or W_NONE
                lines.append(
                    W_BROKEN.format(side=who(p), by=who(b["by"]), nation=b["nation"], ships=breakers)
                )
        for k in view["in_play"]["blockade"]:
            if k["target"] == p:
                lines.append(W_BLOCKADE.format(side=who(p), by=who(k["by"])))
        lines.append(W_LINE.format(side=who(p), ships=counted(len(f["line"]), "ship")))
        lines += [_ship(n, s) for n, s in enumerate(f["line"], 1)] or [W_NONE]
        if "reserve" in f:
            lines.append(W_RESERVE.format(side=who(p), ships=counted(len(f["reserve"]), "ship")))
            lines += [_ship(n, s) for n, s in enumerate(f["reserve"], 1)] or [W_NONE]
        if f["prizes"]:
            lines.append(W_PRIZES.format(side=who(p), names=_names(f["prizes"])))
        if f["port"]:
            lines.append(W_PORT.format(side=who(p), names=_names(f["port"])))
    arr = view.get("arranging")
    if arr:
        ready = ", ".join(who(p) for p in arr["done"]) or W_NOBODY
        lines.append(W_ARRANGING.format(phase=W_ARRANGE_PHASE.get(arr["phase"], arr["phase"]), ready=ready))
    b = view.get("boarding")
    if b:
        lines.append(
            W_BOARDING.format(
                att=who(b["att"]),
                boarder=ids.get(b["boarder"], b["boarder"]),
                defender=who(b["def"]),
                target=ids.get(b["target"], b["target"]),
                chosen=", ".join(who(p) for p in b.get("chosen", [])) or W_NOBODY,
            )
        )
        if b.get("my_choice"):
            lines.append(W_MY_BOARDING.format(card=b["my_choice"]["name"]))
    cap = view.get("capture")
    if cap:
        lines.append(W_CAPTURE.format(captor=who(cap["captor"]), ship=_ship(1, cap["ship"])[3:]))
    if view.get("hand") is not None:
        lines.append(W_HAND.format(cards=", ".join(c["name"] for c in view["hand"]) or W_NONE))
    mine = view.get("arrange")
    if mine:
        lines.append(W_MY_LINE.format(names=_names(mine["line"])))
        lines.append(W_MY_RESERVE.format(names=_names(mine["reserve"])))
    pend = view.get("pending") or {}
    if pend.get("may_fire_at"):
        lines.append(W_FIRE_AT.format(names=", ".join(ids.get(x, x) for x in pend["may_fire_at"])))
    if view.get("over"):
        lines.append(W_OVER)
    return lines
