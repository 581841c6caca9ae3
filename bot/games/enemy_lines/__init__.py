"""Enemy Lines: two fleets race to lie along the rows behind the enemy lines."""

from bot.games.base import GameSpec, Option
from bot.games.enemy_lines.game import EnemyLinesGame
from bot.games.phrase import N_, Phrase

SPEC = GameSpec(
    key="enemy-lines",
    title="Enemy Lines",
    min_players=2,
    max_players=2,
    cls=EnemyLinesGame,
    options=(
        Option(
            name="quick-setup",
            kind="bool",
            default=False,
            help=Phrase(
                N_("Place both fleets at random (alternating, as the rules say) so play starts at once.")
            ),
        ),
    ),
    summary=Phrase(
        N_("Get three of your ships lying along the rows behind the enemy lines; score size × row mark.")
    ),
    has_private_view=False,
    public_controls=True,
    rules_doc="docs/rules/enemy-lines.md",
)

__all__ = ["SPEC", "EnemyLinesGame"]
