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

from bot.ai_seats import said_name
from bot.games import registry
from bot.games.names import markdown_name, seat_name
from bot.games.phrase import ENGLISH, Voice
from bot.storage import HistoryEntry, Storage

PAGE_SIZE = 10
SCOPES = ("c", "m")


def title_of(game_key: str, speaker: Voice = ENGLISH) -> str:
    return speaker.gettext(registry.get(game_key).title) if game_key in registry else game_key


def outcome_text(entry: HistoryEntry, speaker: Voice = ENGLISH) -> str:
    """'won by alice', 'a tie: alice, bob', 'nobody won', 'abandoned' (and who resigned), in the
    language of ``speaker``."""
    _ = speaker.gettext
    if entry.status != "finished":
        return _("abandoned")
    result = entry.result or {}
    winners = [int(w) for w in result.get("winners", []) if str(w).isdigit()]
    resigned = [int(s) for s in result.get("resigned", []) if str(s).isdigit()]
    names = list(entry.names)
    if not winners:
        text = _("nobody won")
    elif len(winners) == len(names) > 1:
        text = _("won together") if registry.get(entry.game_key).extra.get("cooperative") else _("a draw")
    elif len(winners) > 1:
        text = _("a tie: {names}", names=", ".join(seat_name(w, names) for w in winners))
    else:
        text = _("won by {name}", name=seat_name(winners[0], names))
    if resigned:
        gone = ", ".join(seat_name(s, names) for s in resigned)
        text = _("{result} ({names} resigned)", result=text, names=gone)
    return text


def entry_line(entry: HistoryEntry, speaker: Voice = ENGLISH) -> str:
    """One line of the list: number, game, date, players, result (names escaped: it is markdown)."""
    _ = speaker.gettext
    entry = dataclasses.replace(entry, names=tuple(markdown_name(said_name(n, speaker)) for n in entry.names))
    players = ", ".join(entry.names) or _("no players")
    imported = " · " + _("📥 imported") if isinstance((entry.result or {}).get("imported"), dict) else ""
    return (
        f"`#{entry.game_id}` **{title_of(entry.game_key, speaker)}** · <t:{int(entry.when)}:d> · {players} · "
        f"{outcome_text(entry, speaker)}{imported}"
    )


def option_label(entry: HistoryEntry, speaker: Voice = ENGLISH) -> str:
    """The entry in the select (≤ 100 characters)."""
    names = speaker.gettext(" vs ").join(entry.names)
    label = f"#{entry.game_id} {title_of(entry.game_key, speaker)} — {names}"
    return label if len(label) <= 100 else label[:99] + "…"


async def history_page(
    storage: Storage,
    guild_id: int,
    scope: str,
    ident: int,
    page: int,
    who: str,
    channels: Iterable[int] | None = None,
    speaker: Voice = ENGLISH,
) -> tuple[str, list[HistoryEntry], bool]:
    """(text, the page's entries, whether a next page exists) of page ``page`` (from 0), in the
    language of ``speaker``. ``who`` is how the heading names the scope ("#general", "alice");
    ``channels``, when given, the channels whose games may be listed (those the person asking can see)."""
    _ = speaker.gettext
    if scope not in SCOPES:
        raise ValueError(f"unknown history scope {scope!r}")
    page = max(0, int(page))
    kwargs = {"place": ident} if scope == "c" else {"user_id": ident}
    rows = await storage.history(
        guild_id, offset=page * PAGE_SIZE, limit=PAGE_SIZE + 1, channels=channels, **kwargs
    )
    more = len(rows) > PAGE_SIZE
    rows = rows[:PAGE_SIZE]
    head = (
        _("📜 **Past games in {place}**", place=who)
        if scope == "c"
        else _("📜 **Past games of {name}**", name=who)
    )
    if not rows:
        if page:
            return _("{heading} — page {page}: nothing more.", heading=head, page=page + 1), [], False
        return _("{heading} — none yet.", heading=head), [], False
    pages = (
        _("{heading} (page {page}, more on the next)", heading=head, page=page + 1)
        if more
        else _("{heading} (page {page})", heading=head, page=page + 1)
    )
    lines = [pages, *(entry_line(e, speaker) for e in rows)]
    lines.append(_("Pick one below to see its summary, replay it or export it."))
    return "\n".join(lines), rows, more
