"""Follows (migration 0011): who follows which game, and the claims that make each follow DM go once."""

from __future__ import annotations

import asyncio

import pytest

from bot.storage import Storage, WrongStatus
from bot.storage.follows import turn_key


async def _running(store: Storage, channel_id: int = 500) -> int:
    gid = await store.create_game(
        guild_id=1, channel_id=channel_id, game_key="x", options={}, seed=3, host_id=42
    )
    await store.add_seat(gid, user_id=42, is_ai=False, name="Alice")
    await store.add_seat(gid, user_id=43, is_ai=False, name="Bob")
    await store.start_game(gid, '{"players": 2}')
    return gid


async def _move(store: Storage, gid: int, status: str = "running") -> int:
    row = await store.get_game(gid)
    await store.record_action(
        gid,
        expected_version=row.version,
        seat=0,
        action={"n": row.version},
        state_json='{"players": 2}',
        status=status,
        result={"winner": 0} if status == "finished" else None,
    )
    return row.version + 1


async def test_a_follow_is_stored_once_per_member_and_keeps_its_choice_when_made_again(store):
    gid = await _running(store)
    first = await store.follow(gid, 7, dm_channel_id=70)
    assert (first.every_move, first.dm_ok, first.dm_channel_id) == (False, True, 70)
    await store.set_every_move(gid, 7, True)
    await store.follow_refused(gid, 7)
    again = await store.follow(gid, 7, dm_channel_id=None)
    assert (again.every_move, again.dm_ok, again.dm_channel_id) == (True, True, 70)
    await store.follow(gid, 8, dm_channel_id=80, every_move=True)
    assert [(f.user_id, f.every_move) for f in await store.followers(gid)] == [(7, True), (8, True)]


async def test_the_publish_read_counts_followers_and_followers_of_every_move(store):
    gid = await _running(store)
    row, *_ = await store.load_table_view(gid, 3)
    assert (row.followers, row.move_followers) == (0, 0)
    await store.follow(gid, 7, dm_channel_id=70)
    await store.follow(gid, 8, dm_channel_id=80, every_move=True)
    row, *_ = await store.load_table_view(gid, 3)
    assert (row.followers, row.move_followers) == (2, 1)
    assert (await store.get_game(gid)).followers is None  # only the publish's read counts them


async def test_a_turn_begins_when_someone_new_is_to_act_not_at_each_step_of_one(store):
    gid = await _running(store)
    await store.follow(gid, 7, dm_channel_id=70, every_move=True, turn=turn_key([0]))
    told = []
    for version, to_act in enumerate([[0], [0], [1], [1], [0, 1], [1], [], [0, 1], [0]], start=1):
        if [f.user_id for f in await store.claim_turn_follows(gid, version, turn_key(to_act))]:
            told.append(version)
    # seat 1's turn (3), a round of secret choices (5, and again 8 after a version with nobody to act)
    assert told == [3, 5, 8]
    assert turn_key([3, 0, 0]) == ",0,3," and turn_key([]) == ","


async def test_only_a_running_game_can_be_followed(store):
    lobby = await store.create_game(guild_id=1, channel_id=600, game_key="x", options={}, seed=1, host_id=1)
    with pytest.raises(WrongStatus):
        await store.follow(lobby, 7, dm_channel_id=None)
    gid = await _running(store)
    await _move(store, gid, "finished")
    with pytest.raises(WrongStatus):
        await store.follow(gid, 7, dm_channel_id=70)
    assert await store.follow_of(gid, 7) is None


async def test_unfollow_and_a_change_of_choice_of_someone_not_following_say_so(store):
    gid = await _running(store)
    assert await store.unfollow(gid, 7) is False
    assert await store.set_every_move(gid, 7, True) is None
    await store.follow(gid, 7, dm_channel_id=70)
    assert await store.unfollow(gid, 7) is True
    assert await store.follow_of(gid, 7) is None


