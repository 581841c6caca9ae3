"""Enemy Lines: the rules engine (see docs/rules/enemy-lines.md for every house rule)."""

from __future__ import annotations

import random

from bot.games.ai import Budget, Situation
from bot.games.base import Game, IllegalAction
from bot.games.enemy_lines import board as B
from bot.games.enemy_lines import reading, texts
from bot.games.enemy_lines.board import DIR_WORDS, LAYOUT
from bot.games.names import fill_board, who

L = LAYOUT


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
        raise IllegalAction(f"unknown action {kind!r}")

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
                "text": f"{who(seat)} places a {L.size[sid]}-ship on {B.span_label(cells)}.",
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
                    "text": f"All ships are placed. {who(start)} moves first.",
                }
            )
            events += self._begin_turn(start)
        return events

    # ----- movement ------------------------------------------------------------------------
    def _move(self, seat: int, action: dict) -> list[dict]:
        sid = action["ship"]
        if sid == self.state["anchor"][str(seat)]:
            raise IllegalAction("that ship is anchored: move another ship")
        ships = self.ships()
        old = B.cells_of(L.size[sid], ships[sid])
        npos = B.move_result(ships, action)
        new = B.cells_of(L.size[sid], npos)
        self.state["ships"][sid] = list(npos)
        self.state["anchor"][str(seat)] = sid  # place the anchor on the ship just moved
        if action["type"] == "travel":
            text = (
                f"{B.ship_name(sid)} travels {DIR_WORDS[action['dir']]} {action['dist']}: "
                f"{B.span_label(old)} → {B.span_label(new)}."
            )
        else:
            pivot = B.ends(L.size[sid], ships[sid])[action["pivot"]]
            text = (
                f"{B.ship_name(sid)} rotates about {B.cell_label(*pivot)}: "
                f"{B.span_label(old)} → {B.span_label(new)}."
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
                {"type": "pass", "seat": seat, "text": f"{who(seat)} passes and declines the extra turn."}
            ]
            self.state["moves"] += 1
            return events + self._end(f"{who(seat)} declined the extra turn")
        # House rule: a player without a legal move passes, and the pass lifts their anchor.
        self.state["anchor"][str(seat)] = None
        self.state["last"] = {"seat": seat, "type": "pass", "ship": None, "from": [], "to": []}
        events = [
            {
                "type": "pass",
                "seat": seat,
                "text": f"{who(seat)} has no legal move and passes (the anchor is lifted).",
            }
        ]
        return events + self._after_turn(seat)

    def _after_turn(self, seat: int) -> list[dict]:
        st = self.state
        st["moves"] += 1
        other = 1 - seat
        if st["final"]:
            return self._end("the extra turn has been played")
        if B.count_in_enemy_lines(self.ships(), seat) >= 3:
            if seat == st["start"]:
                st["final"] = True
                ev = {
                    "type": "final_turn",
                    "seat": other,
                    "text": (
                        f"{who(seat)} has three ships in enemy lines. "
                        f"{who(other)} did not start, so gets one more turn."
                    ),
                }
                return [ev] + self._begin_turn(other)
            return self._end(f"{who(seat)} has three ships in enemy lines")
        if st["moves"] >= L.turn_limit:
            return self._end(f"the turn limit of {L.turn_limit} turns was reached")
        return self._begin_turn(other)

    def _begin_turn(self, seat: int) -> list[dict]:
        self.state["turn"] = seat
        if self.moves_of(seat):
            return []
        if not self.moves_of(0, ignore_anchor=True) and not self.moves_of(1, ignore_anchor=True):
            return self._end("no ship of either player can move")
        return []  # the seat must pass

    def _end(self, reason: str) -> list[dict]:
        st = self.state
        pts = self.scores()
        best = max(pts)
        winners = [s for s in (0, 1) if pts[s] == best]  # a tie is a draw: both are winners
        st["phase"] = "over"
        st["result"] = {"scores": {"0": pts[0], "1": pts[1]}, "winners": winners, "reason": reason}
        if len(winners) == 2:
            verdict = "a draw"
        else:
            verdict = f"{who(winners[0])} wins"
        return [
            {
                "type": "game_over",
                "scores": {"0": pts[0], "1": pts[1]},
                "winners": winners,
                "reason": reason,
                "text": f"Game over: {reason}. {who(0)} {pts[0]}, {who(1)} {pts[1]}: {verdict}.",
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
    def text_view(view: dict, names: list[str] | None = None) -> str:
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
        lines.append(f"Score so far: {who(0)} {sc['0']}, {who(1)} {sc['1']}   (capitals = anchored)")
        if view["phase"] == "over":
            res = view["result"]
            win = " and ".join(who(w) for w in res["winners"])
            lines.append(f"Game over ({res['reason']}). Winner: {win}.")
        else:
            turn = who(view["turn"])
            what = "to place a ship" if view["phase"] == "placement" else "to move"
            extra = " (extra turn)" if view["final_turn"] else ""
            left = view["turn_limit"] - view["move_number"]  # the turn limit's countdown (not a move number)
            lines.append(f"{turn} {what}{extra} ({left} turns left).")
        return fill_board("```\n" + "\n".join(lines) + "\n```", names)

    def undo_veto(self, before: Game, seat: int, action: dict, events: list[dict]) -> str | None:
        """Every move of Enemy Lines may be undone by agreement: the board is open and nothing is drawn
        (the first player is drawn at setup, before any move)."""
        return None

    # ----- menus and words ----------------------------------------------------------------------------
    def describe(self, action: dict) -> str:
        kind = action.get("type")
        sid = action.get("ship")
        if kind == "pass":
            if self.state["phase"] == "play" and self._declines(self.state["turn"]):
                return "pass: decline the extra turn (the game ends now)"
            return "pass (no legal move)"
        if not isinstance(sid, str) or sid not in L.size:
            return str(kind)
        name = B.ship_name(sid)
        if kind == "place":
            col, row = int(action["col"]), int(action["row"])
            cells = B.cells_of(L.size[sid], (col, row, True))
            return f"place {name} on {B.span_label(cells)}"
        if kind == "travel":
            return f"{name}: travel {DIR_WORDS.get(action['dir'], '?')} {action['dist']}"
        if kind == "rotate":
            return f"{name}: rotate about its {DIR_WORDS.get(action['pivot'], '?')} end to {DIR_WORDS.get(action['to'], '?')}"
        return str(kind)

    def action_path(self, seat: int, action: dict) -> list[tuple[str, str]]:
        kind = action.get("type")
        if kind == "pass":
            if self.state["phase"] == "play" and self._declines(seat):
                return [("pass", "Pass"), ("pass", "Pass: decline the extra turn (the game ends now)")]
            return [("pass", "Pass"), ("pass", "Pass: no ship can move")]
        sid = action["ship"]
        size = L.size[sid]
        if kind == "place":
            row = int(action["row"])
            mark = L.mark(seat, row)
            cells = B.cells_of(size, (int(action["col"]), row, True))
            return [
                (f"ship:{sid}", f"{size}-ship (row {row + 1}, marked {mark})"),
                (f"col:{B.cell_label(*cells[0])}", B.span_label(cells)),
            ]
        ships = self.ships()
        here = B.cells_of(size, ships[sid])
        new = B.cells_of(size, B.move_result(ships, action))
        first = (f"ship:{sid}", f"{size}-ship at {B.span_label(here)}")
        if kind == "travel":
            d, n = action["dir"], int(action["dist"])
            return [first, (f"t{d}{n}", f"travel {DIR_WORDS[d]} {n} → {B.span_label(new)}")]
        pivot = B.ends(size, ships[sid])[action["pivot"]]
        return [
            first,
            (
                f"r{action['pivot']}{action['to']}",
                f"rotate about {B.cell_label(*pivot)} to {DIR_WORDS[action['to']]} → {B.span_label(new)}",
            ),
        ]

    def menu_titles(self, seat: int) -> list[str]:
        if self.state["phase"] == "placement":
            return ["Choose a ship to place", "Choose its squares"]
        return ["Choose a ship to move", "Choose its move"]

    def prompt(self, seat: int) -> str:
        st = self.state
        if self.is_over:
            return "The game is over."
        if seat != st["turn"]:
            return f"Wait for {who(st['turn'])} to play."
        if st["phase"] == "placement":
            sizes = ", ".join(f"{L.size[s]}-ship" for s in self.placeable(seat))
            return f"Place one of your ships on its home row ({sizes}); each lies along the row marked with its size."
        acts = self.legal_actions(seat)
        if acts == [{"type": "pass"}]:
            return "None of your ships can move: pass."
        anchored = st["anchor"][str(seat)]
        extra = (
            " This is your last turn: you may also pass, and the game ends as it stands."
            if st["final"]
            else ""
        )
        if anchored:
            where = B.span_label(self.cells(anchored))
            return f"Move one of your ships (not the anchored {L.size[anchored]}-ship at {where}).{extra}"
        return f"Move one of your ships: travel up to its size or rotate about an end.{extra}"

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
