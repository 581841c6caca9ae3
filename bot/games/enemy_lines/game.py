"""Enemy Lines: the rules engine (see docs/rules/enemy-lines.md for every house rule)."""

from __future__ import annotations

import random

from bot.games.ai import Budget, Situation
from bot.games.base import Game, IllegalAction
from bot.games.enemy_lines import board as B
from bot.games.enemy_lines import reading, texts
from bot.games.enemy_lines.board import LAYOUT
from bot.games.names import fill_board, who
from bot.games.phrase import ENGLISH, N_, Phrase, Voice

L = LAYOUT
# The four directions, as messages (said in the reader's language; the English is board.DIR_WORDS's).
DIRECTIONS = {"N": N_("north"), "S": N_("south"), "E": N_("east"), "W": N_("west")}


def _pos(p):
    return None if p is None else (p[0], p[1], bool(p[2]))


class EnemyLinesGame(Game):
    key = "enemy-lines"

    # ----- setup ---------------------------------------------------------------
    def setup(self) -> None:
        start = self.rng.randrange(2)  # rule: randomly decide which player goes first
        self.state = {
            "phase": "placement",
            "start": start,
            "turn": start,
            "ships": {sid: None for sid in L.ship_ids},
            "anchor": {"0": None, "1": None},
            "moves": 0,
            "last": None,
            "final": False,
            "result": None,
        }
        if self.options.get("quick-setup"):
            self.quick_setup()

    def quick_setup(self) -> list[dict]:
        """Place every remaining ship at random, alternating as the rules say."""
        events: list[dict] = []
        while self.state["phase"] == "placement":
            seat = self.state["turn"]
            events += self._apply(seat, self.rng.choice(self.legal_actions(seat)))
        return events

    # ----- helpers ---------------------------------------------------------------
    def ships(self) -> dict:
        return {sid: _pos(p) for sid, p in self.state["ships"].items()}

    def cells(self, ship: str) -> list:
        pos = self.state["ships"][ship]
        return [] if pos is None else B.cells_of(L.size[ship], _pos(pos))

    def unplaced(self, seat: int) -> list[str]:
        return [sid for sid in L.fleet[seat] if self.state["ships"][sid] is None]

    def placeable(self, seat: int) -> list[str]:
        """Unplaced ships offered now: the first unplaced ship of each size (same-size ships are alike)."""
        seen, out = set(), []
        for sid in self.unplaced(seat):
            if L.size[sid] not in seen:
                seen.add(L.size[sid])
                out.append(sid)
        return out

    def moves_of(self, seat: int, ignore_anchor: bool = False) -> list[tuple[dict, tuple]]:
        ships = self.ships()
        occ = B.occupancy(ships)
        anchored = None if ignore_anchor else self.state["anchor"][str(seat)]
        out = []
        for sid in L.fleet[seat]:
            if sid != anchored and ships[sid] is not None:
                out += B.ship_moves(ships, occ, sid)
        return out

    def scores(self) -> list[int]:
        return B.scores(self.ships())

    # ----- contract ------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self.state["phase"] == "over"

    @property
    def result(self) -> dict | None:
        return self.state["result"]

    def to_act(self) -> list[int]:
        return [] if self.is_over else [self.state["turn"]]

    def legal_actions(self, seat: int) -> list[dict]:
        if self.is_over or seat != self.state["turn"]:
            return []
        if self.state["phase"] == "placement":
            occ = B.occupancy(self.ships())
            row_of = L.placement_row
            return [
                {"type": "place", "ship": sid, "col": x, "row": row_of(sid)}
                for sid in self.placeable(seat)
                for x in B.placements(self.ships(), occ, sid)
            ]
        moves = [a for a, _ in self.moves_of(seat)]
        if moves and self.state["final"]:
            # "the other player *may* have another turn": the extra turn can be declined
            return moves + [{"type": "pass"}]
        return moves or [{"type": "pass"}]

    def _apply(self, seat: int, action: dict) -> list[dict]:
        kind = action["type"]
        if kind == "place":
            return self._place(seat, action)
        if kind in ("travel", "rotate"):
            return self._move(seat, action)
        if kind == "pass":
            return self._pass(seat)
        raise IllegalAction(Phrase(N_("unknown action {kind}"), kind=repr(kind)))

    # ----- placement --------------------------------------------------------------------
    def _place(self, seat: int, action: dict) -> list[dict]:
        sid = action["ship"]
        pos = (int(action["col"]), int(action["row"]), True)  # placed along the row
        self.state["ships"][sid] = list(pos)
        cells = B.cells_of(L.size[sid], pos)
        self.state["last"] = {
            "seat": seat,
            "type": "place",
            "ship": sid,
            "from": [],
            "to": [list(c) for c in cells],
        }
        events = [
            {
                "type": "place",
                "seat": seat,
                "ship": sid,
                "cells": [list(c) for c in cells],
                "text": Phrase(
                    N_("{side} places a {size}-ship on {squares}."),
                    side=who(seat),
                    size=L.size[sid],
                    squares=B.span_label(cells),
                ),
            }
        ]
        other = 1 - seat
        if self.unplaced(other):
            self.state["turn"] = other
        elif self.unplaced(seat):
            self.state["turn"] = seat
        else:
            self.state["phase"] = "play"
            start = self.state["start"]
            events.append(
                {
                    "type": "play_begins",
                    "seat": start,
                    "text": Phrase(N_("All ships are placed. {side} moves first."), side=who(start)),
                }
            )
            events += self._begin_turn(start)
        return events

    # ----- movement ------------------------------------------------------------------------
    def _move(self, seat: int, action: dict) -> list[dict]:
        sid = action["ship"]
        if sid == self.state["anchor"][str(seat)]:
            raise IllegalAction(Phrase(N_("that ship is anchored: move another ship")))
        ships = self.ships()
        old = B.cells_of(L.size[sid], ships[sid])
        npos = B.move_result(ships, action)
        new = B.cells_of(L.size[sid], npos)
        self.state["ships"][sid] = list(npos)
        self.state["anchor"][str(seat)] = sid  # place the anchor on the ship just moved
        moved = {
            "side": who(L.seat[sid]),
            "size": L.size[sid],
            "before": B.span_label(old),
            "after": B.span_label(new),
        }
        if action["type"] == "travel":
            text = Phrase(
                N_("{side}'s {size}-ship travels {direction} {n}: {before} → {after}."),
                direction=Phrase(DIRECTIONS[action["dir"]]),
                n=action["dist"],
                **moved,
            )
        else:
            pivot = B.ends(L.size[sid], ships[sid])[action["pivot"]]
            text = Phrase(
                N_("{side}'s {size}-ship rotates about {pivot}: {before} → {after}."),
                pivot=B.cell_label(*pivot),
                **moved,
            )
        self.state["last"] = {
            "seat": seat,
            "type": action["type"],
            "ship": sid,
            "from": [list(c) for c in old],
            "to": [list(c) for c in new],
        }
        events = [
            {
                "type": action["type"],
                "seat": seat,
                "ship": sid,
                "from": [list(c) for c in old],
                "to": [list(c) for c in new],
                "text": text,
            }
        ]
        return events + self._after_turn(seat)

    def _declines(self, seat: int) -> bool:
        """Whether a pass now declines the extra turn (rather than being forced by no legal move)."""
        return bool(self.state["final"]) and bool(self.moves_of(seat))

    def _pass(self, seat: int) -> list[dict]:
        if self._declines(seat):
            self.state["last"] = {"seat": seat, "type": "pass", "ship": None, "from": [], "to": []}
            events = [
                {
                    "type": "pass",
                    "seat": seat,
                    "text": Phrase(N_("{side} passes and declines the extra turn."), side=who(seat)),
                }
            ]
            self.state["moves"] += 1
            return events + self._end(Phrase(N_("{side} declined the extra turn"), side=who(seat)))
        # House rule: a player without a legal move passes, and the pass lifts their anchor.
        self.state["anchor"][str(seat)] = None
        self.state["last"] = {"seat": seat, "type": "pass", "ship": None, "from": [], "to": []}
        events = [
            {
                "type": "pass",
                "seat": seat,
                "text": Phrase(
                    N_("{side} has no legal move and passes (the anchor is lifted)."), side=who(seat)
                ),
            }
        ]
        return events + self._after_turn(seat)

    def _after_turn(self, seat: int) -> list[dict]:
        st = self.state
        st["moves"] += 1
        other = 1 - seat
        if st["final"]:
            return self._end(Phrase(N_("the extra turn has been played")))
        if B.count_in_enemy_lines(self.ships(), seat) >= 3:
            if seat == st["start"]:
                st["final"] = True
                ev = {
                    "type": "final_turn",
                    "seat": other,
                    "text": Phrase(
                        N_(
                            "{side} has three ships in enemy lines. {other} did not start, so gets one more turn."
                        ),
                        side=who(seat),
                        other=who(other),
                    ),
                }
                return [ev] + self._begin_turn(other)
            return self._end(Phrase(N_("{side} has three ships in enemy lines"), side=who(seat)))
        if st["moves"] >= L.turn_limit:
            return self._end(Phrase(N_("the turn limit of {n} turns was reached"), n=L.turn_limit))
        return self._begin_turn(other)

    def _begin_turn(self, seat: int) -> list[dict]:
        self.state["turn"] = seat
        if self.moves_of(seat):
            return []
        if not self.moves_of(0, ignore_anchor=True) and not self.moves_of(1, ignore_anchor=True):
            return self._end(Phrase(N_("no ship of either player can move")))
        return []  # the seat must pass

    def _end(self, reason: Phrase) -> list[dict]:
        st = self.state
        pts = self.scores()
        best = max(pts)
        winners = [s for s in (0, 1) if pts[s] == best]  # a tie is a draw: both are winners
        st["phase"] = "over"
        # the reason in English and as its message (said in each reader's language: bot.summary)
        st["result"] = {
            "scores": {"0": pts[0], "1": pts[1]},
            "winners": winners,
            "reason": str(reason),
            "reason_phrase": reason.to_json(),
        }
        score = {"blue": who(0), "blue_points": pts[0], "red": who(1), "red_points": pts[1]}
        if len(winners) == 2:
            text = Phrase(
                N_("Game over: {reason}. {blue} {blue_points}, {red} {red_points}: a draw."),
                reason=reason,
                **score,
            )
        else:
            text = Phrase(
                N_("Game over: {reason}. {blue} {blue_points}, {red} {red_points}: {side} wins."),
                reason=reason,
                side=who(winners[0]),
                **score,
            )
        return [
            {
                "type": "game_over",
                "scores": {"0": pts[0], "1": pts[1]},
                "winners": winners,
                "reason": str(reason),
                "text": text,
            }
        ]

    # ----- views ---------------------------------------------------------------------------------
    def view(self, seat: int | None) -> dict:
        st = self.state
        ships = self.ships()
        pts = B.scores(ships)
        anchors = dict(st["anchor"])
        ship_views = []
        for sid in L.ship_ids:
            pos = ships[sid]
            cells = [] if pos is None else B.cells_of(L.size[sid], pos)
            mark = B.in_enemy_lines(sid, pos)
            ship_views.append(
                {
                    "id": sid,
                    "seat": L.seat[sid],
                    "size": L.size[sid],
                    "placed": pos is not None,
                    "cells": [list(c) for c in cells],
                    "squares": B.span_label(cells) if cells else "",
                    "along": None if pos is None else ("row" if pos[2] else "column"),
                    "anchored": anchors[str(L.seat[sid])] == sid,
                    "in_enemy_lines": bool(mark),
                    "points": L.size[sid] * mark,
                }
            )
        rows = []
        for r in range(L.rows):
            owner = L.row_owner(r)
            rows.append(
                {
                    "row": r,
                    "label": str(r + 1),
                    "side": owner,
                    "mark": 0 if owner is None else L.mark(owner, r),
                }
            )
        res = st["result"]
        return {
            "game": self.key,
            "seat": seat,
            "cols": L.cols,
            "rows": L.rows,
            "row_info": rows,
            "home_rows": {"0": list(L.home_rows[0]), "1": list(L.home_rows[1])},
            "ships": ship_views,
            "anchors": anchors,
            "phase": st["phase"],
            "to_act": self.to_act(),
            "turn": None if self.is_over else st["turn"],
            "start": st["start"],
            "scores": {"0": pts[0], "1": pts[1]},
            "in_enemy_lines": {str(s): B.count_in_enemy_lines(ships, s) for s in (0, 1)},
            "to_place": {str(s): self.unplaced(s) for s in (0, 1)},
            "last": st["last"],
            "move_number": st["moves"],
            "turn_limit": L.turn_limit,
            "final_turn": bool(st["final"]) and not self.is_over,
            "result": res,
            "winners": None if res is None else list(res["winners"]),
        }

    view_text = staticmethod(texts.view_text)
    alt_text = staticmethod(texts.alt_text)
    key_text = staticmethod(texts.key_text)
    read_board = staticmethod(reading.read_board)

    @staticmethod
    def text_view(view: dict, names: list[str] | None = None, *, speaker: Voice = ENGLISH) -> str:
        _ = speaker.gettext
        cols, rows = view["cols"], view["rows"]
        grid = [["  ." for _ in range(cols)] for _ in range(rows)]
        for s in view["ships"]:
            for c, r in s["cells"]:
                tag = ("b" if s["seat"] == 0 else "r") + str(s["size"])
                grid[r][c] = (" " + tag.upper()) if s["anchored"] else (" " + tag)
        info = {ri["row"]: ri for ri in view["row_info"]}
        lines = ["    " + "".join(f"  {chr(65 + c)}" for c in range(cols))]
        for r in range(rows - 1, -1, -1):
            ri = info[r]
            side = "" if ri["side"] is None else f" {who(ri['side'])} {ri['mark']}"
            lines.append(f"{r + 1:>3} " + "".join(grid[r]) + side)
        sc = view["scores"]
        lines.append("")
        lines.append(
            _(
                "Score so far: {blue} {blue_points}, {red} {red_points}   (capitals = anchored)",
                blue=who(0),
                blue_points=sc["0"],
                red=who(1),
                red_points=sc["1"],
            )
        )
        if view["phase"] == "over":
            res = view["result"]
            sides = [who(w) for w in res["winners"]]
            win = (
                sides[0]
                if len(sides) == 1
                else _("{first} and {last}", first=", ".join(sides[:-1]), last=sides[-1])
            )
            lines.append(
                _("Game over ({reason}). Winner: {side}.", reason=texts._reason(view, speaker), side=win)
            )
        else:
            left = view["turn_limit"] - view["move_number"]  # the turn limit's countdown (not a move number)
            side = who(view["turn"])
            if view["phase"] == "placement":
                lines.append(
                    speaker.ngettext(
                        "{side} to place a ship ({n} turn left).",
                        "{side} to place a ship ({n} turns left).",
                        left,
                        side=side,
                    )
                )
            elif view["final_turn"]:
                lines.append(
                    speaker.ngettext(
                        "{side} to move (extra turn) ({n} turn left).",
                        "{side} to move (extra turn) ({n} turns left).",
                        left,
                        side=side,
                    )
                )
            else:
                lines.append(
                    speaker.ngettext(
                        "{side} to move ({n} turn left).", "{side} to move ({n} turns left).", left, side=side
                    )
                )
        return fill_board("```\n" + "\n".join(lines) + "\n```", names)

    def undo_veto(self, before: Game, seat: int, action: dict, events: list[dict]) -> Phrase | None:
        """Every move of Enemy Lines may be undone by agreement: the board is open and nothing is drawn
        (the first player is drawn at setup, before any move)."""
        return None

    # ----- menus and words ----------------------------------------------------------------------------
    def describe(self, action: dict, *, speaker: Voice = ENGLISH) -> str:
        _ = speaker.gettext
        kind = action.get("type")
        sid = action.get("ship")
        if kind == "pass":
            if self.state["phase"] == "play" and self._declines(self.state["turn"]):
                return _("pass: decline the extra turn (the game ends now)")
            return _("pass (no legal move)")
        if not isinstance(sid, str) or sid not in L.size:
            return str(kind)
        ship = {"side": who(L.seat[sid]), "size": L.size[sid]}
        if kind == "place":
            col, row = int(action["col"]), int(action["row"])
            cells = B.cells_of(L.size[sid], (col, row, True))
            return _("place {side}'s {size}-ship on {squares}", squares=B.span_label(cells), **ship)
        if kind == "travel" and action.get("dir") in DIRECTIONS:
            direction = _(DIRECTIONS[action["dir"]])
            return _(
                "{side}'s {size}-ship: travel {direction} {n}", direction=direction, n=action["dist"], **ship
            )
        if kind == "rotate" and action.get("pivot") in DIRECTIONS and action.get("to") in DIRECTIONS:
            return _(
                "{side}'s {size}-ship: rotate about its {pivot} end to {to}",
                pivot=_(DIRECTIONS[action["pivot"]]),
                to=_(DIRECTIONS[action["to"]]),
                **ship,
            )
        return str(kind)

    def action_path(self, seat: int, action: dict, *, speaker: Voice = ENGLISH) -> list[tuple[str, str]]:
        _ = speaker.gettext
        kind = action.get("type")
        if kind == "pass":
            if self.state["phase"] == "play" and self._declines(seat):
                return [("pass", _("Pass")), ("pass", _("Pass: decline the extra turn (the game ends now)"))]
            return [("pass", _("Pass")), ("pass", _("Pass: no ship can move"))]
        sid = action["ship"]
        size = L.size[sid]
        if kind == "place":
            row = int(action["row"])
            mark = L.mark(seat, row)
            cells = B.cells_of(size, (int(action["col"]), row, True))
            return [
                (
                    f"ship:{sid}",
                    _("{size}-ship (row {row}, marked {mark})", size=size, row=row + 1, mark=mark),
                ),
                (f"col:{B.cell_label(*cells[0])}", B.span_label(cells)),
            ]
        ships = self.ships()
        here = B.cells_of(size, ships[sid])
        new = B.cells_of(size, B.move_result(ships, action))
        first = (f"ship:{sid}", _("{size}-ship at {squares}", size=size, squares=B.span_label(here)))
        if kind == "travel":
            d, n = action["dir"], int(action["dist"])
            label = _(
                "travel {direction} {n} → {squares}",
                direction=_(DIRECTIONS[d]),
                n=n,
                squares=B.span_label(new),
            )
            return [first, (f"t{d}{n}", label)]
        pivot = B.ends(size, ships[sid])[action["pivot"]]
        return [
            first,
            (
                f"r{action['pivot']}{action['to']}",
                _(
                    "rotate about {pivot} to {direction} → {squares}",
                    pivot=B.cell_label(*pivot),
                    direction=_(DIRECTIONS[action["to"]]),
                    squares=B.span_label(new),
                ),
            ),
        ]

    def menu_titles(self, seat: int, *, speaker: Voice = ENGLISH) -> list[str]:
        _ = speaker.gettext
        if self.state["phase"] == "placement":
            return [_("Choose a ship to place"), _("Choose its squares")]
        return [_("Choose a ship to move"), _("Choose its move")]

    def prompt(self, seat: int, *, speaker: Voice = ENGLISH) -> str:
        _ = speaker.gettext
        st = self.state
        if self.is_over:
            return _("The game is over.")
        if seat != st["turn"]:
            return _("Wait for {side} to play.", side=who(st["turn"]))
        if st["phase"] == "placement":
            sizes = ", ".join(_("{size}-ship", size=L.size[s]) for s in self.placeable(seat))
            return _(
                "Place one of your ships on its home row ({sizes}); each lies along the row marked with its size.",
                sizes=sizes,
            )
        acts = self.legal_actions(seat)
        if acts == [{"type": "pass"}]:
            return _("None of your ships can move: pass.")
        anchored = st["anchor"][str(seat)]
        if anchored:
            where = B.span_label(self.cells(anchored))
            size = L.size[anchored]
            if st["final"]:
                return _(
                    "Move one of your ships (not the anchored {size}-ship at {squares}). This is your last turn: "
                    "you may also pass, and the game ends as it stands.",
                    size=size,
                    squares=where,
                )
            return _(
                "Move one of your ships (not the anchored {size}-ship at {squares}).",
                size=size,
                squares=where,
            )
        if st["final"]:
            return _(
                "Move one of your ships: travel up to its size or rotate about an end. This is your last turn: "
                "you may also pass, and the game ends as it stands."
            )
        return _("Move one of your ships: travel up to its size or rotate about an end.")

    @classmethod
    def resample(cls, view: dict, seat: int, rng: random.Random) -> Game:
        """The board is open: the state rebuilt from the view (no sample to draw; ``rng`` unused)."""
        game = cls(2, {}, seed=0, _setup=False)
        result = view["result"]
        game.state = {
            "phase": view["phase"],
            "start": view["start"],
            "turn": view["start"] if view["turn"] is None else view["turn"],
            "ships": {
                s["id"]: None if not s["placed"] else [*s["cells"][0], s["along"] == "row"]
                for s in view["ships"]
            },
            "anchor": dict(view["anchors"]),
            "moves": view["move_number"],
            "last": view["last"],
            "final": bool(view["final_turn"]),
            "result": None if result is None else dict(result),
        }
        return game

    @classmethod
    def think(cls, situation: Situation, level: str, budget: Budget, rng: random.Random) -> dict:
        """Easy: today's depth-2 search with some noise (``ai.easy``); normal and hard: iterative-deepening
        alpha-beta within ``budget`` (``search.choose_move``). Placement is today's rule at every level."""
        from bot.games.enemy_lines import ai, search

        view, legal, seat = situation.view, situation.legal, situation.seat
        if len(legal) == 1:
            return legal[0]
        if level == "easy":
            return ai.easy(view, legal, seat, rng)
        if view["phase"] == "placement":
            return ai.choose_action(view, legal, seat, rng)
        return search.choose_move(view, budget, rng)

    @classmethod
    def steady(cls, situation: Situation, rng: random.Random) -> dict:
        from bot.games.enemy_lines import ai

        if len(situation.legal) == 1:
            return situation.legal[0]
        return ai.choose_action(situation.view, situation.legal, situation.seat, rng)
