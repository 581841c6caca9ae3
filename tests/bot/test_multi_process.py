"""Several bot processes on one database (issue 12): two hosts, each with its own storage connection,
share one database (a SQLite file, then a PostgreSQL schema). Timers and AI moves are rows of the jobs
table that either process may claim; a move is a compare-and-set on the game's version."""

from __future__ import annotations

import asyncio
import random
import time

import pytest

from bot.games import registry
from bot.host import Host, NullDelivery, StaleBoard, UserError
from bot.storage import Storage
from tests.bot.test_undo import crew_move
from tests.hosting import AI, ALICE, BOB, CAROL, DAVE, start_game


@pytest.fixture
async def second(db_target):
    """A second connection to the same database: another process's storage."""
    s = await Storage.open(db_target)
    yield s
    await s.close()


def make_host(storage, **kw) -> Host:
    kw.setdefault("ai_delay", 0.0)
    kw.setdefault("job_poll", 0.2)
    kw.setdefault("min_turn_timeout", 0.1)
    return Host(storage, NullDelivery(), **kw)


async def running_game(host: Host, channel: int, *, timeout: float | None = 3600, ai: bool = False) -> int:
    others = [AI] if ai else [(BOB, "Bob")]
    opened = await start_game(
        host,
        others=others,
        options={"quick-setup": True},
        turn_timeout=timeout,
        seed=channel,
        channel=channel,
    )
    return opened.id


async def plays_next(storage: Storage, game_id: int, **record) -> None:
    """Another process (``storage``) plays the next seat's first legal action in ``game_id``."""
    row = await storage.get_game(game_id)
    game = registry.get(row.game_key).from_json(row.state_json)
    nxt = game.to_act()[0]
    action = game.legal_actions(nxt)[0]
    game.apply(nxt, action)
    await storage.record_action(
        game_id, expected_version=row.version, seat=nxt, action=action, state_json=game.to_json(), **record
    )


async def wait_until(predicate, timeout: float = 30.0) -> None:
    end = time.monotonic() + timeout
    while not await predicate():
        if time.monotonic() > end:
            raise AssertionError("timed out waiting")
        await asyncio.sleep(0.05)


async def timeout_lines(storage: Storage, game_id: int) -> list[str]:
    return [line for line in await storage.recent_log(game_id, 200) if "ran out of time" in line]


async def _has_lines(storage: Storage, game_id: int) -> bool:
    return bool(await timeout_lines(storage, game_id))


async def test_a_due_timer_fires_exactly_once_with_two_processes(storage, second):
    a, b = make_host(storage), make_host(second)
    try:
        games = [await running_game(a, 10 + n) for n in range(6)]
        b.scheduler.start()
        for gid in games:  # every turn overdue at once: both processes find the jobs due
            await storage.set_deadline(gid, time.time() - 1)
        for gid in games:
            await wait_until(lambda gid=gid: _has_lines(storage, gid))
        await asyncio.sleep(0.6)  # long enough for a second firing to show (both poll every 0.2 s)
        for gid in games:
            lines = await timeout_lines(storage, gid)
            assert len(lines) == 1, f"game {gid}: the timer fired {len(lines)} times: {lines}"
            assert sorted(s.missed for s in await storage.seats(gid)) == [0, 1]
            row = await storage.get_game(gid)
            assert row.deadline is not None and row.deadline > time.time() + 3000  # the next turn's timer
            assert [j.kind for j in await storage.jobs(gid)] == ["reminder", "timeout"]
    finally:
        await a.close()
        await b.close()


async def _at_least(storage: Storage, game_id: int, version: int) -> bool:
    return (await storage.get_game(game_id)).version >= version


