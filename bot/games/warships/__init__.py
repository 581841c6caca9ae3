"""Warships: hidden naval units, ports behind fortification lines, batteries, mines."""

from bot.games.base import GameSpec, Option, PrivateWords
from bot.games.phrase import N_, Phrase
from bot.games.warships.board import board
from bot.games.warships.game import WarshipsGame

# The rules for /game rules: a message a paragraph, said in the reader's language.
SUMMARY_PARTS = (
    N_("**Warships** — 2 admirals, 36 hidden tokens each: 26 ships, 4 shore batteries, 6 mines."),
    N_("**Goal:** bring your **Landing ship** into the enemy port, or destroy the enemy Landing ship."),
    N_(
        "**Setup:** in secret, in your port (DM); mines may stay off the board. Batteries sit beside the two exits."
    ),
    N_(
        "**Turn:** move one unit in a straight line (8 directions) up to its range — never onto or through another unit —\n"
        "or attack an enemy in range (in place, or move then attack). Both types are revealed, the loser is removed\n"
        "(same type: both), the winner turns face down but stays marked for both players."
    ),
    N_(
        "**Ports:** the fortification line can't be crossed; go in and out only straight through an exit. An enemy may\n"
        "enter only through an exit whose two batteries are gone. Only **Missile ships** fire over the line and take out\n"
        "batteries (one a move). Batteries close the fields around them to every enemy but Missile ships."
    ),
    N_(
        "**Mines:** laid next to your Minesweeper (not a move, any number). Attacking a mine removes both; a Minesweeper's\n"
        "**defuse** removes it alone."
    ),
    N_(
        "**Neutral waters** (dotted, centre): no attacks in or out, no mines; a unit ending a 4th turn there is removed."
    ),
    Phrase(
        N_(
            "**You lose** when your Landing ship is destroyed, or when you have no Missile ship while both enemy exits still\n"
            "have a battery. House rules: no legal move loses; {limit} moves = draw."
        ),
        limit=board().move_limit,
    ),
    N_(
        "**Table** (range; beats): BB 2, all ships but SS · CR 3, all but BB · DD 4, SS ES MS MI LS · SS 2, BB MS MI LS ·\n"
        "ES 3, SS MS MI LS · MS 2, MI LS · MI 1, LS + batteries · LS 1, nothing."
    ),
    N_(
        "Use `/ws move from:B7 to:B9` or the menus. Options: harder-attack, greater-mobility, initial-manoeuvres, quick-setup."
    ),
)
SUMMARY = "\n".join(SUMMARY_PARTS)

SPEC = GameSpec(
    key="warships",
    title="Warships",
    min_players=2,
    max_players=2,
    cls=WarshipsGame,
    options=(
        Option(
            "harder-attack",
            "bool",
            False,
            Phrase(N_("Move-then-attack: range reduced by the fields moved first")),
        ),
        Option("greater-mobility", "bool", False, Phrase(N_("Missile and landing ships have range 2"))),
        Option(
            "initial-manoeuvres",
            "bool",
            False,
            Phrase(N_("Up to 12 ships may be set up in front of the port")),
        ),
        Option(
            "quick-setup",
            "bool",
            False,
            Phrase(N_("Skip the secret setup: both random arrangements are used")),
        ),
    ),
    summary=SUMMARY,
    summary_parts=SUMMARY_PARTS,
    has_private_view=True,
    # Warships has units, not a hand: each player sees their own fleet (its set-up is secret)
    private_words=PrivateWords(
        N_("My fleet"), N_("fleet"), N_("Your fleet, your secret set-up and your controls will come here.")
    ),
    public_controls=False,
    rules_doc="docs/rules/warships.md",
)

__all__ = ["SPEC", "SUMMARY", "WarshipsGame"]
