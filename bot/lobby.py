"""The lobby: a game from `/game new` to its start, and the ways a game is closed (cancel, abandon,
a player's resignation), and a rematch of a finished game (play again).

Every operation takes the game's lock and checks the game's status under it, so two clicks that
race (Start and Cancel, Leave and Start) are applied one after the other and the loser is told why.
Only the host adds AI seats, removes seats, starts and cancels.
"""

from __future__ import annotations

import logging
import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from bot import ratings
from bot.ai_seats import DEFAULT_LEVEL, ai_name, base_name, level_of, name_phrase
from bot.clocks import bank_problem, new_clock, rematch_clock
from bot.games import GameSpec, IllegalAction, registry
from bot.games.ai import LEVELS
from bot.games.names import clean_name, markdown_name
from bot.i18n import N_, Phrase
from bot.logs import log_context
from bot.publisher import Publisher
from bot.scheduler import Scheduler
from bot.settings import TURN_TIMEOUT_MAX, TURN_TIMEOUT_MIN, turn_timeout_problem
from bot.storage import ACTIVE, SUSPENDED, ChannelBusy, GameRow, StaleVersion
from bot.summary import current_scores
from bot.tables import ChannelGone, Delivery, Table, Tables, UserError
from bot.turns import Turns, suspended

log = logging.getLogger("admiralty.lobby")

CHANNEL_BUSY = Phrase(N_("This channel already has a game. Finish it, or `/game abandon` it first."))
AI_NAMES = ["Nelson", "Villeneuve", "Gravina", "De Winter", "Decatur", "Collingwood"]


def free_ai_name(used: set[str], number: int) -> str:
    """The first admiral's name not taken by a seat named in ``used`` (whatever its AI level), else
    "AI <number>"."""
    taken = {base_name(name) for name in used}
    return next((n for n in AI_NAMES if n not in taken), f"AI {number}")


LOBBY_NOT_POSTED = Phrase(
    N_(
        "I could not post the lobby in this channel, so no game was opened. Check that I may "
        "view the channel and send messages there, then try `/game new` again."
    )
)


def closed_reason(row: GameRow) -> Phrase:
    """Why a lobby operation cannot be done on a game that is no longer in the lobby."""
    if row.status == "running":
        return Phrase(N_("The game has already started."))
    if row.status == "finished":
        return Phrase(N_("The game is over."))
    if row.state_json is None:
        return Phrase(N_("The lobby was cancelled."))
    return Phrase(N_("The game was abandoned."))


def full(table: Table) -> Phrase:
    """The refusal of a seat in a full lobby."""
    return Phrase.ngettext(
        "The game is full ({n} player).", "The game is full ({n} players).", table.spec.max_players
    )


def resign_ends_game(table: Table, seat: int) -> bool:
    """Whether the resignation of ``seat`` ends the game: two seats of a competitive game (the other
    wins), or no human player left besides it."""
    if len(table.seats) == 2 and not table.spec.extra.get("cooperative"):
        return True
    return all(s.is_ai for s in table.seats if s.seat != seat)


