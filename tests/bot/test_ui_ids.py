"""Custom ids and select values are parsed strictly: ASCII digits, bounded numbers, one shape per kind."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from bot import ui
from bot.storage import SeatRow
from bot.tables import Table, UserError
from tests.hosting import game_row

prefixes = st.lists(st.integers(0, 9999), max_size=6).map(tuple)


@given(
    game=st.integers(1, ui.MAX_ID),
    version=st.integers(0, 10**9 - 1),
    seat=st.integers(0, 99),
    prefix=prefixes,
    confirm=st.booleans(),
    page=st.integers(0, 9999),
    digest=st.sampled_from(["", "0a1b2c3d"]),
)
def test_ids_the_bot_makes_parse_back(game, version, seat, prefix, confirm, page, digest):
    if confirm and prefix:
        prefix = prefix + (-1,)
    assert ui.parse_button(ui.button_id(game, version, seat, prefix, digest)) == ui.MenuId(
        game, version, seat, prefix, 0, digest or None
    )
    assert ui.parse_select(ui.select_id(game, version, seat, prefix, page, digest)) == ui.MenuId(
        game, version, seat, prefix, page, digest or None
    )
    assert ui.parse_lobby(ui.lobby_id(game, "join")) == (game, "join")
    assert ui.parse_view(ui.view_id(game)) == game


def test_malformed_ids_with_unicode_digits_or_out_of_range_numbers_do_not_parse():
    huge = str(ui.MAX_ID + 1)
    for custom_id in (
        "adm:b:1:0:0:1-2",
        "adm:b:1:0:0:..",
        "adm:b:1:0:0:--",
        "adm:b:1:0:0:",
        "adm:b:1:0:0:0.",
        "adm:b:1:0:0:²",
        "adm:b:١:0:0:0",
        "adm:b:1:0:0:0:xyz",
        f"adm:b:{huge}:0:0:0",
        "adm:b:1:0:0:-1.0",
        "adm:b:1:0:0:0.-2",
        "adm:b:1:0:0:+1",
        "adm:b:1:0:0: 1",
    ):
        assert ui.parse_button(custom_id) is None, custom_id
    for custom_id in ("adm:s:1:0:0:-:²", "adm:s:1:0:0:1-2:0", f"adm:s:1:0:0:-:{'9' * 20}", "adm:s:1:0:0:-"):
        assert ui.parse_select(custom_id) is None, custom_id
    for custom_id in (f"adm:l:{huge}:join", "adm:l:١:join", "adm:l:1:explode", "adm:l:²:join"):
        assert ui.parse_lobby(custom_id) is None, custom_id
    for custom_id in (f"adm:v:{huge}", "adm:v:١", "adm:v:", "adm:v:1\n"):
        assert ui.parse_view(custom_id) is None, custom_id
    assert ui.parse_view(f"adm:v:{ui.MAX_ID}") == ui.MAX_ID


def test_select_values_are_ascii_digits_only():
    assert ui.parse_select_value("3") == ("entry", 3)
    assert ui.parse_select_value("p2") == ("page", 2)
    for value in ("²", "p²", "١", "p١", "-1", "p-1", "9" * 20, "", "p", " 1", "1 ", "x"):
        assert ui.parse_select_value(value) is None, value


@given(text=st.text(max_size=30))
def test_no_text_with_a_non_ascii_character_parses(text):
    if text.isascii():
        return
    assert ui.parse_button(f"adm:b:1:0:0:{text}") is None
    assert (
        ui.parse_select(f"adm:s:1:0:0:{text}:0") is None and ui.parse_select(f"adm:s:1:0:0:-:{text}") is None
    )
    assert ui.parse_lobby(f"adm:l:{text}:join") is None and ui.parse_view(f"adm:v:{text}") is None
    assert ui.parse_select_value(text) is None


def table_in(channel_id: int, thread_id: int | None = None) -> Table:
    row = game_row(channel_id=channel_id, thread_id=thread_id)
    seats = [SeatRow(game_id=1, seat=0, user_id=100, is_ai=False, name="Alice", dm_ok=True, missed=0)]
    return Table(row, seats)


def test_controls_are_refused_outside_their_games_channel_or_players_dms():
    game = table_in(10)
    game.check_place(10, 999, dm=False)  # anyone may click in the game's channel (the host checks who)
    game.check_place(555, 100, dm=True)  # a player's DM
    for channel, user, dm in ((11, 100, False), (None, 100, False), (555, 999, True)):
        try:
            game.check_place(channel, user, dm=dm)
        except UserError:
            continue
        raise AssertionError(f"not refused: {channel, user, dm}")
    threaded = table_in(10, thread_id=20)
    threaded.check_place(20, 999, dm=False)  # the game's thread
    threaded.check_place(10, 999, dm=False)  # the channel its lobby stays in
    try:
        threaded.check_place(11, 999, dm=False)
    except UserError:
        pass
    else:
        raise AssertionError("a game in a thread takes clicks in its thread and its lobby's channel only")


def test_malformed_play_again_and_resign_ids_are_routed_to_the_refusal():
    """A forged Play again / Resign id that its strict template does not take must still be answered
    (by the catch-all refusal), never left unanswered."""
    other = re.compile(ui.OTHER_ANY)
    for good in (f"adm:again:{5}", "adm:resign:1:22:yes", "adm:resign:1:22:no"):
        assert (ui.AGAIN_RE.fullmatch(good) or ui.RESIGN_RE.fullmatch(good)) and not other.fullmatch(good)
    for bad in ("adm:again:²", "adm:again:1-2", "adm:resign:1:22:maybe", "adm:resign:¹:2:yes", "adm:again:"):
        assert not ui.AGAIN_RE.fullmatch(bad) and not ui.RESIGN_RE.fullmatch(bad) and other.fullmatch(bad), (
            bad
        )


def test_leaderboard_ids_parsed_strictly_and_not_swallowed_by_the_refusal():
    other = re.compile(ui.OTHER_ANY)
    good = ui.leaderboard_id(123, "enemy-lines", 2)
    assert good == "adm:lb:123:enemy-lines:2" and len(good) <= 100
    assert ui.parse_leaderboard(good) == (123, "enemy-lines", 2)
    assert other.fullmatch(good) is None
    for bad in (
        "adm:lb:123:enemy-lines:",
        "adm:lb:123:Enemy:2",
        "adm:lb:12a:enemy-lines:2",
        "adm:lb:123:enemy-lines:٣",
        "adm:lb:123:enemy-lines:2:x",
        "adm:lb:" + "9" * 21 + ":x:1",
        "adm:lb:123:enemy lines:2",
        "adm:lb:123:enemy-lines:12345",
    ):
        assert ui.parse_leaderboard(bad) is None, bad
        assert other.fullmatch(bad), bad  # refused, never left unanswered


def test_undo_ids_parsed_strictly_and_not_swallowed_by_the_refusal():
    other = re.compile(ui.OTHER_ANY)
    for op in ("ask", "yes", "no"):
        good = ui.undo_id(12, 34, op)
        assert ui.parse_undo(good) == (12, 34, op)
        assert re.fullmatch(ui.UNDO_RE, good) and not other.fullmatch(good)
    huge = str(ui.MAX_ID + 1)
    for bad in (
        "adm:undo:1:2:maybe",
        "adm:undo:١:2:yes",
        "adm:undo:1:²:yes",
        "adm:undo:1:2:yes:3",
        "adm:undo:1:1234567890:yes",
        "adm:undo:1::yes",
    ):
        assert ui.parse_undo(bad) is None, bad
        assert other.fullmatch(bad), bad  # answered by the catch-all refusal
    # a game number beyond int64 has the shape: its own button refuses it (parse_undo says None)
    assert ui.parse_undo(f"adm:undo:{huge}:2:yes") is None and ui.UNDO_RE.fullmatch(f"adm:undo:{huge}:2:yes")


@given(
    game=st.integers(1, ui.MAX_ID),
    version=st.integers(0, 10**9 - 1),
    seat=st.integers(0, 99),
    prefix=prefixes,
    digest=st.sampled_from(["", "0a1b2c3d"]),
)
def test_multi_select_ids_parse_back_and_are_not_swallowed_by_the_refusal(
    game, version, seat, prefix, digest
):
    other = re.compile(ui.OTHER_ANY)
    select = ui.choice_id(game, version, seat, prefix, digest)
    none = ui.choice_id(game, version, seat, prefix, digest, none=True)
    assert (
        ui.parse_choice(select)
        == ui.parse_choice_none(none)
        == ui.MenuId(game, version, seat, prefix, 0, digest or None)
    )
    assert ui.parse_choice(none) is None and ui.parse_choice_none(select) is None
    assert re.fullmatch(ui.CHOICE_ANY, select) and re.fullmatch(ui.CHOICE_NONE_ANY, none)
    assert not re.fullmatch(ui.CHOICE_ANY, none) and not other.fullmatch(select) and not other.fullmatch(none)
    assert len(select) <= 100 and len(none) <= 100


def test_malformed_multi_select_ids_and_values_do_not_parse():
    for bad in (
        "adm:m:1:2:0",
        "adm:m:١:2:0:-",
        "adm:m:1:²:0:-",
        "adm:m:1:2:0:-:xyz",
        "adm:mn:1:2:0",
        "adm:m:1:2:0:-\n",
    ):
        assert ui.parse_choice(bad) is None and ui.parse_choice_none(bad) is None, bad
    assert ui.parse_choice(f"adm:m:{ui.MAX_ID + 1}:2:0:-") is None
    assert ui.parse_choice_values(["0", "3", "24"]) == [0, 3, 24]
    for values in (
        ["1", "1"],
        ["²"],
        ["-1"],
        ["1 "],
        [""],
        ["p1"],
        ["100"],
        "1",
        None,
        [1],
        [str(i) for i in range(26)],
    ):
        assert ui.parse_choice_values(values) is None, values
    assert ui.parse_choice_values([]) == []  # the components refuse an empty pick from a select
