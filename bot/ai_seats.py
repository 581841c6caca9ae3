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
from bot.games.names import markdown_name
from bot.games.phrase import ENGLISH, N_, Phrase, Voice

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
    """An AI seat's stored name with its level in the language of ``speaker`` ("Nelson (IA, difficile)"
    in Italian, "Ann (IA)" for one with no level); the stored name stays "Nelson (AI, hard)" (ratings
    and logs key on it). Other names as they are."""
    return speaker.say(name_phrase(name))


def name_phrase(name: str, *, markdown: bool = False) -> str:
    """A seat's stored name as a text each reader reads in their language: an AI seat's "Nelson (AI,
    hard)" a :class:`Phrase` (its English the stored name, so a note stored with it keeps the name as
    data), other names as they are. ``markdown``: the name escaped for Discord markdown
    (:func:`markdown_name`; the tail has nothing to escape)."""
    tail = _TAIL.search(name)
    if tail is None or tail.start() == 0:
        return markdown_name(name) if markdown else name
    base = name[: tail.start()]
    shown = markdown_name(base) if markdown else base
    level = _LEVEL_TAIL.search(name)
    if level is None:  # "Ann (AI)": a seat stored before levels, or a player's the AI took over
        return Phrase(N_("{name} (AI)"), name=shown)
    return Phrase(N_("{name} (AI, {level})"), name=shown, level=Phrase(LEVEL_WORDS[level["level"]]))


def joined_names(names: list[str]) -> str:
    """Names (:func:`name_phrase`) one after another, for a Phrase: "Ann, Nelson (AI, hard)", each AI
    seat's level said in the reader's language (a list's comma is the same in each language shipped, so
    it is no message of its own)."""
    if not any(isinstance(name, Phrase) for name in names):
        return ", ".join(names)
    return Phrase(
        ", ".join(f"{{n{i}}}" for i in range(len(names))), **{f"n{i}": n for i, n in enumerate(names)}
    )


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
