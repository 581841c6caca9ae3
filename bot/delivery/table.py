"""The table: a game's ONE message in its channel (Components V2, built by ``bot/layout.py``: board,
the last lines of the log, seats, status and controls), edited in place for its whole life; a new one
is posted only when it was deleted. When the edit follows a click on the table itself, it goes
through that interaction, which does not count against Discord's global rate limit."""

from __future__ import annotations

import io
import logging
import time

import discord

import rendering
from bot import layout, menus, ui
from bot.ai_seats import said_name, shows_ai
from bot.click_answer import awaited, redraw_through
from bot.clock_ui import add_more_time, clock_words
from bot.clocks import Clock
from bot.games.names import markdown_name
from bot.i18n import ENGLISH, Speaker
from bot.storage import Storage
from bot.summary import moves_of
from bot.tables import Table

from .channel_language import channel_speaker
from .stored import Stored
from .transport import NO_PERMISSION, Transport, channel_gone, via_for
from .words import alt_text, my_view_label, paused_text, result_text, said, view_words

log = logging.getLogger("admiralty.delivery")


class TableMessage:
    def __init__(self, transport: Transport, storage: Storage) -> None:
        self.transport = transport
        self.storage = storage

    def seats_text(self, table: Table, public: dict | None = None, speaker: Speaker = ENGLISH) -> str:
        """The seats, their marks, scores and who is to act, in the language of ``speaker``; ``public``:
        the spectators' view, when the caller has it already."""
        _ = speaker.gettext
        game = table.game
        to_act = set(game.to_act()) if game is not None and not table.over else set()
        scores = {}
        if game is not None:
            try:
                raw = (public if public is not None else game.view(None)).get("scores")
            except Exception:  # noqa: BLE001 - a view without scores
                raw = None
            if isinstance(raw, dict):
                scores = {int(k): v for k, v in raw.items()}
            elif isinstance(raw, list):
                scores = dict(enumerate(raw))
        clock, now = Clock.from_json(table.row.clock), time.time()
        lines = []
        for row in sorted(table.seats, key=lambda s: s.seat):
            name = markdown_name(said_name(row.name, speaker))
            if row.is_ai and not shows_ai(row.name):
                name = _("{name} (AI)", name=name)
            line = f"{layout.seat_mark(row.seat)} **{name}**"
            if row.seat in scores:
                line += f" · {scores[row.seat]}"
            if row.missed and not row.is_ai:
                line += " · " + _("away")
            if row.seat in to_act:
                line += " · " + _("▶ to act")
            if clock is not None and not row.is_ai and not table.over:
                line += clock_words(clock, row.seat, now, speaker)
            lines.append(line)
        return "\n".join(lines)

    def status_text(self, table: Table, moves: int, speaker: Speaker = ENGLISH) -> str:
        """Who is to act (or the result, or why the game waits), the deadline and a pause, in the
        language of ``speaker``."""
        _ = speaker.gettext
        game = table.engine
        if table.over:
            return result_text(table, moves, speaker)
        if table.deserted:
            return paused_text(table, speaker)
        to_act = game.to_act()
        if len(to_act) == 1:
            seat = to_act[0]
            row = table.seat_row(seat)
            if row.is_ai:
                text = _(
                    "{mark} **{name}** is thinking…",
                    mark=layout.seat_mark(seat),
                    name=table.shown_name(seat, speaker),
                )
            else:
                prompt = said(table, game.prompt(seat, **menus.in_language(speaker)), speaker).strip()
                who = {"mark": layout.seat_mark(seat), "name": table.shown_name(seat, speaker)}
                text = (
                    _("▶ {mark} **{name}** to act — {prompt}", prompt=prompt, **who)
                    if prompt
                    else _("▶ {mark} **{name}** to act", **who)
                )
        else:
            names = ", ".join(f"**{table.shown_name(s, speaker)}**" for s in to_act)
            text = _(
                "Waiting for {players} to choose in secret — see your DMs or **{button}**",
                players=names,
                button=my_view_label(table, speaker),
            )
        if table.row.deadline:
            text += f"\n⏳ <t:{int(table.row.deadline)}:R>"
        clock = Clock.from_json(table.row.clock)
        if clock is not None and clock.paused:
            text += "\n" + _("⏸ Paused by agreement: no moves, no clock, until a player uses `/game resume`.")
        return text

    def controls(
        self, table: Table, level: menus.Level | None = None, speaker: Speaker = ENGLISH
    ) -> list[list[discord.ui.Item]]:
        game = table.engine
        if table.over:
            return [[ui.play_again_button(table.id, speaker), ui.replay_button(table.id, speaker)]]
        label = my_view_label(table, speaker) if table.spec.has_private_view else None
        to_act = game.to_act()
        view = None
        if table.spec.public_controls and len(to_act) == 1 and not table.seat_row(to_act[0]).is_ai:
            seat = to_act[0]
            if level is None:
                level = menus.open_level(game, seat, names=table.names(speaker), speaker=speaker)
            if level is not None and level.entries:
                view = ui.menu_view(
                    table.id, table.version, seat, level, my_view_label=label, speaker=speaker
                )
        if view is None and label:
            view = ui.my_view_only(table.id, label)
        rows: dict[int, list[discord.ui.Item]] = {}
        for item in view.children if view is not None else ():
            rows.setdefault(item.row or 0, []).append(item)
        shown = [rows[r] for r in sorted(rows)]
        if table.row.clock is not None:
            add_more_time(shown, table.id, speaker)
        return shown

    async def view(
        self,
        table: Table,
        *,
        level: menus.Level | None = None,
        status: str | None = None,
        image: bool = True,
        urgent: bool = False,
    ) -> tuple[discord.ui.LayoutView, bytes | None]:
        """The table's LayoutView and its PNG (None: no image, or the text board is shown instead), in the
        server's language; ``status``: why the game stopped early (shown without controls); ``urgent``:
        it answers a click on the table (its picture drawn before those queued so far)."""
        game = table.engine
        speaker = await channel_speaker(self.transport, self.storage, table)
        over = table.over or status is not None
        to_act = [] if over else game.to_act()
        accent = layout.OVER_COLOUR if over or not to_act else layout.seat_colour(to_act[0])
        # The board is an image where one can be drawn and attached, else the text board. ``image``
        # False: the image already on the message stays (a sub-menu shown in the table's controls).
        attach = rendering.has_renderer(table.row.game_key) and self.transport.can_attach(table.channel_id)
        public = game.view(None)  # built once: the picture, the words, the seats' scores, the alt text
        png = await self.transport.image(table, None, public, urgent=urgent) if image and attach else None
        if image and png is None:  # no picture: it cannot be attached, or drawing it failed
            attach = False
        text_board = (
            None if attach else game.text_view(public, table.names(speaker), **menus.in_language(speaker))
        )
        lines = (
            table.log if table.log is not None else await self.storage.recent_log(table.id, layout.LOG_LINES)
        )
        log_lines = [said(table, line, speaker) for line in lines[-layout.LOG_LINES :]]
        moves = await moves_of(self.storage, table)
        followable = status is None and not over and table.row.status == "running"
        parts = layout.TableParts(
            title=speaker.gettext(
                "⚓ **{game}** · game #{id} · move {move}",
                game=speaker.gettext(table.spec.title),
                id=table.id,
                move=moves,
            ),
            log=log_lines,
            seats=self.seats_text(table, public, speaker),
            status=f"🏳️ {speaker.say(status)}"
            if status is not None
            else self.status_text(table, moves, speaker) + await self.following(table, speaker),
            accent=accent,
            text_board=text_board,
            image=text_board is None,
            controls=[] if status is not None else self.controls(table, level, speaker),
            words=view_words(table, public, speaker),
            alt=alt_text(table, public, None, moves, speaker) if text_board is None else "",
            key=ui.key_button(table.id, speaker),
            follow=ui.follow_button(table.id, speaker) if followable else None,
            text_board_button=ui.text_board_button(table.id, speaker),
        )
        return layout.table_layout(parts), png

    async def following(self, table: Table, speaker: Speaker = ENGLISH) -> str:
        """'👁 3 following' under the status of a running game that has followers: counted with the
        publish's read of the game (``GameRow.followers``), else now."""
        if table.over or table.row.status != "running":
            return ""
        count = table.row.followers
        if count is None:
            count = await self.storage.count_followers(table.id)
        return "\n" + speaker.ngettext("👁 {n} following", "👁 {n} following", count) if count else ""

    async def publish(self, table: Table, vias: tuple[object, ...], messages: Stored) -> None:
        """Show the table as it stands: edited in place (through the newest click on it), or posted."""
        stored = await messages.get("table")
        if stored is None:
            for old in ("board", "turn"):  # games started before the table message
                previous = await messages.get(old)
                if previous is not None and await messages.claim(old, previous[1]):
                    await self.transport.delete(*previous)
        # (urgent: a click waits for this table, its redraw or the "✅ Played" after the publish)
        view, png = await self.view(table, urgent=awaited(vias))
        try:
            await self._show(table, stored, view, png, vias, messages)
        finally:
            layout.dissolve(view)

    async def _show(
        self,
        table: Table,
        stored: tuple[int, int] | None,
        view: discord.ui.LayoutView,
        png: bytes | None,
        vias: tuple[object, ...],
        messages: Stored,
    ) -> None:
        """The table's view sent: edited into its message, or posted (then recorded)."""
        if stored is not None and await self.edit(table, stored, view, png, vias):
            return
        hooks = self.transport.hooks
        channel = self.transport.channel(table.channel_id)
        msg: discord.Message | discord.WebhookMessage | None
        if png is not None:
            try:
                msg = await hooks.post(
                    table.channel_id, view=view, file=discord.File(io.BytesIO(png), layout.BOARD_FILE)
                )
                if msg is None:
                    msg = await channel.send(view=view, file=discord.File(io.BytesIO(png), layout.BOARD_FILE))
                await messages.set("table", msg.channel.id, msg.id)
                return
            except discord.Forbidden as e:
                if e.code != NO_PERMISSION:
                    raise
                self.transport.refused(table.channel_id)
                view, png = await self.view(table)
        msg = await hooks.post(table.channel_id, view=view) or await channel.send(view=view)
        await messages.set("table", msg.channel.id, msg.id)

    async def edit(
        self,
        table: Table,
        stored: tuple[int, int],
        view: discord.ui.LayoutView,
        png: bytes | None,
        vias: tuple[object, ...] = (),
    ) -> bool:
        """Edit the table in place (through the interaction when it was clicked). False when it is gone."""
        files = [discord.File(io.BytesIO(png), layout.BOARD_FILE)] if png is not None else []
        via = via_for(vias, stored)
        if via is not None:
            try:
                await redraw_through(via, view=view, attachments=files)
                return True
            except discord.Forbidden as e:
                if e.code != NO_PERMISSION or not files:
                    raise
                self.transport.refused(table.channel_id)
                view, _ = await self.view(table, image=False)
                await redraw_through(via, view=view, attachments=[])
                return True
            except discord.HTTPException:
                log.info(
                    "game %s: editing the table through the interaction failed; using the channel", table.id
                )
        message = self.transport.message(*stored)
        try:
            try:
                # An earlier click on the table (or the post) whose token still lives: not global-limited.
                if await self.transport.hooks.edit(stored[1], view=view, attachments=files):
                    return True
                files = [discord.File(io.BytesIO(png), layout.BOARD_FILE)] if png is not None else []
                await message.edit(view=view, attachments=files)
            except discord.Forbidden as e:
                if e.code != NO_PERMISSION or not files:
                    raise
                self.transport.refused(table.channel_id)
                view, _ = await self.view(table, image=False)
                await message.edit(view=view, attachments=[])
            return True
        except discord.NotFound as e:
            if channel_gone(table, e) is not None:
                raise
            return False

    async def retire(self, table: Table, text: str, messages: Stored) -> None:
        """The game stopped early: the table shows ``text`` in its status, without controls."""
        stored = await messages.get("table")
        if stored is not None and table.game is not None:
            try:
                view, png = await self.view(table, status=text)
                await self.edit(table, stored, view, png)
            except discord.HTTPException:
                log.info("game %s: could not retire the table", table.id)

    async def shown(self, table: Table) -> bool:
        """Whether the table is still in its channel (/game status posts it again if not)."""
        stored = await self.storage.get_message(table.id, "table")
        if stored is None:
            return False
        try:
            await self.transport.channel(stored[0]).fetch_message(stored[1])
            return True
        except discord.NotFound:
            return False
