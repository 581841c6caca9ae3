"""One test per rule of Enemy Lines (docs/rules/enemy-lines.md maps each rule sentence to these)."""

from __future__ import annotations

import pytest

from bot.games import IllegalAction, fill_names, who
from bot.games.enemy_lines import board as B
from bot.games.enemy_lines.board import LAYOUT


def cellset(game, ship):
    return {tuple(c) for c in game.cells(ship)}


def labels(game, ship):
    return B.span_label(game.cells(ship))


# ----- set-up -------------------------------------------------------------------------------------------
def test_random_starting_player(spec):
    starts = {seed: spec.new(2, {}, seed=seed).state["start"] for seed in range(40)}
    assert set(starts.values()) == {0, 1}  # both players start in some games
    for seed, start in starts.items():
        game = spec.new(2, {}, seed=seed)
        assert game.state["start"] == start  # seeded: the same seed, the same starting player
        assert game.to_act() == [start]  # the starting player places first
        assert game.view(None)["start"] == start


def test_alternating_placement_beginning_with_starting_player(spec):
    for seed in (1, 2, 3, 4):
        game = spec.new(2, {}, seed=seed)
        start = game.state["start"]
        order = []
        while game.state["phase"] == "placement":
            seat = game.to_act()[0]
            order.append(seat)
            game.apply(seat, game.legal_actions(seat)[0])
        assert order == [start, 1 - start] * 5  # ten placements, alternating
        assert game.state["phase"] == "play"
        assert game.to_act() == [start]  # the starting player takes the first turn


def test_each_side_has_five_ships_4_3_3_2_2(spec):
    view = spec.new(2, {}, seed=0).view(None)
    for seat in (0, 1):
        sizes = sorted((s["size"] for s in view["ships"] if s["seat"] == seat), reverse=True)
        assert sizes == [4, 3, 3, 2, 2]


def test_ships_placed_on_their_home_rows(spec):
    """4-ship on the back row (marked 4), 3-ships on row marked 3, 2-ships on row marked 2."""
    for seed in range(6):
        game = spec.new(2, {"quick-setup": True}, seed=seed)
        for ship in game.view(None)["ships"]:
            seat, size = ship["seat"], ship["size"]
            rows = {r for _, r in ship["cells"]}
            assert len(rows) == 1
            row = rows.pop()
            assert row in LAYOUT.home_rows[seat]
            assert LAYOUT.mark(seat, row) == size
        # Blue's back row is row 1, Red's row 8
        assert game.cells("b4")[0][1] == 0 and game.cells("r4")[0][1] == 7


def test_ships_not_placed_along_columns(spec):
    game = spec.new(2, {}, seed=3)
    seat = game.to_act()[0]
    sid = "b4" if seat == 0 else "r4"
    for action in game.legal_actions(seat):
        cells = B.cells_of(LAYOUT.size[action["ship"]], (action["col"], action["row"], True))
        assert len({r for _, r in cells}) == 1  # every offered placement lies along a row
    before = game.to_json()
    with pytest.raises(IllegalAction):  # the right row, but a column is not offered
        game.apply(
            seat,
            {"type": "place", "ship": sid, "col": 0, "row": LAYOUT.placement_row(sid), "along": "column"},
        )
    with pytest.raises(IllegalAction):  # the wrong row
        game.apply(seat, {"type": "place", "ship": sid, "col": 0, "row": 4})
    assert game.to_json() == before


def test_no_placement_onto_another_ship(spec):
    game = spec.new(2, {}, seed=0)
    seat = game.to_act()[0]
    prefix = "b" if seat == 0 else "r"
    game.state["ships"][f"{prefix}2a"] = [2, LAYOUT.placement_row(f"{prefix}2a"), True]  # C..D
    cols = {a["col"] for a in game.legal_actions(seat) if a["ship"] == f"{prefix}2b"}
    assert cols == {0, 4, 5, 6}  # B..C, C..D, D..E overlap; A..B and E..H fit


def test_quick_setup_places_both_fleets(spec):
    game = spec.new(2, {"quick-setup": True}, seed=11)
    view = game.view(None)
    assert view["phase"] == "play"
    assert all(s["placed"] for s in view["ships"])
    assert view["to_act"] == [view["start"]]
    assert view["move_number"] == 0
    assert spec.new(2, {"quick-setup": True}, seed=11).to_json() == game.to_json()  # seeded
    assert spec.new(2, {}, seed=11).state["phase"] == "placement"  # default: placed by hand