class Lobby:
    def __init__(
        self,
        tables: Tables,
        delivery: Delivery,
        publisher: Publisher,
        turns: Turns,
        scheduler: Scheduler,
        *,
        turn_timeout: float,
        min_turn_timeout: float = TURN_TIMEOUT_MIN,
    ) -> None:
        self.tables = tables
        self.storage = tables.storage
        self.delivery = delivery
        self.publisher = publisher
        self.turns = turns
        self.scheduler = scheduler
        self.min_turn_timeout = min_turn_timeout
        problem = turn_timeout_problem(turn_timeout, min_turn_timeout)
        if problem:
            raise ValueError(f"the default turn timeout {problem}, not {turn_timeout!r}")
        self.turn_timeout = turn_timeout

    async def check_new(
        self,
        *,
        channel_id: int,
        game_key: str,
        options: dict | None = None,
        turn_timeout: float | None = None,
        thread: bool = False,
        bank: tuple[float, float] | None = None,
    ) -> tuple[GameSpec, dict]:
        """Everything `/game new` checks before anything is made (a thread, a lobby): the game, its
        options, the turn timeout and, unless the game gets a new thread, that the channel is free.
        Returns the game's spec and its normalized options."""
        try:
            spec = registry.get(game_key)
            options = spec.normalize_options(options)
        except IllegalAction as e:  # its Phrase, said in the reader's language
            raise UserError(e.args[0] if e.args else str(e)) from None
        if turn_timeout is not None and turn_timeout < 0:
            raise UserError(Phrase(N_("The turn timeout cannot be negative.")))
        if turn_timeout is not None and turn_timeout_problem(turn_timeout, self.min_turn_timeout):
            raise UserError(
                Phrase(
                    N_("The turn timeout must be 0 (no timer) or between 30s and 30d, e.g. 30m, 12h or 2d.")
                )
            )
        if bank is not None:
            if turn_timeout:
                raise UserError(
                    Phrase(N_("A game has a time per turn or a time bank, not both: leave out turn-timeout."))
                )
            if problem := bank_problem(*bank, self.min_turn_timeout, TURN_TIMEOUT_MAX):
                raise UserError(problem)
        if not thread and await self.storage.active_game(channel_id) is not None:
            raise UserError(CHANNEL_BUSY)
        return spec, options

    async def new_game(
        self,
        *,
        guild_id: int,
        channel_id: int,
        user_id: int,
        user_name: str,
        game_key: str,
        options: dict | None = None,
        turn_timeout: float | None = None,
        thread_id: int | None = None,
        seed: int | None = None,
        bank: tuple[float, float] | None = None,
    ) -> Table:
        """A lobby. ``bank``: the game uses a time bank (starting bank, increment per move) instead of
        a time per turn."""
        spec, options = await self.check_new(
            channel_id=thread_id or channel_id,
            game_key=game_key,
            options=options,
            turn_timeout=turn_timeout,
            bank=bank,
        )
        timer = (
            None
            if bank is not None
            else (self.turn_timeout if turn_timeout is None else turn_timeout) or None
        )
        user_name = clean_name(user_name)
        try:
            game_id = await self.storage.create_game(
                guild_id=guild_id,
                channel_id=channel_id,
                thread_id=thread_id,
                game_key=spec.key,
                options=options,
                seed=seed if seed is not None else random.SystemRandom().randrange(2**31),
                host_id=user_id,
                turn_timeout=timer,
                clock=new_clock(timer, bank),
            )
        except ChannelBusy:  # another /game new won the race
            raise UserError(CHANNEL_BUSY) from None
        async with self.tables.lock(game_id), log_context(game=game_id, guild=guild_id):
            try:
                await self.storage.add_seat(game_id, user_id=user_id, is_ai=False, name=user_name)
                table = await self.tables.load(game_id)
                await self._probe(table, user_id)
                table = await self.tables.load(game_id)
                await self.delivery.lobby(table)
            except Exception:
                # Nobody could see or join a lobby that was never posted: close it, and say so.
                log.warning("game %s: the lobby could not be opened; closing it", game_id, exc_info=True)
                await self.storage.set_status(game_id, "abandoned")
                raise UserError(LOBBY_NOT_POSTED) from None
            return table

    async def _probe(self, table: Table, user_id: int) -> bool:
        seat = table.seat_of(user_id)
        intro = (
            table.spec.private_words.dm_intro
            if table.spec.has_private_view
            else N_("Turn reminders will come here.")
        )
        joined = Phrase(
            N_("You joined **{game}** (game #{id}). {intro}"),
            game=Phrase(table.spec.title),
            id=table.id,
            intro=Phrase(intro),
        )
        ok = await self.delivery.probe_dm(user_id, joined)  # said in the player's language
        if seat is not None:
            await self.storage.update_seat(table.id, seat, dm_ok=ok)
        return ok

    @asynccontextmanager
    async def _open_lobby(self, channel_id: int, game_id: int | None = None) -> AsyncIterator[Table]:
        """The game (``game_id``, else the channel's), loaded under its lock and still in the lobby."""
        if game_id is None:
            game_id = (await self.tables.in_channel(channel_id)).id
        async with self.tables.lock(game_id), log_context(game=game_id):
            table = await self.tables.load(game_id)
            if table.row.status != "lobby":
                raise UserError(closed_reason(table.row))
            yield table

    async def join(
        self, channel_id: int, user_id: int, user_name: str, *, game_id: int | None = None
    ) -> tuple[Table, bool]:
        if game_id is None:
            game_id = (await self.tables.in_channel(channel_id)).id
        user_name = clean_name(user_name)
        async with self.tables.lock(game_id), log_context(game=game_id):
            table = await self.tables.load(game_id)
            if table.row.status == "running":
                return await self._reclaim(table, user_id, user_name)
            if table.row.status != "lobby":
                raise UserError(closed_reason(table.row))
            if table.seat_of(user_id) is not None:
                raise UserError(Phrase(N_("You are already in this game.")))
            if len(table.seats) >= table.spec.max_players:
                raise UserError(full(table))
            await self.storage.add_seat(table.id, user_id=user_id, is_ai=False, name=user_name)
            table = await self.tables.load(table.id)
            ok = await self._probe(table, user_id)
            table = await self.tables.load(table.id)
            await self.delivery.lobby(table, Phrase(N_("{name} joined."), name=markdown_name(user_name)))
            return table, ok

    async def _reclaim(self, table: Table, user_id: int, user_name: str) -> tuple[Table, bool]:
        """A player whose seat an AI took over (missed turns) takes it back. Called under the lock,
        with ``table`` loaded under it and running."""
        seat = next((s.seat for s in table.seats if s.user_id == user_id and s.is_ai), None)
        if seat is None:
            if table.seat_of(user_id) is not None:
                raise UserError(Phrase(N_("You are already playing in this game.")))
            raise UserError(Phrase(N_("The game in this channel has already started.")))
        if any(r.action.get("user_id") == user_id for r in await self.storage.resigned(table.id)):
            raise UserError(
                Phrase(N_("You resigned from game #{id}; an AI plays your seat to the end."), id=table.id)
            )
        paused = table.deserted  # nobody was left: the game waited for a player to come back
        await self.storage.update_seat(table.id, seat, is_ai=False, name=user_name, missed=0)
        table = await self.tables.load(table.id)
        if table.row.status != "running":  # abandoned in another process a moment before
            raise UserError(closed_reason(table.row))
        if paused:  # its deadline was when it would be abandoned: now the turn's, if the turn is theirs
            clock = self.turns.clock_for(table)
            await self.storage.set_deadline(
                table.id,
                clock.deadline() if clock is not None else self.turns.deadline_for(table, None),
                clock=None if clock is None else clock.to_json(),
            )
            table = await self.tables.load(table.id)
        ok = await self._probe(table, user_id)
        table = await self.tables.load(table.id)
        await self.storage.add_log(
            table.id,
            Phrase(
                N_("{name} is back and takes their seat again from the AI; the game goes on."),
                name=markdown_name(user_name),
            )
            if paused
            else Phrase(
                N_("{name} is back and takes their seat again from the AI."), name=markdown_name(user_name)
            ),
        )
        self.scheduler.after_change(table)
        await self.publisher.publish(table, [])
        return table, ok

    async def leave(self, channel_id: int, user_id: int, *, game_id: int | None = None) -> Table:
        async with self._open_lobby(channel_id, game_id) as table:
            seat = table.seat_of(user_id)
            if seat is None:
                raise UserError(Phrase(N_("You are not in this game.")))
            if user_id == table.row.host_id:
                raise UserError(
                    Phrase(N_("You are the host: use Cancel (or `/game abandon`) to close the lobby."))
                )
            name = table.seat_row(seat).name
            await self.storage.remove_seat(table.id, seat)
            table = await self.tables.load(table.id)
            await self.delivery.lobby(table, Phrase(N_("{name} left."), name=markdown_name(name)))
            return table

    async def add_ai(
        self, channel_id: int, user_id: int, *, game_id: int | None = None, level: str = DEFAULT_LEVEL
    ) -> Table:
        """The host adds an AI seat at ``level`` (easy, normal or hard): "Nelson (AI, hard)"."""
        if level not in LEVELS:
            raise UserError(Phrase(N_("An AI's level is easy, normal or hard.")))
        async with self._open_lobby(channel_id, game_id) as table:
            self._may_add_ai(table, user_id)
            name = ai_name(free_ai_name({s.name for s in table.seats}, len(table.seats) + 1), level)
            await self.storage.add_seat(table.id, user_id=None, is_ai=True, name=name, ai_level=level)
            table = await self.tables.load(table.id)
            await self.delivery.lobby(
                table, Phrase(N_("{name} takes a seat."), name=name_phrase(name, markdown=True))
            )
            return table

    async def check_add_ai(self, channel_id: int, user_id: int, *, game_id: int | None = None) -> Table:
        """Whether ``user_id`` may add an AI seat now (before asking them its level): the table, else
        UserError saying why not."""
        async with self._open_lobby(channel_id, game_id) as table:
            self._may_add_ai(table, user_id)
            return table

    @staticmethod
    def _may_add_ai(table: Table, user_id: int) -> None:
        if user_id != table.row.host_id:
            raise UserError(Phrase(N_("Only the host can add AI seats.")))
        if len(table.seats) >= table.spec.max_players:
            raise UserError(full(table))

    async def kick(
        self,
        channel_id: int,
        user_id: int,
        *,
        player_id: int | None = None,
        ai_name: str | None = None,
        game_id: int | None = None,
    ) -> tuple[Table, str]:
        """The host removes a player (``player_id``) or an AI seat (``ai_name``, with or without its
        " (AI, level)") from the lobby; returns the table and the removed seat's name."""
        async with self._open_lobby(channel_id, game_id) as table:
            if user_id != table.row.host_id:
                raise UserError(Phrase(N_("Only the host can remove seats from the lobby.")))
            if (player_id is None) == (not ai_name):
                raise UserError(Phrase(N_("Name one player or one AI seat to remove.")))
            if player_id is not None:
                if player_id == table.row.host_id:
                    raise UserError(
                        Phrase(
                            N_(
                                "You cannot remove yourself: use Cancel (or `/game abandon`) to close the lobby."
                            )
                        )
                    )
                seat = table.seat_of(player_id)
                if seat is None:
                    raise UserError(Phrase(N_("That member is not in this lobby.")))
            else:
                assert ai_name  # checked above: exactly one of player_id and ai_name
                wanted = ai_name.strip().casefold()
                seat = next(
                    (
                        s.seat
                        for s in table.seats
                        if s.is_ai and wanted in (s.name.casefold(), base_name(s.name).casefold())
                    ),
                    None,
                )
                if seat is None:
                    raise UserError(
                        Phrase(
                            N_("There is no AI seat named {name} in this lobby."), name=repr(ai_name.strip())
                        )
                    )
            name = table.seat_row(seat).name
            await self.storage.remove_seat(table.id, seat)
            table = await self.tables.load(table.id)
            await self.delivery.lobby(
                table, Phrase(N_("{name} was removed by the host."), name=name_phrase(name, markdown=True))
            )
            return table, name

    async def start(self, channel_id: int, user_id: int, *, game_id: int | None = None) -> Table:
        async with self._open_lobby(channel_id, game_id) as table:
            if user_id != table.row.host_id:
                raise UserError(Phrase(N_("Only the host can start the game.")))
            spec = table.spec
            n = len(table.seats)
            if n < spec.min_players:
                raise UserError(
                    Phrase.ngettext(
                        "{game} needs at least {n} player; {joined} joined. Invite someone or add an AI seat.",
                        "{game} needs at least {n} players; {joined} joined. Invite someone or add an AI seat.",
                        spec.min_players,
                        game=spec.title,
                        joined=n,
                    )
                )
            try:
                game = spec.new(players=n, options=table.row.options, seed=table.row.seed)
            except IllegalAction as e:  # its Phrase, said in the reader's language
                raise UserError(e.args[0] if e.args else str(e)) from None
            table.game = game
            clock = self.turns.clock_for(table)
            if clock is not None:  # a player on vacation: their clock waits for its end
                now = self.turns.clock()
                humans = {s.user_id: s.seat for s in table.seats if s.user_id is not None and not s.is_ai}
                for user_id, until in (await self.storage.away_until(list(humans), now)).items():
                    clock = clock.vacation(humans[user_id], until, now)
            deadline = clock.deadline() if clock is not None else self.turns.deadline_for(table, None)
            await self.storage.start_game(
                table.id,
                game.to_json(),
                deadline=deadline,
                ai_due=self.turns.ai_due(table),
                clock=None if clock is None else clock.to_json(),
            )
            self.tables.cache(table.id, game, 0)
            table = await self.tables.load(table.id)
            await self.delivery.lobby_closed(table, Phrase(N_("The game has started.")))
            begins = Phrase(N_("{game} begins."), game=Phrase(spec.title))  # in each reader's language
            await self.storage.add_log(table.id, begins)
            await self.publisher.publish(table, [{"type": "start", "text": begins}])
            self.scheduler.after_change(table, armed=True)
            return table

    async def cancel(self, channel_id: int, user_id: int, *, game_id: int | None = None) -> Table:
        async with self._open_lobby(channel_id, game_id) as table:
            if user_id != table.row.host_id:
                raise UserError(Phrase(N_("Only the host can cancel the lobby.")))
            await self.storage.set_status(table.id, "abandoned")
            table = await self.tables.load(table.id)
            await self.delivery.lobby_closed(table, Phrase(N_("The lobby was cancelled.")))
            return table

    async def abandon(
        self,
        channel_id: int,
        user_id: int,
        *,
        is_admin: bool,
        game_id: int | None = None,
        guild_id: int | None = None,
    ) -> Table:
        """Abandon the game of ``channel_id``, or game ``game_id`` of server ``guild_id`` (a suspended
        game, whose channel is gone, or any other of the server's active games). Works on games this
        bot can no longer play (an unknown game type) too."""
        if game_id is None:
            row = await self.storage.active_game(channel_id)
            if row is None:
                raise UserError(Phrase(N_("There is no game in this channel. Start one with `/game new`.")))
        else:
            row = await self.storage.get_game(game_id)
            if row is None or row.guild_id is None or row.guild_id != guild_id:
                raise UserError(
                    Phrase(N_("There is no game #{id} in this server; `/game list` shows them."), id=game_id)
                )
        if user_id != row.host_id and not is_admin:
            raise UserError(Phrase(N_("Only the host or someone with Manage Server can abandon the game.")))
        async with self.tables.lock(row.id), log_context(game=row.id, guild=row.guild_id):
            table = await self.tables.load(row.id, unavailable_ok=True)
            was = table.row.status
            if was not in ("lobby", "running", SUSPENDED):
                raise UserError(
                    Phrase(N_("Game #{id} is already over."), id=table.id)
                    if was == "finished"
                    else Phrase(N_("Game #{id} was already abandoned."), id=table.id)
                )
            self.scheduler.cancel(table.id)
            await self.storage.set_status(table.id, "abandoned")
            table = await self.tables.load(table.id, unavailable_ok=True)
            text = Phrase(N_("Game #{id} ({title}) was abandoned."), id=table.id, title=Phrase(table.title))
            try:
                if table.game is None and table.unavailable is None:
                    await self.delivery.lobby_closed(table, Phrase(N_("The lobby was closed.")))
                else:
                    await self.delivery.ended(table, text)
                if was != SUSPENDED:
                    await self.delivery.notice(table, text)
            except ChannelGone:
                pass  # its channel was deleted: nobody to tell there
            self.tables.forget(table.id)
            return table

    # ---------------------------------------------------------------- resign
    def _resigning_seat(self, table: Table, user_id: int) -> int:
        """The seat ``user_id`` would resign from ``table``; a UserError saying why not otherwise."""
        status = table.row.status
        if status == "lobby":
            raise UserError(
                Phrase(N_("The game has not started yet: leave the lobby with **Leave** or `/game leave`."))
            )
        if status == SUSPENDED:
            raise UserError(suspended(table.id))
        if status != "running" or table.over:
            raise UserError(Phrase(N_("Game #{id} is already over."), id=table.id))
        seat = table.seat_of(user_id)
        if seat is None:
            if any(s.user_id == user_id for s in table.seats):
                raise UserError(
                    Phrase(N_("You have already left game #{id}; an AI plays your seat."), id=table.id)
                )
            raise UserError(
                Phrase(N_("You are not playing in game #{id}; only its players can resign."), id=table.id)
            )
        return seat

    async def resign_check(self, channel_id: int, user_id: int) -> tuple[Table, bool]:
        """The game ``user_id`` would resign from in ``channel_id`` and whether that would end it (for the
        confirm step); refuses as :meth:`resign` would."""
        table = await self.tables.in_channel(channel_id)
        return table, resign_ends_game(table, self._resigning_seat(table, user_id))

    async def _record_resign(self, table: Table, **kwargs) -> int:
        """``Storage.record_resign``; should another process have moved the game first (StaleVersion),
        nothing is written and the player is told to look again."""
        try:
            return await self.storage.record_resign(table.id, **kwargs)
        except StaleVersion:
            self.tables.forget(table.id)
            raise UserError(
                Phrase(
                    N_(
                        "The game moved on meanwhile; nothing was changed. Look at the table and resign again "
                        "if you still want to."
                    )
                )
            ) from None

    async def resign(self, game_id: int, user_id: int) -> Table:
        """``user_id`` leaves running game ``game_id`` for good.

        Two seats (a competitive game): the other seat wins at once; the game is stored as finished
        with that result (the scores its view shows, ``resigned``), its engine state unchanged. More
        seats, or a cooperative game: an AI takes the seat ("<name> (AI)") and play goes on; when no
        human is left, the game ends (a cooperative crew that gives up wins nothing; otherwise the
        seats left share the win). Either way the resignation is a host row of the action log."""
        async with self.tables.lock(game_id):
            table = await self.tables.load(game_id)
            seat = self._resigning_seat(table, user_id)
            name = table.seat_row(seat).name
            game = table.engine  # running: _resigning_seat refused any other status
            coop = bool(table.spec.extra.get("cooperative"))
            others = [s.seat for s in table.seats if s.seat != seat]
            humans_left = [s for s in others if not table.seat_row(s).is_ai]
            action = {"host": "resign", "name": name, "user_id": user_id}
            result: dict[str, Any] | None = None
            if resign_ends_game(table, seat) and len(others) == 1 and not coop:
                result = {"winners": others}
                text = f"🏳️ {markdown_name(name)} resigned; {table.shown_name(others[0])} wins."
            elif resign_ends_game(table, seat):
                result = {"winners": [] if coop else others}
                text = f"🏳️ {markdown_name(name)} resigned; no player is left, so the game ends."
            else:
                text = f"🏳️ {markdown_name(name)} resigned; an AI takes their seat and the game goes on."
            if result is not None:
                scores = current_scores(game)
                if scores:
                    result["scores"] = scores
                result.update(resigned=[seat], reason=f"{name} resigned")
                version = await self._record_resign(
                    table, expected_version=table.version, seat=seat, action=action, result=result
                )
                await ratings.rate_game(self.storage, table.id)
            else:
                # The clock keeps running only for the humans who were already to act.
                waiting = [s for s in game.to_act() if s in humans_left]
                version = await self._record_resign(
                    table,
                    expected_version=table.version,
                    seat=seat,
                    action=action,
                    ai_name=f"{name} (AI)",
                    deadline=table.row.deadline if waiting else None,
                )
            self.tables.cache(table.id, game, version)
            table = await self.tables.load(table.id)
            if not await self.publisher.publish(table, [{"type": "resign", "seat": seat, "text": text}]):
                table = await self.tables.load(table.id)  # it may have been suspended meanwhile
            self.scheduler.after_change(table)
            return table

    # ------------------------------------------------------------ play again
    async def play_again(self, game_id: int, user_id: int, user_name: str) -> Table:
        """A new lobby for a rematch of finished game ``game_id``, opened by one of its players (its
        host): same place, game, options and turn timer, the same seats in the same order (every
        player seated again, even one an AI replaced; AI seats added again), so the host only has to
        press Start."""
        user_name = clean_name(user_name)
        old = await self.tables.load(game_id, unavailable_ok=True)
        if old.unavailable is not None:
            raise UserError(
                Phrase(N_("Game #{id} cannot be played again: {reason}."), id=game_id, reason=old.unavailable)
            )
        if old.row.status in ACTIVE:
            raise UserError(Phrase(N_("Game #{id} is not over yet."), id=game_id))
        if old.row.status != "finished":
            raise UserError(
                Phrase(N_("Game #{id} did not finish; open a new game with `/game new`."), id=game_id)
            )
        if not any(s.user_id == user_id for s in old.seats):
            raise UserError(
                Phrase(
                    N_(
                        "Only the players of game #{id} can play it again; open your own game with `/game new`."
                    ),
                    id=game_id,
                )
            )
        busy = await self.storage.active_game(old.channel_id)
        if busy is not None:
            raise UserError(
                Phrase(
                    N_("This channel already has a game (#{id}). Finish it, or `/game abandon` it first."),
                    id=busy.id,
                )
            )
        row = old.row
        try:
            new_id = await self.storage.create_game(
                guild_id=row.guild_id,
                channel_id=row.channel_id,
                thread_id=row.thread_id,
                game_key=row.game_key,
                options=row.options,
                seed=random.SystemRandom().randrange(2**31),
                host_id=user_id,
                turn_timeout=row.turn_timeout,
                clock=rematch_clock(row.clock),
            )
        except ChannelBusy:  # another click won the race
            raise UserError(CHANNEL_BUSY) from None
        used: set[str] = set()
        humans: list[int] = []
        for s in sorted(old.seats, key=lambda s: s.seat):
            level: str | None = None
            if s.user_id == user_id:
                name, uid, ai = user_name, user_id, False
            elif s.user_id is None:  # an AI seat: an AI again, at the same level
                level = level_of(s.ai_level)
                name, uid, ai = ai_name(free_ai_name(used, s.seat + 1), level), None, True
            else:  # a player, even one an AI replaced (resigned, or missed turns): seated again
                name, uid, ai = base_name(s.name) if s.is_ai else s.name, s.user_id, False
            used.add(name)
            await self.storage.add_seat(new_id, user_id=uid, is_ai=ai, name=name, ai_level=level)
            if uid is not None:  # a human seat
                humans.append(uid)
        table = await self.tables.load(new_id)
        for uid in humans:
            text = (
                Phrase(N_("You joined **{game}** (game #{id})."), game=Phrase(table.spec.title), id=new_id)
                if uid == user_id
                else Phrase(
                    N_(
                        "{name} opened a rematch of game #{old} (**{game}**, game #{id}) in {channel} and "
                        "seated you; the host starts it, or leave with **Leave**."
                    ),
                    name=markdown_name(user_name),
                    old=game_id,
                    game=Phrase(table.spec.title),
                    id=new_id,
                    channel=f"<#{table.channel_id}>",
                )
            )
            ok = await self.delivery.probe_dm(uid, text)
            seat = table.seat_of(uid)
            assert seat is not None  # seated just above
            await self.storage.update_seat(new_id, seat, dm_ok=ok)
        table = await self.tables.load(new_id)
        try:
            await self.delivery.lobby(
                table,
                Phrase(
                    N_("Rematch of game #{id}: the same players are seated; {name} (the host) starts it."),
                    id=game_id,
                    name=markdown_name(user_name),
                ),
            )
        except ChannelGone:
            await self.storage.set_status(new_id, "abandoned")
            raise UserError(Phrase(N_("The channel of game #{id} no longer exists."), id=game_id)) from None
        return table