async def test_a_job_held_by_a_killed_process_is_taken_over_when_its_lease_runs_out(storage, second):
    lease = 1.5
    a = make_host(storage, job_lease=lease)
    b = make_host(second)
    try:
        gid = await running_game(a, 20)
        stuck = asyncio.Event()

        async def hangs(*args, **kwargs):  # process A is stuck mid-job (then killed)
            stuck.set()
            await asyncio.Event().wait()

        a.turns.apply_locked = hangs
        await storage.set_deadline(gid, time.time() - 1)
        await asyncio.wait_for(stuck.wait(), 30)
        [job] = [j for j in await storage.jobs(gid) if j.kind == "timeout"]
        assert job.claimed_by == a.scheduler.owner and job.claimed_until is not None
        await a.scheduler.close(release=False)  # killed: it gives nothing back
        b.scheduler.start()
        await wait_until(lambda: _at_least(second, gid, 1), timeout=lease + 30)
        taken = time.time()
        assert taken >= job.claimed_until, "another process ran the job while its lease still held"
        await wait_until(lambda: _has_lines(second, gid))
        await asyncio.sleep(0.5)
        assert len(await timeout_lines(second, gid)) == 1
    finally:
        await a.close()
        await b.close()


async def test_a_process_that_closes_gives_its_jobs_back_at_once(storage, second):
    a = make_host(storage, job_lease=3600)
    try:
        gid = await running_game(a, 25)
        stuck = asyncio.Event()

        async def hangs(*args, **kwargs):
            stuck.set()
            await asyncio.Event().wait()

        a.turns.apply_locked = hangs
        await storage.set_deadline(gid, time.time() - 1)
        await asyncio.wait_for(stuck.wait(), 30)
    finally:
        await a.close()
    assert all(j.claimed_by is None for j in await second.jobs(gid))
    b = make_host(second)
    try:
        b.scheduler.start()
        await wait_until(lambda: _at_least(second, gid, 1))
    finally:
        await b.close()


async def test_two_processes_moving_one_game_at_once_one_wins_the_other_gets_a_stale_board(storage, second):
    a, b = make_host(storage), make_host(second)
    try:
        gid = await running_game(a, 30, timeout=None)
        ta, tb = await a.tables.load(gid), await b.tables.load(gid)  # both hold the engine at version 0
        seat = ta.game.to_act()[0]
        action = ta.game.ai_action(seat, random.Random(3))
        results = await asyncio.gather(
            a.turns.apply_locked(ta, seat, action, human=True),
            b.turns.apply_locked(tb, seat, action, human=True),
            return_exceptions=True,
        )
        stale = [r for r in results if isinstance(r, StaleBoard)]
        won = [r for r in results if isinstance(r, list)]
        assert len(stale) == 1 and len(won) == 1, results
        assert stale[0].table.version == 1
        assert len(await storage.actions(gid)) == 1, "the move was applied twice"
        # Each process's engine is the stored one (a cached engine of an older version is not used).
        row = await storage.get_game(gid)
        for host in (a, b):
            assert (await host.table(gid)).game.to_json() == row.state_json
        # Clicks from both, on the same board, at once: one is applied, the other answered as stale.
        table = await a.table(gid)
        seat = table.game.to_act()[0]
        user = next(s.user_id for s in table.seats if s.seat == seat)
        action = table.game.ai_action(seat, random.Random(4))
        results = await asyncio.gather(
            a.act(gid, user, action, version=1), b.act(gid, user, action, version=1), return_exceptions=True
        )
        assert sorted(type(r).__name__ for r in results) == ["Outcome", "StaleBoard"], results
        assert (await storage.get_game(gid)).version == 2 and len(await storage.actions(gid)) == 2
    finally:
        await a.close()
        await b.close()


async def test_ai_moves_are_made_once_each_whichever_process_claims_them(storage, second):
    a, b = make_host(storage), make_host(second)
    try:
        gid = await running_game(a, 40, timeout=None)
        b.scheduler.start()
        # Bob's seat is an AI's; Alice plays hers (a game with no human left is paused, not played out)
        bob = next(s.seat for s in (await a.table(gid)).seats if s.user_id == BOB)
        await storage.update_seat(gid, bob, is_ai=True)
        a.scheduler.after_change(await a.table(gid))

        async def alice_plays_until_the_end() -> bool:
            table = await a.table(gid)
            if table.over:
                return True
            alice = table.seat_of(ALICE)
            if alice in table.game.to_act():
                action = table.game.ai_action(alice, random.Random(table.version))
                try:
                    await a.act(gid, ALICE, action, version=table.version)
                except StaleBoard:
                    pass
            return False

        await wait_until(alice_plays_until_the_end, timeout=120)
        row = await storage.get_game(gid)
        actions = await storage.actions(gid)
        assert [x.seq for x in actions] == list(range(1, row.version + 1))
        assert await storage.jobs(gid) == []
    finally:
        await a.close()
        await b.close()


