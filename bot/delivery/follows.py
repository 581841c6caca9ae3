"""Follow DMs: what a member who follows a game is sent (bot/storage/follows.py holds who follows).

- At the Follow click, one DM says they follow (and finds out whether Discord lets us DM them);
- with "every move", one DM per turn (however many steps it has), sent by the publish that shows the
  next turn begin (a new message, so that it notifies): the table's last public lines, who is to act
  now, a link to the table;
- when the game ends, one DM with the result and a link to the final table; the follows are dropped.

Only what spectators see goes into them: the table's public log lines (never a seat's private one),
its status and result lines. Every follow DM carries the follower's choices and **Unfollow**. Each
goes out once whichever process publishes (claimed in storage first); a DM Discord refuses marks the
follow (``dm_ok``) and none is tried again. A DM failing never fails the publish: the table matters more.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

import discord

from bot import ui
from bot.i18n import Phrase, Speaker
from bot.languages import Languages
from bot.storage import FollowRow, Storage
from bot.storage.follows import turn_key
from bot.summary import moves_of
from bot.tables import Table

from .dms import DM_REFUSED
from .stored import Stored
from .transport import Transport
from .words import clip, result_text, said

log = logging.getLogger("admiralty.delivery")

TURN_LINES = 5  # public lines of a turn a follow DM repeats (the newest)


def table_link(table: Table, stored: tuple[int, int] | None) -> str:
    """A link to the game's table message, or to its channel while it has none."""
    where = table.row.guild_id if table.row.guild_id is not None else "@me"
    if stored is None:
        return f"https://discord.com/channels/{where}/{table.channel_id}"
    return f"https://discord.com/channels/{where}/{stored[0]}/{stored[1]}"


def heading(table: Table, moves: int, speaker: Speaker) -> str:
    return "👁 " + speaker.gettext(
        "**{title}** · game #{id} in {channel} · move {moves}",
        title=speaker.say(Phrase(table.title)),
        id=table.id,
        channel=f"<#{table.channel_id}>",
        moves=moves,
    )


class FollowDMs:
    def __init__(
        self, transport: Transport, storage: Storage, status_text: Callable[[Table, int], str]
    ) -> None:
        """``status_text``: the table's status line (who is to act, the deadline), as the table shows it."""
        self.transport = transport
        self.storage = storage
        self.status_text = status_text
        self.languages = Languages(storage)

    async def welcome(self, table: Table, user_id: int, every_move: bool) -> int | None:
        """The DM that says ``user_id`` now follows the game, in their language; its DM channel's id, or
        None when Discord refuses DMs to them."""
        speaker = await self.languages.of_user(user_id)
        params = {
            "title": speaker.say(Phrase(table.title)),
            "id": table.id,
            "channel": f"<#{table.channel_id}>",
        }
        text = "👁 " + (
            speaker.gettext(
                "You follow **{title}** (game #{id}) in {channel}: I will DM you every move, and when it ends.",
                **params,
            )
            if every_move
            else speaker.gettext(
                "You follow **{title}** (game #{id}) in {channel}: I will DM you when it ends.", **params
            )
        )
        try:
            dm = await self.transport.client.create_dm(discord.Object(user_id))
            await dm.send(text, view=ui.follow_view(table.id, every_move, speaker=speaker))
        except discord.Forbidden as e:
            if e.code == DM_REFUSED:
                return None
            raise
        return dm.id

    async def publish(self, table: Table, actors: tuple[int, ...], messages: Stored) -> None:
        """The follow DMs this publish owes: the end DM when the game is over, else a turn DM to those who
        follow every move when a turn began (someone new is to act), with the table's last public lines.
        Nothing is read or written when the game has no follower (counted with the publish's read)."""
        if table.over:
            if table.row.followers != 0:
                moves = await moves_of(self.storage, table)
                link = table_link(table, await messages.get("table"))

                def ended(speaker: Speaker) -> str:
                    final = speaker.gettext("[The final table]({link})", link=link)
                    return f"{heading(table, moves, speaker)}\n{result_text(table, moves, speaker)}\n{final}"

                await self._tell_all(table, await self.storage.take_follows(table.id), ended)
            return
        if table.row.status != "running" or table.game is None or table.row.move_followers == 0:
            return
        turn = turn_key(table.game.to_act())
        followers = await self.storage.claim_turn_follows(table.id, table.version, turn)
        if not followers:
            return
        moves = await moves_of(self.storage, table)
        movers = {table.seat_row(s).user_id for s in actors if not table.seat_row(s).is_ai}
        log = table.log if table.log is not None else await self.storage.recent_log(table.id, TURN_LINES)
        lines = [f"> {said(table, line)}" for line in log[-TURN_LINES:]]
        status = self.status_text(table, moves)
        link = table_link(table, await messages.get("table"))
        told = [f for f in followers if f.user_id not in movers]  # not told of their own move
        speakers = await self.languages.of_users([f.user_id for f in told])
        for follow in told:
            speaker = speakers[follow.user_id]
            text = "\n".join(
                [
                    heading(table, moves, speaker),
                    *lines,
                    status,
                    speaker.gettext("[The table]({link})", link=link),
                ]
            )
            view = ui.follow_view(table.id, True, speaker=speaker)
            await self._send(table, follow, text, view, refused_marks=True)

    async def stopped(self, table: Table, text: str) -> None:
        """The game stopped early (abandoned): its followers are told ``text`` (a Phrase said in each
        one's language); the follows are dropped."""
        messages = await Stored.read(self.storage, table.id)
        link = table_link(table, await messages.get("table"))
        await self._tell_all(
            table,
            await self.storage.take_follows(table.id),
            lambda speaker: f"👁 {speaker.say(text)}\n" + speaker.gettext("[The table]({link})", link=link),
        )

    async def _tell_all(self, table: Table, follows: list[FollowRow], text: Callable[[Speaker], str]) -> None:
        """``text`` (in a follower's language) to each follower whose DMs are open (their languages read
        in one query)."""
        follows = [f for f in follows if f.dm_ok]
        speakers = await self.languages.of_users([f.user_id for f in follows])
        for follow in follows:
            speaker = speakers[follow.user_id]
            # the follow is gone: its DM's Unfollow says so (every follow DM has one)
            view = ui.follow_view(table.id, follow.every_move, choices=False, speaker=speaker)
            await self._send(table, follow, text(speaker), view)

    async def _send(
        self,
        table: Table,
        follow: FollowRow,
        text: str,
        view: discord.ui.View,
        *,
        refused_marks: bool = False,
    ) -> None:
        """One DM to a follower (one call: their DM channel is known since they followed). A refusal
        marks the follow (``refused_marks``); another failure is logged: the game goes on."""
        try:
            if follow.dm_channel_id is not None:
                channel: discord.abc.Messageable = self.transport.client.get_partial_messageable(
                    follow.dm_channel_id, type=discord.ChannelType.private
                )
            else:
                channel = await self.transport.client.create_dm(discord.Object(follow.user_id))
            await channel.send(clip(text), view=view, allowed_mentions=discord.AllowedMentions.none())
        except discord.Forbidden as e:
            if e.code != DM_REFUSED:
                log.warning("game %s: a follow DM to %s failed: %s", table.id, follow.user_id, e)
            elif refused_marks:
                await self.storage.follow_refused(table.id, follow.user_id)
        except discord.HTTPException as e:
            log.warning("game %s: a follow DM to %s failed: %s", table.id, follow.user_id, e)
