"""/game history: the past games of a channel or of a member, in words (no Discord objects).

``history_page(storage, guild, scope, ident, page)`` reads one page (:meth:`Storage.history`, one
query) and returns its text and entries; the cog adds the select that opens a game and the ◀ ▶
buttons (ids in bot/ui.py). A *scope* is ``"c"`` (a channel: the games opened in it, its threads'
included, or played in that thread) or ``"m"`` (a member: the games they had a seat in, in this
server). Names are display names as the seats recorded them: the texts ping nobody.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

from bot.games import registry
from bot.games.names import markdown_name, seat_name
from bot.storage import HistoryEntry, Storage

PAGE_SIZE = 10
SCOPES = ("c", "m")


def title_of(game_key: str) -> str:
    return registry.get(game_key).title if game_key in registry else game_key


def outcome_text(entry: HistoryEntry) -> str:
    """'won by alice', 'a tie: alice, bob', 'nobody won', 'abandoned' (and who resigned)."""
    if entry.status != "finished":
        return "abandoned"
    result = entry.result or {}
    winners = [int(w) for w in result.get("winners", []) if str(w).isdigit()]
    resigned = [int(s) for s in result.get("resigned", []) if str(s).isdigit()]
    names = list(entry.names)
    if not winners:
        text = "nobody won"
    elif len(winners) == len(names) > 1:
        text = "won together" if registry.get(entry.game_key).extra.get("cooperative") else "a draw"
    elif len(winners) > 1:
        text = "a tie: " + ", ".join(seat_name(w, names) for w in winners)
    else:
        text = f"won by {seat_name(winners[0], names)}"
    if resigned:
        text += " (" + ", ".join(seat_name(s, names) for s in resigned) + " resigned)"
    return text


def entry_line(entry: HistoryEntry) -> str:
    """One line of the list: number, game, date, players, result (names escaped: it is markdown)."""
    entry = dataclasses.replace(entry, names=tuple(markdown_name(n) for n in entry.names))
    players = ", ".join(entry.names) or "no players"
    imported = " · 📥 imported" if isinstance((entry.result or {}).get("imported"), dict) else ""
    return (
        f"`#{entry.game_id}` **{title_of(entry.game_key)}** · <t:{int(entry.when)}:d> · {players} · "
        f"{outcome_text(entry)}{imported}"
    )


def option_label(entry: HistoryEntry) -> str:
    """The entry in the select (≤ 100 characters)."""
    label = f"#{entry.game_id} {title_of(entry.game_key)} — {' vs '.join(entry.names)}"
    return label if len(label) <= 100 else label[:99] + "…"


async def history_page(
    storage: Storage,
    guild_id: int,
    scope: str,
    ident: int,
    page: int,
    who: str,
    channels: Iterable[int] | None = None,
) -> tuple[str, list[HistoryEntry], bool]:
    """(text, the page's entries, whether a next page exists) of page ``page`` (from 0). ``who`` is
    how the heading names the scope ("#general", "alice"); ``channels``, when given, the channels whose
    games may be listed (those the person asking can see)."""
    if scope not in SCOPES:
        raise ValueError(f"unknown history scope {scope!r}")
    page = max(0, int(page))
    kwargs = {"place": ident} if scope == "c" else {"user_id": ident}
    rows = await storage.history(
        guild_id, offset=page * PAGE_SIZE, limit=PAGE_SIZE + 1, channels=channels, **kwargs
    )
    more = len(rows) > PAGE_SIZE
    rows = rows[:PAGE_SIZE]
    head = f"📜 **Past games {'in' if scope == 'c' else 'of'} {who}**"
    if not rows:
        return head + (f" — page {page + 1}: nothing more." if page else " — none yet."), [], False
    pages = f"page {page + 1}" + (", more on the next" if more else "")
    lines = [f"{head} ({pages})", *map(entry_line, rows)]
    lines.append("Pick one below to see its summary, replay it or export it.")
    return "\n".join(lines), rows, more