async def _finished(storage: Storage, game_id: int) -> bool:
    return (await storage.get_game(game_id)).status == "finished"


async def test_resume_takes_a_constant_number_of_database_round_trips(storage):
    host = make_host(storage)
    games = [await running_game(host, 100 + n) for n in range(12)]
    await host.close()
    calls = 0
    for name in ("_fetchall", "_write"):
        real = getattr(storage, name)

        def counting(*args, _real=real, **kwargs):
            nonlocal calls
            calls += 1
            return _real(*args, **kwargs)

        setattr(storage, name, counting)
    again = make_host(storage)
    try:
        resumed = await again.resume_all()
        assert calls <= 4, f"resuming {len(games)} games took {calls} round trips"
        assert sorted(r.id for r in resumed) == games
        for gid in games:
            assert any("restarted" in line for line in await storage.recent_log(gid, 20))
        await again.publisher.idle()
        shown = {c[1] for c in again.delivery.calls if c[0] == "publish" and c[4] == "resumed"}
        assert shown == set(games)
    finally:
        await again.close()
        for name in ("_fetchall", "_write"):
            delattr(storage, name)


async def test_a_job_armed_by_another_process_wakes_the_scheduler_before_its_poll(storage, second, backend):
    if backend == "sqlite":
        pytest.skip(
            "SQLite is one process: its schedulers hear their own storage only (the poll covers others)"
        )
    a = make_host(storage)
    gid = await running_game(a, 50)
    await a.close()
    b = make_host(second, job_poll=60.0)
    try:
        b.scheduler.start()
        await asyncio.sleep(1.0)  # b has looked at its jobs and sleeps (its next job is an hour away)
        started = time.monotonic()
        await storage.set_deadline(gid, time.time() - 1)  # process a arms an overdue timeout: NOTIFY
        await wait_until(lambda: _has_lines(second, gid), timeout=30)
        assert time.monotonic() - started < 20, "the other process only found the job at its poll"
    finally:
        await b.close()


async def test_a_move_that_arms_an_ai_turn_wakes_this_processs_scheduler_at_once(storage):
    host = make_host(storage, job_poll=60.0)
    try:
        gid = await running_game(host, 60, timeout=None, ai=True)
        await asyncio.sleep(0.5)
        for _ in range(3):
            table = await host.table(gid)
            seat = table.game.to_act()[0]
            if table.seat_row(seat).is_ai:
                version = table.version
                started = time.monotonic()
                await wait_until(lambda v=version: _at_least(storage, gid, v + 1), timeout=30)
                assert time.monotonic() - started < 20, "the AI move waited for the poll"
            else:
                await host.act(gid, ALICE, table.game.ai_action(seat, random.Random(5)))
    finally:
        await host.close()


async def test_a_resignation_that_lost_the_race_to_another_process_changes_nothing_and_says_so(
    storage, second
):
    a, b = make_host(storage), make_host(second)
    try:
        gid = await running_game(a, 70, timeout=None)
        old = await b.tables.load(gid)  # process b read the game at version 0 ...
        table = await a.table(gid)
        seat = table.game.to_act()[0]
        user = next(s.user_id for s in table.seats if s.seat == seat)
        await a.act(gid, user, table.game.ai_action(seat, random.Random(6)), version=0)  # ... a moved first
        with pytest.raises(UserError, match="moved on meanwhile"):
            await b.lobby._record_resign(
                old,
                expected_version=old.version,
                seat=0,
                action={"host": "resign", "name": "Alice", "user_id": ALICE},
                result={"winners": [1]},
            )
        row = await storage.get_game(gid)
        assert (row.status, row.version) == ("running", 1) and await storage.resigned(gid) == []
    finally:
        await a.close()
        await b.close()


