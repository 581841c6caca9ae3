"""Interaction tokens the bot may still use: the cheap way to reach Discord.

Discord lets an application use an interaction's token for 15 minutes: to edit the message the
interaction answered (``@original``: for a click answered by a (deferred) update, the clicked
message itself), to post follow-up messages in the interaction's channel, and to edit or delete
those follow-ups. None of these calls counts against the bot's global rate limit (50 requests/s),
unlike the channel routes. This module remembers, for a little less than those 15 minutes:

- *editors*: for a message id, something that can edit (and delete) it through a token: the
  newest click answered by an update of that message, or the follow-up handle of a message the
  bot posted through a token;
- *posters*: for a channel id, the newest interaction in it whose follow-ups make new messages
  (its own answer is done: a click answered by an update, or a deferred reply already sent).

Delivery tries these first and falls back to the channel routes when there is none or Discord
refuses (the token expired, the message is gone). Nothing here decides a game: losing it (a
restart) only makes the next calls global-limited again.
"""

from __future__ import annotations

import asyncio
import io
import logging
import time
from collections.abc import Callable, Sequence
from typing import Any

import discord

from bot.unparsed import edit_followup, edit_original

log = logging.getLogger("admiralty.hooks")

TOKEN_TTL = 14 * 60.0  # seconds we use a token: Discord honours it 15 minutes after the interaction
SWEEP_AT = 4096  # sweep expired entries when a table grows past this
UNKNOWN_CHANNEL = 10003  # raised to the caller: the channel is gone (the game is suspended)
UNKNOWN_WEBHOOK = 10015  # Discord's answer to an interaction token that expired
ANSWER_RETRY_FIRST = 1.0  # seconds before a refused answer (429, 5xx) is sent again; doubles each time
ANSWER_RETRY_MAX = 30.0


def _channel_gone(error: discord.HTTPException) -> bool:
    return isinstance(error, discord.NotFound) and error.code == UNKNOWN_CHANNEL


# what edits a message through a token
Editor = discord.Interaction | discord.WebhookMessage


