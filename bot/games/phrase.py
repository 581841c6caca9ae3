"""Texts made before their reader's language is known: by the rules (an action's label, an event's log
line, an illegal action's reason) or by the core (a refusal, a lobby's note).

The games stay pure (no catalogue, no Babel): they mark their English with :func:`N_` and hand out a
:class:`Phrase`, which the bot's :class:`bot.i18n.Speaker` says in the reader's language. A Phrase is a
``str`` holding its English, so code and tests that only want English read it as they always did.
A text made while its reader is known (a game's ``view_text``, ``alt_text``, menu labels) takes a
``speaker`` (a :class:`Voice`: the bot passes its ``bot.i18n.Speaker``, bound to the reader's locale)
and says each sentence through ``speaker.gettext`` / ``speaker.ngettext``, which also mark the message
for extraction; :data:`ENGLISH` is the default, the source language with no catalogue.
Where a text must outlive the process (an event stored in the log, a replay), :meth:`Phrase.to_json`
keeps the message id and parameters, and :meth:`Phrase.from_json` makes the Phrase again.
"""

from __future__ import annotations

from typing import Any, Protocol


def N_(msgid: str) -> str:  # noqa: N802 - the gettext convention, a keyword for the extractor
    """Marks ``msgid`` for extraction; translated where it is shown."""
    return msgid


class Phrase(str):
    """A message with its id and parameters, read as its English. ``Phrase(N_("…"), name=…)`` marks
    one; ``Phrase.ngettext(singular, plural, n, …)`` a plural one (``{n}`` filled in). A parameter may
    itself be a Phrase (a card's name inside a log line): it is said in the reader's language too."""

    msgid: str
    plural: str | None
    n: int
    params: dict[str, object]

    def __new__(cls, msgid: str, /, **params: object) -> Phrase:
        self = super().__new__(cls, msgid.format(**params) if params else msgid)
        self.msgid, self.plural, self.n, self.params = msgid, None, 0, params
        return self

    @classmethod
    def ngettext(cls, singular: str, plural: str, n: int, /, **params: object) -> Phrase:
        # English, the source, has two forms: the catalogues give the others theirs.
        self = super().__new__(cls, (singular if n == 1 else plural).format(n=n, **params))
        self.msgid, self.plural, self.n, self.params = singular, plural, n, params
        return self

    def to_json(self) -> dict[str, Any]:
        """The message as JSON-able data (nested Phrases too)."""
        data: dict[str, Any] = {
            "msgid": self.msgid,
            "params": {k: _to_json(v) for k, v in self.params.items()},
        }
        if self.plural is not None:
            data["plural"], data["n"] = self.plural, self.n
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Phrase:
        params = {k: _from_json(v) for k, v in data.get("params", {}).items()}
        if "plural" in data:
            return cls.ngettext(data["msgid"], data["plural"], data["n"], **params)
        return cls(data["msgid"], **params)


def _to_json(value: object) -> object:
    return value.to_json() if isinstance(value, Phrase) else value


def _from_json(value: object) -> object:
    return Phrase.from_json(value) if isinstance(value, dict) and "msgid" in value else value


class Voice(Protocol):
    """What a text function needs of its reader's language (``bot.i18n.Speaker`` is one)."""

    def gettext(self, msgid: str, /, **params: object) -> str: ...

    def ngettext(self, singular: str, plural: str, n: int, /, **params: object) -> str: ...

    def say(self, text: str) -> str: ...


class _English:
    """The source language: the message ids themselves, filled in."""

    def gettext(self, msgid: str, /, **params: object) -> str:
        return msgid.format(**params) if params else msgid

    def ngettext(self, singular: str, plural: str, n: int, /, **params: object) -> str:
        return (singular if n == 1 else plural).format(n=n, **params)

    def say(self, text: str) -> str:
        return str(text)


ENGLISH: Voice = _English()
