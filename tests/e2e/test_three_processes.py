"""Issue 12: three bot processes on one PostgreSQL schema, one SIGKILLed mid-game again and again.

Three ``python -m bot run`` subprocesses (``ADMIRALTY_SHARDS`` 0/3, 1/3 and 2/3; the test-only entry
tests/e2e/kill3_bot.py gives them a short job lease and poll and lets /game new take a 6 s turn timer)
against the sharded loopback Discord, with a guild on each shard and a game in each:

- Enemy Lines, alice vs bob, in shard 0's guild (clicks on the table, shard 0's process);
- Enemy Lines, carol vs dave, in shard 1's guild;
- The Everrain (short), bob and an AI crewmate, in shard 2's guild; bob plays from his DMs (DM clicks
  reach shard 0's process only, whatever the game's guild).

Every game has the short turn timer. The test plays some moves (the AI's choice, by clicks) and lets
others run out; between rounds it SIGKILLs one process at random and restarts it after a moment:
at a random moment, with a click in flight, or holding a job (the jobs table says who claimed it:
``host:pid:tag``). While a process is down, a click in its guild (DMs: shard 0) is not delivered; it is
tried again after the restart. In the end nobody clicks any more: the timers play for the absent
players, an AI takes each seat over after three missed turns, and every game ends: it finishes, or,
once no human player is left in it, it is paused and then abandoned (``ADMIRALTY_ABANDON_AFTER`` 2 s).

Checks (from the database, beside the processes): every game's log runs 1..version and replays to its
snapshot (bot.storage.rebuild); every acknowledged ("✅ Played") move is in the log at its place, once;
every timeout note (one per timed-out turn) is there once; every deadline reminded once at most; in
Enemy Lines (turns alternate, one move each, so the log tells when a deadline was armed) every
timed-out move was made neither early nor later than the lease (plus a poll and slack for load) after
its deadline, and reminded exactly once (unless a kill fell in its second half); the job a killed
process held is done by another within the lease; every game ends (finished, or abandoned with no
human player left, after its pause); an interaction failed (or was
deferred and never answered) only when it reached a process killed meanwhile, and was undelivered only
while its shard's process was down.

CI kills 3 times; ADMIRALTY_KILL3_RUNS=N runs the ``slow`` variant with N kills. ADMIRALTY_KILL3_SEED
repeats the random choices of a run (the timing still varies).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import re
import signal
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bot import menus
from bot.games import registry
from bot.games.base import canonical
from bot.settings import shard_of
from bot.storage import ActionRow, GameRow, SeatRow, Storage, rebuild
from tests.e2e.conftest import Driver, PrivateMenuAnswer
from tests.fakediscord import FakeDiscord
from tests.fakediscord.errors import FakeDiscordError

pytestmark = pytest.mark.postgres

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = Path(__file__).resolve().parent / "kill3_bot.py"
RUNS = int(os.environ.get("ADMIRALTY_KILL3_RUNS", "3"))
TURN = 6.0  # the games' turn timer (seconds)
LEASE = 3.0  # the processes' job lease
POLL = 0.5  # ... and poll
LATE = LEASE + POLL + 6.0  # a timer fires at most this long after its deadline (lease + poll + load)
SHARDS = 3
ENDED = ("finished", "abandoned")  # a game with no human player left is paused, then abandoned
MODES = ("plain", "inflight", "job")  # the first kills cycle through these; then at random
TIMED_OUT = re.compile(r"ran out of time|missed \d+ turns in a row")
REMINDER = re.compile(r"⏰ <@\d+>, it is still your turn in \*\*.+?\*\* \(game #(\d+)\).*<t:(\d+):R>")


@dataclass
class Game:
    key: str
    channel: object
    shard: int
    players: list[str]
    dm: set[str] = field(default_factory=set)  # members who play from their DMs
    id: int = 0


@dataclass
class Ack:
    game_id: int
    seq: int
    seat: int
    action: dict


@dataclass
class Proc:
    shard: int
    proc: asyncio.subprocess.Process | None = None
    starts: int = 0
    down_since: float | None = None  # monotonic
    down: list[tuple[float, float]] = field(default_factory=list)  # (from, to), monotonic


class Three:
    def __init__(self, fd: FakeDiscord, url: str, tmp: Path, seed: int) -> None:
        self.fd = fd
        self.url = url
        self.tmp = tmp
        self.seed = seed
        self.rng = random.Random(seed)
        self.procs = [Proc(i) for i in range(SHARDS)]
        self.storage: Storage | None = None
        self.games: list[Game] = []
        self.acks: list[Ack] = []
        self.kills: list[tuple[int, float, float]] = []  # (shard, monotonic, wall clock)
        self.killed_sessions: dict[str, float] = {}  # gateway session -> monotonic time of its kill
        self.job_kills: list[tuple[int, str, int, float]] = []  # (game, kind, version, wall clock)
        self.undelivered_seen = 0  # clicks that reached no process while their shard's was down
        self.last_failed = None
        self.unanswered: list = []  # clicks deferred and never answered
        self.all_games: list[Game] = []
        self.timeouts_checked = self.reminders_checked = 0
        self.history: list[str] = []

    # ---------------------------------------------------------------- reporting
    def note(self, text: str) -> None:
        self.history.append(f"{time.monotonic():.1f} {text}")

    def where(self) -> str:
        tails = []
        for p in self.procs:
            log = self.tmp / f"bot{p.shard}-{p.starts}.log"
            tail = log.read_text(errors="replace")[-1500:] if log.exists() else ""
            tails.append(f"--- process {p.shard} ({log.name}) ---\n{tail}")
        for log in sorted(self.tmp.glob("bot*.log")):  # every start's warnings (a job refused or failed)
            warned = [
                line
                for line in log.read_text(errors="replace").splitlines()
                if (" WARNING " in line or " ERROR " in line) and "discord." not in line
            ]
            if warned:
                tails.append(f"--- warnings in {log.name} ---\n" + "\n".join(warned[-10:]))
        return f"\nseed={self.seed} (ADMIRALTY_KILL3_SEED); last steps: {self.history[-20:]}\n" + "\n".join(
            tails
        )

    # ---------------------------------------------------------------- processes
    async def start(self, p: Proc) -> None:
        p.starts += 1
        before = self.fd.gateway.identifies
        env = {
            **os.environ,
            "PYTHONPATH": str(ROOT),
            "DISCORD_TOKEN": "fake-token",
            "ADMIRALTY_DB": self.url,
            "ADMIRALTY_AI_DELAY": "0",
            "ADMIRALTY_TURN_TIMEOUT": "0",
            "ADMIRALTY_ABANDON_AFTER": "2s",
            "ADMIRALTY_LOG_LEVEL": "INFO",
            "ADMIRALTY_DEV_GUILD": "",
            "ADMIRALTY_SHARDS": f"{p.shard}/{SHARDS}",
            "ADMIRALTY_TEST_MIN_TURN_TIMEOUT": "1",
            "ADMIRALTY_TEST_JOB_LEASE": str(LEASE),
            "ADMIRALTY_TEST_JOB_POLL": str(POLL),
        }
        with open(self.tmp / f"bot{p.shard}-{p.starts}.log", "wb") as log:
            p.proc = await asyncio.create_subprocess_exec(
                *self.fd.launch_argv(str(SCRIPT)),
                cwd=str(ROOT),
                env=env,
                stdin=asyncio.subprocess.DEVNULL,
                stdout=log,
                stderr=asyncio.subprocess.STDOUT,
            )
        try:
            await self.fd.gateway.wait_connected(90, after_identifies=before)
            await self.fd.wait_for(lambda: self.fd.gateway.shards().get((p.shard, SHARDS)) == 1, timeout=90)
        except TimeoutError:
            raise AssertionError(f"process {p.shard} did not connect" + self.where()) from None
        if p.down_since is not None:
            p.down.append((p.down_since, time.monotonic()))
            p.down_since = None
        self.note(f"start {p.shard}.{p.starts} (pid {p.proc.pid})")

    async def kill(self, p: Proc) -> None:
        for q in self.procs:
            assert q.proc is not None and q.proc.returncode is None, (
                f"process {q.shard} died by itself" + self.where()
            )
        sessions = [
            sid for sid, shard in self.fd.gateway.shard_of_session.items() if shard == (p.shard, SHARDS)
        ]
        p.down_since = time.monotonic()
        p.proc.send_signal(signal.SIGKILL)
        await p.proc.wait()
        for sid in sessions:
            self.killed_sessions.setdefault(sid, p.down_since)
        self.kills.append((p.shard, p.down_since, time.time()))
        self.note(f"SIGKILL {p.shard} (kill {len(self.kills)})")

    async def stop_all(self) -> None:
        for p in self.procs:
            if p.proc is not None and p.proc.returncode is None:
                p.proc.send_signal(signal.SIGTERM)
        for p in self.procs:
            if p.proc is not None:
                try:
                    await asyncio.wait_for(p.proc.wait(), 20)
                except TimeoutError:
                    p.proc.kill()
                    await p.proc.wait()

    def down_at(self, shard: int, t: float) -> bool:
        p = self.procs[shard]
        if p.down_since is not None and t >= p.down_since - 0.1:
            return True
        return any(a - 0.1 <= t <= b + 0.1 for a, b in p.down)

    # ---------------------------------------------------------------- the database
    async def game_rows(self) -> list[tuple[GameRow, list[SeatRow]]]:
        rows = await self.storage._fetchall(
            "SELECT * FROM games WHERE status IN ('running', 'finished', 'abandoned') ORDER BY id"
        )
        out = []
        for r in rows:
            row = GameRow._from(r)
            out.append((row, await self.storage.seats(row.id)))
        return out

    async def snap(self, g: Game) -> tuple[GameRow, list[SeatRow]]:
        row = await self.storage.get_game(g.id)
        return row, await self.storage.seats(g.id)

    # ---------------------------------------------------------------- Discord side
    def driver(self, g: Game) -> Driver:
        return Driver(self.fd, None, g.channel)

    def member(self, user_id: int):
        return next(
            m for m in (self.fd.user(n) for n in ("alice", "bob", "carol", "dave")) if m.id == user_id
        )

    async def open(self, g: Game) -> None:
        host = self.fd.user(g.players[0])
        opts = {"quick_setup": True} if g.key == "enemy-lines" else {"length": "short"}
        opened = await host.slash(
            "game new",
            channel=g.channel,
            game=g.key,
            thread=False,
            turn_timeout=f"{TURN:g}s",
            timeout=30,
            **opts,
        )
        assert not opened.failed and "Lobby opened" in opened.text, opened.text + self.where()
        d = self.driver(g)
        for name in g.players[1:]:
            joined = await self.fd.user(name).click(d.lobby_message(), "Join", timeout=30)
            assert "joined" in joined.text, joined.text + self.where()
        if len(g.players) == 1:
            asked = await host.click(d.lobby_message(), "Add AI", timeout=30)
            assert not asked.failed and asked.message is not None, self.where()
            added = await host.click(asked.message, "Normal", timeout=30)
            assert not added.failed and "takes a seat" in added.text, self.where()
        started = await host.click(d.lobby_message(), "Start", timeout=30)
        assert "started" in started.text, started.text + self.where()
        rows = await self.game_rows()
        g.id = max(r.id for r, _ in rows if r.channel_id == g.channel.id)  # the channel's newest game
        self.note(f"game {g.id}: {g.key} on shard {g.shard}")

    async def start_message(self, g: Game, member, version: int, seat: int):
        """Where the move starts: the member's DM controls, or the table's controls, of this version."""
        d = self.driver(g)
        want = f":{g.id}:{version}:"

        def found():
            if member.name in g.dm:
                return d.dm_controls(member, version, seat)
            m = d.table_message()
            if m is not None and any(want in (b.custom_id or "") for b in m.buttons):
                return m
            return None

        with contextlib.suppress(TimeoutError):
            await self.fd.wait_for(lambda: found() is not None, timeout=10)
        return found()

    async def play(self, g: Game, on_start=None) -> str:
        """The human to act plays the AI's choice by clicks: 'played' (acknowledged), 'failed' (a click
        failed: its process is down or died), 'moved on' (a timer or the AI was faster), 'ai', 'over'."""
        row, seats = await self.snap(g)
        if row.status != "running":
            return "over"
        spec = registry.get(row.game_key)
        game = spec.from_json(row.state_json)
        by_seat = {s.seat: s for s in seats}
        humans = [s for s in game.to_act() if not by_seat[s].is_ai]
        if not humans:
            return "ai"
        seat = humans[0]
        member = self.member(by_seat[seat].user_id)
        action = game.ai_action(seat, random.Random(f"{row.seed}:{row.version}:{seat}"))
        names = [s.name for s in sorted(seats, key=lambda s: s.seat)]
        labels = menus.labels_of(game, seat, action, names)
        message = await self.start_message(g, member, row.version, seat)
        if message is None:
            return "moved on"
        d = self.driver(g)
        if on_start is not None:
            on_start()
        result = None
        try:
            for n, label in enumerate(labels):
                if n < len(labels) - 1 and not d.offers(message, label):
                    continue
                result = await d.click_label(member, message, label)
                if result.failed:
                    return self.failed(result)
                if message.ephemeral:  # a sub-menu opened from the table: "✅ Played" is its update
                    result = PrivateMenuAnswer(result)
                if "✅ Played" in result.text:
                    break
                message = result.message if result.messages else result.original
                if message is None or not (message.buttons or message.selects):
                    return "moved on"
            else:
                confirm = next((b for b in message.buttons if b.label == "✅ Confirm"), None)
                if confirm is not None:
                    result = await d.answered(
                        await member.click(message, confirm.custom_id), d._version_id(confirm.custom_id)
                    )
                    if result.failed:
                        return self.failed(result)
        except (AssertionError, FakeDiscordError) as e:  # the menu changed under the click: moved on
            self.note(f"game {g.id}: menu gone ({str(e)[:60]})")
            return "moved on"
        except TimeoutError:  # deferred, then never answered: its process must have been killed (checked)
            rec = self.last_failed = [i for i in self.fd.interactions.values() if i.user.id == member.id][-1]
            self.unanswered.append(rec)
            self.note(f"game {g.id}: a click was deferred and never answered")
            return "failed"
        if result is not None and "✅ Played" in result.text:
            self.acks.append(Ack(g.id, row.version + 1, seat, action))
            self.note(f"game {g.id}: move {row.version + 1} acknowledged")
            return "played"
        return "moved on"

    def failed(self, result) -> str:
        rec = self.last_failed = result.interaction
        self.note(f"click failed ({'undelivered' if rec in self.fd.undelivered else 'delivered'})")
        return "failed"

    async def play_until_delivered(self, g: Game) -> str:
        """Play one move; a click that failed (its process down) is tried again once it is back."""
        for _ in range(10):
            outcome = await self.play(g)
            self.note(f"game {g.id}: {outcome}")
            if outcome != "failed":
                return outcome
            shard = self.click_shard(g)
            for _ in range(1200):
                if self.procs[shard].down_since is None:
                    break
                await asyncio.sleep(0.1)
        raise AssertionError(f"game {g.id}: no move could be made in 10 tries" + self.where())

    @staticmethod
    def click_shard(g: Game) -> int:
        """The shard whose process gets the game's clicks: its guild's, or for DM players shard 0's."""
        return 0 if g.dm else g.shard

    # ---------------------------------------------------------------- kills
    async def kill_holding_a_job(self) -> Proc:
        """Kill the process that holds a claimed job (within 15 s; else a random one)."""
        end = time.monotonic() + 15
        pids = {p.proc.pid: p for p in self.procs}
        while time.monotonic() < end:
            rows = await self.storage._fetchall(
                "SELECT game_id, kind, version, claimed_by FROM jobs WHERE claimed_by IS NOT NULL "
                "AND claimed_until > ?",
                (time.time(),),
            )
            for r in rows:
                pid = int(str(r["claimed_by"]).split(":")[1])
                if pid in pids:
                    p = pids[pid]
                    await self.kill(p)
                    self.job_kills.append((int(r["game_id"]), str(r["kind"]), int(r["version"]), time.time()))
                    self.note(f"  ...it held the {r['kind']} job of game {r['game_id']} v{r['version']}")
                    return p
            await asyncio.sleep(0.005)
        p = self.rng.choice(self.procs)
        self.note("no job claimed within 15 s: a plain kill")
        await self.kill(p)
        return p

    async def one_kill(self, mode: str) -> None:
        victim = self.procs[self.rng.randrange(SHARDS)]
        in_flight = None
        if mode == "job":
            victim = await self.kill_holding_a_job()
        elif mode == "inflight":
            # a move of a game whose clicks reach the victim, killed 0-1.5 s after its first click
            mine = [g for g in self.games if self.click_shard(g) == victim.shard]
            clicked = asyncio.Event()
            if mine:
                g = self.rng.choice(mine)
                in_flight = asyncio.create_task(self.play(g, on_start=clicked.set))
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(clicked.wait(), 15)
                await asyncio.sleep(self.rng.uniform(0.0, 1.5))
                self.note(f"in flight: game {g.id}")
            await self.kill(victim)
        else:
            await asyncio.sleep(self.rng.uniform(0.0, 1.0))
            await self.kill(victim)
        if in_flight is not None:
            self.note(f"  ...the in-flight move: {await in_flight}")
        # While it is down, a click in its guild (DMs: shard 0) reaches no process.
        down = [g for g in self.games if self.click_shard(g) == victim.shard]
        if down:
            g = down[0]
            outcome = await self.play(g)
            if outcome == "failed":
                rec = self.last_failed
                # no process took it: Discord had no session for the shard, or only the dead one's
                # (a session that dropped stays resumable for a while; its events wait there)
                assert rec in self.fd.undelivered or (
                    rec.delivered_to and all(sid in self.killed_sessions for sid in rec.delivered_to)
                ), "a click in a dead shard's guild reached a live process" + self.where()
                self.undelivered_seen += 1
        await asyncio.sleep(self.rng.uniform(0.2, 1.5))
        await self.start(victim)

    # ---------------------------------------------------------------- the run
    async def run(self, kills: int) -> None:
        fd = self.fd
        fd.add_guild("Second", shard=1, channels=["second-games"])
        fd.add_guild("Third", shard=2, channels=["third-games"])
        self.storage = await Storage.open(self.url)
        for p in self.procs:
            await self.start(p)
        await fd.wait_for(lambda: fd.global_commands, timeout=60)
        self.games = [
            Game("enemy-lines", fd.channel("games"), 0, ["alice", "bob"]),
            Game("enemy-lines", fd.channel("second-games"), 1, ["carol", "dave"]),
            Game("everrain", fd.channel("third-games"), 2, ["bob"], dm={"bob"}),
        ]
        for g in self.games:
            await self.open(g)
        self.all_games = list(self.games)
        for k in range(kills):
            for i, g in enumerate(self.games):
                row, _ = await self.snap(g)
                if row.status in ENDED:  # (long runs) a new game in its place
                    g = self.games[i] = Game(g.key, g.channel, g.shard, g.players, g.dm)
                    await self.open(g)
                    self.all_games.append(g)
                if self.rng.random() < 0.75:  # else its turn runs out
                    await self.play_until_delivered(g)
            await self.one_kill(MODES[k] if k < len(MODES) else self.rng.choice(MODES))
        # Nobody clicks any more: the timers play for the absent, AI seats take over, the games end (or,
        # with no human left, pause and are abandoned).
        self.note("nobody clicks any more")
        end = time.monotonic() + 180
        while True:
            rows = {r.id: r for r, _ in await self.game_rows()}
            if all(rows[g.id].status in ENDED for g in self.all_games):
                break
            if time.monotonic() > end:
                raise AssertionError("the games did not finish:\n" + await self.state() + self.where())
            await asyncio.sleep(0.5)
        await asyncio.sleep(2 * POLL)  # anything still being shown
        await self.stop_all()
        await self.check()

    async def state(self) -> str:
        """The games, their seats and jobs as the database has them (for a failure's message)."""
        lines = [f"now {time.time():.1f}"]
        for row, seats in await self.game_rows():
            game = registry.get(row.game_key).from_json(row.state_json)
            lines.append(
                f"game {row.id} {row.game_key} {row.status} v{row.version} deadline {row.deadline} "
                f"reminded {row.reminded} to act {game.to_act()} seats "
                f"{[(s.seat, s.name, s.is_ai, s.missed) for s in seats]}"
            )
        for r in await self.storage._fetchall("SELECT * FROM jobs ORDER BY game_id, kind"):
            lines.append(f"job {dict(r)}")
        return "\n".join(lines)

    # ---------------------------------------------------------------- the checks
    async def check(self) -> None:
        storage = self.storage
        assert await storage.integrity_check() == "ok", self.where()
        ours = {g.id for g in self.all_games}
        logs: dict[int, list[ActionRow]] = {}
        for row, seats in await self.game_rows():
            actions = await storage.actions(row.id)
            logs[row.id] = actions
            assert [a.seq for a in actions] == list(range(1, row.version + 1)), (
                f"game {row.id}: version {row.version}, log {[a.seq for a in actions]}" + self.where()
            )
            replayed = rebuild(row, actions, seats)
            assert replayed.to_json() == row.state_json, (
                f"game {row.id}: the snapshot differs from a replay of its log" + self.where()
            )
            if row.id in ours and row.status == "abandoned":  # paused with no human left, then abandoned
                lines = await storage.recent_log(row.id, 10_000)
                assert all(s.is_ai for s in seats) and any("the game is paused" in x for x in lines), (
                    f"game {row.id} was abandoned though a player was left" + self.where()
                )
                assert not replayed.is_over and not await storage.is_rated(row.id), self.where()
            elif row.id in ours:
                assert row.status == "finished" and replayed.is_over, (
                    f"game {row.id} did not finish" + self.where()
                )
        # every acknowledged move is in the log at its place, once
        assert self.acks, "no move was acknowledged" + self.where()
        places = [(a.game_id, a.seq) for a in self.acks]
        assert len(places) == len(set(places)), "two moves acknowledged at one place" + self.where()
        for ack in self.acks:
            log = logs[ack.game_id]
            assert len(log) >= ack.seq, f"acknowledged move {ack} is not in the log" + self.where()
            logged = log[ack.seq - 1]
            assert logged.seat == ack.seat and canonical(logged.action) == canonical(ack.action), (
                f"acknowledged {ack}, logged {logged}" + self.where()
            )
        # the timers: one note per timed-out turn, its move within the lease of its deadline
        notes = await storage._fetchall("SELECT game_id, version, text FROM log ORDER BY id")
        timed_out = [
            (int(r["game_id"]), int(r["version"]), str(r["text"]))
            for r in notes
            if TIMED_OUT.search(str(r["text"]))
        ]
        assert timed_out, "no turn ran out" + self.where()
        assert len(timed_out) == len(set(timed_out)), (
            f"a timeout note twice: {sorted(timed_out)}" + self.where()
        )
        per_version: dict[tuple[int, int], int] = {}
        for game_id, version, _ in timed_out:
            per_version[(game_id, version)] = per_version.get((game_id, version), 0) + 1
        assert max(per_version.values()) == 1, f"a turn timed out twice: {per_version}" + self.where()
        reminders: dict[tuple[int, int], int] = {}
        for m in self.fd.messages.values():
            found = REMINDER.search(m.content or "") if m.author_id == self.fd.bot_user.id else None
            if found:
                key = (int(found[1]), int(found[2]))
                reminders[key] = reminders.get(key, 0) + 1
        assert reminders and max(reminders.values()) == 1, (
            f"a turn reminded twice: {reminders}" + self.where()
        )
        self.timeouts_checked = self.reminders_checked = 0
        keys = {row.id: row.game_key for row, _ in await self.game_rows()}
        for game_id, version, _ in timed_out:
            if keys[game_id] != "enemy-lines":
                # a turn of several steps, or several seats at once, keeps its deadline across moves: the
                # log alone does not tell when it was armed (Enemy Lines: one move a turn, turns alternate)
                continue
            log = logs[game_id]
            last = log[version - 1]
            s = version  # the first move the timer made (a turn of several steps: several moves)
            while s > 1 and log[s - 2].seat == last.seat and last.created_at - log[s - 2].created_at < 1.0:
                s -= 1
            if s < 2:
                continue  # the game's first turn: armed at its start
            deadline = log[s - 2].created_at + TURN
            late = log[s - 1].created_at - deadline
            assert late <= LATE, (
                f"game {game_id}: the timer of move {s} fired {late:.1f} s after its "
                f"deadline (lease {LEASE} s)" + self.where()
            )
            if log[s - 2].seat != last.seat:
                around = [
                    (a.seq, a.seat, round(a.created_at - log[0].created_at, 2))
                    for a in log[max(0, s - 5) : s + 2]
                ]
                near = [
                    (r["version"], r["text"][:50])
                    for r in notes
                    if int(r["game_id"]) == game_id and s - 5 <= int(r["version"]) <= s + 2
                ]
                assert late >= -1.0, (
                    f"game {game_id}: move {s} timed out {-late:.1f} s early; moves {around}, "
                    f"notes {near}" + self.where()
                )
                self.timeouts_checked += 1
                if not any(deadline - TURN / 2 - LEASE - 2 <= t <= deadline + 1 for _, _, t in self.kills):
                    hits = [k for k in reminders if k[0] == game_id and abs(k[1] - deadline) <= 2.5]
                    assert len(hits) == 1, (
                        f"game {game_id}: move {s} timed out, reminded {len(hits)} times" + self.where()
                    )
                    self.reminders_checked += 1
        # the jobs killed processes held: done by another within the lease (a reminder makes no move,
        # so its game's log may end at its version: abandoned once no human was left)
        for game_id, kind, version, t in self.job_kills:
            log = logs[game_id]
            if kind in ("timeout", "ai"):
                assert len(log) > version, (
                    f"game {game_id}: the {kind} job of v{version} never done" + self.where()
                )
                due = log[version - 1].created_at + (TURN if kind == "timeout" else 0.0) if version else t
                late = log[version].created_at - max(t, due)
                assert late <= LATE, (
                    f"game {game_id}: the {kind} job of v{version} held by a killed process "
                    f"was done {late:.1f} s after the kill" + self.where()
                )
        # An AI seat's job is armed in the transaction of the move that makes it due: the scheduler's
        # safety-net sweep (which arms a due AI seat found with no job, and says so) never has to.
        swept = [
            line
            for log in sorted(self.tmp.glob("bot*.log"))
            for line in log.read_text(errors="replace").splitlines()
            if "with no job armed" in line
        ]
        assert not swept, "an AI job was lost (the sweep armed it):\n" + "\n".join(swept) + self.where()
        # Discord: a failed interaction reached a process killed meanwhile; an undelivered one, no process
        for rec in self.fd.interactions.values():
            if rec in self.fd.undelivered:
                shard = 0 if rec.guild_id is None else shard_of(rec.guild_id, SHARDS)
                assert self.down_at(shard, rec.created), (
                    f"interaction {rec.id} undelivered while shard {shard} was up" + self.where()
                )
            elif rec.failed or rec in self.unanswered:
                assert any(
                    sid in self.killed_sessions and rec.created >= self.killed_sessions[sid] - 20
                    for sid in rec.delivered_to
                ), (
                    f"interaction {rec.id} ({rec.data.get('custom_id') or rec.command_name}) failed (or was "
                    "never answered) in a live process" + self.where()
                )


