"""Labels, menu paths, prompts and the text board of Enemy in Sight.

The menus read the game (any variant); the game does not know them. :class:`MenuHooks` gives a game
class the host's hooks (``describe``, ``menu_entries``, …): the package mixes it into every variant it
registers (``__init__.py``).
"""

from __future__ import annotations

from bot.games.base import ChoiceMenu, is_choice
from bot.games.enemy_in_sight.data import card_name
from bot.games.enemy_in_sight.game import EnemyInSight
from bot.games.enemy_in_sight.terms import LOC_NAME, logged, seat_name
from bot.games.names import fill_board
from bot.games.phrase import ENGLISH, N_, Voice


def _ship_label(g: EnemyInSight, sid: str, speaker: Voice = ENGLISH) -> str:
    _ = speaker.gettext
    s = g.ship(sid)
    facts = {
        "name": s["name"],
        "nation": s["nation"],
        "rate": s["rate"],
        "hull": g.left(s, "hull"),
        "hull_full": s["hull"],
        "rig": max(g.left(s, "rig"), 0),
        "rig_full": s["rig"],
    }
    marks = [_("struck")] if s["struck"] else []
    if g.dismasted(s):
        marks.append(_("dismasted"))
    if marks:
        label = _(
            "{name} ({nation} {rate}, H{hull}/{hull_full} R{rig}/{rig_full} {marks})",
            marks=" ".join(marks),
            **facts,
        )
    else:
        label = _("{name} ({nation} {rate}, H{hull}/{hull_full} R{rig}/{rig_full})", **facts)
    return label[:100]


def describe(g: EnemyInSight, a: dict, speaker: Voice = ENGLISH) -> str:
    try:
        return _describe(g, a, speaker)[:100]
    except (KeyError, IndexError, TypeError, AttributeError):
        return str(a.get("type", "?"))[:100] if isinstance(a, dict) else "?"


DONE_STEPS = {
    "extra": N_("End the turn"),
    "breakers": N_("Break the Line now"),
    "move": N_("Confirm the moves"),
    "transfer": N_("End the turn (transfers done)"),
}
ADDITIONAL_SHIP = {
    "line": N_("Additional Ship to the Line"),
    "port": N_("Additional Ship to the Port"),
    "reserve": N_("Additional Ship to the Reserve"),
}


def _describe(g: EnemyInSight, a: dict, speaker: Voice) -> str:  # noqa: C901 - one label per action kind
    _ = speaker.gettext
    t = a.get("type")
    st = g.state
    cname = card_name(g.card(a["card"]), speaker) if a.get("card") in st["cards"] else None

    def ship(key: str = "ship") -> str:
        return str(g.ship(a[key])["name"])

    def owner(key: str = "ship") -> str:
        return seat_name(g.ship(a[key])["owner"])

    if t == "discard":
        if isinstance(a.get("ships"), list):
            if a["ships"]:
                names = ", ".join(g.ship(x)["name"] for x in a["ships"])
                return _("Discard {card}: {ships} out of Port", card=cname, ships=names)
            return _("Discard {card}: no ship out of Port", card=cname)
        return _("Discard {card}", card=cname)
    if t == "red":
        return _("Play the red card {card}", card=cname)
    if t == "secret":
        return _("Boarding card: {card}", card=cname) if cname else _("Boarding card: no card")
    if t == "capture":
        if a["where"] == "line":
            return _("Take her into the Line")
        if "station" in a:
            return _("Keep her as a Prize at Reserve station {station}", station=a["station"] + 1)
        return _("Keep her as a Prize")
    if t == "station":
        return _("{ship} to Line station {station}", ship=ship(), station=a["to"] + 1)
    if t == "reserve":
        return _("{ship} to Reserve station {station}", ship=ship(), station=a["to"] + 1)
    if t == "to_line":
        return _("{ship} from the Reserve to Line station {station}", ship=ship(), station=a["to"] + 1)
    if t == "relocate":
        return _("Relocate {ship} to Line station {station}", ship=ship(), station=a["to"] + 1)
    if t == "submit":
        return _("Submit my Line & Reserve")
    if t == "transfer":
        if g.ship(a["ship"])["where"] == "line":
            return _("{ship}: Line -> Reserve station {station}", ship=ship(), station=a["station"] + 1)
        return _("{ship}: Reserve -> Line station {station}", ship=ship(), station=a["station"] + 1)
    if t == "cancel":
        return _("◀ Back")
    if t == "done":
        if st["phase"] == "revise":
            return _("Done: my Line is ready")
        step = (st.get("pending") or {}).get("step", "")
        return _(DONE_STEPS[step]) if step in DONE_STEPS else _("Done")
    if t == "shoot":
        return _("Fire at {ship} ({seat}), {part}", ship=ship(), seat=owner(), part=_(LOC_NAME[a["loc"]]))
    if t == "breaker":
        return _("Line Breaker: {ship}", ship=ship())
    if t == "move":
        passage = _passage(g, a["ship"], speaker)
        if a["ship"] in (st.get("pending") or {}).get("chosen", []):
            return _("Unselect {ship} ({passage})", ship=ship(), passage=passage)
        return _("Move {ship} ({passage})", ship=ship(), passage=passage)
    if t == "board":
        return _("Board with {ship} ({card})", ship=ship(), card=cname)
    if t == "play":
        return _describe_play(g, a, cname, speaker)
    return str(t)


