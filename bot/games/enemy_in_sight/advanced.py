"""Advanced Enemy in Sight (C. F. Posey, The GENERAL Vol. 25 No. 4): a subclass of the base game that
answers some of its rule hooks differently (the Line and capacity, 7.111 target selection by station,
7.6 Fire Ship modifiers, 8.3 Line maintenance) and adds new phases and actions:

* 4.4 Forming Line & Reserve: phase ``arrange`` - every seat at once, in secret, arranges the six ships
  it was dealt by step actions kept in ``state["arrange"][seat]`` (``station`` = put a ship at a Line
  station, ``reserve`` = put a 5th/6th rate at a Reserve station, ``submit``). Nothing of it is in any
  other view or public event until every seat has submitted; then all are revealed in one event.
  Phase ``revise``: again at once, each seat may bring Reserve ships into the Line (``to_line``) and
  relocate its largest Line ship once (``relocate``), then ``done``; the revised Lines are shown when
  all are done and the dealer starts.
* 7 Actions: instead of a card, ``transfer`` ships between Line and Reserve (one or more, then ``done``).
* 8.3 Line maintenance: an empty Line is replaced by the Reserve unless it holds only prizes.
"""

from __future__ import annotations

import random

from bot.games.enemy_in_sight import texts
from bot.games.enemy_in_sight.game import EnemyInSight
from bot.games.enemy_in_sight.terms import seat_name
from bot.games.phrase import ENGLISH, N_, Phrase, Voice


def station_targets(m: int, n: int, i: int) -> list[int]:
    """7.111: the stations (0 = lead) of an ``n``-ship Line that the ship at station ``i`` of an
    ``m``-ship Line may fire at.

    * either Line of one or two ships: any station;
    * the lead fires only on the lead, the rear only on the rear;
    * equal Lines: station on station;
    * unequal Lines: a middle ship may fire on any middle station it could lie opposite while every
      other ship keeps its station - in an order-preserving pairing of the shorter Line with the
      longer one, lead with lead and rear with rear. 4 vs 5: #2 may fire on #2 or #3, not #4.
    """
    if m <= 2 or n <= 2:
        return list(range(n))
    if i == 0:
        return [0]
    if i == m - 1:
        return [n - 1]
    if m <= n:
        lo, hi = i, i + (n - m)
    else:
        lo, hi = i - (m - n), i
    return list(range(max(lo, 1), min(hi, n - 2) + 1))


def _names(g: AdvancedEnemyInSight, ids: list[str]) -> str:
    """Ships in station order ("1. Victory (GB 1), 2. …"), or "none" in the reader's language."""
    return ", ".join(f"{k + 1}. {g.sname(s)}" for k, s in enumerate(ids)) or Phrase(N_("none"))


# ---------------------------------------------------------------- 4.4 forming Line & Reserve
def largest(g: AdvancedEnemyInSight, line: list[str]) -> list[str]:
    """The largest ship(s) of a Line: the best (lowest) rate; on a tie the player picks which."""
    if not line:
        return []
    best = min(g.ship(s)["rate"] for s in line)
    return [s for s in line if g.ship(s)["rate"] == best]


def arrange_actions(g: AdvancedEnemyInSight, seat: int) -> list[dict]:
    st = g.state
    a = st["arrange"][seat]
    if a["done"]:
        return []
    line, res = a["line"], a["reserve"]
    out: list[dict] = []
    if st["phase"] == "arrange":
        for i, sid in enumerate(line):
            out += [{"type": "station", "ship": sid, "to": k} for k in range(len(line)) if k != i]
            if g.ship(sid)["rate"] >= 5 and len(line) > 1:  # only 5th and 6th rates start in the Reserve
                out += [{"type": "reserve", "ship": sid, "to": k} for k in range(len(res) + 1)]
        for i, sid in enumerate(res):
            out += [{"type": "station", "ship": sid, "to": k} for k in range(len(line) + 1)]
            out += [{"type": "reserve", "ship": sid, "to": k} for k in range(len(res)) if k != i]
        out.append({"type": "submit"})
        return out
    for sid in res:
        out += [{"type": "to_line", "ship": sid, "to": k} for k in range(len(line) + 1)]
    if not a["relocated"]:
        for sid in largest(g, line):
            i = line.index(sid)
            out += [{"type": "relocate", "ship": sid, "to": k} for k in range(len(line)) if k != i]
    out.append({"type": "done"})
    return out


