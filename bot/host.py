"""The game host: one object that cogs, the demo and tests talk to, wired from one module a job.

- :mod:`bot.tables`: loading a game, the cached engine, the per-game lock (and ``UserError``);
- :mod:`bot.lobby`: `/game new`, join, leave, AI seats, removing seats, start, cancel, abandon, resign,
  play again;
- :mod:`bot.turns`: menus, choices and the one path of every action (apply → commit → publish);
- :mod:`bot.scheduler`: AI seats' moves and turn timers;
- :mod:`bot.undo`: undo by agreement (a request, the other players' answers, the undo itself);
- :mod:`bot.publisher`: showing the game, with retries when Discord does not take it.

The host knows nothing of Discord. It talks to the outside through a
:class:`Delivery` (the Discord one lives in ``bot/delivery/``; tests and the
demo use recording ones). Every method that a user triggers raises
:class:`UserError` with a sentence to show them (ephemerally) when the request
cannot be honoured; the game is then exactly as it was.
"""

from __future__ import annotations

import logging
import time

from bot import ratings
from bot.games import registry
from bot.games.phrase import N_, Phrase
from bot.lobby import AI_NAMES, CHANNEL_BUSY, Lobby
from bot.publisher import Publisher
from bot.scheduler import LEASE, MISSED_TURNS_LIMIT, POLL, SWEEP, Scheduler
from bot.settings import ABANDON_AFTER_DEFAULT, TURN_TIMEOUT_MIN
from bot.storage import ACTIVE, SUSPENDED, GameRow, Storage, loglines
from bot.tables import (
    Delivery,
    NullDelivery,
    Outcome,
    StaleBoard,
    Table,
    Tables,
    UserError,
)
from bot.thinking import Thinking
from bot.timekeeper import Timekeeper
from bot.turns import Turns
from bot.undo import Undo

__all__ = [
    "AI_NAMES",
    "CHANNEL_BUSY",
    "MISSED_TURNS_LIMIT",
    "Delivery",
    "Host",
    "NullDelivery",
    "Outcome",
    "StaleBoard",
    "Table",
    "UserError",
]

log = logging.getLogger("admiralty.host")

# stored as data (bot/storage/loglines.py): each reader reads it in their language
RESUMED_NOTE = loglines.stored(Phrase(N_("Admiralty restarted; the game resumes where it stood.")))


class Host:
    def __init__(
        self,
        storage: Storage,
        delivery: Delivery | None = None,
        *,
        turn_timeout: float = 0.0,
        ai_delay: float = 1.0,
        clock=time.time,
        min_turn_timeout: float = TURN_TIMEOUT_MIN,
        job_lease: float = LEASE,
        job_poll: float = POLL,
        job_sweep: float = SWEEP,
        owner: str | None = None,
        abandon_after: float = ABANDON_AFTER_DEFAULT,
        thinking: Thinking | None = None,
    ) -> None:
        self.storage = storage
        self.delivery: Delivery = delivery or NullDelivery()
        self.tables = Tables(storage)
        self.publisher = Publisher(self.tables, self.delivery)
        self.turns = Turns(self.tables, self.publisher, clock=clock)
        self.turns.ai_delay = ai_delay
        self.scheduler = Scheduler(
            self.tables,
            self.turns,
            self.delivery,
            ai_delay=ai_delay,
            clock=clock,
            lease=job_lease,
            poll=job_poll,
            sweep=job_sweep,
            owner=owner,
            abandon_after=abandon_after,
            thinking=thinking,  # (the caller starts and closes it; None: a thread of this process)
        )
        self.turns.after_change = self.scheduler.after_change
        self.publisher.on_suspend = self.scheduler.cancel
        self.lobby = Lobby(
            self.tables,
            self.delivery,
            self.publisher,
            self.turns,
            self.scheduler,
            turn_timeout=turn_timeout,
            min_turn_timeout=min_turn_timeout,
        )
        # The operations the cogs call, each owned by one module.
        self.lock = self.tables.lock
        self.table = self.tables.load
        self.table_in = self.tables.in_channel
        self.check_new = self.lobby.check_new
        self.new_game = self.lobby.new_game
        self.join = self.lobby.join
        self.leave = self.lobby.leave
        self.add_ai = self.lobby.add_ai
        self.check_add_ai = self.lobby.check_add_ai
        self.kick = self.lobby.kick
        self.start = self.lobby.start
        self.cancel = self.lobby.cancel
        self.abandon = self.lobby.abandon
        self.resign_check = self.lobby.resign_check
        self.resign = self.lobby.resign
        self.play_again = self.lobby.play_again
        self.menu = self.turns.menu
        self.choose = self.turns.choose
        self.act = self.turns.act
        self.publish = self.publisher.publish
        self.undo = Undo(self.tables, self.delivery, self.publisher, self.turns, self.scheduler, clock=clock)
        self.undo_request = self.undo.request
        self.undo_answer = self.undo.answer
        self.idle = self.scheduler.idle
        self.timekeeper = Timekeeper(
            self.tables, self.publisher, clock=clock, after_change=self.scheduler.after_change
        )

    async def list_games(self, guild_id: int) -> list[Table]:
        """The server's lobbies, running and suspended games. A game this bot cannot play is listed
        too, without an engine (``Table.unavailable`` says why)."""
        rows = await self.storage.list_games(guild_id, statuses=(*ACTIVE, SUSPENDED))
        return [await self.tables.load(r.id, unavailable_ok=True) for r in rows]

    async def resume_all(self, rows: list[GameRow] | None = None) -> list[GameRow]:
        """After a start: the games that were running (``rows``, read before the bot took any
        interaction; default: every running game) resume. Their timers and AI moves need no re-arming:
        they are rows of the jobs table, which this process's scheduler (started here) claims like any
        other's. In ONE transaction each game gets its "resumed" note (and an AI job, should one with
        an AI seat have none); then each table is shown again, by the publisher, in the background (a
        channel deleted meanwhile suspends its game then). No work per game waits on the database.
        Returns the rows of the games resumed."""
        # Games whose finish was committed but not rated (a crash in between) are rated now.
        try:
            for game_id in await self.storage.unrated_games():
                await ratings.rate_game(self.storage, game_id)
        except Exception:
            log.exception("rating unrated games failed")
        if rows is None:
            rows = await self.storage.running_games()
        resumed = []
        for row in rows:
            if row.game_key not in registry:
                log.warning(
                    "game %s: not resumed: this bot no longer has its game type (%r)", row.id, row.game_key
                )
            else:
                resumed.append(row)
        try:
            await self.storage.resume_games(
                [r.id for r in resumed], RESUMED_NOTE, ai_due=self.scheduler.clock() + self.scheduler.ai_delay
            )
        except Exception:
            log.exception("the resume notes could not be written")
        self.scheduler.start()
        for row in resumed:
            self.publisher.request(row.id, [], note="resumed")
        return resumed

    async def close(self) -> None:
        await self.scheduler.close()
        await self.publisher.close()
