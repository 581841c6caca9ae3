"""A multi-select through the host (bot/turns.py): the choice leaf opens it, the picks play one action;
wrong picks, picks on an entry that has no choice, and an old version change nothing."""

from __future__ import annotations

import pytest

from bot import menus
from bot.host import Host, NullDelivery, StaleBoard, UserError
from tests.games.enemy_in_sight.helpers import clear_table, give, place
from tests.hosting import start_game


async def test_line_breakers_picked_in_one_multi_select_make_one_action(storage):
    host = Host(storage, NullDelivery(), ai_delay=0.0)
    table = await host.table((await start_game(host, "enemy-in-sight", seed=3)).id)
    game = table.game  # the cached engine the next click plays on: the position is set up there
    seat = game.to_act()[0]
    user = table.seat_row(seat).user_id
    clear_table(game, seat)
    mine = [place(game, seat, n) for n in ("Victory", "Bellerophon", "Orion", "Culloden")]
    place(game, 1 - seat, "Santa Ana")
    cid = give(game, seat, "break_line")
    give(game, seat, "repair")
    action = {"type": "play", "card": cid, "seat": 1 - seat, "ships": [mine[0], mine[2]]}
    prefix, _, _, picks = menus.find_answer(menus.build_tree(game, seat), action)
    version = table.version
    shown = await host.choose(table.id, user, version, prefix)
    assert shown.level is not None and shown.level.choose == (1, 2) and not shown.events
    before = (await storage.get_game(table.id)).state_json
    for wrong in ([0, 0], [0, 1, 2], [9]):
        with pytest.raises(UserError, match="does not fit"):
            await host.choose(table.id, user, version, prefix, picks=wrong)
    with pytest.raises(StaleBoard):
        await host.choose(table.id, user, version + 1, prefix, picks=picks)  # not this version
    with pytest.raises(StaleBoard):
        await host.choose(table.id, user, version, (), picks=picks)  # the root has no choice
    assert (await storage.get_game(table.id)).state_json == before and (
        await host.table(table.id)
    ).version == version
    played = await host.choose(table.id, user, version, prefix, picks=picks)
    assert "Victory, Orion" in played.applied
    after = await host.table(table.id)
    assert after.version == version + 1 and len(await storage.actions(table.id)) == version + 1
    assert after.game.breakers_of(after.game.state["in_play"]["btl"][0]) == sorted([mine[0], mine[2]])
    await host.close()
