"""History (issue 13): the past games of a channel or of a member, as /game history and /stats list them."""

from __future__ import annotations

from collections.abc import Iterable

from bot.storage.core import StorageCore
from bot.storage.rows import HistoryEntry


class HistoryStore(StorageCore):
    """Past games of a channel or a member, newest first."""

    _HISTORY_COLUMNS = (
        "id, guild_id, channel_id, thread_id, game_key, status, version, created_at, updated_at, "
        "started_at, finished_at, result"
    )

    async def history(
        self,
        guild_id: int | None,
        *,
        place: int | None = None,
        user_id: int | None = None,
        channels: Iterable[int] | None = None,
        offset: int = 0,
        limit: int = 10,
    ) -> list[HistoryEntry]:
        """Past games (finished or abandoned, that were started) of a server, newest first, in ONE query
        each: those of a channel (``place``: games opened in that channel, their threads included, or
        played in that thread) or those a member (``user_id``) had a seat in. ``channels``: only games
        opened in those channels (the ones the person asking can see). Each entry carries its seats'
        names. Ask for ``limit + 1`` to know whether another page follows."""
        if (place is None) == (user_id is None):
            raise ValueError("history: give exactly one of place and user_id")
        arg: tuple[int | None, ...]
        if place is not None:
            where, arg = "(channel_id = ? OR thread_id = ?)", (place, place)
        else:
            where, arg = (
                "EXISTS (SELECT 1 FROM seats s WHERE s.game_id = games.id AND s.user_id = ?)",
                (user_id,),
            )
        if channels is not None:
            seen = sorted({int(c) for c in channels})
            if not seen:
                return []
            where += f" AND channel_id IN ({', '.join('?' * len(seen))})"
            arg = (*arg, *seen)
        rows = await self._fetchall(
            f"SELECT {self._HISTORY_COLUMNS}, {self._SEATS_JSON} AS seats_json FROM games "
            f"WHERE guild_id {self._IS} ? AND status IN ('finished', 'abandoned') AND state IS NOT NULL "
            f"AND {where} ORDER BY coalesce(finished_at, updated_at) DESC, id DESC LIMIT ? OFFSET ?",
            (guild_id, *arg, max(0, int(limit)), max(0, int(offset))),
        )
        return [HistoryEntry._from(r) for r in rows]
