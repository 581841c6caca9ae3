"""Undo by agreement: the player who made the last move asks to take it back; every other human
player accepts (AI seats accept at once); then the game goes back to the position before it.

Only a move that revealed nothing and drew no randomness may be undone (the engine decides:
:meth:`bot.games.base.Game.undo_refusal`), and only while no later move exists. The undo is a NEW
version (component ids carry the version, so the version never goes back): a host row
``{"host": "undo", "undoes": seq}`` in the action log with the snapshot of the position before that
move, so ``rebuild(seed, log)`` still equals the snapshot (it skips the undone move).

The open request lives in the database (the ``meta`` row ``undo:<game>``), not in this process:
``{"version", "seq", "seat", "needed", "accepted", "expires", "shown"}`` (``shown``: :func:`shown`). It is
void once the game's version moved on (any move meanwhile), on a Decline, and after ``UNDO_TIMEOUT`` seconds. Several processes
may answer one request at once (the per-game lock is one process's): every change of the row is a
compare-and-set (:meth:`bot.storage.Storage.swap_meta`), retried on a fresh read when it loses, so no
Accept is lost and a Decline racing an Accept still settles the request.

What others read about an undo (the request in the channel, the answers to the other players, the "taken
back" log line) says of the move only what its public events already showed (:func:`shown`), never the
engine's description of the action: a secret move (a ship placed in a hidden Line) is described to its
mover alone.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable

from bot.games import Game, canonical, fill_names, who
from bot.games.phrase import ENGLISH, Voice
from bot.i18n import N_, Phrase
from bot.publisher import Publisher
from bot.scheduler import Scheduler
from bot.storage import ActionRow, StaleVersion, Storage, is_host_action, live_moves, rebuild, undone_seqs
from bot.tables import Delivery, Table, Tables, UserError
from bot.turns import Turns, require_running

log = logging.getLogger("admiralty.undo")

UNDO_TIMEOUT = 300.0  # seconds an undo request waits for the other players' answers
ANSWER_TRIES = 5  # an answer re-reads the request when another process changed it meanwhile


ASKED_ALREADY = Phrase(N_("You already asked to undo this move; the other players have been asked."))
SHOWN_LIMIT = 200  # characters of the move's public texts quoted in an undo text


def meta_key(game_id: int) -> str:
    return f"undo:{game_id}"


def shown(before: Game, seat: int, action: dict) -> str:
    """What the channel saw of ``seat``'s ``action`` played on ``before``: the texts of its public events,
    seats as ``who(seat)`` tokens ("" when it showed nothing). Pure: ``before`` is not changed."""
    events = type(before).from_json(before.to_json()).apply(seat, action)
    text = " ".join(e["text"] for e in events if "private_to" not in e and e.get("text")).strip()
    return text if len(text) <= SHOWN_LIMIT else text[: SHOWN_LIMIT - 1] + "…"


def _said(public: str, quoted: str, bare: str, /, **params: object) -> Phrase:
    """The message ``quoted`` naming what the channel saw of the move (``{move}``), or ``bare`` when it
    saw nothing: two whole sentences, not one with a piece glued in."""
    return Phrase(quoted, move=public, **params) if public else Phrase(bare, **params)


def request_text(asker: str, asked: list[int], game_id: int, public: str) -> Phrase:
    """The request posted in the game's channel: mentions the players ``asked`` (user ids) and says of the
    move only ``public`` (:func:`shown`, names filled)."""
    mentions = " ".join(f"<@{user_id}>" for user_id in asked)
    return _said(
        public,
        N_(
            "↩ {mentions}: **{name}** asks to undo their last move ({move}) in game #{id}. Everyone must "
            "accept; any move meanwhile, a decline or {minutes} minutes without an answer keeps it."
        ),
        N_(
            "↩ {mentions}: **{name}** asks to undo their last move in game #{id}. Everyone must accept; any "
            "move meanwhile, a decline or {minutes} minutes without an answer keeps it."
        ),
        mentions=mentions,
        name=asker,
        id=game_id,
        minutes=int(UNDO_TIMEOUT // 60),
    )


def accepted_text(asker: str, public: str) -> Phrase:
    """The answer to the last player to accept (another player: only what the channel saw)."""
    return _said(
        public,
        N_("Everyone accepted: {name}'s move ({move}) was undone."),
        N_("Everyone accepted: {name}'s move was undone."),
        name=asker,
    )


def declined_text(asker: str, public: str) -> Phrase:
    return _said(
        public,
        N_("You declined: {name}'s move ({move}) stands."),
        N_("You declined: {name}'s move stands."),
        name=asker,
    )


def taken_back_text(seat: int, public: str) -> Phrase:
    """The public log line of an undo (seats as ``who`` tokens, filled when shown), stored as data."""
    return _said(
        public,
        N_("↩ {name}'s move ({move}) was taken back, by agreement."),
        N_("↩ {name}'s move was taken back, by agreement."),
        name=who(seat),
    )


async def read_request(storage: Storage, key: str) -> tuple[dict | None, str | None]:
    """A request by agreement stored in the ``meta`` row ``key`` (an undo's, a pause's), and the text it
    was read from (for :func:`swap_request`)."""
    text = await storage.get_meta(key)
    if not text:
        return None, text
    try:
        req = json.loads(text)
    except ValueError:
        return None, text
    return (req if isinstance(req, dict) else None), text


async def swap_request(storage: Storage, key: str, seen: str | None, req: dict | None) -> bool:
    """Replace the request read as ``seen`` by ``req`` (None: drop it) unless another process changed it
    meanwhile (then False: read again). Processes share the request through the database, and the
    per-game lock is only this process's, so every change is a compare-and-set."""
    return await storage.swap_meta(key, seen, None if req is None else canonical(req))


