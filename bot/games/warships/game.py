"""Warships rules engine (see docs/rules/warships.md for every reading)."""

from __future__ import annotations

import random

from bot.games.ai import Budget, Situation
from bot.games.base import Game
from bot.games.names import who
from bot.games.phrase import ENGLISH, N_, Phrase, Voice
from bot.games.warships import texts
from bot.games.warships.board import board

COLOURS = ["Blue", "Red"]  # the sides as drawn; texts name seats with who(seat)
SETUP_TYPES = ("swap", "place", "keep_mine", "put_mine", "submit")
MOVE_TYPES = ("move", "attack", "battery", "defuse")
IM_LIMIT = 12


ENTERS = N_("{side}'s Landing ship enters the enemy port.")


def _fields(a: int, c: int) -> int:
    """How many fields a straight move a→c covers."""
    (x0, y0), (x1, y1) = board().xy(a), board().xy(c)
    return max(abs(x0 - x1), abs(y0 - y1))


class WarshipsGame(Game):
    key = "warships"

    # ================================================================ setup
    def setup(self) -> None:
        b = board()
        units: list[dict] = []
        for seat in (0, 1):
            squares = list(b.light[seat])
            self.rng.shuffle(squares)
            pos = 0
            for t in b.order:
                for k in range(int(b.types[t]["count"])):
                    if t == "battery":
                        sq = [x for pair in b.batteries[seat] for x in pair][k]
                    else:
                        sq = squares[pos]
                        pos += 1
                    units.append({"o": seat, "t": t, "sq": sq, "rv": t == "battery", "nw": 0, "dead": False})
        self.state = {
            "phase": "setup",
            "units": units,
            "submitted": [False, False],
            "first": self.rng.randrange(2),
            "turn": None,
            "first_done": False,
            "ply": 0,
            "last": None,
            "lost": {"0": [], "1": []},
            "winners": None,
            "end": "",
        }
        if self.options.get("quick-setup"):
            self.state["submitted"] = [True, True]
            self._start()

    def _start(self) -> list[dict]:
        s = self.state
        s["phase"] = "play"
        s["turn"] = s["first"]
        return [
            {
                "type": "start",
                "text": Phrase(
                    N_(
                        "Both fleets are set up. {side} moves first and must start by taking a ship out of port."
                    ),
                    side=who(s["first"]),
                ),
            }
        ]

    # ================================================================ helpers
    def _opt(self, name: str) -> bool:
        return bool(self.options.get(name))

    def _range(self, t: str) -> int:
        return board().range_of(t, self.options)

    def _occ(self) -> dict[int, int]:
        return {u["sq"]: i for i, u in enumerate(self.state["units"]) if not u["dead"] and u["sq"] >= 0}

    def _alive(self, seat: int, t: str | None = None) -> list[int]:
        return [
            i
            for i, u in enumerate(self.state["units"])
            if not u["dead"] and u["o"] == seat and (t is None or u["t"] == t)
        ]

    def _entrance_open(self, e: int, occ: dict[int, int] | None = None) -> bool:
        occ = self._occ() if occ is None else occ
        units = self.state["units"]
        return not any(q in occ and units[occ[q]]["t"] == "battery" for q in board().entrance_batteries(e))

    def _danger(self, seat: int, occ: dict[int, int]) -> set[int]:
        """Fields within range of an active enemy battery (closed to seat's units but missile ships)."""
        b = board()
        units = self.state["units"]
        out: set[int] = set()
        for q, i in occ.items():
            if units[i]["t"] == "battery" and units[i]["o"] != seat:
                out.update(b.near[q])
        return out

    def _step_ok(self, a: int, c: int, seat: int, ignore_line: bool, occ: dict[int, int]) -> bool:
        b = board()
        if not b.crosses_line(a, c):
            return True
        if ignore_line:
            return True
        e = b.entrance_step(a, c)
        if e is None:
            return False
        return b.port_of[e] == seat or self._entrance_open(e, occ)

    def _moves_of(self, uid: int, occ: dict[int, int], danger: set[int]) -> list[tuple[int, int]]:
        b = board()
        u = self.state["units"][uid]
        t, seat, p = u["t"], u["o"], u["sq"]
        rng_ = self._range(t)
        if t in ("battery", "mine") or rng_ <= 0:
            return []
        out = []
        port_of = b.port_of
        for ray in b.rays[p]:
            cur = p
            for k, nxt in enumerate(ray[:rng_], 1):
                if nxt in occ:
                    break
                if port_of[cur] != port_of[nxt] and not self._step_ok(cur, nxt, seat, False, occ):
                    break
                if t != "missile" and nxt in danger:
                    break
                out.append((nxt, k))
                cur = nxt
        return out

    def _targets_from(self, uid: int, pos: int, rng_: int, occ: dict[int, int], origin: int) -> list[int]:
        """Enemy squares in a clear straight line of fire from pos within rng_ fields."""
        b = board()
        u = self.state["units"][uid]
        t, seat = u["t"], u["o"]
        if rng_ <= 0 or pos in b.neutral:
            return []
        ignore = t in ("missile", "battery")
        out = []
        port_of = b.port_of
        for ray in b.rays[pos]:
            cur = pos
            for nxt in ray[:rng_]:
                if port_of[cur] != port_of[nxt] and not self._step_ok(cur, nxt, seat, ignore, occ):
                    break
                if nxt in occ and nxt != origin:
                    if self.state["units"][occ[nxt]]["o"] != seat and nxt not in b.neutral:
                        out.append(nxt)
                    break
                cur = nxt
        return out

    def _unit_actions(self, uid: int, occ: dict[int, int], danger: set[int], first: bool) -> list[dict]:
        b = board()
        units = self.state["units"]
        u = units[uid]
        t, p = u["t"], u["sq"]
        name = b.names
        out: list[dict] = []
        moves = self._moves_of(uid, occ, danger)
        for q, _k in moves:
            out.append({"type": "move", "from": name[p], "to": name[q]})
        if first:
            return out
        rng_ = self._range(t) if t != "battery" else 1

        def fire(pos: int, r: int, via: int | None) -> None:
            for tq in self._targets_from(uid, pos, r, occ, p):
                tt = units[occ[tq]]["t"]
                base = {"from": name[p]}
                if via is not None:
                    base["via"] = name[via]
                base["target"] = name[tq]
                if tt == "battery":
                    if t == "missile":
                        out.append({"type": "battery", **base})
                    continue
                out.append({"type": "attack", **base})
                if t == "minesweeper":
                    out.append({"type": "defuse", **base})

        if t == "mine":
            return out
        fire(p, rng_, None)
        if t == "battery":
            return out
        harder = self._opt("harder-attack")
        for q, k in moves:
            fire(q, rng_ - k if harder else rng_, q)
        return out

    def _mine_squares(self, seat: int, occ: dict[int, int]) -> list[int]:
        b = board()
        units = self.state["units"]
        if not any(units[i]["sq"] == -1 for i in self._alive(seat, "mine")):
            return []
        danger = self._danger(seat, occ)
        out: set[int] = set()
        for i in self._alive(seat, "minesweeper"):
            p = units[i]["sq"]
            if p < 0 or p in b.neutral:
                continue
            for q in b.near[p]:
                if q not in occ and q not in b.neutral and q not in danger and b.port_of[q] == b.port_of[p]:
                    out.add(q)
        return sorted(out)

    def _move_actions(self, seat: int, first_rule: bool = True) -> list[dict]:
        occ = self._occ()
        danger = self._danger(seat, occ)
        first = first_rule and not self.state["first_done"]
        out: list[dict] = []
        ids = sorted(self._alive(seat), key=lambda i: self.state["units"][i]["sq"])
        for i in ids:
            if self.state["units"][i]["sq"] >= 0:
                out.extend(self._unit_actions(i, occ, danger, first))
        if first:
            # the game starts with a ship moving out of its port through an exit; if no ship can
            # get out in one move, with a ship moving onto an exit square; else any move
            b = board()
            own = [a for a in out if b.port_of[b.index[a["from"]]] == seat]
            outside = [a for a in own if b.port_of[b.index[a["to"]]] != seat]
            onto = [a for a in own if b.index[a["to"]] in b.entrances[seat]]
            return outside or onto or self._move_actions(seat, first_rule=False)
        return out

    def _has_move(self, seat: int) -> bool:
        """Whether seat has a legal move (after the first move of the game): ``_move_actions``
        without listing them all (checked after every move)."""
        if not self.state["first_done"]:
            return bool(self._move_actions(seat))
        occ = self._occ()
        danger = self._danger(seat, occ)
        units = self.state["units"]
        return any(
            units[i]["sq"] >= 0 and self._unit_actions(i, occ, danger, False) for i in self._alive(seat)
        )

    # ================================================================ setup helpers
    def _setup_squares(self, seat: int) -> list[int]:
        b = board()
        sq = list(b.light[seat])
        if self._opt("initial-manoeuvres"):
            sq += b.manoeuvres[seat]
        return sq

    def _setup_actions(self, seat: int) -> list[dict]:
        b = board()
        units = self.state["units"]
        name = b.names
        squares = self._setup_squares(seat)
        sqset = set(squares)
        area = set(b.manoeuvres[seat]) if self._opt("initial-manoeuvres") else set()
        occ = self._occ()
        mine_ids = [i for i in self._alive(seat) if units[i]["sq"] in sqset]
        mine_ids.sort(key=lambda i: units[i]["sq"])
        free = [q for q in squares if q not in occ]
        in_area = sum(1 for i in mine_ids if units[i]["sq"] in area)
        out: list[dict] = []
        for i in mine_ids:
            a = units[i]
            for j in mine_ids:  # both orders, so that the swap is offered under either unit
                c = units[j]
                if a["t"] == c["t"]:
                    continue
                if (a["t"] == "mine" and c["sq"] in area) or (c["t"] == "mine" and a["sq"] in area):
                    continue
                out.append({"type": "swap", "a": name[a["sq"]], "b": name[c["sq"]]})
        for i in mine_ids:
            a = units[i]
            for q in free:
                if q in area and (a["t"] == "mine" or (a["sq"] not in area and in_area >= IM_LIMIT)):
                    continue
                out.append({"type": "place", "from": name[a["sq"]], "to": name[q]})
            if a["t"] == "mine":
                out.append({"type": "keep_mine", "at": name[a["sq"]]})
        if any(units[i]["sq"] == -1 for i in self._alive(seat, "mine")):
            for q in free:
                if q not in area:
                    out.append({"type": "put_mine", "to": name[q]})
        out.append({"type": "submit"})
        return out

    def _apply_setup(self, seat: int, action: dict) -> list[dict]:
        b = board()
        units = self.state["units"]
        occ = self._occ()
        kind = action["type"]
        col = who(seat)
        if kind == "submit":
            self.state["submitted"][seat] = True
            ev = [
                {
                    "type": "setup_submitted",
                    "seat": seat,
                    "text": Phrase(N_("{side} has finished setting up."), side=col),
                }
            ]
            if all(self.state["submitted"]):
                ev += self._start()
            return ev
        if kind == "swap":
            i, j = occ[b.index[action["a"]]], occ[b.index[action["b"]]]
            units[i]["sq"], units[j]["sq"] = units[j]["sq"], units[i]["sq"]
            text = Phrase(N_("You swapped {first} and {second}."), first=action["a"], second=action["b"])
        elif kind == "place":
            i = occ[b.index[action["from"]]]
            units[i]["sq"] = b.index[action["to"]]
            text = Phrase(
                N_("You moved your {unit} {before}→{after}."),
                unit=texts.unit_name(units[i]["t"]),
                before=action["from"],
                after=action["to"],
            )
        elif kind == "keep_mine":
            units[occ[b.index[action["at"]]]]["sq"] = -1
            text = Phrase(N_("You keep the mine from {square} off the board."), square=action["at"])
        else:  # put_mine
            i = next(i for i in self._alive(seat, "mine") if units[i]["sq"] == -1)
            units[i]["sq"] = b.index[action["to"]]
            text = Phrase(N_("You put a mine at {square}."), square=action["to"])
        return [{"type": "setup", "seat": seat, "private_to": seat, "text": text}]

    # ================================================================ contract
    def to_act(self) -> list[int]:
        s = self.state
        if s["phase"] == "setup":
            return [p for p in (0, 1) if not s["submitted"][p]]
        if s["phase"] == "play":
            return [s["turn"]]
        return []

    def legal_actions(self, seat: int) -> list[dict]:
        if seat not in self.to_act():
            return []
        if self.state["phase"] == "setup":
            return self._setup_actions(seat)
        occ = self._occ()
        out = [{"type": "lay_mine", "at": board().names[q]} for q in self._mine_squares(seat, occ)]
        return out + self._move_actions(seat)

    def is_legal(self, seat: int, action: dict) -> bool:
        try:
            return self._is_legal(seat, action)
        except (TypeError, KeyError, ValueError, AttributeError):
            return False

    def _is_legal(self, seat: int, action: dict) -> bool:
        if seat not in self.to_act():
            return False
        kind = action.get("type")
        b = board()
        if self.state["phase"] == "setup":
            if kind not in SETUP_TYPES:
                return False
            return any(a == action for a in self._setup_actions(seat))
        if kind == "lay_mine":
            return action.get("at") in b.index and b.index[action["at"]] in self._mine_squares(
                seat, self._occ()
            )
        if kind not in MOVE_TYPES or action.get("from") not in b.index:
            return False
        occ = self._occ()
        p = b.index[action["from"]]
        if p not in occ or self.state["units"][occ[p]]["o"] != seat:
            return False
        if not self.state["first_done"]:
            return any(a == action for a in self._move_actions(seat))
        acts = self._unit_actions(occ[p], occ, self._danger(seat, occ), False)
        return any(a == action for a in acts)

    def _apply(self, seat: int, action: dict) -> list[dict]:
        if self.state["phase"] == "setup":
            return self._apply_setup(seat, action)
        if action["type"] == "lay_mine":
            return self._lay_mine(seat, action)
        return self._move(seat, action)

    # ================================================================ play
    def _lay_mine(self, seat: int, action: dict) -> list[dict]:
        b = board()
        units = self.state["units"]
        i = next(i for i in self._alive(seat, "mine") if units[i]["sq"] == -1)
        units[i]["sq"] = b.index[action["at"]]
        units[i]["rv"] = True  # announced aloud and drawn from off the board: both players know it
        last = self.state["last"]
        if last is None or last.get("seat") != seat or "mines" not in last:
            self.state["last"] = {"seat": seat, "kind": "lay_mine", "mines": []}
        self.state["last"]["mines"].append(action["at"])
        return [
            {
                "type": "lay_mine",
                "seat": seat,
                "at": action["at"],
                "text": Phrase(N_("{side} lays a mine at {square}."), side=who(seat), square=action["at"]),
            }
        ]

    def _remove(self, uid: int, public: bool) -> None:
        u = self.state["units"][uid]
        u["dead"] = True
        u["sq"] = -2
        self.state["lost"][str(u["o"])].append([u["t"], bool(public or u["rv"])])

    def _clash(self, seat: int, att: int, dfd: int, kind: str) -> tuple[list[dict], dict]:
        b = board()
        units = self.state["units"]
        a, d = units[att], units[dfd]
        at, dt = a["t"], d["t"]
        an, dn = texts.unit_name(at), texts.unit_name(dt)
        col, ecol = who(seat), who(1 - seat)
        where = b.names[d["sq"]]
        who_where = {"side": col, "enemy": ecol, "square": where}
        text: Phrase
        removed: list[str] = []
        if dt == "battery" and (kind != "battery" or at != "missile"):
            # never offered (see _unit_actions): only a missile ship taking it out removes a battery
            raise ValueError("a shore battery is removed only by a missile ship taking it out")
        if kind == "battery":
            removed.append(b.names[d["sq"]])
            self._remove(dfd, True)
            a["rv"] = True
            text = Phrase(
                N_("{side}'s Missile ship takes out {enemy}'s shore battery at {square}."), **who_where
            )
        elif at == "battery" and dt == "missile":
            # a battery destroys every enemy but a missile ship; it is never lost by its own fire
            d["rv"] = True
            text = Phrase(
                N_(
                    "{side}'s Shore battery fires at {enemy}'s {target} at {square}: a missile ship is immune "
                    "to shore batteries; nothing is removed."
                ),
                target=dn,
                **who_where,
            )
        elif at == "battery":
            # every other enemy unit within one field is destroyed (a mine too); the battery stays
            removed.append(where)
            self._remove(dfd, True)
            text = Phrase(
                N_(
                    "{side}'s Shore battery fires at {enemy}'s {target} at {square}: the {target} is destroyed."
                ),
                target=dn,
                **who_where,
            )
        elif dt == "mine" and kind == "defuse":
            removed.append(where)
            self._remove(dfd, True)
            a["rv"] = True
            text = Phrase(N_("{side}'s Minesweeper defuses {enemy}'s mine at {square}."), **who_where)
        elif dt == "mine" or at == dt:
            removed += [b.names[a["sq"]], where]
            self._remove(att, True)
            self._remove(dfd, True)
            text = Phrase(
                N_(
                    "{side}'s {unit} attacks {enemy}'s {target} at {square}: the mine explodes; both are removed."
                )
                if dt == "mine"
                else N_(
                    "{side}'s {unit} attacks {enemy}'s {target} at {square}: they destroy each other; both are removed."
                ),
                unit=an,
                target=dn,
                **who_where,
            )
        elif b.beats(at, dt):
            removed.append(where)
            self._remove(dfd, True)
            a["rv"] = True
            text = Phrase(
                N_("{side}'s {unit} attacks {enemy}'s {target} at {square}: the {target} is destroyed."),
                unit=an,
                target=dn,
                **who_where,
            )
        else:
            removed.append(b.names[a["sq"]])
            self._remove(att, True)
            d["rv"] = True
            text = Phrase(
                N_("{side}'s {unit} attacks {enemy}'s {target} at {square} and is destroyed."),
                unit=an,
                target=dn,
                **who_where,
            )
        if kind == "defuse" and dt != "mine":
            text = Phrase(
                N_("{side}'s Minesweeper tries to defuse at {square}, but it is an {target}. {outcome}")
                if dn[0] in "AEIOU"
                else N_("{side}'s Minesweeper tries to defuse at {square}, but it is a {target}. {outcome}"),
                target=dn,
                outcome=text,
                **who_where,
            )
        clash = {"attacker": at, "defender": dt, "removed": removed}
        ev = {
            "type": "clash",
            "seat": seat,
            "attacker": at,
            "defender": dt,
            "at": where,
            "removed": removed,
            "text": text,
        }
        return [ev], clash

    def _move(self, seat: int, action: dict) -> list[dict]:
        b = board()
        s = self.state
        units = s["units"]
        occ = self._occ()
        p = b.index[action["from"]]
        uid = occ[p]
        u = units[uid]
        kind = action["type"]
        col = who(seat)
        events: list[dict] = []
        last = {"seat": seat, "kind": kind, "from": action["from"]}
        if s["last"] and s["last"].get("seat") == seat and s["last"].get("mines"):
            last["mines"] = s["last"]["mines"]
        label = texts.unit_name(u["t"]) if u["rv"] else Phrase(N_("ship"))

        def moved(to: str) -> dict:
            text = Phrase(
                N_("{side} moves a {unit} {before}→{after}."),
                side=col,
                unit=label,
                before=action["from"],
                after=to,
            )
            return {"type": "move", "seat": seat, "from": action["from"], "to": to, "text": text}

        if kind == "move":
            u["mv"] = max(u.get("mv", 0), _fields(p, b.index[action["to"]]))
            u["sq"] = b.index[action["to"]]
            last["to"] = action["to"]
            events.append(moved(action["to"]))
        else:
            if "via" in action:
                u["mv"] = max(u.get("mv", 0), _fields(p, b.index[action["via"]]))
                u["sq"] = b.index[action["via"]]
                events.append(moved(action["via"]))
                if u["t"] == "landing" and b.port_of[u["sq"]] == 1 - seat:
                    # the entry is the win: the game ends there, the attack is never made
                    last["kind"], last["to"] = "move", action["via"]
                    s["last"] = last
                    s["first_done"] = True
                    s["ply"] += 1
                    return events + self._finish([seat], Phrase(ENTERS, side=col))
                last["via"] = action["via"]
            last["target"] = action["target"]
            tgt = occ[b.index[action["target"]]]
            ev, clash = self._clash(seat, uid, tgt, kind)
            events += ev
            last["clash"] = clash
        s["last"] = last
        s["first_done"] = True
        s["ply"] += 1
        # landing ship in the enemy port wins at once
        if not u["dead"] and u["t"] == "landing" and b.port_of[u["sq"]] == 1 - seat:
            return events + self._finish([seat], Phrase(ENTERS, side=col))
        events += self._neutral_check(seat)
        end = self._end_check()
        if end:
            return events + end
        s["turn"] = 1 - seat
        if not self._has_move(1 - seat):
            return events + self._finish([seat], Phrase(N_("{side} has no legal move."), side=who(1 - seat)))
        if s["ply"] >= b.move_limit:
            return events + self._finish(
                [], Phrase(N_("The move limit of {n} moves is reached: a draw."), n=b.move_limit), drawn=True
            )
        return events

    def _neutral_check(self, seat: int) -> list[dict]:
        b = board()
        events = []
        removed = []
        for i in self._alive(seat):
            u = self.state["units"][i]
            if u["sq"] in b.neutral:
                u["nw"] += 1
                if u["nw"] > b.neutral_turns:
                    where = b.names[u["sq"]]
                    removed.append(where)
                    self._remove(i, False)
                    events.append(
                        {
                            "type": "neutral_removed",
                            "seat": seat,
                            "at": where,
                            "text": Phrase(
                                N_(
                                    "{side}'s unit at {square} stayed too long in neutral waters and is removed."
                                ),
                                side=who(seat),
                                square=where,
                            ),
                        }
                    )
                    events.append(
                        {
                            "type": "neutral_removed_private",
                            "seat": seat,
                            "private_to": seat,
                            "text": Phrase(
                                N_("Your {unit} at {square} was removed from neutral waters."),
                                unit=texts.unit_name(u["t"]),
                                square=where,
                            ),
                        }
                    )
            elif u["sq"] >= 0:
                u["nw"] = 0
        if removed:
            self.state["last"]["neutral_removed"] = removed
        return events

    def _end_check(self) -> list[dict]:
        b = board()
        occ = self._occ()
        losers = [p for p in (0, 1) if not self._alive(p, "landing")]
        if losers:
            why = (
                Phrase(N_("{side}'s Landing ship is destroyed."), side=who(losers[0]))
                if len(losers) == 1
                else Phrase(
                    N_("{side}'s and {other}'s Landing ship is destroyed."), side=who(0), other=who(1)
                )
            )
            return self._finish([p for p in (0, 1) if p not in losers], why)
        losers = []
        for p in (0, 1):
            guarded = all(not self._entrance_open(e, occ) for e in b.entrances[1 - p])
            if not self._alive(p, "missile") and guarded:
                losers.append(p)
        if losers:
            why = (
                Phrase(
                    N_("{side} lost every Missile ship while both enemy entrances are still guarded."),
                    side=who(losers[0]),
                )
                if len(losers) == 1
                else Phrase(
                    N_(
                        "{side} and {other} lost every Missile ship while both enemy entrances are still guarded."
                    ),
                    side=who(0),
                    other=who(1),
                )
            )
            return self._finish([p for p in (0, 1) if p not in losers], why)
        return []

    def _finish(self, winners: list[int], why: Phrase, *, drawn: bool = False) -> list[dict]:
        """The end: ``why`` (a sentence); ``drawn``: it says the game is drawn already."""
        s = self.state
        s["phase"] = "over"
        s["winners"] = winners
        s["end"] = str(why)
        s["end_phrase"] = why.to_json()  # said in each reader's language (texts.end_of)
        s["turn"] = None
        if winners:
            text = Phrase(N_("{reason} {side} wins."), reason=why, side=who(winners[0]))
        else:
            text = why if drawn else Phrase(N_("{reason} The game is drawn."), reason=why)
        return [{"type": "game_over", "winners": winners, "text": text}]

    @property
    def is_over(self) -> bool:
        return self.state["phase"] == "over"

    @property
    def result(self) -> dict | None:
        if not self.is_over:
            return None
        w = self.state["winners"]
        return {
            "scores": {str(p): (1 if p in w else 0) for p in (0, 1)},
            "winners": list(w),
            "reason": self.state["end"],
            "reason_phrase": self.state.get("end_phrase"),
        }

    # ================================================================ views
    def view(self, seat: int | None) -> dict:
        b = board()
        s = self.state
        units = s["units"]
        setup = s["phase"] == "setup"
        occ = self._occ()
        vis = []
        for u in units:
            if u["dead"] or u["sq"] < 0:
                continue
            own = seat is not None and u["o"] == seat
            if setup and not own and u["t"] != "battery":
                continue
            known = own or u["rv"]
            vis.append(
                {
                    "sq": b.names[u["sq"]],
                    "owner": u["o"],
                    "type": u["t"] if known else None,
                    "revealed": bool(u["rv"]),
                    "nw": u["nw"] if u["sq"] in b.neutral else 0,
                    # the longest single move it made (both players saw it): not a mine, range at least this
                    "moved": u.get("mv", 0),
                }
            )
        vis.sort(key=lambda v: b.index[v["sq"]])
        lost = {}
        for p in (0, 1):
            types: dict[str, int] = {}
            unknown = 0
            for t, public in s["lost"][str(p)]:
                if public or seat == p:
                    types[t] = types.get(t, 0) + 1
                else:
                    unknown += 1
            lost[str(p)] = {"types": types, "unknown": unknown, "total": len(s["lost"][str(p)])}
        bats = []
        for p in (0, 1):
            for e, pair in zip(b.entrances[p], b.batteries[p], strict=True):
                st = {b.names[q]: (q in occ and units[occ[q]]["t"] == "battery") for q in pair}
                bats.append(
                    {"seat": p, "entrance": b.names[e], "batteries": st, "open": not any(st.values())}
                )
        off = {str(p): sum(1 for i in self._alive(p, "mine") if units[i]["sq"] == -1) for p in (0, 1)}
        v = {
            "game": "warships",
            "phase": s["phase"],
            "seat": seat,
            "to_act": self.to_act(),
            "turn": s["turn"],
            "first": s["first"] if not setup else None,
            "ply": s["ply"],
            "move_limit": b.move_limit,
            "options": {
                k: bool(self.options.get(k))
                for k in ("harder-attack", "greater-mobility", "initial-manoeuvres", "quick-setup")
            },
            "units": vis,
            "off_board_mines": off
            if not setup
            else ({str(seat): off[str(seat)]} if seat is not None else {}),
            "batteries": bats,
            "lost": lost,
            "submitted": list(s["submitted"]),
            "last": s["last"],
            "neutral_turns": b.neutral_turns,
            "winners": s["winners"],
            "end": s["end"],
            "end_phrase": s.get("end_phrase"),
        }
        return v

    # ================================================================ host helpers
    def describe(self, action: dict, *, speaker: Voice = ENGLISH) -> str:
        try:
            return self._describe(action, speaker)[:100]
        except (KeyError, TypeError, AttributeError):
            return super().describe(action) if isinstance(action, dict) else "?"

    def _describe(self, action: dict, speaker: Voice = ENGLISH) -> str:
        _ = speaker.gettext
        k = action.get("type")
        via = action.get("via")
        if k == "move":
            return _("Move {before}→{after}", before=action["from"], after=action["to"])
        if k in ("attack", "battery", "defuse"):
            where = {"target": action["target"], "square": action["from"]}
            if k == "attack":
                return (
                    _("Attack {target} from {square} via {via}", via=via, **where)
                    if via
                    else _("Attack {target} from {square}", **where)
                )
            if k == "battery":
                return (
                    _("Take out the battery at {target} from {square} via {via}", via=via, **where)
                    if via
                    else _("Take out the battery at {target} from {square}", **where)
                )
            return (
                _("Defuse the mine at {target} from {square} via {via}", via=via, **where)
                if via
                else _("Defuse the mine at {target} from {square}", **where)
            )
        if k == "lay_mine":
            return _("Lay a mine at {square}", square=action["at"])
        if k == "swap":
            return _("Swap {first} and {second}", first=action["a"], second=action["b"])
        if k == "place":
            return _("Move {before}→{after} (setup)", before=action["from"], after=action["to"])
        if k == "keep_mine":
            return _("Keep the mine at {square} off the board", square=action["at"])
        if k == "put_mine":
            return _("Put a mine back at {square}", square=action["to"])
        if k == "submit":
            return _("Submit this arrangement")
        return super().describe(action)

    def _unit_label(
        self, seat: int, sq: str, speaker: Voice = ENGLISH, occ: dict[int, int] | None = None
    ) -> str:
        b = board()
        occ = self._occ() if occ is None else occ
        i = occ.get(b.index.get(sq, -1))
        if i is None:
            return sq
        u = self.state["units"][i]
        if u["o"] == seat or u["rv"]:
            return speaker.gettext("{unit} at {square}", unit=speaker.say(texts.unit_name(u["t"])), square=sq)
        return speaker.gettext("{side} unit at {square}", side=who(u["o"]), square=sq)

    def menu_entries(
        self, seat: int, *, speaker: Voice = ENGLISH, legal: list[dict] | None = None
    ) -> list[tuple[list[dict], list[tuple]]]:
        """Every legal action on its own (as ``Game``'s), the units' squares found once for all their
        labels, not once a label (a level lists a unit's every move and target: O(actions × units))."""
        occ = self._occ()
        actions = self.legal_actions(seat) if legal is None else legal
        return [([a], self.action_path(seat, a, speaker=speaker, occ=occ)) for a in actions]

    def action_path(
        self, seat: int, action: dict, *, speaker: Voice = ENGLISH, occ: dict[int, int] | None = None
    ) -> list[tuple[str, str]]:
        _ = speaker.gettext
        k: str = action.get("type", "")
        if k == "submit":
            return [("submit", _("✅ Submit this arrangement"))]
        if k == "put_mine":
            return [
                ("mines", _("Put a kept mine back")),
                (f"put:{action['to']}", _("put a mine at {square}", square=action["to"])),
            ]
        if k == "lay_mine":
            return [
                ("mines", _("💣 Lay a mine")),
                (f"lay:{action['at']}", _("lay a mine at {square}", square=action["at"])),
            ]
        if k in ("swap",):
            return [
                (f"from:{action['a']}", self._unit_label(seat, action["a"], speaker, occ)),
                (
                    f"swap:{action['b']}",
                    _("swap with {unit}", unit=self._unit_label(seat, action["b"], speaker, occ)),
                ),
            ]
        if k == "place":
            return [
                (f"from:{action['from']}", self._unit_label(seat, action["from"], speaker, occ)),
                (f"to:{action['to']}", _("move to {square}", square=action["to"])),
            ]
        if k == "keep_mine":
            return [
                (f"from:{action['at']}", self._unit_label(seat, action["at"], speaker, occ)),
                ("keep", _("keep this mine off the board")),
            ]
        first = (f"from:{action['from']}", self._unit_label(seat, action["from"], speaker, occ))
        via = action.get("via")
        if k == "move":
            return [first, (f"mv:{action['to']}", _("move to {square}", square=action["to"]))]
        tgt = self._unit_label(seat, action["target"], speaker, occ)
        key = f"{k[:2]}:{action['target']}" + (f"@{via}" if via else "")
        if k == "attack":
            label = _("attack {unit}", unit=tgt)
        elif k == "battery":
            label = _("take out the battery at {square}", square=action["target"])
        else:
            label = _("defuse the mine at {square}", square=action["target"])
        if via:
            label = _("{action} (after moving to {square})", action=label, square=via)
        return [first, (key, label[:100])]

    def menu_titles(self, seat: int, *, speaker: Voice = ENGLISH) -> list[str]:
        _ = speaker.gettext
        if self.state["phase"] == "setup":
            return [_("Pick a unit of your port (or submit)"), _("What to do with it")]
        return [_("Pick a unit by its square (or lay a mine)"), _("Where to move or what to attack")]

    def prompt(self, seat: int, *, speaker: Voice = ENGLISH) -> str:
        _ = speaker.gettext
        s = self.state
        if s["phase"] == "over":
            return _("The game is over.")
        if s["phase"] == "setup":
            if s["submitted"][seat]:
                return _("Waiting for the other admiral to finish setting up.")
            return _(
                "Arrange your port in secret (swap units, move them, keep mines off the board), then submit."
            )
        if seat != s["turn"]:
            return _("Waiting for {side} to move.", side=who(s["turn"]))
        if not s["first_done"]:
            return _("You move first: take a ship out of your port through an exit.")
        return _(
            "Your move: move a unit, attack, take out a battery or defuse a mine (mines may be laid first)."
        )

    def timeout_action(self, seat: int, rng: random.Random) -> dict:
        if self.state["phase"] == "setup":
            return {"type": "submit"}
        return self.steady(self.situation(seat), rng)

    @classmethod
    def steady(cls, situation: Situation, rng: random.Random) -> dict:
        from bot.games.warships import ai

        return ai.choose(situation.view, situation.legal, situation.seat, situation.options, rng)

    @classmethod
    def think(cls, situation: Situation, level: str, budget: Budget, rng: random.Random) -> dict:
        """``easy``: today's heuristic, now and then its second choice; ``normal`` and ``hard``: the
        determinized search of bot/games/warships/search.py (docs/rules/warships.md, "AI")."""
        from bot.games.warships import ai, search

        if level == "easy":
            return ai.easy(situation.view, situation.legal, situation.seat, situation.options, rng)
        return search.think(situation, level, budget, rng, cls)

    @classmethod
    def resample(cls, view: dict, seat: int, rng: random.Random) -> WarshipsGame:
        from bot.games.warships.resample import resample

        return resample(cls, view, seat, rng)

    def undo_veto(self, before: Game, seat: int, action: dict, events: list[dict]) -> Phrase | None:
        """An attack (on a ship, a battery or a mine) reveals the units in it, a mine laid is announced,
        and any move that uncovers a unit or a loss reveals it: those may not be undone. Setup steps are secret (refused by
        the generic check). A plain move that shows nothing new may be undone."""
        if action.get("type") in ("attack", "battery", "defuse"):
            return Phrase(N_("an attack reveals the units in it"))
        if action.get("type") == "lay_mine":
            return Phrase(N_("a mine laid is announced to both players"))
        if any(e.get("type") == "clash" for e in events):
            return Phrase(N_("it revealed the units that met"))
        shown = [u["rv"] for u in self.state["units"]], self.state["lost"]
        if shown != ([u["rv"] for u in before.state["units"]], before.state["lost"]):
            return Phrase(N_("it revealed a unit"))
        return None

    @staticmethod
    def read_board(view: dict, *, speaker: Voice = ENGLISH) -> list[str]:
        from bot.games.warships.reading import read_board

        return read_board(view, speaker=speaker)

    @staticmethod
    def text_view(view: dict, names: list[str] | None = None, *, speaker: Voice = ENGLISH) -> str:
        from bot.games.warships.textview import text_view

        return text_view(view, names, speaker=speaker)

    view_text = staticmethod(texts.view_text)
    alt_text = staticmethod(texts.alt_text)
    key_text = staticmethod(texts.key_text)
