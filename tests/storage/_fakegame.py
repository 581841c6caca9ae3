"""A tiny private game for the storage tests ("tally"), so they do not depend on a real game.

Seats take turns; each adds 1–3 times a die roll (from the game's seeded generator) to its total.
The game ends after ``length`` moves; the highest total wins. Loaded by path (tests/storage/conftest.py
and the crash subprocess), never registered in the real registry.
"""

from __future__ import annotations

from bot.games.base import Game, GameSpec, Option


class Tally(Game):
    key = "tally-test"

    def setup(self) -> None:
        self.state = {
            "turn": self.rng.randrange(self.players),
            "moves": 0,
            "totals": {str(s): 0 for s in range(self.players)},
            "rolls": [],
            "last": None,
        }

    def to_act(self) -> list[int]:
        return [] if self.is_over else [self.state["turn"]]

    def legal_actions(self, seat: int) -> list[dict]:
        if seat not in self.to_act():
            return []
        return [{"type": "add", "n": n} for n in (1, 2, 3)]

    def _apply(self, seat: int, action: dict) -> list[dict]:
        roll = self.rng.d(6)
        gain = action["n"] * roll
        self.state["totals"][str(seat)] += gain
        self.state["rolls"].append(roll)
        self.state["moves"] += 1
        self.state["last"] = {"seat": seat, "n": action["n"], "roll": roll}
        self.state["turn"] = (seat + 1) % self.players
        return [{"type": "add", "text": f"Seat {seat} adds {action['n']}×{roll}."}]

    def view(self, seat: int | None) -> dict:
        return {"totals": dict(self.state["totals"]), "to_act": self.to_act(), "last": self.state["last"]}

    @property
    def is_over(self) -> bool:
        return self.state["moves"] >= self.options["length"]

    @property
    def result(self) -> dict | None:
        if not self.is_over:
            return None
        totals = self.state["totals"]
        best = max(totals.values())
        return {"scores": dict(totals), "winners": [int(s) for s, v in totals.items() if v == best]}


SPEC = GameSpec(
    key="tally-test",
    title="Tally (storage test game)",
    min_players=2,
    max_players=4,
    cls=Tally,
    options=(Option("length", "int", 10, "number of moves", min=1, max=100_000),),
)
