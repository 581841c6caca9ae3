"""The terms Enemy in Sight's rules and menus share: a seat in a text, Hull and Rigging, lists in a
sentence."""

from __future__ import annotations

from bot.games import names as seat_refs
from bot.games.phrase import N_, Phrase

LOCS = ("hull", "rig")
LOC_NAME = {"hull": N_("Hull"), "rig": N_("Rigging")}  # messages: said in the reader's language


def seat_name(seat: int) -> str:
    """The seat in a text a player reads: a reference the host fills with the player's name."""
    return seat_refs.who(seat)


def part(loc: str) -> Phrase:
    """Hull or Rigging as a message a log line holds."""
    return Phrase(LOC_NAME[loc])


COMMAS = N_("{first}, {rest}")
SEMICOLONS = N_("{first}; {rest}")


def listed(items: list, joiner: str = COMMAS) -> str:
    """Items (messages, names) as a list a sentence holds, "A, B, C" (``joiner``: :data:`COMMAS` or
    :data:`SEMICOLONS`), each said in the reader's language: a chain of one message so that a stored log
    line keeps every item's message."""
    if not items:
        return ""
    out = items[-1]
    for item in reversed(items[:-1]):
        out = Phrase(joiner, first=item, rest=out)
    return out


def seats_and(seats: list[int]) -> str:
    """Seats as "A", "A and B", "A, B and C" (the "and" in the reader's language)."""
    said = [seat_name(p) for p in seats]
    if len(said) < 2:
        return "".join(said)
    return Phrase(N_("{seats} and {last}"), seats=", ".join(said[:-1]), last=said[-1])


def logged(line: object) -> str:
    """A line of the game's log (the state's, a view's ``last_events``) as a reader gets it: a message
    kept as data is a Phrase again (said in each reader's language); a line kept as text (a game saved
    before) is that text. The state and the views stay plain JSON."""
    return Phrase.from_json(line) if isinstance(line, dict) else str(line)
