"""The player's language: gettext catalogues (``data/locale/<lang>/LC_MESSAGES/admiralty.po``, read with
Babel when first needed) and the lookups the bot's texts go through.

English is the source: a message's id is its English text, with named placeholders (``{days}``), one
sentence or one whole reply per message, never pieces glued together. ``translate(locale, msgid,
**params)`` gives it in the catalogue of ``locale`` (a Discord locale name such as ``pl``, ``pt-BR``,
``es-ES``), falling back to English for a language or a message without a translation;
``ntranslate(locale, singular, plural, n, **params)`` picks the plural form of ``n`` by the catalogue's
own ``Plural-Forms`` rule (``{n}`` is filled in). A language is a catalogue file: the set of languages
is the set of files found (:func:`languages`), no list in code.

Marking for extraction (``make messages``; the Makefile gives the keywords): ``N_(msgid)`` marks a text
defined before anyone's language is known (a constant), translated where it is shown; :class:`Speaker`
binds a locale, and its ``gettext`` and ``ngettext`` (or ``_`` and ``n_`` bound to them) mark their
messages. The slash commands' strings need no mark: cogs/command_messages.py reads them from the command
tree, names with the context ``command`` or ``option`` (:func:`lookup`).

The pseudo-locale :data:`PSEUDO` (``en-XA``) is made from the source, with no catalogue: every letter
accented and the text lengthened by a third, the placeholders, code spans and markup left as they are,
so a test run in it shows any English that escaped translation and any text that grows too long.
"""

from __future__ import annotations

import gettext
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from importlib import resources

from babel import Locale, UnknownLocaleError
from babel.messages.pofile import read_po

from bot.games.phrase import N_, Phrase

__all__ = ["N_", "Phrase", "Speaker", "lookup", "ntranslate", "translate"]

SOURCE = "en"
PSEUDO = "en-XA"
DOMAIN = "admiralty"
_PLACEHOLDER = re.compile(r"\{[A-Za-z_][A-Za-z0-9_]*\}")

Entry = str | tuple[str, ...]


@dataclass(frozen=True)
class Catalogue:
    """One language's translations: (context, msgid) -> text (a tuple of plural forms for a plural)."""

    language: str
    messages: dict[tuple[str | None, str], Entry]
    plural: Callable[[int], int]
    nplurals: int


def _root():
    return resources.files("admiralty_data").joinpath("locale")


@cache
def languages() -> tuple[str, ...]:
    """The catalogues shipped (``pl``, ``pt_BR``, …), English (the source) first."""
    found = sorted(
        d.name
        for d in _root().iterdir()
        if d.is_dir() and d.joinpath("LC_MESSAGES", f"{DOMAIN}.po").is_file()
    )
    return (SOURCE, *(name for name in found if name != SOURCE))


@cache
def catalogue(language: str) -> Catalogue | None:
    """The catalogue of ``language`` (a catalogue name from :func:`languages`); None for English."""
    if language not in languages() or language == SOURCE:
        return None
    with _root().joinpath(language, "LC_MESSAGES", f"{DOMAIN}.po").open("rb") as f:
        po = read_po(f, locale=language.replace("-", "_"))
    messages: dict[tuple[str | None, str], Entry] = {}
    for m in po:
        if not m.id or m.fuzzy:
            continue
        key = str(m.id[0] if isinstance(m.id, (tuple, list)) else m.id)
        if isinstance(m.string, (tuple, list)):
            if all(m.string):
                messages[(m.context, key)] = tuple(str(s) for s in m.string)
        elif m.string:
            messages[(m.context, key)] = str(m.string)
    return Catalogue(language, messages, gettext.c2py(po.plural_expr), po.num_plurals)


@cache
def native_name(language: str) -> str:
    """A catalogue's language named in itself, as a language menu shows it ("Polski", "Português
    (Brasil)"), from Babel's locale data: a new catalogue needs no name written here."""
    if language == PSEUDO:
        return "Pseudo-English"
    try:
        name = Locale.parse(language).get_display_name(language) or language
    except (UnknownLocaleError, ValueError):
        return language
    return name[:1].upper() + name[1:]


