"""The terms Enemy in Sight's rules and menus share: a seat in a text, Hull and Rigging."""

from __future__ import annotations

from bot.games import names as seat_refs
from bot.games.phrase import N_

LOCS = ("hull", "rig")
LOC_NAME = {"hull": N_("Hull"), "rig": N_("Rigging")}  # messages: said in the reader's language


def seat_name(seat: int) -> str:
    """The seat in a text a player reads: a reference the host fills with the player's name."""
    return seat_refs.who(seat)