def arrange_apply(g: AdvancedEnemyInSight, seat: int, action: dict, events: list) -> list[dict]:
    st = g.state
    a = st["arrange"][seat]
    t = action["type"]
    who = seat_name(seat)
    if t in ("station", "reserve", "to_line", "relocate"):
        sid, k = action["ship"], action["to"]
        (a["line"] if sid in a["line"] else a["reserve"]).remove(sid)
        (a["reserve"] if t == "reserve" else a["line"]).insert(k, sid)
        if t == "relocate":
            a["relocated"] = True
        return events
    a["done"] = True
    if st["phase"] == "arrange":
        g._priv(
            events,
            seat,
            "arranged_private",
            Phrase(
                N_("Your Line: {line}. Your Reserve: {reserve}."),
                line=_names(g, a["line"]),
                reserve=_names(g, a["reserve"]),
            ),
            line=list(a["line"]),
            reserve=list(a["reserve"]),
        )
        g._ev(
            events,
            "arranged",
            Phrase(N_("{seat} has formed a Line and a Reserve (hidden until all are ready)."), seat=who),
            seat=seat,
        )
    else:
        g._ev(events, "revised", Phrase(N_("{seat} has finished revising the Line."), seat=who), seat=seat)
    if not all(x["done"] for x in st["arrange"]):
        return events
    if st["phase"] == "arrange":
        _reveal(g, events)
    else:
        _start_play(g, events)
    return events


def _place_all(g: AdvancedEnemyInSight) -> None:
    st = g.state
    for p in range(g.players):
        a = st["arrange"][p]
        st["lines"][p] = list(a["line"])
        st["reserves"][p] = list(a["reserve"])
        for sid in a["line"]:
            g.ship(sid)["where"] = "line"
        for sid in a["reserve"]:
            g.ship(sid)["where"] = "reserve"


def _reveal(g: AdvancedEnemyInSight, events: list) -> None:
    """All arrangements are shown at once; then the simultaneous revision phase begins."""
    st = g.state
    _place_all(g)
    for p in range(g.players):
        g._ev(
            events,
            "reveal",
            Phrase(
                N_("{seat} reveals - Line: {line}; Reserve: {reserve}."),
                seat=seat_name(p),
                line=_names(g, st["lines"][p]),
                reserve=_names(g, st["reserves"][p]),
            ),
            seat=p,
            line=list(st["lines"][p]),
            reserve=list(st["reserves"][p]),
        )
        st["arrange"][p]["done"] = False
    st["phase"] = "revise"
    g._ev(
        events,
        "revise",
        Phrase(
            N_(
                "Each admiral may now bring Reserve ships into the Line and relocate the largest ship of the "
                "Line once."
            )
        ),
    )


def _start_play(g: AdvancedEnemyInSight, events: list) -> None:
    st = g.state
    before = [(list(st["lines"][p]), list(st["reserves"][p])) for p in range(g.players)]
    _place_all(g)
    for p in range(g.players):
        if before[p] != (st["lines"][p], st["reserves"][p]):
            g._ev(
                events,
                "revised_line",
                Phrase(
                    N_("{seat}'s revised Line: {line}; Reserve: {reserve}."),
                    seat=seat_name(p),
                    line=_names(g, st["lines"][p]),
                    reserve=_names(g, st["reserves"][p]),
                ),
                seat=p,
                line=list(st["lines"][p]),
                reserve=list(st["reserves"][p]),
            )
    st["arrange"] = None
    st["phase"] = "turn"
    g._ev(events, "play_begins", Phrase(N_("{seat} (the dealer) begins."), seat=seat_name(st["dealer"])))
    g._begin_turn(st["dealer"], events)


