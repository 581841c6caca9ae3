"""Delivery: the one place that sends game messages to Discord.

Public updates go to the game's channel: a board message that is edited in
place after every move (a new one is posted only when the channel has moved
on), and a turn message that mentions whoever must act and carries the
controls (the previous one is deleted, so no stale buttons stay around).
Private views go by DM; a DM that Discord refuses (50007) marks the seat,
tells the player to use the "My view" button, and never stops the game.
When the bot may not attach files in a channel, the board goes as text.
When the game's channel (or thread) is gone (Discord's Unknown Channel, 10003), a delivery to it
raises :class:`ChannelGone` and the host suspends the game.
"""

from __future__ import annotations

import asyncio
import hashlib
import io
import logging
import time

import discord

import rendering
from bot import menus, ui
from bot.games import canonical, fill_names
from bot.storage import Storage
from bot.tables import ChannelGone, Table

log = logging.getLogger("admiralty.delivery")

SEAT_MARKS = ["🔵", "🔴", "🟢", "🟠", "🟣", "⚪"]
NO_ATTACH_MEMORY = 600.0  # seconds we remember that a channel refused attachments
MAX_CONTENT = 2000
UNKNOWN_CHANNEL = 10003  # Discord's error code when a channel (or thread) does not exist


def channel_gone(table: Table, error: BaseException) -> ChannelGone | None:
    """The ChannelGone to raise when ``error`` says the game's channel does not exist, else None."""
    if isinstance(error, discord.NotFound) and error.code == UNKNOWN_CHANNEL:
        return ChannelGone(table.id, table.channel_id)
    return None


def said(table: Table, text: str) -> str:
    """A game's text (event, prompt, label) with its seat references filled with the players' names."""
    return fill_names(text, table.names())


def move_no(table: Table) -> int:
    """The move number beside the board: the game's own count where its images print one, else
    the host's (every action counts)."""
    own = table.game.move_number() if table.game is not None else None
    return table.version if own is None else own


def clip(text: str, limit: int = MAX_CONTENT) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def seat_label(table: Table, seat: int) -> str:
    row = table.seat_row(seat)
    mark = SEAT_MARKS[seat % len(SEAT_MARKS)]
    who = f"<@{row.user_id}>" if row.user_id and not row.is_ai else f"**{row.name}**"
    return f"{mark} {who}"


def your_turn(prompt: str) -> str:
    """'**Your turn** — <prompt>', without saying it twice when the game's prompt already does."""
    bare = prompt.strip()
    if bare.lower().startswith("your turn"):
        bare = bare[len("your turn"):].lstrip(" :—-,.")
    return f"**Your turn** — {bare}" if bare else "**Your turn**"


def my_view_label(table: Table) -> str:
    """The label of the button that shows a player their private view ("My hand", "My ship", …)."""
    spec = table.spec
    return spec.extra.get("my_view_label") or ("My hand" if spec.has_private_view else "My view")


def result_text(table: Table) -> str:
    game = table.game
    result = game.result or {}
    scores = result.get("scores", {})
    winners = result.get("winners", [])
    parts = []
    for seat in range(len(table.seats)):
        score = scores.get(str(seat), scores.get(seat))
        parts.append(f"{seat_label(table, seat)} {score if score is not None else ''}".rstrip())
    if not winners:
        head = "🏁 **Game over** — nobody wins."
    elif len(winners) == len(table.seats) and len(winners) > 1:
        head = "🏁 **Game over** — " + ("everyone wins together!" if len(table.seats) > 1 else "victory!")
    elif len(winners) > 1:
        head = "🏁 **Game over** — a tie between " + ", ".join(seat_label(table, w) for w in winners) + "."
    else:
        head = f"🏁 **Game over** — {seat_label(table, winners[0])} wins!"
    return head + "\nFinal scores: " + " · ".join(parts)


