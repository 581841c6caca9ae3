"""What a game is to the host: its row, seats and engine (a :class:`Table`), and where tables come from.

:class:`Tables` loads a game from storage, keeps the engine of a running game cached (used only
while its version equals the stored one) and hands out the per-game lock under which every change
is made. The lock is this process's: other processes (one PostgreSQL database) are kept apart by the
version compare-and-set of every commit, and an engine cached here is used only while its version is
the stored one. The other host modules (lobby, turns, scheduler, publisher) all go through it.
"""

from __future__ import annotations

import asyncio
import logging
import marshal
from dataclasses import dataclass, field
from typing import Any, Protocol

from bot import menus, metrics
from bot.ai_seats import name_phrase, said_name
from bot.games import Game, GameSpec, registry
from bot.games.names import markdown_name
from bot.games.phrase import ENGLISH, N_, Phrase, Voice
from bot.storage import SUSPENDED, GameRow, SeatRow, Storage

log = logging.getLogger("admiralty.tables")


class UserError(Exception):
    """A request that cannot be honoured; the text is shown to the user."""


class GameUnavailable(UserError):
    """A game this bot cannot play (its game type is no longer installed, or its snapshot cannot be
    read). It can still be listed and abandoned (``Tables.load(..., unavailable_ok=True)``)."""

    def __init__(self, row: GameRow, reason: str):
        text: Phrase
        if row.status in ("lobby", "running", SUSPENDED):
            text = Phrase(
                N_(
                    "Game #{id} cannot be played: {reason}. The host or someone with Manage Server can "
                    "clear it with `/game abandon`."
                ),
                id=row.id,
                reason=reason,
            )
        else:
            text = Phrase(N_("Game #{id} is over, and {reason}."), id=row.id, reason=reason)
        super().__init__(text)
        self.row = row
        self.reason = reason


class ChannelGone(Exception):
    """Raised by a :class:`Delivery` when the game's channel (or thread) no longer exists
    (Discord's Unknown Channel). The host then suspends the game."""

    def __init__(self, game_id: int, channel_id: int):
        super().__init__(f"game {game_id}: channel {channel_id} no longer exists")
        self.game_id = game_id
        self.channel_id = channel_id


@dataclass
class Table:
    """A game as the host sees it: its row, its seats and (once started) the engine."""

    row: GameRow
    seats: list[SeatRow]
    game: Game | None = None
    # Why this game cannot be played (only on tables loaded with ``unavailable_ok``); None: it can.
    unavailable: str | None = None
    # The last public lines of its log, read with the row (``Tables.load(log_lines=n)``); None: not read.
    log: list[str] | None = None
    # Its stored messages (kind → (channel id, message id)), read with the row (``Tables.load(messages=
    # True)``: what a publish starts from); None: not read.
    messages: dict[str, tuple[int, int]] | None = None

    @property
    def id(self) -> int:
        return self.row.id

    @property
    def engine(self) -> Game:
        """The engine, for code that runs only on a started game (:meth:`Turns.check_player` and the
        host's callers check that it started): a lobby, or a game this bot cannot play, has none."""
        if self.game is None:
            raise RuntimeError(f"game {self.id} has no engine (status {self.row.status})")
        return self.game

    @property
    def spec(self) -> GameSpec:
        return registry.get(self.row.game_key)

    @property
    def title(self) -> str:
        """The game's title, or its key when this bot no longer has that game."""
        return self.spec.title if self.row.game_key in registry else self.row.game_key

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

    def check_place(self, channel_id: int | None, user_id: int, *, dm: bool) -> None:
        """Refuse controls of this game used elsewhere than its channel (or thread), or than the DMs
        of one of its players: a custom id names a game, and a forged one could name any."""
        if dm:
            if not any(s.user_id == user_id for s in self.seats):
                raise UserError(Phrase(N_("You are not playing in this game.")))
        elif channel_id not in (self.channel_id, self.row.channel_id):  # its thread, or the lobby's channel
            raise UserError(
                Phrase(N_("Those controls belong to a game in another channel; they do nothing here."))
            )

    def seat_row(self, seat: int) -> SeatRow:
        """The row of seat number ``seat``; a seat the game does not have raises KeyError (not the
        StopIteration of a bare ``next``, which a coroutine turns into an unexplained RuntimeError)."""
        for row in self.seats:
            if row.seat == seat:
                return row
        raise KeyError(f"game {self.id} has no seat {seat!r}")

    def names(self, speaker: Voice = ENGLISH) -> list[str]:
        """The seats' names as typed (for images, button and select labels, text boards), an AI seat's
        level in the language of ``speaker`` (bot/ai_seats.py)."""
        return [said_name(s.name, speaker) for s in sorted(self.seats, key=lambda s: s.seat)]

    def shown_name(self, seat: int, speaker: Voice = ENGLISH) -> str:
        """The seat's name as Discord markdown shows it: escaped (no formatting, link or mention), an AI
        seat's level in the language of ``speaker``."""
        return markdown_name(said_name(self.seat_row(seat).name, speaker))

    def name_phrase(self, seat: int) -> str:
        """The seat's escaped name for a :class:`Phrase` made before its reader is known (a lobby note,
        a log line): an AI seat's level said in each reader's language (bot/ai_seats.py)."""
        return name_phrase(self.seat_row(seat).name, markdown=True)

    @property
    def over(self) -> bool:
        """The game ended: its engine says so, or it was finished without it (a player resigned)."""
        return self.row.status == "finished" or (self.game is not None and self.game.is_over)

    @property
    def result(self) -> dict | None:
        """The stored result (the engine's, or the one a resignation set), else the engine's."""
        if self.row.result is not None:
            return self.row.result
        return self.game.result if self.game is not None and self.game.is_over else None

    @property
    def deserted(self) -> bool:
        """A running game with no human player left: every seat was handed to the AI (missed turns).
        It is paused (its AI seats do not play it out alone) until a player takes their seat back with
        `/game join`; its deadline is then when it is abandoned (``Scheduler``)."""
        return (
            self.row.status == "running"
            and self.game is not None
            and not self.over
            and bool(self.seats)
            and all(s.is_ai for s in self.seats)
        )

    def human_to_act(self) -> list[int]:
        if self.game is None or self.over:
            return []
        return [s for s in self.game.to_act() if not self.seat_row(s).is_ai]


