"""Scenario 5: the bot process is SIGKILLed at random moments of running Enemy Lines games and restarted
on the same database (a real subprocess, the unmodified bot, through the loopback Discord).

After every kill, while the bot is dead, the database is read beside it (SQLite: the file with sqlite3,
read-only, ``PRAGMA integrity_check`` ok; PostgreSQL in the e2e run on it: the schema, the backend's
integrity check ok), every game's version equals the number of its log rows (seq 1..n),
the snapshot equals a replay of the log (bot.storage.rebuild), and every move a member saw acknowledged
("✅ Played") is in the log at its place. After every restart: a "resumed" note reaches the channel,
the turn message carries the current version, and buttons of earlier messages either still work or are
refused as stale with a clear reply (never a failed interaction). The games finish in the end.

Kill moments (chosen at random): while a click is in flight (any click of a move's menu path, killed
0–250 ms after it left the member: during the defer, the move's transaction or its delivery — the move
may or may not be applied, never half; a menu click applies nothing), with a private menu open (after
the restart its buttons must still play the move), a random short time after a move, and during the
restart itself (while the bot resumes its games).

The test waits for the resume to finish before it clicks again: a click that lands while the bot is
resuming the same game was a race (fixed: Host.resume_all works under the game's lock; the last test).

The CI test kills 3 times or more (a kill during a restart counts; fewer if ADMIRALTY_CHAOS_RUNS is
smaller); ``make chaos`` runs the slow test with ADMIRALTY_CHAOS_RUNS=50. ADMIRALTY_CHAOS_SEED repeats
the random choices of a run (the timing still varies).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import os
import random
import signal
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bot import menus, ui
from bot.games import registry
from bot.games.base import canonical
from bot.storage import ActionRow, GameRow, SeatRow, Storage, is_postgres_url, rebuild
from tests.e2e.conftest import Driver, PrivateMenuAnswer, short
from tests.fakediscord import FakeDiscord

ROOT = Path(__file__).resolve().parents[2]
RUNS = int(os.environ.get("ADMIRALTY_CHAOS_RUNS", "3"))
SPEC = registry.get("enemy-lines")
MODES = ("inflight", "menu", "storm", "after")  # the first kills cycle through these; then at random
RESUMED = "resumes where it stood"


@dataclass
class Ack:
    """A move a member saw acknowledged with "✅ Played"."""

    game_id: int
    seq: int
    seat: int
    played: str  # the label after "✅ Played: "
    action: dict | None = None  # known when the test chose it


@dataclass
class Snapshot:
    row: GameRow
    seats: list[SeatRow]
    actions: list[ActionRow] = field(default_factory=list)


class Db:
    """The bot's database as this test reads it, beside the bot (mostly while it is dead).

    SQLite: the file, read with sqlite3 read-only (a crashed file's WAL is left for the bot to recover),
    ``PRAGMA integrity_check`` included. PostgreSQL (``ADMIRALTY_TEST_E2E_BACKEND=postgres``): the
    test's schema through :class:`bot.storage.PostgresStorage` on a loop of its own in a worker
    thread (these reads are synchronous, as the test's predicates are); the integrity check is the
    backend's (one schema version, every action log running 1..version)."""

    def __init__(self, target: Path | str) -> None:
        self.target = target
        self.postgres = is_postgres_url(target)

    def _pg(self, body):
        async def run():
            storage = await Storage.open(str(self.target))
            try:
                return await body(storage)
            finally:
                await storage.close()

        with concurrent.futures.ThreadPoolExecutor(1) as pool:
            return pool.submit(asyncio.run, run()).result(timeout=60)

    def read(self, *, check: bool = False) -> tuple[str, list[Snapshot]]:
        """Every started game, oldest first; with check, also the integrity check and the action logs."""
        if self.postgres:

            async def body(storage):
                integrity = await storage.integrity_check() if check else "unchecked"
                rows = await storage._fetchall(
                    "SELECT * FROM games WHERE status IN ('running', 'finished') ORDER BY id"
                )
                games = []
                for r in rows:
                    row = GameRow._from(r)
                    games.append(
                        Snapshot(
                            row, await storage.seats(row.id), await storage.actions(row.id) if check else []
                        )
                    )
                return integrity, games

            return self._pg(body)
        con = sqlite3.connect(f"file:{self.target}?mode=ro", uri=True, timeout=30)
        try:
            con.row_factory = sqlite3.Row
            integrity = con.execute("PRAGMA integrity_check").fetchone()[0] if check else "unchecked"
            games = []
            for r in con.execute("SELECT * FROM games WHERE status IN ('running', 'finished') ORDER BY id"):
                row = GameRow._from(r)
                seats = [
                    SeatRow._from(s)
                    for s in con.execute("SELECT * FROM seats WHERE game_id = ? ORDER BY seat", (row.id,))
                ]
                actions = []
                if check:
                    actions = [
                        ActionRow._from(a)
                        for a in con.execute(
                            "SELECT * FROM actions WHERE game_id = ? ORDER BY seq", (row.id,)
                        )
                    ]
                games.append(Snapshot(row, seats, actions))
            return integrity, games
        finally:
            con.close()

    def count_log(self, like: str) -> int:
        """Lines of the tables' logs that contain ``like``."""
        sql = "SELECT count(*) FROM log WHERE text LIKE ?"
        if self.postgres:

            async def body(storage):
                row = await storage._fetchone(sql, (f"%{like}%",))
                return int(row[0])

            return self._pg(body)
        con = sqlite3.connect(f"file:{self.target}?mode=ro", uri=True, timeout=30)
        try:
            return con.execute(sql, (f"%{like}%",)).fetchone()[0]
        finally:
            con.close()


def path_labels(game, seat: int, action: dict, seats: list[SeatRow] | None = None) -> list[str]:
    """The menu labels of an action as the players see them (seats named by their players' names)."""
    names = None if seats is None else [s.name for s in sorted(seats, key=lambda s: s.seat)]
    return menus.labels_of(game, seat, action, names)


def played_label(text: str) -> str:
    line = next(line for line in text.splitlines() if "✅ Played" in line)
    return line.split("✅ Played:", 1)[1].strip()


def components_of(message) -> list[str]:
    ids = [b.custom_id or "" for b in message.buttons] + [s.custom_id for s in message.selects]
    return [c for c in ids if c.startswith(("adm:b", "adm:s"))]


def version_in(custom_id: str) -> int:
    m = ui.BUTTON_RE.fullmatch(custom_id) or ui.SELECT_RE.fullmatch(custom_id)
    assert m is not None, custom_id
    return int(m["version"])


class Chaos:
    def __init__(self, fd: FakeDiscord, tmp_path: Path, seed: int, database: Path | str) -> None:
        self.fd = fd
        self.tmp = tmp_path
        self.db = Db(database)
        self.seed = seed
        self.rng = random.Random(seed)
        self.channel = fd.channel("games")
        self.d = Driver(fd, None, self.channel)  # only its Discord-side helpers: no bot object here
        self.players = [fd.user("alice"), fd.user("bob")]
        self.proc: asyncio.subprocess.Process | None = None
        self.starts = 0
        self.kills = 0
        self.acks: list[Ack] = []
        # (game, seq, action) of clicks killed in flight; action None: a menu click, which applies nothing
        self.maybe: list[tuple[int, int, dict | None]] = []
        self.history: list[str] = []
        self.finished_games: set[int] = set()
        self.labels: dict[tuple[int, int], str] = {}  # (game, seq) -> path label of the logged move
        self.verified: dict[int, int] = {}  # finished game -> version already replayed
        self.in_flight = {"applied": 0, "not applied": 0, "acknowledged": 0}
        self.stale_refusals = 0
        self.old_buttons_worked = 0

    # ---------------------------------------------------------------- reporting
    def note(self, text: str) -> None:
        self.history.append(text)

    def where(self) -> str:
        log = self.tmp / f"bot-{self.starts}.log"
        tail = log.read_text(errors="replace")[-3000:] if log.exists() else ""
        channel = "\n".join(
            f"  {m.id} {m.content[:70]!r} {components_of(m)[:3]}" for m in self.d.public()[-6:]
        )
        return (
            f"\nseed={self.seed} (ADMIRALTY_CHAOS_SEED), kill {self.kills}; last steps: "
            f"{self.history[-15:]}\n--- channel (last messages) ---\n{channel}"
            f"\n--- bot log {log.name} (tail) ---\n{tail}"
        )

    # ---------------------------------------------------------------- the process
    async def start(self) -> None:
        self.starts += 1
        before = self.fd.gateway.identifies
        log = open(self.tmp / f"bot-{self.starts}.log", "wb")  # noqa: SIM115 - handed to the child
        env = {
            **os.environ,
            "PYTHONPATH": str(ROOT),
            "DISCORD_TOKEN": "fake-token",
            "ADMIRALTY_DB": str(self.db.target),
            "ADMIRALTY_AI_DELAY": "0",
            "ADMIRALTY_TURN_TIMEOUT": "0",
            "ADMIRALTY_LOG_LEVEL": "INFO",
            "ADMIRALTY_DEV_GUILD": "",
        }
        try:
            self.proc = await asyncio.create_subprocess_exec(
                *self.fd.launch_argv("-m", "bot", "run"),
                cwd=str(ROOT),
                env=env,
                stdin=asyncio.subprocess.DEVNULL,
                stdout=log,
                stderr=asyncio.subprocess.STDOUT,
            )
        finally:
            log.close()
        try:
            await self.fd.gateway.wait_connected(60, after_identifies=before)
        except TimeoutError:
            raise AssertionError("the bot did not connect after a (re)start" + self.where()) from None
        self.note(f"start {self.starts} (pid {self.proc.pid})")

    async def kill(self) -> None:
        assert self.proc is not None and self.proc.returncode is None, "the bot died by itself" + self.where()
        self.proc.send_signal(signal.SIGKILL)
        await self.proc.wait()
        self.kills += 1
        self.note(f"SIGKILL {self.kills}")

    async def stop(self) -> None:
        if self.proc is not None and self.proc.returncode is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(self.proc.wait(), 15)
            except TimeoutError:
                self.proc.kill()
                await self.proc.wait()

    # ---------------------------------------------------------------- the database
    def current(self) -> Snapshot | None:
        """The channel's newest started game."""
        _, games = self.db.read()
        mine = [g for g in games if g.row.channel_id == self.channel.id]
        return mine[-1] if mine else None

    def check_db(self) -> None:
        """The file as the dead bot left it: intact, every log replays to its snapshot, nothing
        acknowledged is missing, nothing half-applied."""
        integrity, games = self.db.read(check=True)
        assert integrity == "ok", f"integrity_check: {integrity}" + self.where()
        by_id = {g.row.id: g for g in games}
        for g in games:
            row, actions = g.row, g.actions
            assert row.version == len(actions), (
                f"game {row.id}: version {row.version} but {len(actions)} log rows" + self.where()
            )
            assert [a.seq for a in actions] == list(range(1, row.version + 1)), self.where()
            if self.verified.get(row.id) == row.version:
                continue
            # Replay the log (as bot.storage.rebuild does), noting the menu label of every move.
            replayed = rebuild(row, [], g.seats)
            for a in actions:
                self.labels[(row.id, a.seq)] = " › ".join(path_labels(replayed, a.seat, a.action, g.seats))
                replayed.apply(a.seat, a.action)
            assert replayed.to_json() == rebuild(row, actions, g.seats).to_json() == row.state_json, (
                f"game {row.id}: the snapshot differs from a replay of its log" + self.where()
            )
            assert (row.status == "finished") == replayed.is_over, self.where()
            if replayed.is_over:
                self.verified[row.id] = row.version
        for ack in self.acks:
            g = by_id.get(ack.game_id)
            assert g is not None and len(g.actions) >= ack.seq, (
                f"acknowledged move {ack} is not in the log (version "
                f"{g.row.version if g else None})" + self.where()
            )
            logged = g.actions[ack.seq - 1]
            assert logged.seat == ack.seat, f"{ack} vs logged {logged}" + self.where()
            if ack.action is not None:
                assert canonical(logged.action) == canonical(ack.action), f"{ack} vs {logged}" + self.where()
            assert self.labels[(ack.game_id, ack.seq)] == ack.played, (
                f"the logged move {logged.action} is not the one acknowledged ({ack.played!r})" + self.where()
            )
        for game_id, seq, action in self.maybe:
            g = by_id[game_id]
            self.in_flight["applied" if len(g.actions) >= seq else "not applied"] += 1
            if len(g.actions) >= seq:
                assert action is not None, "a menu click killed in flight applied a move" + self.where()
                assert canonical(g.actions[seq - 1].action) == canonical(action), (
                    f"a move killed in flight landed as something else: {g.actions[seq - 1]}" + self.where()
                )
        self.maybe.clear()  # checked while nothing else could have been played at that place
        for g in games:
            if g.row.status == "finished":
                self.finished_games.add(g.row.id)

    # ---------------------------------------------------------------- Discord side
    def member_of(self, snap: Snapshot, seat: int):
        uid = next(s.user_id for s in snap.seats if s.seat == seat)
        return next(m for m in self.players if m.id == uid)

    def game_overs(self) -> int:
        return sum(1 for m in self.d.public() if "Game over" in m.text)

    def resumed_notes(self) -> int:
        """The "resumed" notes written to the tables' logs (each shows on its game's table)."""
        return self.db.count_log(RESUMED)

    async def wait_turn(self, version: int, after: int = 0) -> object:
        """The channel's turn message once it carries ``version`` (and was posted after ``after``)."""
        want = f":{version}:"

        def current():
            m = self.d.turn_message()
            return m if m is not None and m.id > after and any(want in c for c in components_of(m)) else None

        try:
            return await self.fd.wait_for(current, timeout=20)
        except TimeoutError:
            raise AssertionError(f"no turn message for version {version}" + self.where()) from None

    async def click(self, member, message, label: str, *, timeout: float | None = None):
        """One click of a menu path: the entry labelled ``label`` (paging a select if needed). A click on
        a private menu (a sub-menu opened from the table) is answered by that menu's update."""
        own = PrivateMenuAnswer if message.ephemeral else (lambda result: result)
        for b in message.buttons:
            if b.label == short(label, 80) and (b.custom_id or "").startswith("adm:b"):
                return own(
                    await self.answered(
                        await member.click(message, b.custom_id, timeout=timeout), b.custom_id
                    )
                )
        for s in message.selects:
            for opt in s.options:
                if opt["label"] == short(label, 100):
                    return own(
                        await self.answered(
                            await member.select(
                                message, opt["value"], custom_id=s.custom_id, timeout=timeout
                            ),
                            s.custom_id,
                        )
                    )
            more = [o for o in s.options if o["label"].startswith("More choices")]
            if more:
                page = await member.select(message, more[0]["value"], custom_id=s.custom_id)
                assert not page.failed, "paging a select failed" + self.where()
                return await self.click(
                    member, page.message if page.messages else page.original, label, timeout=timeout
                )
        raise AssertionError(
            f"no entry {label!r} on the menu: {sorted(self.menu_entries(message))}" + self.where()
        )

    @staticmethod
    async def answered(result, cid: str):
        """A click on the table answered by a deferred update: wait for its "Played" (or refusal)
        follow-up; a bot killed meanwhile sends none."""
        with contextlib.suppress(TimeoutError):
            await Driver.answered(result, Driver._version_id(cid), timeout=5)
        return result

    async def press(self, member, message, cid: str):
        """Click the button ``cid``, or pick a random entry of the select ``cid``."""
        if cid.startswith("adm:b"):
            return await member.click(message, cid)
        select = next(s for s in message.selects if s.custom_id == cid)
        return await member.select(message, self.rng.choice(select.values), custom_id=cid)

    async def new_game(self) -> None:
        await self.d.new_game("alice", quick_setup=True)
        joined = await self.players[1].click(self.d.lobby_message(), "Join")
        assert "joined" in joined.text, joined.text
        started = await self.players[0].click(self.d.lobby_message(), "Start")
        assert "started" in started.text, started.text
        self.note(f"new game {self.current().row.id}")

    def plan(self) -> tuple[Snapshot, int, object, dict, list[str]]:
        snap = self.current()
        game = SPEC.from_json(snap.row.state_json)
        seat = game.to_act()[0]
        action = game.ai_action(seat, random.Random(f"{snap.row.seed}:{snap.row.version}"))
        labels = path_labels(game, seat, action, snap.seats)
        return snap, seat, self.member_of(snap, seat), action, labels

    def menu_entries(self, message) -> set[str]:
        labels = {b.label for b in message.buttons}
        for s in message.selects:
            labels |= {o["label"] for o in s.options}
        return labels

    def start_index(self, message, labels: list[str]) -> int:
        """Where the path starts on a turn message: a group of one may have been skipped (collapsed)."""
        entries = self.menu_entries(message)
        for i, label in enumerate(labels):
            if short(label, 80) in entries or short(label, 100) in entries:
                return i
        return 0  # paged select: click_label pages through it

    async def play_move(self) -> None:
        """The member to act plays the AI's choice by clicks; sometimes opens a spare menu first (it
        becomes an old button to try after a later restart)."""
        snap, seat, member, action, labels = self.plan()
        turn = await self.wait_turn(snap.row.version)
        self.rng.random()  # (a spare private menu was opened here when menus were separate messages)
        message = turn
        result = None
        for label in labels[self.start_index(turn, labels) :]:
            result = await self.click(member, message, label)
            assert not result.failed, f"click {label!r} failed" + self.where()
            if "✅ Played" in result.text:
                break
            message = result.message if result.messages else result.original
        assert result is not None and "✅ Played" in result.text, f"{result!r}" + self.where()
        self.acks.append(Ack(snap.row.id, snap.row.version + 1, seat, played_label(result.text), action))
        self.note(f"move {snap.row.version + 1}")

    # ---------------------------------------------------------------- kills
    async def kill_in_flight(self) -> asyncio.Task | None:
        """Fire one click of a move's menu path and kill the bot while it is being handled."""
        snap, seat, member, action, labels = self.plan()
        turn = await self.wait_turn(snap.row.version)
        path = labels[self.start_index(turn, labels) :]
        k = self.rng.randrange(len(path))
        message = turn
        for label in path[:k]:
            result = await self.click(member, message, label)
            assert not result.failed and "✅ Played" not in result.text, f"{result!r}" + self.where()
            message = result.message if result.messages else result.original
        task = asyncio.create_task(self.click(member, message, path[k], timeout=4))
        delay = self.rng.uniform(0.0, 0.25)
        await asyncio.sleep(delay)
        self.note(
            f"in flight: click {k + 1}/{len(path)} of move {snap.row.version + 1}, kill after "
            f"{delay * 1000:.0f} ms"
        )
        await self.kill()
        # The last click of the path may or may not have been applied; an earlier one only opens a menu.
        self.maybe.append((snap.row.id, snap.row.version + 1, action if k == len(path) - 1 else None))

        async def outcome():
            result = await task
            if "✅ Played" in result.text:
                assert k == len(path) - 1, f"a menu click reported a move: {result!r}" + self.where()
                self.acks.append(
                    Ack(snap.row.id, snap.row.version + 1, seat, played_label(result.text), action)
                )
                self.in_flight["acknowledged"] += 1
                self.note("  ...the in-flight click was acknowledged")
            else:
                self.note(
                    "  ...the in-flight click was not acknowledged" + (" (failed)" if result.failed else "")
                )
            return result

        return asyncio.create_task(outcome())

    async def kill_with_menu_open(self):
        """Open the first level of the move's menu privately, kill; after the restart that menu plays
        the move."""
        snap, seat, member, action, labels = self.plan()
        turn = await self.wait_turn(snap.row.version)
        path = labels[self.start_index(turn, labels) :]
        if len(path) < 2:
            await self.kill()
            return None
        opened = await self.click(member, turn, path[0])
        assert not opened.failed and "✅ Played" not in opened.text, f"{opened!r}" + self.where()
        menu = opened.message
        await asyncio.sleep(self.rng.uniform(0.0, 0.1))
        await self.kill()
        self.note(f"killed with the menu of move {snap.row.version + 1} open")
        return snap, seat, member, action, path[1:], menu

    async def restart_checked(self, in_flight: asyncio.Task | None = None) -> None:
        notes = self.resumed_notes()
        running = self.current().row.status == "running"
        table = self.d.table_message()
        drawn = table.version if table is not None else -1
        await self.start()
        if in_flight is not None:
            await in_flight
        # Nothing acknowledged may be missing even after the restarted bot has written again.
        self.check_db()
        snap = self.current()
        if running:
            try:
                await self.fd.wait_for(lambda: self.resumed_notes() > notes, timeout=20)
            except TimeoutError:
                raise AssertionError("no 'resumed' note after the restart" + self.where()) from None
            if snap.row.status == "running":
                # The resumed game's table, redrawn by the new bot (edited in place, at its first level).
                try:
                    await self.fd.wait_for(lambda: self.d.table_message().version > drawn, timeout=20)
                except TimeoutError:
                    raise AssertionError(
                        "the table was not redrawn after the restart" + self.where()
                    ) from None
                await self.wait_turn(snap.row.version)

    async def try_old_buttons(self) -> None:
        """Click buttons of earlier messages: each must still work, or be refused as stale."""
        turn = self.d.turn_message()
        candidates = [
            m
            for m in self.fd.channel_messages(self.channel, ephemeral=True)
            if not m.deleted
            and m.author_id == self.fd.bot_user.id
            and components_of(m)
            and (turn is None or m.id != turn.id)
        ]
        self.rng.shuffle(candidates)
        for message in candidates[:2]:
            if message.deleted:  # the first click moved the game on: the bot cleaned up
                continue
            owner = next((p for p in self.players if p.id == message.ephemeral_for), None)
            member = owner or self.rng.choice(self.players)
            cid = self.rng.choice(components_of(message))
            version = version_in(cid)
            game_id = int(cid.split(":")[2])
            result = await self.press(member, message, cid)
            assert not result.failed, f"an old button failed: {cid}" + self.where()
            if message.ephemeral:  # a private menu answers by its own update (and may post a ping first)
                if result.response_type == 6:
                    with contextlib.suppress(TimeoutError):
                        await result.wait_for(
                            lambda r: r.updated or any(m.ephemeral for m in r.followups), timeout=10
                        )
                result = PrivateMenuAnswer(result)
            elif result.response_type == 6 and not result.followups and not result.updated:
                await result.wait_for(lambda r: r.followups or r.updated, timeout=5)
            elif result.response_type == 7 and not result.followups:
                # a move answered by the table (or DM) redrawn: its "✅ Played" follows
                await result.wait_for(lambda r: r.followups, timeout=5)
            text = result.text
            if "✅ Played" in text:
                seat = int(cid.split(":")[4])
                self.acks.append(Ack(game_id, version + 1, seat, played_label(text)))
                self.old_buttons_worked += 1
                self.note(f"old button {cid} played move {version + 1}")
            elif "out of date" in text:
                assert result.ephemeral or (result.followups and result.followups[0].ephemeral), result
                self.stale_refusals += 1
                self.note(f"old button {cid} refused as stale")
            elif "not your turn" in text.lower() or "not playing" in text or "is over" in text:
                self.note(f"old button {cid} refused: {text[:60]!r}")
            else:
                shown = result.message if result.messages else result.original
                assert shown is not None and components_of(shown), (
                    f"old button {cid}: unclear answer {text!r}" + self.where()
                )
                self.old_buttons_worked += 1
                self.note(f"old button {cid} opened a menu")

    # ---------------------------------------------------------------- the run
    async def run(self, kills: int) -> None:
        await self.start()
        await self.fd.wait_for(lambda: self.fd.global_commands, timeout=20)
        await self.new_game()
        while self.kills < kills:
            snap = self.current()
            if snap is None or snap.row.status == "finished":
                await self.new_game()
                snap = self.current()
            for _ in range(self.rng.randint(0, 3)):
                if self.current().row.status != "running":
                    break
                await self.play_move()
            i = self.kills
            mode = MODES[i] if i < len(MODES) else self.rng.choice(MODES)
            running = self.current().row.status == "running"
            if not running:
                mode = "after"
            in_flight = None
            menu = None
            if mode == "inflight":
                in_flight = await self.kill_in_flight()
            elif mode == "menu":
                menu = await self.kill_with_menu_open()
            elif mode == "storm":
                await self.kill()
                self.check_db()
                await self.start()  # ... and kill it again while it resumes its games
                await asyncio.sleep(self.rng.uniform(0.0, 0.6))
                self.note("storm: kill during the restart")
                await self.kill()
            else:
                if self.rng.random() < 0.5 and running:
                    await self.play_move()
                await asyncio.sleep(self.rng.uniform(0.0, 0.3))
                await self.kill()
            self.check_db()
            await self.restart_checked(in_flight)
            if menu is not None:
                # The table is redrawn at its first level by the restarted bot: the move is played from there.
                snap, seat, member, action, rest, message = menu
                await self.wait_turn(snap.row.version)
                await self.fd.wait_for(
                    lambda: not any(b.label == "◀ Back" for b in self.d.table_message().buttons), timeout=20
                )
                message = self.d.table_message()
                labels = path_labels(SPEC.from_json(snap.row.state_json), seat, action, snap.seats)
                result = None
                for label in labels[self.start_index(message, labels) :]:
                    result = await self.click(member, message, label)
                    assert not result.failed, "a menu opened before the kill failed after it" + self.where()
                    if "✅ Played" in result.text:
                        break
                    message = result.message if result.messages else result.original
                assert result is not None and "✅ Played" in result.text, (
                    f"a menu opened before the kill did not play its move: {result!r}" + self.where()
                )
                self.acks.append(
                    Ack(snap.row.id, snap.row.version + 1, seat, played_label(result.text), action)
                )
                self.note(f"the menu opened before the kill played move {snap.row.version + 1}")
            await self.try_old_buttons()
        # Whatever happened, the current game is played to its end.
        overs = self.game_overs()
        played = 0
        for _ in range(400):
            snap = self.current()
            if snap.row.status == "finished":
                break
            await self.play_move()
            played += 1
        snap = self.current()
        assert snap.row.status == "finished", self.where()
        if played:
            await self.fd.wait_for(lambda: self.game_overs() > overs, timeout=20)
        await self.stop()
        self.check_db()
        assert snap.row.id in self.finished_games


async def chaos(tmp_path: Path, database: Path | str, kills: int) -> Chaos:
    seed = int(os.environ.get("ADMIRALTY_CHAOS_SEED") or random.SystemRandom().randrange(10**6))
    async with FakeDiscord(users=["alice", "bob", "carol"]) as fd:
        c = Chaos(fd, tmp_path, seed, database)
        try:
            await c.run(kills)
        finally:
            with contextlib.suppress(Exception):
                await c.stop()
        assert c.kills >= kills
        return c


async def test_sigkill_at_random_moments_loses_nothing_acknowledged(tmp_path, e2e_database):
    c = await chaos(tmp_path, e2e_database, min(RUNS, 3))
    assert c.acks and c.finished_games


@pytest.mark.slow
@pytest.mark.skipif(
    "ADMIRALTY_CHAOS_RUNS" not in os.environ,
    reason="the long chaos loop runs with `make chaos` (ADMIRALTY_CHAOS_RUNS=50)",
)
async def test_sigkill_chaos_long(tmp_path, e2e_database):
    c = await chaos(tmp_path, e2e_database, RUNS)
    assert c.acks and c.finished_games
    print(
        f"\nchaos: {c.kills} kills, {c.starts} starts, {len(c.acks)} acknowledged moves, "
        f"{len(c.finished_games)} games finished, {c.stale_refusals} stale refusals, "
        f"{c.old_buttons_worked} old buttons worked; clicks killed in flight: {c.in_flight} (seed {c.seed})"
    )


async def test_a_click_racing_the_resume_leaves_current_controls(e2e_database):
    """In-process restart: a menu opened before the restart plays its move while the bot resumes the
    game. The resume's first post is held back (one 429), so the click lands between the resume loading
    the game and publishing it. Afterwards the channel's latest turn message must carry the new version."""
    from bot.app import Admiralty
    from bot.settings import Settings
    from tests.fakediscord import running_bot

    settings = Settings(
        token="fake", database=e2e_database, dev_guild=None, turn_timeout=0, ai_delay=0.0, log_level="WARNING"
    )
    async with FakeDiscord(users=["alice", "bob", "carol"]) as fd:
        channel = fd.channel("games")
        async with running_bot(Admiralty(settings), fd) as bot:
            d = Driver(fd, bot, channel)
            await d.new_game("alice", quick_setup=True)
            await d.member("bob").click(d.lobby_message(), "Join")
            await d.member("alice").click(d.lobby_message(), "Start")
            await d.play_ai_move(random.Random(1))
            table = await d.table()
            mover = next(
                m
                for m in (d.member("alice"), d.member("bob"))
                if m.id == table.seat_row(table.game.to_act()[0]).user_id
            )
            turn = d.turn_message()
            first = next(b for b in turn.buttons if b.custom_id.startswith("adm:b"))
        fd.faults.rate_limit("PATCH /channels/", times=1, retry_after=0.5)  # the resume's redraw waits
        async with running_bot(Admiralty(settings), fd) as bot:
            d = Driver(fd, bot, channel)
            await fd.wait_for(lambda: fd.faults.count("rate_limit") >= 1, timeout=10)
            # A click on the table while the resume redraws it: it waits for the game's lock.
            opened = await mover.click(turn, first.custom_id)
            assert not opened.failed
            await opened.wait_for(lambda r: any(m.ephemeral for m in r.followups), timeout=10)
            menu = next(m for m in opened.followups if m.ephemeral)  # the sub-menu: the mover's, privately
            leaf = next(b for b in menu.buttons if b.custom_id.startswith("adm:b") and "Back" not in b.label)
            await mover.click(menu, leaf.custom_id)
            await fd.wait_for(lambda: "✅ Played" in fd.message(menu.id).text, timeout=10)
            await fd.wait_for(lambda: RESUMED in turn.text, timeout=10)
            await asyncio.sleep(1.0)  # anything the resume still had to send
            version = (await d.table()).version
            assert version == table.version + 1
            latest = d.turn_message()
            assert latest.id == turn.id, "one table message for the game's whole life"
            assert any(f":{version}:" in c for c in components_of(latest)), (
                f"the latest turn message is of an older version: {components_of(latest)[:2]}"
            )
