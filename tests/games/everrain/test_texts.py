"""The words beside the Everrain picture (issue 19): view_text, alt_text and key_text, built from a
view alone, with the names filled in, short enough for the message and the screen reader."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.games import registry
from bot.games.everrain.game import EverrainGame

NAMES = ["Alice", "Bob", "Carol", "Dan"]
LONG = ["W" * 32, "Ж" * 32, "龍" * 32, "🚢" * 32]


def _played(players: int, moves: int, seed: int = 4, options: dict | None = None) -> EverrainGame:
    g = registry.get("everrain").new(players=players, options=options or {}, seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if g.is_over:
            break
        seat = g.to_act()[0]
        g.apply(seat, g.ai_action(seat, rng))
    return g


def test_view_text_gives_turn_tracks_ships_enemies_and_the_last_enemy_dice():
    g = _played(2, 40)
    view = g.view(None)
    text = EverrainGame.view_text(view, NAMES[:2])
    t = view["tracks"]
    assert f"Round {view['round']}" in text
    assert f"Agenda {t['agenda']}/{t['agenda_length']}" in text
    assert f"Discovery {t['discovery']}/{t['discovery_end']}" in text
    assert f"Enemy Discovery {t['enemy_discovery']}/{t['enemy_discovery_end']}" in text
    assert "**1** Alice" in text and "**2** Bob" in text  # the badge number beside the name
    for e in view["enemies"]:
        assert f"**{e['tag']}** {e['name']}" in text
    la = view["last_activation"]
    assert la and "Last enemy" in text and la["name"] in text and "rolled" in text
    assert "⟨" not in text
    assert len(text) <= 700


def test_a_seats_view_text_adds_its_ship_board_and_nothing_else():
    g = _played(3, 30)
    channel = EverrainGame.view_text(g.view(None), NAMES[:3])
    assert "Your ship" not in channel
    for seat in range(3):
        mine = EverrainGame.view_text(g.view(seat), NAMES[:3])
        assert mine.startswith(channel + "\n")
        assert f"**Your ship ({seat + 1})**" in mine and "Crew: " in mine


def test_texts_come_from_the_view_only():
    """The hooks are static: a JSON copy of the view gives the same words, and what the view does not
    hold (the enemy deck's order) changes nothing."""
    g = _played(2, 25)
    for seat in (None, 0, 1):
        view = g.view(seat)
        copy = json.loads(json.dumps(view))
        assert EverrainGame.view_text(copy, NAMES) == EverrainGame.view_text(view, NAMES)
        assert EverrainGame.alt_text(copy, NAMES) == EverrainGame.alt_text(view, NAMES)
        before = (EverrainGame.view_text(view, NAMES), EverrainGame.alt_text(view, NAMES))
        g.state["deck"].reverse()
        after = g.view(seat)
        assert (EverrainGame.view_text(after, NAMES), EverrainGame.alt_text(after, NAMES)) == before


def test_alt_text_is_one_sentence_of_at_most_256_characters_with_long_names():
    for players in (1, 2, 3, 4):
        g = _played(players, 0)
        rng = random.Random(players)
        while True:
            for seat in [None, *range(players)]:
                alt = EverrainGame.alt_text(g.view(seat), LONG[:players])
                assert alt.startswith("The Everrain") and alt.endswith(".") and len(alt) <= 256, alt
                assert "⟨" not in alt
            if g.is_over:
                break
            for _ in range(15):
                if g.is_over:
                    break
                seat = g.to_act()[0]
                g.apply(seat, g.ai_action(seat, rng))
    over = EverrainGame.alt_text(g.view(None), NAMES)
    assert "game over" in over


def test_alt_text_says_who_is_to_act():
    g = _played(2, 0)
    view = g.view(None)
    cur = view["current"]
    assert f"{NAMES[cur]}'s ship {cur + 1} to act" in EverrainGame.alt_text(view, NAMES)


def test_key_text_explains_the_marks_and_the_ship_board_in_every_view():
    """The ship board's nodes are numbers in the picture now (issues 19, 21): the channel's Key and
    /game rules (both of the spectators' view) say which number is which node too."""
    g = _played(2, 0)
    channel = EverrainGame.key_text(g.view(None))
    for word in ("port", "rough sea", "island", "Rift", "clue site", "Engagement Range", "Agenda", "badge"):
        assert word in channel, word
    assert "Ship board" in channel
    assert "Ship board" in EverrainGame.key_text(g.view(0))


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    players=st.integers(1, 4),
    moves=st.integers(0, 150),
    seed=st.integers(0, 10_000),
    scenario=st.sampled_from(["strait", "archipelago"]),
)
def test_texts_fit_for_any_seeded_playout(players, moves, seed, scenario):
    g = _played(players, moves, seed, {"scenario": scenario})
    for seat in [None, *range(players)]:
        view = g.view(seat)
        text = EverrainGame.view_text(view, LONG[:players])
        assert text and "⟨" not in text
        assert len(EverrainGame.alt_text(view, LONG[:players])) <= 256
    assert len(EverrainGame.view_text(g.view(None), NAMES[:players])) <= 700


def test_key_text_without_a_game_has_the_whole_key():
    key = EverrainGame.key_text({})
    assert "Map" in key and "Ship board" in key


def test_view_text_tells_of_omens_waiting_for_a_decision():
    g = _played(1, 0)
    view = g.view(None)
    view["pending"] = {"seat": 0, "enemy": 1, "omens": 2}
    assert "2 Omens to keep or turn into Damage" in EverrainGame.view_text(view, NAMES)


def test_a_long_enemy_list_gives_way_to_stay_short():
    g = _played(4, 40)
    view = g.view(None)
    e = view["enemies"][0]
    view["enemies"] = [dict(e, tag=chr(ord("a") + k), name="Iron Leviathan") for k in range(12)]
    text = EverrainGame.view_text(view, LONG)
    assert len(text) <= 700
    assert "more" in text and "**a** Iron Leviathan" in text
    assert text.count("**") % 2 == 0  # no bold cut in half
