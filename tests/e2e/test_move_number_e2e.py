"""One move number (``bot.storage.move_number``: the moves that stand; host rows and undone moves do not
count), shown the same on the table, by `/game status`, in the summary, and in the replay's captions
and log, through a game with a simultaneous secret choice, timeouts, an undo and a resignation."""

from __future__ import annotations

import asyncio
import random
import re
import time

from bot import replay
from bot.storage import move_number
from bot.summary import game_summary, moves_of, status_line
from bot.tables import UserError


async def test_the_table_status_summary_and_replay_show_one_move_number(driver):
    alice, bob = driver.member("alice"), driver.member("bob")
    host, storage = driver.host, driver.host.storage
    await driver.new_game("alice", game="warships", turn_timeout="2h")
    await bob.click(driver.lobby_message(), "Join")
    await alice.click(driver.lobby_message(), "Start")
    table = await driver.table()
    gid = table.id
    user = {table.seat_of(alice.id): alice.id, table.seat_of(bob.id): bob.id}
    assert sorted(table.game.to_act()) == [0, 1], "the set-up is a simultaneous secret choice"

    async def expected() -> int:
        return move_number(a.action for a in await storage.actions(gid))

    async def time_out() -> None:
        """The turn's deadline comes: a move is made for the absent player."""
        before = (await storage.get_game(gid)).version
        await storage.set_deadline(gid, time.time() + 0.2)
        for _ in range(400):
            if (await storage.get_game(gid)).version > before:
                break
            await asyncio.sleep(0.05)
        await host.idle()

    async def play(seat: int) -> None:
        table = await host.table(gid)
        action = table.game.ai_action(seat, random.Random(table.version))
        await host.act(gid, user[seat], action)
        await host.idle()

    async def shown_everywhere(over: bool = False) -> int:
        n = await expected()
        if over:
            await driver.game_over_announced()
        else:
            await driver.settle()
        assert f"· move {n}" in driver.table_message().text, (n, driver.table_message().text)
        if over:  # (the game has left the channel: its status and summary are /game history's, below)
            return n
        status = await alice.slash("game status", channel=driver.channel)
        assert re.search(rf"move {n}\b", status.text), (n, status.text)
        return n

    # the set-up: Alice swaps two ships and submits; Bob runs out of time (a move made for him)
    table = await host.table(gid)
    swap = next(a for a in table.game.legal_actions(table.seat_of(alice.id)) if a["type"] == "swap")
    await host.act(gid, alice.id, swap)
    await host.act(gid, alice.id, {"type": "submit"})
    await time_out()
    await shown_everywhere()
    # moves, one taken back by agreement, one more timeout
    for _ in range(3):
        await play((await host.table(gid)).game.to_act()[0])
    for _ in range(20):  # the moves are the AI's choices of the game's random seed: some cannot be
        # undone (an attack reveals a unit), so play on to one that can
        table = await host.table(gid)
        mover = next(s for s in (0, 1) if s not in table.game.to_act())
        try:
            await host.undo_request(gid, user[mover])
            break
        except UserError as refused:
            assert "cannot be undone" in str(refused), refused
            await play(table.game.to_act()[0])
    else:
        raise AssertionError("no move of twenty could be undone")
    other = 1 - mover
    await host.undo_answer(gid, user[other], table.version, True)
    await host.idle()
    undone = await shown_everywhere()
    assert undone < (await storage.get_game(gid)).version - 1, "the undo row and the undone move count not"
    await time_out()
    await play((await host.table(gid)).game.to_act()[0])
    during = await shown_everywhere()
    # Alice resigns (a host row): the game is over
    await host.resign(gid, alice.id)
    await host.idle()
    final = await shown_everywhere(over=True)
    assert final == during
    assert f"{final} moves ·" in driver.table_message().text, "the table's summary"
    table = await host.table(gid, moves=True)
    assert table.row.moves == await moves_of(storage, table) == await storage.count_moves(gid) == final
    assert f"\n{final} moves ·" in await game_summary(storage, table)
    assert f"over after move {final}" in status_line(table, final)
    made = replay.replay(await replay.load(storage, gid, table.row.guild_id), max_frames=200)
    assert made.moves == final
    captions = [c[0] for c in made.captions if c[0].startswith("Move ")]
    numbers = [int(re.match(r"Move (\d+) of (\d+)", c).group(1)) for c in captions]
    assert all(c.endswith(f" of {final}") or f" of {final} ·" in c for c in captions), captions
    assert numbers[-1] == final and undone in numbers and during in numbers
    assert any(f"move {undone + 1} was taken back" in c for c in made.captions[-1] + captions), captions
    assert f"\n{final}. " in made.log and f"\n{final + 1}. " not in made.log
