"""The Everrain's names said in the reader's language: the ship board's nodes and crew, the enemy ships
and the six directions. The rules data (data/everrain/*.toml) names them in English; each name is a
message (marked here), said by ``speaker.gettext(name)``."""

from __future__ import annotations

from bot.games.phrase import N_, Voice

NODES = (
    N_("Bow gun"),
    N_("Foresail"),
    N_("Port gun"),
    N_("Crow's nest"),
    N_("Mainsail"),
    N_("Starboard gun"),
    N_("Hold"),
    N_("Helm"),
    N_("Cabin"),
    N_("Stern gun"),
)
CREW = (N_("Mate"), N_("Gunner"), N_("Bosun"))
ENEMIES = (
    N_("Grey Cutter"),
    N_("Rain Sloop"),
    N_("Drowned Brig"),
    N_("Stormcaller"),
    N_("Black Galleon"),
    N_("Mist Corsair"),
    N_("Reef Sentinel"),
    N_("Salt Wraith"),
    N_("Iron Leviathan"),
)
# board.DIR_NAMES' directions in words
FACING = {
    "E": N_("east"),
    "NE": N_("north-east"),
    "NW": N_("north-west"),
    "W": N_("west"),
    "SW": N_("south-west"),
    "SE": N_("south-east"),
}


def named(speaker: Voice, name: str) -> str:
    """A node's, crew member's or enemy ship's name (as the rules data gives it) in the reader's
    language."""
    return speaker.gettext(name)


def facing(speaker: Voice, direction: str) -> str:
    """A direction of board.DIR_NAMES ("NE") in words ("north-east")."""
    return speaker.gettext(FACING[direction])
