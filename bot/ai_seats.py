"""AI seats: their level, and the name that shows it.

An AI seat the host adds to a lobby has a level (:data:`bot.games.ai.LEVELS`: easy, normal, hard;
``DEFAULT_LEVEL`` when the host does not say), stored with the seat (``seats.ai_level``, migration 0013),
and a name that shows it: "Nelson (AI, hard)", the same on the table, the board, the summary, the
log and the leaderboard. A seat with no level stored (a game stored before levels: "Nelson (AI)"; a
seat an AI took over after its player resigned or missed turns: "Ann (AI)") plays at
``UNSET_LEVEL``. Ratings are kept per AI name and level (:func:`rating_key`).
"""

from __future__ import annotations

import re

from bot.games.ai import LEVELS
from bot.games.phrase import ENGLISH, N_, Voice

DEFAULT_LEVEL = "normal"  # the lobby's Add AI and /game add-ai without a level
UNSET_LEVEL = "normal"  # a seat with no level stored (older games, a player's seat taken over)

# "Nelson (AI)", "Nelson (AI, hard)": the tail an AI seat's name ends with
_TAIL = re.compile(r" \(AI(?:, (?:" + "|".join(LEVELS) + r"))?\)$")
_LEVEL_TAIL = re.compile(r" \(AI, (?P<level>" + "|".join(LEVELS) + r")\)$")
LEVEL_WORDS = {"easy": N_("easy"), "normal": N_("normal"), "hard": N_("hard")}  # a level as a reader reads it


def level_of(level: str | None) -> str:
    """The level an AI seat plays at: its stored one, else ``UNSET_LEVEL``."""
    return level if level in LEVELS else UNSET_LEVEL


def ai_name(base: str, level: str) -> str:
    """The name of an AI seat at ``level``: "Nelson (AI, hard)"."""
    return f"{base} (AI, {level})"


def said_name(name: str, speaker: Voice = ENGLISH) -> str:
    """An AI seat's stored name with its level in the language of ``speaker`` ("Nelson (AI, difficile)"
    in Italian); the stored name stays "Nelson (AI, hard)" (ratings and logs key on it). Other names as
    they are."""
    tail = _LEVEL_TAIL.search(name)
    if tail is None:
        return name
    level = speaker.gettext(LEVEL_WORDS[tail["level"]])
    return speaker.gettext("{name} (AI, {level})", name=name[: tail.start()], level=level)


def base_name(name: str) -> str:
    """An AI seat's name without its tail: "Nelson (AI, hard)" and "Ann (AI)" -> "Nelson", "Ann"."""
    return _TAIL.sub("", name).strip() or name


def shows_ai(name: str) -> bool:
    """Whether ``name`` already says it is an AI's ("… (AI)" or "… (AI, level)")."""
    return _TAIL.search(name) is not None


def rating_key(name: str, level: str | None) -> str:
    """The ratings' player key of an AI seat (no user): "ai:Nelson:hard", one per name and level."""
    return f"ai:{base_name(name)}:{level_of(level)}"


def rating_name(name: str, level: str | None) -> str:
    """The name the ratings show for that key: "Nelson (AI, hard)" (also for a seat stored before levels)."""
    return ai_name(base_name(name), level_of(level))