class StaleBoard(UserError):
    """A click on controls of an older version of the game."""

    def __init__(self, table: Table):
        super().__init__(
            Phrase(N_("This board is out of date — the game has moved on. Here is the current one."))
        )
        self.table = table


@dataclass
class Outcome:
    """What a choice led to: an applied action (events) or the next menu level."""

    table: Table
    events: list[dict] = field(default_factory=list)
    applied: str | None = None  # label of the action applied
    level: menus.Level | None = None
    seat: int | None = None
    # Resolves once the table shows this outcome (an applied action: its publish is done).
    published: asyncio.Future | None = None
    # The game's version right after an applied action (None: nothing applied).
    version: int | None = None

    async def shown(self) -> bool:
        """Wait until the publish that shows this outcome is done (True: delivered). The move was
        committed already; it is shown outside the game's lock, by the publisher."""
        if self.published is None:
            return True
        return await asyncio.shield(self.published)


class Successor(Protocol):
    """The next publish of a game, as the one in flight sees it. Once a newer change waits
    (:meth:`waiting`), it is shown right after this publish: the table, which only shows the state,
    may be left to it (not when a click waits for it)."""

    def waiting(self) -> bool: ...


class Delivery(Protocol):
    """How the host shows games. A method that finds the game's channel (or thread) deleted raises
    :class:`ChannelGone`; other failures raise whatever they raise (the publisher retries)."""

    async def lobby(self, table: Table, note: str = "") -> None: ...
    async def lobby_closed(self, table: Table, text: str) -> None: ...
    # ``actors``: the seats whose actions this publish shows, each once, in order; ``vias``: the clicks
    # that asked for it, newest last (opaque to the host: the delivery may answer through them). One
    # publish may cover several actions (those made while the one before was being shown), and none (a
    # retry, a catch-up): always tuples, never a bare seat. ``successor``: the publish that follows, once
    # a newer change of the game waits to be shown (see Successor).
    async def publish(
        self,
        table: Table,
        events: list[dict],
        note: str = "",
        actors: tuple[int, ...] = (),
        vias: tuple[object, ...] = (),
        successor: Successor | None = None,
    ) -> None: ...
    async def notice(self, table: Table, text: str) -> None: ...
    async def ended(self, table: Table, text: str) -> None: ...
    async def remind(self, table: Table, seats: list[int], seconds_left: float) -> None: ...
    async def probe_dm(self, user_id: int, text: str) -> bool: ...
    # Optional: ask the ``needed`` seats to accept or decline undoing ``seat``'s last move at ``version``,
    # with ``text`` (built by bot.undo, public); without it the host posts ``text`` as a notice.
    async def undo_request(
        self, table: Table, seat: int, version: int, needed: list[int], text: str
    ) -> None: ...


class NullDelivery:
    """Delivers nothing; records what it was asked (for tests and the demo)."""

    def __init__(self) -> None:
        self.calls: list[tuple] = []

    async def lobby(self, table, note=""):
        self.calls.append(("lobby", table.id, note))

    async def lobby_closed(self, table, text):
        self.calls.append(("lobby_closed", table.id, text))

    async def publish(self, table, events, note="", actors=(), vias=(), successor=None):
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

    async def undo_request(self, table, seat, version, needed, text):
        self.calls.append(("undo_request", table.id, seat, version, tuple(needed), text))


