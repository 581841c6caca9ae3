"""Babel's extractor for the slash commands (babel.cfg): every string Discord shows of them (a command's
or group's name and description, an option's name and description, a choice's name) as the command tree
holds it, with the context ``command`` or ``option`` for names, as :mod:`bot.command_translator` looks
them up. Read from the tree the cogs build, not from the decorators' text: a parameter's name is its
Python name, a choice list may be computed, and nothing is missed or left behind when a command
changes. Runs once per `make messages` (mapped to ``cogs/__init__.py``): it loads the cogs into a bot
that never connects."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.command_translator import CONTEXTS


class _Recorder(app_commands.Translator):
    """The strings the tree asks to translate, in order, each with its context; translates nothing."""

    def __init__(self) -> None:
        self.found: dict[tuple[str | None, str], None] = {}

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContext,
    ) -> str | None:
        if not string.extras.get("native"):  # the same in every language: nothing to translate
            self.found.setdefault((CONTEXTS.get(context.location), string.message))
        return None


async def command_strings() -> list[tuple[str | None, str]]:
    """(context, text) of every command string, in the tree's order."""
    from bot.app import EXTENSIONS  # the cogs the bot loads

    bot = commands.Bot(command_prefix=commands.when_mentioned, intents=discord.Intents.none())
    for extension in EXTENSIONS:
        await bot.load_extension(extension)
    recorder = _Recorder()
    for command in bot.tree.get_commands():
        # asked once per Discord locale: the first is enough to see every string
        await command.get_translated_payload(bot.tree, recorder)
    return list(recorder.found)


def extract(fileobj: Any, keywords: Any, comment_tags: Any, options: Any) -> Iterator[tuple]:
    """Babel's extraction method: (line, keyword, messages, comments) tuples, names as ``pgettext``."""
    for context, text in asyncio.run(command_strings()):
        if context is None:
            yield 0, "gettext", text, []
        else:
            yield 0, "pgettext", (context, text), []
