"""bot/mygames.py: the order of a member's games, Next's round-robin, and pages that fit Discord with every
name escaped."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from bot import mygames, ui
from bot.games import registry
from bot.mygames import Place
from bot.storage import SeatedGame, SeatRow

ME, YOU = 7, 8


def _seated(
    gid: int,
    *,
    status: str = "running",
    to_move: int | None = 0,
    deadline: float | None = None,
    names=("Me", "You"),
    guild_id: int = 1,
) -> SeatedGame:
    """A game of Enemy Lines where seat 0 is ME; ``to_move``: the seat whose turn it is."""
    state = None
    if status == "running":
        game = registry.get("enemy-lines").new(2, {"quick-setup": True}, gid)
        if to_move is not None:
            game.state["turn"] = to_move
        state = game.to_json()
    seats = [
        SeatRow(gid, n, uid, False, name, None, 0)
        for n, (uid, name) in enumerate(zip((ME, YOU), names, strict=True))
    ]
    return SeatedGame(
        gid,
        guild_id,
        100 + gid,
        None,
        "enemy-lines",
        status,
        3,
        deadline,
        seats,
        state,
        (100 + gid, 9000 + gid),
    )


def test_my_turns_come_first_by_deadline_then_the_others_then_the_lobbies():
    seated = [
        _seated(1, to_move=1, deadline=50.0),
        _seated(2, status="lobby"),
        _seated(3, to_move=0, deadline=None),
        _seated(4, to_move=0, deadline=90.0),
        _seated(5, to_move=0, deadline=20.0),
        _seated(6, to_move=1, deadline=10.0),
    ]
    games = mygames.my_games(seated, ME)
    assert [g.id for g in games] == [5, 4, 3, 6, 1, 2]
    assert [g.my_turn for g in games] == [True, True, True, False, False, False]
    assert games[-1].lobby and games[-1].to_act == ()
    # the same games seen by the other player: their turns first
    assert [g.id for g in mygames.my_games(seated, YOU)] == [6, 1, 5, 4, 3, 2]


def test_a_seat_an_ai_took_is_not_the_members_turn():
    game = _seated(1, to_move=0)
    ai = SeatedGame(
        **{**game.__dict__, "seats": [SeatRow(1, 0, ME, True, "Ann (AI)", None, 0), game.seats[1]]}
    )
    [listed] = mygames.my_games([ai], ME)
    assert not listed.my_turn and listed.to_act == (0,)


def test_next_turn_goes_round_robin_and_starts_again_from_a_game_no_longer_waiting():
    games = mygames.my_games(
        [_seated(1, deadline=30.0), _seated(2, to_move=1), _seated(3, deadline=20.0)], ME
    )
    assert mygames.next_turn(games, 0).id == 3
    assert mygames.next_turn(games, 3).id == 1
    assert mygames.next_turn(games, 1).id == 3  # round-robin
    assert mygames.next_turn(games, 2).id == 3  # not one of hers: the first
    assert mygames.next_turn(mygames.my_games([_seated(2, to_move=1)], ME), 0) is None


def test_lines_say_whose_turn_until_when_and_link_the_table():
    [mine, theirs] = mygames.my_games(
        [_seated(1, deadline=1234.9), _seated(2, to_move=1, names=("Me", "*Bo*"))], ME
    )
    line = mygames.game_line(mine, Place("Server", "games"))
    assert "**Enemy Lines** #1 in **Server** › #games — **your turn**, time runs out <t:1234:R>" in line
    assert "[table](https://discord.com/channels/1/101/9001)" in line
    other = mygames.game_line(theirs, Place(None, None))
    assert "waiting for \\*Bo\\*, no time limit" in other and "in a server › <#102>" in other


names = st.text(min_size=1, max_size=120)


@settings(max_examples=40, deadline=None)
@given(server=names, channel=names, seat=names, count=st.integers(1, 40))
def test_pages_fit_discord_and_escape_every_name(server, channel, seat, count):
    seated = [_seated(n, to_move=n % 2, deadline=float(n), names=(seat, seat)) for n in range(1, count + 1)]
    pages = mygames.pages(mygames.my_games(seated, ME), lambda g: Place(server, channel))
    assert all(len(p) <= 2000 for p in pages)
    listed = [int(m) for p in pages for m in re.findall(r"^\d+\. \*\*Enemy Lines\*\* #(\d+) ", p, re.M)]
    assert sorted(listed) == list(range(1, count + 1))  # every game once
    assert all(p.count("\n") <= 3 * mygames.PAGE_GAMES + 3 for p in pages)
    for p in pages:
        assert "@everyone" not in p and "@here" not in p
        assert not re.search(r"(?<!\\)<@", p)  # no mention of a user or a role


def test_no_games_is_one_friendly_page():
    assert mygames.pages([], lambda g: Place(None, None)) == [mygames.NO_GAMES]


def test_the_buttons_ids_are_routed_to_their_items_not_the_catch_all():
    assert not re.fullmatch(ui.OTHER_ANY, "adm:mine:p:3") and not re.fullmatch(ui.OTHER_ANY, "adm:mine:n:42")
    assert re.fullmatch(ui.OTHER_ANY, "adm:mine:x:1") and re.fullmatch(ui.OTHER_ANY, "adm:mine:p:-1")
