"""AI levels in the lobby (issue 22): the host picks Easy, Normal or Hard; the level is stored with the
seat and shown in its name; the AI thinks at its seat's level; a seat with none stored plays Normal."""

from __future__ import annotations

import pytest

from bot import ui
from bot.ai_seats import UNSET_LEVEL, base_name, level_of, rating_key, shows_ai
from bot.games.ai import Budget, Situation
from bot.host import Host, NullDelivery, UserError
from bot.thinking import Thinking, think
from tests.hosting import ALICE, BOB, CHANNEL, open_lobby


class Recording(Thinking):
    """Thinks in this process, at once, and notes the level each move was asked at."""

    def __init__(self) -> None:
        super().__init__(0)
        self.levels: list[str] = []

    async def action(self, situation: Situation, level: str, seed: str, budget: Budget | None = None) -> dict:
        self.levels.append(level)
        return think(situation.to_json(), level, 0.05, 3, seed)


@pytest.fixture
async def host(storage):
    h = Host(storage, NullDelivery(), ai_delay=0.0, thinking=Recording())
    yield h
    await h.close()


async def test_the_host_adds_ai_seats_at_a_level_shown_in_the_name_and_stored(host):
    await open_lobby(host, "enemy-in-sight", others=[])
    await host.add_ai(CHANNEL, ALICE, level="hard")
    table = await host.add_ai(CHANNEL, ALICE, level="easy")
    assert [(s.name, s.ai_level) for s in table.seats[1:]] == [
        ("Nelson (AI, hard)", "hard"),
        ("Villeneuve (AI, easy)", "easy"),  # one admiral a lobby, whatever the level
    ]
    table = await host.add_ai(CHANNEL, ALICE)
    assert (table.seats[-1].name, table.seats[-1].ai_level) == ("Gravina (AI, normal)", "normal")


async def test_an_unknown_level_is_refused_and_nothing_changes(host):
    table = await open_lobby(host, "enemy-lines", others=[])
    for bad in ("HARD", "expert", "", "hard "):
        with pytest.raises(UserError, match="easy, normal or hard"):
            await host.add_ai(CHANNEL, ALICE, level=bad)
    assert len((await host.table(table.id)).seats) == 1


async def test_only_the_host_is_asked_the_level(host):
    await open_lobby(host, "enemy-lines", others=[(BOB, "Bob")])
    with pytest.raises(UserError, match="Only the host"):
        await host.check_add_ai(CHANNEL, BOB)
    with pytest.raises(UserError, match="full"):
        await host.check_add_ai(CHANNEL, ALICE)  # two seats of two taken
    await host.leave(CHANNEL, BOB)
    assert (await host.check_add_ai(CHANNEL, ALICE)).seats[0].user_id == ALICE


async def test_the_ai_thinks_at_its_seats_level(host):
    await open_lobby(host, "enemy-lines", others=[], options={"quick-setup": True})
    await host.add_ai(CHANNEL, ALICE, level="hard")
    table = await host.start(CHANNEL, ALICE)
    ai_seat = next(s.seat for s in table.seats if s.is_ai)
    human = 1 - ai_seat
    for _ in range(6):  # a few moves each
        await host.idle()
        table = await host.table(table.id)
        if table.game.is_over:
            break
        if human in table.game.to_act():
            await host.act(table.id, ALICE, table.game.legal_actions(human)[0])
    await host.idle()
    assert host.scheduler.thinking.levels and set(host.scheduler.thinking.levels) == {"hard"}


async def test_a_seat_with_no_level_stored_plays_normal(host, storage):
    """An AI seat of a game stored before levels (ai_level NULL, "Nelson (AI)")."""
    table = await open_lobby(host, "enemy-lines", others=[], options={"quick-setup": True})
    await storage.add_seat(table.id, user_id=None, is_ai=True, name="Nelson (AI)")
    table = await host.start(CHANNEL, ALICE)
    assert [s.ai_level for s in table.seats] == [None, None]
    for _ in range(4):
        await host.idle()
        table = await host.table(table.id)
        if 0 in table.game.to_act():
            await host.act(table.id, ALICE, table.game.legal_actions(0)[0])
    await host.idle()
    assert UNSET_LEVEL == "normal" and set(host.scheduler.thinking.levels) == {"normal"}


async def test_a_rematch_keeps_each_ai_seats_level(host):
    await open_lobby(host, "enemy-lines", others=[], options={"quick-setup": True})
    await host.add_ai(CHANNEL, ALICE, level="easy")
    table = await host.start(CHANNEL, ALICE)
    table = await host.resign(table.id, ALICE)
    again = await host.play_again(table.id, ALICE, "Alice")
    assert [(s.name, s.ai_level) for s in again.seats] == [("Alice", None), ("Nelson (AI, easy)", "easy")]


def test_ai_names_and_keys():
    assert base_name("Nelson (AI, hard)") == "Nelson" and base_name("Ann (AI)") == "Ann"
    assert base_name("Bob (AI, expert)") == "Bob (AI, expert)"  # not a level: a name as typed
    assert shows_ai("Nelson (AI, easy)") and shows_ai("Ann (AI)") and not shows_ai("Ann")
    assert level_of(None) == level_of("bogus") == "normal" and level_of("easy") == "easy"
    assert rating_key("Nelson (AI, hard)", "hard") == "ai:Nelson:hard"


def test_the_level_buttons_parse_and_normal_stands_out():
    for level in ("easy", "normal", "hard"):
        assert ui.parse_lobby(ui.lobby_id(5, f"ai-{level}")) == (5, f"ai-{level}")
    assert ui.parse_lobby("adm:l:5:ai-expert") is None and ui.parse_lobby("adm:l:5:ai-") is None
    view = ui.ai_level_view(5)
    buttons = [(b.label, b.custom_id, b.style.name) for b in view.children]
    assert buttons == [
        ("Easy", "adm:l:5:ai-easy", "secondary"),
        ("Normal", "adm:l:5:ai-normal", "primary"),
        ("Hard", "adm:l:5:ai-hard", "secondary"),
    ]
