"""The catalogues (data/locale) and bot/i18n.py: each catalogue holds exactly the messages marked in the
code (the .pot, extracted again here as `make messages` does), those of the translated part
(:data:`TRANSLATED`) all translated, every translation with the source's placeholders; plural forms valid for each language; the lookups' fallbacks; the pseudo-locale."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_keywords, parse_mapping_cfg
from babel.messages.pofile import read_po
from hypothesis import given
from hypothesis import strategies as st

from bot import i18n

ROOT = Path(__file__).resolve().parents[2]
LOCALE = ROOT / "data" / "locale"
LANGUAGES = [lang for lang in i18n.languages() if lang != i18n.SOURCE]
DISCORD_LIMIT = 2000
PLURAL_MSG = ("{n} unused day went back to your allowance.", "{n} unused days went back to your allowance.")


def _keywords() -> dict:
    """The extractor's keywords as the Makefile gives them to `pybabel extract`, with Babel's defaults."""
    line = next(x for x in (ROOT / "Makefile").read_text().splitlines() if x.startswith("BABEL_KEYWORDS"))
    from babel.messages.extract import DEFAULT_KEYWORDS

    return {**DEFAULT_KEYWORDS, **parse_keywords(re.findall(r"-k (\S+)", line))}


def _key(m) -> tuple[str | None, str]:
    return m.context, m.id[0] if isinstance(m.id, tuple) else m.id


def _pot():
    with (LOCALE / "admiralty.pot").open("rb") as f:
        return {_key(m): m for m in read_po(f) if m.id}


def _po(lang: str):
    with (LOCALE / lang / "LC_MESSAGES" / "admiralty.po").open("rb") as f:
        return read_po(f, locale=lang)


# The part of the bot translated so far: every message of these files (cogs/__init__.py stands for the
# slash commands' strings, read from the command tree) has a translation in every language. Elsewhere a
# message may be marked and not translated yet: it shows in English. A module whose texts are all
# translated joins the list; bot/lobby.py, bot/ui.py and cogs/game.py are in it for the lobby's messages
# (the only ones marked in them so far), their other texts being later slices of issue 21.
TRANSLATED = (
    "cogs/__init__.py",
    "cogs/notify.py",
    "cogs/mygames.py",
    "cogs/clocks.py",
    "cogs/common.py",
    "bot/notify.py",
    "bot/mygames.py",
    "bot/delivery/alerts.py",
    "bot/storage/clocks.py",
    "bot/lobby.py",
    "bot/delivery/lobby.py",
    "bot/ui.py",
    "cogs/game.py",
    "cogs/components.py",
    "cogs/play.py",
    "cogs/warships.py",
    "cogs/follow.py",
    "cogs/stats.py",
    "cogs/history.py",
    "cogs/imports.py",
    "bot/follows.py",
    "bot/delivery/follows.py",
    "bot/undo.py",
    "bot/turns.py",
    "bot/timekeeper.py",
    "bot/history.py",
    "bot/study.py",
    "bot/delivery/table.py",
    "bot/delivery/words.py",
    "bot/delivery/pings.py",
    "bot/layout.py",
    "bot/clock_ui.py",
    "bot/summary.py",
    "bot/replay.py",
    "bot/games/base.py",
    "bot/games/warships/__init__.py",
    "bot/games/enemy_lines/game.py",
    "bot/games/enemy_lines/texts.py",
    "bot/games/enemy_lines/reading.py",
    "bot/games/warships/game.py",
    "bot/games/warships/texts.py",
    "bot/games/warships/reading.py",
    "bot/games/warships/textview.py",
    # the menus, the text board, /game rules and the Key (i18n4)
    "bot/menus.py",
    "bot/turns.py",
    "bot/layout.py",
    "bot/textboard.py",
    "bot/rules.py",
    "bot/delivery/words.py",
    "bot/delivery/dms.py",
    "bot/games/base.py",
    "bot/games/enemy_in_sight/__init__.py",
    "bot/games/enemy_in_sight/data.py",
    "bot/games/enemy_in_sight/menus.py",
    "bot/games/enemy_in_sight/reading.py",
    "bot/games/enemy_in_sight/texts.py",
    "bot/games/enemy_lines/__init__.py",
    "bot/games/everrain/__init__.py",
    "bot/games/everrain/game.py",
    "bot/games/everrain/reading.py",
    "bot/games/everrain/text.py",
    "bot/games/everrain/words.py",
    "bot/games/everrain/textview.py",
    "bot/games/warships/__init__.py",
    "cogs/components.py",
    "cogs/play.py",
    "cogs/textboard.py",
    # the small leftovers (i18n7)
    "bot/games/names.py",
    "bot/ai_seats.py",
    "bot/tables.py",
    "bot/imports.py",
    "bot/clocks.py",
    "bot/clock_ui.py",
    # the lobby's and the AI level's leftovers (i18n10)
    "bot/host.py",
    "bot/scheduler.py",
    "bot/delivery/lobby.py",
    "bot/delivery/dms.py",
    "bot/games/base.py",
    "cogs/common.py",
    # Enemy in Sight's log lines, refusals, menu paths, text board and final reveal (i18n8)
    "bot/games/enemy_in_sight/game.py",
    "bot/games/enemy_in_sight/advanced.py",
    "bot/games/enemy_in_sight/terms.py",
)


def _extracted() -> list[tuple[str, tuple[str | None, str]]]:
    """(file, (context, msgid)) of every message marked in the code, as `make messages` extracts them."""
    with (ROOT / "babel.cfg").open() as f:
        method_map, options_map = parse_mapping_cfg(f)
    return [
        (filename, (context, msgid[0] if isinstance(msgid, tuple) else msgid))
        for filename, _line, msgid, _comments, context in extract_from_dir(
            str(ROOT), method_map, options_map, keywords=_keywords()
        )
    ]


def test_the_pot_holds_exactly_the_messages_marked_in_the_code():
    found = {key for _file, key in _extracted()}
    pot = set(_pot())
    assert found - pot == set(), "messages missing from the .pot: run `make messages`"
    assert pot - found == set(), "stale messages in the .pot: run `make messages`"


def test_the_six_languages_and_english_are_shipped():
    assert set(i18n.languages()) == {"en", "pl", "it", "de", "fr", "es", "pt_BR"}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_catalogue_holds_every_message_of_the_pot_and_nothing_else(lang):
    pot = _pot()
    have = {_key(m) for m in _po(lang) if m.id}
    assert set(pot) - have == set(), f"{lang}: messages missing (run `make messages`)"
    assert have - set(pot) == set(), f"{lang}: stale messages (run `make messages`)"


TRANSLATED_KEYS = sorted({key for filename, key in _extracted() if filename in TRANSLATED}, key=str)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_translated_part_has_every_message_translated(lang):
    assert len(TRANSLATED_KEYS) > 200
    have = {_key(m): m for m in _po(lang) if m.id}
    untranslated = [
        key
        for key in TRANSLATED_KEYS
        if key not in have
        or have[key].fuzzy
        or not all(have[key].string if isinstance(have[key].string, tuple) else [have[key].string])
    ]
    assert untranslated == [], f"{lang}: not translated: {untranslated}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_translation_has_the_placeholders_of_its_source(lang):
    for m in _po(lang):
        if not m.id:
            continue
        sources = m.id if isinstance(m.id, tuple) else (m.id,)
        wanted = set().union(*(i18n.placeholders(s) for s in sources))
        for text in m.string if isinstance(m.string, tuple) else (m.string,):
            if not text:
                continue  # not translated yet: English shows
            assert i18n.placeholders(text) == wanted, (lang, m.id, text)
            # and it formats (no stray brace)
            text.format(**{p: "x" for p in wanted})


@pytest.mark.parametrize("lang", LANGUAGES)
def test_plural_forms_are_the_languages_own_and_every_plural_has_them_all(lang):
    po = _po(lang)
    assert po.plural_forms == _expected_plural_forms(lang)
    plural = i18n.catalogue(lang).plural  # type: ignore[union-attr]
    for n in range(0, 1200):
        assert 0 <= plural(n) < po.num_plurals
    for m in po:
        if isinstance(m.id, tuple):
            assert len(m.string) == po.num_plurals, (lang, m.id)


def _expected_plural_forms(lang: str) -> str:
    from babel import Locale
    from babel.messages.plurals import get_plural

    return get_plural(Locale.parse(lang)).plural_forms


def test_polish_picks_its_three_plural_forms():
    got = [i18n.ntranslate("pl", *PLURAL_MSG, n) for n in (1, 2, 5, 22, 25, 112)]
    assert got == [
        "1 niewykorzystany dzień wrócił do twojej puli.",
        "2 niewykorzystane dni wróciły do twojej puli.",
        "5 niewykorzystanych dni wróciło do twojej puli.",
        "22 niewykorzystane dni wróciły do twojej puli.",
        "25 niewykorzystanych dni wróciło do twojej puli.",
        "112 niewykorzystanych dni wróciło do twojej puli.",
    ]
    assert i18n.ntranslate("fr", *PLURAL_MSG, 0).startswith("0 jour non pris")  # French: 0 is singular
    assert i18n.ntranslate("de", *PLURAL_MSG, 0).startswith("0 ungenutzte Tage")


@pytest.mark.parametrize(
    ("discord", "catalogue"),
    [
        ("pl", "pl"),
        ("it", "it"),
        ("de", "de"),
        ("fr", "fr"),
        ("es-ES", "es"),
        ("es-419", "es"),
        ("pt-BR", "pt_BR"),
        ("en-US", "en"),
        ("en-GB", "en"),
        ("ja", "en"),
        (None, "en"),
        ("en-XA", "en-XA"),
    ],
)
def test_discord_locales_map_to_catalogues(discord, catalogue):
    assert i18n.language_of(discord) == catalogue


def test_a_missing_message_or_language_falls_back_to_english():
    assert i18n.translate("pl", "A text no catalogue has, {x}.", x=3) == "A text no catalogue has, 3."
    assert i18n.translate("ja", "Saved.") == "Saved."
    assert i18n.translate("pl", "Saved.") == "Zapisano."
    assert i18n.ntranslate("ko", *PLURAL_MSG, 2) == "2 unused days went back to your allowance."


def test_published_names_of_the_games():
    assert i18n.translate("pl", "Warships") == "Manewry Morskie"


@given(
    st.text(
        st.characters(blacklist_characters="`{}<>", blacklist_categories=("Cs",)), min_size=1, max_size=300
    )
)
def test_the_pseudo_locale_keeps_placeholders_code_and_markup_and_grows_by_a_third(text):
    source = f"{text} {{name}} `/notify` <t:5:R> **x**"
    shown = i18n.pseudo(source)
    assert "{name}" in shown and "`/notify`" in shown and "<t:5:R>" in shown and "**" in shown
    letters = sum(c.isalpha() for c in source)
    assert len(shown) >= len(source) + letters // 3
    assert not re.search(r"[A-Za-z]", re.sub(r"\{name\}|`[^`]*`|<[^>]*>", "", shown))


def test_pseudo_messages_format_and_fit_discord():
    for (context, _msgid), m in _pot().items():
        sources = m.id if isinstance(m.id, tuple) else (m.id,)
        for source in sources:
            text = i18n.pseudo(source, name=context in ("command", "option"))
            assert len(text.format(**{p: "x" for p in i18n.placeholders(source)})) < DISCORD_LIMIT


async def test_every_command_string_has_a_translation_discord_accepts_in_every_language():
    """Names one lowercase word of at most 32 characters (unique among a command's options: the loopback
    Discord checks that when they are synced), descriptions and choices of at most 100 characters: the
    translator leaves out what Discord would refuse, so a refused translation would show English."""
    from discord.app_commands import TranslationContextLocation as Where

    from bot.command_translator import localise
    from cogs.command_messages import command_strings

    where = {"command": Where.command_name, "option": Where.parameter_name, None: Where.command_description}
    strings = await command_strings()
    assert ("command", "notify") in strings and ("option", "quiet_hours") in strings
    for lang in ("pl", "it", "de", "fr", "es-ES", "pt-BR"):
        refused = [
            (context, text)
            for context, text in strings
            if localise(text, lang, where[context]) is None and i18n.lookup(lang, text, context) != text
        ]
        assert refused == [], (lang, refused)