async def test_a_timeout_note_sits_at_the_move_it_explains_though_another_process_moved_meanwhile(
    storage, second
):
    """The defect test_three_processes found: the "ran out of time" note was written at the game's
    version when it was written, after the move; another process's move in between (an AI seat moves
    at once) put the note at that move's version instead of the timed-out move's."""

    a = make_host(storage)
    real = storage.update_seat

    async def another_process_moves_first(game_id, seat, **kw):
        storage.update_seat = real
        await plays_next(second, game_id)
        return await real(game_id, seat, **kw)

    try:
        gid = await running_game(a, 40)
        storage.update_seat = another_process_moves_first
        a.scheduler.start()
        await storage.set_deadline(gid, time.time() - 1)
        await wait_until(lambda: _has_lines(storage, gid))
        rows = await storage._fetchall(
            "SELECT version, text FROM log WHERE game_id = ? AND text LIKE ?", (gid, "%ran out of time%")
        )
        assert [int(r["version"]) for r in rows] == [1], "the note of the timed-out move 1"
        assert (await storage.get_game(gid)).version == 2
    finally:
        storage.update_seat = real
        await a.close()


async def test_a_timeout_plays_only_the_turn_that_ran_out_though_another_process_moved_meanwhile(
    storage, second
):
    """The defect test_three_processes found: the timeout plays the absent seat's steps while it is still
    to act (a turn of several steps); another process's move in between (an AI seat moves at once) gave
    the absent seat its next turn, and the timeout played that one too, at once, long before its
    deadline."""

    a = make_host(storage)
    real = storage.record_action

    async def another_process_moves_next(game_id, **kw):
        storage.record_action = real
        version = await real(game_id, **kw)  # the timeout's move
        await plays_next(second, game_id, deadline=time.time() + 3600)
        return version

    try:
        gid = await running_game(a, 41)
        first = registry.get("enemy-lines").from_json((await storage.get_game(gid)).state_json).to_act()[0]
        storage.record_action = another_process_moves_next
        a.scheduler.start()
        await storage.set_deadline(gid, time.time() - 1)
        await wait_until(lambda: _has_lines(storage, gid))
        await asyncio.sleep(0.6)  # (a second timeout move would be made at once)
        assert (await storage.get_game(gid)).version == 2, "the timed-out move and the other process's"
        assert [a.seat for a in await storage.actions(gid)][0] == first
        assert len(await timeout_lines(storage, gid)) == 1
    finally:
        storage.record_action = real
        await a.close()


async def test_the_sweep_arms_an_ai_seat_left_due_with_no_job_and_leaves_a_human_turn_alone(storage):
    """The safety net against a lost AI job (a race between processes that leaves an AI seat due with
    nothing armed): the scheduler's sweep finds the quiet game, arms its AI move, and the game plays on.
    A human's turn without a timer is left alone (and looked at once per version)."""
    later = time.time() + 3600  # the games below look quiet for an hour
    host = make_host(storage, clock=lambda: later)
    try:
        stuck = await running_game(host, 50, timeout=None)
        human = await running_game(host, 51, timeout=None, ai=True)
        await host.idle()

        # The scheduler's loop sweeps once at its start (the clock stands still: never again); on
        # PostgreSQL it opens its LISTEN connection first. Let it, so that the sweeps below are the test's.
        async def loop_swept() -> bool:
            return host.scheduler._swept == later

        await wait_until(loop_swept)
        assert (await host.table(human)).human_to_act(), "the human vs AI game waits for Alice"
        assert await host.scheduler.sweep() == 0  # (both games: a human's turn; looked at once)
        # the seat to move changed hands, and nothing armed its move (the other seat stays a human's: a
        # game with no human left is paused, not played)
        (seat,) = (await host.table(stuck)).game.to_act()
        await storage.update_seat(stuck, seat, is_ai=True)
        assert await storage.jobs(stuck) == []
        version = (await storage.get_game(stuck)).version
        assert await host.scheduler.sweep() == 1
        (job,) = await storage.jobs(stuck)
        assert job.kind == "ai" and job.version == version
        assert await storage.jobs(human) == []
        assert await host.scheduler.sweep() == 0  # armed once; the human's turn is not an AI's
    finally:
        await host.close()


