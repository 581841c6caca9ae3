"""Delivery: the one place that sends game messages to Discord (:class:`DiscordDelivery`).

A game in a channel is ONE message, the table (:mod:`.table`), edited in place for its whole life.
A person is mentioned only when a turn of theirs begins, by a small separate ping (:mod:`.pings`),
deleted when that turn ends. Private views go by DM, one message per seat edited in place
(:mod:`.dms`). The lobby is a message of its own (:mod:`.lobby`). The messages of a game are stored
(:mod:`.stored`), so that every process edits the same ones; :mod:`.transport` reaches Discord
(through live interaction tokens where it can) and :mod:`.words` holds the texts they share. When the
game's channel (or thread) is gone (Discord's Unknown Channel, 10003), a delivery to it raises
:class:`~bot.tables.ChannelGone` and the host suspends the game.
"""

from .discord_delivery import DiscordDelivery
from .stored import AWAY, Stored, dm_digest
from .transport import channel_gone
from .words import (
    alt_text,
    clip,
    key_text,
    my_view_label,
    paused_text,
    result_text,
    rules_key,
    said,
    view_words,
    your_turn,
)

__all__ = [
    "AWAY",
    "alt_text",
    "DiscordDelivery",
    "Stored",
    "channel_gone",
    "clip",
    "dm_digest",
    "key_text",
    "my_view_label",
    "paused_text",
    "result_text",
    "rules_key",
    "said",
    "view_words",
    "your_turn",
]
