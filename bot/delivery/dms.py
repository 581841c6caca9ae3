"""Private views by DM: one message per seat and game, edited in place, touched only when that seat's
own controls or knowledge changed. A DM that Discord refuses (50007) marks the seat, which then uses
the "My view" button on the table. A seat whose owner plays from the table shows only that button in
its DM (stored as its ``dmview`` digest, :data:`bot.delivery.stored.AWAY`) until they press it."""

from __future__ import annotations

import functools
import logging

import discord

from bot import layout, menus, ui
from bot.click_answer import redraw_through
from bot.games import who
from bot.i18n import N_, SOURCE, Phrase, Speaker
from bot.storage import Storage
from bot.summary import moves_of
from bot.tables import Table

from .stored import AWAY, AWAY_TREE, Stored, dm_digest
from .transport import Transport, picture, via_for, via_on
from .words import MAX_CONTENT, alt_text, clip, my_view_label, result_text, said, view_words, your_turn

log = logging.getLogger("admiralty.delivery")

DM_REFUSED = 50007  # Discord's Cannot send messages to this user


# How often a DM is drawn again when another process recorded a drawing of its own while this one's
# edit was in flight (see DirectMessages.update): each time means a third drawing raced the second.
REDRAWS = 3
LOCALES_KEPT = 50_000  # players whose language a process keeps in mind (forgotten all at once when full)


