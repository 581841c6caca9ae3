"""The Everrain's names said in the reader's language: the ship board's nodes and crew, the enemy ships
and the six directions. The rules data (data/everrain/*.toml) names them in English; each name is a
message (marked here), said by ``speaker.gettext(name)``."""

from __future__ import annotations

from bot.games.phrase import N_, Phrase, Voice

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
    return speaker.gettext(name) if name else name


def facing(speaker: Voice, direction: str) -> str:
    """A direction of board.DIR_NAMES ("NE") in words ("north-east")."""
    return speaker.gettext(FACING[direction])


SCENARIOS = (N_("The Rainy Strait"), N_("The Drowned Archipelago"))  # data/everrain/scenarios.toml's titles

# The dice's outcomes counted ("3 Move"), in this order.
FACE_ORDER = ("move", "damage", "evade", "omen", "blank")
OUTCOMES = {
    "move": lambda n: Phrase.ngettext("{n} Move", "{n} Move", n),
    "damage": lambda n: Phrase.ngettext("{n} Damage", "{n} Damage", n),
    "evade": lambda n: Phrase.ngettext("{n} Evade", "{n} Evade", n),
    "omen": lambda n: Phrase.ngettext("{n} Omen", "{n} Omens", n),
    "blank": lambda n: Phrase.ngettext("{n} blank", "{n} blank", n),
}
EDGES = {
    "E": N_("the east edge"),
    "W": N_("the west edge"),
    "N": N_("the north edge"),
    "S": N_("the south edge"),
}


def tracks(view: dict) -> dict[str, int]:
    """The tracks of a view as a message's parameters: ``{agenda}`` of ``{agenda_length}``, ``{discovery}``
    of ``{discovery_end}``, ``{enemy}`` (the Enemy Discovery) of ``{enemy_end}``."""
    t = view["tracks"]
    return dict(
        agenda=t["agenda"],
        agenda_length=t["agenda_length"],
        discovery=t["discovery"],
        discovery_end=t["discovery_end"],
        enemy=t["enemy_discovery"],
        enemy_end=t["enemy_discovery_end"],
    )


def dice(faces: list[str]) -> Phrase:
    """A roll as a player reads it: "3 Move, 1 Damage and 1 Omen" (the rules' capitalised outcome names;
    blank faces in lower case, as they are no outcome), a Phrase each reader hears in their own
    language. The faces are those of data/everrain/dice.toml (OUTCOMES names each)."""
    counts = [OUTCOMES[kind](faces.count(kind)) for kind in FACE_ORDER if kind in faces]
    return listed(counts) if counts else Phrase(N_("no dice"))


def listed(items: list[Phrase]) -> Phrase:
    """ "a, b and c" of one or more Phrases, said in the reader's language."""
    if len(items) == 1:
        return items[0]
    head = items[0]
    for item in items[1:-1]:
        head = Phrase(N_("{first}, {next}"), first=head, next=item)
    return Phrase(N_("{first} and {last}"), first=head, last=items[-1])


def destination(where: str) -> Phrase | str:
    """An enemy ship's destination as the game stores it (``dest_label``: "E edge", "the Rift (F5)",
    "port C3", "none") in words said in the reader's language; anything else as it is."""
    if where.endswith(" edge") and where.split()[0] in EDGES:
        return Phrase(EDGES[where.split()[0]])
    if where.startswith("the Rift (") and where.endswith(")"):
        return Phrase(N_("the Rift ({hex})"), hex=where[len("the Rift (") : -1])
    if where.startswith("port "):
        return Phrase(N_("port {hex}"), hex=where[len("port ") :])
    if where == "none":
        return Phrase(N_("no destination"))
    return where