# ----- movement -------------------------------------------------------------------------------------------
def test_travel_along_row_or_column_up_to_size(position):
    game = position({"b3a": "D4-F4", "r3a": "A8-C8"})
    travels = {
        (a["dir"], a["dist"]) for a in game.legal_actions(0) if a["type"] == "travel" and a["ship"] == "b3a"
    }
    # 3-ship: up to 3 squares in the four directions (east 3 would leave the board at I4)
    assert travels == {(d, n) for d in "NSEW" for n in (1, 2, 3)} - {("E", 3)}
    game.apply(0, {"type": "travel", "ship": "b3a", "dir": "N", "dist": 3})
    assert labels(game, "b3a") == "D7–F7"
    game2 = position({"b4": "A4-D4"})
    dists = {a["dist"] for a in game2.legal_actions(0) if a["type"] == "travel" and a["dir"] == "N"}
    assert dists == {1, 2, 3, 4}  # a 4-ship may go up to 4
    with pytest.raises(IllegalAction):
        position({"b3a": "C4-E4"}).apply(0, {"type": "travel", "ship": "b3a", "dir": "N", "dist": 4})


def test_no_diagonal_moves(position):
    game = position({"b3a": "C4-E4"})
    before = game.to_json()
    for bad in (
        {"type": "travel", "ship": "b3a", "dir": "NE", "dist": 1},
        {"type": "rotate", "ship": "b3a", "pivot": "W", "to": "E"},  # not a quarter turn
        {"type": "rotate", "ship": "b3a", "pivot": "W", "to": "NE"},
    ):
        with pytest.raises(IllegalAction):
            game.apply(0, bad)
    assert game.to_json() == before
    for action in game.legal_actions(0):  # every result lies straight along one row or column
        pos = B.move_result(game.ships(), action)
        cells = B.cells_of(3, pos)
        assert len({c for c, _ in cells}) == 1 or len({r for _, r in cells}) == 1


def test_rotate_about_either_end(position):
    results = {}
    for pivot in ("W", "E"):
        for to in ("N", "S"):
            game = position({"b3a": "C4-E4"})
            game.apply(0, {"type": "rotate", "ship": "b3a", "pivot": pivot, "to": to})
            results[(pivot, to)] = labels(game, "b3a")
            assert game.view(None)["ships"][1]["along"] == "column"  # perpendicular to the start
    assert results == {("W", "N"): "C4–C6", ("W", "S"): "C2–C4", ("E", "N"): "E4–E6", ("E", "S"): "E2–E4"}
    game = position({"b3a": "C3-C5"})  # along a column: ends S (C3) and N (C5)
    game.apply(0, {"type": "rotate", "ship": "b3a", "pivot": "N", "to": "W"})
    assert labels(game, "b3a") == "A5–C5"


def test_rotation_checks_only_final_squares(position):
    # r2a sits in the swept quarter of C4-E4 turning north about C4 (D5), not on C4-C6.
    game = position({"b3a": "C4-E4", "r2a": "D5-E5"})
    game.apply(0, {"type": "rotate", "ship": "b3a", "pivot": "W", "to": "N"})
    assert labels(game, "b3a") == "C4–C6"
    # but a ship on a final square blocks the rotation
    game = position({"b3a": "C4-E4", "r2a": "B6-C6"})
    assert {"type": "rotate", "ship": "b3a", "pivot": "W", "to": "N"} not in game.legal_actions(0)
    with pytest.raises(IllegalAction):
        game.apply(0, {"type": "rotate", "ship": "b3a", "pivot": "W", "to": "N"})


def test_no_moving_into_another_ship(position):
    game = position({"b2a": "C4-D4", "r2a": "F4-G4", "b3a": "C6-C8"})
    east = {a["dist"] for a in game.legal_actions(0) if a.get("ship") == "b2a" and a.get("dir") == "E"}
    assert east == {1}  # E4-F4 would overlap F4
    north = {a["dist"] for a in game.legal_actions(0) if a.get("ship") == "b2a" and a.get("dir") == "N"}
    assert north == {1}  # C6 is taken by Blue's own 3-ship: own ships block too
    with pytest.raises(IllegalAction):
        game.apply(0, {"type": "travel", "ship": "b2a", "dir": "E", "dist": 2})


def test_no_moving_through_another_ship(position):
    game = position({"b2a": "C2-C3", "r2a": "C4-D4"})
    north = [a for a in game.legal_actions(0) if a.get("ship") == "b2a" and a.get("dir") == "N"]
    assert north == []  # C5 is free, but the path goes through C4
    with pytest.raises(IllegalAction):
        game.apply(0, {"type": "travel", "ship": "b2a", "dir": "N", "dist": 2})


