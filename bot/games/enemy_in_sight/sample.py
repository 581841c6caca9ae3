"""Determinizing a seat's view of Enemy in Sight: a whole game state consistent with what it sees.

What a seat sees (``EnemyInSight.view``): its own hand, every ship at sea or in Port, the cards on the
table (hits, fires and the cards in play), the ship pile's top card and counts. What it does not: the
other hands, the order of both decks, the discard pile, the ships sunk and not yet scored (only their
count and VP), another seat's secret boarding card, and (Advanced) the others' secret Line & Reserve.

:func:`resample` deals those from what is unseen: the action cards are every printed card minus the
seat's hand and the cards on the table (a hit is a card of its kind and damage, a fire a Fire card),
shuffled into the other hands, the deck and the discard pile by their counts; the other hands get black
cards first (a red card in hand is played at the start of its holder's turn, so a hand rarely keeps
one). Ships not in sight are dealt to the ship pile below its known top card, to the sunk piles by
their count and VP, and the rest counted as gone. Card and ship ids the seat never saw are new ones
(ids are random per game and say nothing). The generator is fresh, so no die or shuffle to come is
known. ``resample(view, seat, rng).view(seat) == view`` (tests/games/enemy_in_sight/test_ai.py).
"""

from __future__ import annotations

import marshal
import random
from collections import defaultdict
from typing import Any

from bot.games.enemy_in_sight import data

# view-only keys of a pending step (EnemyInSight.view adds them to the stored step)
_PENDING_VIEW_KEYS = ("card_view", "may_fire_at")


def resample(cls: type, view: dict, seat: int, rng: random.Random) -> Any:
    """A game of class ``cls`` (EnemyInSight or a variant) in a state consistent with ``view`` of
    ``seat`` (see the module). The view is copied first: the game shares nothing with it."""
    view = marshal.loads(marshal.dumps(view))
    n = view["players"]
    game = cls(n, {"variant": view.get("variant", "base")}, rng.getrandbits(31), _setup=False)
    st: dict = {}
    ships = _ships(view, seat, st, rng)
    st["ships"] = ships
    _cards(view, seat, st, rng)
    st.update(
        {
            "round": view["round"],
            "turn": view["turn"],
            "dealer": view["dealer"],
            "scores": list(view["scores"]),
            "log": list(view["last_events"]),
            "last": dict(view["last"]),
            "result": view["result"],
            "turns": 0,
            "capture": None,
        }
    )
    phase = view["phase"]
    st["phase"] = phase
    pend = view.get("pending")
    st["pending"] = {k: v for k, v in pend.items() if k not in _PENDING_VIEW_KEYS} if pend else None
    b = view["boarding"]
    st["boarding"] = None
    if b:
        choice: dict[str, str | None] = {}
        for p in b["chosen"]:
            if p == seat:
                mine = b.get("my_choice")
                choice[str(p)] = mine["id"] if mine else None
            else:
                choice[str(p)] = _secret_choice(st, p, b, rng)
        st["boarding"] = {k: b[k] for k in ("att", "def", "boarder", "target")} | {"choice": choice}
    if view["capture"]:
        st["capture"] = {"captor": view["capture"]["captor"], "ship": view["capture"]["ship"]["id"]}
        st["capture"]["turn"] = view["turn"]
    game.state = st
    return game


def _secret_choice(st: dict, p: int, b: dict, rng: random.Random) -> str | None:
    """Another seat's secret boarding card: mostly its best hitting card, sometimes a bluff (none)."""
    mine = b["boarder"] if p == b["att"] else b["target"]
    rate = st["ships"][mine]["rate"]
    best, hits = None, 0
    for cid in st["hands"][p]:
        c = data.card_list()[st["cards"][cid]]
        h = c["damage"] if c["type"] == "rake" or (c["type"] == "broadside" and rate <= c["rate"]) else 0
        if h > hits:
            best, hits = cid, h
    return best if rng.random() < 0.75 else None


# ------------------------------------------------------------------ ships
def _fleet_lists(view: dict) -> list[tuple[int, str, list[dict]]]:
    out = []
    for f in view["fleets"]:
        for where in ("line", "prizes", "port", "reserve"):
            if where in f:
                out.append((f["seat"], where, f[where]))
    return out


def _ship_record(card: dict, sid: str, owner: int | None, where: str) -> dict:
    return {
        **card,
        "id": sid,
        "owner": owner,
        "where": where,
        "hits": [],
        "fires": [],
        "struck": False,
        "breaker": None,
    }