def _describe_play(g: EnemyInSight, a: dict, cname: str | None, speaker: Voice) -> str:
    _ = speaker.gettext
    c = g.card(a["card"])
    ct = c["type"]
    if ct in ("broadside", "rake"):
        return _("{card} from {ship}", card=cname, ship=g.ship(a["ship"])["name"])
    if ct == "boarding":
        return _(
            "Board {target} with {ship}", target=g.ship(a["target"])["name"], ship=g.ship(a["ship"])["name"]
        )
    if ct == "break_line":
        if isinstance(a.get("ships"), list):
            with_ = ", ".join(g.ship(x)["name"] for x in a["ships"])
            return _("{card} against {seat} with {ships}", card=cname, seat=seat_name(a["seat"]), ships=with_)
        return _("{card} against {seat}", card=cname, seat=seat_name(a["seat"]))
    if ct == "refuse_battle" and isinstance(a.get("ships"), list):
        moves = ", ".join(f"{g.ship(x)['name']} {_passage(g, x, speaker)}" for x in a["ships"])
        return (
            _("{card}: {moves}", card=cname, moves=moves) if moves else _("{card}: no ship moves", card=cname)
        )
    if ct == "blockade":
        return _("Blockade {seat}'s Port", seat=seat_name(a["seat"]))
    if ct in ("repair", "bucket"):
        s = g.ship(a["ship"])
        lst = s["hits"] if ct == "repair" else s["fires"]
        h: dict = lst[a["hit"]] if a["hit"] < len(lst) else {"loc": "hull", "dmg": 0}
        part = _(LOC_NAME[h["loc"]])
        if ct == "repair":
            return _(
                "{card}: {ship}, {dmg} {part} hit",
                card=cname,
                ship=s["name"],
                dmg=h.get("dmg", ""),
                part=part,
            )
        return _("{card}: {ship}, {part} fire", card=cname, ship=s["name"], part=part)
    if ct == "additional_ship" and a["where"] in ADDITIONAL_SHIP:
        return _(ADDITIONAL_SHIP[a["where"]])
    if ct == "fire_ship":
        if "port" in a:
            return _("Fire Ship into {seat}'s Port", seat=seat_name(a["port"]))
        owner = seat_name(g.ship(a["ship"])["owner"])
        return _("Fire Ship at {ship} ({seat})", ship=g.ship(a["ship"])["name"], seat=owner)
    return _("Play {card}", card=cname)


PASSAGES = {"port": N_("Port → Line"), "prize": N_("Prize → Port"), "reserve": N_("Reserve → Port")}
TO_PORT = N_("Line → Port")


def _passage(g: EnemyInSight, sid: str, speaker: Voice = ENGLISH) -> str:
    """Where a ship chosen in a Refuse Battle goes: out of Port into the Line, or from sea into Port."""
    return speaker.gettext(PASSAGES.get(g.ship(sid)["where"], TO_PORT))


