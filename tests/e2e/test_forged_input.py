"""Malformed and forged input through the loopback Discord: custom ids the bot never made (a modified
client, or a button of another channel), select values, /move and /ws move strings. Every one gets a
clear private answer; the game stays exactly as it was.

A forged component is planted on a bot message in the channel where the member clicks it: discord.py
only dispatches a click whose custom id is on the interaction's message, as it is with a client that
rewrites the message it shows.
"""

from __future__ import annotations

import logging
import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot import menus
from cogs.common import APOLOGY

UNICODE_DIGITS = "²³¹١٢٣۴०߁０"  # str.isdigit() / int() / \d accept some of these; ids are ASCII only
HUGE = "9" * 20  # beyond SQLite's int64 and any Discord snowflake


def plant(fd, channel, custom_id: str, values: list[str] | None = None):
    """A bot message in ``channel`` carrying one component with ``custom_id`` (a select if values)."""
    if values is None:
        comp = {"type": 2, "style": 1, "label": "forged", "custom_id": custom_id}
    else:
        comp = {
            "type": 3,
            "custom_id": custom_id,
            "options": [{"label": v or "-", "value": v} for v in dict.fromkeys(values)],
        }
    return fd._create_message(
        fd.channel(channel),
        fd.bot_user,
        {"content": "forged", "components": [{"type": 1, "components": [comp]}]},
        [],
    )


async def start_two_player(driver, game: str = "enemy-lines"):
    await driver.new_game("alice", game=game, quick_setup=True)
    await driver.member("bob").click(driver.lobby_message(), "Join")
    await driver.member("alice").click(driver.lobby_message(), "Start")
    table = await driver.table()
    seat = table.game.to_act()[0]
    mover = next(
        m for m in (driver.member("alice"), driver.member("bob")) if m.id == table.seat_row(seat).user_id
    )
    return table, seat, mover


def assert_refused(result, *words: str):
    assert not result.failed, "the click went unanswered"
    assert result.ephemeral, f"the answer is public: {result.text!r}"
    assert result.text and APOLOGY not in result.text, f"no clear refusal: {result.text!r}"
    for w in words:
        assert w in result.text, f"{w!r} not in {result.text!r}"


def no_errors_logged(caplog):
    bad = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not bad, [r.getMessage() for r in bad]


async def test_malformed_custom_ids_and_select_values_get_a_private_refusal(driver, caplog):
    table, seat, mover = await start_two_player(driver)
    gid, v = table.id, table.version
    state = table.row.state_json
    ch = driver.channel
    ids = [
        f"adm:b:{gid}:{v}:{seat}:1-2",
        f"adm:b:{gid}:{v}:{seat}:..",
        f"adm:b:{gid}:{v}:{seat}:--",
        f"adm:b:{gid}:{v}:{seat}:0..1",
        f"adm:b:{gid}:{v}:{seat}:",
        f"adm:b:{gid}:{v}:{seat}:²",
        f"adm:b:{HUGE}:{v}:{seat}:0",
        f"adm:b:{gid}:{HUGE}:{seat}:0",
        f"adm:b:{gid}:{v}:{HUGE}:0",
        f"adm:b:{gid}:{v}:{seat}:{HUGE}",
        f"adm:b:١:{v}:{seat}:0",
        f"adm:l:{HUGE}:join",
        "adm:l:١:join",
        f"adm:l:{gid}:explode",
        f"adm:v:{HUGE}",
        "adm:v:١",
        "adm:v:",
        f"adm:s:{gid}:{v}:{seat}:1-2:0",
        f"adm:s:{gid}:{v}:{seat}:-:{HUGE}",
        f"adm:s:{gid}:{v}:{seat}:-:²",
        "adm:x:1",
        "adm:",
    ]
    for custom_id in ids:
        msg = plant(driver.fd, ch, custom_id)
        assert_refused(await mover.click(msg, custom_id))
    # A well-formed select whose values are not menu entries.
    select_id = f"adm:s:{gid}:{v}:{seat}:-:0"
    bad_values = ["²", "p²", "p١", "١", "-1", "p-1", HUGE, "p" + HUGE, "x", " 1"]
    msg = plant(driver.fd, ch, select_id, bad_values)
    for value in bad_values:
        assert_refused(await mover.select(msg, value, custom_id=select_id))
    after = await driver.table()
    assert after.version == v and after.row.state_json == state
    no_errors_logged(caplog)


