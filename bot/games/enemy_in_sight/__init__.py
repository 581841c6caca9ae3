"""Enemy in Sight (base game): line-of-battle card duels of the age of sail, 2–6 players."""

from bot.games.base import GameSpec, Option, PrivateWords
from bot.games.enemy_in_sight.advanced import AdvancedEnemyInSight
from bot.games.enemy_in_sight.game import EnemyInSight
from bot.games.enemy_in_sight.menus import MenuHooks
from bot.games.phrase import N_, Phrase


class EnemyInSightGame(MenuHooks, EnemyInSight):
    """The base game as the host plays it: its rules and its menus."""


class AdvancedEnemyInSightGame(MenuHooks, AdvancedEnemyInSight):
    """The Advanced variant as the host plays it: its rules and the same menus."""


VARIANTS = {"base": EnemyInSightGame, "advanced": AdvancedEnemyInSightGame}

# The rules for /game rules: a message a paragraph, said in the reader's language.
SUMMARY_PARTS = (
    N_("**Enemy in Sight** — 2–6 admirals, each with a Line of ships and a hidden hand of action cards."),
    N_(
        "**Setup:** 6 ships in your Line, 6 cards. Hand capacity = ships in Line (struck ones don't count, min 1)."
    ),
    N_(
        "**Your turn:** 1) fires on your ships grow by 1, your Refuse Battle ends; 2) draw up to capacity — if the deck cannot fill your hand the round ends; 3) a **red card** in hand must be played (it passes clockwise to the first player it affects); 4) otherwise play or discard one card. A Rake and a Boarding Party may be added to a Broadside."
    ),
    N_(
        "**Black cards:** Broadside (ship rate ≤ card rate; Hull or Rigging), Rake, Break the Line (2 Hull + 2 Rigging to the whole enemy Line and prizes), Repair, Bucket Brigade, Boarding Party (vs a dismasted or struck ship: both pick a secret card, die + hit difference ≥5 captures, ≤1 loses the boarder), Additional Ship, Refuse Battle (immunity, move ships between Port and Line, bank prizes), Fire Ship, Blockade."
    ),
    N_("**Red cards:** Weathergauge, Fire, Strike, Run Aground, Admiralty's Orders."),
    N_("**Ships:** Rigging gone = dismasted (cannot fire or move alone); Hull gone = sunk."),
    N_(
        "**Scoring at round end:** ships you sank (Hull + Rigging); prizes still at sea (undamaged factors); −15 with no ship in Line. Prizes taken to Port score double at once."
    ),
    N_("**Winning:** first to 100 VP; the highest score wins, ties share the win."),
    N_(
        "**Advanced (variant:advanced):** secret Line & Reserve set-up; only Line ships count for capacity; transfer ships Line/Reserve instead of a card; ships fire station on station."
    ),
)
SUMMARY = "\n".join(SUMMARY_PARTS)

SPEC = GameSpec(
    key="enemy-in-sight",
    title="Enemy in Sight",
    min_players=2,
    max_players=6,
    cls=EnemyInSightGame,
    options=(
        Option(
            "variant",
            "choice",
            "base",
            Phrase(N_("Rules: base, or advanced (secret Line & Reserve, stations)")),
            choices=("base", "advanced"),
        ),
    ),
    summary=SUMMARY,
    summary_parts=SUMMARY_PARTS,
    has_private_view=True,
    private_words=PrivateWords(
        N_("My hand"), N_("hand"), N_("Your hand, your secret choices and your controls will come here.")
    ),
    public_controls=False,
    rules_doc="docs/rules/enemy-in-sight.md",
    variants=dict(VARIANTS),
)

__all__ = ["SPEC", "SUMMARY", "VARIANTS", "AdvancedEnemyInSight", "EnemyInSight"]