def choice_menu(g: EnemyInSight, seat: int, a: dict, speaker: Voice = ENGLISH) -> ChoiceMenu:
    """The one multi-select of an open choice of ships: Line Breakers, or the ships a Refuse Battle moves."""
    _ = speaker.gettext
    choice = a["ships"]
    assert is_choice(choice), a
    ships = choice["choose"]
    if a["type"] == "play" and g.card(a["card"])["type"] == "break_line":
        most = choice["max"]
        title = (
            _("Choose the Line Breaker") if most == 1 else _("Choose 1 to {most} Line Breakers", most=most)
        )
        return ChoiceMenu(
            title, [(g.ship(x)["name"][:100], _ship_label(g, x, speaker)) for x in ships], _("None of them")
        )
    options = [
        (f"{g.ship(x)['name']}: {_passage(g, x, speaker)}"[:100], _ship_label(g, x, speaker)) for x in ships
    ]
    if a["type"] == "discard":
        return ChoiceMenu(_("Choose the ships to bring out of Port"), options, _("Bring none out"))
    return ChoiceMenu(_("Choose the ships to move (any number)"), options, _("Move no ship"))


DISCARD_CARD = N_("Discard a card")
FLAT = 25  # a choice with at most this many entries is one select
TO_THE = {"line": N_("to the Line"), "port": N_("to the Port"), "reserve": N_("to the Reserve")}


def _short(text: str) -> str:
    return text if len(text) <= 100 else text[:99] + "…"


def _card_key(c: dict) -> str:
    """A card's menu key: its printed English name, the same in every reader's language."""
    return f"c:{c['name']}"


def _owned(g: EnemyInSight, sid: str, speaker: Voice) -> str:
    """ "⟨1⟩'s Victory (GB 1, H12/12 R8/8)": a ship with her owner, for a description."""
    return speaker.gettext(
        "{seat}'s {ship}", seat=seat_name(g.ship(sid)["owner"]), ship=_ship_label(g, sid, speaker)
    )


def _target_entry(g: EnemyInSight, sid: str, loc: str, speaker: Voice = ENGLISH) -> tuple[str, str]:
    """A target and where to hit her: the label names the ship, the description her owner and state."""
    label = speaker.gettext("{ship} ({part})", ship=g.ship(sid)["name"], part=speaker.gettext(LOC_NAME[loc]))
    return label, _short(_owned(g, sid, speaker))


def menu_entries(
    g: EnemyInSight, seat: int, speaker: Voice = ENGLISH, legal: list[dict] | None = None
) -> list[tuple[list[dict], list[tuple]]]:
    """The menus of Enemy in Sight: a card, then the whole play in one select (firer, target and
    Hull or Rigging of a broadside together), so that a shot is two clicks and one move."""
    _ = speaker.gettext
    st = g.state
    legal = g.legal_actions(seat) if legal is None else legal
    out: list[tuple[list[dict], list[tuple]]] = []
    shots: dict[str, list] = {}  # card name -> [(play, shoot)]
    for a in legal:
        t = a.get("type")
        if t == "play" and st["phase"] == "turn" and g.card(a["card"])["type"] in ("broadside", "rake"):
            follow = _follow_ups(g, seat, a)
            if follow:
                shots.setdefault(g.card(a["card"])["name"], []).extend((a, b) for b in follow)
                continue
        out.append(([a], _entry_path(g, seat, a, legal, speaker)))
    for _name, pairs in shots.items():
        card = g.card(pairs[0][0]["card"])
        name = card_name(card, speaker)
        firers = {a["ship"] for a, _b in pairs}
        first = (_card_key(card), name[:100])
        for a, b in pairs:
            target, about = _target_entry(g, b["ship"], b["loc"], speaker)
            fired = g.ship(a["ship"])["name"]
            key = f"f:{a['ship']}:{b['ship']}:{b['loc']}"
            if len(pairs) > FLAT and len(firers) > 1:  # too many for one select: the firer first
                path = [
                    first,
                    (f"f:{a['ship']}", _("From {ship}", ship=_ship_label(g, a["ship"], speaker))[:100]),
                    (key, f"{name} → {target}"[:100], about),
                ]
            elif len(firers) > 1:
                path = [first, (key, f"{name}: {fired} → {target}"[:100], about)]
            else:
                path = [
                    first,
                    (
                        key,
                        f"{name} → {target}"[:100],
                        _short(_("from {ship}; at {target}", ship=fired, target=about)),
                    ),
                ]
            out.append(([a, b], path))
    return out


