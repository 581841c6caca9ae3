"""Seat references in texts: engines write ``who(seat)``, the host fills in people's names.

Engines do not know the players' names (a name changes: an AI taking a seat becomes "Ann (AI)"),
so every text a player reads that names a seat carries a token, ``who(seat)`` ("⟨0⟩" for seat 0).
At the edge (menus, delivery, logs, images) ``fill_names(text, names)`` puts each seat's display
name in its place; without names (engine-level text boards, tests) the seat's colour stands in
("Blue", "Red", …), the colours every renderer draws the seats in.
"""

from __future__ import annotations

import re

SEAT_COLOURS = ("Blue", "Red", "Green", "Amber", "Purple", "Teal")  # as rendering/theme.py draws seats
TOKEN = re.compile(r"⟨(\d{1,2})⟩")


def who(seat: int) -> str:
    """The seat reference token of ``seat`` (mathematical angle brackets, never used otherwise)."""
    return f"⟨{int(seat)}⟩"


def colour(seat: int) -> str:
    """The colour name of a seat: what stands for the player where no name is known."""
    return SEAT_COLOURS[seat] if 0 <= seat < len(SEAT_COLOURS) else f"Seat {seat + 1}"


def seat_name(seat: int, names: list[str] | tuple[str, ...] | None = None) -> str:
    """The display name of a seat, or its colour when ``names`` does not have it."""
    if names and 0 <= seat < len(names) and names[seat]:
        return " ".join(str(names[seat]).split())
    return colour(seat)


def fill_names(text: str, names: list[str] | tuple[str, ...] | None = None) -> str:
    """``text`` with each ``who(seat)`` token replaced by the seat's name (colour fallback)."""
    if not text or "⟨" not in text:
        return text
    return TOKEN.sub(lambda m: seat_name(int(m.group(1)), names), text)


def fill_all(obj, names=None):
    """``fill_names`` through a JSON-like structure (strings inside lists and dicts)."""
    if isinstance(obj, str):
        return fill_names(obj, names)
    if isinstance(obj, list):
        return [fill_all(x, names) for x in obj]
    if isinstance(obj, tuple):
        return tuple(fill_all(x, names) for x in obj)
    if isinstance(obj, dict):
        return {k: fill_all(v, names) for k, v in obj.items()}
    return obj


def fill_board(text: str, names: list[str] | tuple[str, ...] | None = None, limit: int = 1900) -> str:
    """A text board (fenced with ```) filled with names, cut to ``limit`` characters, fence kept."""
    text = fill_names(text, names)
    if len(text) <= limit:
        return text
    fence = "\n```" if text.endswith("\n```") else ""
    return text[: limit - len(fence) - 3] + "..." + fence