async def test_move_with_unicode_digits_gets_a_private_refusal(driver, caplog):
    table, seat, mover = await start_two_player(driver)
    state = table.row.state_json
    for action in (
        f"v{table.version}:²",
        "v²:0",
        f"v{table.version}:١",
        f"v{HUGE}:0",
        f"v{table.version}:{HUGE}",
        "v:",
        f"v{table.version}:-1",
    ):
        assert_refused(await mover.slash("move", channel=driver.channel, action=action))
    after = await driver.table()
    assert after.version == table.version and after.row.state_json == state
    no_errors_logged(caplog)


ASCII_MENU_ID = re.compile(r"-|[0-9]{1,3}(?:\.[0-9]{1,3})*(?:\.-1)?", re.ASCII)
GARBAGE = "0123456789.-:" + UNICODE_DIGITS + "ap "


def garbage(max_size: int = 12):
    return st.text(alphabet=GARBAGE, max_size=max_size)


@st.composite
def forged_component(draw):
    """(custom id template, select values or None): ids whose menu position is malformed, lobby / view
    ids with a malformed game id, and well-formed selects with values that are not menu entries. The
    template's {gid}, {v} and {seat} are the running game's."""
    kind = draw(st.sampled_from("blvs"))
    bad_number = st.one_of(garbage(), st.just(HUGE), st.sampled_from(list(UNICODE_DIGITS))).filter(
        lambda s: not re.fullmatch(r"[0-9]{1,6}", s, re.ASCII)
    )
    if kind == "l":
        op = draw(st.sampled_from(["join", "leave", "ai", "start", "cancel"]))
        return f"adm:l:{draw(bad_number)}:{op}", None
    if kind == "v":
        return f"adm:v:{draw(bad_number)}", None
    bad_prefix = garbage().filter(lambda s: not ASCII_MENU_ID.fullmatch(s))
    if kind == "b":
        return "adm:b:{gid}:{v}:{seat}:" + draw(bad_prefix), None
    if draw(st.booleans()):
        return "adm:s:{gid}:{v}:{seat}:" + draw(bad_prefix) + ":0", ["0"]
    values = draw(
        st.lists(
            garbage(8).filter(lambda s: s and not re.fullmatch(r"p?[0-9]{1,5}", s, re.ASCII)),
            min_size=1,
            max_size=3,
        )
    )
    return "adm:s:{gid}:{v}:{seat}:-:0", values


@settings(
    max_examples=30,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.filter_too_much,
    ],
)
@given(component=forged_component(), move=st.one_of(garbage(), st.builds(lambda s: "v" + s, garbage())))
async def test_random_forged_components_and_move_strings_are_refused_privately(
    driver, caplog, component, move
):
    """Property: whatever a client sends, the answer is private and clear, never an apology or an
    unanswered click, and the game is unchanged. (One game for all examples: the fixture is shared.)"""
    caplog.clear()  # one test function, many examples: judge each example's own log
    if driver.game_id is None:
        await start_two_player(driver)
    table = await driver.table()
    seat = table.game.to_act()[0]
    mover = next(
        m for m in (driver.member("alice"), driver.member("bob")) if m.id == table.seat_row(seat).user_id
    )
    labels = {label.lower() for label, _ in menus.flat_choices(table.game, seat)}
    template, values = component
    custom_id = (
        template.replace("{gid}", str(table.id))
        .replace("{v}", str(table.version))
        .replace("{seat}", str(seat))
    )
    msg = plant(driver.fd, driver.channel, custom_id, values)
    if values is None:
        assert_refused(await mover.click(msg, custom_id))
    else:
        assert_refused(await mover.select(msg, values[0], custom_id=custom_id))
    if move.strip() and move.strip().lower() not in labels:
        assert_refused(await mover.slash("move", channel=driver.channel, action=move))
    after = await driver.table()
    assert after.version == table.version and after.row.state_json == table.row.state_json
    no_errors_logged(caplog)


async def test_ws_move_garbage_squares_get_a_private_refusal(driver, caplog):
    table, seat, mover = await start_two_player(driver, game="warships")
    state = table.row.state_json
    for frm, to in (
        ("²", "²"),
        ("B²", "B9"),
        (HUGE, HUGE),
        ("١٢", "A1"),
        ("", ""),
        ("ß", "ﬀ"),
        ("B7", "from:B7"),
        ("\u0000", "\u200b"),
    ):
        assert_refused(await mover.slash("ws move", channel=driver.channel, to=to, **{"from": frm}))
    after = await driver.table()
    assert after.version == table.version and after.row.state_json == state
    no_errors_logged(caplog)


# --------------------------------------------------------------- forged ids from another channel
DENY_VIEW = 1 << 10