def language_of(locale: object) -> str:
    """The catalogue for a Discord locale (``pt-BR`` -> ``pt_BR``, ``es-ES`` and ``es-419`` -> ``es``,
    ``en-GB`` -> ``en``); English when there is none. Accepts discord.Locale (its value) or a string."""
    name = str(getattr(locale, "value", locale) or SOURCE)
    if name == PSEUDO:
        return PSEUDO
    have = languages()
    exact = name.replace("-", "_")
    if exact in have:
        return exact
    base = exact.split("_")[0].lower()
    if base in have:
        return base
    regional = [lang for lang in have if lang.split("_")[0] == base]
    return regional[0] if regional else SOURCE


def pseudo(text: str, *, name: bool = False) -> str:
    """``text`` in the pseudo-locale: letters accented, a third longer; placeholders, code spans
    (`` `…` ``), Discord markup (``<…>``) and links untouched. ``name``: a command's name, which must
    stay a lowercase word of at most 32 characters."""
    if name:
        accented = text.translate(_ACCENTS)
        return (accented + "ā" * math.ceil(len(text) / 3))[:32]
    out = []
    for i, part in enumerate(_KEEP.split(text)):
        out.append(part if i % 2 else part.translate(_ACCENTS))
    letters = sum(c.isalpha() for c in text)
    return "".join(out) + (" " + "·" * math.ceil(letters / 3) if letters else "")


_ACCENTS = str.maketrans(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "àƀçđéƒĝĥîĵķĺɱñöþʠŕšţûṽŵẋýžÀßÇÐÉƑĜĤÎĴĶĹṀÑÖÞǪŔŠŢÛṼŴẊÝŽ",
)
_KEEP = re.compile(r"(\{[A-Za-z_][A-Za-z0-9_]*\}|`[^`]*`|<[^>\s]*>|https?://\S+)")


def lookup(locale: object, msgid: str, context: str | None = None) -> str | None:
    """The translation of ``msgid`` for ``locale``, or None where there is none (English, a language
    or message without one): what the command translator needs (None: Discord shows the source)."""
    language = language_of(locale)
    if language == PSEUDO:
        return pseudo(msgid, name=context in ("command", "option"))
    found = catalogue(language)
    entry = found.messages.get((context, msgid)) if found is not None else None
    return entry if isinstance(entry, str) else None


def translate(locale: object, msgid: str, /, **params: object) -> str:
    """``msgid`` in the language of ``locale`` (English when it has no translation), ``params`` filled
    in by name."""
    text = lookup(locale, msgid) or msgid
    return text.format(**params) if params else text


def ntranslate(locale: object, singular: str, plural: str, n: int, /, **params: object) -> str:
    """The plural form for ``n`` of a message (``{n}`` and ``params`` filled in), by the rule of the
    language's catalogue."""
    language = language_of(locale)
    if language == PSEUDO:
        text = pseudo(singular if n == 1 else plural)
    else:
        found = catalogue(language)
        entry = found.messages.get((None, singular)) if found is not None else None
        if isinstance(entry, tuple) and found is not None:
            text = entry[min(found.plural(n), len(entry) - 1)]
        else:
            text = singular if n == 1 else plural
    return text.format(n=n, **params)


def placeholders(text: str) -> set[str]:
    """The named placeholders of a message (``{days}`` -> ``days``)."""
    return {p[1:-1] for p in _PLACEHOLDER.findall(text)}


@dataclass(frozen=True)
class Speaker:
    """Texts in one person's (or one server's) language: ``gettext`` and ``ngettext`` are keywords of
    the extractor, so ``speaker.gettext("…")`` marks its message."""

    locale: str

    @property
    def language(self) -> str:
        return language_of(self.locale)

    def gettext(self, msgid: str, /, **params: object) -> str:
        return translate(self.locale, msgid, **params)

    def ngettext(self, singular: str, plural: str, n: int, /, **params: object) -> str:
        return ntranslate(self.locale, singular, plural, n, **params)

    def pgettext(self, context: str, msgid: str, /) -> str:
        """``msgid`` in the sense ``context`` names (a word the catalogues translate twice: "Start" the
        button, "Start" the position)."""
        return lookup(self.locale, msgid, context) or msgid

    def say(self, text: str) -> str:
        """``text`` in this language where it is a :class:`Phrase`; as it is otherwise (a text the
        core made in English only)."""
        if not isinstance(text, Phrase):
            return text
        params = {k: self.say(v) if isinstance(v, Phrase) else v for k, v in text.params.items()}
        if text.plural is not None:
            return self.ngettext(text.msgid, text.plural, text.n, **params)
        return self.gettext(text.msgid, **params)


ENGLISH = Speaker(SOURCE)