class DirectMessages:
    def __init__(self, transport: Transport, storage: Storage, *, shared: bool = False) -> None:
        """``shared``: other processes publish the same games (shards of one bot on one database)."""
        self.transport = transport
        self.storage = storage
        self.shared = shared
        # Each player's language as this process last knew it (their clicks carry it; else one read of
        # what they last used, bot/languages.py): a DM is theirs alone, in their language.
        self.locales: dict[int, str] = {}

    async def speaker_for(self, user_id: int, vias: tuple[object, ...] = ()) -> Speaker:
        """The language of ``user_id``'s DMs: the one their click (in ``vias``) was made in, else the one
        known for them (read once per process)."""
        for via in vias:
            if isinstance(via, discord.Interaction) and via.user.id == user_id:
                self.locales[user_id] = str(via.locale.value)
        if user_id not in self.locales:
            if len(self.locales) >= LOCALES_KEPT:
                self.locales.clear()
            self.locales[user_id] = await self.storage.user_locale(user_id) or SOURCE
        return Speaker(self.locales[user_id])

    def controls(
        self, table: Table, seat: int, speaker: Speaker | None = None
    ) -> tuple[str, discord.ui.View | None]:
        """The seat's prompt and menu when it is to act, else nothing; in the player's language."""
        speaker = speaker or Speaker(SOURCE)
        game = table.engine
        if table.over or seat not in game.to_act():
            return "", None
        level = menus.open_level(game, seat, names=table.names(speaker), speaker=speaker)
        if level is None or not level.entries:
            return "", None
        prompt = said(table, game.prompt(seat, **menus.in_language(speaker)), speaker)
        return prompt, ui.menu_view(table.id, table.version, seat, level, speaker=speaker)

    async def update(
        self,
        table: Table,
        seat: int,
        private_events: list[dict],
        *,
        in_place: bool = False,
        vias: tuple[object, ...] = (),
        follow: bool = False,
        messages: Stored | None = None,
    ) -> bool:
        """Keep the DM of one seat (one message per game, edited in place, never re-posted while it
        exists): its private view, private events, its controls.

        Touched only when something of its own changed: its turn began or ended, its menu changed, it
        learnt something private, or it is the seat that just acted from this DM (``in_place``, edited
        through the newest of ``vias``, its clicks). Another seat's move leaves it alone: a menu it is in
        the middle of stays under its cursor (its buttons stay valid through the menu digest). The seat
        whose turn begins is told by the channel's ping, not by a new DM. A seat whose owner played from
        the table instead (its menus there) is left alone, private news too (its view there shows it),
        until they press the DM's button. Edits go through a live interaction token of that DM where
        one is held. True when Discord refused the DM (the seat is then marked: its ``dm_ok`` is False).

        What the DM shows is recorded (compare-and-set) before it is drawn, so two processes' drawings
        are recorded in some order; but their edits, both in flight, may reach Discord in the other
        order, the older drawing landing last over a newer record. So with other processes about
        (``shared``), the record is read again after the edit: when another drawing was recorded
        meanwhile, this DM is drawn again (decided on that record, drawn even when it looks the same)
        and recorded again, so that the drawing that lands last is the one recorded last; unless the game
        has moved past this table's version: then the record is dropped and the newer version's publish
        draws the DM (the last write wins by version)."""
        row = table.seat_row(seat)
        if row.dm_ok is False:
            return False
        messages = messages or Stored(self.storage, table.id)
        stored = await messages.get(f"dm:{seat}")
        dm_via = via_for(vias, stored)
        speaker = await self.speaker_for(row.user_id, vias) if row.user_id is not None else Speaker(SOURCE)
        for redraw in range(REDRAWS + 1):
            decided = await self._decide(
                table,
                seat,
                private_events,
                in_place,
                vias,
                follow,
                messages,
                stored,
                dm_via,
                redraw > 0,
                speaker,
            )
            if decided is None:
                return False
            prompt, view, away, drawn = decided
            try:
                if await self._draw(
                    table, seat, private_events, prompt, view, away, messages, stored, dm_via, speaker
                ):
                    return True
            finally:
                if view is not None:
                    layout.dissolve(view)
            if not self.shared or await messages.dm_still_shown(seat, drawn):
                return False
            game_row = await self.storage.get_game(table.id)
            if game_row is not None and game_row.version > table.version:
                # this drawing is of an older version than the game's: not drawn again over a newer one;
                # the record is dropped (what the DM shows is not known) and the next publish of this
                # process, which catches up with the newer version (Publisher._catch_up), draws it
                log.info(
                    "game %s: seat %s's DM was drawn elsewhere meanwhile; left to the newer version",
                    table.id,
                    seat,
                )
                await messages.delete(f"dmview:{seat}")
                return False
            log.info("game %s: seat %s's DM was drawn elsewhere meanwhile; drawing it again", table.id, seat)
            stored = await messages.get(f"dm:{seat}")
        return False

    async def _decide(
        self,
        table: Table,
        seat: int,
        private_events: list[dict],
        in_place: bool,
        vias: tuple[object, ...],
        follow: bool,
        messages: Stored,
        stored: tuple[int, int] | None,
        dm_via: discord.Interaction | None,
        force: bool,
        speaker: Speaker,
    ) -> tuple[str, discord.ui.View | None, bool, tuple[int, int]] | None:
        """What the seat's DM shows now (prompt, view, whether it waits for its button, its digest),
        recorded as drawn; None when it already shows that and nothing calls for an edit (``force``: it
        is drawn anyway)."""
        row = table.seat_row(seat)
        game = table.engine
        while True:
            # decided on what the DM shows as recorded; drawn only if no other process recorded a
            # drawing of its own since (else decided again on that: see Stored.dm_draws)
            before = await messages.dm_shown(seat)
            if dm_via is not None or follow:
                away = False
            elif in_place and any(
                isinstance(c, discord.Interaction) and c.user.id == row.user_id for c in vias
            ):
                away = True  # played from the table: this DM no longer follows every move
            else:
                away = before is not None and tuple(before) == AWAY
            away = away and not table.over
            view: discord.ui.View | None
            if away:
                label = my_view_label(table, speaker)
                prompt, view = "", ui.my_view_only(table.id, label)
                asked, tree = False, AWAY_TREE
            else:
                prompt, view = self.controls(table, seat, speaker)
                asked = view is not None
                tree = menus.build_tree(game, seat, table.names()).key if asked else ""
            acted_here = in_place and not away
            news = private_events and not away  # a seat away sees its news in its view ("My view")
            if (
                stored is not None
                and dm_via is None
                and not follow
                and not force
                and not acted_here
                and not news
                and before is not None
                and tuple(before) == dm_digest(asked, tree)
            ):
                return None
            if await messages.dm_draws(seat, before, asked, tree):
                return prompt, view, away, dm_digest(asked, tree)

    async def _draw(
        self,
        table: Table,
        seat: int,
        private_events: list[dict],
        prompt: str,
        view: discord.ui.View | None,
        away: bool,
        messages: Stored,
        stored: tuple[int, int] | None,
        dm_via: discord.Interaction | None,
        speaker: Speaker,
    ) -> bool:
        """Edit (or send) the seat's DM as decided, in the player's language. True when Discord refused
        the DM."""
        _ = speaker.gettext
        row = table.seat_row(seat)
        game = table.engine
        png = await self.transport.image(table, seat, urgent=dm_via is not None)  # (the click's answer)
        moves = await moves_of(self.storage, table)
        lines = [
            "⚓ "
            + _("**{game}** · game #{id} · move {moves}", game=_(table.spec.title), id=table.id, moves=moves)
        ]
        # The move this seat just played from here, said where the DM is redrawn through its click (never
        # a DM away): the click's answer then, no word of it follows. Labels are in the clicker's language.
        played = (
            [e["text"] for e in private_events if e.get("type") == "played"] if dm_via is not None else []
        )
        if played:
            lines.append(_("✅ Played: {move}", move=speaker.say(played[-1])))
        lines += [
            f"> {said(table, e['text'], speaker)}"
            for e in private_events
            if e.get("text") and e.get("type") != "played" and not away
        ]
        if prompt:
            lines.append(your_turn(prompt, speaker))
        elif table.over:
            lines.append(result_text(table, moves, speaker))
        elif away:
            away_text = _(
                "You play from the table: this shows move {moves}. Press **{button}** here to see it now "
                "and play from here.",
                moves=moves,
                button=my_view_label(table, speaker),
            )
            lines.append(f"*{away_text}*")
        own = game.view(seat)

        @functools.cache
        def text_board() -> str:  # (the board as text: made only where no picture goes)
            return game.text_view(own, table.names(speaker), **menus.in_language(speaker))

        words = view_words(table, own, speaker)
        if words:  # the game's words under the rest, in the room the rest (and a text board) leaves
            room = MAX_CONTENT - len("\n".join(lines)) - 1 - (len(text_board()) + 1 if png is None else 0)
            if room > 100:
                lines.append(clip(words, room))
        content = "\n".join(lines)
        alt = alt_text(table, own, seat, moves, speaker)
        try:
            if dm_via is not None:
                try:
                    if png is not None:
                        await redraw_through(
                            dm_via,
                            played=bool(played),
                            content=clip(content),
                            view=view,
                            attachments=[picture(png, "view.png", alt)],
                        )
                    else:
                        await redraw_through(
                            dm_via,
                            played=bool(played),
                            content=clip(content + "\n" + text_board()),
                            view=view,
                            attachments=[],
                        )
                    return False
                except discord.HTTPException:
                    log.info("game %s: editing seat %s's DM through the interaction failed", table.id, seat)
            if stored is not None:
                if await self.transport.edit(
                    stored[0],
                    stored[1],
                    content,
                    png=png,
                    text_board=text_board,
                    view=view,
                    filename="view.png",
                    alt=alt,
                ):
                    return False
                dm_id = stored[0]  # the message is gone; the DM channel is known (no create-DM call)
            else:
                assert row.user_id is not None  # DMs are kept for human seats only
                dm_id = (await self.transport.client.create_dm(discord.Object(row.user_id))).id
            msg = await self.transport.send(
                dm_id, content, png=png, text_board=text_board, view=view, filename="view.png", alt=alt
            )
            await messages.set(f"dm:{seat}", dm_id, msg.id)
        except discord.Forbidden as e:
            if e.code != DM_REFUSED:
                await messages.delete(f"dmview:{seat}")  # not drawn: the next publish draws it
                raise
            await self.storage.update_seat(table.id, seat, dm_ok=False)
            await self.storage.add_log(  # kept as data: each reader reads it in their language
                table.id,
                Phrase(
                    N_("I cannot send {player} direct messages: they use the {button} button on the table."),
                    player=who(seat),
                    button=Phrase(table.spec.private_words.label),
                ),
            )
            return True
        except Exception:
            await messages.delete(f"dmview:{seat}")  # not drawn as recorded: the next publish draws it
            raise
        return False

    async def refresh(self, table: Table, seat: int, via: discord.Interaction) -> None:
        """The DM's button was pressed: the DM shows the seat's view and controls now (edited through
        the click) and follows the game again."""
        stored = await self.storage.get_message(table.id, f"dm:{seat}")
        await self.update(
            table, seat, [], in_place=True, vias=(via,) if via_on(via, stored) else (), follow=True
        )

    async def retire(self, table: Table, text: str, messages: Stored) -> None:
        """The game stopped early: each DM (and a turn message of games started before the table)
        says so, without controls."""
        for kind in ["turn"] + [f"dm:{s.seat}" for s in table.seats]:
            stored = await messages.get(kind)
            if stored is None:
                continue
            try:
                await self.transport.retire(stored, f"🏳️ {text}")
            except discord.HTTPException:
                log.info("game %s: could not retire the %s message", table.id, kind)

    async def probe(self, user_id: int, text: str) -> bool:
        """Send ``text`` by DM (a :class:`Phrase` said in the user's language): False when Discord refuses
        DMs to the user."""
        try:
            speaker = await self.speaker_for(user_id)
            dm = await self.transport.client.create_dm(discord.Object(user_id))
            await dm.send(speaker.say(text))
            return True
        except discord.Forbidden as e:
            if e.code == DM_REFUSED:
                return False
            raise
        except discord.HTTPException:
            log.warning("could not probe DMs of user %s", user_id, exc_info=True)
            return False
