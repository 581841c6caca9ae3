"""Undo by agreement, host side (both storage backends): request, accept, decline, stale and double
answers, timeouts, AI opponents, refusals, the log and the move count."""

from __future__ import annotations

import random
import re

import pytest

from bot.games import fill_names
from bot.games.phrase import Phrase
from bot.host import Host, NullDelivery, UserError
from bot.i18n import PSEUDO, Speaker
from bot.storage import live_moves, rebuild, replay_matches
from tests.hosting import ALICE, BOB, CAROL, start_game


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def host(storage):
    clock = Clock()
    h = Host(storage, NullDelivery(), ai_delay=3600.0, clock=clock)
    h.test_clock = clock
    yield h
    await h.close()


async def start(host, game_key, players, *, options=None, seed=7):
    """A started game of ``players`` ((user id, name), or AI), Alice first (the host); hour-long turns."""
    assert players[0] == (ALICE, "Alice")
    return await start_game(host, game_key, others=players[1:], options=options, turn_timeout=3600, seed=seed)


async def enemy_lines(host):
    """Alice and Bob at Enemy Lines (quick setup), one move made; (table before, mover's id, other id)."""
    table = await start(host, "enemy-lines", [(ALICE, "Alice"), (BOB, "Bob")], options={"quick-setup": True})
    seat = table.game.to_act()[0]
    mover = table.seat_row(seat).user_id
    await host.act(table.id, mover, table.game.legal_actions(seat)[0])
    return table, mover, (BOB if mover == ALICE else ALICE)


async def crew_move(host, table) -> int:
    """Play The Everrain on (random moves) until a crew move, which can be undone, is made; its mover."""
    rnd = random.Random(1)
    for _ in range(200):
        game = (await host.table(table.id)).game
        seat = game.to_act()[0]
        user = table.seat_row(seat).user_id
        crew = [a for a in game.legal_actions(seat) if a["type"] == "crew"]
        if crew:
            await host.act(table.id, user, crew[0])
            return user
        await host.act(table.id, user, rnd.choice(game.legal_actions(seat)))
    pytest.fail("no crew move came up")


async def test_undo_accepted_restores_the_position_as_a_new_version(host, storage):
    before, mover, other = await enemy_lines(host)
    moved = await host.table(before.id)
    assert moved.version == before.version + 1
    text = await host.undo_request(before.id, mover, version=moved.version)
    assert "waiting for" in text
    assert await host.undo.pending(before.id) is not None
    answer, settled = await host.undo_answer(before.id, other, moved.version, True)
    assert settled and "undone" in answer
    after = await host.table(before.id)
    assert after.version == moved.version + 1, "an undo is a new version: the version never goes back"
    assert after.row.state_json == before.row.state_json
    assert after.game.to_act() == before.spec.from_json(before.row.state_json).to_act()
    log = await storage.actions(before.id)
    assert log[-1].action == {"host": "undo", "undoes": moved.version}
    assert replay_matches(after.row, log)
    assert rebuild(after.row, log).to_json() == after.row.state_json
    assert live_moves(log) == []
    assert await storage.count_moves(before.id) == 0, "an undone move does not count"
    timeout = [j for j in await storage.jobs(before.id) if j.kind == "timeout"]
    assert after.row.deadline is not None and [j.due for j in timeout] == [after.row.deadline], (
        "timer re-armed"
    )
    assert all(j.version == after.version for j in timeout)
    assert await host.undo.pending(before.id) is None
    assert any("taken back" in line for line in await storage.recent_log(before.id))


async def test_undo_declined_keeps_the_move(host, storage):
    before, mover, other = await enemy_lines(host)
    moved = await host.table(before.id)
    await host.undo_request(before.id, mover)
    answer, settled = await host.undo_answer(before.id, other, moved.version, False)
    assert settled and "stands" in answer
    after = await host.table(before.id)
    assert after.version == moved.version and after.row.state_json == moved.row.state_json
    with pytest.raises(UserError, match="no longer open"):
        await host.undo_answer(before.id, other, moved.version, True)


async def test_undo_request_only_by_the_player_who_made_the_last_move(host):
    before, mover, other = await enemy_lines(host)
    with pytest.raises(UserError, match="who made the last move"):
        await host.undo_request(before.id, other)
    with pytest.raises(UserError, match="not playing"):
        await host.undo_request(before.id, CAROL)
    with pytest.raises(UserError, match="moved on"):
        await host.undo_request(before.id, mover, version=before.version)  # a button of an older version


