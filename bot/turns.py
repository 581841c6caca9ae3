"""Turns: a player's menu and choices, and the one path every action takes (apply → commit → publish).

Order of work for every accepted action, under the game's lock:
apply → commit action + snapshot in one transaction → request a publish (and re-arm timers and AI).
The publisher then shows the newest stored version outside the lock. So nothing is announced that
is not on disk, a crash loses nothing acknowledged, and drawing never holds up the next move.

Several processes may act on one game (one PostgreSQL database): the lock is per process, and the
commit is a compare-and-set on the game's version. A move that lost the race to another process's
(StaleVersion) changes nothing and is answered like a click on an old board (:class:`StaleBoard`);
the cached engine is used only while its version equals the stored one (``Tables.load``).
"""

from __future__ import annotations

import dataclasses
import logging
import time
from collections.abc import Callable

from bot import menus, metrics, ratings
from bot.ai_seats import joined_names
from bot.clocks import Clock
from bot.games import IllegalAction, fill_names
from bot.games.phrase import ENGLISH, Voice
from bot.i18n import N_, Phrase
from bot.logs import log_context
from bot.publisher import Publisher
from bot.storage import SUSPENDED, StaleVersion, loglines
from bot.tables import Outcome, StaleBoard, Table, Tables, UserError

log = logging.getLogger("admiralty.turns")

SUSPENDED_TEXT = N_(
    "Game #{id} is suspended: its channel was deleted. The host or someone with Manage Server can clear it "
    "with `/game abandon game:{id}`."
)


def suspended(game_id: int) -> Phrase:
    """The refusal of what a suspended game (its channel deleted) does not allow."""
    return Phrase(SUSPENDED_TEXT, id=game_id)


def require_running(table: Table, *, not_started: Phrase, over: str) -> None:
    """A UserError saying why ``table`` is not a running game (a lobby: ``not_started``; suspended;
    finished or abandoned: ``over``, a message with ``{id}``), for what only a running game allows."""
    status = table.row.status
    if status == "lobby" or table.game is None:
        raise UserError(not_started)
    if status == SUSPENDED:
        raise UserError(suspended(table.id))
    if status != "running" or table.over:
        raise UserError(Phrase(over, id=table.id))


PAUSED_TEXT = N_("Game #{id} is paused by agreement: no moves until a player uses `/game resume`.")


def public_summary(events: list[dict], limit: int = 300, names: list[str] | None = None) -> str:
    """The texts of an action's public events (what the channel shows), for the log, seats named."""
    text = (
        " ".join(fill_names(e["text"], names) for e in events if "private_to" not in e and e.get("text"))
        or "nothing public"
    )
    return text if len(text) <= limit else text[: limit - 1] + "…"


def log_lines(events: list[dict]) -> list[tuple[int | None, str]]:
    """The table log's lines of an action: (seat it is private to or None, text). Texts are stored as
    the game wrote them, seats as ``who(seat)``: they are filled with names when shown
    (``fill_names(text, table.names())``), so a renamed seat ("Ann (AI)") reads right everywhere; a
    :class:`Phrase` is kept as its message and parameters (:mod:`bot.storage.loglines`), said in each
    reader's language."""
    return [
        (e.get("private_to"), loglines.stored(e["text"], loglines.EVENT)) for e in events if e.get("text")
    ]


def played_event(seat: int, played: str | None, via: object) -> list[dict]:
    """The word that a move was played, for the publish only (not the log): private to the seat that
    clicked, said by the delivery where it answers that click by redrawing what was clicked (a DM)."""
    if played is None or via is None:
        return []
    return [{"type": "played", "private_to": seat, "text": played}]


