"""Slash commands in the player's language, the way Discord does it: :class:`CommandTranslator`, set on
the command tree (``tree.set_translator``), gives every command's and option's name and description and
every choice's name in each language that has a catalogue (:mod:`bot.i18n`). discord.py asks it once
per string and Discord locale when the commands are synced; Discord shows each member their client's
language. A name is looked up with the context ``command`` (a command's or a group's name) or
``option`` (an option's), so that "days" the option and "days" in a sentence stay apart. A translation
Discord would refuse (a name that is not one lowercase word of at most 32 characters, a description
over 100) is left out, and the English shows."""

from __future__ import annotations

import re

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from bot import i18n

# Discord's rule for a slash command's and option's name (CHAT_INPUT): its API docs' regex, lowercase
NAME_RE = re.compile(r"^[-_'\w\u0900-\u097F\u0E00-\u0E7F]{1,32}$")
DESCRIPTION_MAX = 100
# the catalogue context of a name by where it stands (None: a description or a choice, no context);
# cogs/command_messages.py extracts the strings with the same contexts
CONTEXTS = {
    Where.command_name: "command",
    Where.group_name: "command",
    Where.parameter_name: "option",
}


def valid_name(name: str) -> bool:
    return bool(NAME_RE.fullmatch(name)) and name == name.lower()


def localise(string: str, locale: str, where: Where) -> str | None:
    """The text of ``string`` at ``where`` for Discord locale ``locale``; None: the English."""
    if i18n.language_of(locale) == i18n.SOURCE:
        return None
    context = CONTEXTS.get(where)
    text = i18n.lookup(locale, string, context)
    if text is None or text == string:
        return None
    if context is not None:
        return text if valid_name(text) else None
    return text if 0 < len(text) <= DESCRIPTION_MAX else None


class CommandTranslator(app_commands.Translator):
    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContext,
    ) -> str | None:
        if string.extras.get("native"):  # a name that stays as it is in every language (a language's own)
            return None
        return localise(string.message, locale.value, context.location)