# ---------------------------------------------------------------- 7 transfers between Line and Reserve
def transfer_actions(g: AdvancedEnemyInSight, seat: int, moved: list[str]) -> list[dict]:
    """7: damaged mobile Line ships to the Reserve (a dismasted one only with a spare mobile 5th/6th rate
    in the Reserve to tow it); mobile Reserve ships (not prizes) to any Line station. On any turn, instead
    of a card. House rules: a ship moves once a turn; the last Line ship stays."""
    st = g.state
    line, res = st["lines"][seat], st["reserves"][seat]
    own = [g.ship(x) for x in res if g.ship(x)["where"] == "reserve"]
    tows = sum(1 for s in own if s["rate"] >= 5 and g.mobile(s))
    towed = sum(1 for s in own if g.dismasted(s))
    out: list[dict] = []
    if len(line) > 1:
        for sid in line:
            s = g.ship(sid)
            if sid in moved or s["struck"] or not s["hits"]:
                continue
            if g.dismasted(s) and towed >= tows:
                continue
            out += [{"type": "transfer", "ship": sid, "station": k} for k in range(len(res) + 1)]
    for sid in res:
        s = g.ship(sid)
        if s["where"] != "reserve" or sid in moved or not g.mobile(s):
            continue
        out += [{"type": "transfer", "ship": sid, "station": k} for k in range(len(line) + 1)]
    return out


def transfer_apply(g: AdvancedEnemyInSight, seat: int, action: dict, events: list) -> None:
    st = g.state
    sid, k = action["ship"], action["station"]
    s = g.ship(sid)
    who = seat_name(seat)
    if s["where"] == "line":
        st["lines"][seat].remove(sid)
        st["reserves"][seat].insert(k, sid)
        s["where"] = "reserve"
        g._ev(
            events,
            "to_reserve",
            Phrase(
                N_("{seat}'s {ship} leaves the Line for Reserve station {station}."),
                seat=who,
                ship=g.sname(sid),
                station=k + 1,
            ),
            seat=seat,
            ship=sid,
        )
    else:
        st["reserves"][seat].remove(sid)
        st["lines"][seat].insert(k, sid)
        s["where"] = "line"
        g._ev(
            events,
            "from_reserve",
            Phrase(
                N_("{seat}'s {ship} enters the Line at station {station}."),
                seat=who,
                ship=g.sname(sid),
                station=k + 1,
            ),
            seat=seat,
            ship=sid,
        )
    pend: dict = (
        st["pending"]
        if (st["pending"] or {}).get("step") == "transfer"
        else {"step": "transfer", "moved": []}
    )
    pend["moved"].append(sid)
    st["pending"] = pend
    st["last"] = {"seat": seat, "ships": list(pend["moved"])}
    g._check_cards(events)
    if not transfer_actions(g, seat, pend["moved"]):
        g._end_turn(events)


# ---------------------------------------------------------------- 8.3 Line maintenance
def line_maintenance(g: AdvancedEnemyInSight, events: list) -> None:
    """8.3: a player with no ship left in the Line sees the Reserve become the Line, unless it holds only
    prizes (prizes never join a Line)."""
    st = g.state
    if st["phase"] in ("arrange", "revise"):
        return
    for p in range(g.players):
        if st["lines"][p]:
            continue
        movers = [x for x in st["reserves"][p] if g.ship(x)["where"] == "reserve"]
        if not movers:
            continue
        for sid in movers:
            st["reserves"][p].remove(sid)
            g.ship(sid)["where"] = "line"
            st["lines"][p].append(sid)
        g._ev(
            events,
            "reserve_to_line",
            Phrase(
                N_("{seat} has no ship left in the Line: the Reserve becomes the Line ({ships})."),
                seat=seat_name(p),
                ships=_names(g, movers),
            ),
            seat=p,
        )