class Turns:
    def __init__(self, tables: Tables, publisher: Publisher, *, clock: Callable[[], float]) -> None:
        self.tables = tables
        self.publisher = publisher
        self.clock = clock
        # How long an AI seat waits before it moves (its job is armed with each move that makes it due).
        self.ai_delay = 0.0
        # Called with the table after every committed change (the scheduler forgets finished games and
        # wakes up; ``armed``: the change armed the game's jobs itself).
        self.after_change: Callable[..., None] = lambda table, armed=False: None

    def check_player(self, table: Table, user_id: int, seat: int | None = None) -> int:
        if table.row.status == "abandoned":
            raise UserError(Phrase(N_("This game was abandoned.")))
        if table.row.status == SUSPENDED:
            raise UserError(suspended(table.id))
        if table.row.status == "lobby" or table.game is None:
            raise UserError(Phrase(N_("The game has not started yet.")))
        if table.game.is_over or table.row.status == "finished":
            raise UserError(Phrase(N_("This game is over.")))
        own = table.seat_of(user_id)
        if own is None:
            raise UserError(
                Phrase(N_("You are not playing in this game; you can watch it from the channel."))
            )
        stored = Clock.from_json(table.row.clock)
        if stored is not None and stored.paused:
            raise UserError(Phrase(PAUSED_TEXT, id=table.id))
        if own not in table.game.to_act():
            waiting = joined_names([table.name_phrase(s) for s in table.game.to_act()])
            raise UserError(Phrase(N_("It is not your turn — waiting for {names}."), names=waiting))
        if seat is not None and seat != own:
            raise UserError(Phrase(N_("Those controls belong to another player.")))
        return own

    async def menu(
        self,
        game_id: int,
        user_id: int,
        prefix: tuple[int, ...] = (),
        page: int = 0,
        version: int | None = None,
        speaker: Voice = ENGLISH,
    ) -> Outcome:
        """The menu level of ``user_id`` at ``prefix`` (no change to the game), in the language of
        ``speaker`` (theirs: a menu is private)."""
        table = await self.tables.load(game_id)
        if version is not None and version != table.version:
            raise StaleBoard(table)
        seat = self.check_player(table, user_id)
        lvl = menus.open_level(table.engine, seat, prefix, page, names=table.names(speaker), speaker=speaker)
        if lvl is None:
            raise StaleBoard(table)
        return Outcome(table, level=lvl, seat=seat)

    async def choose(
        self,
        game_id: int,
        user_id: int,
        version: int,
        prefix: tuple[int, ...],
        page: int = 0,
        seat: int | None = None,
        digest: str | None = None,
        via: object = None,
        check: Callable[[Table], None] | None = None,
        picks: list[int] | None = None,
        speaker: Voice = ENGLISH,
    ) -> Outcome:
        """A click on a menu entry: show the next level, or apply the action at a leaf.

        A leaf whose action holds an open choice shows its multi-select first; ``picks`` (the candidate
        indices chosen in it, maybe none) answer it, and the whole move is applied at once.

        A menu of an older version is stale, except a menu made while several seats chose at once
        (it carries a digest of the seat's menu tree): another seat's choice does not spoil it, as
        long as this seat's own choices are unchanged. ``via`` (opaque) is the click, handed to the
        delivery so that it may answer through it. ``check`` is called first with the table (loaded
        once, under the lock) and may refuse it by raising UserError (the cog's check that the click
        was made where the game is: :meth:`Table.check_place`). The next level and the label of the move
        played are in the language of ``speaker`` (the clicker's)."""
        async with self.tables.lock(game_id):
            table = await self.tables.load(game_id)
            if check is not None:
                check(table)
            if version != table.version and not digest:
                raise StaleBoard(table)
            seat = self.check_player(table, user_id, seat)
            root = menus.build_tree(table.engine, seat, table.names(speaker), speaker)
            if version != table.version and root.key != digest:
                raise StaleBoard(table)
            if prefix and prefix[-1] == menus.CONFIRM:
                # An old "✅ Confirm" button (menus no longer ask): out of date, like any old board.
                raise StaleBoard(table)
            prefix = menus.collapse(root, prefix)
            found = menus.walk(root, prefix)
            if found is None:
                raise StaleBoard(table)
            node, crumbs = found
            if node.action is None:
                if picks is not None:
                    raise StaleBoard(table)
                lvl = menus.level(
                    table.engine, seat, root, prefix, page, names=table.names(speaker), speaker=speaker
                )
                return Outcome(table, level=lvl, seat=seat)
            steps = node.steps
            if picks is not None or menus.choice_of(node) is not None:
                lvl = menus.choice_level(
                    table.engine, seat, root, prefix, names=table.names(speaker), speaker=speaker
                )
                if lvl is None:
                    raise StaleBoard(table)
                if picks is None:
                    return Outcome(table, level=lvl, seat=seat)
                answered = menus.answer(node, picks)
                if answered is None:
                    raise UserError(Phrase(N_("That choice does not fit the menu: choose again.")))
                steps = answered
                chosen = dict(lvl.entries)
                crumbs = [*crumbs, ", ".join(chosen[i] for i in sorted(picks)) or lvl.none_label]
            applied = menus.full_label(crumbs)
            events = await self.apply_steps(table, seat, steps, via=via, played=applied)
            return Outcome(
                table,
                events=events,
                applied=applied,
                seat=seat,
                published=self.publisher.waiter(game_id),
                version=self.tables.cached_version(game_id),
            )

    async def act(
        self,
        game_id: int,
        user_id: int,
        action: dict | list[dict],
        version: int | None = None,
        speaker: Voice = ENGLISH,
    ) -> Outcome:
        """Apply an action given whole (the /move command), or the steps of one menu entry; the label of
        the move played in the language of ``speaker``."""
        async with self.tables.lock(game_id):
            table = await self.tables.load(game_id)
            if version is not None and version != table.version:
                raise StaleBoard(table)
            seat = self.check_player(table, user_id)
            steps = action if isinstance(action, list) else [action]
            if not steps:
                raise UserError(Phrase(N_("That is not one of your moves.")))
            try:
                said = " › ".join(table.engine.describe(a, **menus.in_language(speaker)) for a in steps)
                label = fill_names(said, table.names(speaker))
            except Exception:  # noqa: BLE001 - a garbage action has no label
                label = speaker.gettext("that move")
            events = await self.apply_steps(table, seat, steps)
            return Outcome(
                table,
                events=events,
                applied=label,
                seat=seat,
                published=self.publisher.waiter(game_id),
                version=self.tables.cached_version(game_id),
            )

    async def apply_steps(
        self, table: Table, seat: int, steps: list[dict], *, via: object = None, played: str | None = None
    ) -> list[dict]:
        """Apply the actions of one menu choice in turn (each its own log entry); the game is shown
        once, after the last (requested: the caller holds the lock, the publisher shows it later).
        ``played``: the move's label as the clicker read it, shown to them where their click is
        answered by the publish (:func:`played_event`)."""
        events: list[dict] = []
        for n, action in enumerate(steps):
            last = n == len(steps) - 1
            if n and (table.engine.is_over or seat not in table.engine.to_act()):
                break  # the first step ended the turn (or the game): nothing left to follow up
            try:
                events += await self.apply_locked(
                    table, seat, action, human=True, publish=last, via=via, played=played if last else None
                )
            except UserError:
                if not n:
                    raise
                break  # the follow-up no longer fits: the menu offers what is left
            if last:
                return events
            table = await self.tables.load(table.id)
        await self._publish(
            await self.tables.load(table.id), events + played_event(seat, played, via), seat, via
        )
        return events

    async def apply_locked(
        self,
        table: Table,
        seat: int,
        action: dict,
        *,
        human: bool,
        publish: bool = True,
        kind: str = "ai",
        via: object = None,
        played: str | None = None,
    ) -> list[dict]:
        """Apply, commit, request the publish. Caller holds the lock. The game is unchanged on any failure.
        ``kind`` says, for the metrics, what made a move that is not ``human``: ``ai`` or ``timeout``;
        ``via`` is the interaction that asked for it, if any (the delivery may answer through it)."""
        game = table.engine
        to_act_before = game.to_act()
        try:
            with metrics.cpu("engine"):
                events = game.apply(seat, action)
                state_json = game.to_json()
        except IllegalAction as e:
            # the game's reason (a Phrase where the game made one) said in the player's language too
            reason = e.args[0] if e.args and isinstance(e.args[0], str) else str(e)
            raise UserError(Phrase(N_("Not allowed: {reason}"), reason=reason)) from None
        status = "finished" if game.is_over else "running"
        clock = self.clock_for(table)
        deadline = clock.deadline() if clock is not None else self.deadline_for(table, to_act_before)
        result = game.result if game.is_over else None
        try:
            version = await self.tables.storage.record_action(
                table.id,
                expected_version=table.version,
                seat=seat,
                action=action,
                state_json=state_json,
                status=status,
                deadline=deadline,
                result=result,
                log=log_lines(events),
                ai_due=self.ai_due(table),
                clock=None if clock is None else clock.to_json(),
            )
        except StaleVersion:
            # Another process moved this game first: nothing was committed; the current board answers.
            self.tables.forget(table.id)
            raise StaleBoard(await self.tables.load(table.id)) from None
        except BaseException:
            # Nothing was committed: the next load rebuilds the engine from the stored snapshot.
            self.tables.forget(table.id)
            raise
        # (its menus are those the publisher builds for this version)
        self.tables.cache(table.id, game, version, state_json)
        # The row as this commit left it (the compare-and-set made this version ours): no read needed.
        now = time.time()
        row = table.row
        committed = Table(
            dataclasses.replace(
                row,
                version=version,
                status=status,
                deadline=None if status != "running" else deadline,
                reminded=row.reminded and deadline == row.deadline and status == "running",
                result=result,
                state_json=state_json,
                updated_at=now,
                finished_at=now if status != "running" else row.finished_at,
                moves=None,  # (the loaded count is the one before this move: none rather than a stale one)
                clock=None if clock is None else clock.to_json(),
            ),
            list(table.seats),
            game,
        )
        if status == "finished":
            await ratings.rate_game(self.tables.storage, table.id)  # once; a failure is only logged
        metrics.move(table.row.game_key, "human" if human else kind)
        with log_context(game=table.id, guild=table.row.guild_id, version=version):
            return await self._after_commit(
                table,
                seat,
                events,
                human=human,
                version=version,
                publish=publish,
                via=via,
                committed=committed,
                played=played,
            )

    async def _after_commit(
        self,
        table: Table,
        seat: int,
        events: list[dict],
        *,
        human: bool,
        version: int,
        publish: bool,
        via: object,
        committed: Table,
        played: str | None = None,
    ) -> list[dict]:
        # Only what the channel is shown: the action itself (even its type) may be a secret choice.
        log.info(
            "game %s: version %s: seat %s %s; %s",
            table.id,
            version,
            seat,
            "played" if human else "auto",
            public_summary(events, names=table.names()),
        )
        if human:
            row = table.seat_row(seat)
            if row.missed:
                await self.tables.storage.update_seat(table.id, seat, missed=0)
                committed.seats = [
                    dataclasses.replace(s, missed=0) if s.seat == seat else s for s in committed.seats
                ]
        if publish:
            # (the publisher reads the newest stored version itself; this table tells the scheduler
            # what the commit left: its status, version and who is to act)
            await self._publish(committed, events + played_event(seat, played, via), seat, via)
        return events

    async def _publish(self, table: Table, events: list[dict], seat: int, via: object = None) -> None:
        """Hand the publish to the publisher (not awaited: it draws outside the lock), then re-arm
        timers and AI at once. Should the publish find the channel deleted, the game is suspended
        then (its timers and AI are stopped again)."""
        self.publisher.request(table.id, events, actor=seat, via=via)
        self.after_change(table, armed=True)

    def ai_due(self, table: Table) -> float | None:
        """When an AI seat of the game (its engine as it now stands) moves next; None: none is to move
        (or the game is paused: :attr:`Table.deserted`)."""
        game = table.game
        if game is None or game.is_over or not any(table.seat_row(s).is_ai for s in game.to_act()):
            return None
        if table.deserted:
            return None  # paused: no human player is left (the AI does not play a game out alone)
        if table.row.clock is not None and (stored := Clock.from_json(table.row.clock)) and stored.paused:
            return None  # paused by agreement: nobody moves
        return self.clock() + self.ai_delay

    def clock_for(self, table: Table) -> Clock | None:
        """The game's clock (bot/clocks.py) followed to now and to the human seats now to act (its engine
        as it now stands): a turn that ended is charged once, a turn that began starts running. None: the
        game has no clock (no timer, or a game started before clocks were stored: :meth:`deadline_for`)."""
        stored = Clock.from_json(table.row.clock)
        if stored is None:
            return None
        game = table.game
        humans = (
            [] if game is None or game.is_over else [s for s in game.to_act() if not table.seat_row(s).is_ai]
        )
        return stored.sync(humans, self.clock())

    def deadline_for(self, table: Table, to_act_before: list[int] | None) -> float | None:
        """When the turn now to play times out (None: no timer)."""
        clock = self.clock_for(table)
        if clock is not None:
            return clock.deadline()
        game = table.game
        timeout = table.row.turn_timeout or 0
        if not timeout or game is None or game.is_over:
            return None
        humans = [s for s in game.to_act() if not table.seat_row(s).is_ai]
        if not humans:
            return None
        if (
            to_act_before is not None
            and table.row.deadline is not None
            and set(game.to_act()) <= set(to_act_before)
        ):
            # The same decision goes on (the other half of a secret choice, or the next step of
            # one turn): the clock keeps running.
            return table.row.deadline
        return self.clock() + timeout
