"""Enemy in Sight — the rules engine of the base game.

State (all JSON): ship cards in ``ships`` (id → card with owner, place, hits,
fires, strike and breaker marks), action cards in ``cards`` (id → printed
card); ids are random per game so they say nothing about the card. Hands,
the action deck and the ship deck order are hidden; ``view`` shows a hand only
to its owner, the ship pile only by its face-up top card and counts.

A turn "play a card" is split into small steps kept in ``pending`` (visible
only to the seat playing): pick a card (with its firing ship), then a target
ship and Hull/Rigging, then optional extras (Rake, Boarding Party) or "done".
Boarding choices are simultaneous: ``to_act`` returns both seats.

A variant is a subclass that overrides a few rule hooks (``line``, ``capacity``, ``may_target``,
``_line_maintenance``, the set-up and the extra phases and actions), the way python-chess makes each
variant a ``Board`` subclass: the Advanced game is :class:`~bot.games.enemy_in_sight.advanced.
AdvancedEnemyInSight`. The menus (menus.py) read the game; the game imports neither.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from bot.games.ai import Budget, Situation
from bot.games.base import Game, IllegalAction, choice_fields, fits
from bot.games.enemy_in_sight import data, reading, texts
from bot.games.enemy_in_sight.data import card_phrase
from bot.games.enemy_in_sight.terms import LOCS, SEMICOLONS, listed, part, seat_name, seats_and
from bot.games.phrase import ENGLISH, N_, Phrase, Voice

# How a ship is lost (``_sink``'s ``how``): the log line when the attacker scores her, and when nobody does.
SINKING = {
    "sinks": (
        N_("{owner}'s {ship} sinks; {by} will score {vp} VP at round end."),
        N_("{owner}'s {ship} sinks (no VP)."),
    ),
    "explodes": (
        N_("{owner}'s {ship} explodes in flames; {by} will score {vp} VP at round end."),
        N_("{owner}'s {ship} explodes in flames (no VP)."),
    ),
    "wrecked": (
        N_("{owner}'s {ship} is wrecked; {by} will score {vp} VP at round end."),
        N_("{owner}'s {ship} is wrecked (no VP)."),
    ),
    "burns": (
        N_("{owner}'s {ship} burns to the waterline; {by} will score {vp} VP at round end."),
        N_("{owner}'s {ship} burns to the waterline (no VP)."),
    ),
}
# Where an Additional Ship goes (7.4: the Reserve in the Advanced game).
ADDED_TO = {
    "line": N_("{seat} adds {ship} to the Line."),
    "port": N_("{seat} adds {ship} to the Port."),
    "reserve": N_("{seat} adds {ship} to the Reserve."),
}
# Why a Break the Line card leaves play (``_btl_leaves``'s ``why``).
BTL_ENDS = {
    "weathergauge": N_("{by}'s Break the Line against {target} ends: Weathergauge."),
    "no_breaker": N_("{by}'s Break the Line against {target} ends: no Line Breaker left."),
    "refused": N_("{by}'s Break the Line against {target} ends: {by} refuses battle."),
}


def ships_choice(ships: list[str], least: int, most: int) -> dict | list:
    """An open choice of ``least`` to ``most`` of ``ships`` (see bot/games/base.py: the menus show it as
    one multi-select), or the list itself when the rules leave no choice (all of them must be taken)."""
    most = min(most, len(ships))
    if least >= len(ships):
        return list(ships)
    return {"choose": list(ships), "min": least, "max": most}


class EnemyInSight(Game):
    """The base game. A variant subclasses it (see the module's docstring)."""

    key = "enemy-in-sight"
    variant: ClassVar[str] = "base"  # the value of the "variant" option this class plays
    # The Advanced game's Reserve also changes small answers here and there (what is at sea, where a
    # prize lies): those read this flag rather than each being a hook of their own.
    adv: ClassVar[bool] = False

    # ------------------------------------------------------------------ setup

    @property
    def H(self) -> dict:
        return data.house_rules()

    def setup(self) -> None:
        variant = self.options.get("variant", "base")
        if variant != self.variant:
            raise IllegalAction(Phrase(N_("unknown variant {variant}"), variant=repr(variant)))
        n = self.players
        st: dict = {}
        self.state = st
        ships = data.ship_list()
        ids = self.rng.sample(range(100, 1000), len(ships))
        st["ships"] = {}
        for s, num in zip(ships, ids, strict=True):
            sid = f"S{num}"
            st["ships"][sid] = {
                **s,
                "id": sid,
                "owner": None,
                "where": "deck",
                "hits": [],
                "fires": [],
                "struck": False,
                "breaker": None,
            }
        cards = data.card_list()
        cids = self.rng.sample(range(100, 1000), len(cards))
        # card id -> index of the printed card in data.card_list(); ids are random per game.
        st["cards"] = {f"C{num}": i for i, num in enumerate(cids)}
        ship_deck = sorted(st["ships"])
        self.rng.shuffle(ship_deck)
        deck = sorted(st["cards"])
        self.rng.shuffle(deck)
        st.update(
            {
                "ship_deck": ship_deck,
                "deck": deck,
                "discard": [],
                "hands": [[] for _ in range(n)],
                "lines": [[] for _ in range(n)],
                "prizes": [[] for _ in range(n)],
                "ports": [[] for _ in range(n)],
                "sunk": [[] for _ in range(n)],
                "scores": [0] * n,
                "round": 1,
                "turn": 0,
                "dealer": 0,
                "phase": "turn",
                "pending": None,
                "boarding": None,
                "capture": None,
                "in_play": {"btl": [], "blockade": [], "refuse": []},
                "log": [],
                "last": {},
                "result": None,
                "turns": 0,
            }
        )
        events: list[dict] = []
        # Dice for the first dealer: every player rolls, ties among the highest roll again.
        contenders = list(range(n))
        while True:
            rolls = {p: self.rng.d(6) for p in contenders}
            best = max(rolls.values())
            self._ev(
                events,
                "dealer_roll",
                Phrase(
                    N_("Dice for the dealer: {rolls}."),
                    rolls=", ".join(f"{seat_name(p)} {r}" for p, r in rolls.items()),
                ),
            )
            st.setdefault("dealer_rolls", []).append({str(p): r for p, r in rolls.items()})
            contenders = [p for p, r in rolls.items() if r == best]
            if len(contenders) == 1:
                break
        st["dealer"] = contenders[0]
        for p in range(n):
            self._deal_ships(p)
            st["hands"][p] = [st["deck"].pop(0) for _ in range(self.H["cards_each"])]
        self._ev(
            events,
            "deal",
            Phrase(
                N_("Round 1: {dealer} deals {ships} ships and {cards} cards to each player."),
                dealer=seat_name(st["dealer"]),
                ships=self.H["ships_each"],
                cards=self.H["cards_each"],
            ),
        )
        self._begin_play(events)

    def _deal_ships(self, seat: int) -> None:
        """Set-up: the seat's ships are dealt into its Line."""
        for _ in range(self.H["ships_each"]):
            self._take_ship(seat, "line")

    def _begin_play(self, events: list) -> None:
        """Set-up done: the dealer takes the first turn."""
        self._begin_turn(self.state["dealer"], events)

    # ------------------------------------------------------------------ helpers
    def ship(self, sid: str) -> dict:
        return self.state["ships"][sid]

    def card(self, cid: str) -> dict:
        """The printed card (read-only)."""
        return data.card_list()[self.state["cards"][cid]]

    def _ev(self, events: list, etype: str, text: str, **kw) -> dict:
        ev = {"type": etype, "text": text, **kw}
        events.append(ev)
        if "private_to" not in kw and etype not in ("draw", "secret_set"):
            log = self.state["log"]
            log.append(text.to_json() if isinstance(text, Phrase) else text)  # the state is plain JSON
            del log[:-8]
        return ev

    def _priv(self, events: list, seat: int, etype: str, text: str, **kw) -> None:
        events.append({"type": etype, "text": text, "private_to": seat, **kw})

    def sname(self, sid: str) -> str:
        s = self.ship(sid)
        return f"{s['name']} ({s['nation']} {s['rate']})"

    def dmg(self, s: dict, loc: str) -> int:
        return sum(h["dmg"] for h in s["hits"] if h["loc"] == loc)

    def left(self, s: dict, loc: str) -> int:
        return s[loc] - self.dmg(s, loc)

    def dismasted(self, s: dict) -> bool:
        return self.dmg(s, "rig") >= s["rig"]

    def mobile(self, s: dict) -> bool:
        return not self.dismasted(s)

    def _list_of(self, s: dict) -> list:
        return {
            "line": self.state["lines"],
            "prize": self.state["prizes"],
            "port": self.state["ports"],
            "reserve": self.state.get("reserves"),
        }[s["where"]][s["owner"]]

    def _unlist(self, s: dict) -> None:
        """Take a ship out of its Line/Prize/Port/Reserve list (an Advanced prize also holds a Reserve
        station)."""
        self._list_of(s).remove(s["id"])
        if self.adv and s["where"] == "prize":
            self.state["reserves"][s["owner"]].remove(s["id"])

    def at_sea(self, seat: int) -> list[str]:
        if self.adv:  # the Reserve (with its prizes) is at sea too
            return list(self.state["lines"][seat]) + list(self.state["reserves"][seat])
        return list(self.state["lines"][seat]) + list(self.state["prizes"][seat])

    def behind(self, seat: int) -> list[str]:
        """Ships behind the Line: prizes (base) or the whole Reserve, prizes included (Advanced)."""
        return list(self.state["reserves" if self.adv else "prizes"][seat])

    # ------------------------------------------------------------------ rule hooks of the variants
    def line(self, seat: int) -> list[str]:
        """Ships of ``seat`` that form its Line (fire, are fired at, count for capacity)."""
        return list(self.state["lines"][seat])

    def capacity(self, seat: int) -> int:
        """Hand capacity: ships in Line, struck ships not counted, minimum 1."""
        return max(1, sum(1 for sid in self.line(seat) if not self.ship(sid)["struck"]))

    def may_target(self, seat: int, firer: str | None, target: str) -> bool:
        """Extra restriction on which ship a firer's gunfire may reach (the Advanced game's stations)."""
        return True

    def _line_maintenance(self, events: list) -> None:
        """After every change of the fleets (the Advanced game refills an empty Line: 8.3)."""

    def mobile_line_count(self, seat: int) -> int:
        return sum(
            1 for sid in self.line(seat) if self.mobile(self.ship(sid)) and not self.ship(sid)["struck"]
        )

    def broken_by(self, seat: int) -> list[dict]:
        return [b for b in self.state["in_play"]["btl"] if b["target"] == seat]

    def breakers_of(self, b: dict) -> list[str]:
        """The ships that are Line Breakers of the Break the Line card ``b`` (in play)."""
        return sorted(sid for sid, s in self.state["ships"].items() if s["breaker"] == b["card"])

    def breaking_nations(self, seat: int) -> set[str]:
        """Nations whose ships may attack behind ``seat``'s broken Line: those of the Line Breakers
        ("Line Breakers and every other ship ... of the same nationality"). The card has no nation."""
        cards = {b["card"] for b in self.broken_by(seat)}
        if not cards:
            return set()
        return {s["nation"] for s in self.state["ships"].values() if s["breaker"] in cards}

    def refusing(self, seat: int) -> bool:
        return any(r["by"] == seat for r in self.state["in_play"]["refuse"])

    def immune(self, s: dict) -> bool:
        """Refuse Battle makes the owner's mobile ships immune to any attack."""
        return s["owner"] is not None and self.refusing(s["owner"]) and self.mobile(s)

    def _take_ship(self, seat: int, where: str) -> str | None:
        st = self.state
        if not st["ship_deck"]:
            return None
        sid = st["ship_deck"].pop(0)
        s = self.ship(sid)
        s["owner"], s["where"] = seat, where
        if where != "hand":  # "hand": dealt for the secret Advanced arrangement (st["arrange"])
            {"line": st["lines"], "port": st["ports"], "reserve": st.get("reserves")}[where][seat].append(sid)
        return sid

    def _discard(self, cid: str | None) -> None:
        if cid is not None:
            self.state["discard"].append(cid)

    def _from_hand(self, seat: int, cid: str) -> None:
        self.state["hands"][seat].remove(cid)

    # ------------------------------------------------------------------ damage
    def _remove_ship(self, sid: str) -> None:
        s = self.ship(sid)
        self._unlist(s)
        for h in s["hits"]:
            self._discard(h.get("card"))
        for f in s["fires"]:
            self._discard(f["card"])
        s["hits"], s["fires"], s["struck"], s["breaker"] = [], [], False, None

    def _sink(self, sid: str, by: int | None, events: list, how: str) -> None:
        """Ship ``sid`` is lost (``how``: a key of :data:`SINKING`); ``by`` scores her if an enemy."""
        s = self.ship(sid)
        owner = s["owner"]
        self._remove_ship(sid)
        scored, lost = SINKING[how]
        if by is not None and by != owner:
            s["where"], s["owner"] = "sunk", by
            self.state["sunk"][by].append(sid)
            text = Phrase(
                scored,
                owner=seat_name(owner),
                ship=self.sname(sid),
                by=seat_name(by),
                vp=s["hull"] + s["rig"],
            )
            self._ev(events, "sink", text, ship=sid, seat=owner, by=by)
        else:
            s["where"], s["owner"] = "lost", None
            text = Phrase(lost, owner=seat_name(owner), ship=self.sname(sid))
            self._ev(events, "sink", text, ship=sid, seat=owner)
        self._check_cards(events)

    def _damage(
        self,
        sid: str,
        loc: str,
        amount: int,
        kind: str,
        cid: str | None,
        by: int | None,
        events: list,
        btl: str | None = None,
    ) -> bool:
        """Put a hit on a ship; returns True if it sank. ``btl``: the Break the Line card that dealt it
        (its damage is repaired when that card leaves play)."""
        s = self.ship(sid)
        was_mobile = self.mobile(s)
        hit = {"card": cid, "kind": kind, "loc": loc, "dmg": amount}
        if btl is not None:
            hit["btl"] = btl
        s["hits"].append(hit)
        if self.dmg(s, "hull") >= s["hull"]:
            if kind == "fire":
                self._sink(sid, None, events, "explodes")
            else:
                self._sink(sid, by, events, "sinks")
            return True
        if was_mobile and self.dismasted(s):
            self._ev(events, "dismasted", Phrase(N_("{ship} is dismasted."), ship=self.sname(sid)), ship=sid)
            self._check_cards(events)
        return False

    def _fire_damage(self, sid: str, loc: str, events: list) -> bool:
        """One point of fire damage; fire on a dismasted ship spreads to the Hull."""
        s = self.ship(sid)
        if loc == "rig" and self.dismasted(s):
            loc = "hull"
        for h in s["hits"]:
            if h["kind"] == "fire" and h["loc"] == loc:
                was_mobile = self.mobile(s)
                h["dmg"] += 1
                if self.dmg(s, "hull") >= s["hull"]:
                    self._sink(sid, None, events, "explodes")
                    return True
                if was_mobile and self.dismasted(s):
                    dismasted = Phrase(N_("{ship} is dismasted by fire."), ship=self.sname(sid))
                    self._ev(events, "dismasted", dismasted, ship=sid)
                    self._check_cards(events)
                return False
        return self._damage(sid, loc, 1, "fire", None, None, events)

    def _repair_all(self, sid: str) -> None:
        s = self.ship(sid)
        for h in s["hits"]:
            self._discard(h.get("card"))
        for f in s["fires"]:
            self._discard(f["card"])
        s["hits"], s["fires"], s["struck"], s["breaker"] = [], [], False, None

    def _check_cards(self, events: list) -> None:
        """Remove Break the Line cards without breakers and Blockades without a mobile Line (and, in the
        Advanced game, let a Reserve replace an empty Line: 8.3)."""
        st = self.state
        self._line_maintenance(events)
        for b in list(st["in_play"]["btl"]):
            alive = []
            for sid, s in st["ships"].items():
                if s["breaker"] != b["card"]:
                    continue
                if s["where"] == "line" and s["owner"] == b["by"] and not s["struck"] and self.mobile(s):
                    alive.append(sid)
                else:
                    s["breaker"] = None
            if not alive:
                self._btl_leaves(b, events, "no_breaker")
        for k in list(st["in_play"]["blockade"]):
            if self.mobile_line_count(k["by"]) == 0:
                st["in_play"]["blockade"].remove(k)
                self._discard(k["card"])
                self._ev(
                    events,
                    "blockade_end",
                    Phrase(
                        N_("{by}'s Blockade of {target}'s Port is lifted: no mobile ship in Line."),
                        by=seat_name(k["by"]),
                        target=seat_name(k["target"]),
                    ),
                )

    def _btl_leaves(self, b: dict, events: list, why: str) -> None:
        """A Break the Line card leaves play (``why``, a key of :data:`BTL_ENDS`: Weathergauge, no Line
        Breaker left, Refuse Battle played by the breaker): the card is discarded, its Line Breakers lose
        their flags, and every ship escapes it - the 2 Hull + 2 Rigging it dealt are repaired ("The only other way to repair damage is ...
        escaping a Break the Line card"). Other damage stays."""
        st = self.state
        st["in_play"]["btl"].remove(b)
        self._discard(b["card"])
        repaired = []
        for sid in sorted(st["ships"]):  # sorted: the same order after a JSON round trip (sort_keys)
            s = st["ships"][sid]
            if s["breaker"] == b["card"]:
                s["breaker"] = None
            if any(h.get("btl") == b["card"] for h in s["hits"]):
                s["hits"] = [h for h in s["hits"] if h.get("btl") != b["card"]]
                repaired.append(sid)
        text = Phrase(BTL_ENDS[why], by=seat_name(b["by"]), target=seat_name(b["target"]))
        if repaired:
            text = Phrase(
                N_("{ended} Its damage is repaired on {ships}."),
                ended=text,
                ships=", ".join(self.sname(x) for x in repaired),
            )
        self._ev(events, "btl_end", text, seat=b["target"], ships=repaired)

    # ------------------------------------------------------------------ targets
    def breaker_btl(self, sid: str) -> dict | None:
        s = self.ship(sid)
        if s["breaker"] is None:
            return None
        return next((b for b in self.state["in_play"]["btl"] if b["card"] == s["breaker"]), None)

    def can_fire(self, seat: int, sid: str) -> bool:
        s = self.ship(sid)
        return sid in self.line(seat) and self.mobile(s) and not s["struck"]

    def targets(self, seat: int, firer: str | None, gun: bool = True) -> list[str]:
        """Enemy ships that ``firer`` may attack (gunfire excludes struck ships)."""
        cache = self.__dict__.get("_tcache")
        if cache is not None:
            key = f"{seat}:{firer}:{gun}"
            if key not in cache:
                cache[key] = self._targets(seat, firer, gun)
            return cache[key]
        return self._targets(seat, firer, gun)

    def _targets(self, seat: int, firer: str | None, gun: bool) -> list[str]:
        mine = self.breaker_btl(firer) if firer else None
        nation = self.ship(firer)["nation"] if firer else None
        out: list[str] = []
        for q, line_c, prize_c, nations in self._pool(seat, gun):
            if mine and mine["target"] != q:
                continue
            out += line_c
            if prize_c and (firer is None or nation in nations):
                out += prize_c
        if gun and type(self).may_target is not EnemyInSight.may_target:
            out = [sid for sid in out if self.may_target(seat, firer, sid)]
        return out

    def _pool(self, seat: int, gun: bool) -> list:
        """Per opponent: attackable Line ships, prizes (only if broken) and the Line Breakers' nations."""
        cache = self.__dict__.get("_tcache")
        key = f"pool:{seat}:{gun}"
        if cache is not None and key in cache:
            return cache[key]
        pool = []
        for q in range(self.players):
            if q == seat:
                continue
            refusing = self.refusing(q)

            def ok(sid: str, refusing=refusing) -> bool:
                s = self.ship(sid)
                if gun and s["struck"]:
                    return False
                return not (refusing and self.mobile(s))

            broken = bool(self.broken_by(q))
            nations = self.breaking_nations(q)
            line_c = [sid for sid in self.line(q) if ok(sid)]
            prize_c = [sid for sid in self.behind(q) if ok(sid)] if broken else []
            pool.append((q, line_c, prize_c, nations))
        if cache is not None:
            cache[key] = pool
        return pool

    def board_targets(self, seat: int, boarder: str) -> list[str]:
        return [
            t
            for t in self.targets(seat, boarder, gun=False)
            if self.ship(t)["struck"] or self.dismasted(self.ship(t))
        ]

    def firers(self, seat: int, cid: str) -> list[str]:
        c = self.card(cid)
        out = []
        for sid in self.line(seat):
            if not self.can_fire(seat, sid):
                continue
            if c["type"] == "broadside" and self.ship(sid)["rate"] > c["rate"]:
                continue
            if self.targets(seat, sid):
                out.append(sid)
        return out

    def breaker_choices(self, seat: int, cid: str) -> list[str]:
        """Any mobile (unstruck) ship of his Line that is not already a Line Breaker."""
        return [
            sid for sid in self.line(seat) if self.can_fire(seat, sid) and self.ship(sid)["breaker"] is None
        ]

    def max_breakers(self, seat: int) -> int:
        return min(self.H["max_breakers"], len(self.line(seat)) // 2)

    def btl_targets(self, seat: int, cid: str) -> list[int]:
        if not self.breaker_choices(seat, cid) or self.max_breakers(seat) < 1:
            return []
        st = self.state
        return [
            q
            for q in range(self.players)
            if q != seat
            and st["lines"][q]
            and not self.refusing(q)
            and not any(b["by"] == seat and b["target"] == q for b in st["in_play"]["btl"])
        ]

    def fire_ship_targets(self, seat: int) -> list[dict]:
        out: list[dict] = []
        st = self.state
        for sid in self.targets(seat, None, gun=False):
            q = self.ship(sid)["owner"]
            if self.adv and self.refusing(q) and sid in st["lines"][q]:
                continue  # 7.6: not against a Line refusing battle this turn (even its dismasted ships)
            out.append({"ship": sid})
        for q in range(self.players):
            # 7.6 (Advanced): a Fire Ship may enter a Port even under Refuse Battle.
            if q != seat and st["ports"][q] and (self.adv or not self.refusing(q)):
                out.append({"port": q})
        return out

    def blockade_targets(self, seat: int) -> list[int]:
        if (
            any(k["by"] == seat for k in self.state["in_play"]["blockade"])
            or self.mobile_line_count(seat) == 0
        ):
            return []
        return [q for q in range(self.players) if q != seat]

    # ------------------------------------------------------------------ turn flow
    def to_act(self) -> list[int]:
        st = self.state
        ph = st["phase"]
        if ph == "over":
            return []
        if ph in ("arrange", "revise"):
            return [p for p in range(self.players) if not st["arrange"][p]["done"]]
        if ph == "boarding":
            b = st["boarding"]
            return [p for p in (b["att"], b["def"]) if str(p) not in b["choice"]]
        if ph == "capture":
            return [st["capture"]["captor"]]
        return [st["turn"]]

    def undo_veto(self, before: Game, seat: int, action: dict, events: list[dict]) -> Phrase | None:
        """Drawing a card (action or ship) reveals it to the drawer, even when no randomness is drawn
        (the decks were shuffled at setup), and a card that leaves a hand (played or discarded) is shown
        to everyone: a move that changes a deck or a hand may not be undone. Moving ships, choosing
        targets and cancelling a step may."""
        st, old = self.state, before.state
        if len(st["deck"]) < len(old["deck"]) or len(st["ship_deck"]) < len(old["ship_deck"]):
            return Phrase(N_("it drew a card"))
        if sum(map(len, st["hands"])) > sum(map(len, old["hands"])):
            return Phrase(N_("it drew a card"))
        if st["hands"] != old["hands"]:
            return Phrase(N_("it showed a card from a hand"))
        return None

    @property
    def is_over(self) -> bool:
        return self.state.get("phase") == "over"

    @property
    def result(self) -> dict | None:
        return self.state.get("result")

    def _upkeep(self, seat: int, events: list) -> None:
        """Step 1: fire damage grows on burning ships; last turn's Refuse Battle is removed."""
        st = self.state
        for r in list(st["in_play"]["refuse"]):
            if r["by"] == seat:
                st["in_play"]["refuse"].remove(r)
                self._discard(r["card"])
                removed = Phrase(N_("{seat}'s Refuse Battle is removed."), seat=seat_name(seat))
                self._ev(events, "refuse_end", removed)
        for sid in self.at_sea(seat):
            s = self.ship(sid)
            for f in list(s["fires"]):
                if s["where"] not in ("line", "prize", "reserve"):
                    break
                sank = self._fire_damage(sid, f["loc"], events)
                if sank:
                    break
                spreads = Phrase(N_("Fire spreads on {ship}."), ship=self.sname(sid))
                self._ev(events, "fire_grows", spreads, ship=sid)

    def _begin_turn(self, seat: int, events: list) -> None:
        """Run turns automatically until a seat must choose (or the game ends)."""
        st = self.state
        guard = 0
        while True:
            guard += 1
            if guard > 200:  # pragma: no cover - safety net
                raise RuntimeError("turn loop did not settle")
            st["turn"], st["phase"], st["pending"] = seat, "turn", None
            st["turns"] += 1
            self._upkeep(seat, events)
            need = self.capacity(seat) - len(st["hands"][seat])
            if need > 0:
                if len(st["deck"]) < need:
                    self._ev(
                        events,
                        "deck_out",
                        Phrase(
                            N_("{seat} cannot draw: the action deck is spent. Round {round} ends."),
                            seat=seat_name(seat),
                            round=st["round"],
                        ),
                    )
                    if self._end_round(events):
                        return
                    seat = st["dealer"]
                    continue
                drawn = [st["deck"].pop(0) for _ in range(need)]
                st["hands"][seat] += drawn
                self._ev(
                    events,
                    "draw",
                    Phrase.ngettext(
                        "{seat} draws {n} card.", "{seat} draws {n} cards.", need, seat=seat_name(seat)
                    ),
                    seat=seat,
                )
                self._priv(
                    events,
                    seat,
                    "draw_private",
                    Phrase(
                        N_("You draw: {cards}."), cards=listed([card_phrase(self.card(c)) for c in drawn])
                    ),
                    cards=drawn,
                )
            reds = [c for c in st["hands"][seat] if self.card(c)["red"]]
            if reds:
                kinds = {self.card(c)["name"] for c in reds}
                if len(kinds) > 1:
                    st["phase"] = "red"
                    return
                self._play_red(seat, reds[0], events)
                if st["phase"] == "over":
                    return
                # play passes on from whoever played the card (a receiver plays it as his turn)
                seat = (st["turn"] + 1) % self.players
                continue
            return

    def _end_turn(self, events: list) -> None:
        st = self.state
        self._check_cards(events)
        if st["phase"] == "over":
            return
        self._begin_turn((st["turn"] + 1) % self.players, events)

    # ------------------------------------------------------------------ rounds
    def _score_round(self, events: list) -> None:
        st = self.state
        self._line_maintenance(events)
        for p in range(self.players):
            gained = 0
            parts: list = []
            for sid in st["sunk"][p]:
                s = self.ship(sid)
                gained += s["hull"] + s["rig"]
                s["where"] = "scored"
            if st["sunk"][p]:
                parts.append(
                    Phrase.ngettext(
                        "{n} sunk ship {vp}", "{n} sunk ships {vp}", len(st["sunk"][p]), vp=gained
                    )
                )
            st["sunk"][p] = []
            for sid in list(st["prizes"][p]):
                s = self.ship(sid)
                vp = max(0, self.left(s, "hull")) + max(0, self.left(s, "rig"))
                gained += vp
                parts.append(Phrase(N_("prize {ship} {vp}"), ship=s["name"], vp=vp))
                self._remove_ship(sid)
                s["where"], s["owner"] = "scored", None
            if not st["lines"][p]:
                gained -= self.H["no_line_penalty"]
                parts.append(Phrase(N_("no ship in Line -{vp}"), vp=self.H["no_line_penalty"]))
            st["scores"][p] += gained
            if parts:
                self._ev(
                    events,
                    "score",
                    Phrase(
                        N_("{seat} scores {vp} VP ({parts}); total {total}."),
                        seat=seat_name(p),
                        vp=f"{gained:+d}",
                        parts=listed(parts, SEMICOLONS),
                        total=st["scores"][p],
                    ),
                    seat=p,
                )

    def _end_round(self, events: list) -> bool:
        """Score the round; returns True when the game is over."""
        st = self.state
        self._score_round(events)
        top = max(st["scores"])
        if top >= self.H["target_vp"] or st["round"] >= self.H["max_rounds"]:
            self._finish(events)
            return True
        # New round = a new battle: the dealer passes clockwise; every player keeps his Line, Port and
        # ships, but the fleets refit: hit and fire cards leave the ships and every card in play is
        # discarded; hands, discards and the deck are shuffled into a new action deck.
        st["round"] += 1
        st["dealer"] = (st["dealer"] + 1) % self.players
        for kind in ("btl", "blockade", "refuse"):
            for x in st["in_play"][kind]:
                self._discard(x["card"])
            st["in_play"][kind] = []
        for p in range(self.players):
            for sid in st["lines"][p] + st["ports"][p] + (st["reserves"][p] if self.adv else []):
                self._repair_all(sid)
        pool = st["deck"] + st["discard"]
        for p in range(self.players):
            pool += st["hands"][p]
            st["hands"][p] = []
        st["discard"] = []
        pool.sort()
        self.rng.shuffle(pool)
        st["deck"] = pool
        self._ev(
            events,
            "round",
            Phrase(
                N_(
                    "Round {round}: {dealer} deals; the action deck is reshuffled, the fleets refit and "
                    "every hand is drawn anew."
                ),
                round=st["round"],
                dealer=seat_name(st["dealer"]),
            ),
        )
        for p in range(self.players):
            if not st["lines"][p]:
                sid = self._take_ship(p, "line")
                if sid:
                    self._ev(
                        events,
                        "reinforce",
                        Phrase(
                            N_("{seat} has no Line and takes {ship} from the ship pile."),
                            seat=seat_name(p),
                            ship=self.sname(sid),
                        ),
                        seat=p,
                        ship=sid,
                    )
        for i in range(self.players):
            p = (st["dealer"] + i) % self.players
            cap = self.capacity(p)
            take = min(cap, len(st["deck"]))
            st["hands"][p] = [st["deck"].pop(0) for _ in range(take)]
        return False

    def _finish(self, events: list) -> None:
        st = self.state
        top = max(st["scores"])
        winners = [p for p in range(self.players) if st["scores"][p] == top]
        st["phase"] = "over"
        st["pending"] = None
        st["result"] = {"scores": {str(p): st["scores"][p] for p in range(self.players)}, "winners": winners}
        self._ev(
            events,
            "game_over",
            Phrase.ngettext(
                "Game over after round {round}: {winners} wins with {vp} VP.",
                "Game over after round {round}: {winners} win with {vp} VP.",
                len(winners),
                round=st["round"],
                winners=seats_and(winners),
                vp=top,
            ),
        )

    def _add_score(self, seat: int, vp: int, events: list) -> None:
        st = self.state
        st["scores"][seat] += vp
        if st["scores"][seat] >= self.H["target_vp"] and st["phase"] != "over":
            self._ev(
                events,
                "target",
                Phrase(
                    N_("{seat} reaches {vp} VP: the round ends now."),
                    seat=seat_name(seat),
                    vp=st["scores"][seat],
                ),
            )
            self._score_round(events)
            self._finish(events)

    # ------------------------------------------------------------------ red cards
    def red_affects(self, seat: int, cid: str) -> bool:
        t = self.card(cid)["type"]
        if t == "weathergauge":
            return True
        if t == "fire":
            return any(self.ship(s)["hits"] for s in self.at_sea(seat))
        if t == "strike":
            return bool(self._strike_candidates(seat))
        if t == "run_aground":
            return bool(self.at_sea(seat))
        if t == "admiralty":
            return bool(self._admiralty_candidates(seat))
        return False

    def _strike_candidates(self, seat: int) -> list[str]:
        out = []
        for sid in self.line(seat):
            s = self.ship(sid)
            if (
                not s["struck"]
                and self.dmg(s, "hull") > 0
                and self.left(s, "hull") < self.H["strike_below_hull"]
            ):
                out.append(sid)
        return out

    def _admiralty_candidates(self, seat: int) -> list[str]:
        return [
            sid for sid in self.line(seat) if self.mobile(self.ship(sid)) and not self.ship(sid)["struck"]
        ]

    def _play_red(self, seat: int, cid: str, events: list) -> None:
        """The holder plays a red card; if it does not affect him it passes clockwise. Passing ends a
        player's turn; a receiver applies step 1 and plays the card, and "this counts as his sole card
        drawn and played for his turn": ``turn`` moves to the player who played it (or stays with the
        holder who discards it after a round trip), and the next turn is the one after him."""
        self._from_hand(seat, cid)
        name = card_phrase(self.card(cid))
        must = Phrase(N_("{seat} must play the red card {card}."), seat=seat_name(seat), card=name)
        self._ev(events, "red", must, seat=seat)
        p = seat
        while True:
            if self.red_affects(p, cid):
                self._apply_red(p, cid, events)
                break
            q = (p + 1) % self.players
            if q == seat:
                self._discard(cid)
                self.state["turn"] = seat
                self._ev(
                    events,
                    "red_discard",
                    Phrase(
                        N_("{card} affects nobody and returns to {seat}, who discards it."),
                        card=name,
                        seat=seat_name(seat),
                    ),
                )
                break
            passes = Phrase(
                N_("{card} has no effect on {seat} and passes to {next}."),
                card=name,
                seat=seat_name(p),
                next=seat_name(q),
            )
            self._ev(events, "red_pass", passes)
            p = q
            self.state["turn"] = p  # the card is the receiver's turn
            self._upkeep(p, events)
            if self.state["phase"] == "over":
                return
        self._check_cards(events)

    def _apply_red(self, p: int, cid: str, events: list) -> None:
        st = self.state
        c = self.card(cid)
        t = c["type"]
        if t == "weathergauge":
            for b in list(st["in_play"]["btl"]):
                self._btl_leaves(b, events, "weathergauge")
            for kind in ("blockade", "refuse"):
                for x in st["in_play"][kind]:
                    self._discard(x["card"])
                st["in_play"][kind] = []
            deck = sorted(st["ship_deck"])
            self.rng.shuffle(deck)
            st["ship_deck"] = deck
            self._discard(cid)
            self._ev(
                events,
                "weathergauge",
                Phrase(
                    N_(
                        "Weathergauge ({seat}): every Break the Line, Blockade and Refuse Battle is discarded "
                        "and the ship pile is reshuffled."
                    ),
                    seat=seat_name(p),
                ),
            )
        elif t == "fire":
            cands = [s for s in self.at_sea(p) if self.ship(s)["hits"]]
            sid = self.rng.choice(cands)
            roll = self.rng.d(6)
            loc = "hull" if roll <= c["hull_max"] else "rig"
            s = self.ship(sid)
            s["fires"].append({"card": cid, "loc": loc})
            self._ev(
                events,
                "fire",
                Phrase(
                    N_("Fire! {seat}'s {ship} catches fire in the {part} (die {roll})."),
                    seat=seat_name(p),
                    ship=self.sname(sid),
                    part=part(loc),
                    roll=roll,
                ),
                ship=sid,
                roll=roll,
                seat=p,
            )
            self._fire_damage(sid, loc, events)
        elif t == "strike":
            self._discard(cid)
            for sid in self._strike_candidates(p):
                s = self.ship(sid)
                roll = self.rng.d(6)
                left = self.left(s, "hull")
                if roll >= left:
                    s["struck"] = True
                    self._ev(
                        events,
                        "strike",
                        Phrase(
                            N_("{seat}'s {ship} strikes its colours (die {roll} >= {left} Hull left)."),
                            seat=seat_name(p),
                            ship=self.sname(sid),
                            roll=roll,
                            left=left,
                        ),
                        ship=sid,
                        roll=roll,
                    )
                else:
                    self._ev(
                        events,
                        "strike_no",
                        Phrase(
                            N_("{seat}'s {ship} fights on (die {roll} < {left} Hull left)."),
                            seat=seat_name(p),
                            ship=self.sname(sid),
                            roll=roll,
                            left=left,
                        ),
                        ship=sid,
                        roll=roll,
                    )
        elif t == "run_aground":
            self._discard(cid)
            sid = self.rng.choice(self.at_sea(p))
            s = self.ship(sid)
            roll = self.rng.d(6)
            if roll >= s["rate"]:
                self._ev(
                    events,
                    "aground",
                    Phrase(
                        N_("{seat}'s {ship} runs aground (die {roll} >= rate {rate})."),
                        seat=seat_name(p),
                        ship=self.sname(sid),
                        roll=roll,
                        rate=s["rate"],
                    ),
                    ship=sid,
                    roll=roll,
                )
                self._sink(sid, None, events, "wrecked")
            else:
                self._ev(
                    events,
                    "aground_no",
                    Phrase(
                        N_("{seat}'s {ship} scrapes off a shoal (die {roll} < rate {rate})."),
                        seat=seat_name(p),
                        ship=self.sname(sid),
                        roll=roll,
                        rate=s["rate"],
                    ),
                    ship=sid,
                    roll=roll,
                )
        elif t == "admiralty":
            self._discard(cid)
            sid = self.rng.choice(self._admiralty_candidates(p))
            self._to_port(sid)
            self._ev(
                events,
                "admiralty",
                Phrase(
                    N_("Admiralty's Orders: {seat}'s {ship} returns to Port."),
                    seat=seat_name(p),
                    ship=self.sname(sid),
                ),
                ship=sid,
            )

    def _to_port(self, sid: str) -> None:
        s = self.ship(sid)
        self._unlist(s)
        self._repair_all(sid)
        s["where"] = "port"
        self.state["ports"][s["owner"]].append(sid)

    # ------------------------------------------------------------------ legal actions
    def legal_actions(self, seat: int) -> list[dict]:
        if seat not in self.to_act():
            return []
        self._tcache: dict[str, Any] | None = {}
        try:
            return self._legal_actions(seat)
        finally:
            self._tcache = None

    def is_legal(self, seat: int, action: dict) -> bool:
        legal = self.legal_actions(seat)
        if action in legal:
            return True
        for a in legal:
            if "ships" not in a or not isinstance(action, dict):
                continue
            if choice_fields(a) and fits(a, action):
                return True
            if {k: v for k, v in a.items() if k != "ships"} == action:
                return True  # as logged before ships were chosen at once: then chosen step by step
        return False

    def _legal_actions(self, seat: int) -> list[dict]:
        st = self.state
        ph = st["phase"]
        if ph == "red":
            seen, out = set(), []
            for c in st["hands"][seat]:
                if self.card(c)["red"] and self.card(c)["name"] not in seen:
                    seen.add(self.card(c)["name"])
                    out.append({"type": "red", "card": c})
            return out
        if ph == "boarding":
            return [{"type": "secret", "card": c} for c in self.unique_hand(seat)] + [
                {"type": "secret", "card": None}
            ]
        if ph == "capture":
            return self._capture_actions(seat)
        pend = st["pending"]
        if pend is None:
            return self._card_actions(seat)
        step = pend["step"]
        if step == "aim":
            out = [
                {"type": "shoot", "ship": t, "loc": loc}
                for t in self.targets(seat, pend["firer"])
                for loc in LOCS
            ]
            return out + [{"type": "cancel"}]
        if step == "extra":
            return self._extra_actions(seat, pend) + [{"type": "done"}]
        if step == "breakers":
            out = []
            if len(pend["chosen"]) < self.max_breakers(seat):
                out += [
                    {"type": "breaker", "ship": s}
                    for s in self.breaker_choices(seat, pend["card"])
                    if s not in pend["chosen"]
                ]
            if pend["chosen"]:
                out.append({"type": "done"})
            return out + [{"type": "cancel"}]
        if step == "move":
            out = [{"type": "move", "ship": s} for s in self._movable(seat, pend["mode"])]
            if self._move_ok(seat, pend["chosen"]):
                out.append({"type": "done"})
            return out + [{"type": "cancel"}]
        return []

    def _capture_actions(self, seat: int) -> list[dict]:
        return [{"type": "capture", "where": "line"}, {"type": "capture", "where": "prize"}]

    def _card_actions(self, seat: int) -> list[dict]:
        st = self.state
        out: list[dict] = []
        for cid in self.unique_hand(seat):
            c = self.card(cid)
            t = c["type"]
            if t in ("broadside", "rake"):
                out += [{"type": "play", "card": cid, "ship": f} for f in self.firers(seat, cid)]
            elif t == "boarding":
                for b in self.line(seat):
                    if self.can_fire(seat, b):
                        out += [
                            {"type": "play", "card": cid, "ship": b, "target": tg}
                            for tg in self.board_targets(seat, b)
                        ]
            elif t == "break_line":
                out += [
                    {"type": "play", "card": cid, "seat": q, "ships": self._breakers_choice(seat, cid)}
                    for q in self.btl_targets(seat, cid)
                ]
            elif t == "repair":
                for sid in self.at_sea(seat):
                    out += [
                        {"type": "play", "card": cid, "ship": sid, "hit": i}
                        for i, h in enumerate(self.ship(sid)["hits"])
                        if h["kind"] == "broadside"
                    ]
            elif t == "bucket":
                for sid in self.at_sea(seat):
                    out += [
                        {"type": "play", "card": cid, "ship": sid, "hit": i}
                        for i, _f in enumerate(self.ship(sid)["fires"])
                    ]
            elif t == "additional_ship":
                if st["ship_deck"]:  # 7.4 (Advanced): to the Reserve or the Port
                    out += [
                        {"type": "play", "card": cid, "where": w}
                        for w in (("reserve", "port") if self.adv else ("line", "port"))
                    ]
            elif t == "refuse_battle":
                if not self.broken_by(seat):
                    movable = self._movable(seat, "play")
                    out.append({"type": "play", "card": cid, "ships": ships_choice(movable, 0, len(movable))})
            elif t == "fire_ship":
                out += [{"type": "play", "card": cid, **tg} for tg in self.fire_ship_targets(seat)]
            elif t == "blockade":
                out += [{"type": "play", "card": cid, "seat": q} for q in self.blockade_targets(seat)]
            if t == "refuse_battle" and st["ports"][seat]:
                # discarded to bring ships out of Port: which ones (none is a choice too)
                port = list(st["ports"][seat])
                out.append({"type": "discard", "card": cid, "ships": ships_choice(port, 0, len(port))})
            else:
                out.append({"type": "discard", "card": cid})
        return out

    def _breakers_choice(self, seat: int, cid: str) -> dict | list:
        """The Line Breakers of a Break the Line: 1 up to ``max_breakers`` of ``breaker_choices``."""
        return ships_choice(self.breaker_choices(seat, cid), 1, self.max_breakers(seat))

    def _extra_actions(self, seat: int, pend: dict) -> list[dict]:
        out: list[dict] = []
        used = pend["used"]
        for cid in self.unique_hand(seat):
            t = self.card(cid)["type"]
            if (t == "broadside" and not used["main"]) or (t == "rake" and not used["rake"]):
                out += [{"type": "play", "card": cid, "ship": f} for f in self.firers(seat, cid)]
            elif t == "boarding" and pend.get("last_target"):
                tg = pend["last_target"]
                for b in self.line(seat):
                    if self.can_fire(seat, b) and tg in self.board_targets(seat, b):
                        out.append({"type": "board", "card": cid, "ship": b})
        return out

    def unique_hand(self, seat: int) -> list[str]:
        """The hand with identical copies collapsed (the first copy stands for all)."""
        seen, out = set(), []
        for cid in self.state["hands"][seat]:
            name = self.card(cid)["name"]
            if name not in seen:
                seen.add(name)
                out.append(cid)
        return out

    def _movable(self, seat: int, mode: str) -> list[str]:
        st = self.state
        out = list(st["ports"][seat])
        if mode == "play":
            out += list(st["lines"][seat]) + list(st["prizes"][seat])
            if self.adv:  # house rule: Reserve ships may withdraw to Port as well
                out += [s for s in st["reserves"][seat] if self.ship(s)["where"] == "reserve"]
        return out

    def _move_ok(self, seat: int, chosen: list[str]) -> bool:
        """Dismasted ships go to Port only towed: one mobile ship going to Port per dismasted one."""
        going = [self.ship(s) for s in chosen if self.ship(s)["where"] in ("line", "prize", "reserve")]
        tows = sum(1 for s in going if self.mobile(s))
        towed = sum(1 for s in going if not self.mobile(s))
        return towed <= tows

    # ------------------------------------------------------------------ apply
    def _apply(self, seat: int, action: dict) -> list[dict]:
        st = self.state
        events: list[dict] = []
        t = action["type"]
        ph = st["phase"]
        if ph == "red":
            self._play_red(seat, action["card"], events)
            if st["phase"] != "over":
                self._end_turn(events)
            return events
        if ph == "boarding":
            return self._boarding_choice(seat, action["card"], events)
        if ph == "capture":
            self._capture_choice(seat, action["where"], events, action.get("station"))
            return events
        pend = st["pending"]
        if t == "discard":
            cid = action["card"]
            if self.card(cid)["type"] == "refuse_battle" and st["ports"][seat]:
                return self._refuse_battle(seat, cid, "discard", action.get("ships"), events)
            self._from_hand(seat, cid)
            self._discard(cid)
            discards = Phrase(
                N_("{seat} discards {card}."), seat=seat_name(seat), card=card_phrase(self.card(cid))
            )
            self._ev(events, "discard", discards, seat=seat)
            self._end_turn(events)
            return events
        if t == "cancel":
            if pend and pend["step"] == "aim" and (pend["used"]["main"] or pend["used"]["rake"]):
                st["pending"] = {**pend, "step": "extra"}
                del st["pending"]["card"], st["pending"]["firer"]
            else:
                st["pending"] = None
            return events
        if t == "done":
            if pend["step"] in ("extra", "transfer"):
                self._end_turn(events)
            elif pend["step"] == "breakers":
                self._do_break_line(seat, pend, events)
                self._end_turn(events)
            elif pend["step"] == "move":
                self._do_move(seat, pend, events)
                if st["phase"] != "over":
                    self._end_turn(events)
            return events
        if t == "breaker":
            pend["chosen"].append(action["ship"])
            return events
        if t == "move":
            sid = action["ship"]
            if sid in pend["chosen"]:
                pend["chosen"].remove(sid)
            else:
                pend["chosen"].append(sid)
            return events
        if t == "shoot":
            self._shoot(seat, pend, action["ship"], action["loc"], events)
            return events
        if t == "board":
            self._from_hand(seat, action["card"])
            self._start_boarding(seat, action["card"], action["ship"], pend["last_target"], events)
            return events
        if t == "play":
            return self._play(seat, action, events)
        raise IllegalAction(Phrase(N_("unknown action {kind}"), kind=repr(t)))

    def _play(self, seat: int, a: dict, events: list) -> list[dict]:
        st = self.state
        cid = a["card"]
        c = self.card(cid)
        t = c["type"]
        who = seat_name(seat)
        if t in ("broadside", "rake"):
            prev = st["pending"] or {}
            used = prev.get("used", {"main": False, "rake": False})
            st["pending"] = {
                "step": "aim",
                "card": cid,
                "firer": a["ship"],
                "used": used,
                "last_target": prev.get("last_target"),
            }
            return events
        if t == "break_line":
            pend = {"step": "breakers", "card": cid, "target": a["seat"], "chosen": []}
            if not isinstance(a.get("ships"), list):  # the Line Breakers still to choose, one by one
                st["pending"] = pend
                return events
            self._do_break_line(seat, {**pend, "chosen": list(a["ships"])}, events)
            self._end_turn(events)
            return events
        if t == "refuse_battle":
            return self._refuse_battle(seat, cid, "play", a.get("ships"), events)
        self._from_hand(seat, cid)
        if t == "boarding":
            self._start_boarding(seat, cid, a["ship"], a["target"], events)
            return events
        if t == "repair":
            s = self.ship(a["ship"])
            h = s["hits"].pop(a["hit"])
            self._discard(h["card"])
            self._discard(cid)
            self._ev(
                events,
                "repair",
                Phrase(
                    N_("{seat} repairs {damage} {part} damage on {ship}."),
                    seat=who,
                    damage=h["dmg"],
                    part=part(h["loc"]),
                    ship=self.sname(a["ship"]),
                ),
                seat=seat,
                ship=a["ship"],
            )
        elif t == "bucket":
            s = self.ship(a["ship"])
            f = s["fires"].pop(a["hit"])
            self._discard(f["card"])
            self._discard(cid)
            self._ev(
                events,
                "bucket",
                Phrase(
                    N_("{seat}'s Bucket Brigade puts out the fire on {ship}."),
                    seat=who,
                    ship=self.sname(a["ship"]),
                ),
                seat=seat,
                ship=a["ship"],
            )
        elif t == "additional_ship":
            sid = self._take_ship(seat, a["where"])
            assert sid is not None  # the card is legal only while the ship deck has a ship
            self._discard(cid)
            self._ev(
                events,
                "additional",
                Phrase(ADDED_TO[a["where"]], seat=who, ship=self.sname(sid)),
                seat=seat,
                ship=sid,
            )
        elif t == "fire_ship":
            self._discard(cid)
            self._fire_ship(seat, a, events)
        elif t == "blockade":
            st["in_play"]["blockade"].append({"card": cid, "by": seat, "target": a["seat"]})
            blockades = Phrase(N_("{seat} blockades {target}'s Port."), seat=who, target=seat_name(a["seat"]))
            self._ev(events, "blockade", blockades, seat=seat)
        st["last"] = {"seat": seat, "ships": [a["ship"]] if "ship" in a else []}
        if st["phase"] != "over":
            self._end_turn(events)
        return events

    def _refuse_battle(self, seat: int, cid: str, mode: str, ships: object, events: list) -> list[dict]:
        """Refuse Battle played (``mode`` "play") or discarded to bring ships out of Port ("discard"),
        with the ships to move chosen at once (a list), or still to choose one by one."""
        pend = {"step": "move", "card": cid, "mode": mode, "chosen": []}
        if not isinstance(ships, list):
            self.state["pending"] = pend
            return events
        if not self._move_ok(seat, ships):
            raise IllegalAction(
                Phrase(N_("a dismasted ship goes to Port only towed: send a mobile ship with each"))
            )
        self._do_move(seat, {**pend, "chosen": list(ships)}, events)
        if self.state["phase"] != "over":
            self._end_turn(events)
        return events

    def _shoot(self, seat: int, pend: dict, tid: str, loc: str, events: list) -> None:
        st = self.state
        cid, firer = pend["card"], pend["firer"]
        c = self.card(cid)
        self._from_hand(seat, cid)
        owner = self.ship(tid)["owner"]
        self._ev(
            events,
            "shot",
            Phrase(
                N_("{seat}'s {ship} fires a {card} at {owner}'s {target}: {damage} {part}."),
                seat=seat_name(seat),
                ship=self.sname(firer),
                card=card_phrase(c),
                owner=seat_name(owner),
                target=self.sname(tid),
                damage=c["damage"],
                part=part(loc),
            ),
            seat=seat,
            ship=tid,
            firer=firer,
        )
        st["last"] = {"seat": seat, "ships": [tid], "firer": firer}
        used = dict(pend["used"])
        used["main" if c["type"] == "broadside" else "rake"] = True
        sank = self._damage(tid, loc, c["damage"], c["type"], cid, seat, events)
        if st["phase"] == "over":
            return
        st["pending"] = {"step": "extra", "used": used, "last_target": None if sank else tid}
        if not self._extra_actions(seat, st["pending"]):
            self._end_turn(events)

    def _fire_ship(self, seat: int, a: dict, events: list) -> None:
        if "port" in a:
            q = a["port"]
            tgts = list(self.state["ports"][q])
            self._ev(
                events,
                "fire_ship",
                Phrase(
                    N_("{seat} sends a Fire Ship into {target}'s Port."),
                    seat=seat_name(seat),
                    target=seat_name(q),
                ),
                seat=seat,
            )
        else:
            tgts = [a["ship"]]
            self._ev(
                events,
                "fire_ship",
                Phrase(
                    N_("{seat} sends a Fire Ship against {owner}'s {ship}."),
                    seat=seat_name(seat),
                    owner=seat_name(self.ship(a["ship"])["owner"]),
                    ship=self.sname(a["ship"]),
                ),
                seat=seat,
            )
        for sid in tgts:
            s = self.ship(sid)
            roll = self.rng.d(6)
            bonus = self.fire_ship_modifier(s)
            total = roll + bonus
            mod = f"{bonus:+d}" if bonus else ""
            if total >= self.H["fire_ship_sinks_at"]:
                self._ev(
                    events,
                    "fire_ship_hit",
                    Phrase(
                        N_("{ship} burns (die {roll} = {total})."),
                        ship=self.sname(sid),
                        roll=f"{roll}{mod}",
                        total=total,
                    ),
                    ship=sid,
                    roll=roll,
                )
                self._sink(sid, seat, events, "burns")
            else:
                self._ev(
                    events,
                    "fire_ship_miss",
                    Phrase(
                        N_("{ship} escapes the fire ship (die {roll} = {total})."),
                        ship=self.sname(sid),
                        roll=f"{roll}{mod}",
                        total=total,
                    ),
                    ship=sid,
                    roll=roll,
                )

    def fire_ship_modifier(self, s: dict) -> int:
        """What is added to the Fire Ship's die against ship ``s``: +1 in Port or dismasted."""
        return 1 if (s["where"] == "port" or self.dismasted(s)) else 0

    def _do_break_line(self, seat: int, pend: dict, events: list) -> None:
        st = self.state
        cid, q = pend["card"], pend["target"]
        self._from_hand(seat, cid)
        st["in_play"]["btl"].append({"card": cid, "by": seat, "target": q})
        for sid in pend["chosen"]:
            self.ship(sid)["breaker"] = cid
        self._ev(
            events,
            "break_line",
            Phrase(
                N_(
                    "{seat} breaks {target}'s Line with {ships}: {damage} Hull and {damage} Rigging to every ship in and behind it."
                ),
                seat=seat_name(seat),
                target=seat_name(q),
                ships=", ".join(self.sname(s) for s in pend["chosen"]),
                damage=self.H["break_line_damage"],
            ),
            seat=seat,
            target=q,
        )
        hit_ships = list(st["lines"][q]) + self.behind(q)
        st["last"] = {"seat": seat, "ships": hit_ships}
        d = self.H["break_line_damage"]
        for sid in hit_ships:
            for loc in LOCS:
                if self.ship(sid)["where"] in ("line", "prize", "reserve"):
                    self._damage(sid, loc, d, "btl", None, seat, events, btl=cid)

    def _blockade_pass(self, seat: int, sid: str, events: list) -> bool:
        for k in self.state["in_play"]["blockade"]:
            if k["target"] != seat:
                continue
            roll = self.rng.d(6)
            force = self.mobile_line_count(k["by"])
            if roll <= force:
                self._ev(
                    events,
                    "blockade_stop",
                    Phrase(
                        N_("{seat}'s Blockade stops {ship} (die {roll} <= {force})."),
                        seat=seat_name(k["by"]),
                        ship=self.sname(sid),
                        roll=roll,
                        force=force,
                    ),
                    ship=sid,
                    roll=roll,
                )
                return False
            self._ev(
                events,
                "blockade_pass",
                Phrase(
                    N_("{ship} slips past {seat}'s Blockade (die {roll} > {force})."),
                    ship=self.sname(sid),
                    seat=seat_name(k["by"]),
                    roll=roll,
                    force=force,
                ),
                ship=sid,
                roll=roll,
            )
        return True

    def _do_move(self, seat: int, pend: dict, events: list) -> None:
        st = self.state
        cid, mode = pend["card"], pend["mode"]
        self._from_hand(seat, cid)
        who = seat_name(seat)
        if mode == "play":
            # Playing Refuse Battle removes the player's own Break the Line and Blockade cards.
            for b in [x for x in st["in_play"]["btl"] if x["by"] == seat]:
                self._btl_leaves(b, events, "refused")
            for x in list(st["in_play"]["blockade"]):
                if x["by"] == seat:
                    st["in_play"]["blockade"].remove(x)
                    self._discard(x["card"])
            st["in_play"]["refuse"].append({"card": cid, "by": seat})
            self._ev(
                events,
                "refuse",
                Phrase(N_("{seat} plays Refuse Battle: mobile ships immune until the next turn."), seat=who),
                seat=seat,
            )
        else:
            self._discard(cid)
            self._ev(
                events,
                "refuse_discard",
                Phrase(N_("{seat} discards Refuse Battle to bring ships out of Port."), seat=who),
                seat=seat,
            )
        chosen = [self.ship(s) for s in pend["chosen"]]
        out_of_port = [s for s in chosen if s["where"] == "port"]
        mobile_in = [s for s in chosen if s["where"] != "port" and self.mobile(s)]
        towed_in = [s for s in chosen if s["where"] != "port" and not self.mobile(s)]
        moved = []
        tows = 0
        for s in mobile_in:
            if st["phase"] == "over":
                return
            if self._blockade_pass(seat, s["id"], events):
                tows += 1
                moved.append(s["id"])
                self._withdraw(seat, s["id"], events)
        for s in towed_in:
            if st["phase"] == "over":
                return
            if tows <= 0:
                stays = Phrase(N_("{ship} stays at sea: no ship to tow her."), ship=self.sname(s["id"]))
                self._ev(events, "no_tow", stays)
                continue
            if self._blockade_pass(seat, s["id"], events):
                tows -= 1
                moved.append(s["id"])
                self._withdraw(seat, s["id"], events)
        if st["phase"] == "over":
            return
        for s in out_of_port:
            if self._blockade_pass(seat, s["id"], events):
                st["ports"][seat].remove(s["id"])
                s["where"] = "line"
                st["lines"][seat].append(s["id"])
                moved.append(s["id"])
                self._ev(
                    events,
                    "to_line",
                    Phrase(
                        N_("{seat}'s {ship} sails from Port into the Line."),
                        seat=who,
                        ship=self.sname(s["id"]),
                    ),
                    ship=s["id"],
                )
                for b in self.broken_by(seat):
                    for loc in LOCS:
                        if s["where"] == "line":
                            self._damage(
                                s["id"],
                                loc,
                                self.H["break_line_damage"],
                                "btl",
                                None,
                                b["by"],
                                events,
                                btl=b["card"],
                            )
        st["last"] = {"seat": seat, "ships": moved}
        self._check_cards(events)

    def _withdraw(self, seat: int, sid: str, events: list) -> None:
        s = self.ship(sid)
        if s["where"] == "prize":
            vp = 2 * (s["hull"] + s["rig"])
            self._remove_ship(sid)
            s["where"], s["owner"] = "scored", None
            self._ev(
                events,
                "prize_port",
                Phrase(
                    N_("{seat} brings the prize {ship} into Port: +{vp} VP."),
                    seat=seat_name(seat),
                    ship=self.sname(sid),
                    vp=vp,
                ),
                seat=seat,
                ship=sid,
            )
            self._add_score(seat, vp, events)
            return
        self._to_port(sid)
        self._ev(
            events,
            "to_port",
            Phrase(
                N_("{seat}'s {ship} withdraws to Port and is repaired."),
                seat=seat_name(seat),
                ship=self.sname(sid),
            ),
            ship=sid,
        )

    # ------------------------------------------------------------------ boarding
    def _start_boarding(self, seat: int, cid: str, boarder: str, target: str, events: list) -> None:
        st = self.state
        self._discard(cid)
        tgt = self.ship(target)
        owner = tgt["owner"]
        st["last"] = {"seat": seat, "ships": [target], "firer": boarder}
        self._ev(
            events,
            "boarding",
            Phrase(
                N_("{seat}'s {ship} boards {owner}'s {target}."),
                seat=seat_name(seat),
                ship=self.sname(boarder),
                owner=seat_name(owner),
                target=self.sname(target),
            ),
            seat=seat,
            ship=target,
            firer=boarder,
        )
        if tgt["struck"]:
            surrenders = Phrase(N_("{ship} has struck and surrenders."), ship=self.sname(target))
            self._ev(events, "surrender", surrenders, ship=target)
            self._capture(target, seat, events)
            return
        st["pending"] = None
        st["phase"] = "boarding"
        st["boarding"] = {"att": seat, "def": owner, "boarder": boarder, "target": target, "choice": {}}

    def _card_hits(self, cid: str | None, sid: str) -> int:
        if cid is None:
            return 0
        c = self.card(cid)
        if c["type"] == "rake":
            return c["damage"]
        if c["type"] == "broadside" and self.ship(sid)["rate"] <= c["rate"]:
            return c["damage"]
        return 0

    def _boarding_choice(self, seat: int, cid: str | None, events: list) -> list[dict]:
        st = self.state
        b = st["boarding"]
        b["choice"][str(seat)] = cid
        chose = (
            Phrase(N_("You chose {card}."), card=card_phrase(self.card(cid)))
            if cid
            else Phrase(N_("You chose no card."))
        )
        self._priv(events, seat, "secret", chose)
        if len(b["choice"]) < 2:
            chosen = Phrase(N_("{seat} has chosen a boarding card."), seat=seat_name(seat))
            self._ev(events, "secret_set", chosen, seat=seat)
            return events
        ac, dc = b["choice"][str(b["att"])], b["choice"][str(b["def"])]
        ah, dh = self._card_hits(ac, b["boarder"]), self._card_hits(dc, b["target"])
        for who, c in ((b["att"], ac), (b["def"], dc)):
            if c is not None:
                self._from_hand(who, c)
                self._discard(c)
        roll = self.rng.d(6)
        total = roll + ah - dh
        an = self.card(ac)["name"] if ac else "no card"  # the event's data (English names, as stored)
        dn = self.card(dc)["name"] if dc else "no card"
        st["phase"], st["boarding"] = "turn", None
        win, lose = self.H["board_success_at"], self.H["board_fail_at"]
        mod = f"{ah - dh:+d}" if ah != dh else ""
        self._ev(
            events,
            "boarding_reveal",
            Phrase(
                N_(
                    "Boarding: {attacker} shows {attack}, {defender} shows {defence}; die {roll} = {total}: "
                    "{win} or more captures, {lose} or less loses the boarders."
                ),
                attacker=seat_name(b["att"]),
                attack=self._shown(ac, ah),
                defender=seat_name(b["def"]),
                defence=self._shown(dc, dh),
                roll=f"{roll}{mod}",
                total=total,
                win=win,
                lose=lose,
            ),
            roll=roll,
            att_card=an,
            def_card=dn,
            total=total,
        )
        if total >= self.H["board_success_at"]:
            captures = Phrase(
                N_("{seat} captures {ship}!"), seat=seat_name(b["att"]), ship=self.sname(b["target"])
            )
            self._ev(events, "captured", captures)
            self._capture(b["target"], b["att"], events)
        elif total <= self.H["board_fail_at"]:
            self._ev(
                events,
                "captured",
                Phrase(
                    N_("The boarders are thrown back: {seat} captures {ship}!"),
                    seat=seat_name(b["def"]),
                    ship=self.sname(b["boarder"]),
                ),
            )
            self._capture(b["boarder"], b["def"], events)
        else:
            self._ev(events, "boarding_fail", Phrase(N_("The boarding attempt is beaten off.")))
            self._end_turn(events)
        return events

    def _shown(self, cid: str | None, hits: int) -> Phrase:
        """A boarding card as revealed: its name and the hits it counts."""
        if cid is None:
            return Phrase.ngettext("no card ({n} hit)", "no card ({n} hits)", hits)
        return Phrase.ngettext(
            "{card} ({n} hit)", "{card} ({n} hits)", hits, card=card_phrase(self.card(cid))
        )

    def _capture(self, sid: str, captor: int, events: list) -> None:
        st = self.state
        s = self.ship(sid)
        self._unlist(s)
        rig_hits = [h for h in s["hits"] if h["loc"] == "rig" and h["card"] is not None]
        if rig_hits:
            smallest = min(rig_hits, key=lambda h: h["dmg"])
            s["hits"].remove(smallest)
            self._discard(smallest["card"])
        s["struck"], s["breaker"] = False, None
        s["owner"], s["where"] = captor, "captured"
        st["phase"], st["pending"] = "capture", None
        st["capture"] = {"captor": captor, "ship": sid, "turn": st["turn"]}
        self._check_cards(events)

    def _capture_choice(self, seat: int, where: str, events: list, station: int | None = None) -> None:
        st = self.state
        sid = st["capture"]["ship"]
        s = self.ship(sid)
        s["where"] = "line" if where == "line" else "prize"
        (st["lines"] if where == "line" else st["prizes"])[seat].append(sid)
        said = {"seat": seat_name(seat), "ship": self.sname(sid)}
        if where == "line":
            text = Phrase(N_("{seat} takes {ship} into the Line."), **said)
        else:
            text = Phrase(N_("{seat} takes {ship} as a Prize behind the Line."), **said)
        if self.adv and where != "line":
            assert station is not None  # Advanced prize actions always name a Reserve station (7.34)
            st["reserves"][seat].insert(station, sid)
            text = Phrase(
                N_("{seat} takes {ship} as a Prize to Reserve station {station}."),
                station=station + 1,
                **said,
            )
        st["capture"] = None
        st["phase"] = "turn"
        self._ev(events, "capture_place", text, ship=sid)
        self._end_turn(events)

    # ------------------------------------------------------------------ views
    def ship_view(self, sid: str, refusing: bool | None = None) -> dict:
        s = self.ship(sid)
        hd = rd = 0
        hits = []
        for h in s["hits"]:
            if h["loc"] == "hull":
                hd += h["dmg"]
            else:
                rd += h["dmg"]
            hits.append({"kind": h["kind"], "loc": h["loc"], "dmg": h["dmg"]})
        dismasted = rd >= s["rig"]
        if refusing is None:
            refusing = s["owner"] is not None and self.refusing(s["owner"])
        return {
            "id": sid,
            "name": s["name"],
            "nation": s["nation"],
            "rate": s["rate"],
            "hull": s["hull"],
            "rig": s["rig"],
            "hull_dmg": hd,
            "rig_dmg": rd,
            "hits": hits,
            "fires": [{"loc": f["loc"]} for f in s["fires"]],
            "struck": s["struck"],
            "breaker": s["breaker"] is not None,
            "dismasted": dismasted,
            "immune": bool(refusing and not dismasted and s["where"] in ("line", "prize", "port", "reserve")),
            **({"prize": s["where"] == "prize"} if self.adv else {}),
        }

    def card_view(self, cid: str) -> dict:
        c = self.card(cid)
        out = {"id": cid, "type": c["type"], "name": c["name"], "red": c["red"]}
        for k in ("rate", "damage", "hull_max"):
            if k in c:
                out[k] = c[k]
        if c["type"] == "break_line":
            # The card has no nation (any of the player's mobile ships may break the Line); the table
            # image (rendering/enemy_in_sight.py) still prints a nation on the card, so it reads "ANY".
            out["nation"] = "ANY"
        return out

    def _btl_view(self, b: dict) -> dict:
        breakers = self.breakers_of(b)
        nations = sorted({self.ship(sid)["nation"] for sid in breakers})
        # "nation": the same as one text ("FR/GB"), the label the table image prints
        return {
            "by": b["by"],
            "target": b["target"],
            "nations": nations,
            "nation": "/".join(nations),
            "breakers": breakers,
        }

    def view(self, seat: int | None) -> dict:
        st = self.state
        top = st["ship_deck"][0] if st["ship_deck"] else None
        v = {
            "game": self.key,
            "variant": self.options.get("variant", "base"),
            "players": self.players,
            "round": st["round"],
            "dealer": st["dealer"],
            "turn": st["turn"],
            "to_act": self.to_act(),
            "phase": "turn" if (st["phase"] == "red" and seat != st["turn"]) else st["phase"],
            "scores": list(st["scores"]),
            "fleets": self._fleets_view(full=True),
            "ship_deck": {
                "count": len(st["ship_deck"]),
                "top": (
                    {k: self.ship(top)[k] for k in ("name", "nation", "rate", "hull", "rig")} if top else None
                ),
            },
            "action_deck": len(st["deck"]),
            "discard": len(st["discard"]),
            "in_play": {
                "btl": [self._btl_view(b) for b in st["in_play"]["btl"]],
                "blockade": [{"by": k["by"], "target": k["target"]} for k in st["in_play"]["blockade"]],
                "refuse": [r["by"] for r in st["in_play"]["refuse"]],
            },
            "boarding": None,
            "capture": None,
            "last_events": list(st["log"][-4:]),  # plain JSON: texts.logged says a line
            "last": dict(st["last"]),
            "over": self.is_over,
            "result": st["result"],
            "target_vp": self.H["target_vp"],
            "seat": seat,
        }
        if self.adv and st["phase"] in ("arrange", "revise"):
            # 4.4: only who has finished and how many ships each holds; never an arrangement.
            v["arranging"] = {
                "phase": st["phase"],
                "done": [p for p in range(self.players) if st["arrange"][p]["done"]],
                "ships": [len(a["line"]) + len(a["reserve"]) for a in st["arrange"]],
            }
        self._seat_view(seat, v)
        return v

    def policy_view(self, seat: int) -> dict:
        """The part of :meth:`view` that the heuristic (:mod:`.ai`) reads, equal to it key for key: what
        the search's rollouts build at every step, without the table's decks, log and cards in play."""
        st = self.state
        v = {
            "players": self.players,
            "phase": "turn" if (st["phase"] == "red" and seat != st["turn"]) else st["phase"],
            "scores": list(st["scores"]),
            "fleets": self._fleets_view(full=False),
            "boarding": None,
            "capture": None,
            "seat": seat,
        }
        self._seat_view(seat, v)
        return v

    def _fleets_view(self, full: bool) -> list[dict]:
        st = self.state
        fleets = []
        for p in range(self.players):
            rf = self.refusing(p)
            fleet = {
                "seat": p,
                "line": [self.ship_view(s, rf) for s in st["lines"][p]],
                "prizes": [self.ship_view(s, rf) for s in st["prizes"][p]],
                "port": [self.ship_view(s, rf) for s in st["ports"][p]],
            }
            if full:
                fleet.update(
                    {
                        "hand_count": len(st["hands"][p]),
                        "capacity": self.capacity(p),
                        "sunk_count": len(st["sunk"][p]),
                        "sunk_vp": sum(self.ship(s)["hull"] + self.ship(s)["rig"] for s in st["sunk"][p]),
                        "refuse_battle": rf,
                    }
                )
            if self.adv:  # the Reserve row, stations in order (prizes included, marked "prize")
                fleet["reserve"] = [self.ship_view(s, rf) for s in st["reserves"][p]]
            fleets.append(fleet)
        return fleets

    def _seat_view(self, seat: int | None, v: dict) -> None:
        """The boarding, the capture and what only ``seat`` sees (its hand, arrangement, pending step)."""
        st = self.state
        b = st["boarding"]
        if b:
            v["boarding"] = {
                "att": b["att"],
                "def": b["def"],
                "boarder": b["boarder"],
                "target": b["target"],
                "chosen": sorted(int(k) for k in b["choice"]),
            }
            if seat is not None and str(seat) in b["choice"]:
                c = b["choice"][str(seat)]
                v["boarding"]["my_choice"] = self.card_view(c) if c else None
        if st["capture"]:
            v["capture"] = {"captor": st["capture"]["captor"], "ship": self.ship_view(st["capture"]["ship"])}
        if seat is not None and 0 <= seat < self.players:
            v["hand"] = [self.card_view(c) for c in st["hands"][seat]]
            if self.adv and st["phase"] in ("arrange", "revise"):
                a = st["arrange"][seat]
                v["arrange"] = {
                    "phase": st["phase"],
                    "line": [self.ship_view(x) for x in a["line"]],
                    "reserve": [self.ship_view(x) for x in a["reserve"]],
                    "done": a["done"],
                    "relocated": a["relocated"],
                }
            if st["pending"] is not None and st["turn"] == seat and st["phase"] == "turn":
                pend = dict(st["pending"])
                if "card" in pend:
                    pend["card_view"] = self.card_view(pend["card"])
                if pend.get("step") == "aim":
                    # the enemy ships the chosen firer may fire at (7.111 stations in the Advanced game)
                    pend["may_fire_at"] = self.targets(seat, pend["firer"])
                v["pending"] = pend

    # ------------------------------------------------------------------ the words beside the picture
    @staticmethod
    def view_text(view: dict, names: list[str] | None = None, *, speaker: Voice = ENGLISH) -> str:
        return texts.view_text(view, names, speaker=speaker)

    alt_text = staticmethod(texts.alt_text)
    key_text = staticmethod(texts.key_text)
    read_board = staticmethod(reading.read_board)

    def final_reveal(self) -> dict:
        """A replay's last picture: the spectator view and, once the game is over, every player's
        hand (the cards left in hand decide nothing any more; see docs/rules/enemy-in-sight.md)."""
        v = self.view(None)
        if not self.is_over:
            return v
        hands = {str(p): [self.card_view(c) for c in self.state["hands"][p]] for p in range(self.players)}
        v["hands"] = hands
        v["reveal"] = [
            Phrase(
                N_("{seat}'s hand at the end: {cards}"),
                seat=seat_name(int(k)),
                cards=listed([card_phrase(self.card(c)) for c in self.state["hands"][int(k)]])
                or Phrase(N_("no cards")),
            )
            for k in hands
        ]
        # the replay's last picture has room for one short line: how many cards each hand held (a
        # no-break space between a seat and its count: a line is not broken between them)
        v["reveal_short"] = Phrase(
            N_("Cards left in hand (named in the log): {counts}"),
            counts=", ".join(
                f"{seat_name(p)}\u00a0{len(cards)}" for p, cards in ((int(k), c) for k, c in hands.items())
            ),
        )
        return v

    # ------------------------------------------------------------------ host helpers
    # (describe, action_path, menu_entries, menu_titles, prompt and text_view: menus.MenuHooks)
    @classmethod
    def think(cls, situation: Situation, level: str, budget: Budget, rng: random.Random) -> dict:
        """``easy``: today's heuristic with some noise (:mod:`.ai`); ``normal`` and ``hard``: the search
        of :mod:`.search` within their budgets (which uses the heuristic for its rollouts)."""
        if level == "easy":
            from bot.games.enemy_in_sight import ai

            return ai.easy(situation.view, situation.legal, rng)
        from bot.games.enemy_in_sight import search

        return search.think(cls, situation, level, budget, rng)

    @classmethod
    def resample(cls, view: dict, seat: int, rng: random.Random) -> Game:
        from bot.games.enemy_in_sight import sample

        return sample.resample(cls, view, seat, rng)

    def timeout_action(self, seat: int, rng: random.Random) -> dict:
        ph = self.state["phase"]
        if ph == "boarding":
            return {"type": "secret", "card": None}
        if ph == "capture":
            return self._capture_actions(seat)[-1]  # a Prize (at the last Reserve station)
        return self.steady(self.situation(seat), rng)

    @classmethod
    def steady(cls, situation: Situation, rng: random.Random) -> dict:
        from bot.games.enemy_in_sight import ai

        return ai.choose(situation.view, situation.legal, rng)
