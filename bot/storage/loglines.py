"""A line of the table's log as stored: data, not finished English (issue 21).

A host's note (a turn ran out, a seat changed hands, the game paused) is a :class:`Phrase`, stored as its
JSON (message id and parameters) with a *kind* first, so that each reader gets it in their own language
and a query finds a kind of note without reading any language: ``{"kind":"timed_out","msgid":…}``.
Lines stored before (plain English) are read as they are."""

from __future__ import annotations

import json

from bot.games.phrase import Phrase

TIMED_OUT = "timed_out"  # a turn ran out and a move was made for the player
TAKEN_OVER = "taken_over"  # too many missed turns: an AI took the seat
NOTE = "note"  # any other note of the host
EVENT = "event"  # a game's event (its text, a Phrase of the rules)


def stored(text: str, kind: str = NOTE) -> str:
    """The column's text for a log line: a Phrase as ``kind`` + its data; any other text as it is."""
    if not isinstance(text, Phrase):
        return text
    return json.dumps({"kind": kind, **text.to_json()}, ensure_ascii=False, separators=(",", ":"))


def kind_prefix(kind: str) -> str:
    """What the stored text of a note of ``kind`` starts with, for ``LIKE`` (the JSON is written with its
    kind first; a kind's ``_`` matches itself there, and no kind differs from another in that place only)."""
    return json.dumps({"kind": kind}, separators=(",", ":"))[:-1] + ","


def read(text: str) -> str:
    """A stored log line as the reader gets it: a :class:`Phrase` for a note stored as data, the text
    itself for a line stored as text (older rows, the games' own lines)."""
    if text.startswith('{"kind":'):
        try:
            data = json.loads(text)
            return Phrase.from_json(data)
        except (ValueError, KeyError, TypeError):
            return text
    return text
