"""A seat's menu tree is built once per position (issue 19, the CPU of a move): a move's clicks and its
publish ask for the same tree several times, and building it (every legal action and its menu path)
was most of a move's engine time."""

from __future__ import annotations

import random

from bot import menus
from bot.games import registry
from bot.host import Host, NullDelivery
from bot.tables import Tables
from tests.bot.test_round_trips import enemy_lines, one_move_by_clicks


def counted(game) -> list[int]:
    """Count the calls of ``game.legal_actions`` (on this engine only)."""
    calls = [0]
    real = game.legal_actions

    def legal_actions(seat):
        calls[0] += 1
        return real(seat)

    game.legal_actions = legal_actions
    return calls


def shape(node: menus.Node) -> list:
    """What a tree offers: keys, labels, descriptions and actions, depth first."""
    return [node.key, node.label, node.description, node.action, node.then, [shape(c) for c in node.children]]


def warships_in_play(seed: int = 3):
    game = registry.get("warships").new(players=2, options={"quick-setup": True}, seed=seed)
    return game, game.to_act()[0]


def test_the_tree_of_one_position_is_built_once():
    game, seat = warships_in_play()
    calls = counted(game)
    names = ["Ann", "Bob"]
    first = menus.build_tree(game, seat, names)
    built = calls[0]  # (the game's menu_entries may list the legal actions once more)
    assert built >= 1
    assert menus.build_tree(game, seat, names) is first
    assert menus.open_level(game, seat, names=names) is not None
    assert calls[0] == built


def test_a_tree_lists_the_legal_actions_once():
    # its fingerprint and its entries are made from one list (Warships' costs a millisecond or more);
    # (Enemy in Sight's menus list a shot's follow-ups too, each in a position of their own)
    positions = [
        warships_in_play(),
        (registry.get("enemy-lines").new(players=2, options={"quick-setup": True}, seed=2), None),
    ]
    for game, seat in positions:
        seat = game.to_act()[0] if seat is None else seat
        calls = counted(game)
        tree = menus.build_tree(game, seat, ["Una", "Vik"])  # (names no other test builds a tree for)
        assert calls[0] == 1, type(game).__name__
        assert menus.walk(tree, (0,)) is not None


def test_a_reader_of_a_regional_english_finds_the_english_tree():
    """A DM's reader in "en-US" and the host's own English ask for the same tree: the language word
    made at run time (not interned) and the one written in code key it alike."""
    from bot.i18n import Speaker

    game, seat = warships_in_play()
    names = ["".join(["A", "nn"]), "Bob"]  # a name built at run time, as read from the database
    english = menus.build_tree(game, seat, ["Ann", "Bob"])
    calls = counted(game)
    assert menus.build_tree(game, seat, names, Speaker("en-US")) is english
    assert menus.open_level(game, seat, names=names, speaker=Speaker("en-GB")) is not None
    assert calls[0] == 0


def test_a_move_applied_gives_the_tree_of_the_new_position():
    game, seat = warships_in_play()
    before = menus.build_tree(game, seat)
    rng = random.Random(1)
    for _ in range(6):
        seat = game.to_act()[0]
        menus.build_tree(game, seat)  # kept for the position before the move
        game.apply(seat, game.ai_action(seat, rng))
        seat = game.to_act()[0]
        fresh = type(game).from_json(game.to_json())
        assert shape(menus.build_tree(game, seat)) == shape(menus.build_tree(fresh, seat))
    assert shape(menus.build_tree(game, game.to_act()[0])) != shape(before)


def test_a_refused_move_leaves_the_tree_right():  # (Game.apply restores the state it changed)
    game, seat = warships_in_play()
    kept = shape(menus.build_tree(game, seat))
    try:
        game.apply(seat, {"type": "no such move"})
    except Exception:  # noqa: BLE001 - IllegalAction: the position is unchanged
        pass
    assert shape(menus.build_tree(game, seat)) == kept


def test_a_state_put_in_place_gives_its_own_tree():
    # bot/replay.py puts an earlier position into an engine in place (its state and generator)
    game, seat = warships_in_play()
    start = type(game).from_json(game.to_json())
    menus.build_tree(game, seat)
    rng = random.Random(2)
    for _ in range(3):
        game.apply(game.to_act()[0], game.ai_action(game.to_act()[0], rng))
    moved = shape(menus.build_tree(game, game.to_act()[0]))
    game.state = start.state
    game.rng.setstate(start.rng.getstate())
    assert shape(menus.build_tree(game, seat)) == shape(menus.build_tree(start, seat)) != moved