class Tables:
    """Loads tables, caches running engines by version, and holds one lock per game."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self._locks: dict[int, asyncio.Lock] = {}
        self._games: dict[int, Game] = {}
        self._versions: dict[int, int] = {}  # version of each cached engine
        # each cached engine's position when it was cached (its version as stored): the state's marshal
        # bytes and the generator's state, from which the publisher's engines are copied
        self._positions: dict[int, tuple[bytes, tuple]] = {}

    def lock(self, game_id: int) -> asyncio.Lock:
        return self._locks.setdefault(game_id, asyncio.Lock())

    async def load(
        self,
        game_id: int,
        *,
        unavailable_ok: bool = False,
        fresh: bool = False,
        log_lines: int = 0,
        messages: bool = False,
        moves: bool = False,
    ) -> Table:
        """The game ``game_id``. A game this bot cannot play raises :class:`GameUnavailable`, or with
        ``unavailable_ok`` comes without an engine and with ``Table.unavailable`` saying why.
        ``fresh``: an engine of its own, built from the stored snapshot and not cached (what the
        publisher draws, outside the lock, while a move may be applied to the cached one). ``log_lines``:
        the last that many public lines of its log come too (``Table.log``), and with ``messages`` its
        stored messages (``Table.messages``), in the same query; the move number (``row.moves``) comes with
        these, and with ``moves``."""
        if not 0 < game_id < 2**63:  # beyond SQLite's integers: no such game
            raise UserError(Phrase(N_("That game no longer exists.")))
        loaded: tuple[Any, ...] | None  # (row, seats), then the log, then the messages, as asked
        if messages:
            loaded = await self.storage.load_table_view(game_id, log_lines)  # row, seats, log, messages
        elif log_lines:
            loaded = await self.storage.load_table_log(game_id, log_lines)  # row, seats and log: one query
        else:
            loaded = await self.storage.load_table(game_id, moves=moves)  # the row and its seats: one query
        if loaded is None:
            raise UserError(Phrase(N_("That game no longer exists.")))
        more: list[Any]
        row, seats, *more = loaded
        table = Table(row, seats, log=more[0] if more else None, messages=more[1] if len(more) > 1 else None)
        if row.game_key not in registry:
            reason = Phrase(N_("this bot no longer has its game type ({key})"), key=repr(row.game_key))
            if not unavailable_ok:
                raise GameUnavailable(row, reason)
            table.unavailable = reason
            return table
        if row.state_json:
            game = None if fresh else self._games.get(game_id)
            if game is None or self._versions.get(game_id) != row.version:
                try:
                    with metrics.cpu("engine"):
                        game = self._copy_of_cached(game_id, row.version, row.state_json) if fresh else None
                        if game is None:
                            game = registry.get(row.game_key).from_json(row.state_json)
                            if fresh:
                                menus.same_as(game, row.state_json, read_only=True)
                except Exception:
                    if not unavailable_ok:
                        raise
                    log.exception("game %s: its snapshot cannot be read", game_id)
                    table.unavailable = Phrase(N_("its saved state cannot be read"))
                    return table
                if not fresh:
                    self.cache(game_id, game, row.version, row.state_json)
            table.game = game
        return table

    def cache(self, game_id: int, game: Game, version: int, snapshot: str | None = None) -> None:
        """Keep ``game`` as the engine of ``game_id`` at ``version``, as it stands now: the stored
        position of that version. ``snapshot``: its stored text, when at hand (its menus are those of
        every engine of that snapshot: ``menus.same_as``)."""
        # The state is marshalled once a version: the publisher's copies and the menus' digest share it.
        state = marshal.dumps(game.state, 2)
        self._games[game_id] = game
        self._versions[game_id] = version
        self._positions[game_id] = (state, game.rng.getstate())
        if snapshot is not None:
            menus.same_as(game, snapshot, state=state)

    def _copy_of_cached(self, game_id: int, version: int, snapshot: str) -> Game | None:
        """An engine of its own in the position of ``version`` (its stored ``snapshot``) when the cached
        engine is of that version, else None: copied from the position kept when it was cached (no
        parse of the stored JSON), so that a move being applied to the cached engine meanwhile (it is
        ahead of its version until committed), or its generator moved, is not in the copy."""
        game = self._games.get(game_id)
        position = self._positions.get(game_id)
        if game is None or position is None or self._versions.get(game_id) != version:
            return None
        copy = game.copy(position)
        menus.same_as(copy, snapshot, state=position[0], read_only=True)  # (the publisher only reads it)
        menus.share_trees(copy, game)  # (the clicks on the cached engine find the trees the publish built)
        return copy

    def cached_version(self, game_id: int) -> int | None:
        """The version of the cached engine (the stored one right after a change under the lock)."""
        return self._versions.get(game_id)

    def forget(self, game_id: int) -> None:
        """Drop the cached engine (a finished or abandoned game, or one whose commit failed)."""
        self._games.pop(game_id, None)
        self._versions.pop(game_id, None)
        self._positions.pop(game_id, None)

    async def in_channel(self, channel_id: int) -> Table:
        row = await self.storage.active_game(channel_id)
        if row is None:
            raise UserError(Phrase(N_("There is no game in this channel. Start one with `/game new`.")))
        return await self.load(row.id)