def test_no_moving_off_the_board(position):
    game = position({"b4": "A1-D1"})
    acts = [a for a in game.legal_actions(0) if a["ship"] == "b4"]
    assert not [a for a in acts if a["type"] == "travel" and a["dir"] in ("S", "W")]
    assert {a["dist"] for a in acts if a["type"] == "travel" and a["dir"] == "E"} == {1, 2, 3, 4}
    assert not [a for a in acts if a["type"] == "rotate" and a["to"] == "S"]
    game2 = position({"b4": "E1-H1"})
    assert not [a for a in game2.legal_actions(0) if a["type"] == "travel" and a["dir"] == "E"]
    with pytest.raises(IllegalAction):
        game2.apply(0, {"type": "travel", "ship": "b4", "dir": "E", "dist": 1})


def test_anchor_on_ship_just_moved(position):
    game = position({"b2a": "C4-D4", "b2b": "F4-G4", "r2a": "C6-D6", "r2b": "F6-G6"})
    game.apply(0, {"type": "travel", "ship": "b2a", "dir": "S", "dist": 1})
    assert game.view(None)["anchors"] == {"0": "b2a", "1": None}
    game.apply(1, {"type": "travel", "ship": "r2a", "dir": "N", "dist": 1})
    assert game.view(None)["anchors"] == {"0": "b2a", "1": "r2a"}  # one anchor per player
    assert {a["ship"] for a in game.legal_actions(0)} == {"b2b"}  # the anchored ship may not move
    before = game.to_json()
    with pytest.raises(IllegalAction):
        game.apply(0, {"type": "travel", "ship": "b2a", "dir": "N", "dist": 1})
    assert game.to_json() == before
    game.apply(0, {"type": "travel", "ship": "b2b", "dir": "N", "dist": 1})
    assert game.view(None)["anchors"]["0"] == "b2b"  # the anchor moves to the new ship
    game.apply(1, {"type": "travel", "ship": "r2b", "dir": "N", "dist": 1})
    assert {a["ship"] for a in game.legal_actions(0)} == {"b2a"}  # b2a is free again, b2b anchored


def test_turns_alternate(position):
    game = position({"b2a": "C4-D4", "r2a": "C6-D6"}, turn=0, start=0)
    seats = []
    for _ in range(6):
        seat = game.to_act()[0]
        seats.append(seat)
        game.apply(seat, game.legal_actions(seat)[0])
    assert seats == [0, 1, 0, 1, 0, 1]


# ----- end of the game ------------------------------------------------------------------------------------
IN_RED_LINES = {"b2a": "A6-B6", "b2b": "D6-E6", "b3a": "A7-C7", "r2a": "A1-B1", "r2b": "D1-E1"}


def test_game_ends_with_three_ships_in_enemy_lines(position):
    # Red did not start (start=0): when Red gets its third ship in, the game ends at once.
    game = position({"b2a": "A6-B6", "r2a": "A3-B3", "r2b": "C3-D3", "r3a": "F5-H5"}, turn=1, start=0)
    events = game.apply(1, {"type": "travel", "ship": "r3a", "dir": "S", "dist": 3})  # F2-H2
    assert game.is_over and game.to_act() == []
    assert events[-1]["type"] == "game_over"
    # Red: two 2-ships on Blue's row marked 2 (2 × 2 each), a 3-ship on the row marked 3 (3 × 3)
    assert game.result["scores"] == {"0": 4, "1": 4 + 4 + 9}
    assert game.result["winners"] == [1]
    assert game.result["reason"] == f"{who(1)} has three ships in enemy lines"
    assert fill_names(game.result["reason"], None) == "Red has three ships in enemy lines"


def test_ships_along_columns_do_not_count(position):
    game = position(
        {"b2a": "A6-B6", "b2b": "D6-E6", "b3a": "H5-H7", "b4": "A3-D3", "r2a": "A2-B2", "r2b": "E5-F5"},
        turn=0,
        start=1,
    )
    game.apply(0, {"type": "travel", "ship": "b3a", "dir": "N", "dist": 1})  # H6-H8, along a column
    assert not game.is_over  # two ships along rows plus one along a column: not yet
    assert game.view(None)["in_enemy_lines"]["0"] == 2
    assert game.view(None)["scores"]["0"] == 8  # the column ship scores nothing
    game.apply(1, {"type": "travel", "ship": "r2a", "dir": "E", "dist": 1})
    game.apply(0, {"type": "travel", "ship": "b4", "dir": "N", "dist": 1})  # b3a is anchored
    game.apply(1, game.legal_actions(1)[0])
    game.apply(0, {"type": "rotate", "ship": "b3a", "pivot": "N", "to": "W"})  # F8-H8 along row 8
    assert game.is_over
    assert game.result["scores"]["0"] == 4 + 4 + 12


