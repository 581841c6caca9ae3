"""Enemy in Sight in the reader's language through the loopback Discord (issue 21): two members whose
Discord is in Polish, on a server set to Polish, play the base game from their DMs (the menus' paths,
labels and descriptions in Polish) and read the table's log lines, built from the game's events, in
Polish; an Advanced game gets through its secret set-up in Polish; and in the pseudo-locale the table,
the alt text, the DMs and every menu option leave no untransformed English and fit Discord's limits."""

from __future__ import annotations

import random
import re

from bot.games.enemy_in_sight import data
from bot.i18n import PSEUDO
from tests.e2e.test_i18n_e2e import english_left
from tests.e2e.test_table_i18n_e2e import settle, table_buttons

# English that a log line, a DM or a menu of the game said before it was translated
ENGLISH_EVENTS = re.compile(
    r"\b(draws|discards|fires a|must play|deals|sinks|Round \d|Fire spreads|boards|withdraws|takes|"
    r"From |Fire from|Board with|against|the whole Port|Play it|Hand:|You draw)\b"
)


async def start(d, *, variant: str = "base"):
    """Alice opens Enemy in Sight, Bob joins, Alice starts it (the lobby's buttons by their ids)."""
    await d.open_join_start("enemy-in-sight", variant=variant)
    await d.settle()
    return await d.table()


def member_of(d, table, seat: int):
    return next(m for m in (d.member("alice"), d.member("bob")) if m.id == table.seat_row(seat).user_id)


async def play_by_dms(d, moves: int, rng: random.Random, check=None) -> int:
    """Up to ``moves`` moves, each by the member to act through the menus of their DMs (the labels in
    their language); ``check(table)`` after each. Returns the moves made."""
    made = 0
    for _ in range(moves):
        table = await d.table()
        if table.game.is_over:
            break
        seat = table.game.to_act()[0]
        await d.play_by_dm(member_of(d, table, seat), seat, rng)
        await d.host.idle()
        await settle(d)
        made += 1
        if check is not None:
            await check(await d.table())
    return made


def log_lines(d) -> list[str]:
    return [line for line in d.table_message().text.splitlines() if line.startswith("> ")]


async def test_a_polish_game_of_enemy_in_sight_from_the_dms(driver):
    d = driver
    for name in ("alice", "bob"):
        d.member(name).user.locale = "pl"
    await d.host.storage.set_guild_locale(d.fd.guild.id, "pl")
    table = await start(d)
    msg = d.table_message()
    assert msg.text.startswith(f"⚓ **Enemy in Sight** · gra #{table.id} · ruch 0"), msg.text

    seen: list[str] = []

    async def check(table) -> None:
        lines = log_lines(d)
        seen.extend(lines)
        assert all(ENGLISH_EVENTS.search(line) is None for line in lines), lines

    made = await play_by_dms(d, 24, random.Random(7), check)
    assert made == 24
    said = "\n".join(seen)
    # the moves played, in Polish words: cards drawn, played or discarded, ships fired at or moved
    assert re.search(
        r"dobiera \d+ kar|odrzuca |strzela |wysyła Brandera|zagrywa |abordażuje |blokuje ", said
    ), said
    # each member's DMs: the game's own words, prompt and menus in Polish, none of its English left
    for name in ("alice", "bob"):
        texts = [m.text for m in d.member(name).dms() if not m.deleted]
        assert any("**Twoja ręka**" in t for t in texts), texts[-3:]
        assert all(ENGLISH_EVENTS.search(t) is None for t in texts), texts[-3:]
        for m in d.member(name).dms():
            for select in m.selects:
                for option in select.options:
                    shown = option["label"] + " " + option.get("description", "")
                    assert ENGLISH_EVENTS.search(shown) is None, option


async def test_an_advanced_game_sets_up_in_secret_in_polish(driver):
    d = driver
    for name in ("alice", "bob"):
        d.member(name).user.locale = "pl"
    await d.host.storage.set_guild_locale(d.fd.guild.id, "pl")
    table = await start(d, variant="advanced")
    rng = random.Random(3)
    seen: list[str] = []
    private: dict[str, list[str]] = {"alice": [], "bob": []}
    for _ in range(40):
        table = await d.table()
        if table.game.state["phase"] == "turn":
            break
        seat = table.game.to_act()[0]
        await d.play_by_dm(member_of(d, table, seat), seat, rng)
        await d.host.idle()
        await settle(d)
        seen += log_lines(d)
        for name in ("alice", "bob"):  # a DM is edited as the game goes: what each one said on the way
            private[name] += [m.text for m in d.member(name).dms() if not m.deleted]
    assert (await d.table()).game.state["phase"] == "turn"
    said = "\n".join(seen)
    assert " uformował Linię i Rezerwę (ukryte, aż wszyscy będą gotowi)." in said, said[-1500:]
    assert " odsłania — Linia: " in said and "; Rezerwa: " in said, said[-1500:]
    for name in ("alice", "bob"):
        said = "\n".join(private[name])
        assert "**Twoja tajna Linia**" in said and " · **Rezerwa**: " in said, said[-1500:]
        assert ENGLISH_EVENTS.search(said) is None, said[-1500:]


async def test_enemy_in_sight_in_the_pseudo_locale_shows_no_english_and_fits(driver):
    d = driver
    for name in ("alice", "bob"):
        d.member(name).user.locale = PSEUDO
    await d.host.storage.set_guild_locale(d.fd.guild.id, PSEUDO)
    table = await start(d)
    # the values filled in: names, ship names and nations' codes (GB 1), the game's name
    values = [*table.names(), "AI", "Enemy in Sight", *(s["name"] for s in data.ship_list()), *data.nations()]

    def english(text: str) -> list[str]:
        shown = "\n".join(line for line in text.splitlines() if not line.startswith("```"))
        return english_left(shown, values)

    def check_dms() -> None:
        for name in ("alice", "bob"):
            # the first DM is the lobby's join note (the lobby's slice of issue 21): the game's follow it
            for m in d.member(name).dms()[1:]:
                if m.deleted:
                    continue
                assert len(m.text) <= 4000 and english(m.text) == [], m.text
                for description in m.gallery_descriptions:
                    assert len(description or "") <= 256, description
                    assert english_left(re.sub(r"\S+…$", "", description or ""), values) == [], description
                for button in m.buttons:
                    assert english_left(button.label or "", values) == [] and len(button.label or "") <= 100
                for select in m.selects:
                    assert len(select.options) <= 25 and english_left(select.placeholder or "", values) == []
                    for option in select.options:
                        for text in (option["label"], option.get("description") or ""):
                            assert len(text) <= 100 and english_left(text, values) == [], option

    async def check(table) -> None:
        msg = d.table_message()
        assert len(msg.text) <= 4000 and english(msg.text) == [], msg.text
        for description in msg.gallery_descriptions:
            assert len(description or "") <= 256, description
            assert english_left(re.sub(r"\S+…$", "", description or ""), values) == [], description
        for label in table_buttons(msg):
            assert english_left(label, values) == [] and len(label) <= 80, label
        check_dms()  # the DMs are edited as the game goes: each move's

    made = await play_by_dms(d, 40, random.Random(11), check)
    assert made > 20
    for ping in d.pings():
        assert english_left(ping.content, values) == [], ping.content
