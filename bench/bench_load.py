"""Load benchmark: N concurrent games of all four games through the loopback Discord.

The unmodified bot runs in a subprocess (``python -m tests.fakediscord.launch ... -m bot run``, as in
production but pointed at tests/fakediscord), so its peak RSS is read from /proc/<pid>/status (VmHWM)
and its CPU time from /proc/<pid>/stat. This process runs the fake Discord and the scripted members:
every game has its own channel and two members of its own; the games are dealt out from ``--mix``
(default: Enemy Lines, Enemy in Sight, Warships, The Everrain, Enemy in Sight advanced, in turn). The
member whose turn it is clicks through the move menus as a person would, choosing entries at random,
as soon as it is their turn (no think time unless --think): on the table (Enemy Lines, The Everrain:
the table, then its private sub-menu), or from their DM (Enemy in Sight, Warships: when a live ping
names them). So the load is closed: N games, at most one click in flight per game. A game that ends is
followed by a new game of the same kind in its channel (``--replace``, the default: its lobby, join and
start are load as in a real server), so the N games and the mix stay as they started however fast the
bot plays (short Everrain games end in 40-80 moves of random clicks); the output gives the moves measured
and the games started again, by game of the mix.

Games are opened in waves (``--wave``, each wave waiting until its tables show) so that the start-up
of many games is paced under Discord's global limit, and the first ``--warmup`` seconds of play (every
game's first move at once) are not measured: the figures are of the steady state.

Measured per N: setup time (lobby, join, start for every game), moves applied per second, p50/p95/p99 of the
time from a click leaving the member to the bot's answer arriving (menu clicks and move-applying clicks
apart, and all together), failed interactions (no first answer within Discord's 3 s), the bot's peak RSS
and CPU use, and a check that the database holds exactly the moves the members saw acknowledged. And the
CPU a move costs (per action committed in the window), by phase: drawing (the bot's render threads, plus
the CPU of its child processes: a drawing pool), engine, storage (the SQLite thread) and the rest of the
event loop (Discord I/O, host, publisher, layout), read from the bot's ``admiralty_cpu_seconds_total``
(bot/metrics.py; the bench turns the bot's metrics on), and the pictures drawn a move applied, by game
(its render count: views served from the drawing cache are not drawn again). ``--both`` runs each N with real boards and with
``--stub-render`` (one board per game key, drawn once) and prints moves/s real / stubbed.

    .venv/bin/python bench/bench_load.py [--games 10 100 500] [--seconds 60] [--moves 30] [--think 0]
                                          [--wave 50] [--warmup 10] [--mix ...] [--both] [--no-write]
                                          [--no-replace]
                                          [--cpu-profile DIR]

``--cpu-profile DIR`` samples the CPU time of the bot and of this process in the measured window
(``bench/cpu_sampler.py``; py-spy and cProfile count wall time, which on a loaded machine charges system
calls with the wait for a core): collapsed stacks in DIR, ``python bench/cpu_sampler.py FILE`` for the
top functions. The CPU this process spends a move (the fake Discord and the members, on the same cores
as the bot) is printed too.

The figures go to bench/RESULTS.md under "## Load (loopback Discord)" (other sections are kept); the
figures with all four games are in "## Load with all four games (issue 19)", written by hand from runs
with --no-write.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import random
import re
import resource
import shutil
import signal
import sqlite3
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import cpu_sampler  # noqa: E402
from bot import collector  # noqa: E402
from tests.fakediscord import FakeDiscord  # noqa: E402

RESULTS = ROOT / "bench" / "RESULTS.md"
HEADING = "## Load (loopback Discord)"
END = "<!-- end of the generated load figures; notes below this line are kept by bench_load.py -->"
MENTION = re.compile(r"<@(\d+)>")
CLK_TCK = os.sysconf("SC_CLK_TCK")


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    k = min(len(values) - 1, max(0, round(p / 100 * (len(values) - 1))))
    return values[k]


def proc_status(pid: int) -> dict[str, int]:
    """VmHWM / VmRSS of a process in KiB."""
    out = {}
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            key, _, value = line.partition(":")
            if key in ("VmHWM", "VmRSS"):
                out[key] = int(value.split()[0])
    except OSError:
        pass
    return out


def proc_cpu(pid: int) -> float:
    """CPU seconds (user + system) of a process so far."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLK_TCK
    except (OSError, IndexError, ValueError):
        return float("nan")


def children_cpu(pid: int) -> float:
    """CPU seconds of a process's descendants: the live ones (a drawing pool's workers) and those it
    waited for (cutime + cstime of its own stat)."""
    total = 0.0
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += (int(fields[13]) + int(fields[14])) / CLK_TCK
    except (OSError, IndexError, ValueError):
        pass
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            kids = (task / "children").read_text().split()
        except OSError:
            continue
        for kid in kids:
            total += proc_cpu(int(kid)) + children_cpu(int(kid))
    return total


CPU_LINE = re.compile(r'^admiralty_cpu_seconds_total\{phase="(\w+)"\} (\S+)$', re.M)
RENDER_CPU_LINE = re.compile(r"^admiralty_render_cpu_seconds_total\{[^}]*\} (\S+)$", re.M)
PICTURES_LINE = re.compile(r'^admiralty_render_seconds_count\{game="([^"]+)"\} (\S+)$', re.M)
MOVES_LINE = re.compile(r'^admiralty_moves_total\{game="([^"]+)",kind="[^"]*"\} (\S+)$', re.M)
GC_LINE = re.compile(r'^admiralty_gc_pause_seconds_(count|sum)\{generation="(\d)"\} (\S+)$', re.M)
GC_BUCKET_LINE = re.compile(
    r'^admiralty_gc_pause_seconds_bucket\{generation="(\d)",le="([^"]+)"\} (\S+)$', re.M
)
GENERATIONS = ("young", "middle", "full")
TO_ACT = re.compile(r"▶ \S+ \*\*([^*\n]+)\*\* to act")


async def bot_phases(port: int) -> dict[str, float]:
    """The bot's CPU seconds by phase so far (``admiralty_cpu_seconds_total`` of its /metrics), and the
    CPU its boards took wherever they were drawn (``drawn``: ``admiralty_render_cpu_seconds_total``)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(b"GET /metrics HTTP/1.0\r\nHost: localhost\r\n\r\n")
    await writer.drain()
    body = (await reader.read()).decode(errors="replace")
    writer.close()
    phases = {phase: float(value) for phase, value in CPU_LINE.findall(body)}
    phases["drawn"] = sum(float(value) for value in RENDER_CPU_LINE.findall(body))
    # pictures drawn (not shared) and moves applied, by game: the drawings a move makes
    for name, line in (("pictures", PICTURES_LINE), ("moves", MOVES_LINE)):
        for game, value in line.findall(body):
            phases[f"{name}:{game}"] = phases.get(f"{name}:{game}", 0.0) + float(value)
    # the collector's pauses by generation: count, seconds, and the histogram's buckets
    for what, generation, value in GC_LINE.findall(body):
        phases[f"gc_{what}:{generation}"] = float(value)
    for generation, le, value in GC_BUCKET_LINE.findall(body):
        phases[f"gc_le:{generation}:{le}"] = float(value)
    return phases


def pictures_a_move(phases: dict[str, float]) -> dict[str, float]:
    """Pictures drawn a move applied, by game, from the window's differences of :func:`bot_phases`."""
    out = {}
    for key, moves in phases.items():
        if key.startswith("moves:") and moves > 0:
            game = key.removeprefix("moves:")
            out[game] = phases.get(f"pictures:{game}", 0.0) / moves
    return out


