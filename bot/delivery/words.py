"""The words of the delivery: game texts with names filled in, the turn prompt, the game-over and
paused texts, cut to what a Discord message holds."""

from __future__ import annotations

from bot.games import fill_names
from bot.summary import duration_of, summary_text
from bot.tables import Table

MAX_CONTENT = 2000  # characters in a message's content


def said(table: Table, text: str) -> str:
    """A game's text (event, prompt, log line) with its seat references filled with the players' names,
    escaped for markdown: the one place names enter the delivery's texts."""
    return fill_names(text, table.names(), markdown=True)


def clip(text: str, limit: int = MAX_CONTENT) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def your_turn(prompt: str) -> str:
    """'**Your turn** — <prompt>', without saying it twice when the game's prompt already does."""
    bare = prompt.strip()
    if bare.lower().startswith("your turn"):
        bare = bare[len("your turn") :].lstrip(" :—-,.")
    return f"**Your turn** — {bare}" if bare else "**Your turn**"


def my_view_label(table: Table) -> str:
    """The label of the button that shows a player their private view ("My hand", "My fleet", …)."""
    return table.spec.private_words.label


def result_text(table: Table, moves: int) -> str:
    """The game-over text (:func:`bot.summary.summary_text`); ``moves``: its move number (``moves_of``)."""
    return summary_text(table, moves, duration_of(table.row))


def paused_text(table: Table) -> str:
    """The status of a game with no human player left (:attr:`Table.deserted`)."""
    text = "⏸ **Paused**: nobody is left to play. A player takes their seat back with `/game join`"
    if table.row.deadline:
        return f"{text}; otherwise the game is abandoned <t:{int(table.row.deadline)}:R>."
    return text + "."