def test_names_and_seats_have_trees_of_their_own():
    game = registry.get("warships").new(players=2, options={}, seed=4)
    seats = game.to_act()
    assert len(seats) == 2  # both set up their fleets at once
    a = menus.build_tree(game, seats[0], ["Ann", "Bob"])
    b = menus.build_tree(game, seats[1], ["Ann", "Bob"])
    assert a is not b
    c = menus.build_tree(game, seats[0], ["Zoë", "Bob"])
    assert c is not a and c.key == a.key
    assert menus.build_tree(game, seats[0], ["Ann", "Bob"]) is a


async def test_a_move_by_clicks_through_the_host_builds_its_menu_once(storage, monkeypatch):
    # Before: once per click (the first level, then each choice) and again for every publish that shows
    # the menu (three for a move of two clicks here).
    host = Host(storage, NullDelivery(), ai_delay=0.0, job_poll=600.0, job_sweep=3600.0)
    try:
        table = await enemy_lines(host)
        await one_move_by_clicks(host, table.id)
        await host.idle()
        cls = type((await host.table(table.id)).game)
        calls = [0]
        real = cls.legal_actions

        def legal_actions(self, seat):
            calls[0] += 1
            return real(self, seat)

        monkeypatch.setattr(cls, "legal_actions", legal_actions)
        for _ in range(3):
            calls[0] = 0
            await one_move_by_clicks(host, table.id)
            await host.idle()
            # the tree of the move's position once (its fingerprint and the game's menu entries: two
            # listings), and applying the move checks it is legal (``is_legal``: one more); 7 before
            assert calls[0] <= 3, calls
    finally:
        await host.close()


def test_engines_of_one_position_share_their_trees():
    # the publisher draws from an engine of its own, built from the stored snapshot, while the clicks
    # use the host's cached engine of the same version: one tree for both
    game, seat = warships_in_play(seed=8)
    snapshot = game.to_json()
    ours, theirs = type(game).from_json(snapshot), type(game).from_json(snapshot)
    menus.same_as(ours, snapshot)  # (as the host's engines are told)
    menus.same_as(theirs, snapshot)
    calls = counted(theirs)
    tree = menus.build_tree(ours, seat, ["Ann", "Bob"])
    assert menus.build_tree(theirs, seat, ["Ann", "Bob"]) is tree
    assert calls[0] == 0
    # once an engine moves on, it has the tree of its new position
    theirs.apply(seat, theirs.ai_action(seat, random.Random(3)))
    after = theirs.to_act()[0]
    assert shape(menus.build_tree(theirs, after)) == shape(
        menus.build_tree(type(game).from_json(theirs.to_json()), after)
    )
    assert menus.build_tree(ours, seat, ["Ann", "Bob"]) is tree


def test_a_position_changed_in_place_gives_its_own_tree():
    # (tests set positions up so, on the host's cached engine: the menu must follow)
    game = registry.get("enemy-lines").new(players=2, options={"quick-setup": True}, seed=5)
    seat = game.to_act()[0]
    before = menus.build_tree(game, seat)
    other = type(game).from_json(game.to_json())
    rng = random.Random(4)
    other.apply(seat, other.ai_action(seat, rng))
    other.apply(other.to_act()[0], other.ai_action(other.to_act()[0], rng))
    assert other.to_act() == [seat]
    game.state.clear()
    game.state.update(other.state)  # the same dict, its content changed
    assert shape(menus.build_tree(game, seat)) == shape(menus.build_tree(other, seat)) != shape(before)


def test_a_position_is_the_game_its_options_state_seat_and_names():
    game = registry.get("enemy-in-sight").new(players=2, options={"variant": "base"}, seed=6)
    seat = game.to_act()[0]
    snapshot = game.to_json()
    menus.same_as(game, snapshot)
    same = type(game).from_json(snapshot)
    menus.same_as(same, snapshot)
    other_rules = type(game).from_json(snapshot)
    other_rules.options = {"variant": "advanced"}

    def position(game, seat, names):
        return menus._position(game, seat, names)[1]

    key = position(game, seat, ["Ann", "Bob"])
    assert position(same, seat, ["Ann", "Bob"]) == key
    assert position(other_rules, seat, ["Ann", "Bob"]) != key
    assert position(game, 1 - seat, ["Ann", "Bob"]) != key
    assert position(game, seat, ["Ann", "Zoë"]) != key
    assert position(game, seat, None) != key