async def secret_lobby(driver):
    """Alice opens a lobby in #secret, which Carol cannot see."""
    fd = driver.fd
    secret = fd.add_channel("secret")
    fd.set_overwrite(secret, driver.member("carol").id, deny=DENY_VIEW)
    made = await driver.member("alice").slash(
        "game new", channel=secret, game="enemy-lines", quick_setup=True, thread=False
    )
    assert "Lobby opened" in made.text, made.text
    row = await driver.host.storage.active_game(secret.id)
    return secret, row.id


async def test_forged_lobby_id_from_another_channel_is_refused(driver):
    secret, gid = await secret_lobby(driver)
    carol = driver.member("carol")
    seats = [s.user_id for s in (await driver.host.table(gid)).seats]
    for op in ("join", "ai", "start", "leave", "cancel"):
        custom_id = f"adm:l:{gid}:{op}"
        msg = plant(driver.fd, driver.channel, custom_id)
        assert_refused(await carol.click(msg, custom_id), "another channel")
        # Not even the host, from a channel other than the game's.
        assert_refused(await driver.member("alice").click(msg, custom_id), "another channel")
    table = await driver.host.table(gid)
    assert [s.user_id for s in table.seats] == seats and table.row.status == "lobby"


async def test_forged_game_ids_from_another_channel_or_a_strangers_dm_are_refused(driver):
    secret, gid = await secret_lobby(driver)
    alice, bob, carol = driver.member("alice"), driver.member("bob"), driver.member("carol")
    bob_joined = await bob.slash("game join", channel=secret)
    assert "You joined" in bob_joined.text
    assert "started" in (await alice.slash("game start", channel=secret)).text
    table = await driver.host.table(gid)
    state, version = table.row.state_json, table.version
    seat = table.game.to_act()[0]
    mover = alice if table.seat_row(seat).user_id == alice.id else bob
    ids = [
        f"adm:v:{gid}",
        f"adm:b:{gid}:{version}:{seat}:-",
        f"adm:b:{gid}:{version}:{seat}:0",
        f"adm:s:{gid}:{version}:{seat}:-:0",
    ]
    for custom_id in ids:
        values = ["0"] if custom_id.startswith("adm:s") else None
        # Carol, in a channel she can see, names the game of a channel she cannot see.
        msg = plant(driver.fd, driver.channel, custom_id, values)
        result = await (
            carol.select(msg, "0", custom_id=custom_id) if values else carol.click(msg, custom_id)
        )
        assert_refused(result, "another channel")
        assert not any(m.attachments for m in carol.ephemerals())  # no board of the hidden channel
        # Even the player whose turn it is, from another channel.
        result = await (
            mover.select(msg, "0", custom_id=custom_id) if values else mover.click(msg, custom_id)
        )
        assert_refused(result, "another channel")
    # Carol's DM with the bot (she joined a lobby once) is no door into a game she does not play.
    await driver.new_game("carol")
    assert driver.fd.dm_channel(carol.user) is not None
    custom_id = f"adm:v:{gid}"
    msg = plant(driver.fd, driver.fd.dm_channel(carol.user), custom_id)
    assert_refused(await carol.click(msg, custom_id), "not playing")
    assert not any(m.attachments for m in carol.dms() if m.id != msg.id)
    after = await driver.host.table(gid)
    assert after.version == version and after.row.state_json == state


async def test_a_game_in_a_thread_takes_its_controls_in_the_thread_only(driver):
    """A game in a thread: its controls work in the thread and, for the lobby that stays in the
    channel, in the thread's parent channel; from any other channel they are refused."""
    alice, bob = driver.member("alice"), driver.member("bob")
    made = await alice.slash("game new", channel=driver.channel, game="enemy-lines", thread=True)
    thread_id = int(made.text.split("<#")[1].split(">")[0])
    gid = (await driver.host.storage.active_game(thread_id)).id
    # From another channel, the game's lobby id is refused ...
    elsewhere = driver.fd.channel("general")
    assert elsewhere.id != driver.channel.id
    msg = plant(driver.fd, elsewhere, f"adm:l:{gid}:join")
    assert_refused(await bob.click(msg, f"adm:l:{gid}:join"), "another channel")
    assert len((await driver.host.table(gid)).seats) == 1
    # ... and the real button, on the lobby in the thread's parent channel, works.
    lobby = next(
        m
        for m in driver.fd.channel_messages(driver.channel)
        if any((b.custom_id or "") == f"adm:l:{gid}:join" for b in m.buttons)
    )
    assert f"<#{thread_id}>" in lobby.content
    assert "You joined" in (await bob.click(lobby, "Join")).text
    assert len((await driver.host.table(gid)).seats) == 2