def _ships(view: dict, seat: int, st: dict, rng: random.Random) -> dict:
    """The ships: those in sight as they are, the unseen ones dealt to the pile, the sunk piles, the
    others' secret arrangements (Advanced set-up) and gone."""
    adv = view.get("variant") == "advanced"
    printed = {s["name"]: s for s in data.ship_list()}
    ships: dict[str, dict] = {}
    shown: dict[str, tuple[int, str, dict]] = {}  # sid -> (owner, where, ship view)
    for p, where, lst in _fleet_lists(view):
        for sv in lst:
            if where == "reserve" and sv.get("prize"):
                continue  # an Advanced prize is listed under "prizes" too
            shown[sv["id"]] = (
                p,
                {"line": "line", "prizes": "prize", "port": "port", "reserve": "reserve"}[where],
                sv,
            )
    if view["capture"]:
        sv = view["capture"]["ship"]
        shown[sv["id"]] = (view["capture"]["captor"], "captured", sv)
    arr = view.get("arrange")
    if arr:
        for sv in arr["line"] + arr["reserve"]:
            if sv["id"] not in shown:
                shown[sv["id"]] = (seat, "hand", sv)
    for sid, (owner, where, sv) in shown.items():
        s = _ship_record(printed[sv["name"]], sid, owner, where)
        s["struck"] = sv["struck"]
        ships[sid] = s
    st["lines"] = [[s["id"] for s in f["line"]] for f in view["fleets"]]
    st["prizes"] = [[s["id"] for s in f["prizes"]] for f in view["fleets"]]
    st["ports"] = [[s["id"] for s in f["port"]] for f in view["fleets"]]
    if adv:
        st["reserves"] = [[s["id"] for s in f["reserve"]] for f in view["fleets"]]
    # unseen ships: new ids for them
    used = {int(sid[1:]) for sid in shown}
    fresh = [num for num in range(100, 1000) if num not in used]  # ids say nothing: any unused will do
    names_shown = {sv["name"] for _, _, sv in shown.values()}
    top = view["ship_deck"]["top"]
    unseen = [
        s for name, s in printed.items() if name not in names_shown and (top is None or name != top["name"])
    ]
    rng.shuffle(unseen)
    new_id = iter(fresh)

    def add(card: dict, owner: int | None, where: str) -> str:
        sid = f"S{next(new_id)}"
        ships[sid] = _ship_record(card, sid, owner, where)
        return sid

    # Advanced set-up: the others' six dealt ships, arranged in secret
    if adv and view["phase"] in ("arrange", "revise"):
        st["arrange"] = _arrangements(view, seat, st, unseen, add, ships, rng)
    elif adv:
        st["arrange"] = None
    # the sunk piles: their count and VP are public
    st["sunk"] = []
    for f in view["fleets"]:
        picked = _pick_vp(unseen, f["sunk_count"], f["sunk_vp"], rng)
        st["sunk"].append([add(s, f["seat"], "sunk") for s in picked])
    deck: list[str] = []
    if top is not None:
        deck.append(add(printed[top["name"]], None, "deck"))
        for _ in range(view["ship_deck"]["count"] - 1):
            deck.append(add(unseen.pop(), None, "deck"))
    st["ship_deck"] = deck
    for s in unseen:
        add(s, None, "scored")
    # damage, fires and Line Breaker flags are set with the cards (they hold card ids)
    return ships


def _pick_vp(pool: list[dict], count: int, vp: int, rng: random.Random) -> list[dict]:
    """``count`` ships of ``pool`` worth ``vp`` together (removed from the pool)."""
    if count == 0:
        return []
    by_vp: dict[int, list[dict]] = defaultdict(list)
    for s in pool:
        by_vp[s["hull"] + s["rig"]].append(s)
    values = sorted(by_vp)
    rng.shuffle(values)

    def search(k: int, left: int, taken: dict[int, int]) -> list[int] | None:
        if k == 0:
            return [] if left == 0 else None
        for v in values:
            if v <= left and taken.get(v, 0) < len(by_vp[v]):
                taken[v] = taken.get(v, 0) + 1
                rest = search(k - 1, left - v, taken)
                taken[v] -= 1
                if rest is not None:
                    return [v, *rest]
        return None

    found = search(count, vp, {})
    if found is None:  # not reachable from a real view; keep the count at least
        found = [values[0]] * count
    out = []
    for v in found:
        s = by_vp[v].pop()
        pool.remove(s)
        out.append(s)
    return out


def _arrangements(
    view: dict, seat: int, st: dict, unseen: list, add, ships: dict, rng: random.Random
) -> list:
    """The Advanced secret set-up: the seat's own as it sees it; the others' (six unseen ships each in
    the ``arrange`` phase, the revealed Line & Reserve in ``revise``) with a plausible secret order."""
    arranging = view["arranging"]
    out = []
    for p in range(view["players"]):
        done = p in arranging["done"]
        if p == seat:
            a = view["arrange"]
            out.append(
                {
                    "line": [s["id"] for s in a["line"]],
                    "reserve": [s["id"] for s in a["reserve"]],
                    "done": a["done"],
                    "relocated": a["relocated"],
                }
            )
            continue
        if arranging["phase"] == "arrange":
            dealt = [add(unseen.pop(), p, "hand") for _ in range(arranging["ships"][p])]
            rng.shuffle(dealt)
            small = [sid for sid in dealt if ships[sid]["rate"] >= 5]
            reserve = []
            if len(small) >= 2 and rng.random() < 0.6:
                reserve = [small[0]]
                dealt.remove(small[0])
            out.append({"line": dealt, "reserve": reserve, "done": done, "relocated": False})
        else:
            line, reserve = list(st["lines"][p]), list(st["reserves"][p])
            relocated = False
            if reserve and rng.random() < 0.3:
                line.insert(rng.randrange(len(line) + 1), reserve.pop(rng.randrange(len(reserve))))
            if len(line) > 1 and rng.random() < 0.2:
                best = min(ships[sid]["rate"] for sid in line)
                big = rng.choice([sid for sid in line if ships[sid]["rate"] == best])
                line.remove(big)
                line.insert(rng.randrange(len(line) + 1), big)
                relocated = True
            out.append({"line": line, "reserve": reserve, "done": done, "relocated": relocated})
    return out


