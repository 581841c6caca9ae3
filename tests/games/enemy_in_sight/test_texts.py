"""Enemy in Sight's words beside its picture (issue 19): ``view_text``, ``alt_text`` and ``key_text``
are built from the view alone, say what left the picture (scores, hands as counts, decks, whose turn;
a player's own hand and ships), fit their places, and never tell a spectator or another seat a hand or
a secret Line/Reserve arrangement (checked by changing the hidden parts of seeded games)."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.games import registry, who
from bot.games.enemy_in_sight import AdvancedEnemyInSight, EnemyInSight
from tests.games.enemy_in_sight.playthrough import positions

SPEC = registry.get("enemy-in-sight")
NAMES = ["Ann", "Bob", "Cy", "Dee", "Ed", "Flo"]


def hide_differently(game, keep: int | None, rng: random.Random) -> None:
    """Change every hidden thing ``keep`` (None: nobody) may not see, keeping what everyone sees: the
    other seats' hands (as many cards, other ones) and their secret arrangements (reordered)."""
    state = game.state
    for seat, hand in enumerate(state["hands"]):
        if seat == keep or not hand:
            continue
        pool = hand + state["deck"]
        rng.shuffle(pool)
        state["hands"][seat], state["deck"] = pool[: len(hand)], pool[len(hand) :]
    for seat, mine in enumerate(state.get("arrange") or []):
        if seat != keep and mine and state["phase"] == "arrange":
            ships = mine["line"] + mine["reserve"]
            rng.shuffle(ships)
            mine["line"], mine["reserve"] = ships, []


def texts(game, seat):
    view = game.view(seat)
    return game.view_text(view, NAMES), game.alt_text(view, NAMES)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(min_value=2, max_value=6),
    advanced=st.booleans(),
    seed=st.integers(min_value=0, max_value=10_000),
)
def test_texts_tell_nobody_a_hand_or_a_secret_arrangement(players, advanced, seed):
    options = {"variant": "advanced"} if advanced else {}
    rng = random.Random(seed)
    checked = 0
    for _, game in positions(players, options, seed, every=70):
        before = {seat: texts(game, seat) for seat in (None, 0, players - 1)}
        saved = json.loads(json.dumps(game.state))
        for seat in before:
            hide_differently(game, seat, rng)
            assert texts(game, seat) == before[seat], (seat, game.state["phase"])
            game.state = json.loads(json.dumps(saved))
        checked += 1
    assert checked >= 2


def test_the_hidden_parts_were_really_changed():
    """The check above means something: the same change does alter what the owner of a hand reads."""
    _, game = next(iter(positions(4, {"variant": "advanced"}, seed=2)))
    own_before = texts(game, 1)
    hide_differently(game, 0, random.Random(1))  # seat 1's hand and arrangement change
    assert texts(game, 1)[0] != own_before[0]


@pytest.mark.parametrize("players", [2, 4, 6])
@pytest.mark.parametrize("options", [{}, {"variant": "advanced"}], ids=["base", "advanced"])
def test_texts_say_what_left_the_picture_and_fit(players, options):
    names = [f"N{i}_{'x' * 28}" for i in range(players)]  # 32 characters: Discord's longest names
    for label, game in positions(players, options, seed=players + 20, every=80):
        for seat in [None, *range(players)]:
            view = game.view(seat)
            text = game.view_text(view, names)
            alt = game.alt_text(view, names)
            assert "⟨" not in text + alt, label
            assert 0 < len(alt) <= 256, (label, alt)
            for p in range(players):
                assert f"`{p + 1}` {names[p]}: **{view['scores'][p]} VP**" in text, label
            if seat is None:
                # the channel's words: short beside the log, controls and seats (names aside)
                assert len(game.view_text(view, None)) <= 600, (label, game.view_text(view, None))
            else:
                for card in view["hand"]:
                    assert card["name"] in text, (label, card)
                for ship in view.get("arrange", {}).get("line", []):
                    assert ship["name"] in text, label
            if view["over"]:
                assert "Game over" in text and "game over" in alt


def test_the_texts_are_built_from_the_view_alone():
    """Static hooks on the classes (no game needed), fed a view that went through JSON."""
    for label, game in positions(3, {"variant": "advanced"}, seed=5, every=100):
        view = json.loads(json.dumps(game.view(1)))
        cls = type(game)
        assert cls.view_text(view, NAMES) == game.view_text(game.view(1), NAMES), label
        assert cls.alt_text(view, NAMES) == game.alt_text(game.view(1), NAMES), label


def test_alt_text_is_one_sentence_with_the_last_move():
    for _label, game in positions(2, {}, seed=1, every=30):
        view = game.view(None)
        if view["last_events"] and not view["over"]:
            view = dict(view, last_events=[f"{who(1)} fires at {who(0)}'s Victory."])
            alt = game.alt_text(view, ["Ann", "Bob (AI)"])
            assert alt.startswith("Enemy in Sight, 2 fleets, round ") and "to act" in alt, alt
            assert alt.endswith("last: Bob (AI) fires at Ann's Victory."), alt
            return
    raise AssertionError("no position with a last move")


def test_key_text_explains_the_picture_and_the_advanced_stations():
    view = SPEC.new(2, {}, seed=1).view(None)
    base = EnemyInSight.key_text(view)
    for word in (
        "badge",
        "**D** dealer",
        "**RB**",
        "Hull left (green)",
        "Rigging left (blue)",
        "flame",
        "struck",
    ):
        assert word in base, word
    advanced = AdvancedEnemyInSight.key_text(view)
    assert advanced.startswith(base) and "Reserve" in advanced and "station" in advanced
    assert "Reserve" not in base.replace("Refuse", "")


def test_a_player_reads_their_secret_arrangement_and_nobody_else_does():
    _, game = next(iter(positions(3, {"variant": "advanced"}, seed=6)))
    own = game.view_text(game.view(0), NAMES)
    line = game.view(0)["arrange"]["line"]
    assert "**Your secret Line**" in own and all(s["name"] in own for s in line)
    for seat in (None, 1, 2):
        other = game.view_text(game.view(seat), NAMES) + game.alt_text(game.view(seat), NAMES)
        assert not any(s["name"] in other for s in line), seat
    assert "Your secret Line" not in game.view_text(game.view(None), NAMES)