class Hooks:
    def __init__(self, ttl: float = TOKEN_TTL, clock: Callable[[], float] = time.monotonic) -> None:
        self.ttl = ttl
        self.clock = clock
        # message id -> (the Interaction whose @original it is, or the WebhookMessage, expiry)
        self._editors: dict[int, tuple[Editor, float]] = {}
        # channel id -> (discord.Interaction, expiry)
        self._posters: dict[int, tuple[discord.Interaction, float]] = {}

    # ------------------------------------------------------------ learning
    def _expiry(self, interaction: discord.Interaction) -> float:
        """When we stop using this interaction's token: TOKEN_TTL after it was created."""
        try:
            age = max(0.0, (discord.utils.utcnow() - interaction.created_at).total_seconds())
        except Exception:  # noqa: BLE001 - an interaction without a usable snowflake time
            age = 0.0
        return self.clock() + self.ttl - min(age, self.ttl)

    def clicked(self, interaction: discord.Interaction) -> None:
        """A click answered by a (deferred) update of its message: the token edits that message (a
        table or a DM, not an ephemeral one)."""
        if not interaction.response.is_done():
            return
        message = interaction.message
        if message is not None and not message.flags.ephemeral:
            self._remember(self._editors, message.id, (interaction, self._expiry(interaction)))

    def poster(self, interaction: discord.Interaction) -> None:
        """An interaction whose own answer is complete (answered by an update, or its deferred reply
        already sent): its follow-ups are new messages in its channel. Not before its answer is sent,
        so that what it posts for others never comes before its own answer."""
        kind = interaction.response.type
        settled = kind in (
            discord.InteractionResponseType.deferred_message_update,
            discord.InteractionResponseType.message_update,
            discord.InteractionResponseType.channel_message,
        )
        if not settled or interaction.channel_id is None:
            return
        self._remember(self._posters, interaction.channel_id, (interaction, self._expiry(interaction)))

    def replied(self, interaction: discord.Interaction) -> None:
        """A deferred ("thinking") interaction whose reply was just sent as its first follow-up: from
        now on its follow-ups are new messages."""
        if interaction.channel_id is not None and interaction.response.is_done():
            self._remember(self._posters, interaction.channel_id, (interaction, self._expiry(interaction)))

    def expiry(self, interaction: discord.Interaction) -> float:
        """When this process stops using the interaction's token (on :attr:`clock`)."""
        return self._expiry(interaction)

    def posted(self, message: discord.WebhookMessage, expiry: float) -> None:
        self._remember(self._editors, message.id, (message, expiry))

    def _remember(self, table: dict, key: int, value: tuple[Editor, float]) -> None:
        old = table.get(key)
        if old is not None and old[1] > value[1]:
            return  # keep the token that lives longer
        table[key] = value
        if len(table) > SWEEP_AT:
            now = self.clock()
            for k in [k for k, (_, until) in table.items() if until <= now]:
                del table[k]

    # ------------------------------------------------------------- using
    def editor(self, message_id: int) -> Editor | None:
        entry = self._editors.get(message_id)
        if entry is None:
            return None
        if entry[1] <= self.clock():
            del self._editors[message_id]
            return None
        return entry[0]

    def poster_for(self, channel_id: int) -> tuple[discord.Interaction, float] | None:
        entry = self._posters.get(channel_id)
        if entry is None:
            return None
        if entry[1] <= self.clock():
            del self._posters[channel_id]
            return None
        return entry

    def forget(self, message_id: int) -> None:
        self._editors.pop(message_id, None)

    async def edit(self, message_id: int, **fields) -> bool:
        """Edit the message through a token if we hold one. False when we do not, or Discord refused
        (the caller then uses the channel route); Forbidden 50013 (no attachments) and Unknown Channel
        (10003: the channel was deleted) are raised, as the channel route would."""
        hook = self.editor(message_id)
        if hook is None:
            return False
        try:
            if isinstance(hook, discord.Interaction):
                await edit_original(hook, **fields)
            elif isinstance(hook, discord.WebhookMessage):
                await edit_followup(hook, **fields)
            else:  # any other editor (it edits its own message)
                await hook.edit(**fields)
            return True
        except discord.Forbidden as e:
            if e.code == 50013:
                raise
            self.forget(message_id)
        except discord.HTTPException as e:
            if _channel_gone(e):
                raise
            log.info(
                "editing message %s through its interaction token failed (%s); using the channel",
                message_id,
                e,
            )
            self.forget(message_id)
        return False

    async def delete(self, message_id: int) -> bool:
        """Delete a message posted through a token (True: done, or it was gone already)."""
        hook = self.editor(message_id)
        self.forget(message_id)
        if not isinstance(hook, discord.WebhookMessage):
            return False
        try:
            await hook.delete()
            return True
        except discord.NotFound as e:
            if _channel_gone(e):
                raise
            return True
        except discord.HTTPException:
            return False

    async def post(
        self, channel_id: int, content: str | None = None, *, vias: Sequence[object] = (), **fields
    ) -> discord.WebhookMessage | None:
        """Post a public message in the channel as a follow-up of a live interaction there (remembered
        as editable through it): the newest of ``vias`` (the clicks that caused it, newest last) made in
        that channel, else the newest interaction there whose answer is complete. None when there is
        none or Discord refused."""
        entry = None
        for one in reversed(vias):
            if (
                isinstance(one, discord.Interaction)
                and one.channel_id == channel_id
                and one.response.is_done()
            ):
                entry = (one, self._expiry(one))
                break
        if entry is None:
            entry = self.poster_for(channel_id)
        if entry is None:
            return None
        interaction, expiry = entry
        try:
            if content is not None:
                fields["content"] = content
            msg = await interaction.followup.send(wait=True, **fields)
        except discord.Forbidden as e:
            if e.code == 50013:
                raise
            self._posters.pop(channel_id, None)
            return None
        except discord.HTTPException as e:
            if _channel_gone(e):
                raise
            log.info("posting in channel %s through an interaction token failed (%s)", channel_id, e)
            self._posters.pop(channel_id, None)
            return None
        self.posted(msg, expiry)
        return msg

    async def answer(
        self, interaction: discord.Interaction, content: str, *, public: str | None = None, **fields: Any
    ) -> bool:
        """Answer a (deferred) interaction with a follow-up. While Discord refuses it (429: a storm of
        rate limits that discord.py's own few retries did not outlast; 5xx) it is sent again, waiting
        longer each time, as long as the token lives; then it goes through the channel instead, where
        the click was made: the same message in a DM, ``public`` (a text everyone there may read,
        notifying only the user) in a server channel. False when it could not be answered."""
        file = fields.pop("file", None)
        data = file.fp.read() if file is not None else None  # each attempt sends a fresh copy

        def with_file(kwargs: dict[str, Any]) -> dict[str, Any]:
            if file is not None and data is not None:
                return {
                    **kwargs,
                    "file": discord.File(io.BytesIO(data), file.filename, description=file.description),
                }
            return kwargs

        until = self.expiry(interaction)
        delay = ANSWER_RETRY_FIRST
        while True:
            try:
                await interaction.followup.send(content, **with_file(fields))
                return True
            except discord.HTTPException as e:
                if isinstance(e, discord.NotFound) and e.code == UNKNOWN_WEBHOOK:
                    break  # the token expired already: the channel is left
                if e.status != 429 and e.status < 500:
                    raise
                if self.clock() + delay >= until:
                    log.warning("answering an interaction failed until its token expired (%s)", e)
                    break
                log.info("answering an interaction failed (%s); again in %.0f s", e, delay)
                await asyncio.sleep(delay)
                delay = min(delay * 2, ANSWER_RETRY_MAX)
        if interaction.channel_id is None:
            return False
        channel = interaction.client.get_partial_messageable(interaction.channel_id)
        mentions = discord.AllowedMentions(users=[interaction.user], everyone=False, roles=False)
        if interaction.guild_id is None:  # a DM: the answer is as private there
            fields.pop("ephemeral", None)
            await channel.send(content, allowed_mentions=mentions, **with_file(fields))
            return True
        if public is None:
            return False
        await channel.send(public, allowed_mentions=mentions)
        return True
