"""Clicks on the bot's buttons and selects, routed to their handlers by custom id.

The handlers are :class:`discord.ui.DynamicItem` classes whose templates match the custom ids built in
bot/ui.py (a click's whole state is in its id). discord.py routes such classes itself
(``Client.add_dynamic_items``), but on every click it first rebuilds the clicked message's whole view
(``View.from_message``: every row, section and button of a table) to find the clicked item in it, and
that view holds the item, which holds the view: a reference cycle. So does every interaction, with
its response object. Under load a click lives across several of the collector's young collections,
so what such cycles hold (the view, the interaction, the clicked message parsed, its components) is
promoted and freed only by the older collections: at 100 games, half a second with every click in
flight waiting, every 14 s (bench/RESULTS.md, "The collector's pauses").

Here a click is routed by its custom id alone, and its interaction is let go of once it is handled
(:func:`release`): what it holds is freed at once, by reference counting. Every template that matches
gets the click, as with discord.py (bot/ui.py keeps the templates apart).
"""

from __future__ import annotations

import logging
import re
from typing import Any

import discord
from discord.ext import commands

log = logging.getLogger("admiralty.clicks")


def release(interaction: discord.Interaction) -> None:
    """Break the cycle between an answered interaction and its response object (discord.py's
    ``InteractionResponse._parent``). Only once it is answered: its response object then only says so
    (``is_done``, ``type``), as it still does; a second answer is refused by discord.py as before
    (``InteractionResponded``, which then names no interaction)."""
    response = interaction.response
    if response.is_done():
        response._parent = None  # type: ignore[assignment]


class Clicks(commands.Cog):
    """The routes: (template, handler class), in the order they were added."""

    def __init__(self) -> None:
        self._routes: list[tuple[re.Pattern[str], Any]] = []

    def add(self, *handlers: Any) -> None:
        for handler in handlers:
            self._routes.append((handler.__discord_ui_compiled_template__, handler))

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        if interaction.type is not discord.InteractionType.component or not interaction.data:
            return
        custom_id = interaction.data.get("custom_id")
        if not isinstance(custom_id, str):
            return
        try:
            for template, handler in self._routes:
                match = template.fullmatch(custom_id)
                if match is None:
                    continue
                try:
                    item = await handler.from_custom_id(interaction, None, match)
                    await item.callback(interaction)
                except Exception:
                    # (not the custom id: a private menu's id says what was chosen)
                    log.exception("interaction %s: unexpected error in %s", interaction.id, handler.__name__)
        finally:
            release(interaction)


async def route(bot: commands.Bot, *handlers: Any) -> None:
    """Route the clicks whose custom ids match the templates of ``handlers`` to them."""
    clicks = bot.get_cog(Clicks.__cog_name__)
    if not isinstance(clicks, Clicks):
        clicks = Clicks()
        await bot.add_cog(clicks)
    clicks.add(*handlers)
