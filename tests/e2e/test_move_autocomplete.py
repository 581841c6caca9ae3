"""/move autocomplete: fuzzy matching of the typed words, and an explanation instead of an empty list."""

from __future__ import annotations

from cogs.play import NOTHING, rank
from tests.e2e.test_scenarios import start_two_player


def test_move_autocomplete_ranking_is_fuzzy():
    labels = [
        "Broadside 2 → Orion (Hull)",
        "Broadside 2 → Orion (Rigging)",
        "Discard Broadside 2",
        "Rake 1 → Victory (Hull)",
    ]
    assert [labels[i] for i in rank(labels, "orion rig")] == ["Broadside 2 → Orion (Rigging)"]
    assert rank(labels, "BROADSIDE orion")[:2] == [0, 1]
    assert labels[rank(labels, "brodside orin hul")[0]] == "Broadside 2 → Orion (Hull)", "typos still match"
    assert len(rank([f"move {i}" for i in range(60)], "")) == 25


async def test_move_autocomplete_is_fuzzy(driver):
    table = await start_two_player(driver)
    seat = table.game.to_act()[0]
    mover = (
        driver.member("alice")
        if table.seat_row(seat).user_id == driver.member("alice").id
        else driver.member("bob")
    )
    everything = await mover.autocomplete("move", "action", "", channel=driver.channel)
    assert 0 < len(everything) <= 25
    word = everything[-1]["name"].split()[-1]
    narrowed = await mover.autocomplete("move", "action", word.upper(), channel=driver.channel)
    assert narrowed and all(word.lower() in c["name"].lower() for c in narrowed[:1])
    played = await mover.slash("move", channel=driver.channel, action=narrowed[0]["value"])
    assert "✅ Played" in played.text, played.text


async def test_move_autocomplete_explains_an_empty_list_to_a_spectator(driver):
    table = await start_two_player(driver)
    seat = table.game.to_act()[0]
    mover_name = table.seat_row(seat).name
    idle = (
        driver.member("bob")
        if table.seat_row(seat).user_id == driver.member("alice").id
        else driver.member("alice")
    )
    spectator = await driver.member("carol").autocomplete("move", "action", "", channel=driver.channel)
    assert [c["value"] for c in spectator] == [NOTHING]
    assert spectator[0]["name"] == "You are not playing in this game"
    waiting = await idle.autocomplete("move", "action", "", channel=driver.channel)
    assert [c["value"] for c in waiting] == [NOTHING]
    assert waiting[0]["name"].startswith("Not your turn — waiting for") and mover_name in waiting[0]["name"]
    refused = await driver.member("carol").slash("move", channel=driver.channel, action=NOTHING)
    assert "not playing" in refused.text
    refused = await idle.slash("move", channel=driver.channel, action=NOTHING)
    assert "not your turn" in refused.text
    assert (await driver.table()).version == table.version