def _follow_ups(g: EnemyInSight, seat: int, a: dict) -> list[dict]:
    """The shots a broadside or rake played from a ship may take (the engine's next step)."""
    st = g.state
    saved = st["pending"]
    try:
        g._play(seat, a, [])  # only sets the aiming step; put back below
        return [b for b in g.legal_actions(seat) if b["type"] == "shoot"]
    finally:
        st["pending"] = saved


def _entry_path(
    g: EnemyInSight, seat: int, a: dict, legal: list[dict], speaker: Voice = ENGLISH
) -> list[tuple]:
    """``action_path``, with short levels of two choices folded into one select."""
    _ = speaker.gettext
    t = a.get("type")
    st = g.state
    path = action_path(g, seat, a, speaker)
    if t == "shoot" and sum(1 for b in legal if b["type"] == "shoot") <= FLAT:
        label, about = _target_entry(g, a["ship"], a["loc"], speaker)
        return [(f"t:{a['ship']}:{a['loc']}", label, about)]
    if t == "transfer" and sum(1 for b in legal if b["type"] == "transfer") <= FLAT:
        return path[:-2] + [(f"s:{a['ship']}:{a['station']}", describe(g, a, speaker))]
    if t == "discard" and g.card(a["card"])["type"] == "refuse_battle" and st["ports"][seat]:
        return [path[0], (*path[1], _("then bring ships out of your Port"))]
    if t == "capture" and "station" in a:
        return [(f"k:{a['station']}", describe(g, a, speaker))]
    if t == "play" and st["phase"] == "turn":
        ct = g.card(a["card"])["type"]
        name = card_name(g.card(a["card"]), speaker)
        if ct == "boarding":
            boards = _(
                "{card}: {ship} boards {target}",
                card=name,
                ship=g.ship(a["ship"])["name"],
                target=g.ship(a["target"])["name"],
            )
            return [
                path[0],
                (f"b:{a['ship']}:{a['target']}", boards[:100], _short(_owned(g, a["target"], speaker))),
            ]
        if ct in ("repair", "bucket"):
            return [
                path[0],
                (f"s:{a['ship']}:{a['hit']}", describe(g, a, speaker), _ship_label(g, a["ship"], speaker)),
            ]
        if ct == "fire_ship":
            if "port" in a:
                whole = speaker.ngettext(
                    "the whole Port: {n} ship", "the whole Port: {n} ships", len(st["ports"][a["port"]])
                )
                return [path[0], (f"p:{a['port']}", describe(g, a, speaker), whole)]
            return [path[0], (f"t:{a['ship']}", describe(g, a, speaker), _ship_label(g, a["ship"], speaker))]
        if ct in ("break_line", "blockade", "additional_ship") or path[-1][0] == "play":
            return [path[0], (path[-1][0], describe(g, a, speaker))]
    if t == "board":
        card = g.card(a["card"])
        return [
            (_card_key(card), card_name(card, speaker)[:100]),
            (f"b:{a['ship']}", describe(g, a, speaker)),
        ]
    return path