def test_starting_player_ending_gives_other_player_one_more_turn(position):
    game = position(
        {"b2a": "G6-H6", "b2b": "D6-E6", "b3a": "A5-C5", "r2a": "A3-B3", "r2b": "D3-E3", "r3a": "F4-H4"},
        turn=0,
        start=0,
    )
    events = game.apply(0, {"type": "travel", "ship": "b3a", "dir": "N", "dist": 2})  # A7-C7
    assert not game.is_over
    assert [e["type"] for e in events] == ["travel", "final_turn"]
    assert game.to_act() == [1] and game.view(None)["final_turn"]
    game.apply(1, {"type": "travel", "ship": "r3a", "dir": "S", "dist": 2})  # F2-H2: Red's third
    assert game.is_over
    assert game.result["scores"] == {"0": 4 + 4 + 9, "1": 4 + 4 + 9}
    assert game.result["winners"] == [0, 1]  # the extra turn levelled the score: a draw
    assert game.result["reason"] == "the extra turn has been played"


def test_extra_turn_ends_the_game_even_without_scoring(position):
    game = position({"b2a": "G6-H6", "b2b": "D6-E6", "b3a": "A5-C5", "r2a": "G3-H3"}, turn=0, start=0)
    game.apply(0, {"type": "travel", "ship": "b3a", "dir": "N", "dist": 2})
    game.apply(1, {"type": "travel", "ship": "r2a", "dir": "N", "dist": 1})
    assert game.is_over and game.result["winners"] == [0]


def test_other_player_may_have_another_turn_or_pass(position):
    """ "If the starting player ends the game, the other player *may* have another turn": a pass is offered too."""
    ships = {"b2a": "G6-H6", "b2b": "D6-E6", "b3a": "A5-C5", "r2a": "G2-H2", "r3a": "A3-C3"}
    game = position(ships, turn=0, start=0)
    game.apply(0, {"type": "travel", "ship": "b3a", "dir": "N", "dist": 2})  # Blue's third ship: A7-C7
    legal = game.legal_actions(1)
    moves = [a for a in legal if a["type"] != "pass"]
    assert moves and {"type": "pass"} in legal  # the extra turn may be played or declined
    assert len(legal) == len(moves) + 1
    assert "pass" in game.prompt(1)
    label = game.describe({"type": "pass"})
    assert label and len(label) <= 100 and "no legal move" not in label
    path = game.action_path(1, {"type": "pass"})
    assert len(path) == 2 and path[0][0] == "pass" and "no ship can move" not in path[1][1]
    events = game.apply(1, {"type": "pass"})
    assert [e["type"] for e in events] == ["pass", "game_over"]
    assert "no legal move" not in events[0]["text"]
    assert game.is_over and game.result["scores"] == {"0": 17, "1": 6 + 6}  # as it stood
    assert game.result["winners"] == [0] and "declined" in game.result["reason"]
    # outside the extra turn a pass is still only offered when no move exists
    game = position(ships, turn=0, start=1)
    assert {"type": "pass"} not in game.legal_actions(0)


def test_scoring_size_times_row_mark(position):
    # the rule's examples: a 3-ship in row 2 scores 6, a 4-ship in row 4 scores 16
    game = position({"b3a": "C6-E6", "b4": "A8-D8", "r2a": "A1-B1", "r3a": "F3-H3", "r2b": "C5-D5"})
    view = game.view(None)
    pts = {s["id"]: s["points"] for s in view["ships"]}
    assert pts["b3a"] == 6 and pts["b4"] == 16
    assert pts["r2a"] == 8 and pts["r3a"] == 6  # Red scores too (rows 1 and 3 are Blue's 4 and 2)
    assert pts["r2b"] == 0  # neutral water
    assert view["scores"] == {"0": 22, "1": 14}


def test_winner_has_most_points(position):
    game = position({"b2a": "G6-H6", "b2b": "D6-E6", "b3a": "A5-C5", "r4": "A1-D1"}, turn=0, start=1)
    game.apply(0, {"type": "travel", "ship": "b3a", "dir": "N", "dist": 2})
    assert game.is_over  # Blue did not start, so no extra turn
    assert game.result["scores"] == {"0": 17, "1": 16}
    assert game.result["winners"] == [0]