class DiscordDelivery:
    def __init__(self, client: discord.Client, storage: Storage) -> None:
        self.client = client
        self.storage = storage
        self._no_attach: dict[int, float] = {}
        # What each seat's DM last showed: (digest of its view, whether it carried controls).
        self._dm_state: dict[tuple[int, int], tuple[str, bool]] = {}

    # ------------------------------------------------------------- helpers
    def channel(self, channel_id: int) -> discord.abc.Messageable:
        return self.client.get_channel(channel_id) or self.client.get_partial_messageable(channel_id)

    def can_attach(self, channel_id: int) -> bool:
        until = self._no_attach.get(channel_id)
        if until is not None and until > time.monotonic():
            return False
        channel = self.client.get_channel(channel_id)
        guild = getattr(channel, "guild", None)
        if channel is not None and guild is not None and guild.me is not None:
            try:
                return channel.permissions_for(guild.me).attach_files
            except Exception:  # noqa: BLE001 - partial caches
                return True
        return True

    async def image(self, table: Table, seat: int | None) -> bytes | None:
        if not rendering.has_renderer(table.row.game_key):
            return None
        view = table.game.view(seat)
        return await asyncio.to_thread(rendering.render, table.row.game_key, view, table.names())

    async def _send(self, channel_id: int, content: str, *, png: bytes | None, text_board: str,
                    view: discord.ui.View | None = None, filename: str = "board.png") -> discord.Message:
        """Send with the image, or with the text board where attachments are refused."""
        channel = self.channel(channel_id)
        kwargs = {"view": view} if view is not None else {}
        if png is not None and self.can_attach(channel_id):
            try:
                return await channel.send(clip(content), file=discord.File(io.BytesIO(png), filename), **kwargs)
            except discord.Forbidden as e:
                if e.code != 50013:
                    raise
                self._no_attach[channel_id] = time.monotonic() + NO_ATTACH_MEMORY
                log.info("channel %s refuses attachments; sending the text board", channel_id)
        return await channel.send(clip(content + "\n" + text_board), **kwargs)

    async def _edit(self, channel_id: int, message_id: int, content: str, *, png: bytes | None,
                    text_board: str, view: discord.ui.View | None = None,
                    filename: str = "board.png") -> bool:
        """Edit a message in place: content, image (or text board) and components (None removes them).
        False when the message is gone."""
        message = self.channel(channel_id).get_partial_message(message_id)
        try:
            if png is not None and self.can_attach(channel_id):
                try:
                    await message.edit(content=clip(content), view=view,
                                       attachments=[discord.File(io.BytesIO(png), filename)])
                    return True
                except discord.Forbidden as e:
                    if e.code != 50013:
                        raise
                    self._no_attach[channel_id] = time.monotonic() + NO_ATTACH_MEMORY
            await message.edit(content=clip(content + "\n" + text_board), attachments=[], view=view)
            return True
        except discord.NotFound:
            return False

    async def _delete(self, channel_id: int, message_id: int) -> None:
        log.debug("deleting message %s in %s", message_id, channel_id)
        try:
            await self.channel(channel_id).get_partial_message(message_id).delete()
        except (discord.NotFound, discord.Forbidden):
            pass

    # ---------------------------------------------------------------- lobby
    def lobby_text(self, table: Table, note: str = "") -> str:
        spec = table.spec
        seats = "\n".join(f"{SEAT_MARKS[s.seat % 6]} {s.name}" + (" (host)" if s.user_id == table.row.host_id
                                                                  else "") for s in table.seats)
        opts = ", ".join(f"{k}: {v}" for k, v in table.row.options.items()) or "defaults"
        timer = table.row.turn_timeout
        timer_text = f"{timer / 3600:g} h" if timer and timer >= 3600 else (f"{timer:g} s" if timer else "none")
        text = (f"⚓ **{spec.title}** — game #{table.id}, hosted by <@{table.row.host_id}>\n"
                f"Players ({len(table.seats)}/{spec.max_players}, at least {spec.min_players}):\n{seats}\n"
                f"Options: {opts} · turn timer: {timer_text}\n"
                "Anyone may join (button or `/game join`) and leave. The host alone adds AI seats, "
                "kicks a player or AI seat (`/game kick`), starts or cancels.")
        if note:
            text += f"\n*{note}*"
        return text

    async def lobby(self, table: Table, note: str = "") -> None:
        content = self.lobby_text(table, note)
        stored = await self.storage.get_message(table.id, "lobby")
        if stored is not None:
            try:
                await self.channel(stored[0]).get_partial_message(stored[1]).edit(
                    content=clip(content), view=ui.lobby_view(table.id))
                return
            except discord.NotFound:
                pass
        try:
            msg = await self.channel(table.channel_id).send(clip(content), view=ui.lobby_view(table.id))
        except discord.NotFound as e:
            gone = channel_gone(table, e)
            if gone is None:
                raise
            raise gone from e
        await self.storage.set_message(table.id, "lobby", msg.channel.id, msg.id)

    async def lobby_closed(self, table: Table, text: str) -> None:
        stored = await self.storage.get_message(table.id, "lobby")
        if stored is None:
            return
        content = self.lobby_text(table) + f"\n**{text}**"
        try:
            await self.channel(stored[0]).get_partial_message(stored[1]).edit(content=clip(content), view=None)
        except discord.NotFound:
            pass

    # -------------------------------------------------------------- publish
    def caption(self, table: Table, events: list[dict], note: str = "") -> str:
        lines = [f"⚓ **{table.spec.title}** · game #{table.id} · move {move_no(table)}"]
        texts = [e.get("text") for e in events if "private_to" not in e and e.get("text")]
        if note == "resumed":
            lines.append("*(resumed after a restart)*")
        for text in texts[-12:]:
            lines.append(f"> {said(table, text)}")
        return "\n".join(lines)

    def turn_text(self, table: Table) -> str:
        game = table.game
        if game.is_over:
            return result_text(table)
        to_act = game.to_act()
        if len(to_act) == 1:
            seat = to_act[0]
            text = f"{seat_label(table, seat)}, {your_turn(said(table, game.prompt(seat)))}"
            if table.seat_row(seat).is_ai:  # an AI seat's name already says "(AI)"
                text = f"{seat_label(table, seat)} is thinking…"
        else:
            names = ", ".join(seat_label(table, s) for s in to_act)
            text = f"Waiting for {names} to choose in secret (DMs, or the **My view** button)."
        if table.row.deadline:
            text += f"\n⏳ Time limit: <t:{int(table.row.deadline)}:R>"
        return text

    async def publish(self, table: Table, events: list[dict], note: str = "", actor: int | None = None) -> None:
        """Board, turn message, then private views. Each step is tried even if an earlier one
        failed; the first failure is raised at the end so that the host retries the whole."""
        failures: list[BaseException] = []
        for step in (self._publish_board, self._publish_turn):
            try:
                await step(table, events, note)
            except discord.HTTPException as e:
                gone = channel_gone(table, e)
                if gone is not None:
                    raise gone from e
                failures.append(e)
                log.warning("game %s: %s failed: %s", table.id, step.__name__, e)
        if table.spec.has_private_view:
            for seat_row in table.seats:
                if seat_row.is_ai or not seat_row.user_id:
                    continue
                private = [e for e in events if e.get("private_to") == seat_row.seat]
                try:
                    await self.private(table, seat_row.seat, private, in_place=seat_row.seat == actor)
                except discord.HTTPException as e:
                    failures.append(e)
                    log.warning("game %s: private update for seat %s failed: %s", table.id, seat_row.seat, e)
        if failures:
            raise failures[0]

    async def _publish_board(self, table: Table, events: list[dict], note: str) -> None:
        game = table.game
        channel_id = table.channel_id
        png = await self.image(table, None)
        text_board = game.text_view(game.view(None), table.names())
        caption = self.caption(table, events, note)
        board = await self.storage.get_message(table.id, "board")
        turn = await self.storage.get_message(table.id, "turn")
        # Keep the board where people look: edit it in place unless the channel has moved on
        # (someone chatted after our turn message), in which case post it again below.
        channel = self.client.get_channel(channel_id)
        last = getattr(channel, "last_message_id", None)
        moved_on = turn is not None and last is not None and last != turn[1]
        edited = False
        if board is not None and not moved_on and note not in ("resumed", "status"):
            edited = await self._edit(board[0], board[1], caption, png=png, text_board=text_board)
        if not edited:
            msg = await self._send(channel_id, caption, png=png, text_board=text_board)
            await self.storage.set_message(table.id, "board", msg.channel.id, msg.id)
            if board is not None:
                await self._delete(board[0], board[1])

    async def _publish_turn(self, table: Table, events: list[dict], note: str) -> None:
        """A fresh turn message, so that the mention notifies and no stale controls remain."""
        turn = await self.storage.get_message(table.id, "turn")
        msg = await self.channel(table.channel_id).send(
            clip(self.turn_text(table)), view=self.turn_controls(table),
            allowed_mentions=discord.AllowedMentions(users=True, roles=False, everyone=False))
        await self.storage.set_message(table.id, "turn", msg.channel.id, msg.id)
        if turn is not None:
            await self._delete(turn[0], turn[1])

    def turn_controls(self, table: Table) -> discord.ui.View | None:
        game = table.game
        if game.is_over:
            return None
        label = my_view_label(table)
        to_act = game.to_act()
        if table.spec.public_controls and len(to_act) == 1 and not table.seat_row(to_act[0]).is_ai:
            seat = to_act[0]
            level = menus.open_level(game, seat, names=table.names())
            if level is not None and level.entries:
                return ui.menu_view(table.id, table.version, seat, level, my_view_label=label)
        return ui.my_view_only(table.id, label)

    # -------------------------------------------------------------- private
    def private_controls(self, table: Table, seat: int) -> tuple[str, discord.ui.View | None]:
        game = table.game
        if game.is_over or seat not in game.to_act():
            return "", None
        level = menus.open_level(game, seat, names=table.names())
        if level is None or not level.entries:
            return "", None
        return said(table, game.prompt(seat)), ui.menu_view(table.id, table.version, seat, level)

    async def private(self, table: Table, seat: int, private_events: list[dict], *, in_place: bool = False) -> None:
        """Send or update the DM of one seat: its private view, private events, its controls.

        A new message (which notifies) when the seat is newly asked to act or learns something
        private; otherwise, and for the seat that just acted (it is looking at its DM), the
        existing message is edited in place. When someone else acted and nothing this seat sees
        changed (the other half of a secret choice), its DM is left alone: no ping, and a menu it
        is in the middle of stays as it is."""
        row = table.seat_row(seat)
        if row.dm_ok is False:
            return
        game = table.game
        prompt, view = self.private_controls(table, seat)
        asked = view is not None
        seen = hashlib.blake2s(canonical(game.view(seat)).encode(), digest_size=8).hexdigest()
        key = (table.id, seat)
        before = self._dm_state.get(key)
        stored = await self.storage.get_message(table.id, f"dm:{seat}")
        if (stored is not None and not in_place and not private_events and before == (seen, asked)):
            return
        newly_asked = asked and (before is None or not before[1])
        png = await self.image(table, seat)
        lines = [f"⚓ **{table.spec.title}** · game #{table.id} · move {move_no(table)}"]
        lines += [f"> {said(table, e['text'])}" for e in private_events if e.get("text")]
        if prompt:
            lines.append(your_turn(prompt))
        content = "\n".join(lines)
        text_board = game.text_view(game.view(seat), table.names())
        try:
            dm = await self.client.create_dm(discord.Object(row.user_id))
            if stored is not None and (in_place or not (newly_asked or private_events)):
                if await self._edit(stored[0], stored[1], content, png=png, text_board=text_board,
                                    view=view, filename="view.png"):
                    self._dm_state[key] = (seen, asked)
                    return
            if stored is not None:
                await self._delete(stored[0], stored[1])
            msg = await self._send(dm.id, content, png=png, text_board=text_board, view=view,
                                   filename="view.png")
            await self.storage.set_message(table.id, f"dm:{seat}", dm.id, msg.id)
            self._dm_state[key] = (seen, asked)
        except discord.Forbidden as e:
            if e.code != 50007:
                raise
            await self.storage.update_seat(table.id, seat, dm_ok=False)
            await self.notice(table, f"<@{row.user_id}>, I cannot send you direct messages: "
                                     f"use the **{my_view_label(table)}** button under the board to see your "
                                     "view and act.")

    # ----------------------------------------------------------------- misc
    async def ended(self, table: Table, text: str) -> None:
        """The game stopped early: the turn message loses its controls, the DMs too."""
        kinds = ["turn"] + [f"dm:{s.seat}" for s in table.seats]
        for kind in kinds:
            stored = await self.storage.get_message(table.id, kind)
            if stored is None:
                continue
            try:
                await self.channel(stored[0]).get_partial_message(stored[1]).edit(content=f"🏳️ {text}", view=None)
            except discord.HTTPException:
                log.info("game %s: could not retire the %s message", table.id, kind)

    async def notice(self, table: Table, text: str) -> None:
        try:
            await self.channel(table.channel_id).send(
                clip(text), allowed_mentions=discord.AllowedMentions(users=True, roles=False, everyone=False))
        except discord.NotFound as e:
            gone = channel_gone(table, e)
            if gone is None:
                raise
            raise gone from e

    async def remind(self, table: Table, seats: list[int], seconds_left: float) -> None:
        who = ", ".join(seat_label(table, s) for s in seats)
        deadline = int(time.time() + seconds_left)
        await self.notice(table, f"⏰ {who}: it is still your turn in **{table.spec.title}**; "
                                 f"a move will be made for you <t:{deadline}:R>.")
        for seat in seats:
            row = table.seat_row(seat)
            if row.dm_ok is False or not row.user_id:
                continue
            try:
                dm = await self.client.create_dm(discord.Object(row.user_id))
                await dm.send(f"⏰ Your turn in **{table.spec.title}** (game #{table.id}) in <#{table.channel_id}>: "
                              f"a move will be made for you <t:{deadline}:R>.")
            except discord.HTTPException:
                log.info("game %s: reminder DM to seat %s not delivered", table.id, seat)

    async def probe_dm(self, user_id: int, text: str) -> bool:
        try:
            dm = await self.client.create_dm(discord.Object(user_id))
            await dm.send(text)
            return True
        except discord.Forbidden as e:
            if e.code == 50007:
                return False
            raise
        except discord.HTTPException:
            log.warning("could not probe DMs of user %s", user_id, exc_info=True)
            return False
