"""Undo by agreement, engine side: the generic checks of ``Game.undo_refusal`` on toy games, and on
every registered game that asking never changes the game and always gives the same answer."""

from __future__ import annotations

import random

import pytest

from bot.games import registry
from bot.games.base import Game, knowledge, reveals

KEYS = registry.keys()


class Toy(Game):
    """One seat; "step" moves a marker, "roll" rolls a die, "peek" shows a secret to the seat,
    "show" turns the hidden card face up (no randomness, no private event)."""

    key = "toy-undo"

    def setup(self) -> None:
        self.state = {
            "pos": 0,
            "die": None,
            "card": f"card-{self.rng.randrange(100)}",
            "shown": False,
            "peeked": False,
        }

    def to_act(self):
        return [0]

    def legal_actions(self, seat):
        return [{"type": t} for t in ("step", "roll", "peek", "show")]

    def _apply(self, seat, action):
        t = action["type"]
        if t == "step":
            self.state["pos"] += 1
        elif t == "roll":
            self.state["die"] = self.rng.d(6)
        elif t == "peek":
            self.state["peeked"] = True
            return [{"type": "peek", "text": "you see the card", "private_to": 0}]
        else:
            self.state["shown"] = True
        return [{"type": t, "text": t}]

    def view(self, seat):
        s = self.state
        v = {"pos": s["pos"], "die": s["die"], "card": s["card"] if s["shown"] else None}
        if seat == 0:  # the seat holds the card: it knows it, spectators do not until it is shown
            v["mine"] = s["card"]
        return v

    @property
    def is_over(self):
        return False

    @property
    def result(self):
        return None


def toy() -> Toy:
    return Toy(1, {}, seed=3)


def test_undo_allowed_for_a_move_that_reveals_nothing_and_draws_nothing():
    assert toy().undo_refusal(0, {"type": "step"}) is None


def test_undo_refused_when_the_generator_moved_a_die_roll():
    assert "chance" in toy().undo_refusal(0, {"type": "roll"})


def test_undo_refused_for_a_private_event():
    assert "secret" in toy().undo_refusal(0, {"type": "peek"})


def test_undo_refused_when_hidden_information_becomes_visible():
    g = toy()
    assert g.undo_refusal(0, {"type": "show"}) == "it revealed hidden information"
    before = knowledge(g)
    g.apply(0, {"type": "show"})
    assert reveals(before, knowledge(g))


def test_undo_refusal_leaves_the_game_unchanged():
    g = toy()
    text = g.to_json()
    for t in ("step", "roll", "peek", "show"):
        g.undo_refusal(0, {"type": t})
    assert g.to_json() == text


def test_undo_refusal_of_an_illegal_action_is_a_refusal():
    assert toy().undo_refusal(0, {"type": "fly"}).startswith("it is not a move")


@pytest.mark.parametrize("key", KEYS)
def test_undo_refusal_is_pure_and_deterministic_on_every_game(key):
    spec = registry.get(key)
    opts = {"quick-setup": True} if spec.option("quick-setup") else {}
    g = spec.new(spec.min_players, opts, seed=11)
    rnd = random.Random(5)
    for _ in range(60):
        if g.is_over:
            break
        seat = g.to_act()[0]
        action = rnd.choice(g.legal_actions(seat))
        text = g.to_json()
        first = g.undo_refusal(seat, action)
        assert g.to_json() == text
        assert spec.from_json(text).undo_refusal(seat, action) == first
        g.apply(seat, action)
