"""The end-of-game summary, the one-line status of a game and its move number, in words (no Discord
objects).

``summary_text(table, moves, seconds)`` is the game-over text: who won (display names, no mentions:
it pings nobody), the scores, who resigned when that ended the game, each player's rating and how far
the game moved it ("Alice 1534 +18"), the number of moves and how long the game took.
``game_summary(storage, table)`` reads what it needs from storage and builds it.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.games import fill_names
from bot.layout import seat_mark
from bot.rating_scale import change_text
from bot.storage import GameRow, RatingChange, Storage
from bot.tables import Table


def current_scores(game) -> dict[str, int] | None:
    """The scores the game's public view shows ({"0": 3, "1": 5}), or None when it has none."""
    try:
        scores = game.view(None).get("scores")
    except Exception:  # noqa: BLE001 - a view without scores, or one that cannot be made
        return None
    if isinstance(scores, dict):
        return {str(k): v for k, v in scores.items()}
    if isinstance(scores, list):
        return {str(i): v for i, v in enumerate(scores)}
    return None


async def moves_of(storage: Storage, table: Table) -> int:
    """The game's move number (``bot.storage.move_number``: the moves that stand), as read with the
    table when it was loaded with it (a publish, ``Tables.load(moves=True)``), else counted now."""
    return table.row.moves if table.row.moves is not None else await storage.count_moves(table.id)


def duration_of(row: GameRow) -> float:
    """Seconds from the game's start (its creation for older games) to its end (else its last change)."""
    start = row.started_at if row.started_at is not None else row.created_at
    end = row.finished_at if row.finished_at is not None else row.updated_at
    return max(0.0, end - start)


def duration_text(seconds: float) -> str:
    """'45 s', '12 min', '1 h 05 min', '2 d 3 h'."""
    s = int(round(seconds))
    if s < 60:
        return f"{s} s"
    m = s // 60
    if m < 60:
        return f"{m} min"
    h, m = divmod(m, 60)
    if h < 24:
        return f"{h} h {m:02d} min"
    d, h = divmod(h, 24)
    return f"{d} d {h} h"


def _name(table: Table, seat: int) -> str:
    return f"{seat_mark(seat)} **{table.shown_name(seat)}**"


def _names(table: Table, seats: list[int]) -> str:
    names = [_name(table, s) for s in seats]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def ratings_line(table: Table, rated: Sequence[RatingChange] | None) -> str | None:
    """'Ratings: 🔵 Alice 1534 +18 · 🟥 Bob 1482 -18' (the points people read, "?" while provisional);
    None when the game was not rated (yet) or is cooperative (counted, not rated)."""
    if not rated or table.spec.extra.get("cooperative"):
        return None
    n = len(table.seats)
    parts = [
        f"{seat_mark(c.seat)} {table.shown_name(c.seat)} {change_text(c.before, c.after)}"
        for c in rated
        if 0 <= c.seat < n
    ]
    return "Ratings: " + " · ".join(parts) if parts else None


def summary_text(
    table: Table, moves: int, seconds: float, rated: Sequence[RatingChange] | None = None
) -> str:
    """The end-of-game summary: winner(s), scores, "X resigned" when that ended it, the rating changes
    (``rated``, by default those loaded with the table: ``GameRow.rated``), moves, duration."""
    result = table.result or {}
    scores = result.get("scores") or {}
    winners = [int(w) for w in result.get("winners", [])]
    resigned = [int(s) for s in result.get("resigned", [])]
    n = len(table.seats)
    if not winners:
        head = "nobody wins."
    elif len(winners) == n and n > 1 and table.spec.extra.get("cooperative"):
        head = "everyone wins together!"
    elif n == 1:
        head = f"{_name(table, winners[0])}: victory!"
    elif len(winners) > 1:
        head = f"a tie between {_names(table, winners)}."
    else:
        head = f"{_name(table, winners[0])} wins!"
    if resigned:
        who = " and ".join(table.shown_name(s) for s in resigned)
        head = f"{who} resigned; {head}"
    lines = [f"🏁 **Game over** — {head}"]
    reason = result.get("reason")
    if reason and not resigned:
        lines.append(f"*{fill_names(str(reason), table.names())}*")  # the engine names seats by token
    if scores:
        parts = []
        for seat in range(n):
            score = scores.get(str(seat), scores.get(seat))
            parts.append(
                f"{seat_mark(seat)} {table.shown_name(seat)}" + (f" {score}" if score is not None else "")
            )
        lines.append("Final scores: " + " · ".join(parts))
    changes = ratings_line(table, table.row.rated if rated is None else rated)
    if changes:
        lines.append(changes)
    lines.append(f"{moves} move{'s' if moves != 1 else ''} · {duration_text(seconds)}")
    return "\n".join(lines)


async def game_summary(storage: Storage, table: Table) -> str:
    """:func:`summary_text` with the game's move number, duration and rating changes."""
    rated = table.row.rated
    if rated is None and table.over:
        rated = await storage.rating_changes(table.id)
    return summary_text(table, await moves_of(storage, table), duration_of(table.row), rated)


def status_line(table: Table, moves: int) -> str:
    """One line: the game, its move number (``moves``, :func:`moves_of`) and whom it waits for (or that
    it is over, or paused)."""
    head = f"⚓ **{table.title}** · game #{table.id}"
    if table.game is None:
        return f"{head} · lobby ({len(table.seats)} seated)"
    if table.over:
        winners = [int(w) for w in (table.result or {}).get("winners", [])]
        won = f" — won by {', '.join(table.shown_name(w) for w in winners)}" if winners else ""
        return f"{head} · over after move {moves}{won}"
    if table.deserted:
        return f"{head} · move {moves} · paused: nobody is left to play (`/game join` takes a seat back)"
    waiting = ", ".join(table.shown_name(s) for s in table.game.to_act())
    return f"{head} · move {moves} · waiting for {waiting}"