# ------------------------------------------------------------------ action cards
def _cards(view: dict, seat: int, st: dict, rng: random.Random) -> None:
    printed = data.card_list()
    by_name: dict[str, list[int]] = defaultdict(list)
    for i, c in enumerate(printed):
        by_name[c["name"]].append(i)
    for lst in by_name.values():
        rng.shuffle(lst)
    cards: dict[str, int] = {}
    hand = view.get("hand", [])
    for c in hand:
        cards[c["id"]] = by_name[c["name"]].pop()
    used = {int(c["id"][1:]) for c in hand}
    fresh = iter([num for num in range(100, 1000) if num not in used])  # any unused ids will do

    def take(match) -> str:
        """A new id for an unseen printed card that ``match``es (its kind and damage)."""
        names = [name for name, lst in by_name.items() if lst and match(printed[lst[0]])]
        if not names:  # a hit no printed card explains (only a test sets one up): any unseen card
            names = [name for name, lst in by_name.items() if lst]
        weights = [len(by_name[name]) for name in names]
        name = rng.choices(names, weights)[0]
        cid = f"C{next(fresh)}"
        cards[cid] = by_name[name].pop()
        return cid

    ships = st["ships"]
    in_play = view["in_play"]
    btl = [
        {"card": take(lambda c: c["type"] == "break_line"), "by": b["by"], "target": b["target"]}
        for b in in_play["btl"]
    ]
    for b, bv in zip(btl, in_play["btl"], strict=True):
        for sid in bv["breakers"]:
            ships[sid]["breaker"] = b["card"]
    st["in_play"] = {
        "btl": btl,
        "blockade": [
            {"card": take(lambda c: c["type"] == "blockade"), "by": k["by"], "target": k["target"]}
            for k in in_play["blockade"]
        ],
        "refuse": [
            {"card": take(lambda c: c["type"] == "refuse_battle"), "by": p} for p in in_play["refuse"]
        ],
    }
    views = [sv for _, _, lst in _fleet_lists(view) for sv in lst]
    if view["capture"]:
        views.append(view["capture"]["ship"])
    arr = view.get("arrange")
    if arr:
        views += arr["line"] + arr["reserve"]
    done: set[str] = set()
    for sv in views:
        if sv["id"] in done:
            continue
        done.add(sv["id"])
        s = ships[sv["id"]]
        for h in sv["hits"]:
            hit: dict = {"card": None, "kind": h["kind"], "loc": h["loc"], "dmg": h["dmg"]}
            if h["kind"] in ("broadside", "rake"):
                hit["card"] = take(lambda c, h=h: c["type"] == h["kind"] and c["damage"] == h["dmg"])
            elif h["kind"] == "btl":
                mine = [b["card"] for b in btl if b["target"] == s["owner"]] or [b["card"] for b in btl]
                if mine:
                    hit["btl"] = rng.choice(mine)
            s["hits"].append(hit)
        s["fires"] = [{"card": take(lambda c: c["type"] == "fire"), "loc": f["loc"]} for f in sv["fires"]]
    # the rest: the other hands (black cards first), the deck and the discard pile
    rest = [f"C{next(fresh)}" for lst in by_name.values() for _ in lst]
    pool = [i for lst in by_name.values() for i in lst]
    for cid, i in zip(rest, pool, strict=True):
        cards[cid] = i
    rng.shuffle(rest)
    black = [cid for cid in rest if not printed[cards[cid]]["red"]]
    red = [cid for cid in rest if printed[cards[cid]]["red"]]
    hands: list[list[str]] = []
    for f in view["fleets"]:
        p = f["seat"]
        if p == seat:
            hands.append([c["id"] for c in hand])
            continue
        k = f["hand_count"]
        got, black = black[:k], black[k:]
        short = k - len(got)
        got, red = got + red[:short], red[short:]
        hands.append(got)
    rest = black + red
    rng.shuffle(rest)
    st["hands"] = hands
    st["cards"] = cards
    st["deck"] = rest[: view["action_deck"]]
    st["discard"] = rest[view["action_deck"] :]