class Undo:
    def __init__(
        self,
        tables: Tables,
        delivery: Delivery,
        publisher: Publisher,
        turns: Turns,
        scheduler: Scheduler,
        *,
        clock: Callable[[], float],
        timeout: float = UNDO_TIMEOUT,
    ) -> None:
        self.tables = tables
        self.storage = tables.storage
        self.delivery = delivery
        self.publisher = publisher
        self.turns = turns
        self.scheduler = scheduler
        self.clock = clock
        self.timeout = timeout

    # ------------------------------------------------------------- checks
    @staticmethod
    def _running(table: Table) -> None:
        require_running(
            table,
            not_started=Phrase(N_("The game has not started yet: there is no move to undo.")),
            over=N_("Game #{id} is over: its moves stand."),
        )

    async def last_move(self, table: Table) -> tuple[list[ActionRow], ActionRow]:
        """The log and its last move that stands; a UserError when there is none, or when a host
        record other than an undo (a resignation) came after it."""
        actions = await self.storage.actions(table.id)
        live = live_moves(actions)
        if not live:
            raise UserError(Phrase(N_("There is no move to undo yet.")))
        move = live[-1]
        undone = undone_seqs(actions)
        for later in actions:
            if later.seq > move.seq and not (later.action.get("host") == "undo" or later.seq in undone):
                raise UserError(
                    Phrase(N_("The last move can no longer be undone: something happened after it."))
                )
        return actions, move

    def before(self, table: Table, actions: list[ActionRow], move: ActionRow):
        """The game as it stood just before ``move`` (rebuilt from the seed and the log before it)."""
        return rebuild(table.row, [a for a in actions if a.seq < move.seq], len(table.seats))

    async def pending(self, game_id: int) -> dict | None:
        return (await self._pending(game_id))[0]

    async def _pending(self, game_id: int) -> tuple[dict | None, str | None]:
        """The open request and the stored text it was read from (for :meth:`_swap`)."""
        return await read_request(self.storage, meta_key(game_id))

    async def _swap(self, game_id: int, seen: str | None, req: dict | None) -> bool:
        return await swap_request(self.storage, meta_key(game_id), seen, req)

    # ------------------------------------------------------------ request
    async def request(
        self, game_id: int, user_id: int, version: int | None = None, *, speaker: Voice = ENGLISH
    ) -> str:
        """``user_id`` asks to undo the last move (theirs). ``version``: the game's version they saw
        (a button's); a move since then makes the request out of date. Returns the private answer (a
        Phrase, its move described in the asker's language: ``speaker``)."""
        async with self.tables.lock(game_id):
            table = await self.tables.load(game_id)
            self._running(table)
            if version is not None and version != table.version:
                raise UserError(
                    Phrase(
                        N_(
                            "That move is no longer the last one: the game has moved on, so it cannot be undone."
                        )
                    )
                )
            seat = table.seat_of(user_id)
            if seat is None:
                raise UserError(
                    Phrase(
                        N_(
                            "You are not playing in this game; only the player who made the last move can ask "
                            "to undo it."
                        )
                    )
                )
            actions, move = await self.last_move(table)
            if move.seat != seat:
                mover = table.seat_row(move.seat)
                raise UserError(
                    Phrase(N_("Only {name}, who made the last move, can ask to undo it."), name=mover.name)
                )
            before = self.before(table, actions, move)
            why = before.undo_refusal(move.seat, move.action)
            if why:
                raise UserError(Phrase(N_("That move cannot be undone: {why}."), why=why))
            # for the mover only, in their language
            label = fill_names(before.describe(move.action, speaker=speaker), table.names(speaker))
            public = shown(before, move.seat, move.action)
            old, seen = await self._pending(table.id)
            if old and old.get("version") == table.version and self.clock() < old.get("expires", 0):
                raise UserError(ASKED_ALREADY)
            needed = sorted({s.seat for s in table.seats if not s.is_ai and s.user_id != user_id})
            if not needed:  # only AI seats besides: they accept at once
                await self._undo(table, move, before, public)
                return Phrase(N_("Your move ({move}) was undone."), move=label)
            req = {
                "version": table.version,
                "seq": move.seq,
                "seat": seat,
                "needed": needed,
                "accepted": [],
                "expires": self.clock() + self.timeout,
                "shown": public,
            }
            if not await self._swap(table.id, seen, req):  # the same ask, at once, in another process
                raise UserError(ASKED_ALREADY)
            asked = [u for u in (table.seat_row(s).user_id for s in needed) if u]
            # posted in the channel: names as markdown shows them (escaped)
            text = request_text(
                table.shown_name(seat), asked, table.id, fill_names(public, table.names(), markdown=True)
            )
            ask = getattr(self.delivery, "undo_request", None)
            try:
                if ask is not None:
                    await ask(table, seat, table.version, needed, text)
                else:
                    await self.delivery.notice(table, text)
            except Exception:
                await self.storage.swap_meta(meta_key(table.id), canonical(req), None)
                raise
            names = ", ".join(table.seat_row(s).name for s in needed)
            return Phrase(
                N_("You asked to undo your last move ({move}); waiting for {names} to accept."),
                move=label,
                names=names,
            )

    # ------------------------------------------------------------- answer
    async def answer(self, game_id: int, user_id: int, version: int, accept: bool) -> tuple[str, bool]:
        """An Accept (``accept``) or Decline of the undo request made at ``version``. Returns the
        private answer and whether the request is settled (undone or declined)."""
        async with self.tables.lock(game_id):
            table = await self.tables.load(game_id)
            for _ in range(ANSWER_TRIES):
                settled = await self._answer(table, user_id, version, accept)
                if settled is not None:
                    return settled
            raise UserError(
                Phrase(N_("Several answers to this undo request came at once; press the button again."))
            )

    async def _answer(
        self, table: Table, user_id: int, version: int, accept: bool
    ) -> tuple[str, bool] | None:
        """One try of :meth:`answer` (caller holds the lock); None when another process changed the
        request between reading and writing it (read it again)."""
        game_id = table.id
        req, seen = await self._pending(game_id)
        if req is None or req.get("version") != version:
            raise UserError(Phrase(N_("This undo request is no longer open.")))
        if table.row.status != "running" or table.over or table.version != version:
            await self._swap(game_id, seen, None)
            raise UserError(
                Phrase(N_("This undo request is out of date: the game has moved on, so the move stands."))
            )
        if self.clock() >= req.get("expires", 0):
            await self._swap(game_id, seen, None)
            raise UserError(Phrase(N_("This undo request timed out: the move stands.")))
        seat = table.seat_of(user_id)
        if seat is not None and seat == req.get("seat"):
            raise UserError(Phrase(N_("You asked for this undo: the other players answer it.")))
        if seat is None or seat not in req.get("needed", []):
            raise UserError(Phrase(N_("Only the other players of this game can answer this undo request.")))
        if seat in req.get("accepted", []):
            raise UserError(Phrase(N_("You already accepted this undo; waiting for the others.")))
        asker = table.seat_row(req["seat"]).name
        public = str(req.get("shown", ""))  # what the channel saw of the move (seats as tokens)
        if not accept:
            if not await self._swap(game_id, seen, None):
                return None
            return declined_text(asker, fill_names(public, table.names())), True
        req["accepted"] = sorted({*req.get("accepted", []), seat})
        if set(req["needed"]) - set(req["accepted"]):
            if not await self._swap(game_id, seen, req):
                return None
            left = ", ".join(table.seat_row(s).name for s in req["needed"] if s not in req["accepted"])
            return Phrase(N_("You accepted; waiting for {names}."), names=left), False
        actions, move = await self.last_move(table)
        if move.seq != req["seq"]:  # cannot happen while the version is the same; never undo another
            await self._swap(game_id, seen, None)
            raise UserError(Phrase(N_("This undo request is out of date: the move stands.")))
        # The last Accept uses the request up (drops it, compare-and-set) before undoing: only an answer
        # that read the request as it stands may undo; the version check then guards the move itself.
        if not await self._swap(game_id, seen, None):
            return None
        await self._undo(table, move, self.before(table, actions, move), public)
        return accepted_text(asker, fill_names(public, table.names())), True

    # --------------------------------------------------------------- undo
    async def _undo(self, table: Table, move: ActionRow, before: Game, public: str) -> int:
        """Store the position before ``move`` as a new version (caller holds the lock); show it and
        re-arm timers and AI for it. ``public``: what the channel saw of the move (:func:`shown`)."""
        restored = Table(table.row, table.seats, before)
        clock = self.turns.clock_for(restored)
        deadline = clock.deadline() if clock is not None else self.turns.deadline_for(restored, None)
        action = {"host": "undo", "undoes": move.seq}
        assert is_host_action(action)
        text = taken_back_text(move.seat, public)
        try:
            # The game's jobs (reminder, timeout, an AI seat's move) are re-armed for the restored
            # position in the same transaction.
            version = await self.storage.record_action(
                table.id,
                expected_version=table.version,
                seat=move.seat,
                action=action,
                state_json=before.to_json(),
                status="running",
                deadline=deadline,
                log=[(None, text)],
                ai_due=self.turns.ai_due(restored),
                clock=None if clock is None else clock.to_json(),
            )
        except StaleVersion:
            self.tables.forget(table.id)  # another process moved first: the move stands
            raise UserError(Phrase(N_("The game moved on meanwhile, so the move stands."))) from None
        except BaseException:
            self.tables.forget(table.id)
            raise
        self.tables.cache(table.id, before, version)
        log.info("game %s: version %s: seat %s's move %s undone", table.id, version, move.seat, move.seq)
        shown = await self.tables.load(table.id)
        self.publisher.request(table.id, [{"type": "undo", "text": text}], actor=move.seat)
        self.scheduler.after_change(shown, armed=True)
        return version
