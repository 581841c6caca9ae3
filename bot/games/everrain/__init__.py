"""The Everrain: cooperative sea skirmish around the enemy-ship activation rules."""

from bot.games.base import GameSpec, Option, PrivateWords
from bot.games.everrain.board import rules, scenario_ids
from bot.games.everrain.game import LENGTHS, EverrainGame
from bot.games.phrase import N_, Phrase

_R = rules()
_D = " / ".join(str(_R["discovery_end"][k]) for k in LENGTHS)
_E = " / ".join(str(_R["enemy_discovery_end"][k]) for k in LENGTHS)

# The rules for /game rules: a message a paragraph, said in the reader's language (the numbers from the
# rules data).
SUMMARY_PARTS = (
    N_("**The Everrain** — 1–4 captains against the ships of the Everrain (cooperative)."),
    Phrase(
        N_(
            "**Goal:** bring clues to a Port until the Discovery track reaches its end ({discovery} for short / medium / long). You all lose if the Enemy Discovery token reaches its end first ({enemy}, +{bonus} when alone)."
        ),
        bonus=_R["solo_enemy_discovery_bonus"],
        discovery=_D,
        enemy=_E,
    ),
    N_("**Your turn:** 3 orders, then *End turn*."),
    N_(
        "• *Navigation*: 1 point + 1 per manned navigation node (Foresail, Mainsail, Helm); each point sails 1 hex forward or turns 60° (2 points per action on rough sea). Entering a Port repairs the ship and delivers its clues."
    ),
    N_(
        "• *Artillery*: a manned gun (bow/port/starboard/stern) fires at an enemy in its arc and line of sight: 2 Attack dice (+1 with a manned Crow's nest), each Damage = 1 trauma; an unused order turns an Omen into a Damage."
    ),
    N_(
        "• *Crew*: move one crew member to another node.  • *Explore*: take a clue from a clue site next to you."
    ),
    N_("Sinking an enemy ship wins its clues."),
    N_(
        "**Enemy phase:** every enemy ship activates once (the first player picks the order): it rolls its Enemy dice, attacks the nearest player ship in its Engagement Range that is not in a Port (Damage = 1 each, pairs of other faces = 1 more; you roll 1 Evasion die per manned navigation node), moving into reach with its Move faces; otherwise it sails for its destination and is Banished there, advancing the Agenda by its health."
    ),
    N_(
        "Damage destroys ship nodes by the d10 Fate Die; losing all 10 sinks you back to port (no elimination)."
    ),
    N_(
        "Then the Agenda advances 2 + 1 per player; each wrap advances the Enemy Discovery and spawns a ship."
    ),
)
SUMMARY = "\n".join(SUMMARY_PARTS)

SPEC = GameSpec(
    key="everrain",
    title="The Everrain",
    min_players=1,
    max_players=4,
    cls=EverrainGame,
    options=(
        Option(
            "length",
            "choice",
            "short",
            Phrase(N_("Game length: Discovery track of {lengths}"), lengths=_D),
            choices=LENGTHS,
        ),
        Option(
            "scenario",
            "choice",
            scenario_ids()[0],
            Phrase(N_("Map: {maps}"), maps=", ".join(scenario_ids())),
            choices=scenario_ids(),
        ),
    ),
    summary=SUMMARY,
    summary_parts=SUMMARY_PARTS,
    has_private_view=True,
    private_words=PrivateWords(
        N_("My ship"), N_("ship board"), N_("Your ship board and your controls will come here.")
    ),
    rules_doc="docs/rules/everrain.md",
    extra={"cooperative": True},
)
