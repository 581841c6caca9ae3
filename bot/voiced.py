"""A game's text function said in its reader's language, whether or not the game's function has been
translated yet (issue 21 translates the games one by one)."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from functools import cache

from bot.games.phrase import ENGLISH, Voice


def voiced(method: Callable[..., str], *args: object, speaker: Voice = ENGLISH) -> str:
    """``method(*args)`` of a game's text (``view_text``, ``alt_text``, ``key_text``, ``prompt``,
    ``text_view``) in the language of ``speaker`` where the game's method takes one (issue 21: each
    game's texts gain ``speaker: Voice`` as they are translated); a method without it speaks English.
    Its answer may be a :class:`Phrase`: said in ``speaker``'s language too."""
    if _takes_speaker(getattr(method, "__func__", method)):
        return speaker.say(method(*args, speaker=speaker))
    return speaker.say(method(*args))


@cache
def _takes_speaker(function: Callable[..., str]) -> bool:
    try:
        return "speaker" in inspect.signature(function).parameters
    except (TypeError, ValueError):  # a builtin without a signature
        return False