async def test_undo_request_with_no_move_yet_is_refused(host):
    table = await start(host, "enemy-lines", [(ALICE, "Alice"), (BOB, "Bob")], options={"quick-setup": True})
    mover = table.seat_row(table.game.to_act()[0]).user_id
    with pytest.raises(UserError, match="no move to undo"):
        await host.undo_request(table.id, mover)


async def test_undo_answers_refused_for_the_asker_a_spectator_and_a_double_request(host):
    before, mover, other = await enemy_lines(host)
    moved = await host.table(before.id)
    await host.undo_request(before.id, mover)
    with pytest.raises(UserError, match="already asked"):
        await host.undo_request(before.id, mover)
    with pytest.raises(UserError, match="other players answer"):
        await host.undo_answer(before.id, mover, moved.version, True)
    with pytest.raises(UserError, match="Only the other players"):
        await host.undo_answer(before.id, CAROL, moved.version, True)
    with pytest.raises(UserError, match="no longer open"):
        await host.undo_answer(before.id, other, moved.version - 1, True)  # a forged version
    assert (await host.table(before.id)).version == moved.version


async def test_undo_request_cancelled_by_a_later_move(host):
    before, mover, other = await enemy_lines(host)
    moved = await host.table(before.id)
    await host.undo_request(before.id, mover)
    seat = moved.game.to_act()[0]
    await host.act(before.id, other, moved.game.legal_actions(seat)[0])
    with pytest.raises(UserError, match="out of date"):
        await host.undo_answer(before.id, other, moved.version, True)
    assert (await host.table(before.id)).version == moved.version + 1
    assert await host.undo.pending(before.id) is None


async def test_undo_request_times_out(host):
    before, mover, other = await enemy_lines(host)
    moved = await host.table(before.id)
    await host.undo_request(before.id, mover)
    host.test_clock.now += host.undo.timeout + 1
    with pytest.raises(UserError, match="timed out"):
        await host.undo_answer(before.id, other, moved.version, True)
    assert (await host.table(before.id)).version == moved.version
    await host.undo_request(before.id, mover)  # it may be asked again


async def test_undo_needs_every_other_human_and_refuses_a_double_accept(host):
    table = await start(host, "everrain", [(ALICE, "Alice"), (BOB, "Bob"), (CAROL, "Carol")], seed=3)
    user = await crew_move(host, table)
    moved = await host.table(table.id)
    others = [u for u in (ALICE, BOB, CAROL) if u != user]
    await host.undo_request(table.id, user)
    text, settled = await host.undo_answer(table.id, others[0], moved.version, True)
    assert not settled and "waiting for" in text
    with pytest.raises(UserError, match="already accepted"):
        await host.undo_answer(table.id, others[0], moved.version, True)
    assert (await host.table(table.id)).version == moved.version
    text, settled = await host.undo_answer(table.id, others[1], moved.version, True)
    assert settled and "undone" in text
    after = await host.table(table.id)
    assert after.version == moved.version + 1 and replay_matches(
        after.row, await host.storage.actions(table.id)
    )


async def test_undo_against_ai_seats_is_accepted_at_once(host):
    table = await start(host, "enemy-lines", [(ALICE, "Alice"), None], options={"quick-setup": True}, seed=2)
    game = table.game
    if game.to_act()[0] != 0:  # the AI moves first: let it
        await host.scheduler.close()
        pytest.skip("seed makes the AI start")
    await host.act(table.id, ALICE, game.legal_actions(0)[0])
    text = await host.undo_request(table.id, ALICE)
    assert "was undone" in text
    after = await host.table(table.id)
    assert after.row.state_json == table.row.state_json and after.version == 2


async def fired(host):
    """Alice alone at The Everrain, random moves until she fires (a dice roll); the table."""
    table = await start(host, "everrain", [(ALICE, "Alice")], seed=3)
    rnd = random.Random(2)
    for _ in range(300):
        game = (await host.table(table.id)).game
        assert not game.is_over
        legal = game.legal_actions(game.to_act()[0])
        fire = [a for a in legal if a["type"] == "fire"]
        if fire:
            await host.act(table.id, ALICE, fire[0])
            break
        await host.act(table.id, ALICE, rnd.choice(legal))
    else:
        pytest.fail("no fire action came up")
    return table