def test_tie_is_a_draw_both_winners(position):
    game = position(
        {
            "b2a": "G6-H6",
            "b2b": "D6-E6",
            "b3a": "A5-C5",
            "r2a": "A3-B3",
            "r2b": "D3-E3",
            "r3a": "E2-G2",
            "r4": "A4-D4",
        },
        turn=0,
        start=1,
    )
    events = game.apply(0, {"type": "travel", "ship": "b3a", "dir": "N", "dist": 2})
    assert game.result["scores"] == {"0": 17, "1": 17}
    assert game.result["winners"] == [0, 1]
    assert "a draw" in events[-1]["text"]


def test_no_legal_move_passes_and_lifts_anchor(position):
    # Blue's four ships standing along columns A-D are boxed in; Blue's last ship is anchored.
    # Red has only one ship along a row in enemy lines, so Red's move below does not end the game
    # (with three, Blue's next turn would be the extra turn, in which a pass is always allowed).
    ships = {
        "b4": "A1-A4",
        "b3a": "B1-B3",
        "b3b": "C1-C3",
        "b2a": "D1-D2",
        "r2a": "E1-E2",
        "r3a": "B4-D4",
        "r3b": "D3-F3",
        "r2b": "A5-B5",
        "b2b": "G5-H5",
        "r4": "E8-H8",
    }
    game = position(ships, turn=0, start=1, anchors=("b2b", None))
    assert game.legal_actions(0) == [{"type": "pass"}]
    assert "pass" in game.prompt(0)
    events = game.apply(0, {"type": "pass"})
    assert events[0]["type"] == "pass"
    assert game.view(None)["anchors"]["0"] is None  # the pass lifts the anchor
    assert game.to_act() == [1]
    game.apply(1, {"type": "travel", "ship": "r4", "dir": "S", "dist": 1})
    assert not game.view(None)["final_turn"]
    assert {a["ship"] for a in game.legal_actions(0)} == {"b2b"}  # free again after the pass
    with pytest.raises(IllegalAction):  # a pass is only allowed without a legal move
        game.apply(0, {"type": "pass"})


def test_neither_player_can_move_ends_game(position, monkeypatch):
    # A total deadlock cannot be built on the 8×8 board with 28 ship squares, so the movement
    # generator is replaced by one that finds no move once b3a has left row 4: after Blue's move
    # neither player can move, and the game must end and be scored.
    real = B.ship_moves

    def stuck_after_b3a(ships, occ, ship, layout=LAYOUT):
        return real(ships, occ, ship, layout) if ships["b3a"][1] == 3 else []

    ships = {"b2a": "A6-B6", "b3a": "C4-E4", "r2a": "G4-H4"}
    free = position(ships, turn=0, start=0)
    free.apply(0, {"type": "travel", "ship": "b3a", "dir": "N", "dist": 1})
    assert not free.is_over  # with real movement the same move does not end the game

    monkeypatch.setattr(B, "ship_moves", stuck_after_b3a)
    game = position(ships, turn=0, start=0)
    events = game.apply(0, {"type": "travel", "ship": "b3a", "dir": "N", "dist": 1})
    assert game.is_over
    assert events[-1]["type"] == "game_over"
    assert game.result["reason"] == "no ship of either player can move"
    assert game.result["scores"] == {"0": 4, "1": 0} and game.result["winners"] == [0]


def test_turn_limit_ends_and_scores(position):
    game = position(
        {"b2a": "A6-B6", "b3a": "C4-E4", "r2a": "G2-H2"}, turn=0, start=1, moves=LAYOUT.turn_limit - 1
    )
    assert game.view(None)["turn_limit"] == 200
    events = game.apply(0, {"type": "travel", "ship": "b3a", "dir": "N", "dist": 1})
    assert game.is_over
    assert game.result["reason"].startswith("the turn limit")
    assert game.result["scores"] == {"0": 4, "1": 6}
    assert game.result["winners"] == [1]
    assert events[-1]["type"] == "game_over"


def test_game_over_refuses_actions(position):
    game = position({"b2a": "G6-H6", "b2b": "D6-E6", "b3a": "A5-C5"}, turn=0, start=1)
    game.apply(0, {"type": "travel", "ship": "b3a", "dir": "N", "dist": 2})
    assert game.is_over and game.legal_actions(0) == [] and game.legal_actions(1) == []
    with pytest.raises(IllegalAction):
        game.apply(1, {"type": "pass"})


def test_two_players(spec):
    assert (spec.key, spec.title, spec.min_players, spec.max_players) == ("enemy-lines", "Enemy Lines", 2, 2)
    for n in (1, 3):
        with pytest.raises(IllegalAction):
            spec.new(n, {}, seed=0)
    assert spec.normalize_options({}) == {"quick-setup": False}
    with pytest.raises(IllegalAction):
        spec.new(2, {"turbo": True}, seed=0)
