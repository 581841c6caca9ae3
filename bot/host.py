"""The game host: lobbies, seats, one game per channel, locks, timers and AI seats.

The host knows nothing of Discord. It talks to the outside through a
:class:`Delivery` (the Discord one lives in ``bot/delivery.py``; tests and the
demo use recording ones). Every method that a user triggers raises
:class:`UserError` with a sentence to show them (ephemerally) when the request
cannot be honoured; the game is then exactly as it was.

Order of work for every accepted action, under the game's lock:
apply → commit action + snapshot in one transaction → deliver. So nothing is
announced that is not on disk, and a crash loses nothing acknowledged.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from dataclasses import dataclass, field
from typing import Protocol

from bot import menus
from bot.games import Game, GameSpec, IllegalAction, registry
from bot.storage import ChannelBusy, GameRow, SeatRow, Storage

log = logging.getLogger("admiralty.host")

MISSED_TURNS_LIMIT = 3
RETRY_FIRST_DELAY = 0.5  # seconds before a failed delivery is tried again; doubles each time
RETRY_MAX_DELAY = 60.0
RETRY_ATTEMPTS = 12
RESUME_CONCURRENCY = 8  # games resumed at once after a restart
CHANNEL_BUSY = "This channel already has a game. Finish it, or `/game abandon` it first."
AI_NAMES = ["Nelson", "Villeneuve", "Gravina", "De Winter", "Decatur", "Collingwood"]


class UserError(Exception):
    """A request that cannot be honoured; the text is shown to the user."""


@dataclass
class Table:
    """A game as the host sees it: its row, its seats and (once started) the engine."""

    row: GameRow
    seats: list[SeatRow]
    game: Game | None = None

    @property
    def id(self) -> int:
        return self.row.id

    @property
    def spec(self) -> GameSpec:
        return registry.get(self.row.game_key)

    @property
    def version(self) -> int:
        return self.row.version

    @property
    def channel_id(self) -> int:
        return self.row.thread_id or self.row.channel_id

    def seat_of(self, user_id: int) -> int | None:
        for s in self.seats:
            if s.user_id == user_id and not s.is_ai:
                return s.seat
        return None

    def seat_row(self, seat: int) -> SeatRow:
        return next(s for s in self.seats if s.seat == seat)

    def names(self) -> list[str]:
        return [s.name for s in sorted(self.seats, key=lambda s: s.seat)]

    def human_to_act(self) -> list[int]:
        if self.game is None or self.game.is_over:
            return []
        return [s for s in self.game.to_act() if not self.seat_row(s).is_ai]


@dataclass
class Outcome:
    """What a choice led to: an applied action (events) or the next menu level."""

    table: Table
    events: list[dict] = field(default_factory=list)
    applied: str | None = None  # label of the action applied
    level: menus.Level | None = None
    seat: int | None = None


class Delivery(Protocol):
    async def lobby(self, table: Table, note: str = "") -> None: ...
    async def lobby_closed(self, table: Table, text: str) -> None: ...
    async def publish(self, table: Table, events: list[dict], note: str = "",
                      actor: int | None = None) -> None: ...
    async def notice(self, table: Table, text: str) -> None: ...
    async def ended(self, table: Table, text: str) -> None: ...
    async def remind(self, table: Table, seats: list[int], seconds_left: float) -> None: ...
    async def probe_dm(self, user_id: int, text: str) -> bool: ...


class NullDelivery:
    """Delivers nothing; records what it was asked (for tests and the demo)."""

    def __init__(self) -> None:
        self.calls: list[tuple] = []

    async def lobby(self, table, note=""):
        self.calls.append(("lobby", table.id, note))

    async def lobby_closed(self, table, text):
        self.calls.append(("lobby_closed", table.id, text))

    async def publish(self, table, events, note="", actor=None):
        self.calls.append(("publish", table.id, table.version, [e.get("text") for e in events], note))

    async def notice(self, table, text):
        self.calls.append(("notice", table.id, text))

    async def ended(self, table, text):
        self.calls.append(("ended", table.id, text))

    async def remind(self, table, seats, seconds_left):
        self.calls.append(("remind", table.id, tuple(seats)))

    async def probe_dm(self, user_id, text):
        self.calls.append(("probe_dm", user_id))
        return True


def _public(events: list[dict]) -> list[dict]:
    return [e for e in events if "private_to" not in e]


class Host:
    def __init__(self, storage: Storage, delivery: Delivery | None = None, *, turn_timeout: float = 0.0,
                 ai_delay: float = 1.0, clock=time.time) -> None:
        self.storage = storage
        self.delivery: Delivery = delivery or NullDelivery()
        self.turn_timeout = turn_timeout
        self.ai_delay = ai_delay
        self.clock = clock
        self._locks: dict[int, asyncio.Lock] = {}
        self._games: dict[int, Game] = {}
        self._timers: dict[int, asyncio.Task] = {}
        self._ai_tasks: dict[int, asyncio.Task] = {}
        self._retries: dict[int, asyncio.Task] = {}
        self._versions: dict[int, int] = {}  # version of each cached engine
        self._closing = False

    # ------------------------------------------------------------------ util
    def lock(self, game_id: int) -> asyncio.Lock:
        return self._locks.setdefault(game_id, asyncio.Lock())

    async def _load(self, game_id: int) -> Table:
        row = await self.storage.get_game(game_id)
        if row is None:
            raise UserError("That game no longer exists.")
        seats = await self.storage.seats(game_id)
        table = Table(row, seats)
        if row.state_json:
            game = self._games.get(game_id)
            if game is None or self._versions.get(game_id) != row.version:
                game = registry.get(row.game_key).from_json(row.state_json)
                self._games[game_id] = game
                self._versions[game_id] = row.version
            table.game = game
        return table

    async def table_in(self, channel_id: int) -> Table:
        row = await self.storage.active_game(channel_id)
        if row is None:
            raise UserError("There is no game in this channel. Start one with `/game new`.")
        return await self._load(row.id)

    async def table(self, game_id: int) -> Table:
        return await self._load(game_id)

    async def list_games(self, guild_id: int) -> list[Table]:
        return [await self._load(r.id) for r in await self.storage.list_games(guild_id)]

    # ----------------------------------------------------------------- lobby
    async def new_game(self, *, guild_id: int, channel_id: int, user_id: int, user_name: str, game_key: str,
                       options: dict | None = None, turn_timeout: float | None = None,
                       thread_id: int | None = None, seed: int | None = None) -> Table:
        try:
            spec = registry.get(game_key)
            options = spec.normalize_options(options)
        except IllegalAction as e:
            raise UserError(str(e)) from None
        if turn_timeout is not None and turn_timeout < 0:
            raise UserError("The turn timeout cannot be negative.")
        if await self.storage.active_game(thread_id or channel_id) is not None:
            raise UserError(CHANNEL_BUSY)
        try:
            game_id = await self.storage.create_game(
                guild_id=guild_id, channel_id=channel_id, thread_id=thread_id, game_key=spec.key,
                options=options, seed=seed if seed is not None else random.SystemRandom().randrange(2**31),
                host_id=user_id,
                turn_timeout=(self.turn_timeout if turn_timeout is None else turn_timeout) or None)
        except ChannelBusy:  # another /game new won the race
            raise UserError(CHANNEL_BUSY) from None
        await self.storage.add_seat(game_id, user_id=user_id, is_ai=False, name=user_name)
        table = await self._load(game_id)
        await self._probe(table, user_id)
        table = await self._load(game_id)
        await self.delivery.lobby(table)
        return table

    async def _probe(self, table: Table, user_id: int) -> bool:
        seat = table.seat_of(user_id)
        ok = await self.delivery.probe_dm(
            user_id, f"You joined **{table.spec.title}** (game #{table.id}). "
            + ("What only you may see (your hand, your secret choices) and your controls will come here."
               if table.spec.has_private_view else "Turn reminders will come here."))
        if seat is not None:
            await self.storage.update_seat(table.id, seat, dm_ok=ok)
        return ok

    async def _lobby_table(self, channel_id: int) -> Table:
        table = await self.table_in(channel_id)
        if table.row.status != "lobby":
            raise UserError("The game in this channel has already started.")
        return table

    async def join(self, channel_id: int, user_id: int, user_name: str) -> tuple[Table, bool]:
        table = await self.table_in(channel_id)
        if table.row.status == "running":
            return await self._reclaim(table, user_id, user_name)
        async with self.lock(table.id):
            table = await self._load(table.id)
            if table.row.status != "lobby":
                raise UserError("The game in this channel has already started.")
            if table.seat_of(user_id) is not None:
                raise UserError("You are already in this game.")
            if len(table.seats) >= table.spec.max_players:
                raise UserError(f"The game is full ({table.spec.max_players} players).")
            await self.storage.add_seat(table.id, user_id=user_id, is_ai=False, name=user_name)
            table = await self._load(table.id)
            ok = await self._probe(table, user_id)
            table = await self._load(table.id)
            await self.delivery.lobby(table, f"{user_name} joined.")
            return table, ok

    async def _reclaim(self, table: Table, user_id: int, user_name: str) -> tuple[Table, bool]:
        """A player whose seat an AI took over (missed turns) takes it back."""
        async with self.lock(table.id):
            table = await self._load(table.id)
            seat = next((s.seat for s in table.seats if s.user_id == user_id and s.is_ai), None)
            if seat is None:
                if table.seat_of(user_id) is not None:
                    raise UserError("You are already playing in this game.")
                raise UserError("The game in this channel has already started.")
            await self.storage.update_seat(table.id, seat, is_ai=False, name=user_name, missed=0)
            table = await self._load(table.id)
            ok = await self._probe(table, user_id)
            table = await self._load(table.id)
            await self.delivery.notice(table, f"{user_name} is back and takes their seat again from the AI.")
            self._after_change(table)
            await self.publish(table, [])
            return table, ok

    async def leave(self, channel_id: int, user_id: int) -> Table:
        table = await self._lobby_table(channel_id)
        async with self.lock(table.id):
            table = await self._load(table.id)
            seat = table.seat_of(user_id)
            if seat is None:
                raise UserError("You are not in this game.")
            if user_id == table.row.host_id:
                raise UserError("You are the host: use Cancel (or `/game abandon`) to close the lobby.")
            name = table.seat_row(seat).name
            await self.storage.remove_seat(table.id, seat)
            table = await self._load(table.id)
            await self.delivery.lobby(table, f"{name} left.")
            return table

    async def add_ai(self, channel_id: int, user_id: int) -> Table:
        table = await self._lobby_table(channel_id)
        async with self.lock(table.id):
            table = await self._load(table.id)
            if table.seat_of(user_id) is None:
                raise UserError("Only players in the lobby can add AI seats.")
            if len(table.seats) >= table.spec.max_players:
                raise UserError(f"The game is full ({table.spec.max_players} players).")
            used = {s.name for s in table.seats}
            name = next((f"{n} (AI)" for n in AI_NAMES if f"{n} (AI)" not in used), f"AI {len(table.seats) + 1}")
            await self.storage.add_seat(table.id, user_id=None, is_ai=True, name=name)
            table = await self._load(table.id)
            await self.delivery.lobby(table, f"{name} takes a seat.")
            return table

    async def start(self, channel_id: int, user_id: int) -> Table:
        table = await self._lobby_table(channel_id)
        async with self.lock(table.id):
            table = await self._load(table.id)
            if table.row.status != "lobby":
                raise UserError("The game has already started.")
            if user_id != table.row.host_id:
                raise UserError("Only the host can start the game.")
            spec = table.spec
            n = len(table.seats)
            if n < spec.min_players:
                raise UserError(f"{spec.title} needs at least {spec.min_players} players; "
                                f"{n} joined. Invite someone or add an AI seat.")
            try:
                game = spec.new(players=n, options=table.row.options, seed=table.row.seed)
            except IllegalAction as e:
                raise UserError(str(e)) from None
            table.game = game
            deadline = self._deadline_for(table, None, None)
            await self.storage.start_game(table.id, game.to_json(), deadline=deadline)
            self._games[table.id] = game
            self._versions[table.id] = 0
            table = await self._load(table.id)
            await self.delivery.lobby_closed(table, "The game has started.")
            await self.publish(table, [{"type": "start", "text": f"{spec.title} begins."}])
            self._after_change(table)
            return table

    async def cancel(self, channel_id: int, user_id: int) -> Table:
        table = await self._lobby_table(channel_id)
        if user_id != table.row.host_id:
            raise UserError("Only the host can cancel the lobby.")
        async with self.lock(table.id):
            await self.storage.set_status(table.id, "abandoned")
            table = await self._load(table.id)
            await self.delivery.lobby_closed(table, "The lobby was cancelled.")
            return table

    async def abandon(self, channel_id: int, user_id: int, *, is_admin: bool) -> Table:
        table = await self.table_in(channel_id)
        if user_id != table.row.host_id and not is_admin:
            raise UserError("Only the host or someone with Manage Server can abandon the game.")
        async with self.lock(table.id):
            self._cancel_tasks(table.id)
            await self.storage.set_status(table.id, "abandoned")
            table = await self._load(table.id)
            text = f"Game #{table.id} ({table.spec.title}) was abandoned."
            if table.game is None:
                await self.delivery.lobby_closed(table, "The lobby was closed.")
            else:
                await self.delivery.ended(table, text)
            await self.delivery.notice(table, text)
            self._games.pop(table.id, None)
            return table

    # ------------------------------------------------------------------ play
    def _check_player(self, table: Table, user_id: int, seat: int | None = None) -> int:
        if table.row.status == "abandoned":
            raise UserError("This game was abandoned.")
        if table.row.status == "lobby" or table.game is None:
            raise UserError("The game has not started yet.")
        if table.game.is_over or table.row.status == "finished":
            raise UserError("This game is over.")
        own = table.seat_of(user_id)
        if own is None:
            raise UserError("You are not playing in this game; you can watch it from the channel.")
        if own not in table.game.to_act():
            waiting = ", ".join(table.seat_row(s).name for s in table.game.to_act())
            raise UserError(f"It is not your turn — waiting for {waiting}.")
        if seat is not None and seat != own:
            raise UserError("Those controls belong to another player.")
        return own

    async def menu(self, game_id: int, user_id: int, prefix: tuple[int, ...] = (), page: int = 0,
                   version: int | None = None) -> Outcome:
        """The menu level of ``user_id`` at ``prefix`` (no change to the game)."""
        table = await self._load(game_id)
        if version is not None and version != table.version:
            raise StaleBoard(table)
        seat = self._check_player(table, user_id)
        lvl = menus.open_level(table.game, seat, prefix, page)
        if lvl is None:
            raise StaleBoard(table)
        return Outcome(table, level=lvl, seat=seat)

    async def choose(self, game_id: int, user_id: int, version: int, prefix: tuple[int, ...],
                     page: int = 0, seat: int | None = None, digest: str | None = None) -> Outcome:
        """A click on a menu entry: show the next level, or apply the action at a leaf.

        A menu of an older version is stale, except a menu made while several seats chose at once
        (it carries a digest of the seat's menu tree): another seat's choice does not spoil it, as
        long as this seat's own choices are unchanged."""
        async with self.lock(game_id):
            table = await self._load(game_id)
            if version != table.version and not digest:
                raise StaleBoard(table)
            seat = self._check_player(table, user_id, seat)
            root = menus.build_tree(table.game, seat)
            if version != table.version and root.key != digest:
                raise StaleBoard(table)
            confirmed = bool(prefix) and prefix[-1] == menus.CONFIRM
            if confirmed:
                prefix = prefix[:-1]
            prefix = menus.collapse(root, prefix)
            found = menus.walk(root, prefix)
            if found is None:
                raise StaleBoard(table)
            node, crumbs = found
            if node.action is None:
                lvl = menus.level(table.game, seat, root, prefix, page)
                return Outcome(table, level=lvl, seat=seat)
            if not confirmed and node.action.get("type") in table.spec.extra.get("confirm", ()):
                # A game may ask that some actions (playing a card) are confirmed before they count.
                return Outcome(table, level=menus.confirm_level(table.game, seat, root, prefix), seat=seat)
            events = await self._apply_locked(table, seat, node.action, human=True)
            return Outcome(table, events=events, applied=" › ".join(crumbs), seat=seat)

    async def act(self, game_id: int, user_id: int, action: dict, version: int | None = None) -> Outcome:
        """Apply an action given whole (the /move command)."""
        async with self.lock(game_id):
            table = await self._load(game_id)
            if version is not None and version != table.version:
                raise StaleBoard(table)
            seat = self._check_player(table, user_id)
            try:
                label = table.game.describe(action)
            except Exception:  # noqa: BLE001 - a garbage action has no label
                label = "that move"
            events = await self._apply_locked(table, seat, action, human=True)
            return Outcome(table, events=events, applied=label, seat=seat)

    async def _apply_locked(self, table: Table, seat: int, action: dict, *, human: bool) -> list[dict]:
        """Apply, commit, deliver. Caller holds the lock. The game is unchanged on any failure."""
        game = table.game
        before = game.to_json()
        to_act_before = game.to_act()
        try:
            events = game.apply(seat, action)
        except IllegalAction as e:
            raise UserError(f"Not allowed: {e}") from None
        status = "finished" if game.is_over else "running"
        deadline = self._deadline_for(table, to_act_before, seat)
        try:
            version = await self.storage.record_action(
                table.id, expected_version=table.version, seat=seat, action=action, state_json=game.to_json(),
                status=status, deadline=deadline, result=game.result if game.is_over else None)
        except BaseException:
            # Nothing was committed: put the engine back exactly as it was.
            self._games[table.id] = table.spec.from_json(before)
            raise
        self._versions[table.id] = version
        log.info("game %s: version %s: seat %s %s %s", table.id, version, seat, "played" if human else "auto",
                 game.describe(action))
        if human:
            row = table.seat_row(seat)
            if row.missed:
                await self.storage.update_seat(table.id, seat, missed=0)
        table = await self._load(table.id)
        await self.publish(table, events, actor=seat)
        self._after_change(table)
        return events

    def _deadline_for(self, table: Table, to_act_before: list[int] | None, actor: int | None) -> float | None:
        game = table.game
        timeout = table.row.turn_timeout or 0
        if not timeout or game is None or game.is_over:
            return None
        humans = [s for s in game.to_act() if not table.seat_row(s).is_ai]
        if not humans:
            return None
        if (to_act_before is not None and table.row.deadline is not None
                and set(game.to_act()) <= set(to_act_before)):
            # The same decision goes on (the other half of a secret choice, or the next step of
            # one turn): the clock keeps running.
            return table.row.deadline
        return self.clock() + timeout

    # ------------------------------------------------------------ delivery
    async def publish(self, table: Table, events: list[dict], note: str = "", actor: int | None = None) -> bool:
        """Show the game as it now stands. A failed delivery never stops a game: it is retried
        in the background (with the same events) until it goes through or the game moves on.
        ``actor`` is the seat whose action this was (its private message is updated in place)."""
        try:
            await self.delivery.publish(table, events, note, actor=actor)
            return True
        except Exception:
            log.exception("game %s: delivery of version %s failed; will retry", table.id, table.version)
            task = self._retries.get(table.id)
            if task is None or task.done():
                self._retries[table.id] = asyncio.create_task(
                    self._republish(table.id, table.version, events, note), name=f"republish-{table.id}")
            return False

    async def _republish(self, game_id: int, version: int, events: list[dict], note: str) -> None:
        delay = RETRY_FIRST_DELAY
        for _ in range(RETRY_ATTEMPTS):
            await asyncio.sleep(delay)
            delay = min(delay * 2, RETRY_MAX_DELAY)
            try:
                async with self.lock(game_id):
                    table = await self._load(game_id)
                    if table.row.status not in ("running", "finished"):
                        return
                    await self.delivery.publish(table, events if table.version == version else [],
                                                note or "retry")
                    return
            except asyncio.CancelledError:
                raise
            except Exception:
                log.warning("game %s: delivery retry failed", game_id, exc_info=True)
        log.error("game %s: gave up delivering version %s; /game status posts the board again", game_id,
                  version)

    # ------------------------------------------------------------ AI and timers
    def _after_change(self, table: Table) -> None:
        if self._closing:
            return
        game = table.game
        if game is None or game.is_over or table.row.status != "running":
            self._cancel_tasks(table.id)
            if game is not None:  # over: no need to keep the engine in memory
                self._games.pop(table.id, None)
                self._versions.pop(table.id, None)
            return
        if any(table.seat_row(s).is_ai for s in game.to_act()):
            task = self._ai_tasks.get(table.id)
            if task is None or task.done():
                self._ai_tasks[table.id] = asyncio.create_task(self._ai_turn(table.id), name=f"ai-{table.id}")
        self._arm_timer(table)

    def _cancel_tasks(self, game_id: int) -> None:
        for tasks in (self._timers, self._ai_tasks):
            task = tasks.pop(game_id, None)
            if task is not None and task is not asyncio.current_task():
                task.cancel()

    async def _ai_turn(self, game_id: int) -> None:
        await asyncio.sleep(self.ai_delay)
        try:
            async with self.lock(game_id):
                table = await self._load(game_id)
                game = table.game
                if game is None or game.is_over or table.row.status != "running":
                    return
                ai_seats = [s for s in game.to_act() if table.seat_row(s).is_ai]
                if not ai_seats:
                    return
                seat = ai_seats[0]
                rng = random.Random(f"{table.row.seed}:{table.version}:{seat}")
                action = game.ai_action(seat, rng)
                self._ai_tasks.pop(game_id, None)
                await self._apply_locked(table, seat, action, human=False)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("game %s: AI seat failed to move", game_id)

    def _arm_timer(self, table: Table) -> None:
        old = self._timers.pop(table.id, None)
        if old is not None and old is not asyncio.current_task():
            old.cancel()
        if table.row.deadline is None or table.row.status != "running":
            return
        self._timers[table.id] = asyncio.create_task(self._timer(table.id), name=f"timer-{table.id}")

    async def _timer(self, game_id: int) -> None:
        try:
            while True:
                row = await self.storage.get_game(game_id)
                if row is None or row.status != "running" or row.deadline is None:
                    return
                now = self.clock()
                timeout = row.turn_timeout or 0
                remind_at = row.deadline - timeout / 2
                if not row.reminded and now < row.deadline:
                    if now >= remind_at:
                        await self._remind(game_id, row.deadline)
                        continue
                    await asyncio.sleep(max(0.0, remind_at - now))
                    continue
                if now < row.deadline:
                    await asyncio.sleep(max(0.0, row.deadline - now))
                    continue
                await self._deadline(game_id)
                return
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("game %s: turn timer failed", game_id)

    async def _remind(self, game_id: int, deadline: float) -> None:
        async with self.lock(game_id):
            table = await self._load(game_id)
            if table.row.deadline != deadline or table.row.reminded:
                return
            await self.storage.mark_reminded(game_id)
            seats = table.human_to_act()
        if seats:
            try:
                await self.delivery.remind(table, seats, deadline - self.clock())
            except Exception:
                log.exception("game %s: reminder failed", game_id)

    async def _deadline(self, game_id: int) -> None:
        """The turn timer ran out: play for every absent human seat; replace repeat absentees by AI."""
        async with self.lock(game_id):
            table = await self._load(game_id)
            if table.row.deadline is None or self.clock() < table.row.deadline:
                self._arm_timer(table)
                return
            absent = table.human_to_act()
            for seat in absent:
                steps = 0
                while (table.game is not None and not table.game.is_over and seat in table.game.to_act()
                       and steps < 200):
                    rng = random.Random(f"{table.row.seed}:{table.version}:{seat}:timeout")
                    action = table.game.timeout_action(seat, rng)
                    await self._apply_locked(table, seat, action, human=False)
                    table = await self._load(game_id)
                    steps += 1
                row = table.seat_row(seat)
                missed = row.missed + 1
                if missed >= MISSED_TURNS_LIMIT:
                    await self.storage.update_seat(game_id, seat, missed=missed, is_ai=True,
                                                   name=f"{row.name} (AI)")
                    table = await self._load(game_id)
                    await self.delivery.notice(
                        table, f"{row.name} missed {missed} turns in a row; an AI takes over their seat.")
                else:
                    await self.storage.update_seat(game_id, seat, missed=missed)
                    await self.delivery.notice(
                        table, f"{row.name} ran out of time; a move was made for them "
                        f"({missed}/{MISSED_TURNS_LIMIT} missed turns).")
            table = await self._load(game_id)
            self._after_change(table)

    # ------------------------------------------------------------ lifecycle
    async def resume_all(self, rows: list[GameRow] | None = None,
                         concurrency: int = RESUME_CONCURRENCY) -> list[Table]:
        """After a start: re-arm timers and AI seats of the games that were running (``rows``, read
        before the bot took any interaction; default: every running game), tell each channel.
        Several games resume at once (each channel has its own Discord rate limits)."""
        gate = asyncio.Semaphore(concurrency)

        async def resume(row) -> Table | None:
            # Under the game's lock: a click that arrives meanwhile (on a button sent before the
            # restart) is applied before or after the resume, never between its load and its board.
            async with gate, self.lock(row.id):
                try:
                    table = await self._load(row.id)
                except Exception:
                    log.exception("game %s: could not be loaded", row.id)
                    return None
                try:
                    await self.delivery.notice(table, f"Admiralty restarted; game #{table.id} "
                                               f"({table.spec.title}) resumes where it stood.")
                except Exception:
                    log.exception("game %s: resume notice failed", row.id)
                await self.publish(table, [], note="resumed")
                self._after_change(table)
                return table

        if rows is None:
            rows = await self.storage.running_games()
        return [t for t in await asyncio.gather(*(resume(r) for r in rows)) if t is not None]

    async def close(self) -> None:
        self._closing = True
        tasks = list(self._timers.values()) + list(self._ai_tasks.values()) + list(self._retries.values())
        for task in tasks:
            task.cancel()
        for task in tasks:
            try:
                await task
            except BaseException:  # noqa: BLE001 - shutting down
                pass
        self._timers.clear()
        self._ai_tasks.clear()
        self._retries.clear()

    async def idle(self) -> None:
        """Wait until no AI move is pending (tests and the demo)."""
        while True:
            pending = [t for t in self._ai_tasks.values() if not t.done()]
            if not pending:
                return
            await asyncio.gather(*pending, return_exceptions=True)


class StaleBoard(UserError):
    """A click on controls of an older version of the game."""

    def __init__(self, table: Table):
        super().__init__("This board is out of date — the game has moved on. Here is the current one.")
        self.table = table

