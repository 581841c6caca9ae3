"""seated_games: a member's lobbies and running games across servers, in one round trip."""

from __future__ import annotations

import time

from tests.dbcount import RoundTrips


async def _lobby(store, fake_spec, *, guild_id, channel_id, users):
    options = fake_spec.normalize_options({"length": 10})
    gid = await store.create_game(
        guild_id=guild_id,
        channel_id=channel_id,
        game_key=fake_spec.key,
        options=options,
        seed=3,
        host_id=users[0],
    )
    for n, user in enumerate(users):
        await store.add_seat(gid, user_id=user, is_ai=user is None, name=f"P{n}")
    return gid, options


async def test_seated_games_lists_lobbies_and_running_games_of_every_server(store, fake_spec):
    running, options = await _lobby(store, fake_spec, guild_id=1, channel_id=500, users=[7, 8])
    game = fake_spec.new(2, options, 3)
    deadline = round(time.time()) + 3600.0
    await store.start_game(running, game.to_json(), deadline=deadline)
    await store.set_message(running, "table", 500, 9001)
    await store.set_message(running, "dm:0", 77, 9002)  # not a link
    lobby, _ = await _lobby(store, fake_spec, guild_id=2, channel_id=600, users=[9, 7])
    await store.set_message(lobby, "lobby", 600, 9003)
    other, _ = await _lobby(store, fake_spec, guild_id=1, channel_id=700, users=[8, 9])  # not 7's
    ended, _ = await _lobby(store, fake_spec, guild_id=1, channel_id=800, users=[7, None])
    await store.set_status(ended, "abandoned")

    with RoundTrips(store) as rt:
        games = await store.seated_games(7)
    assert rt.trips == 1
    assert [g.id for g in games] == [running, lobby]
    first, second = games
    assert (first.status, first.guild_id, first.place, first.message) == ("running", 1, 500, (500, 9001))
    assert first.deadline == deadline and first.state_json == game.to_json()
    assert [(s.seat, s.user_id, s.name) for s in first.seats] == [(0, 7, "P0"), (1, 8, "P1")]
    assert (second.status, second.guild_id, second.message, second.state_json) == (
        "lobby",
        2,
        (600, 9003),
        None,
    )
    assert second.deadline is None and [s.user_id for s in second.seats] == [9, 7]
    assert [g.id for g in await store.seated_games(9)] == [lobby, other]
    assert await store.seated_games(12345) == []


async def test_a_seat_an_ai_took_over_is_not_the_members_game(store, fake_spec):
    gid, options = await _lobby(store, fake_spec, guild_id=1, channel_id=500, users=[7, 8])
    await store.start_game(gid, fake_spec.new(2, options, 3).to_json())
    await store.update_seat(gid, 0, is_ai=True, name="Ann (AI)")
    assert await store.seated_games(7) == []
    assert [g.id for g in await store.seated_games(8)] == [gid]


async def test_a_game_without_a_table_message_has_no_link_and_a_legacy_board_is_one(store, fake_spec):
    gid, options = await _lobby(store, fake_spec, guild_id=1, channel_id=500, users=[7, 8])
    await store.start_game(gid, fake_spec.new(2, options, 3).to_json())
    assert (await store.seated_games(7))[0].message is None
    await store.set_message(gid, "board", 500, 41)
    assert (await store.seated_games(7))[0].message == (500, 41)
    await store.set_message(gid, "table", 501, 42)  # the table wins over an older board
    assert (await store.seated_games(7))[0].message == (501, 42)


async def test_rated_guilds_are_the_servers_where_a_player_has_ratings(store):
    from bot.ratings import outcome

    for guild_id, seats in (
        (5, [(11, "Ann"), (12, "Bob")]),
        (3, [(11, "Ann"), (13, "Cy")]),
        (4, [(12, "Bob"), (13, "Cy")]),
    ):
        gid = await store.create_game(
            guild_id=guild_id,
            channel_id=guild_id * 10,
            game_key="enemy-lines",
            options={},
            seed=1,
            host_id=None,
        )
        for user_id, name in seats:
            await store.add_seat(gid, user_id=user_id, is_ai=False, name=name)
        await store.start_game(gid, '{"players": 2}')
        await store.set_status(gid, "finished", result={"winners": [0]})
        assert await store.record_rating(gid, outcome(seats, {"winners": [0]}))
    with RoundTrips(store) as rt:
        assert await store.rated_guilds("11") == [3, 5]
    assert rt.trips == 1
    assert await store.rated_guilds("13") == [3, 4]
    assert await store.rated_guilds("99") == []


async def test_migration_0008_indexes_ratings_by_player(store, schema_objects):
    assert "ratings_player" in await schema_objects("index")
