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
from bot.games.phrase import ENGLISH, Phrase, Voice
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


def duration_text(seconds: float, speaker: Voice = ENGLISH) -> str:
    """'45 s', '12 min', '1 h 05 min', '2 d 3 h'."""
    _ = speaker.gettext
    s = int(round(seconds))
    if s < 60:
        return _("{s} s", s=s)
    m = s // 60
    if m < 60:
        return _("{m} min", m=m)
    h, m = divmod(m, 60)
    if h < 24:
        return _("{h} h {m} min", h=h, m=f"{m:02d}")
    d, h = divmod(h, 24)
    return _("{d} d {h} h", d=d, h=h)


def _name(table: Table, seat: int, speaker: Voice = ENGLISH) -> str:
    return f"{seat_mark(seat)} **{table.shown_name(seat, speaker)}**"


def and_list(items: list[str], speaker: Voice) -> str:
    """'A', 'A and B', 'A, B and C'."""
    if len(items) == 1:
        return items[0]
    return speaker.gettext("{first} and {last}", first=", ".join(items[:-1]), last=items[-1])


def _names(table: Table, seats: list[int], speaker: Voice = ENGLISH) -> str:
    return and_list([_name(table, s, speaker) for s in seats], speaker)


def ratings_line(table: Table, rated: Sequence[RatingChange] | None, speaker: Voice = ENGLISH) -> str | None:
    """'Ratings: 🔵 Alice 1534 +18 · 🟥 Bob 1482 -18' (the points people read, "?" while provisional);
    None when the game was not rated (yet) or is cooperative (counted, not rated)."""
    if not rated or table.spec.extra.get("cooperative"):
        return None
    n = len(table.seats)
    parts = [
        f"{seat_mark(c.seat)} {table.shown_name(c.seat, speaker)} {change_text(c.before, c.after)}"
        for c in rated
        if 0 <= c.seat < n
    ]
    return speaker.gettext("Ratings: {ratings}", ratings=" · ".join(parts)) if parts else None


def summary_text(
    table: Table,
    moves: int,
    seconds: float,
    rated: Sequence[RatingChange] | None = None,
    speaker: Voice = ENGLISH,
) -> str:
    """The end-of-game summary in the language of ``speaker``: winner(s), scores, "X resigned" when
    that ended it, the rating changes (``rated``, by default those loaded with the table:
    ``GameRow.rated``), moves, duration."""
    _ = speaker.gettext
    result = table.result or {}
    scores = result.get("scores") or {}
    winners = [int(w) for w in result.get("winners", [])]
    resigned = [int(s) for s in result.get("resigned", [])]
    n = len(table.seats)
    if not winners:
        head = _("nobody wins.")
    elif len(winners) == n and n > 1 and table.spec.extra.get("cooperative"):
        head = _("everyone wins together!")
    elif n == 1:
        head = _("{player}: victory!", player=_name(table, winners[0], speaker))
    elif len(winners) > 1:
        head = _("a tie between {players}.", players=_names(table, winners, speaker))
    else:
        head = _("{player} wins!", player=_name(table, winners[0], speaker))
    if resigned:
        who = and_list([table.shown_name(s, speaker) for s in resigned], speaker)
        head = _("{players} resigned; {outcome}", players=who, outcome=head)
    lines = [_("🏁 **Game over** — {outcome}", outcome=head)]
    reason = result.get("reason")
    if reason and not resigned:
        # the engine names seats by token; a reason the engine made a Phrase of is said in our language
        lines.append(f"*{fill_names(speaker.say(reason_of(result)), table.names(speaker))}*")
    if scores:
        parts = []
        for seat in range(n):
            score = scores.get(str(seat), scores.get(seat))
            parts.append(
                f"{seat_mark(seat)} {table.shown_name(seat, speaker)}"
                + (f" {score}" if score is not None else "")
            )
        lines.append(_("Final scores: {scores}", scores=" · ".join(parts)))
    changes = ratings_line(table, table.row.rated if rated is None else rated, speaker)
    if changes:
        lines.append(changes)
    lines.append(
        speaker.ngettext(
            "{n} move · {duration}", "{n} moves · {duration}", moves, duration=duration_text(seconds, speaker)
        )
    )
    return "\n".join(lines)


def reason_of(result: dict) -> str:
    """Why the game ended, as the engine said it: a :class:`Phrase` where the result keeps one's data
    beside its English (``"reason_phrase"``: ``Phrase.to_json``), else the English ``"reason"``."""
    data = result.get("reason_phrase")
    if isinstance(data, dict) and "msgid" in data:
        return Phrase.from_json(data)
    return str(result.get("reason", ""))


async def game_summary(storage: Storage, table: Table, speaker: Voice = ENGLISH) -> str:
    """:func:`summary_text` with the game's move number, duration and rating changes."""
    rated = table.row.rated
    if rated is None and table.over:
        rated = await storage.rating_changes(table.id)
    return summary_text(table, await moves_of(storage, table), duration_of(table.row), rated, speaker=speaker)


def status_line(table: Table, moves: int, speaker: Voice = ENGLISH) -> str:
    """One line: the game, its move number (``moves``, :func:`moves_of`) and whom it waits for (or that
    it is over, or paused)."""
    _ = speaker.gettext
    head = _("⚓ **{game}** · game #{id}", game=_(table.title), id=table.id)
    if table.game is None:
        return _("{game} · lobby ({n} seated)", game=head, n=len(table.seats))
    if table.over:
        winners = [int(w) for w in (table.result or {}).get("winners", [])]
        if winners:
            return _(
                "{game} · over after move {move} — won by {players}",
                game=head,
                move=moves,
                players=", ".join(table.shown_name(w, speaker) for w in winners),
            )
        return _("{game} · over after move {move}", game=head, move=moves)
    if table.deserted:
        return _(
            "{game} · move {move} · paused: nobody is left to play (`/game join` takes a seat back)",
            game=head,
            move=moves,
        )
    waiting = ", ".join(table.shown_name(s, speaker) for s in table.game.to_act())
    return _("{game} · move {move} · waiting for {players}", game=head, move=moves, players=waiting)
