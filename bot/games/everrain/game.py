"""The Everrain: a cooperative sea skirmish whose enemy ships follow the
activation rules of the reference manual sentence by sentence.

Round structure (house rules, docs/rules/everrain.md):
1. Player phase: the players act one after another, starting with the round's
   first player (it rotates). Each spends up to 3 orders (Navigation,
   Artillery, Crew, Explore) and then ends the turn.
2. Enemy phase: every enemy ship activates once; the round's first player
   picks which one activates next (the last one activates by itself).
3. The Enemy Agenda advances 2 + 1 per player; each wrap advances the Enemy
   Discovery token, refills clue sites and spawns an enemy ship; enemy ships
   are spawned until the scenario's minimum is on the board.
"""

from __future__ import annotations

import random

from bot.games.ai import Budget, Situation
from bot.games.base import Game, IllegalAction, SeededRandom
from bot.games.everrain import board as B
from bot.games.everrain import reading, textview
from bot.games.everrain import text as texts
from bot.games.everrain.board import distance, key, label, pattern_hexes, step, unkey
from bot.games.everrain.words import FACING, destination, facing, named
from bot.games.everrain.words import dice as dice_words
from bot.games.names import who
from bot.games.phrase import ENGLISH, N_, Phrase, Voice

LENGTHS = ("short", "medium", "long")
SEAT_COLOURS = ["Blue", "Red", "Green", "Yellow"]  # the seat colours of rendering/theme.py


def _h(obj) -> tuple[int, int]:
    return (obj["q"], obj["r"])