def test_a_view_held_meanwhile_does_not_hide_the_tree():
    # a view shares parts of the state; the position must not look changed for it
    game, seat = warships_in_play(seed=9)
    tree = menus.build_tree(game, seat)
    held = [game.view(None), game.view(seat), game.legal_actions(seat)]
    assert menus.build_tree(game, seat) is tree
    assert held


def test_an_engine_keeps_its_trees_when_many_games_pushed_them_out(monkeypatch):
    # 500 games at once build more trees between a move's publish and its next click than are shared
    monkeypatch.setattr(menus, "TREES", 2)
    game, seat = warships_in_play(seed=10)
    tree = menus.build_tree(game, seat, ["Ann", "Bob"])
    for n in range(5):  # other games' trees
        other, other_seat = warships_in_play(seed=20 + n)
        menus.build_tree(other, other_seat)
    calls = counted(game)
    assert menus.build_tree(game, seat, ["Ann", "Bob"]) is tree
    assert calls[0] == 0


class _Key(str):
    """A menu key that counts how often it is compared."""

    compared = 0

    def __eq__(self, other):
        _Key.compared += 1
        return str.__eq__(self, other)

    __hash__ = str.__hash__


class _WideMenu:
    """A position whose one level holds ``n`` entries, each under its own key."""

    def __init__(self, n: int) -> None:
        self.n = n

    def legal_actions(self, seat):
        return [{"type": "pick", "i": i} for i in range(self.n)]

    def menu_entries(self, seat, legal=None):
        group = (_Key("pick"), "Pick")
        return [([{"type": "pick", "i": i}], [group, (_Key(f"e{i}"), f"Entry {i}")]) for i in range(self.n)]


def test_a_wide_level_is_built_in_linear_time():
    """A level of n entries is built with about n key look-ups, not a scan of the children built so far
    for each entry (n²/2 comparisons: Warships' levels hold a unit's every target); the tree is the same."""
    _Key.compared = 0
    root = menus._build_tree(_WideMenu(2000), 0, None)
    assert [c.key for c in root.children] == ["pick"]
    assert [c.label for c in root.children[0].children] == [f"Entry {i}" for i in range(2000)]
    assert _Key.compared < 3 * 2000


def test_a_read_only_engine_reads_its_state_again_only_when_a_move_is_applied(monkeypatch):
    # the publisher's engines are copies that are only read: each ask for a tree need not marshal the
    # whole state again to see whether it changed
    game = registry.get("enemy-lines").new(players=2, options={"quick-setup": True}, seed=8)
    snapshot = game.to_json()
    seat = game.to_act()[0]
    copy = type(game).from_json(snapshot)
    menus.same_as(copy, snapshot, read_only=True)
    reads = []
    real = menus.marshal.dumps
    monkeypatch.setattr(
        menus.marshal, "dumps", lambda data, *a: reads.append(data is copy.state) or real(data, *a)
    )
    tree = menus.build_tree(copy, seat)
    assert menus.build_tree(copy, seat) is tree and menus.open_level(copy, seat) is not None
    assert not any(reads)
    copy.apply(seat, copy.ai_action(seat, random.Random(2)))  # a move applied to it after all
    after = copy.to_act()[0]
    fresh = type(game).from_json(copy.to_json())
    assert shape(menus.build_tree(copy, after)) == shape(menus.build_tree(fresh, after))
    assert any(reads)  # its state was read again


def test_the_host_engine_finds_the_trees_its_publishers_copy_built(monkeypatch):
    # with many games at once the shared trees turn over between a publish and the next click
    monkeypatch.setattr(menus, "TREES", 1)
    tables = Tables(storage=None)  # (caching and copying read no storage)
    game, seat = warships_in_play(seed=11)
    snapshot = game.to_json()
    tables.cache(7, game, 3, snapshot)
    copy = tables._copy_of_cached(7, 3, snapshot)
    assert copy is not None and copy is not game
    tree = menus.build_tree(copy, seat, ["Wim", "Xan"])  # the publish draws the DM with it
    menus.build_tree(registry.get("enemy-lines").new(players=2, options={}, seed=1), 0)  # pushes it out
    calls = counted(game)
    assert menus.build_tree(game, seat, ["Wim", "Xan"]) is tree  # the click on the cached engine
    assert calls[0] == 0
    # once the cached engine moves on, it builds the trees of its new position
    game.apply(seat, game.ai_action(seat, random.Random(1)))
    after = game.to_act()[0]
    assert shape(menus.build_tree(game, after)) == shape(
        menus.build_tree(type(game).from_json(game.to_json()), after)
    )