async def test_each_version_is_claimed_once_per_follower_of_every_move_and_never_an_older_one(store):
    gid = await _running(store)
    await store.follow(gid, 7, dm_channel_id=70, every_move=True)
    await store.follow(gid, 8, dm_channel_id=80)  # the end only
    await store.follow(gid, 9, dm_channel_id=90, every_move=True)
    await store.follow_refused(gid, 9)  # their DMs are closed: none is claimed for them
    assert (
        await store.claim_turn_follows(gid, (await store.get_game(gid)).version, ",1,") == []
    )  # already seen
    v1 = await _move(store, gid)
    v2 = await _move(store, gid)
    claims = await asyncio.gather(*(store.claim_turn_follows(gid, v2, ",1,") for _ in range(4)))
    assert sorted(len(c) for c in claims) == [0, 0, 0, 1]
    [mine] = [c for c in claims if c][0]
    assert (mine.user_id, mine.seen_version) == (7, v2)
    assert await store.claim_turn_follows(gid, v1, ",0,") == []  # older than what they saw


async def test_turning_every_move_on_starts_after_the_current_version(store):
    gid = await _running(store)
    await store.follow(gid, 7, dm_channel_id=70)
    await _move(store, gid)
    version = await _move(store, gid)
    row = await store.set_every_move(gid, 7, True, ",0,")
    assert row is not None and row.seen_version == version
    assert await store.claim_turn_follows(gid, version, ",1,") == []  # seen already
    assert await store.claim_turn_follows(gid, version + 1, ",0,") == []  # the same turn
    assert [f.user_id for f in await store.claim_turn_follows(gid, version + 2, ",1,")] == [7]


async def test_the_end_takes_every_follow_of_the_game_once(store):
    gid = await _running(store)
    other = await _running(store, channel_id=501)
    await store.follow(gid, 7, dm_channel_id=70)
    await store.follow(gid, 8, dm_channel_id=80, every_move=True)
    await store.follow(other, 7, dm_channel_id=70)
    taken = await asyncio.gather(store.take_follows(gid), store.take_follows(gid))
    assert sorted([f.user_id for f in t] for t in taken) == [[], [7, 8]]
    assert await store.followers(gid) == []
    assert [f.user_id for f in await store.followers(other)] == [7]


async def test_follows_survive_a_restart(db_path):
    store = await Storage.open(db_path)
    try:
        gid = await _running(store)
        await store.follow(gid, 7, dm_channel_id=70, every_move=True)
    finally:
        await store.close()
    store = await Storage.open(db_path)
    try:
        row = await store.follow_of(gid, 7)
        assert row is not None and (row.every_move, row.dm_channel_id) == (True, 70)
    finally:
        await store.close()


async def test_two_processes_claiming_at_once_send_each_dm_once(db_path):
    """Two processes (two Storage objects on one database) publish the same versions at once: each
    turn's DM and the end DM are claimed by one of them only."""
    first, second = await Storage.open(db_path), await Storage.open(db_path)
    try:
        gid = await _running(first)
        await first.follow(gid, 7, dm_channel_id=70, every_move=True, turn=turn_key([0]))
        await first.follow(gid, 8, dm_channel_id=80, every_move=True, turn=turn_key([0]))
        claimed = []
        for n in range(1, 7):
            version = await _move(first, gid)
            turn = turn_key([(n + 1) // 2 % 2])  # seat 1, 1, 0, 0, 1, 1: a turn of two steps each
            both = await asyncio.gather(
                first.claim_turn_follows(gid, version, turn), second.claim_turn_follows(gid, version, turn)
            )
            claimed.append(sorted(f.user_id for claim in both for f in claim))
        assert claimed == [[7, 8], [], [7, 8], [], [7, 8], []]  # once each, by one of the two
        ends = await asyncio.gather(first.take_follows(gid), second.take_follows(gid))
        assert sorted(f.user_id for end in ends for f in end) == [7, 8]
    finally:
        await first.close()
        await second.close()
