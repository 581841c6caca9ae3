"""What players do to game clocks (bot/clocks.py) besides moving: pause a game by agreement and resume
it, give an opponent more time, go on vacation.

Pause by agreement works like an undo (bot/undo.py): the request lives in the database (the ``meta`` row
``pause:<game>``: ``{"seat", "needed", "accepted", "expires"}``), every change of it a compare-and-set;
once every other human player accepted, the game's clocks stop (``Clock.pause``) until any player
resumes it. While paused nobody moves (bot/turns.py refuses, privately).

Every clock change is stored with the deadline it sets and the game's timeout job in one transaction
(:meth:`bot.storage.Storage.change_clock`); the table is shown again after it.
"""

from __future__ import annotations

import datetime
import logging
from collections.abc import Callable

from bot.clocks import EXTENSIONS, Clock, duration_phrase
from bot.games import who
from bot.i18n import N_, Phrase
from bot.publisher import Publisher
from bot.storage import Storage
from bot.storage.clocks import NoClock, Vacation
from bot.tables import Table, Tables, UserError
from bot.turns import require_running
from bot.undo import read_request, swap_request

log = logging.getLogger("admiralty.timekeeper")

PAUSE_ASK_TIMEOUT = 86400.0  # seconds a pause request waits for the other players' answers
ANSWER_TRIES = 5


def pause_key(game_id: int) -> str:
    return f"pause:{game_id}"


def pause_request_text(asker: str, asked: list[int], game_id: int) -> Phrase:
    """The request posted in the channel (said there in the server's language)."""
    return Phrase(
        N_(
            "⏸ {mentions}: **{name}** asks to pause game #{id}: every clock stops until a player resumes it "
            "(`/game resume`). Everyone must accept; a decline, or a day without an answer, keeps it running."
        ),
        mentions=" ".join(f"<@{u}>" for u in asked),
        name=asker,
        id=game_id,
    )


