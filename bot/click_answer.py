"""A click answered by its result in one call when that is ready soon.

A click on a private (ephemeral) menu or on a DM that opens the next menu level is answered by that
level, and a move played from a private menu by "✅ Played" once the table shows it: sent as the update
of the clicked message itself (Discord's UPDATE_MESSAGE: one call) when it is ready within :data:`QUICK`
seconds of the click, instead of a deferral and then an edit (two calls). A slower one is deferred then
(Discord gives a click 3 s for its first answer) and edited as before.

A move played on the table or from a DM is answered the same way by its publish: the publisher builds
the redrawn table (or DM) and sends it through the click (:func:`redraw_through`), as the update of the
clicked message when the click is not answered yet, else as an edit after its deferral. Every move's
last click then costs one call, not two, when its publish is quick. A DM so redrawn says "✅ Played"
itself (:attr:`ClickAnswer.played_shown`): no word of it follows."""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

import discord

from bot.unparsed import edit_original, update_message

log = logging.getLogger(__name__)

QUICK = 1.5  # seconds from the click: an answer not ready by then is deferred (Discord allows 3)
_KEY = "click_answer"  # where an interaction's ClickAnswer is kept (Interaction.extras)


class ClickAnswer:
    """The one answer of a click: :meth:`update` sends it (the update itself, or an edit after the
    deferral); :meth:`close` (always, after the work) stops the deferral that was not needed."""

    def __init__(self, interaction: discord.Interaction, quick: float | None = None) -> None:
        self.interaction = interaction
        quick = QUICK if quick is None else quick
        loop = asyncio.get_running_loop()
        self._lock = asyncio.Lock()
        # the click's age: the time it waited on the way here (the gateway, a busy event loop) counts;
        # a clock apart from Discord's can only make the deferral come sooner, never later than `quick`
        age = time.time() - interaction.created_at.timestamp()
        # A timer, not a sleeping task: most clicks are answered in time, and a timer cancelled leaves
        # nothing behind, where a task cancelled leaves its exception, traceback and frames in a
        # reference cycle with this answer (and so with the interaction) for the collector to find.
        self._deferral: asyncio.TimerHandle | None = loop.call_later(
            min(quick, max(0.0, quick - age)), self._defer_late
        )
        self._deferring: asyncio.Task | None = None  # the deferral, once its time came
        self._stopped = False  # answered (or about to be): no deferral from now on
        # whether the clicked message, redrawn through this click, says "✅ Played" itself (a DM): then
        # no word of it follows
        self.played_shown = False
        # done once the table shows the click's move: its "✅ Played" need not wait for the rest of the
        # publish (the pings, the followers' DMs)
        self._on_table: asyncio.Future[None] = loop.create_future()
        interaction.extras[_KEY] = self  # the publisher answers through it (redraw_through)

    def _defer_late(self) -> None:
        self._deferral = None
        self._deferring = asyncio.create_task(self._defer_now())

    async def _defer_now(self) -> None:
        async with self._lock:
            if self._stopped or self.interaction.response.is_done():
                return
            try:
                await self.interaction.response.defer()
            except discord.HTTPException:  # (the update then fails too, and is told as any error)
                log.warning("interaction %s: its deferral failed", self.interaction.id, exc_info=True)

    def _stop(self) -> None:
        """No deferral from now on (called under the lock: a deferral under way has finished)."""
        self._stopped = True
        if self._deferral is not None:
            self._deferral.cancel()
            self._deferral = None

    async def defer(self) -> None:
        """Acknowledge the click now (a move from a DM: its publish redraws the DM through the click)."""
        async with self._lock:
            self._stop()
            if not self.interaction.response.is_done():
                await self.interaction.response.defer()

    async def update(self, **fields: Any) -> None:
        """Answer with ``fields`` (content, view, attachments) as the clicked message's new content."""
        async with self._lock:  # (a deferral under way is finished first: it holds the lock)
            self._stop()
            if self.interaction.response.is_done():
                await edit_original(self.interaction, **fields)
            else:
                await update_message(self.interaction, **fields)

    @property
    def on_table(self) -> bool:
        """Whether the table shows the click's move (told by the publish: :func:`table_shown`)."""
        return self._on_table.done()

    def table_shows(self) -> None:
        if not self._on_table.done():
            self._on_table.set_result(None)

    async def shown(self, published: asyncio.Future | None) -> None:
        """Wait until the table shows the click's move: told by the publish (:func:`table_shown`), or
        the publish that covers it done (``published``; it may have failed before the table)."""
        if published is None or published.done() or self._on_table.done():
            return
        # (futures only: nothing to cancel after)
        await asyncio.wait((self._on_table, published), return_when=asyncio.FIRST_COMPLETED)

    async def close(self) -> None:
        """After the work (answered, or its error about to be replied): no deferral from now on. An
        answered click lets go of this answer: a later redraw through it (:func:`redraw_through`) is an
        edit, the call :meth:`update` would make, and the interaction is left in no reference cycle
        with it (see cogs/clicks.py)."""
        async with self._lock:
            self._stop()
            if self.interaction.response.is_done() and self.interaction.extras.get(_KEY) is self:
                del self.interaction.extras[_KEY]


def answerable(via: discord.Interaction) -> bool:
    """Whether the clicked message can be redrawn through ``via``: its click is answered (an edit of
    it then), or waits for its answer (:class:`ClickAnswer`: the redraw is that answer)."""
    return via.response.is_done() or isinstance(via.extras.get(_KEY), ClickAnswer)


async def redraw_through(via: discord.Interaction, *, played: bool = False, **fields: Any) -> None:
    """The clicked message (a table or a DM) redrawn with ``fields`` through its click ``via``: as the
    click's own answer (one call) while it has none, else as an edit of it (deferred, or answered
    already). ``played``: the redrawn message says that the click's move was played."""
    answer = via.extras.get(_KEY)
    if isinstance(answer, ClickAnswer):
        await answer.update(**fields)
        answer.played_shown = answer.played_shown or played
    else:
        await edit_original(via, **fields)


def awaited(vias: tuple[object, ...]) -> bool:
    """Whether a click among ``vias`` still waits for its move to be shown: every click does, but one
    that its DM, redrawn through it, answered already ("✅ Played" said there)."""
    for via in vias:
        if isinstance(via, discord.Interaction):
            answer = via.extras.get(_KEY)
            if not (isinstance(answer, ClickAnswer) and answer.played_shown):
                return True
    return False


def table_shown(vias: tuple[object, ...]) -> None:
    """The table shows the moves of the clicks ``vias`` now: their answers may go."""
    for via in vias:
        if isinstance(via, discord.Interaction):
            answer = via.extras.get(_KEY)
            if isinstance(answer, ClickAnswer):
                answer.table_shows()