def action_path(g: EnemyInSight, seat: int, a: dict, speaker: Voice = ENGLISH) -> list[tuple[str, str]]:  # noqa: C901 - one path per action kind
    _ = speaker.gettext
    t = a.get("type")
    st = g.state

    def label(sid: str) -> str:
        return _ship_label(g, sid, speaker)

    if t in ("play", "discard") and st["phase"] == "turn":
        c = g.card(a["card"])
        cname = card_name(c, speaker)
        first = (_card_key(c), cname[:100])
        if t == "discard":
            return [("discard", _(DISCARD_CARD)), (f"d:{c['name']}", _("Discard {card}", card=cname)[:100])]
        ct = c["type"]
        if ct in ("broadside", "rake"):
            return [first, (f"f:{a['ship']}", _("Fire from {ship}", ship=label(a["ship"]))[:100])]
        if ct == "boarding":
            return [
                first,
                (f"b:{a['ship']}", _("Board with {ship}", ship=label(a["ship"]))[:100]),
                (
                    f"t:{a['target']}",
                    f"{seat_name(g.ship(a['target'])['owner'])}: {label(a['target'])}"[:100],
                ),
            ]
        if ct in ("break_line", "blockade"):
            return [first, (f"p:{a['seat']}", _("against {seat}", seat=seat_name(a["seat"])))]
        if ct in ("repair", "bucket"):
            return [first, (f"s:{a['ship']}", label(a["ship"])), (f"h:{a['hit']}", describe(g, a, speaker))]
        if ct == "additional_ship":
            return [first, (f"w:{a['where']}", _(TO_THE[a["where"]]))]
        if ct == "fire_ship":
            if "port" in a:
                whole = speaker.ngettext(
                    "the whole Port ({n} ship)", "the whole Port ({n} ships)", len(st["ports"][a["port"]])
                )
                return [first, (f"p:{a['port']}", f"{seat_name(a['port'])}"), ("port", whole)]
            owner = g.ship(a["ship"])["owner"]
            return [first, (f"p:{owner}", seat_name(owner)), (f"t:{a['ship']}", label(a["ship"]))]
        return [first, ("play", _("Play it"))]
    if t == "shoot":
        owner = g.ship(a["ship"])["owner"]
        return [
            (f"p:{owner}", f"{seat_name(owner)}"),
            (f"t:{a['ship']}", label(a["ship"])),
            (f"l:{a['loc']}", _(LOC_NAME[a["loc"]])),
        ]
    if t == "cancel":
        return [("cancel", _("◀ Back"))]
    if t in ("station", "reserve", "to_line", "relocate"):
        arr = st["arrange"][seat]
        if a["ship"] in arr["line"]:
            now = _("Line {n}", n=arr["line"].index(a["ship"]) + 1)
        else:
            now = _("Reserve {n}", n=arr["reserve"].index(a["ship"]) + 1)
        if t == "reserve":
            to = _("Reserve station {station}", station=a["to"] + 1)
        elif t == "relocate":
            to = _("Line station {station} (relocate: once only)", station=a["to"] + 1)
        else:
            to = _("Line station {station}", station=a["to"] + 1)
        key = "r" if t == "reserve" else "l"
        return [(f"s:{a['ship']}", f"{now}: {label(a['ship'])}"[:100]), (f"{key}:{a['to']}", to)]
    if t == "transfer":
        s = g.ship(a["ship"])
        if s["where"] == "line":
            ship = _("Line: {ship}", ship=label(a["ship"]))
            to = _("to Reserve station {station}", station=a["station"] + 1)
        else:
            ship = _("Reserve: {ship}", ship=label(a["ship"]))
            to = _("to Line station {station}", station=a["station"] + 1)
        steps = [(f"s:{a['ship']}", ship[:100]), (f"k:{a['station']}", to)]
        if st["pending"] is None:
            steps.insert(0, ("transfer", _("Transfer ships between Line and Reserve (instead of a card)")))
        return steps
    if t == "capture" and "station" in a:
        return [
            ("prize", _("Keep her as a Prize")),
            (f"k:{a['station']}", _("Reserve station {station}", station=a["station"] + 1)),
        ]
    if t == "capture":
        return [(a["where"], describe(g, a, speaker))]
    if t == "secret":
        return [(f"k:{a['card']}", describe(g, a, speaker))]
    key = ":".join([str(t)] + [str(v) for k, v in sorted(a.items()) if k != "type"])
    return [(key, describe(g, a, speaker))]


def menu_titles(g: EnemyInSight, seat: int, speaker: Voice = ENGLISH) -> list[str]:
    _ = speaker.gettext
    st = g.state
    ph = st["phase"]
    if ph == "boarding":
        return [_("Choose your secret boarding card")]
    if ph == "capture":
        return [_("Line or Prize?"), _("Reserve station")]
    if ph == "arrange":
        return [_("Choose a ship, or submit"), _("Where does she go?")]
    if ph == "revise":
        return [_("Choose a ship, or done"), _("Which station?")]
    if ph == "red":
        return [_("Choose the red card to play")]
    pend = st["pending"]
    if pend is None:
        first = _("Choose a card (or transfer ships)") if g.adv else _("Choose a card")
        return [first, _("Choose how to play it"), _("Choose the target")]
    step = pend["step"]
    if step == "aim":
        return [_("Target ship, Hull or Rigging"), _("Target ship"), _("Hull or Rigging")]
    if step == "extra":
        return [_("Add a Rake or Boarding Party, or end the turn"), _("Choose")]
    if step == "breakers":
        return [_("Choose Line Breakers")]
    if step == "move":
        return [_("Choose ships to move")]
    if step == "transfer":
        return [_("Transfer another ship, or end the turn"), _("Which station?")]
    return [_("Choose")]