class Timekeeper:
    def __init__(
        self, tables: Tables, publisher: Publisher, *, clock: Callable[[], float], after_change: Callable
    ) -> None:
        self.tables = tables
        self.storage: Storage = tables.storage
        self.publisher = publisher
        self.clock = clock
        self.after_change = after_change  # the scheduler's: wake it for the new deadline

    # ------------------------------------------------------------- checks
    @staticmethod
    def _running(table: Table) -> Clock:
        require_running(
            table, not_started=Phrase(N_("The game has not started yet.")), over=N_("Game #{id} is over.")
        )
        clock = Clock.from_json(table.row.clock)
        if clock is None:
            raise UserError(
                Phrase(N_("Game #{id} has no clock: there is no time to stop or give."), id=table.id)
            )
        return clock

    @staticmethod
    def _seat(table: Table, user_id: int) -> int:
        seat = table.seat_of(user_id)
        if seat is None or table.seat_row(seat).is_ai:
            raise UserError(Phrase(N_("Only the players of this game can do that.")))
        return seat

    async def _change(self, table: Table, change: Callable[[Clock], Clock], note: str) -> Clock:
        """Store the clock ``change`` (with its deadline and timeout job), write ``note`` on the table's
        log, show the table again and wake the scheduler (a resumed game's AI seat may be due)."""
        try:
            clock = await self.storage.change_clock(table.id, change, self.clock())
        except NoClock:
            raise UserError(Phrase(N_("Game #{id} has no clock."), id=table.id)) from None
        except ValueError as e:  # (a change the clock refuses: more extra time than a turn may have)
            reason = e.args[0] if e.args else ""
            raise UserError(reason if isinstance(reason, Phrase) else f"{str(e).capitalize()}.") from None
        await self.storage.add_log(table.id, note)
        self.publisher.request(table.id, [])
        self.after_change(await self.tables.load(table.id), armed=clock.paused)
        return clock

    # ------------------------------------------------------------- pause
    async def _pending(self, game_id: int) -> tuple[dict | None, str | None]:
        return await read_request(self.storage, pause_key(game_id))

    async def _swap(self, game_id: int, seen: str | None, req: dict | None) -> bool:
        return await swap_request(self.storage, pause_key(game_id), seen, req)

    async def pause(self, game_id: int, user_id: int) -> tuple[Phrase, Phrase | None, list[int]]:
        """``user_id`` asks to pause the game. -> (their private answer, the request to post in the
        channel or None when the game paused at once (no other human player), the user ids asked)."""
        async with self.tables.lock(game_id):
            table = await self.tables.load(game_id)
            clock = self._running(table)
            seat = self._seat(table, user_id)
            if clock.paused:
                raise UserError(
                    Phrase(
                        N_("Game #{id} is paused already; `/game resume` starts its clocks again."),
                        id=game_id,
                    )
                )
            old, seen = await self._pending(game_id)
            if old and self.clock() < old.get("expires", 0):
                raise UserError(
                    Phrase(N_("A pause of this game was asked already; waiting for the players' answers."))
                )
            needed = sorted({s.seat for s in table.seats if not s.is_ai and s.seat != seat})
            if not needed:
                await self._do_pause(table, seat)
                return (
                    Phrase(
                        N_("Game #{id} is paused: every clock stopped until you `/game resume` it."),
                        id=game_id,
                    ),
                    None,
                    [],
                )
            req = {
                "seat": seat,
                "needed": needed,
                "accepted": [],
                "expires": self.clock() + PAUSE_ASK_TIMEOUT,
            }
            if not await self._swap(game_id, seen, req):
                raise UserError(
                    Phrase(N_("A pause of this game was asked already; waiting for the players' answers."))
                )
            asked = [u for u in (table.seat_row(s).user_id for s in needed) if u]
            names = ", ".join(table.seat_row(s).name for s in needed)
            return (
                Phrase(
                    N_("You asked to pause game #{id}; waiting for {names} to accept."),
                    id=game_id,
                    names=names,
                ),
                pause_request_text(table.shown_name(seat), asked, game_id),
                asked,
            )

    async def withdraw_pause(self, game_id: int) -> None:
        """Drop the game's open pause request (its message could not be posted: nobody can answer it)."""
        req, seen = await self._pending(game_id)
        if req is not None:
            await self._swap(game_id, seen, None)

    async def answer_pause(self, game_id: int, user_id: int, accept: bool) -> str:
        async with self.tables.lock(game_id):
            for _ in range(ANSWER_TRIES):
                table = await self.tables.load(game_id)
                answered = await self._answer(table, user_id, accept)
                if answered is not None:
                    return answered
            raise UserError(
                Phrase(N_("Several answers to this pause request came at once; press the button again."))
            )

    async def _answer(self, table: Table, user_id: int, accept: bool) -> str | None:
        req, seen = await self._pending(table.id)
        if req is None:
            raise UserError(Phrase(N_("This pause request is no longer open.")))
        if self.clock() >= req.get("expires", 0):
            await self._swap(table.id, seen, None)
            raise UserError(Phrase(N_("This pause request timed out: the game goes on.")))
        clock = self._running(table)
        seat = table.seat_of(user_id)
        if seat is not None and seat == req.get("seat"):
            raise UserError(Phrase(N_("You asked for this pause: the other players answer it.")))
        if seat is None or seat not in req.get("needed", []):
            raise UserError(Phrase(N_("Only the other players of this game can answer this pause request.")))
        if seat in req.get("accepted", []):
            raise UserError(Phrase(N_("You already accepted this pause; waiting for the others.")))
        asker = table.seat_row(req["seat"]).name
        if not accept:
            if not await self._swap(table.id, seen, None):
                return None
            return Phrase(N_("You declined: {name}'s request to pause. The game goes on."), name=asker)
        req["accepted"] = sorted({*req.get("accepted", []), seat})
        if set(req["needed"]) - set(req["accepted"]):
            if not await self._swap(table.id, seen, req):
                return None
            left = ", ".join(table.seat_row(s).name for s in req["needed"] if s not in req["accepted"])
            return Phrase(N_("You accepted; waiting for {names}."), names=left)
        if not await self._swap(table.id, seen, None):
            return None
        if clock.paused:
            return Phrase(N_("Game #{id} is paused already."), id=table.id)
        await self._do_pause(table, req["seat"])
        return Phrase(
            N_("Everyone accepted: game #{id} is paused until a player uses `/game resume`."), id=table.id
        )

    async def _do_pause(self, table: Table, seat: int) -> None:
        await self._change(
            table,
            lambda c: c.pause(self.clock()),
            Phrase(N_("⏸ The game is paused by agreement; `/game resume` starts its clocks again.")),
        )
        log.info("game %s: paused by agreement (asked by seat %s)", table.id, seat)

    async def resume(self, game_id: int, user_id: int) -> str:
        async with self.tables.lock(game_id):
            table = await self.tables.load(game_id)
            clock = self._running(table)
            seat = self._seat(table, user_id)
            if not clock.paused:
                raise UserError(Phrase(N_("Game #{id} is not paused."), id=game_id))
            await self._change(
                table,
                lambda c: c.resume(self.clock()),
                Phrase(N_("▶ {name} resumed the game: the clocks run again."), name=who(seat)),
            )
            return Phrase(N_("Game #{id} resumed: the clocks run again."), id=game_id)

    # ------------------------------------------------------------- more time
    def extend_targets(self, table: Table, user_id: int) -> list[int]:
        """The seats whose turn ``user_id`` may give more time to: the other human seats to act."""
        self._running(table)
        seat = self._seat(table, user_id)
        return [s for s in table.human_to_act() if s != seat]

    async def extend(self, game_id: int, user_id: int, seconds: float, target: int | None = None) -> str:
        """``user_id`` gives ``seconds`` (one of EXTENSIONS) to an opponent's current turn (``target``:
        which, when several are to act)."""
        if seconds not in EXTENSIONS:
            raise UserError(Phrase(N_("Choose 1 h, 12 h, 1 day or 3 days.")))
        async with self.tables.lock(game_id):
            table = await self.tables.load(game_id)
            clock = self._running(table)
            seat = self._seat(table, user_id)
            to_act = table.human_to_act()
            if target is None:
                others = [s for s in to_act if s != seat]
                if not others:
                    raise UserError(
                        Phrase(N_("You cannot give yourself more time: it is not an opponent's turn."))
                        if seat in to_act
                        else Phrase(N_("No opponent is to act just now."))
                    )
                target = others[0]
            if target == seat:
                raise UserError(Phrase(N_("You cannot give yourself more time.")))
            if target not in to_act:
                raise UserError(Phrase(N_("It is not that player's turn.")))
            if clock.paused:
                raise UserError(Phrase(N_("Game #{id} is paused: its clocks do not run."), id=game_id))
            given = duration_phrase(seconds)
            note = Phrase(
                N_("⏳ {name} gave {other} {time} more for this turn."),
                name=who(seat),
                other=who(target),
                time=given,
            )
            await self._change(table, lambda c: c.extend(target, seconds), note)
            return Phrase(
                N_("You gave {name} {time} more for this turn."), name=table.shown_name(target), time=given
            )

    # ------------------------------------------------------------- vacation
    def _year(self) -> int:
        return datetime.datetime.fromtimestamp(self.clock(), datetime.UTC).year

    async def vacation_status(self, user_id: int, guild_id: int | None) -> tuple[Vacation | None, int]:
        """The vacation under way (or None) and the days left of ``guild_id``'s allowance this year."""
        vacation = await self.storage.vacation(user_id)
        if vacation is not None and vacation.until <= self.clock():
            vacation = None
        return vacation, await self.storage.vacation_days_left(user_id, guild_id, self._year())

    async def take_vacation(self, user_id: int, days: int, guild_id: int | None) -> Vacation:
        vacation, games = await self.storage.take_vacation(
            user_id, days, self.clock(), self._year(), guild_id
        )
        await self._shown(games)
        return vacation

    async def end_vacation(self, user_id: int) -> int:
        back, games = await self.storage.end_vacation(user_id, self.clock())
        await self._shown(games)
        return back

    async def _shown(self, games: list[int]) -> None:
        """Show again the tables of the games whose clocks a vacation changed; wake the scheduler."""
        for game_id in games:
            self.publisher.request(game_id, [])
            try:
                self.after_change(await self.tables.load(game_id), armed=True)
            except Exception:  # noqa: BLE001 - a game this bot cannot load is shown by nobody
                log.warning("game %s: not shown after a vacation", game_id, exc_info=True)
