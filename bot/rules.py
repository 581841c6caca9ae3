"""``/game rules``: a game's rules summary and its options in the reader's language, in as few messages
as Discord's limit allows (a translation runs longer than the English: a page breaks between paragraphs,
never inside one)."""

from __future__ import annotations

from bot.games.base import GameSpec
from bot.games.phrase import ENGLISH, Phrase, Voice

PAGE = 2000  # characters of a message's content


def rules_pages(spec: GameSpec, speaker: Voice = ENGLISH) -> list[str]:
    """The summary of ``spec`` (a paragraph a message of the catalogue) and its options, said by
    ``speaker``, as messages of at most :data:`PAGE` characters."""
    _ = speaker.gettext

    def said(text: str) -> str:  # a Phrase (a message with its parameters), or a message marked N_
        return speaker.say(text) if isinstance(text, Phrase) else _(text)

    paragraphs = [said(p) for p in spec.summary_parts or (spec.summary,) if p]
    if not paragraphs:
        paragraphs = [
            _(
                "**{game}**: {least}–{most} players.",
                game=spec.title,
                least=spec.min_players,
                most=spec.max_players,
            )
        ]
    if spec.options:
        options = [_("**Options** (`/game new {game} options:…`)", game=spec.key)]
        options += [f"• `{o.name}` — {said(o.help)}" for o in spec.options]
        paragraphs.append("\n" + "\n".join(options))  # a blank line before it
    pages: list[str] = []
    for paragraph in paragraphs:
        paragraph = paragraph[:PAGE]
        if pages and len(pages[-1]) + 1 + len(paragraph) <= PAGE:
            pages[-1] += "\n" + paragraph
        else:
            pages.append(paragraph.lstrip("\n"))
    return pages
