"""Seat references in texts: engines write ``who(seat)``, the host fills in people's names.

Engines do not know the players' names (a name changes: an AI taking a seat becomes "Ann (AI)"),
so every text a player reads that names a seat carries a token, ``who(seat)`` ("⟨0⟩" for seat 0).
At the edge (menus, delivery, logs, images) ``fill_names(text, names)`` puts each seat's display
name in its place; without names (engine-level text boards, tests) the seat's colour stands in
("Blue", "Red", …), the colours every renderer draws the seats in.
"""

from __future__ import annotations

import functools
import re

from bot.games.phrase import ENGLISH, N_, Voice

# as rendering/theme.py draws seats (messages: the Key of /game rules says them in the reader's language)
SEAT_COLOURS = (N_("Blue"), N_("Red"), N_("Green"), N_("Yellow"), N_("Pink"), N_("Sky"))
TOKEN = re.compile(r"⟨(\d{1,2})⟩")


def who(seat: int) -> str:
    """The seat reference token of ``seat`` (mathematical angle brackets, never used otherwise)."""
    return f"⟨{int(seat)}⟩"


def colour(seat: int, speaker: Voice = ENGLISH) -> str:
    """The colour name of a seat, in the language of ``speaker``: what stands for the player where no
    name is known."""
    if 0 <= seat < len(SEAT_COLOURS):
        return speaker.gettext(SEAT_COLOURS[seat])
    return speaker.gettext("Seat {n}", n=seat + 1)


def seat_name(seat: int, names: list[str] | tuple[str, ...] | None = None) -> str:
    """The display name of a seat, or its colour when ``names`` does not have it."""
    if names and 0 <= seat < len(names) and names[seat]:
        return " ".join(str(names[seat]).split())
    return colour(seat)


def fill_names(text: str, names: list[str] | tuple[str, ...] | None = None, *, markdown: bool = False) -> str:
    """``text`` with each ``who(seat)`` token replaced by the seat's name (colour fallback).
    ``markdown``: the text is shown as Discord markdown, so each name is escaped there
    (:func:`markdown_name`); images, button and select labels and code blocks take names as they are."""
    if not text or "⟨" not in text:
        return text
    if markdown:
        return TOKEN.sub(lambda m: markdown_name(seat_name(int(m.group(1)), names)), text)
    return TOKEN.sub(lambda m: seat_name(int(m.group(1)), names), text)


# A name is someone's Discord display name: anything they typed. What must not reach any text:
# control characters, bidirectional overrides and isolates (which reverse the text after them), and
# invisible characters (zero-width spaces and joiners, word joiners, the BOM, Hangul fillers).
INVISIBLE = re.compile(
    "[\u0000-\u001f\u007f-\u009f\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f"
    "\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8]"
)
NAME_MAX = 32  # characters: Discord's own limit for a display name
# What Discord markdown reads anywhere in a line: emphasis, code, spoilers, masked links (``[x](…)``),
# mentions and the like (``<@id>``, ``<@&id>``, ``<#id>``, ``<t:…>``), and the ``:`` of links and
# emoji; and at the start of a line (a name often starts a log line): quotes, headings, lists.
MARKDOWN = re.compile(r"([\\*_~`|\[\]<:])")
LINE_START = re.compile(r"^(\s*)([>#+-])")
ORDERED = re.compile(r"^(\s*\d+)\.")
MASS_MENTION = re.compile(r"@(everyone|here)", re.IGNORECASE)


def clean_name(name: str, fallback: str = "Player") -> str:
    """A display name as the bot keeps it: without control, bidirectional or invisible characters,
    its spaces collapsed, at most :data:`NAME_MAX` characters (``fallback`` if nothing is left)."""
    spaced = " ".join(str(name).split())  # tabs and line breaks are spaces, not removed characters
    text = " ".join(INVISIBLE.sub("", spaced).split())[:NAME_MAX].strip()
    return text or fallback


@functools.lru_cache(maxsize=4096)  # (the same few names, escaped for every line and label a move shows)
def markdown_name(name: str) -> str:
    """A name to put into Discord markdown: every character markdown would read is escaped, so it
    shows as typed (no bold, link, quote or mention); ``@everyone``/``@here`` get a zero-width space
    after the ``@``, as Discord clients do."""
    escaped = ORDERED.sub(r"\1\\.", LINE_START.sub(r"\1\\\2", MARKDOWN.sub(r"\\\1", name)))
    return MASS_MENTION.sub("@\u200b\\1", escaped)


def fill_all(obj, names=None):
    """``fill_names`` through a JSON-like structure (strings inside lists and dicts)."""
    if isinstance(obj, str):
        return fill_names(obj, names)
    if isinstance(obj, list):
        return [fill_all(x, names) for x in obj]
    if isinstance(obj, tuple):
        return tuple(fill_all(x, names) for x in obj)
    if isinstance(obj, dict):
        return {k: fill_all(v, names) for k, v in obj.items()}
    return obj


def fill_board(text: str, names: list[str] | tuple[str, ...] | None = None, limit: int = 1900) -> str:
    """A text board (fenced with ```) filled with names, cut to ``limit`` characters, fence kept. A
    backtick in a name becomes a look-alike (ˋ): the fence holds, so the board stays a code block."""
    if names:
        names = [str(n).replace("`", "ˋ") for n in names]
    text = fill_names(text, names)
    if len(text) <= limit:
        return text
    fence = "\n```" if text.endswith("\n```") else ""
    return text[: limit - len(fence) - 3] + "..." + fence
