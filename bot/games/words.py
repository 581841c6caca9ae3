"""Counted nouns in texts a player reads: "1 clue", "2 clues", never "2 clue(s)"."""

from __future__ import annotations


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """``n`` and ``noun`` in the number that fits: ``counted(1, "hex", "hexes")`` is "1 hex",
    ``counted(3, "hex", "hexes")`` "3 hexes"; the plural defaults to ``noun + "s"``."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"