class AdvancedEnemyInSight(EnemyInSight):
    """Advanced Enemy in Sight: a Reserve behind the Line, stations, secret set-up (see the module)."""

    variant = "advanced"
    adv = True

    # ------------------------------------------------------------------ the words beside the picture
    @staticmethod
    def view_text(view: dict, names: list[str] | None = None, *, speaker: Voice = ENGLISH) -> str:
        """The base game's words and, in a player's own view during the secret set-up, the Line and
        Reserve as they arranged them."""
        return texts.view_text(view, names, extra=texts.arrangement_lines(view, speaker), speaker=speaker)

    @staticmethod
    def key_text(view: dict, *, speaker: Voice = ENGLISH) -> str:
        return texts.advanced_key_text(view, speaker=speaker)

    # ------------------------------------------------------------------ set-up (4.4)
    def _deal_ships(self, seat: int) -> None:
        """The six ships are dealt to the hand of the secret arrangement (``state["arrange"]``)."""
        st = self.state
        if "reserves" not in st:
            st["reserves"] = [[] for _ in range(self.players)]
            st["arrange"] = [None] * self.players
        dealt = [self._take_ship(seat, "hand") for _ in range(self.H["ships_each"])]
        st["arrange"][seat] = {"line": dealt, "reserve": [], "done": False, "relocated": False}

    def _begin_play(self, events: list) -> None:
        self.state["phase"] = "arrange"  # 4.4: secret simultaneous Line & Reserve
        self._ev(
            events,
            "arrange",
            Phrase(N_("Every admiral secretly forms a Line and a Reserve (5th and 6th rates).")),
        )

    # ------------------------------------------------------------------ rule hooks
    def may_target(self, seat: int, firer: str | None, target: str) -> bool:
        """7.111 target selection by station; 7.121: ships of a nation breaking the target's Line fire
        at any station. Only gunfire asks (Fire Ships and Boarding Parties ignore stations)."""
        if firer is None:
            return True
        q = self.ship(target)["owner"]
        theirs = self.state["lines"][q]
        if target not in theirs:
            return True  # Reserve and prizes: only reachable through a broken Line (see EnemyInSight._pool)
        if self.ship(firer)["nation"] in self.breaking_nations(q):
            return True
        mine = self.state["lines"][seat]
        if firer not in mine:
            return False
        return theirs.index(target) in station_targets(len(mine), len(theirs), mine.index(firer))

    def _line_maintenance(self, events: list) -> None:
        line_maintenance(self, events)

    def reserve_screen(self, seat: int) -> int:
        """7.6: "a -1 modification to the die roll for every mobile 5th or 6th rate ship in the
        opponent's Reserve", against his ships at sea and in Port alike; a Prize holds a Reserve
        station (7.34), so a mobile 5th or 6th rate Prize counts too."""
        return sum(
            1 for r in self.state["reserves"][seat] if self.ship(r)["rate"] >= 5 and self.mobile(self.ship(r))
        )

    def fire_ship_modifier(self, s: dict) -> int:
        return super().fire_ship_modifier(s) - self.reserve_screen(s["owner"])

    def _capture_actions(self, seat: int) -> list[dict]:
        """7.34: a Prize goes to any station of the Reserve."""
        return [{"type": "capture", "where": "line"}] + [
            {"type": "capture", "where": "prize", "station": k}
            for k in range(len(self.state["reserves"][seat]) + 1)
        ]

    # ------------------------------------------------------------------ the new phases and actions
    def _legal_actions(self, seat: int) -> list[dict]:
        st = self.state
        if st["phase"] in ("arrange", "revise"):
            return arrange_actions(self, seat)
        pend = st["pending"]
        if st["phase"] == "turn" and pend is None:
            return super()._legal_actions(seat) + transfer_actions(self, seat, [])
        if st["phase"] == "turn" and pend["step"] == "transfer":
            return transfer_actions(self, seat, pend["moved"]) + [{"type": "done"}]
        return super()._legal_actions(seat)

    def _apply(self, seat: int, action: dict) -> list[dict]:
        st = self.state
        events: list[dict] = []
        if st["phase"] in ("arrange", "revise"):
            return arrange_apply(self, seat, action, events)
        if st["phase"] == "turn" and action["type"] == "transfer":
            transfer_apply(self, seat, action, events)
            return events
        return super()._apply(seat, action)

    def timeout_action(self, seat: int, rng: random.Random) -> dict:
        ph = self.state["phase"]
        if ph == "arrange":
            return {"type": "submit"}  # 4.4: the arrangement as it stands
        if ph == "revise":
            return {"type": "done"}
        return super().timeout_action(seat, rng)