def prompt(g: EnemyInSight, seat: int, speaker: Voice = ENGLISH) -> str:
    _ = speaker.gettext
    st = g.state
    if seat not in g.to_act():
        return _("Wait for your turn.")
    ph = st["phase"]
    if ph == "boarding":
        if seat == st["boarding"]["att"]:
            return _(
                "Boarding! You are attacking: choose a card secretly (valid broadsides and rakes count)."
            )
        return _("Boarding! You are defending: choose a card secretly (valid broadsides and rakes count).")
    if ph == "capture":
        ship = g.ship(st["capture"]["ship"])["name"]
        if g.adv:
            return _(
                "You captured {ship}: into your Line, or as a Prize (a Prize takes any Reserve station)?",
                ship=ship,
            )
        return _("You captured {ship}: into your Line, or as a Prize?", ship=ship)
    if ph == "arrange":
        return _(
            "Secretly form your Line and Reserve (only 5th/6th rates may start in the Reserve), then "
            "submit; nobody sees it until all have submitted."
        )
    if ph == "revise":
        return _(
            "You may bring Reserve ships into your Line and relocate your largest Line ship once; "
            "then press done."
        )
    if ph == "red":
        return _("You hold red cards: choose which one to play (it is your only action).")
    pend = st["pending"]
    if pend is None:
        if g.adv:
            return _("Play or discard one action card, or transfer ships between your Line and Reserve.")
        return _("Play or discard one action card.")
    step = pend["step"]
    if step == "aim":
        card = card_name(g.card(pend["card"]), speaker)
        return _("Choose the target of your {card} and Hull or Rigging.", card=card)
    if step == "extra":
        return _("Add a Rake or a Boarding Party, or end your turn.")
    if step == "breakers":
        return speaker.ngettext(
            "Choose up to {n} Line Breaker, then confirm.",
            "Choose up to {n} Line Breakers, then confirm.",
            g.max_breakers(seat),
        )
    if step == "move":
        return _("Choose the ships to move between Port and Line, then confirm.")
    if step == "transfer":
        return _("Transfer another ship between Line and Reserve, or end your turn.")
    return _("Your move.")


def _bar(left: int, full: int) -> str:
    left = max(0, left)
    return "#" * left + "." * (full - left)


