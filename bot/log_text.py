"""A line of the table's log as it is stored (the ``log`` table's ``text``): a :class:`Phrase` (an
event's text, a host's note) keeps its message id and parameters as JSON (``Phrase.to_json``), so that
each reader gets it in their own language, whenever it is read (issue 21); any other text (the lines
of games played before, a text made in English only) is stored and read back as it is."""

from __future__ import annotations

import json

from bot.games.phrase import Phrase

_MARK = '{"msgid"'  # how a stored Phrase begins (no English log line does)


def stored(text: str) -> str:
    """``text`` as the log stores it."""
    if isinstance(text, Phrase):
        return json.dumps(text.to_json(), ensure_ascii=False, separators=(",", ":"))
    return str(text)


def loaded(text: str) -> str:
    """A stored line as the delivery reads it: a Phrase again, where one was stored."""
    if not text.startswith(_MARK):
        return text
    try:
        return Phrase.from_json(json.loads(text))
    except (ValueError, TypeError, KeyError, IndexError):  # not a Phrase after all: shown as stored
        return text