async def three_processes(tmp_path: Path, url: str, kills: int) -> Three:
    seed = int(os.environ.get("ADMIRALTY_KILL3_SEED") or random.SystemRandom().randrange(10**6))
    async with FakeDiscord(
        users=["alice", "bob", "carol", "dave"], shards=SHARDS, deferred_update_wait=10.0
    ) as fd:
        t = Three(fd, url, tmp_path, seed)
        try:
            await t.run(kills)
        finally:
            with contextlib.suppress(Exception):
                await t.stop_all()
            if t.storage is not None:
                await t.storage.close()
        return t


async def test_three_processes_sigkilled_lose_no_move_and_fire_every_timer_once(tmp_path, pg_url):
    t = await three_processes(tmp_path, pg_url, min(RUNS, 3))
    assert len(t.kills) >= min(RUNS, 3)
    assert t.acks and t.timeouts_checked
    print(
        f"\nkill3: {len(t.kills)} kills, {len(t.acks)} acknowledged moves, {t.timeouts_checked} timeouts and "
        f"{t.reminders_checked} reminders checked, jobs taken over: {t.job_kills}, "
        f"{t.undelivered_seen} clicks undelivered while down (seed {t.seed})"
    )


@pytest.mark.slow
@pytest.mark.skipif(
    "ADMIRALTY_KILL3_RUNS" not in os.environ, reason="the long run: ADMIRALTY_KILL3_RUNS=N (kills)"
)
async def test_three_processes_sigkilled_many_times(tmp_path, pg_url):
    t = await three_processes(tmp_path, pg_url, RUNS)
    assert len(t.kills) >= RUNS and t.acks and t.timeouts_checked
    print(
        f"\nkill3: {len(t.kills)} kills, {len(t.all_games)} games, {len(t.acks)} acknowledged moves, "
        f"{t.timeouts_checked} timeouts and {t.reminders_checked} reminders checked, jobs taken over: "
        f"{t.job_kills}, {t.undelivered_seen} clicks undelivered while down (seed {t.seed})"
    )
