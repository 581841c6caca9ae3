"""Undo by agreement, engine side: the generic checks of ``Game.undo_refusal`` on toy games, and on
every registered game that asking never changes the game and always gives the same answer."""

from __future__ import annotations

import random

import pytest

from bot.games import fill_names, registry
from bot.games.base import Game, knowledge, reveals
from bot.undo import accepted_text, declined_text, request_text, shown, taken_back_text

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


# Every game (with its secret variant): the positions of a few seeded random playouts, and at each the
# undoable actions of the seats to act (a sample); the offline search found the leaks this way.
UNDO_TEXT_GAMES = [(key, {}) for key in KEYS] + [
    ("enemy-in-sight", {"variant": "advanced"}),
    ("warships", {"quick-setup": True}),  # its secret set-up cannot be undone: the moves after it
]
NAMES = ["Alice", "Bob", "Carol", "Dave"]


def undoable_moves(key: str, options: dict, seed: int, steps: int = 30, sample: int = 3):
    """(game before, seat, action) of undoable actions along a random playout (the game is a copy)."""
    spec = registry.get(key)
    g = spec.new(spec.min_players, options, seed=seed)
    rnd = random.Random(seed)
    for _ in range(steps):
        if g.is_over:
            return
        for seat in g.to_act():
            legal = g.legal_actions(seat)
            for action in rnd.sample(legal, min(sample, len(legal))):
                if g.undo_refusal(seat, action) is None:
                    yield spec.from_json(g.to_json()), seat, action
        seat = g.to_act()[0]
        g.apply(seat, rnd.choice(g.legal_actions(seat)))


def public_undo_texts(before, seat: int, action: dict) -> list[str]:
    """Every text about undoing ``action`` that someone other than its mover reads (names filled)."""
    public = fill_names(shown(before, seat, action), NAMES)
    asker = NAMES[seat]
    return [
        request_text(asker, [200, 300], 5, public),
        accepted_text(asker, public),
        declined_text(asker, public),
        fill_names(taken_back_text(seat, shown(before, seat, action)), NAMES),
    ]


@pytest.mark.parametrize(
    ("key", "options"), UNDO_TEXT_GAMES, ids=[f"{k}-{'-'.join(o) or 'base'}" for k, o in UNDO_TEXT_GAMES]
)
def test_public_undo_texts_carry_nothing_of_a_secret_move(key, options):
    """A move's undo texts (request, accept, decline, taken back) show only what its public events showed:
    the engine's description of a secret move (a ship put in a hidden Line) appears in none of them,
    and two moves that showed the same give the same texts."""
    unshown = 0
    for seed in (1, 2, 3):
        by_public: dict[tuple[int, str], list[str]] = {}
        for before, seat, action in undoable_moves(key, options, seed):
            public = " ".join(
                e["text"]
                for e in type(before).from_json(before.to_json()).apply(seat, action)
                if "private_to" not in e and e.get("text")
            )
            label = fill_names(before.describe(action), NAMES)
            texts = public_undo_texts(before, seat, action)
            if label not in fill_names(public, NAMES):
                unshown += 1
                assert not any(label in t for t in texts), (key, seed, action, texts)
            assert by_public.setdefault((seat, public), texts) == texts, (key, seed, action)
    if options:
        assert unshown >= 50, "the playouts reached undoable moves whose description the channel did not see"