def collector_pauses(phases: dict[str, float]) -> dict[str, tuple[int, float, float]]:
    """The collector's pauses in the window, by generation: (count, seconds in all, the longest's
    bound: the smallest histogram bucket holding them all), from the differences of bot_phases."""
    out = {}
    for g, name in enumerate(GENERATIONS):
        count = int(phases.get(f"gc_count:{g}", 0))
        if not count:
            continue
        bounds = sorted(
            float(k.split(":")[2]) for k, v in phases.items() if k.startswith(f"gc_le:{g}:") and v >= count
        )
        out[name] = (count, phases.get(f"gc_sum:{g}", 0.0), bounds[0] if bounds else float("inf"))
    return out


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cpu_split(bot: float, children: float, phases: dict[str, float], moves: int) -> dict[str, float]:
    """ms of CPU a move costs, by phase: drawing (the bot's drawing processes, all of their CPU; without
    any, the boards drawn in its threads), engine, storage (the SQLite thread), and the rest of the bot's
    event loop (Discord I/O, host, publisher, layout)."""
    if not moves:
        return {}
    here = 0.0 if children > 0 else phases.get("drawn", 0.0)  # drawn in the bot's own threads
    drawing = children + here
    engine, storage = phases.get("engine", 0.0), phases.get("storage", 0.0)
    rest = bot - here - engine - storage
    out = {"drawing": drawing, "engine": engine, "storage": storage, "discord+host": rest}
    out = {k: 1000 * v / moves for k, v in out.items()}
    out["total"] = sum(out.values())
    return out


def committed(db: Path) -> int:
    """The actions committed so far in the bot's database (every game's version)."""
    con = sqlite3.connect(db, timeout=30)
    try:
        return con.execute("SELECT coalesce(sum(version), 0) FROM games").fetchone()[0]
    finally:
        con.close()


def own_cpu() -> float:
    ru = resource.getrusage(resource.RUSAGE_SELF)
    return ru.ru_utime + ru.ru_stime


