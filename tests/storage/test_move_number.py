"""The move number (``move_number``: the engine moves that stand) counted in SQL, on both backends,
equals the Python definition: ``count_moves`` and the ``moves`` the table loads read, through engine
moves, an undo (one move less) and a resignation (none)."""

from __future__ import annotations

from bot.storage import move_number, move_step


def test_move_steps():
    assert [move_step(a) for a in ({"type": "x"}, {"host": "undo", "undoes": 1}, {"host": "resign"})] == [
        1,
        -1,
        0,
    ]
    assert move_number([{"type": "x"}, {"type": "y"}, {"host": "undo", "undoes": 2}, {"host": "resign"}]) == 1


async def test_the_stored_move_number_is_the_python_one(store, new_running_game):
    gid, game = await new_running_game(store)

    async def shown() -> list[int]:
        actions = await store.actions(gid)
        table, _ = await store.load_table(gid, moves=True)
        view = await store.load_table_view(gid, 3)
        plain, _ = await store.load_table(gid)
        assert plain.moves is None  # only the loads that show a game count it
        return [
            move_number(a.action for a in actions),
            await store.count_moves(gid),
            table.moves,
            view[0].moves,
        ]

    assert await shown() == [0, 0, 0, 0]
    version = 0
    for action in ({"type": "a"}, {"type": "b"}, {"host": "undo", "undoes": 2}, {"type": "c"}):
        seat = game.to_act()[0]
        version = await store.record_action(
            gid, expected_version=version, seat=seat, action=action, state_json=game.to_json()
        )
    assert await shown() == [2, 2, 2, 2], "two moves stand: a and c (b was taken back)"
    await store.record_resign(
        gid,
        expected_version=version,
        seat=0,
        action={"host": "resign", "name": "A", "user_id": 1},
        result={"winners": [1]},
    )
    assert await shown() == [2, 2, 2, 2], "a resignation is no move"