class EverrainGame(Game):
    key = "everrain"

    # ================================================================ setup
    def setup(self) -> None:
        sid = self.options.get("scenario") or B.scenario_ids()[0]
        length = self.options.get("length") or "short"
        if sid not in B.scenario_ids():
            raise IllegalAction(Phrase(N_("unknown scenario {scenario}"), scenario=repr(sid)))
        self.options["scenario"], self.options["length"] = sid, length
        m = self.map
        sb = B.ship_board()
        deck = sorted(B.enemy_cards())
        self.rng.shuffle(deck)
        ships = []
        for seat in range(self.players):
            port = m.ports[seat % len(m.ports)]
            ships.append(
                {
                    "seat": seat,
                    "q": port[0],
                    "r": port[1],
                    "facing": self._facing_to_centre(port),
                    "destroyed": [False] * 10,
                    "crew": list(sb["crew_start"]),
                    "orders": 0,
                    "nav": 0,
                    "clues": 0,
                    "delivered": 0,
                    "kills": 0,
                    "sunk": 0,
                }
            )
        self.state = {
            "phase": "players",
            "round": 1,
            "first": 0,
            "order": list(range(self.players)),
            "turn": 0,
            "ships": ships,
            "enemies": [],
            "deck": deck,
            "next_uid": 1,
            "agenda": 0,
            "discovery": 0,
            "enemy_discovery": 0,
            "sites": {key(h): B.rules()["site_clues"] for h in m.sites},
            "pending": None,
            "last_activation": None,
            "activations": [],
            "last": None,
            "result": None,
        }
        for _ in range(B.scenario_info(sid)["initial_enemies"]):
            self._spawn()
        self.state["ships"][0]["orders"] = B.rules()["orders_per_round"]

    # ---------------------------------------------------------------- helpers
    @property
    def map(self) -> B.HexMap:
        return B.scenario_map(self.options["scenario"])

    def _facing_to_centre(self, h) -> int:
        m = self.map
        cx = m.width / 2
        cy = m.height / 2
        centre = (round(cx - cy / 2), round(cy))
        return min(range(6), key=lambda d: (distance(step(h, d), centre), d))

    def _roll_faces(self, die: str, n: int) -> list[str]:
        faces = B.dice()[die]["faces"]
        return [faces[self.rng.d(len(faces)) - 1] for _ in range(n)]

    def _fate(self) -> int:
        """The d10 Fate Die: 0..9."""
        return self.rng.d(B.dice()["fate"]["sides"]) - 1

    def _fate_pick(self, n: int) -> list[int]:
        """Roll the Fate Die to pick one of ``n`` (1..10) with equal chance: result mod ``n``, where the
        top results that would favour the first ones (10 mod n of them) are rolled again. Returns the
        results rolled; the last one decides."""
        sides = B.dice()["fate"]["sides"]
        usable = sides - sides % n
        rolls = [self._fate()]
        while rolls[-1] >= usable:
            rolls.append(self._fate())
        return rolls

    def ship(self, seat: int) -> dict:
        return self.state["ships"][seat]

    def enemy(self, uid: int) -> dict | None:
        return next((e for e in self.state["enemies"] if e["uid"] == uid), None)

    def card(self, e: dict) -> dict:
        return B.enemy_cards()[e["card"]]

    def in_port(self, obj) -> bool:
        return self.map.at(_h(obj)) == B.PORT

    def manned(self, s: dict, node: int) -> bool:
        return node in s["crew"] and not s["destroyed"][node]

    def manned_nav(self, s: dict) -> int:
        nodes = B.ship_board()["node"]
        return sum(1 for i, n in enumerate(nodes) if n["kind"] == "navigation" and self.manned(s, i))

    def nest_manned(self, s: dict) -> bool:
        nodes = B.ship_board()["node"]
        return any(n["kind"] == "crows_nest" and self.manned(s, i) for i, n in enumerate(nodes))

    def occupied(self, exclude=None) -> set[tuple[int, int]]:
        occ = {_h(s) for s in self.state["ships"] if s is not exclude and not self.in_port(s)}
        occ |= {_h(e) for e in self.state["enemies"] if e is not exclude}
        return occ

    def _ev(self, type_: str, text: str, **extra) -> dict:
        return {"type": type_, "text": text, **extra}

    # ================================================================ contract
    def to_act(self) -> list[int]:
        st = self.state
        if st["result"] is not None:
            return []
        if st["phase"] == "players":
            return [st["order"][st["turn"]]]
        if st["phase"] == "enemy":
            return [st["first"]]
        return []

    def undo_veto(self, before: Game, seat: int, action: dict, events: list[dict]) -> Phrase | None:
        """Firing rolls the attack dice; an enemy card drawn from the deck is a reveal: neither may be
        undone (nor an end of turn that brings the enemy phase, which rolls and draws)."""
        if action.get("type") == "fire":
            return Phrase(N_("it rolled dice"))
        if len(self.state["deck"]) != len(before.state["deck"]):
            return Phrase(N_("it drew an enemy card"))
        return None

    @property
    def is_over(self) -> bool:
        return self.state["result"] is not None

    @property
    def result(self) -> dict | None:
        return self.state["result"]

    def legal_actions(self, seat: int) -> list[dict]:
        if seat not in self.to_act():
            return []
        st = self.state
        if st["phase"] == "enemy":
            return [{"type": "activate", "enemy": e["uid"]} for e in st["enemies"] if not e["activated"]]
        if st["pending"] is not None:
            return [{"type": "omen", "convert": True}, {"type": "omen", "convert": False}]
        acts = self._orders(seat)
        acts.append({"type": "end_turn"})
        return acts

    def _nav_cost(self, s: dict) -> int:
        return B.rules()["rough_sea_cost"] if self.map.at(_h(s)) == B.ROUGH else 1

    def _nav_points(self, s: dict) -> int:
        return B.rules()["nav_base_points"] + self.manned_nav(s)

    def _nav_possible(self, s: dict) -> bool:
        cost = self._nav_cost(s)
        return s["nav"] >= cost or (s["orders"] > 0 and self._nav_points(s) >= cost)

    def _forward_ok(self, s: dict) -> bool:
        nxt = step(_h(s), s["facing"])
        if not self.map.sea(nxt):
            return False
        return self.map.at(nxt) == B.PORT or nxt not in self.occupied(exclude=s)

    def _fire_targets(self, s: dict, node: int) -> list[dict]:
        if self.in_port(s) or not self.manned(s, node):
            return []
        nd = B.ship_board()["node"][node]
        if nd["kind"] != "artillery":
            return []
        arc = pattern_hexes(_h(s), s["facing"], nd["arc"])
        return [e for e in self.state["enemies"] if _h(e) in arc and self.map.line_of_sight(_h(s), _h(e))]

    def _explore_sites(self, s: dict) -> list[str]:
        sb = B.ship_board()
        rng = sb["crows_nest_explore_range"] if self.nest_manned(s) else sb["explore_range"]
        return [
            k for k, n in sorted(self.state["sites"].items()) if n > 0 and distance(unkey(k), _h(s)) <= rng
        ]

    def _orders(self, seat: int) -> list[dict]:
        s = self.ship(seat)
        acts: list[dict] = []
        if self._nav_possible(s):
            if self._forward_ok(s):
                acts.append({"type": "nav", "move": "forward"})
            acts.append({"type": "nav", "move": "left"})
            acts.append({"type": "nav", "move": "right"})
        if s["orders"] > 0:
            for node in range(10):
                for e in self._fire_targets(s, node):
                    acts.append({"type": "fire", "node": node, "enemy": e["uid"]})
            for k in self._explore_sites(s):
                acts.append({"type": "explore", "site": k})
            for i, at in enumerate(s["crew"]):
                for node in range(10):
                    if node != at and not s["destroyed"][node] and node not in s["crew"]:
                        acts.append({"type": "crew", "member": i, "to": node})
        return acts

    # ================================================================ apply
    def _apply(self, seat: int, action: dict) -> list[dict]:
        st = self.state
        t = action["type"]
        if st["phase"] == "enemy":
            events = self._activate(action["enemy"])
            events += self._continue_enemy_phase()
            return events
        s = self.ship(seat)
        if t == "omen":
            events = self._omen(s, action["convert"])
        elif t == "end_turn":
            st["last"] = {"seat": seat, "type": "end_turn"}
            events = [self._ev("end_turn", Phrase(N_("{side}'s ship ends their turn."), side=who(seat)))]
            return events + self._end_turn()
        elif t == "nav":
            events = self._navigate(s, action["move"])
        elif t == "fire":
            events = self._fire(s, action["node"], action["enemy"])
        elif t == "explore":
            events = self._explore(s, action["site"])
        elif t == "crew":
            events = self._crew(s, action["member"], action["to"])
        else:
            raise IllegalAction(Phrase(N_("unknown action {action}"), action=repr(t)))
        if self.is_over:
            return events
        if st["pending"] is None and not self._orders(seat):
            events.append(
                self._ev("end_turn", Phrase(N_("{side}'s ship has no orders left."), side=who(seat)))
            )
            events += self._end_turn()
        return events

    # ---------------------------------------------------------------- orders
    def _spend_order(self, s: dict) -> None:
        if s["orders"] <= 0:
            raise IllegalAction(Phrase(N_("no orders left")))
        s["orders"] -= 1
        s["nav"] = 0  # any other order ends a Navigation order

    def _navigate(self, s: dict, move: str) -> list[dict]:
        cost = self._nav_cost(s)
        events = []
        if s["nav"] < cost:
            s["orders"] -= 1
            s["nav"] = self._nav_points(s)
            events.append(
                self._ev(
                    "order",
                    Phrase.ngettext(
                        "{side}'s ship gives a Navigation order ({n} point).",
                        "{side}'s ship gives a Navigation order ({n} points).",
                        s["nav"],
                        side=who(s["seat"]),
                    ),
                )
            )
        s["nav"] -= cost
        before = _h(s)
        if move == "forward":
            nxt = step(before, s["facing"])
            s["q"], s["r"] = nxt
            events.append(
                self._ev(
                    "move",
                    Phrase(
                        N_("{side}'s ship sails {start}→{end}."),
                        side=who(s["seat"]),
                        start=label(before),
                        end=label(nxt),
                    ),
                )
            )
            if self.map.at(nxt) == B.PORT:
                events += self._visit_port(s)
        else:
            s["facing"] = (s["facing"] + (1 if move == "left" else -1)) % 6
            way = Phrase(FACING[B.DIR_NAMES[s["facing"]]])
            turned = (
                Phrase(N_("{side}'s ship turns left to face {way}."), side=who(s["seat"]), way=way)
                if move == "left"
                else Phrase(N_("{side}'s ship turns right to face {way}."), side=who(s["seat"]), way=way)
            )
            events.append(self._ev("turn", turned))
        self.state["last"] = {"seat": s["seat"], "type": "nav", "from": list(before), "to": [s["q"], s["r"]]}
        return events

    def _visit_port(self, s: dict) -> list[dict]:
        events = []
        if any(s["destroyed"]):
            s["destroyed"] = [False] * 10
            events.append(
                self._ev("repair", Phrase(N_("{side}'s ship is repaired in port."), side=who(s["seat"])))
            )
        if s["clues"]:
            n = s["clues"]
            s["clues"] = 0
            s["delivered"] += n
            self.state["discovery"] += n
            events.append(
                self._ev(
                    "deliver",
                    Phrase.ngettext(
                        "{side}'s ship brings {n} clue to port: Discovery {discovery}.",
                        "{side}'s ship brings {n} clues to port: Discovery {discovery}.",
                        n,
                        side=who(s["seat"]),
                        discovery=self.state["discovery"],
                    ),
                )
            )
            events += self._check_end()
        return events

    def _fire(self, s: dict, node: int, uid: int) -> list[dict]:
        e = self.enemy(uid)
        if e is None or e not in self._fire_targets(s, node):
            raise IllegalAction(Phrase(N_("that target is not in the arc of that gun")))
        self._spend_order(s)
        sb = B.ship_board()
        n = sb["attack_dice"] + (sb["crows_nest_attack_bonus"] if self.nest_manned(s) else 0)
        faces = self._roll_faces("attack", n)
        dmg = faces.count("damage")
        omens = faces.count("omen")
        c = self.card(e)
        gun = sb["node"][node]["name"]
        events = [
            self._ev(
                "fire",
                Phrase(
                    N_("{side}'s ship fires the {gun} at {enemy}: {dice} → {damage} trauma."),
                    side=who(s["seat"]),
                    gun=Phrase(gun),
                    enemy=Phrase(c["name"]),
                    dice=dice_words(faces),
                    damage=dmg,
                ),
                dice=faces,
            )
        ]
        self.state["last"] = {
            "seat": s["seat"],
            "type": "fire",
            "from": [s["q"], s["r"]],
            "to": [e["q"], e["r"]],
            "dice": faces,
            "damage": dmg,
        }
        events += self._trauma(s, e, dmg)
        if self.enemy(uid) is not None and omens and s["orders"] > 0:
            self.state["pending"] = {"seat": s["seat"], "enemy": uid, "omens": omens}
        return events

    def _trauma(self, s: dict, e: dict, n: int) -> list[dict]:
        if n <= 0:
            return []
        e["health"] -= n
        if e["health"] > 0:
            return []
        c = self.card(e)
        self.state["enemies"].remove(e)
        self._return_card(e["card"])
        s["clues"] += c["clues"]
        s["kills"] += 1
        return [
            self._ev(
                "sunk_enemy",
                Phrase.ngettext(
                    "{enemy} sinks! {side}'s ship recovers {n} clue.",
                    "{enemy} sinks! {side}'s ship recovers {n} clues.",
                    c["clues"],
                    enemy=Phrase(c["name"]),
                    side=who(s["seat"]),
                ),
            )
        ]

    def _omen(self, s: dict, convert: bool) -> list[dict]:
        p = self.state["pending"]
        if not convert:
            self.state["pending"] = None
            return [self._ev("omen", Phrase(N_("{side}'s ship keeps their orders."), side=who(s["seat"])))]
        e = self.enemy(p["enemy"])
        assert e is not None  # a pending Omen is cleared as soon as its enemy sinks
        s["orders"] -= 1
        p["omens"] -= 1
        events = [
            self._ev(
                "omen",
                Phrase(
                    N_("{side}'s ship spends an order to turn an Omen into a Damage."), side=who(s["seat"])
                ),
            )
        ]
        events += self._trauma(s, e, 1)
        if self.enemy(p["enemy"]) is None or p["omens"] <= 0 or s["orders"] <= 0:
            self.state["pending"] = None
        return events

    def _explore(self, s: dict, site: str) -> list[dict]:
        if site not in self._explore_sites(s):
            raise IllegalAction(Phrase(N_("no clue site in reach there")))
        self._spend_order(s)
        self.state["sites"][site] -= 1
        s["clues"] += 1
        self.state["last"] = {"seat": s["seat"], "type": "explore", "to": list(unkey(site))}
        return [
            self._ev(
                "explore",
                Phrase(
                    N_("{side}'s ship explores {hex} and finds a clue."),
                    side=who(s["seat"]),
                    hex=label(unkey(site)),
                ),
            )
        ]

    def _crew(self, s: dict, member: int, to: int) -> list[dict]:
        if not (0 <= member < len(s["crew"])) or not (0 <= to < 10) or s["destroyed"][to] or to in s["crew"]:
            raise IllegalAction(Phrase(N_("that node cannot take a crew member")))
        self._spend_order(s)
        nodes = B.ship_board()["node"]
        frm = s["crew"][member]
        s["crew"][member] = to
        member_name = B.ship_board()["crew"][member]
        self.state["last"] = {"seat": s["seat"], "type": "crew"}
        return [
            self._ev(
                "crew",
                Phrase(
                    N_("{side}'s ship: the {member} moves from the {start} to the {end}."),
                    side=who(s["seat"]),
                    member=Phrase(member_name),
                    start=Phrase(nodes[frm]["name"]),
                    end=Phrase(nodes[to]["name"]),
                ),
            )
        ]

    def _end_turn(self) -> list[dict]:
        st = self.state
        s = self.ship(st["order"][st["turn"]])
        s["orders"], s["nav"] = 0, 0
        st["pending"] = None
        st["turn"] += 1
        if st["turn"] < len(st["order"]):
            nxt = self.ship(st["order"][st["turn"]])
            nxt["orders"], nxt["nav"] = B.rules()["orders_per_round"], 0
            return [self._ev("turn", Phrase(N_("{side}'s ship takes the helm."), side=who(nxt["seat"])))]
        return self._start_enemy_phase()

    # ================================================================ enemy phase
    def _start_enemy_phase(self) -> list[dict]:
        st = self.state
        st["phase"] = "enemy"
        st["activations"] = []
        for e in st["enemies"]:
            e["activated"] = False
        events = [
            self._ev("enemy_phase", Phrase(N_("Round {round}: the enemy phase begins."), round=st["round"]))
        ]
        return events + self._continue_enemy_phase()

    def _continue_enemy_phase(self) -> list[dict]:
        st = self.state
        events: list[dict] = []
        while not self.is_over:
            waiting = [e for e in st["enemies"] if not e["activated"]]
            if len(waiting) >= 2:
                return events
            if len(waiting) == 1:
                events += self._activate(waiting[0]["uid"])
                continue
            events += self._end_enemy_phase()
            break
        return events

    def _end_enemy_phase(self) -> list[dict]:
        st = self.state
        r = B.rules()
        steps = r["agenda_base"] + r["agenda_per_player"] * self.players
        events, wraps = self._advance_agenda(steps, "round")
        if self.is_over:
            return events
        sinfo = B.scenario_info(self.options["scenario"])
        floor = sinfo["min_enemies"] + r["enemies_per_extra_player"] * (self.players - 1)
        want = max(wraps, floor - len(st["enemies"]))
        for _ in range(max(0, min(want, r["max_enemies"] - len(st["enemies"])))):
            events += self._spawn()
        st["phase"] = "players"
        st["round"] += 1
        st["first"] = (st["round"] - 1) % self.players
        st["order"] = [(st["first"] + i) % self.players for i in range(self.players)]
        st["turn"] = 0
        s = self.ship(st["order"][0])
        s["orders"], s["nav"] = r["orders_per_round"], 0
        events.append(
            self._ev(
                "round",
                Phrase(
                    N_("Round {round} begins; {side}'s ship takes the helm."),
                    round=st["round"],
                    side=who(s["seat"]),
                ),
            )
        )
        return events

    def _advance_agenda(self, steps: int, why: str, enemy: str = "") -> tuple[list[dict], int]:
        """Advance the Enemy Agenda ``steps`` because of ``why``: "round" (the enemy phase's end),
        "banishment" (of the ship ``enemy``) or "sinking"."""
        st = self.state
        r = B.rules()
        total = st["agenda"] + steps
        wraps = total // r["agenda_length"]
        st["agenda"] = total % r["agenda_length"]
        if why == "banishment":
            said = Phrase.ngettext(
                "The Banishment of {enemy} advances the Agenda {n} step to {agenda}.",
                "The Banishment of {enemy} advances the Agenda {n} steps to {agenda}.",
                steps,
                enemy=Phrase(enemy),
                agenda=st["agenda"],
            )
        elif why == "sinking":
            said = Phrase.ngettext(
                "The sinking advances the Agenda {n} step to {agenda}.",
                "The sinking advances the Agenda {n} steps to {agenda}.",
                steps,
                agenda=st["agenda"],
            )
        else:
            said = Phrase.ngettext(
                "The Enemy Agenda advances {n} step to {agenda}.",
                "The Enemy Agenda advances {n} steps to {agenda}.",
                steps,
                agenda=st["agenda"],
            )
        events = [self._ev("agenda", said)]
        if wraps:
            st["enemy_discovery"] += wraps
            for k in st["sites"]:
                st["sites"][k] = min(r["site_max"], st["sites"][k] + wraps)
            events.append(
                self._ev(
                    "enemy_discovery",
                    Phrase(
                        N_("The Agenda wraps: Enemy Discovery {enemy_discovery}; the clue sites refill."),
                        enemy_discovery=st["enemy_discovery"],
                    ),
                )
            )
            events += self._check_end()
        return events, wraps

    def _check_end(self) -> list[dict]:
        st = self.state
        if st["result"] is not None:
            return []
        length = self.options["length"]
        scores = {str(s["seat"]): s["delivered"] for s in st["ships"]}
        if st["discovery"] >= B.rules()["discovery_end"][length]:
            st["result"] = {
                "scores": scores,
                "winners": list(range(self.players)),
                "discovery": st["discovery"],
                "enemy_discovery": st["enemy_discovery"],
                "rounds": st["round"],
            }
            st["phase"] = "over"
            return [self._ev("game_over", Phrase(N_("The Discovery track is complete: the crews win!")))]
        if st["enemy_discovery"] >= self.enemy_discovery_end():
            st["result"] = {
                "scores": scores,
                "winners": [],
                "discovery": st["discovery"],
                "enemy_discovery": st["enemy_discovery"],
                "rounds": st["round"],
            }
            st["phase"] = "over"
            return [
                self._ev("game_over", Phrase(N_("The Enemy Discovery track is complete: the Everrain wins.")))
            ]
        return []

    def enemy_discovery_end(self) -> int:
        r = B.rules()
        return r["enemy_discovery_end"][self.options["length"]] + (
            r["solo_enemy_discovery_bonus"] if self.players == 1 else 0
        )

    def _return_card(self, card: str) -> None:
        """Shuffle an enemy ship card back into the enemy ship deck."""
        self.state["deck"].append(card)
        self.rng.shuffle(self.state["deck"])

    def _destination(self, card: dict, at) -> tuple[list[list[int]], str]:
        m = self.map
        d = card["destination"]
        if d == "none":
            return [], "none"
        r = B.rules()
        if d.startswith("edge:"):
            side = d.split(":")[1]
            if min(distance(h, at) for h in m.edges[side]) < r["edge_destination_min"]:
                side = {"W": "E", "E": "W", "N": "S", "S": "N"}[side]  # spawned on it: the far edge
            return [list(h) for h in m.edges[side]], f"{side} edge"
        if d.startswith("mark:") and d.split(":")[1] in m.marks:
            h = m.marks[d.split(":")[1]]
            return [list(h)], f"the {d.split(':')[1].title()} ({label(h)})"
        far = [p for p in m.ports if distance(p, at) >= r["port_destination_min"]] or list(m.ports)
        port = min(far, key=lambda p: (distance(p, at), m.ports.index(p)))
        return [list(port)], f"port {label(port)}"

    def _spawn(self) -> list[dict]:
        st = self.state
        occ = self.occupied()
        free = [h for h in self.map.spawns if h not in occ]
        if not free or not st["deck"]:
            return []
        h = free[self._fate() % len(free)]
        cid = st["deck"].pop(0)
        c = B.enemy_cards()[cid]
        dest, dlabel = self._destination(c, h)
        e = {
            "uid": st["next_uid"],
            "card": cid,
            "q": h[0],
            "r": h[1],
            "facing": self._facing_to_centre(h),
            "health": c["health"],
            "dest": dest,
            "dest_label": dlabel,
            "activated": True,
        }
        st["next_uid"] += 1
        st["enemies"].append(e)
        return [
            self._ev(
                "spawn",
                Phrase(
                    N_("{enemy} appears at {hex} and holds its waters."),
                    enemy=Phrase(c["name"]),
                    hex=label(h),
                )
                if dlabel == "none"
                else Phrase(
                    N_("{enemy} appears at {hex}, bound for {dest}."),
                    enemy=Phrase(c["name"]),
                    hex=label(h),
                    dest=destination(dlabel),
                ),
            )
        ]

    # ---------------------------------------------------------------- activation
    def _reach(self, pos, facing: int, pattern: list[str], target) -> bool:
        return target in pattern_hexes(pos, facing, pattern) and self.map.line_of_sight(pos, target)

    def attack_route(self, e: dict, target) -> list[list[int]] | None:
        """Least Move outcomes for ``e`` to get ``target`` into its artillery reach.

        Each Move outcome moves the ship one hex in any direction, after which it faces the way it
        moved (house rule). Returns the states [q, r, facing] passed through (empty when already in
        reach), or None when no route exists.
        """
        pattern = self.card(e)["pattern"]
        start = (e["q"], e["r"], e["facing"])
        if self._reach(start[:2], start[2], pattern, target):
            return []
        blocked = self.occupied(exclude=e)
        prev = {start: start}  # the walk back below stops at the start, never reading its entry
        frontier = [start]
        for _depth in range(40):
            nxt = []
            for st in frontier:
                for d in range(6):
                    h = step(st[:2], d)
                    ns = (h[0], h[1], d)
                    if ns in prev or not self.map.sea(h) or h in blocked or self.map.at(h) == B.PORT:
                        continue
                    prev[ns] = st
                    if self._reach(h, d, pattern, target):
                        route = []
                        cur = ns
                        while cur != start:
                            route.append(list(cur))
                            cur = prev[cur]
                        return route[::-1]
                    nxt.append(ns)
            if not nxt:
                return None
            frontier = nxt
        return None

    def _dest_step(self, e: dict, dist: dict) -> int | None:
        """The direction of the next step towards the destination, or None."""
        here = _h(e)
        cur = dist.get(here)
        if cur is None:
            return None
        best = None
        for d in range(6):
            n = step(here, d)
            if n in dist and dist[n] < cur:
                turn = min((d - e["facing"]) % 6, (e["facing"] - d) % 6)
                cand = (dist[n], turn, d)
                if best is None or cand < best:
                    best = cand
        return None if best is None else best[2]

    @staticmethod
    def _goals(e: dict) -> set[tuple[int, int]]:
        return {(h[0], h[1]) for h in e["dest"]}

    def _move_to_destination(self, e: dict, points: int, trace: dict) -> list[dict]:
        if not e["dest"]:
            return []
        goals = self._goals(e)
        if _h(e) in goals:
            # Already there (a ship left on its destination by an older version of these rules).
            return self._banish(e, trace)
        if points <= 0:
            return []
        blocked = self.occupied(exclude=e) | {p for p in self.map.ports if p not in goals}
        blocked -= goals
        dist = self.map.distances_from(goals, blocked)
        moved = 0
        for _ in range(points):
            d = self._dest_step(e, dist)
            if d is None:
                break
            h = step(_h(e), d)
            e["q"], e["r"], e["facing"] = h[0], h[1], d
            trace["path"].append([h[0], h[1]])
            moved += 1
            if h in goals:
                trace["dest_moves"] = moved
                return self._banish(e, trace)
        trace["dest_moves"] = moved
        if moved:
            return [
                self._ev(
                    "enemy_move",
                    Phrase.ngettext(
                        "{enemy} sails {n} hex toward {dest}.",
                        "{enemy} sails {n} hexes toward {dest}.",
                        moved,
                        enemy=Phrase(self.card(e)["name"]),
                        dest=destination(e["dest_label"]),
                    ),
                )
            ]
        return []

    def _banish(self, e: dict, trace: dict) -> list[dict]:
        """Banish ``e``: the Agenda advances by its remaining health, its card is shuffled back into the
        deck and its miniature leaves the board."""
        c = self.card(e)
        trace["banished"] = True
        trace["agenda_steps"] = e["health"]
        self.state["enemies"].remove(e)
        self._return_card(e["card"])
        events = [
            self._ev(
                "banished",
                Phrase.ngettext(
                    "{enemy} reaches {dest} and is Banished ({n} health left).",
                    "{enemy} reaches {dest} and is Banished ({n} health left).",
                    e["health"],
                    enemy=Phrase(c["name"]),
                    dest=destination(e["dest_label"]),
                ),
            )
        ]
        more, _ = self._advance_agenda(e["health"], "banishment", c["name"])
        return events + more

    def _activate(self, uid: int) -> list[dict]:
        """One enemy ship activation, exactly in the order of the rule text."""
        st = self.state
        e = self.enemy(uid)
        if e is None or e["activated"]:
            raise IllegalAction(Phrase(N_("that enemy ship cannot activate now")))
        e["activated"] = True
        c = self.card(e)
        # Roll as many Enemy dice as its dice value.
        faces = self._roll_faces("enemy", c["dice"])
        trace = {
            "enemy": uid,
            "name": c["name"],
            "card": e["card"],
            "dice": faces,
            "from": [e["q"], e["r"]],
            "path": [[e["q"], e["r"]]],
            "candidates": [],
            "fate": None,
            "target": None,
            "approach": 0,
            "attacked": False,
            "hexes_hit": [],
            "damage": 0,
            "evasion": [],
            "evaded": 0,
            "nodes_hit": [],
            "sunk": False,
            "dest_moves": 0,
            "banished": False,
            "agenda_steps": 0,
        }
        events = [
            self._ev(
                "activate",
                Phrase(
                    N_("{enemy} activates and rolls {dice}."), enemy=Phrase(c["name"]), dice=dice_words(faces)
                ),
                dice=faces,
            )
        ]
        moves, dmg, omen = faces.count("move"), faces.count("damage"), faces.count("omen")
        # Player ships within Engagement Range and not in a Port space.
        seen = [s for s in st["ships"] if distance(_h(s), _h(e)) <= c["engagement"] and not self.in_port(s)]
        candidates = []
        for s in seen:
            route = self.attack_route(e, _h(s))
            if route is not None:
                candidates.append((len(route), s["seat"], route))
        trace["candidates"] = [{"seat": seat, "cost": cost} for cost, seat, _ in candidates]
        target = None
        if candidates:
            best = min(cost for cost, _, _ in candidates)
            tied = [x for x in candidates if x[0] == best]
            if len(tied) > 1:
                # Each tied ship (in seat order) with equal chance: Fate Die result mod their number,
                # results that would favour the first ones are rolled again (_fate_pick).
                rolls = self._fate_pick(len(tied))
                f = rolls[-1]
                trace["fate"] = f
                choice = tied[f % len(tied)]
                again = {"enemy": Phrase(c["name"]), "side": who(choice[1]), "fate": f}
                if len(rolls) > 1:
                    rolled = Phrase(
                        N_("Fate Die {again} (rolled again), {fate}: {enemy} turns on {side}'s ship."),
                        again=", ".join(str(x) for x in rolls[:-1]),
                        **again,
                    )
                else:
                    rolled = Phrase(N_("Fate Die {fate}: {enemy} turns on {side}'s ship."), **again)
                events.append(self._ev("fate", rolled))
            else:
                choice = tied[0]
            target = choice
        if target is not None:
            cost, seat, route = target
            s = self.ship(seat)
            trace["target"] = seat
            # Out of reach: spend Move outcomes (only those) to move into attack range (A10). Pairs of
            # Damage or Omen become Move points only after the attack (A12), never to close in.
            use = min(cost, moves)
            moves -= use
            # It closes in hex by hex; reaching its destination on the way, it is Banished there.
            goals = self._goals(e)
            banish = False
            for q, r, f in route[:use]:
                e["q"], e["r"], e["facing"] = q, r, f
                trace["path"].append([q, r])
                trace["approach"] += 1
                if (q, r) in goals:
                    banish = True
                    break
            if trace["approach"]:
                events.append(
                    self._ev(
                        "enemy_move",
                        Phrase.ngettext(
                            "{enemy} closes in on {side}'s ship ({n} hex).",
                            "{enemy} closes in on {side}'s ship ({n} hexes).",
                            trace["approach"],
                            enemy=Phrase(c["name"]),
                            side=who(seat),
                        ),
                    )
                )
            if banish:
                events += self._banish(e, trace)
            elif use == cost:
                # In reach: every Damage outcome is one damage, each pair of equal other outcomes one more.
                total = dmg + moves // 2 + omen // 2
                dmg, moves, omen = 0, moves % 2, omen % 2
                trace["attacked"] = True
                trace["hexes_hit"] = [list(h) for h in pattern_hexes(_h(e), e["facing"], c["pattern"])]
                events += self._attack_player(e, s, total, trace)
        # Unspent Move outcomes (and pairs of unspent Damage or Omen) move it toward its destination;
        # a ship still closing in on its target stays on its route (house rule H6).
        points = moves + dmg // 2 + omen // 2
        if target is not None and not trace["attacked"]:
            points = 0
        if self.enemy(uid) is not None:
            events += self._move_to_destination(e, points, trace)
        trace["text"] = self._trace_text(trace)
        st["last_activation"] = trace
        st["activations"].append({"enemy": uid, "name": c["name"], "text": trace["text"]})
        return events

    def _attack_player(self, e: dict, s: dict, damage: int, trace: dict) -> list[dict]:
        c = self.card(e)
        trace["damage"] = damage
        # The defender rolls one Evasion die per manned navigation node; each Evade cancels one damage.
        ev = self._roll_faces("evasion", self.manned_nav(s))
        evaded = min(damage, ev.count("evade"))
        trace["evasion"], trace["evaded"] = ev, evaded
        events = [
            self._ev(
                "enemy_attack",
                Phrase.ngettext(
                    "{enemy} fires on {side}'s ship: {n} damage; Evasion dice roll {dice}, cancelling {evaded}.",
                    "{enemy} fires on {side}'s ship: {n} damage; Evasion dice roll {dice}, cancelling {evaded}.",
                    damage,
                    enemy=Phrase(c["name"]),
                    side=who(s["seat"]),
                    dice=dice_words(ev),
                    evaded=evaded,
                )
                if ev
                else Phrase.ngettext(
                    "{enemy} fires on {side}'s ship: {n} damage.",
                    "{enemy} fires on {side}'s ship: {n} damage.",
                    damage,
                    enemy=Phrase(c["name"]),
                    side=who(s["seat"]),
                ),
                dice=ev,
            )
        ]
        events += self._damage_player(s, damage - evaded, trace)
        return events

    def _damage_player(self, s: dict, n: int, trace: dict | None = None) -> list[dict]:
        """Each damage point rolls the Fate Die and destroys the node of that number (if it is already
        destroyed: the nearest lower intact node, else the nearest higher one)."""
        nodes = B.ship_board()["node"]
        events = []
        for _ in range(n):
            f = self._fate()
            hit = next((i for i in range(f, -1, -1) if not s["destroyed"][i]), None)
            if hit is None:
                hit = next((i for i in range(f + 1, 10) if not s["destroyed"][i]), None)
            if hit is None:
                break
            s["destroyed"][hit] = True
            if trace is not None:
                trace["nodes_hit"].append({"fate": f, "node": hit})
            events.append(
                self._ev(
                    "node_hit",
                    Phrase(
                        N_("Fate Die {fate}: the {node} of {side}'s ship is destroyed."),
                        fate=f,
                        node=Phrase(nodes[hit]["name"]),
                        side=who(s["seat"]),
                    ),
                )
            )
            if all(s["destroyed"]):
                events += self._sink(s, trace)
                break
        return events

    def _sink(self, s: dict, trace: dict | None) -> list[dict]:
        m = self.map
        here = _h(s)
        others = {_h(o) for o in self.state["ships"] if o is not s}
        free = [p for p in m.ports if p not in others] or list(m.ports)
        port = min(free, key=lambda p: (distance(p, here), m.ports.index(p)))
        s["q"], s["r"] = port
        s["facing"] = self._facing_to_centre(port)
        s["destroyed"] = [False] * 10
        s["crew"] = list(B.ship_board()["crew_start"])
        lost = s["clues"]
        s["clues"] = 0
        s["sunk"] += 1
        if trace is not None:
            trace["sunk"] = True
        events = [
            self._ev(
                "ship_sunk",
                Phrase.ngettext(
                    "{side}'s ship sinks, losing {n} clue, and restarts at port {hex}.",
                    "{side}'s ship sinks, losing {n} clues, and restarts at port {hex}.",
                    lost,
                    side=who(s["seat"]),
                    hex=label(port),
                )
                if lost
                else Phrase(
                    N_("{side}'s ship sinks and restarts at port {hex}."),
                    side=who(s["seat"]),
                    hex=label(port),
                ),
            )
        ]
        more, _ = self._advance_agenda(B.rules()["sink_agenda"], "sinking")
        return events + more

    def _trace_text(self, t: dict) -> str:
        """The activation's English digest kept with it in the state (the AI's board reads it); players
        read the activation's data in their own language (text.activation)."""
        parts = [f"{t['name']}: {dice_words(t['dice'])}"]
        if t["target"] is not None:
            parts.append(
                f"targets {who(t['target'])}'s ship"
                + (f" (Fate {t['fate']})" if t["fate"] is not None else "")
            )
            if t["approach"]:
                parts.append(f"closes {t['approach']}")
            if t["attacked"]:
                parts.append(f"hits {t['damage']}, evades {t['evaded']}")
                if t["nodes_hit"]:
                    parts.append("nodes " + ",".join(str(x["node"]) for x in t["nodes_hit"]))
                if t["sunk"]:
                    parts.append("SUNK")
        if t["dest_moves"]:
            parts.append(f"sails {t['dest_moves']} to destination")
        if t["banished"]:
            parts.append(f"BANISHED (+{t['agenda_steps']} Agenda)")
        if len(parts) == 1:
            parts.append("holds")
        return "; ".join(parts)

    # ================================================================ view
    def view(self, seat: int | None) -> dict:
        st = self.state
        r = B.rules()
        length = self.options["length"]
        nodes = B.ship_board()["node"]
        ships = []
        for s in st["ships"]:
            ships.append(
                {
                    "seat": s["seat"],
                    "q": s["q"],
                    "r": s["r"],
                    "facing": s["facing"],
                    "destroyed": list(s["destroyed"]),
                    "intact": s["destroyed"].count(False),
                    "crew": list(s["crew"]),
                    "orders": s["orders"],
                    "nav": s["nav"],
                    "clues": s["clues"],
                    "delivered": s["delivered"],
                    "kills": s["kills"],
                    "sunk": s["sunk"],
                    "in_port": self.in_port(s),
                    "manned_nav": self.manned_nav(s),
                    "nest": self.nest_manned(s),
                }
            )
        enemies = []
        for e in st["enemies"]:
            c = self.card(e)
            enemies.append(
                {
                    "uid": e["uid"],
                    "tag": B.tag(e["uid"]),
                    "card": e["card"],
                    "name": c["name"],
                    "q": e["q"],
                    "r": e["r"],
                    "facing": e["facing"],
                    "health": e["health"],
                    "max_health": c["health"],
                    "dice": c["dice"],
                    "engagement": c["engagement"],
                    "pattern": c["pattern"],
                    "reach": [list(h) for h in pattern_hexes(_h(e), e["facing"], c["pattern"])],
                    "dest": e["dest"],
                    "dest_label": e["dest_label"],
                    "activated": e["activated"],
                }
            )
        v = {
            "game": "everrain",
            "scenario": self.options["scenario"],
            "scenario_title": B.scenario_info(self.options["scenario"])["title"],
            "length": length,
            "players": self.players,
            "map": self.map.to_view(),
            "phase": st["phase"],
            "round": st["round"],
            "first": st["first"],
            "to_act": self.to_act(),
            "current": st["order"][st["turn"]] if st["phase"] == "players" else None,
            "tracks": {
                "agenda": st["agenda"],
                "agenda_length": r["agenda_length"],
                "discovery": st["discovery"],
                "discovery_end": r["discovery_end"][length],
                "enemy_discovery": st["enemy_discovery"],
                "enemy_discovery_end": self.enemy_discovery_end(),
            },
            "ships": ships,
            "enemies": enemies,
            "deck_size": len(st["deck"]),
            "sites": [[*unkey(k), n] for k, n in sorted(st["sites"].items())],
            "pending": dict(st["pending"]) if st["pending"] else None,
            "last_activation": st["last_activation"],
            "activations": list(st["activations"]),
            "last": st["last"],
            "board": [dict(n) for n in nodes],
            "crew_names": list(B.ship_board()["crew"]),
            "scores": {str(s["seat"]): s["delivered"] for s in st["ships"]},
            "result": st["result"],
        }
        if seat is not None and 0 <= seat < self.players:
            v["seat"] = seat
            v["my_ship"] = ships[seat]
        return v

    # ================================================================ host helpers
    def _enemy_label(self, uid: int, speaker: Voice = ENGLISH) -> str:
        e = self.enemy(uid)
        if e is None:
            return speaker.gettext("enemy ({tag})", tag=B.tag(uid))
        return speaker.gettext(
            "({tag}) {name}, {health} hp, at {hex}",
            tag=B.tag(uid),
            name=named(speaker, self.card(e)["name"]),
            health=e["health"],
            hex=label(_h(e)),
        )

    def describe(self, action: dict, *, speaker: Voice = ENGLISH) -> str:
        try:
            return self._describe(action, speaker)
        except (KeyError, IndexError, TypeError, ValueError, AttributeError):
            return super().describe(action) if isinstance(action, dict) else str(action)[:100]

    def _describe(self, action: dict, speaker: Voice = ENGLISH) -> str:
        _ = speaker.gettext
        t = action.get("type")
        nodes = B.ship_board()["node"]
        if t == "nav":
            move = action.get("move", "")
            if move == "forward":
                return _("Sail forward")
            if move == "left":
                return _("Turn left (to port)")
            if move == "right":
                return _("Turn right (to starboard)")
            return _("Navigate")
        if t == "fire":
            gun = named(speaker, nodes[action["node"]]["name"])
            return _("Fire the {gun} at {enemy}", gun=gun, enemy=self._enemy_label(action["enemy"], speaker))[
                :100
            ]
        if t == "explore":
            return _("Explore the clue site at {hex}", hex=label(unkey(action["site"])))
        if t == "crew":
            member = named(speaker, B.ship_board()["crew"][action["member"]])
            return _(
                "Move the {member} to the {node}",
                member=member,
                node=named(speaker, nodes[action["to"]]["name"]),
            )
        if t == "end_turn":
            return _("End turn")
        if t == "omen":
            if action.get("convert"):
                return _("Spend an order: turn an Omen into a Damage")
            return _("Keep the Omens")
        if t == "activate":
            return _("Activate {enemy}", enemy=self._enemy_label(action["enemy"], speaker))[:100]
        return super().describe(action)

    def action_path(self, seat: int, action: dict, *, speaker: Voice = ENGLISH) -> list[tuple[str, str]]:
        _, n_ = speaker.gettext, speaker.ngettext
        t = action.get("type")
        nodes = B.ship_board()["node"]
        if t == "nav":
            s = self.ship(seat)
            cost = self._nav_cost(s)
            if s["nav"] >= cost:
                head = n_("Navigation ({n} point left)", "Navigation ({n} points left)", s["nav"])
            else:
                points = self._nav_points(s)
                head = n_("Navigation (new order: {n} point)", "Navigation (new order: {n} points)", points)
            if action["move"] == "forward":
                leaf = _("Forward 1 → hex {hex}", hex=label(step(_h(s), s["facing"])))
            else:
                f = (s["facing"] + (1 if action["move"] == "left" else -1)) % 6
                way = facing(speaker, B.DIR_NAMES[f])
                leaf = (
                    _("Turn left → face {way}", way=way)
                    if action["move"] == "left"
                    else _("Turn right → face {way}", way=way)
                )
            return [("order:navigation", head), (action["move"], leaf)]
        if t == "fire":
            gun = named(speaker, nodes[action["node"]]["name"])
            return [
                (f"order:fire:{action['node']}", _("Artillery: {gun}", gun=gun)),
                (f"e{action['enemy']}", self._enemy_label(action["enemy"], speaker)[:100]),
            ]
        if t == "crew":
            s = self.ship(seat)
            m = action["member"]
            member = named(speaker, B.ship_board()["crew"][m])
            at = named(speaker, nodes[s["crew"][m]]["name"])
            return [
                (f"order:crew:{m}", _("Crew: move the {member} (at {node})", member=member, node=at)),
                (f"to{action['to']}", "→ " + named(speaker, nodes[action["to"]]["name"])),
            ]
        if t == "explore":
            clues = self.state["sites"][action["site"]]
            site = label(unkey(action["site"]))
            return [
                ("order:explore", _("Explore a clue site")),
                (
                    action["site"],
                    n_("Clue site {hex} ({n} clue)", "Clue site {hex} ({n} clues)", clues, hex=site),
                ),
            ]
        if t == "end_turn":
            left = self.ship(seat)["orders"]
            last = (
                n_("End turn (forfeit {n} order)", "End turn (forfeit {n} orders)", left)
                if left
                else _("End turn")
            )
            return [("end", _("End turn")), ("end", last)]
        if t == "omen":
            return [
                ("omen", _("Omens on the Attack dice")),
                ("yes" if action["convert"] else "no", self.describe(action, speaker=speaker)),
            ]
        if t == "activate":
            return [
                ("activate", _("Choose the next enemy ship to activate")),
                (f"e{action['enemy']}", self._enemy_label(action["enemy"], speaker)[:100]),
            ]
        return super().action_path(seat, action)

    def menu_titles(self, seat: int, *, speaker: Voice = ENGLISH) -> list[str]:
        _ = speaker.gettext
        if self.state["phase"] == "enemy":
            return [_("Enemy phase"), _("Which enemy ship activates next?")]
        return [_("Choose an order"), _("Choose how")]

    def prompt(self, seat: int, *, speaker: Voice = ENGLISH) -> str:
        _, n_ = speaker.gettext, speaker.ngettext
        st = self.state
        if seat not in self.to_act():
            return _("Wait for your turn.")
        if st["phase"] == "enemy":
            return _("Enemy phase: choose which enemy ship activates next.")
        if st["pending"]:
            return n_(
                "Your Attack dice show {n} Omen: spend an order to turn it into a Damage?",
                "Your Attack dice show {n} Omens: spend an order to turn one into a Damage?",
                st["pending"]["omens"],
            )
        s = self.ship(seat)
        if s["nav"]:
            return n_(
                "Your turn: {orders} left, {n} navigation point — give an order or end your turn.",
                "Your turn: {orders} left, {n} navigation points — give an order or end your turn.",
                s["nav"],
                orders=n_("{n} order", "{n} orders", s["orders"]),
            )
        return n_(
            "Your turn: {n} order left — give an order or end your turn.",
            "Your turn: {n} orders left — give an order or end your turn.",
            s["orders"],
        )

    @classmethod
    def resample(cls, view: dict, seat: int, rng: random.Random) -> Game:
        """A whole state consistent with ``view``: everything on the table as the view shows it; what
        the crews cannot know drawn from ``rng``: the order of the enemy ship deck (the cards not on
        the board, shuffled) and the dice to come (a fresh generator)."""
        game = cls(
            int(view["players"]),
            {"scenario": view["scenario"], "length": view["length"]},
            seed=0,
            _setup=False,
        )
        game.rng = SeededRandom(rng.getrandbits(64))
        keep = (
            "seat",
            "q",
            "r",
            "facing",
            "destroyed",
            "crew",
            "orders",
            "nav",
            "clues",
            "delivered",
            "kills",
            "sunk",
        )
        ships = [{k: (list(s[k]) if isinstance(s[k], list) else s[k]) for k in keep} for s in view["ships"]]
        enemies = [
            {
                "uid": e["uid"],
                "card": e["card"],
                "q": e["q"],
                "r": e["r"],
                "facing": e["facing"],
                "health": e["health"],
                "dest": [list(h) for h in e["dest"]],
                "dest_label": e["dest_label"],
                "activated": e["activated"],
            }
            for e in view["enemies"]
        ]
        on_board = {e["card"] for e in enemies}
        deck = sorted(c for c in B.enemy_cards() if c not in on_board)
        game.rng.shuffle(deck)
        players, first = int(view["players"]), int(view["first"])
        order = [(first + i) % players for i in range(players)]
        tracks = view["tracks"]
        game.state = {
            "phase": view["phase"],
            "round": view["round"],
            "first": first,
            "order": order,
            "turn": order.index(view["current"]) if view["current"] is not None else players,
            "ships": ships,
            "enemies": enemies,
            "deck": deck[: int(view["deck_size"])],
            # not in the view (it only names enemies still to spawn): one past the highest seen
            "next_uid": max(
                [e["uid"] for e in enemies] + [a.get("enemy", 0) for a in view["activations"]] + [0]
            )
            + 1,
            "agenda": tracks["agenda"],
            "discovery": tracks["discovery"],
            "enemy_discovery": tracks["enemy_discovery"],
            "sites": {key((q, r)): n for q, r, n in view["sites"]},
            "pending": None if view["pending"] is None else dict(view["pending"]),
            "last_activation": view["last_activation"],
            "activations": list(view["activations"]),
            "last": view["last"],
            "result": view["result"],
        }
        return game

    @classmethod
    def think(cls, situation: Situation, level: str, budget: Budget, rng: random.Random) -> dict:
        """Easy: today's crewmate with some noise (``ai.easy``); normal and hard: ``planner.plan``, the
        crewmate's choice unless an order type the planner may override with (``planner.overrides``: every
        type for a lone captain, none yet in a crew) clearly wins by flat Monte Carlo over the dice within
        ``budget`` (samples from :meth:`resample`)."""
        from bot.games.everrain import ai, planner

        if len(situation.legal) == 1:
            return situation.legal[0]
        if level == "easy":
            return ai.easy(situation.view, situation.legal, rng)
        return planner.plan(situation, budget, rng, cls.resample)

    def timeout_action(self, seat: int, rng: random.Random) -> dict:
        """Timer ran out: the enemy phase activates the nearest enemy first; a player's turn ends
        (keeping the Omens if asked)."""
        legal = self.legal_actions(seat)
        if self.state["phase"] == "enemy":
            from bot.games.everrain.ai import nearest_enemy_first

            return nearest_enemy_first(self.view(seat), legal)
        if self.state["pending"]:
            return {"type": "omen", "convert": False}
        return {"type": "end_turn"}

    view_text = staticmethod(texts.view_text)
    alt_text = staticmethod(texts.alt_text)
    key_text = staticmethod(texts.key_text)
    read_board = staticmethod(reading.read_board)

    text_view = staticmethod(textview.text_view)