def text_view(view: dict, speaker: Voice = ENGLISH) -> str:  # noqa: C901 - one board, line by line
    """The text board of a channel without pictures (a code block), in the reader's language."""
    _ = speaker.gettext
    said = {"round": view["round"], "dealer": seat_name(view["dealer"])}
    if view.get("arranging"):
        lines = [_("Enemy in Sight — round {round}, dealer {dealer}, secret set-up", **said)]
    else:
        lines = [
            _(
                "Enemy in Sight — round {round}, dealer {dealer}, turn {seat}",
                seat=seat_name(view["turn"]),
                **said,
            )
        ]
    for f in view["fleets"]:
        p = f["seat"]
        flags = []
        if f["refuse_battle"]:
            flags.append(_("REFUSE"))
        if any(b["target"] == p for b in view["in_play"]["btl"]):
            flags.append(_("BROKEN"))
        lines.append(
            _(
                "{seat} {vp} VP, hand {n} {flags}",
                seat=seat_name(p),
                vp=view["scores"][p],
                n=f["hand_count"],
                flags=" ".join(flags),
            ).rstrip()
        )
        for k, s in enumerate(f["line"]):
            m = ("S" if s["struck"] else "") + ("B" if s["breaker"] else "") + ("F" if s["fires"] else "")
            st_no = f"{k + 1}." if "reserve" in f else ""
            lines.append(
                f" {st_no}{s['name'][:14]:14} {s['nation']}{s['rate']} "
                f"H{_bar(s['hull'] - s['hull_dmg'], s['hull'])} R{_bar(s['rig'] - s['rig_dmg'], s['rig'])} {m}"
            )
        if f.get("reserve"):
            ships = ", ".join(
                f"{k + 1}." + (_("{ship} (prize)", ship=s["name"]) if s.get("prize") else s["name"])
                for k, s in enumerate(f["reserve"])
            )
            lines.append("  " + _("reserve: {ships}", ships=ships))
        elif f["prizes"] and "reserve" not in f:
            lines.append("  " + _("prizes: {ships}", ships=", ".join(s["name"] for s in f["prizes"])))
        if f["port"]:
            lines.append("  " + _("port: {ships}", ships=", ".join(s["name"] for s in f["port"])))
    arr = view.get("arranging")
    if arr:
        ready = ", ".join(seat_name(p) for p in arr["done"]) or _("nobody yet")
        if arr["phase"] == "arrange":
            lines.append(_("SECRET SET-UP: ready {seats}", seats=ready))
        else:
            lines.append(_("REVISING LINES: ready {seats}", seats=ready))
    mine = view.get("arrange")
    if mine:
        line = ", ".join(f"{k + 1}.{s['name']}" for k, s in enumerate(mine["line"]))
        reserve = ", ".join(f"{k + 1}.{s['name']}" for k, s in enumerate(mine["reserve"])) or _("empty")
        lines.append(_("Your Line: {ships}", ships=line))
        lines.append(_("Your Reserve: {ships}", ships=reserve))
    pend = view.get("pending") or {}
    if pend.get("may_fire_at"):
        names = {
            s["id"]: s["name"] for f in view["fleets"] for s in f["line"] + f.get("reserve", f["prizes"])
        }
        lines.append(_("May fire at: {ships}", ships=", ".join(names.get(x, x) for x in pend["may_fire_at"])))
    if view.get("boarding"):
        b = view["boarding"]
        lines.append(
            _(
                "BOARDING: {attacker} vs {defender}, secret cards being chosen",
                attacker=seat_name(b["att"]),
                defender=seat_name(b["def"]),
            )
        )
    top = view["ship_deck"]["top"]
    lines.append(
        _(
            "Ships {ships} (top {top}), actions {actions}",
            ships=view["ship_deck"]["count"],
            top=top["name"] if top else "-",
            actions=view["action_deck"],
        )
    )
    if view.get("hand"):
        lines.append(_("Hand: {cards}", cards=", ".join(card_name(c, speaker) for c in view["hand"])))
    for e in view.get("last_events", [])[-3:]:
        lines.append("> " + speaker.say(logged(e)))
    text = "\n".join(lines)
    if len(text) > 1880:
        text = text[:1877] + "..."
    return "```\n" + text + "\n```"


class MenuHooks(EnemyInSight):
    """The host's hooks of an Enemy in Sight game, answered by this module. Mixed in before a variant
    class: ``class Table(MenuHooks, AdvancedEnemyInSight)``."""

    def describe(self, action: dict, *, speaker: Voice = ENGLISH) -> str:
        return describe(self, action, speaker)

    def action_path(self, seat: int, action: dict, *, speaker: Voice = ENGLISH) -> list[tuple[str, str]]:
        return action_path(self, seat, action, speaker)

    def menu_entries(
        self, seat: int, *, speaker: Voice = ENGLISH, legal: list[dict] | None = None
    ) -> list[tuple[list[dict], list[tuple]]]:
        return menu_entries(self, seat, speaker, legal)

    def menu_titles(self, seat: int, *, speaker: Voice = ENGLISH) -> list[str]:
        return menu_titles(self, seat, speaker)

    def prompt(self, seat: int, *, speaker: Voice = ENGLISH) -> str:
        return prompt(self, seat, speaker)

    def choice_menu(self, seat: int, action: dict, *, speaker: Voice = ENGLISH) -> ChoiceMenu:
        return choice_menu(self, seat, action, speaker)

    @staticmethod
    def text_view(view: dict, names: list[str] | None = None, *, speaker: Voice = ENGLISH) -> str:
        return fill_board(text_view(view, speaker), names)