async def test_undo_refused_for_a_move_that_rolled_dice(host):
    table = await fired(host)
    moved = await host.table(table.id)
    with pytest.raises(UserError, match="cannot be undone: it (rolled dice|drew on chance)"):
        await host.undo_request(table.id, ALICE)
    assert (await host.table(table.id)).version == moved.version


async def test_undo_refusal_reasons_are_phrases_said_in_polish_and_the_pseudo_locale(host):
    """Every reason the engine gives for refusing an undo is a Phrase: the refusal reads whole in the
    reader's language, the reason included (issue 21)."""
    table = await fired(host)
    with pytest.raises(UserError) as refused:
        await host.undo_request(table.id, ALICE)
    reason = refused.value.args[0]
    assert isinstance(reason, Phrase) and isinstance(reason.params["why"], Phrase)
    polish = Speaker("pl").say(reason)
    assert polish.startswith("Tego ruchu nie można cofnąć: ") and polish in (
        "Tego ruchu nie można cofnąć: rzucono kośćmi.",
        "Tego ruchu nie można cofnąć: zdecydował w nim los (rzut kością, dobranie lub tasowanie).",
    ), polish
    pseudo = Speaker(PSEUDO).say(reason)
    assert not re.findall(r"[A-Za-z]{2,}", re.sub(r"\{[a-z]+\}", "", pseudo)), pseudo


@pytest.mark.parametrize("language", ["pl", PSEUDO])
def test_every_generic_undo_refusal_is_translated(language):
    """The generic refusals of ``Game.undo_refusal`` and every game's ``undo_veto`` reasons have a
    translation in each catalogue (the pseudo-locale: every letter changed)."""
    speaker = Speaker(language)
    reasons = [
        "it showed a player something in secret",
        "it drew on chance (a die roll, a draw or a shuffle)",
        "it ended the game",
        "it revealed hidden information",
        "an attack reveals the units in it",
        "a mine laid is announced to both players",
        "it revealed the units that met",
        "it revealed a unit",
        "it rolled dice",
        "it drew an enemy card",
        "it drew a card",
        "it showed a card from a hand",
    ]
    for msgid in reasons:
        said = speaker.say(Phrase(msgid))
        assert said != msgid and said, msgid
    illegal = Phrase("it is not a move of this position ({reason})", reason=Phrase("it is not your turn"))
    said = speaker.say(illegal)
    assert "{" not in said and said != str(illegal)
    if language == "pl":
        assert said == "to nie jest ruch w tej pozycji (to nie twoja tura)", said


async def test_undo_request_describes_the_move_in_the_askers_language(host):
    """The private answer to the asker names the move (``describe``) in their language: Polish here."""
    table = await start(host, "enemy-lines", [(ALICE, "Alice"), None], options={"quick-setup": True}, seed=2)
    game = table.game
    if game.to_act()[0] != 0:
        await host.scheduler.close()
        pytest.skip("seed makes the AI start")
    action = game.legal_actions(0)[0]
    await host.act(table.id, ALICE, action)
    polish = Speaker("pl")
    text = await host.undo_request(table.id, ALICE, speaker=polish)
    label = fill_names(game.describe(action, speaker=polish), table.names(polish))
    assert label != game.describe(action)  # the move's words are Polish, not English
    assert polish.say(text) == polish.gettext("Your move ({move}) was undone.", move=label)


async def test_undone_move_then_earlier_move_can_be_undone_too(host, storage):
    before, mover, other = await enemy_lines(host)
    moved = await host.table(before.id)
    seat = moved.game.to_act()[0]
    await host.act(before.id, other, moved.game.legal_actions(seat)[0])
    second = await host.table(before.id)
    await host.undo_request(before.id, other)
    await host.undo_answer(before.id, mover, second.version, True)
    await host.undo_request(before.id, mover)
    await host.undo_answer(before.id, other, second.version + 1, True)
    after = await host.table(before.id)
    assert after.row.state_json == before.row.state_json and after.version == 4
    assert replay_matches(after.row, await storage.actions(before.id))
    assert await storage.count_moves(before.id) == 0