class ReadTogether:
    """Holds each host's first read of the undo request until every host has read it: the answers of
    two processes then both start from the same request (the race a compare-and-set must settle)."""

    def __init__(self, *hosts: Host) -> None:
        self.left = len(hosts)
        self.all_read = asyncio.Event()
        for host in hosts:
            self._wrap(host.undo)

    def _wrap(self, undo) -> None:
        real, first = undo._pending, [True]

        async def pending(game_id):
            out = await real(game_id)
            if first[0]:
                first[0] = False
                self.left -= 1
                if not self.left:
                    self.all_read.set()
                await asyncio.wait_for(self.all_read.wait(), 30)
            return out

        undo._pending = pending


async def undo_game(a: Host, players) -> tuple[int, int, int]:
    """An Everrain game of ``players`` (user, name) played by host ``a`` up to an undoable move that its
    mover then asks to undo: (game id, the version of the move, the mover)."""
    assert players[0] == (ALICE, "Alice")  # the host
    table = await start_game(a, "everrain", others=players[1:], seed=3)
    mover = await crew_move(a, table)
    version = (await a.table(table.id)).version
    await a.undo_request(table.id, mover, version=version)
    return table.id, version, mover


async def test_two_accepts_in_two_processes_at_once_are_both_counted(storage, second):
    a, b = make_host(storage, ai_delay=3600.0), make_host(second, ai_delay=3600.0)
    try:
        gid, version, mover = await undo_game(a, [(ALICE, "Alice"), (BOB, "Bob"), (CAROL, "Carol")])
        others = [u for u in (ALICE, BOB, CAROL) if u != mover]
        ReadTogether(a, b)
        answers = await asyncio.gather(
            a.undo_answer(gid, others[0], version, True), b.undo_answer(gid, others[1], version, True)
        )
        texts = sorted(text for text, _ in answers)
        assert [settled for _, settled in answers].count(True) == 1, answers
        assert any("Everyone accepted" in t for t in texts) and any("waiting for" in t for t in texts), texts
        assert (await storage.get_game(gid)).version == version + 1, (
            "the undo was not made (an Accept was lost)"
        )
        actions = await storage.actions(gid)
        assert [r.action.get("host") for r in actions].count("undo") == 1
        assert await a.undo.pending(gid) is None
    finally:
        await a.close()
        await b.close()


async def test_a_decline_racing_an_accept_in_another_process_settles_the_request(storage, second):
    a, b = make_host(storage, ai_delay=3600.0), make_host(second, ai_delay=3600.0)
    try:
        players = [(ALICE, "Alice"), (BOB, "Bob"), (CAROL, "Carol"), (DAVE, "Dave")]
        gid, version, mover = await undo_game(a, players)
        accepter, decliner, third = [u for u, _ in players if u != mover]
        ReadTogether(a, b)
        accept, decline = await asyncio.gather(
            a.undo_answer(gid, accepter, version, True),
            b.undo_answer(gid, decliner, version, False),
            return_exceptions=True,
        )
        assert decline[1] and "declined" in decline[0], (accept, decline)
        # The Accept either came first (then the Decline read the request again and dropped it) or
        # found the request gone; it never brings a dropped request back.
        assert accept == (
            "You accepted; waiting for " + dict(players)[decliner] + ", " + dict(players)[third] + ".",
            False,
        ) or (isinstance(accept, UserError) and "no longer open" in str(accept)), accept
        assert await a.undo.pending(gid) is None and await b.undo.pending(gid) is None
        assert (await storage.get_game(gid)).version == version, "a declined undo changed the game"
    finally:
        await a.close()
        await b.close()