def own_system_cpu() -> float:
    """The CPU this process spent in the kernel (its sockets: every request, answer and gateway event)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_stime


def machine() -> dict[str, str]:
    model = "?"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {
        "nproc": str(os.cpu_count()),
        "cpu": model,
        "python": platform.python_version(),
        "platform": platform.platform(),
    }


@dataclass
class Stats:
    menu: list[float] = field(default_factory=list)  # latency of clicks that opened a menu level
    apply: list[float] = field(default_factory=list)  # latency of clicks that applied a move
    failed: int = 0  # no first answer within the interaction deadline
    refused: int = 0  # answered, but with a refusal (out of date, not your turn, an apology)
    applied: int = 0
    finished: int = 0
    stuck: int = 0  # games whose turn message never showed up
    stuck_games: list[str] = field(default_factory=list)  # what each of those showed then
    refusals: dict[str, int] = field(default_factory=dict)  # what the refused clicks were answered, counted
    since: float = float("inf")  # perf_counter() from which clicks count (set when the warm-up ends)
    measured: int = 0  # moves applied by clicks that left after the warm-up
    by_game: dict[str, int] = field(default_factory=dict)  # measured moves per game of the mix
    apply_by_game: dict[str, list[float]] = field(default_factory=dict)  # move click latencies per game
    # games started in place of finished ones (--replace), by game of the mix, and the lobbies that failed
    replaced: dict[str, int] = field(default_factory=dict)
    replace_errors: list[str] = field(default_factory=list)


# The mix of games the bench plays (--mix): name -> (game key, /game new options). Games are dealt out in
# this order, one channel each, so 100 games of the default mix are 20 of each.
MIX: dict[str, tuple[str, dict]] = {
    "enemy-lines": ("enemy-lines", {"quick_setup": True}),
    "enemy-in-sight": ("enemy-in-sight", {"variant": "base"}),
    "warships": ("warships", {"quick_setup": True}),
    "everrain": ("everrain", {"length": "short"}),
    "enemy-in-sight-advanced": ("enemy-in-sight", {"variant": "advanced"}),
}
# The games whose moves are played from each seat's DM (the table has no controls): Enemy in Sight and
# Warships (their spec's ``public_controls`` is False; the others are played on the table).
DM_CONTROLS = {"enemy-in-sight", "warships"}
GAME_ID = re.compile(r"adm:l:(\d+):")
CONTROL_PREFIXES = ("adm:b:", "adm:s:", "adm:m:", "adm:mn:")


class Game:
    """One channel, two members; plays a game of ``name`` (a key of MIX) by clicks until told to stop,
    and with ``replace`` a new one of the same kind in the same channel each time one ends (so that the
    number of running games and the mix stay as they started)."""

    def __init__(
        self,
        fd: FakeDiscord,
        index: int,
        stats: Stats,
        rng: random.Random,
        name: str = "enemy-lines",
        replace: bool = False,
    ) -> None:
        self.fd = fd
        self.index = index
        self.name = name
        self.key, self.options = MIX[name]
        self.channel = fd.channel(f"game-{index}")
        self.members = [fd.user(f"p{index}a"), fd.user(f"p{index}b")]
        self.by_id = {m.id: m for m in self.members}
        self.stats = stats
        self.rng = rng
        self.replace = replace
        self.moves = 0  # moves played in this channel (every game of it)
        self.over = False
        self.game_id: int | None = None
        # the channel's messages from this id on are of the current game (snowflakes increase): those
        # of the games played before in the channel (their tables, "Game over", pings) are not read
        self.floor = 0
        self.seats: dict[int, object] = {}  # seat -> member, learnt from the moves they played
        # member id -> (ping id, DM id, the DM's edit count) when they last acted from their DM
        self.acted: dict[int, tuple[int, int, int]] = {}

    def latest(self, predicate):
        floor = self.floor
        for m in reversed(self.fd.channel_log[self.channel.id]):
            if m.id < floor:
                return None
            if not m.deleted and not m.ephemeral and m.author_id == self.fd.bot_user.id and predicate(m):
                return m
        return None

    def turn_message(self):
        """The table once it shows (with its controls where the game is played on the table)."""
        return self.latest(
            lambda m: (
                any((b.custom_id or "").startswith(("adm:b", "adm:v")) for b in m.buttons)
                or any(s.custom_id.startswith("adm:s") for s in m.selects)
            )
        )

    async def setup(self) -> None:
        host, guest = self.members
        self.over, self.game_id, self.seats, self.acted = False, None, {}, {}
        r = await host.slash("game new", channel=self.channel, game=self.key, thread=False, **self.options)
        if r.failed or "Lobby opened" not in r.text:
            raise RuntimeError(f"game {self.index}: /game new → {r!r}")
        self.floor = r.id  # the lobby and all that follows are newer than the command that opened it
        lobby = self.latest(lambda m: any((b.custom_id or "").startswith("adm:l") for b in m.buttons))
        found = next((GAME_ID.match(b.custom_id or "") for b in lobby.buttons), None)
        self.game_id = int(found.group(1)) if found else None
        r = await guest.click(lobby, "Join")
        if r.failed or "joined" not in r.text:
            raise RuntimeError(f"game {self.index}: join → {r!r}")
        r = await host.click(lobby, "Start")
        if r.failed or "started" not in r.text:
            raise RuntimeError(f"game {self.index}: start → {r!r}")

    def entries(self, message) -> list[tuple[str, object]]:
        """(kind, id/values) of the menu entries of a message: buttons (a multi-select's "none" too) and
        select options, without Back, My view and page turns; a multi-select is one entry, a random pick
        of as many of its options as it allows."""
        out: list[tuple[str, object]] = [
            ("b", b.custom_id)
            for b in message.buttons
            if (b.custom_id or "").startswith(("adm:b", "adm:mn")) and not b.label.startswith("◀")
        ]
        for s in message.selects:
            if s.custom_id.startswith("adm:m:"):
                k = self.rng.randint(max(1, s.min_values), max(1, min(s.max_values, len(s.values))))
                out.append((s.custom_id, self.rng.sample(s.values, k)))
            else:
                out += [(s.custom_id, v) for v in s.values if v.isdigit()]
        return out

    def game_over(self) -> bool:
        if not self.over and self.latest(lambda m: "Game over" in m.text) is not None:
            self.over = True
            self.stats.finished += 1
        return self.over

    @staticmethod
    def version_of(message) -> str:
        """ "<game>:<version>" of the controls a message carries (adm:b:<game>:<version>:<seat>:…)."""
        for cid in [b.custom_id or "" for b in message.buttons] + [s.custom_id for s in message.selects]:
            parts = cid.split(":")
            if len(parts) > 4 and parts[1] in ("b", "s", "m", "mn", "v"):
                return ":".join(parts[2:4])
        return ""

    @staticmethod
    def seat_of(message) -> int | None:
        for cid in [b.custom_id or "" for b in message.buttons] + [s.custom_id for s in message.selects]:
            parts = cid.split(":")
            if len(parts) > 4 and parts[1] in ("b", "s", "m", "mn") and parts[4].isdigit():
                return int(parts[4])
        return None

    def to_act(self, table):
        """The member to act on the table: known from an earlier move of that seat, else the one the
        table's status names ("▶ 🔵 **P3A** to act"), else the live ping ("<@id>, your turn in …", a
        separate message posted when a turn begins: after the table, so it may still be the last turn's)."""
        seat = self.seat_of(table)
        if seat in self.seats:
            return self.seats[seat]
        named = TO_ACT.search(table.text)
        if named is not None:
            for member in self.members:
                if member.user.name.lower() == named.group(1).lower():
                    return member
        ping = self.latest(lambda m: m.content.startswith(("<@", "⏰ <@")))
        mention = MENTION.search(ping.content) if ping is not None else None
        return self.by_id.get(int(mention.group(1))) if mention else None

    def stuck_state(self) -> str:
        """What a game that found no turn for 30 s showed (printed at the end of the run): its kind and
        id, the table's first lines, its live pings, and each member's DM of it with its controls."""
        table = self.turn_message()
        lines = [f"{self.name} game {self.game_id}: done {self.moves} moves"]
        if table is not None:
            lines.append("  table: " + " | ".join(table.text.splitlines()[:4])[:300])
        lines += [f"  ping: {p.content[:120]}" for p in self.pings()]
        for member in self.members:
            dm = self.dm_menu(member)
            acted = self.acted.get(member.id)
            lines.append(
                f"  {member.user.name}: DM controls {self.version_of(dm) if dm else None} "
                f"(message {dm.id if dm else None}, version {dm.version if dm else None}); acted on {acted}"
            )
        return "\n".join(lines)

    def changes(self) -> tuple[int, ...]:
        """The change counts of the channels a turn is read from: the game's and its members' DMs."""
        dms = (self.fd.dm_channel(m.user) for m in self.members)
        return (self.channel.changes, *(dm.changes if dm is not None else -1 for dm in dms))

    def pings(self) -> list:
        """The live pings of the game in its channel, newest first."""
        floor = self.floor
        return [
            m
            for m in reversed(self.fd.channel_log[self.channel.id])
            if m.id >= floor
            and not m.deleted
            and m.author_id == self.fd.bot_user.id
            and m.content.startswith(("<@", "⏰ <@"))
        ]

    def dm_menu(self, member):
        """The member's DM of this game while it carries controls (their seat may act), else None."""
        prefixes = tuple(f"{p}{self.game_id}:" for p in CONTROL_PREFIXES)
        channel = self.fd.dm_channel(member.user)
        floor = self.floor
        for m in reversed(self.fd.channel_log.get(channel.id, []) if channel is not None else []):
            if m.id < floor:
                return None  # the DMs of the games played before in this channel
            if m.deleted:
                continue
            ids = [b.custom_id or "" for b in m.buttons] + [s.custom_id or "" for s in m.selects]
            if any(c.startswith(prefixes) for c in ids):
                return m
        return None

    def next_turn(self, done: str | None):
        """(member, message to click) of a seat that may act now, or None. On the table: its controls of
        a version not yet played; in DMs: a member's DM with controls, changed since they last acted."""
        if self.key in DM_CONTROLS:
            # whose turn it is: the live pings ("<@id>, your turn in …"); a DM's menu stays valid across
            # versions (through its digest), so it is edited only when the seat's own choices change
            for ping in self.pings():
                for mention in MENTION.findall(ping.content):
                    member = self.by_id.get(int(mention))
                    dm = self.dm_menu(member) if member is not None else None
                    if dm is not None and self.acted.get(member.id) != (ping.id, dm.id, dm.version):
                        # the DM as it was when they acted: once the move edits it, they act again
                        self.acted[member.id] = (ping.id, dm.id, dm.version)
                        return member, dm
            return None
        turn = self.turn_message()
        if turn is None or self.version_of(turn) == done or self.seat_of(turn) is None:
            return None
        member = self.to_act(turn)
        return (member, turn) if member is not None else None

    async def answered(self, result, version: str):
        """A click answered by a deferred update (type 6) returns when the clicked message is edited,
        and one answered by the clicked table or DM redrawn at a new move (type 7) at once; a move's "✅
        Played" follow-up comes after the table was redrawn: wait for the answer proper (an ephemeral
        follow-up, or the clicked message showing controls of the same version)."""
        if result.failed or result.response_type not in (6, 7):
            return result
        if result.response_type == 7:
            m = result.original
            if m is None or m.ephemeral or "· move " not in m.text or "✅ Played" in m.text:
                return result  # the next level of a private menu or a DM, shown in place (or played)

        def done(r):
            if any(m.ephemeral for m in r.followups):
                return True
            m = r.original
            if (
                r.updated
                and m is not None
                and (m.ephemeral or "· move " not in m.text or "✅ Played" in m.text)
            ):
                return True
            return r.updated and m is not None and self.version_of(m) == version

        try:
            # checked again when this click's interaction or message changes, not at every change in the
            # fake (a hundred games: a hundred predicates a change)
            await result.wait_for_answer(done, timeout=self.fd.deferred_update_wait)
        except TimeoutError:
            pass
        return result

    async def click(self, member, message, entry):
        kind, value = entry
        version = self.version_of(message)
        t0 = time.perf_counter()
        if kind == "b":
            result = await member.click(message, value)
        else:
            result = await member.select(message, value, custom_id=kind)
        result = await self.answered(result, version)
        return result, t0, time.perf_counter() - t0

    @staticmethod
    def said(result, message) -> str:
        """What a click was told: its answers, and the clicked private menu (ephemeral or DM) where the
        bot answered by updating it in place ("✅ Played" or the next level)."""
        menu = result.original
        own = menu.text if menu is not None and result.updated and menu.id == message.id else ""
        return "\n".join(t for t in (own, result.text) if t)

    async def play(self, until: float, max_moves: int, think: float) -> None:
        """Play until ``until`` or ``max_moves`` moves in the channel; with ``replace``, each game that
        ends is followed by a new one of the same kind (its lobby, join and start are load too)."""
        while True:
            await self.play_one(until, max_moves, think)
            if not (self.replace and self.over and time.monotonic() < until and self.moves < max_moves):
                return
            try:
                await self.setup()
            except Exception as e:  # noqa: BLE001 - counted and reported
                self.stats.replace_errors.append(str(e)[:200])
                return
            self.stats.replaced[self.name] = self.stats.replaced.get(self.name, 0) + 1

    async def play_one(self, until: float, max_moves: int, think: float) -> None:
        done = None  # the table version whose move was played (the table is edited in place)
        while time.monotonic() < until and self.moves < max_moves and not self.over:
            found = self.next_turn(done)
            waited = 0.0
            seen = None
            while found is None:
                # what is read here (the table, pings, "Game over", the DMs) is in the game's channel and
                # its members' DMs: looked at again only once one of those channels changed
                changes = self.changes()
                if changes != seen and self.game_over():
                    return
                if waited > 30 or time.monotonic() >= until:
                    if waited > 30:
                        self.stats.stuck += 1
                        self.stats.stuck_games.append(self.stuck_state())
                    return
                await asyncio.sleep(0.05)
                waited += 0.05
                if self.changes() != changes:
                    found = self.next_turn(done)
                seen = changes
            member, message = found
            if think:
                pause = self.rng.expovariate(1 / think)
                if time.monotonic() + pause >= until:
                    return
                await asyncio.sleep(pause)
                # the message as it is now (it may have been edited meanwhile)
                message = (
                    self.dm_menu(member) if self.key in DM_CONTROLS else self.turn_message()
                ) or message
            entries = self.entries(message)
            version, seat = self.version_of(message), self.seat_of(message)
            for _ in range(8):  # menu depth
                if not entries:
                    break
                result, t0, dt = await self.click(member, message, self.rng.choice(entries))
                steady = t0 >= self.stats.since  # clicks of the warm-up are not in the figures
                if result.failed:
                    self.stats.failed += steady
                    break
                if "✅ Played" in self.said(result, message):
                    if steady:
                        self.stats.apply.append(dt)
                        self.stats.measured += 1
                        self.stats.by_game[self.name] = self.stats.by_game.get(self.name, 0) + 1
                        self.stats.apply_by_game.setdefault(self.name, []).append(dt)
                    self.stats.applied += 1
                    self.moves += 1
                    if seat is not None:
                        self.seats[seat] = member
                    done = version
                    break
                nxt = result.message if result.messages else result.original
                entries = self.entries(nxt) if nxt is not None else []
                if not entries:
                    self.stats.refused += steady
                    said = f"{self.name}: {self.said(result, message)[:160]!r}"
                    self.stats.refusals[said] = self.stats.refusals.get(said, 0) + 1
                    await asyncio.sleep(0.05)
                    break
                if steady:
                    self.stats.menu.append(dt)
                message = nxt
        if not self.over:
            self.game_over()


# Diagnostic (--stub-render): the bot with rendering.render replaced by a cache of one PNG per game, to
# see what the load costs without drawing boards. Everything else is the unmodified bot. The stub is a
# sitecustomize module on PYTHONPATH, so that it applies in every Python process the bot starts: its
# drawing processes are spawned and do not run the bot's main script (it runs as ``-m bot``, and a
# spawned worker re-imports no ``__main__`` of a package), so a stub in that script never reached them
# and the "stubbed" runs drew real boards in the pool.
STUB_RENDER = """\
import rendering
_real, _cache = rendering.render, {}
def render(key, view, names=None):
    if key not in _cache:
        _cache[key] = _real(key, view, names)
    return _cache[key]
rendering.render = render
"""


# --cpu-profile: the bot samples its CPU time (bench/cpu_sampler.py) between SIGUSR1 and SIGUSR2, sent
# at the start and the end of the measured window.
CPU_SAMPLER = f"""\
import sys
sys.path.insert(0, {str(ROOT / "bench")!r})
import cpu_sampler
cpu_sampler.from_environment()
"""


def site_path(workdir: Path, stub_render: bool = False, cpu_samples: bool = False) -> Path:
    """A directory holding a ``sitecustomize.py`` with the stub and/or the CPU sampler: put it first on
    PYTHONPATH."""
    where = workdir / ("site" + ("-stub" if stub_render else "") + ("-samples" if cpu_samples else ""))
    where.mkdir(parents=True, exist_ok=True)
    (where / "sitecustomize.py").write_text(
        (STUB_RENDER if stub_render else "") + (CPU_SAMPLER if cpu_samples else "")
    )
    return where


def stub_render_path(workdir: Path) -> Path:
    """A directory holding the stub as ``sitecustomize.py``: put it first on PYTHONPATH."""
    return site_path(workdir, stub_render=True)


async def start_bot(
    fd: FakeDiscord,
    db: Path,
    log: Path,
    profile: Path | None = None,
    stub_render: bool = False,
    metrics_port: int | None = None,
    cpu_samples: Path | None = None,
) -> asyncio.subprocess.Process:
    before = fd.gateway.identifies
    program: tuple[str, ...] = ("-m", "bot", "run")
    path = str(ROOT)
    if stub_render or cpu_samples:
        path = os.pathsep.join((str(site_path(log.parent, stub_render, cpu_samples is not None)), path))
    if profile:  # cProfile as a script (the launcher takes a script path and passes the rest on)
        import cProfile

        program = (cProfile.__file__, "-o", str(profile), *program)
    env = {
        **os.environ,
        "PYTHONPATH": path,
        "DISCORD_TOKEN": "fake-token",
        "ADMIRALTY_DB": str(db),
        "ADMIRALTY_AI_DELAY": "0",
        "ADMIRALTY_TURN_TIMEOUT": "0",
        "ADMIRALTY_LOG_LEVEL": "WARNING",
        "ADMIRALTY_DEV_GUILD": "",
        # the bot's CPU by phase is read from its metrics (admiralty_cpu_seconds_total)
        "ADMIRALTY_METRICS_PORT": str(metrics_port) if metrics_port else "",
    }
    if cpu_samples is not None:
        env[cpu_sampler.ENVIRONMENT] = str(cpu_samples)
    with open(log, "wb") as out:
        proc = await asyncio.create_subprocess_exec(
            *fd.launch_argv(*program),
            cwd=str(ROOT),
            env=env,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=out,
            stderr=asyncio.subprocess.STDOUT,
        )
    await fd.gateway.wait_connected(60, after_identifies=before)
    await fd.wait_for(lambda: fd.global_commands, timeout=30)
    return proc


async def stop_bot(proc: asyncio.subprocess.Process, sig: int = signal.SIGTERM) -> None:
    if proc.returncode is None:
        proc.send_signal(sig)
        try:
            await asyncio.wait_for(proc.wait(), 30)
        except TimeoutError:
            proc.kill()
            await proc.wait()


def resumed_notes(fd: FakeDiscord) -> int:
    return sum(
        1
        for m in list(fd.messages.values())
        if not m.deleted and m.author_id == fd.bot_user.id and "resumes where it stood" in m.content
    )


async def measure_restart(
    fd: FakeDiscord, proc, db: Path, log: Path, games: list[Game], stub_render: bool = False
) -> tuple[object, dict]:
    """SIGKILL the bot with its games running, restart it on the same file: time until it is connected,
    until every running game got its "resumed" note, and the latency of a click made meanwhile."""
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        running = con.execute("SELECT count(*) FROM games WHERE status = 'running'").fetchone()[0]
    finally:
        con.close()
    proc.send_signal(signal.SIGKILL)
    await proc.wait()
    before = resumed_notes(fd)
    t0 = time.perf_counter()
    proc = await start_bot(fd, db, log, stub_render=stub_render)
    ready = time.perf_counter() - t0
    # A member of the last game clicks its (old) turn message while the bot resumes the others.
    probe = None
    g = games[-1]
    turn = g.turn_message()
    if turn is not None and g.entries(turn):
        mention = MENTION.search(turn.content)
        member = g.by_id.get(int(mention.group(1))) if mention else g.members[0]
        result, probe = await g.click(member, turn, g.entries(turn)[0])
        probe = float("nan") if result.failed else probe
    resumed = resumed_notes(fd) - before
    while resumed < running and time.perf_counter() - t0 < 600:
        await asyncio.sleep(0.2)
        resumed = resumed_notes(fd) - before
    return proc, {
        "running": running,
        "ready_s": ready,
        "all_resumed_s": time.perf_counter() - t0,
        "resumed": resumed,
        "probe_s": probe,
        "rss_peak_mib": proc_status(proc.pid).get("VmHWM", 0) / 1024,
    }


async def run_one(
    n: int,
    seconds: float,
    max_moves: int,
    think: float,
    setup_concurrency: int,
    workdir: Path,
    profile: bool = False,
    restart: bool = False,
    stub_render: bool = False,
    rate_limits: bool = True,
    wave: int = 50,
    warmup: float = 10.0,
    mix: tuple[str, ...] = tuple(MIX),
    cpu_profile: Path | None = None,
    replace: bool = True,
) -> dict:
    users = [f"p{i}{s}" for i in range(n) for s in "ab"]
    channels = ["general"] + [f"game-{i}" for i in range(n)]
    # A deferred click is answered when its message is edited or a follow-up arrives; the fake's
    # "deferred update" grace (2 s) would end the wait early under load, so it is raised here.
    async with FakeDiscord(
        users=users,
        channels=channels,
        reply_timeout=120.0,
        deferred_update_wait=120.0,
        rate_limits=rate_limits,
    ) as fd:
        tag = f"{n}-think{think:g}{'-stub' if stub_render else ''}"
        db = workdir / f"load-{tag}.db"  # a fresh file for every run
        log = workdir / f"bot-{tag}.log"
        prof = workdir / f"bot-{tag}.prof" if profile else None
        load = os.getloadavg()[0]
        port = free_port()
        samples = cpu_profile / f"bot-{tag}.folded" if cpu_profile else None
        proc = await start_bot(fd, db, log, prof, stub_render, port, samples)
        driver_sampler = cpu_sampler.Sampler() if cpu_profile else None
        idle = proc_status(proc.pid)
        stats = Stats()
        rng = random.Random(n)
        games = [
            Game(fd, i, stats, random.Random(rng.random()), mix[i % len(mix)], replace=replace)
            for i in range(n)
        ]
        try:
            # ---- setup: every game opened, joined and started (bounded concurrency)
            sem = asyncio.Semaphore(setup_concurrency)
            setup_errors: list[str] = []

            async def setup(g: Game) -> None:
                async with sem:
                    try:
                        await g.setup()
                    except Exception as e:  # noqa: BLE001 - counted and reported
                        setup_errors.append(str(e)[:200])

            # Games are opened in waves of ``wave``, each wave waiting until its tables are shown, so
            # that the start-up of many games does not run into Discord's global limit all at once.
            t0 = time.perf_counter()
            for first in range(0, n, wave):
                batch = games[first : first + wave]
                await asyncio.gather(*(setup(g) for g in batch))
                try:
                    await fd.wait_for(
                        lambda b=batch: all(g.turn_message() is not None for g in b), timeout=60
                    )
                except TimeoutError:
                    pass
            setup_time = time.perf_counter() - t0
            ready = [g for g in games if g.turn_message() is not None] if not setup_errors else games

            # ---- play
            # ---- play: the first ``warmup`` seconds are not measured (every game's first move, whose
            # clicks all leave at once); the figures are of the steady state that follows.
            until = time.monotonic() + warmup + seconds
            window: dict = {}

            async def measured() -> None:
                await asyncio.sleep(warmup)
                # the bot's phases first (a scrape, answered by the busy bot), then the rest at once
                window["phases"] = await bot_phases(port)
                stats.since = time.perf_counter()
                window["cpu"] = (proc_cpu(proc.pid), own_cpu())
                window["system"] = own_system_cpu()
                window["kids"] = children_cpu(proc.pid)
                window["committed"] = committed(db)
                window["cm"] = fd.count()  # the bot's REST calls in the measured window
                window["calls"] = window["cm"].__enter__()
                if samples is not None and driver_sampler is not None:
                    proc.send_signal(signal.SIGUSR1)
                    driver_sampler.start()

            timer = asyncio.create_task(measured())
            await asyncio.gather(*(g.play(until, max_moves, think) for g in ready))
            if "calls" not in window:  # every game ended within the warm-up
                timer.cancel()
                raise RuntimeError(
                    f"{n} games: all play ended within the {warmup:g} s warm-up; "
                    "use --moves larger or --warmup smaller"
                )
            window["cm"].__exit__(None, None, None)
            if samples is not None and driver_sampler is not None and cpu_profile is not None:
                driver_sampler.stop()
                driver_sampler.write(cpu_profile / f"driver-{tag}.folded")
                proc.send_signal(signal.SIGUSR2)
                for _ in range(100):
                    if samples.exists():
                        break
                    await asyncio.sleep(0.1)
            calls = window["calls"]
            cpu_bot0, cpu_me0 = window["cpu"]
            wall = time.perf_counter() - stats.since
            cpu_bot, cpu_me = proc_cpu(proc.pid) - cpu_bot0, own_cpu() - cpu_me0
            system_me = own_system_cpu() - window["system"]
            kids = children_cpu(proc.pid) - window["kids"]
            done = committed(db) - window["committed"]
            phases1 = await bot_phases(port)
            phases = {k: v - window["phases"].get(k, 0.0) for k, v in phases1.items()}
            mem = proc_status(proc.pid)
            restarted = None
            if restart and not profile:
                proc, restarted = await measure_restart(
                    fd, proc, db, workdir / f"bot-{tag}-restart.log", games, stub_render
                )
        finally:
            # SIGINT ends discord.py's run() cleanly, so that cProfile writes its file
            await stop_bot(proc, signal.SIGINT if profile else signal.SIGTERM)
        if prof is not None and prof.exists():
            import pstats

            if cpu_profile:  # kept beside the CPU samples, for pstats' call counts
                shutil.copy(prof, cpu_profile / prof.name)

            print(f"   bot main-thread profile ({n} games), top functions by own time:")
            pstats.Stats(str(prof)).sort_stats("tottime").print_stats(18)
            print(f"   bot main-thread profile ({n} games), the bot's own code by cumulative time:")
            pstats.Stats(str(prof)).sort_stats("cumulative").print_stats(r"/(bot|cogs)/", 45)
        con = sqlite3.connect(db)
        try:
            in_db = con.execute("SELECT coalesce(sum(version), 0) FROM games").fetchone()[0]
            running = con.execute("SELECT count(*) FROM games WHERE status = 'running'").fetchone()[0]
        finally:
            con.close()
        errors = [
            line
            for line in log.read_text(errors="replace").splitlines()
            if " ERROR " in line or "Traceback" in line
        ]
    clicks = stats.menu + stats.apply
    return {
        "games": n,
        "think": think,
        "stub": stub_render,
        "load": load,
        "setup_s": setup_time,
        "setup_errors": setup_errors,
        "wall_s": wall,
        "applied": stats.applied,
        "in_db": in_db,
        "running_after": running,
        "measured": stats.measured,
        "warmup": warmup,
        "wave": wave,
        "actions_per_s": stats.measured / wall if wall else float("nan"),
        "clicks": len(clicks),
        "clicks_per_s": len(clicks) / wall if wall else float("nan"),
        "p50_all": pct(clicks, 50),
        "p95_all": pct(clicks, 95),
        "p99_all": pct(clicks, 99),
        "p95_apply": pct(stats.apply, 95),
        "p50_menu": pct(stats.menu, 50),
        "p99_menu": pct(stats.menu, 99),
        "p50_apply": pct(stats.apply, 50),
        "p99_apply": pct(stats.apply, 99),
        "max_all": max(clicks) if clicks else float("nan"),
        "mean_apply": statistics.fmean(stats.apply) if stats.apply else float("nan"),
        "failed": stats.failed,
        "refused": stats.refused,
        "finished": stats.finished,
        "stuck": stats.stuck,
        "stuck_games": list(stats.stuck_games),
        "refusals": dict(stats.refusals),
        "moves_per_game": stats.applied / max(1, len(games)),
        "by_game": dict(stats.by_game),
        "apply_by_game": {k: (pct(v, 50), pct(v, 99)) for k, v in stats.apply_by_game.items()},
        "mix": mix,
        "rss_idle_mib": idle.get("VmRSS", 0) / 1024,
        "rss_peak_mib": mem.get("VmHWM", 0) / 1024,
        "rss_end_mib": mem.get("VmRSS", 0) / 1024,
        "bot_cpu_pct": 100 * cpu_bot / wall if wall else float("nan"),
        "pool_cpu_pct": 100 * kids / wall if wall else float("nan"),
        # CPU by the moves the bot committed in the same window (not those the members saw acknowledged:
        # under a long queue the two windows differ by the latency)
        "committed": done,
        "cpu_ms": cpu_split(cpu_bot, kids, phases, done),
        "pictures_a_move": pictures_a_move(phases),
        "gc_pauses": collector_pauses(phases),
        # this process (the fake Discord and the members) by the same moves: on the same cores as the bot
        "driver_ms": 1000 * cpu_me / done if done else float("nan"),
        "driver_cpu_pct": 100 * cpu_me / wall if wall else float("nan"),
        "r429": calls.rate_limited_total,
        "global_calls": calls.global_limited,
        "calls_by_route": dict(calls.by_route.most_common()),
        "exempt_calls": calls.exempt,
        "rate_limits": rate_limits,
        "bot_errors": errors[:5],
        "bot_error_count": len(errors),
        "restart": restarted,
        # --replace: games started in place of finished ones (warm-up and window), by game of the mix
        "replace": replace,
        "replaced": dict(stats.replaced),
        "replace_errors": stats.replace_errors[:5],
        "replace_error_count": len(stats.replace_errors),
        # of driver_ms, the part spent in the kernel (the sockets of the fake Discord and the bot)
        "driver_system_ms": 1000 * system_me / done if done else float("nan"),
    }


METHOD = """\
The unmodified bot runs in a subprocess against tests/fakediscord (`launch_argv`), on a fresh SQLite
file; RSS is the bot process's own (`VmHWM` of /proc/<pid>/status: its peak). This process runs the fake
Discord and the scripted members: each game has its own channel and two members; the member to act
clicks the public turn message, then the entries of the private menus at random, until "✅ Played".
The load is closed: one click in flight per game at most, no think time unless "think s" > 0 (an
exponential pause before each move). Games are opened in waves of `--wave` (each wave
waits until its tables show). A run plays `--warmup` seconds unmeasured (the first moves of all games,
which start at once), then measures `--seconds` of steady play or until `--moves` moves per game
(clicks in flight then finish, so a run can last longer); "moves" are those measured. Latency = from the click leaving the member
to the bot's answer arriving (the menu, or "✅ Played" after the board was posted); "menu click" opens
a menu level (no move), "move click" applies a move. "failed" = no first answer within Discord's 3 s.
CPU % is of one core (200 % = both cores of a 2-CPU machine). "load avg" is the machine's 1-minute load
average when the run started (other work on the machine skews the figures)."""


def ms(x: float) -> str:
    return "—" if x != x else f"{x * 1000:.0f}"


def table(results: list[dict]) -> str:
    head = (
        "| games | think s | load avg | setup s | warm-up s | run s | moves | moves/s | clicks/s | p50 ms (all) "
        "| p95 ms (all) | p99 ms (all) "
        "| p50 / p99 ms menu click | p50 / p95 / p99 ms move click | failed | bot peak RSS MiB "
        "| bot CPU % | driver CPU % | REST / move global-limited / interaction | 429s |"
    )
    sep = "|" + "|".join("---" for _ in range(head.count("|") - 1)) + "|"
    rows = [head, sep]
    for r in results:
        rows.append(
            f"| {r['games']}{' (render stubbed)' if r['stub'] else ''} | {r['think']:g} | {r['load']:.1f} "
            f"| {r['setup_s']:.1f} | {r['warmup']:g} | {r['wall_s']:.1f} | {r['measured']} | {r['actions_per_s']:.1f} "
            f"| {r['clicks_per_s']:.1f} | {ms(r['p50_all'])} | {ms(r['p95_all'])} | {ms(r['p99_all'])} "
            f"| {ms(r['p50_menu'])} / {ms(r['p99_menu'])} "
            f"| {ms(r['p50_apply'])} / {ms(r['p95_apply'])} / {ms(r['p99_apply'])} "
            f"| {r['failed']} | {r['rss_peak_mib']:.0f} | {r['bot_cpu_pct']:.0f} | {r['driver_cpu_pct']:.0f} "
            f"| {r['global_calls'] / max(1, r['measured']):.2f} / {r['exempt_calls'] / max(1, r['measured']):.2f} "
            f"| {r['r429']} |"
        )
    return "\n".join(rows)


PHASES = ("drawing", "engine", "storage", "discord+host")


def cpu_table(results: list[dict]) -> str:
    """CPU a move costs by phase, and real boards against the stubbed renderer where both ran."""
    head = (
        "| games | mix | moves/s | CPU ms / move | drawing | engine | storage | Discord I/O + host "
        "| bot CPU % | pool CPU % | real / stubbed moves/s |"
    )
    rows = [head, "|" + "---|" * (head.count("|") - 1)]
    stubbed = {(r["games"], r["think"]): r for r in results if r["stub"]}
    for r in results:
        c = r["cpu_ms"] or {}
        twin = stubbed.get((r["games"], r["think"])) if not r["stub"] else None
        ratio = f"{r['actions_per_s'] / twin['actions_per_s']:.0%}" if twin and twin["actions_per_s"] else "—"
        rows.append(
            f"| {r['games']}{' (render stubbed)' if r['stub'] else ''} | {'all four' if set(r['mix']) == set(MIX) else ' '.join(r['mix'])} "
            f"| {r['actions_per_s']:.1f} | {c.get('total', float('nan')):.1f} | "
            + " | ".join(f"{c.get(k, float('nan')):.1f}" for k in PHASES)
            + f" | {r['bot_cpu_pct']:.0f} | {r['pool_cpu_pct']:.0f} | {ratio} |"
        )
    return "\n".join(rows)


def restart_table(results: list[dict]) -> list[str]:
    rows = [r for r in results if r.get("restart")]
    if not rows:
        return []
    out = [
        "Restart: the bot SIGKILLed right after a run and started again on the same file.",
        "",
        '| games running | connected after s | all "resumed" notes after s '
        "| a click during the resume, ms | peak RSS MiB |",
        "|---|---|---|---|---|",
    ]
    for r in rows:
        x = r["restart"]
        out.append(
            f"| {x['running']} | {x['ready_s']:.1f} | {x['all_resumed_s']:.1f} | {ms(x['probe_s'])} "
            f"| {x['rss_peak_mib']:.0f} |"
        )
    return out + [""]


def write_results(section: str) -> None:
    text = RESULTS.read_text() if RESULTS.exists() else "# Benchmark results\n"
    start = text.find(HEADING)
    if start >= 0:
        end = text.find(END, start)
        if end >= 0:  # keep the notes written under the figures
            text = text[:start] + section + text[end + len(END) :]
        else:
            nxt = text.find("\n## ", start + len(HEADING))
            text = text[:start] + section + ("\n" + text[nxt + 1 :] if nxt >= 0 else "")
    else:
        text = text.rstrip("\n") + "\n\n" + section
    RESULTS.write_text(text.rstrip("\n") + "\n")


async def main_async(args) -> list[dict]:
    results = []
    with tempfile.TemporaryDirectory(prefix="admiralty-load-") as tmp:
        runs = [
            (think, n, stub)
            for think in args.think
            for n in args.games
            for stub in ((False, True) if args.both else (args.stub_render,))
        ]
        if args.cpu_profile:
            args.cpu_profile.mkdir(parents=True, exist_ok=True)
        for think, n, stub in runs:
            print(f"== {n} games, think {think:g} s{' (render stubbed)' if stub else ''} …", flush=True)
            r = await run_one(
                n,
                args.seconds,
                args.moves,
                think,
                args.setup_concurrency,
                Path(tmp),
                args.profile,
                args.restart and think == args.think[0],
                stub,
                args.rate_limits,
                args.wave,
                args.warmup,
                tuple(args.mix),
                args.cpu_profile,
                args.replace,
            )
            results.append(r)
            print(
                f"   setup {r['setup_s']:.1f} s ({len(r['setup_errors'])} errors); run {r['wall_s']:.1f} s: "
                f"{r['applied']} moves ({r['measured']} measured after the {r['warmup']:g} s warm-up: "
                f"{r['actions_per_s']:.1f}/s; DB holds {r['in_db']}), "
                f"{r['clicks']} clicks; latency p50 {ms(r['p50_all'])} ms p95 {ms(r['p95_all'])} ms "
                f"p99 {ms(r['p99_all'])} ms (move clicks p50 {ms(r['p50_apply'])} p95 {ms(r['p95_apply'])} "
                f"p99 {ms(r['p99_apply'])} ms); failed {r['failed']}, "
                f"refused {r['refused']}, stuck {r['stuck']}; REST {r['global_calls']} global-limited + "
                f"{r['exempt_calls']} interaction, {r['r429']} × 429; bot peak RSS {r['rss_peak_mib']:.0f} MiB, "
                f"bot CPU {r['bot_cpu_pct']:.0f} %, driver CPU {r['driver_cpu_pct']:.0f} %",
                flush=True,
            )
            for state in r["stuck_games"]:
                print("   stuck: " + state, flush=True)
            for said, count in sorted(r["refusals"].items(), key=lambda item: -item[1])[:8]:
                print(f"   refused ×{count}: {said}", flush=True)
            per_move = max(1, r["measured"])
            print(
                "   REST a move by route: "
                + ", ".join(
                    f"{route} {count / per_move:.2f}" for route, count in r["calls_by_route"].items()
                ),
                flush=True,
            )
            if r["restart"]:
                x = r["restart"]
                print(
                    f"   restart (SIGKILL) with {x['running']} running games: connected after "
                    f"{x['ready_s']:.1f} s, all resumed after {x['all_resumed_s']:.1f} s ({x['resumed']} "
                    f"notes); a click meanwhile answered in {ms(x['probe_s'])} ms; "
                    f"peak RSS {x['rss_peak_mib']:.0f} MiB",
                    flush=True,
                )
            c = r["cpu_ms"]
            if c:
                print(
                    f"   CPU a move ({r['committed']} committed in the window): {c['total']:.1f} ms = "
                    + ", ".join(f"{k} {c[k]:.1f}" for k in PHASES)
                    + f" (bot {r['bot_cpu_pct']:.0f} %, drawing pool {r['pool_cpu_pct']:.0f} % of a core); "
                    f"the bench's own process (fake Discord and members) {r['driver_ms']:.1f} ms a move "
                    f"({r['driver_system_ms']:.1f} of it in the kernel)",
                    flush=True,
                )
            print(
                "   moves measured by game (move click p50 / p99 ms): "
                + ", ".join(
                    f"{k} {v} ({ms(r['apply_by_game'][k][0])} / {ms(r['apply_by_game'][k][1])})"
                    for k, v in sorted(r["by_game"].items())
                )
            )
            if r["replace"]:
                print(
                    "   games started in place of finished ones, by game: "
                    + (", ".join(f"{k} {v}" for k, v in sorted(r["replaced"].items())) or "none")
                    + (f" ({r['replace_error_count']} failed to start)" if r["replace_error_count"] else "")
                )
            for e in r["replace_errors"][:3]:
                print("   replacement error:", e)
            if r["pictures_a_move"]:
                print(
                    "   pictures drawn a move applied, by game: "
                    + ", ".join(f"{k} {v:.2f}" for k, v in sorted(r["pictures_a_move"].items()))
                )
            if r["gc_pauses"]:
                print(
                    "   collector pauses in the window: "
                    + ", ".join(
                        f"{name} {n} ({total:.2f} s, each ≤ {ms(bound)} ms)"
                        for name, (n, total, bound) in r["gc_pauses"].items()
                    )
                )
            for e in r["setup_errors"][:3]:
                print("   setup error:", e)
            for e in r["bot_errors"]:
                print("   bot log:", e)
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, nargs="+", default=[10, 100, 500])
    parser.add_argument("--seconds", type=float, default=60.0, help="play time per N (after setup)")
    parser.add_argument("--moves", type=int, default=30, help="at most this many moves per game")
    parser.add_argument(
        "--think",
        type=float,
        nargs="+",
        default=[0.0],
        help="mean think time before a move, seconds (exponential); several values: one run per value and N",
    )
    parser.add_argument("--setup-concurrency", type=int, default=25)
    parser.add_argument(
        "--mix",
        nargs="+",
        choices=list(MIX),
        default=list(MIX),
        help="the games played, dealt out in turn to the channels (default: all four games, Enemy in "
        "Sight base and advanced)",
    )
    parser.add_argument(
        "--replace",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="when a game ends, its channel starts a new game of the same kind (lobby, join, start: load "
        "too), so that the number of running games and the mix stay as they started; --no-replace: a "
        "finished game's channel stays idle, as before",
    )
    parser.add_argument(
        "--wave",
        type=int,
        default=50,
        help="games are opened in waves of this many, each wave waiting until its tables show",
    )
    parser.add_argument(
        "--warmup",
        type=float,
        default=10.0,
        help="seconds of play before the measured window (the first moves of all games)",
    )
    parser.add_argument("--no-write", action="store_true", help="do not update bench/RESULTS.md")
    parser.add_argument(
        "--restart",
        action="store_true",
        help="after each run (first think value), SIGKILL the bot and time its restart",
    )
    parser.add_argument(
        "--stub-render",
        action="store_true",
        help="diagnostic: the bot draws one board per game and reuses it (not written to "
        "RESULTS.md unless asked)",
    )
    parser.add_argument(
        "--both",
        action="store_true",
        help="run each N twice, with real boards and with --stub-render, and print the ratio of moves/s",
    )
    parser.add_argument(
        "--rate-limits",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="the fake models Discord's limits (global 50/s, per-channel buckets, 429s): "
        "FakeDiscord(rate_limits=True); --no-rate-limits: unlimited, as before",
    )
    parser.add_argument(
        "--cpu-profile",
        type=Path,
        metavar="DIR",
        help="sample the CPU time of the bot and of this process (the fake Discord and the members) in "
        "the measured window (bench/cpu_sampler.py): DIR/bot-<run>.folded and DIR/driver-<run>.folded, "
        "collapsed stacks; `python bench/cpu_sampler.py FILE` prints the top functions",
    )
    parser.add_argument(
        "--profile",
        action="store_true",
        help="run the bot under cProfile (main thread) and print its hot spots",
    )
    args = parser.parse_args()
    # The fake Discord and the members run on uvloop, as the bot does by default: they stand for
    # Discord's servers and the players' clients, whose CPU a real bot never pays, so the cheaper the
    # better on a machine they share with the bot. Their garbage collector is set as the bot's
    # (bot/collector.py): at the defaults it took about 6 % of this process's CPU.
    collector.tune()
    try:
        import uvloop
    except ImportError:
        results = asyncio.run(main_async(args))
    else:
        results = uvloop.run(main_async(args))
    m = machine()
    lines = [
        HEADING,
        "",
        f"`python bench/bench_load.py --games {' '.join(map(str, args.games))} --seconds {args.seconds:g} "
        f"--moves {args.moves} --think {' '.join(f'{t:g}' for t in args.think)}"
        f"{'' if args.rate_limits else ' --no-rate-limits'}` — "
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}",
        "",
        f"Machine: {m['nproc']} CPUs ({m['cpu']}), Python {m['python']}, {m['platform']}.",
        "",
        METHOD,
        "",
        table(results),
        "",
        cpu_table(results),
        "",
        *restart_table(results),
        END,
    ]
    print("\n".join(lines))
    if not args.no_write:
        write_results("\n".join(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