async def test_replay_of_a_game_with_an_undo_shows_the_move_taken_back(host, storage):
    from bot.replay import record_of, replay

    before, mover, other = await enemy_lines(host)
    moved = await host.table(before.id)
    await host.undo_request(before.id, mover)
    await host.undo_answer(before.id, other, moved.version, True)
    after = await host.table(before.id)
    seat = after.game.to_act()[0]
    await host.act(before.id, after.seat_row(seat).user_id, after.game.legal_actions(seat)[-1])
    final = await host.table(before.id)
    result = replay(record_of(final.row, final.seats, await storage.actions(before.id)), max_frames=4)
    assert result.game.to_json() == final.row.state_json
    assert "was taken back" in result.log


async def secret_station(host, players) -> tuple:
    """Enemy in Sight advanced: Alice puts a ship in her hidden Line (a secret move that may be undone);
    (the table after it, the move's own description with names, the ship's name)."""
    table = await start(host, "enemy-in-sight", players, options={"variant": "advanced"})
    station = next(a for a in table.game.legal_actions(0) if a["type"] == "station")
    secret = fill_names(table.game.describe(station), table.names())
    ship = table.game.ship(station["ship"])["name"]
    await host.act(table.id, ALICE, station)
    moved = await host.table(table.id)
    assert moved.version == table.version + 1
    return moved, secret, ship


def leaks(text: str, secret: str, ship: str) -> bool:
    return secret in text or ship in text or "station" in text.lower()


async def test_undo_texts_of_a_secret_move_say_nothing_of_it(host, storage):
    table, secret, ship = await secret_station(host, [(ALICE, "Alice"), (BOB, "Bob")])
    mine = await host.undo_request(table.id, ALICE)
    assert ship in mine, "the mover's own private answer may name the move"
    (request,) = [c for c in host.delivery.calls if c[0] == "undo_request"]
    posted = request[-1]
    assert "Alice" in posted and f"<@{BOB}>" in posted and "asks to undo their last move" in posted
    assert not leaks(posted, secret, ship), posted
    answer, settled = await host.undo_answer(table.id, BOB, table.version, True)
    assert settled and "undone" in answer and not leaks(answer, secret, ship), answer
    lines = [line for line in await storage.recent_log(table.id) if "taken back" in line]
    assert lines and not any(leaks(line, secret, ship) for line in lines), lines
    published = [t for c in host.delivery.calls if c[0] == "publish" for t in c[3] if t]
    assert not any(leaks(t, secret, ship) for t in published), published


async def test_undo_decline_of_a_secret_move_says_nothing_of_it(host):
    table, secret, ship = await secret_station(host, [(ALICE, "Alice"), (BOB, "Bob")])
    await host.undo_request(table.id, ALICE)
    answer, settled = await host.undo_answer(table.id, BOB, table.version, False)
    assert settled and "stands" in answer and not leaks(answer, secret, ship), answer


async def test_undo_of_a_secret_move_against_an_ai_logs_nothing_of_it(host, storage):
    table, secret, ship = await secret_station(host, [(ALICE, "Alice"), None])
    assert "was undone" in await host.undo_request(table.id, ALICE)
    lines = [line for line in await storage.recent_log(table.id) if "taken back" in line]
    assert [fill_names(line, table.names()) for line in lines] == [
        "↩ Alice's move was taken back, by agreement."
    ]


async def test_undo_texts_of_a_public_move_quote_what_the_channel_saw(host, storage):
    before, mover, other = await enemy_lines(host)
    moved = await host.table(before.id)
    game = before.spec.from_json(before.row.state_json)  # the position before the move
    seat = game.to_act()[0]
    # what the channel was shown of the move: its public events (the table's log lines)
    events = game.apply(seat, game.legal_actions(seat)[0])
    seen = " ".join(fill_names(e["text"], moved.names()) for e in events if "private_to" not in e)
    assert seen and seen in [fill_names(line, moved.names()) for line in await storage.recent_log(before.id)]
    await host.undo_request(before.id, mover)
    (request,) = [c for c in host.delivery.calls if c[0] == "undo_request"]
    assert f"their last move ({seen})" in request[-1], (seen, request[-1])
    answer, _ = await host.undo_answer(before.id, other, moved.version, True)
    assert f"move ({seen}) was undone" in answer
