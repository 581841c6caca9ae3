"""Imports (issue 20): a game checked from an export file, stored as a finished game of this server.

No table of its own: an imported game is a ``games`` row (finished, its result carrying the import
mark, see bot/imports.py), its seats (names only), and its action log, written in ONE transaction with
the server's count of imports of the day, the meta row ``imports:<guild>:<YYYY-MM-DD>`` (UTC),
compare-and-set: of two processes importing at once past the cap, one is refused.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from bot.games.base import canonical
from bot.storage.core import Conn, StorageCore


class ImportCapReached(Exception):
    """The server imported its day's allowance already."""

    def __init__(self, cap: int) -> None:
        super().__init__(cap)
        self.cap = cap


def import_day(now: float) -> str:
    return time.strftime("%Y-%m-%d", time.gmtime(now))


class ImportsStore(StorageCore):
    """Imported games: written whole, counted per server per day."""

    async def imports_today(self, guild_id: int, now: float | None = None) -> int:
        """How many games ``guild_id`` imported on the UTC day of ``now``."""
        row = await self._fetchone(
            "SELECT value FROM meta WHERE key = ?", (f"imports:{guild_id}:{import_day(now or time.time())}",)
        )
        return 0 if row is None else int(row[0])

    async def add_imported_game(
        self,
        *,
        guild_id: int,
        channel_id: int,
        thread_id: int | None = None,
        game_key: str,
        options: dict,
        seed: int,
        names: Sequence[str],
        actions: Sequence[tuple[int, dict]],
        state_json: str,
        result: dict,
        cap: int,
        now: float | None = None,
    ) -> int:
        """A finished game of ``guild_id`` opened in ``channel_id`` (in its thread ``thread_id``), with these seats (names, no member)
        and actions; its id. ImportCapReached when the server imported ``cap`` games this UTC day."""
        now = time.time() if now is None else now
        key = f"imports:{guild_id}:{import_day(now)}"

        async def body(db: Conn) -> int:
            rows = await db.execute_fetchall("SELECT value FROM meta WHERE key = ?", (key,))
            count = int(rows[0][0]) if rows else 0
            if count >= cap:
                raise ImportCapReached(cap)
            if rows:
                cur = await db.execute(
                    "UPDATE meta SET value = ? WHERE key = ? AND value = ?", (str(count + 1), key, rows[0][0])
                )
            else:
                cur = await db.execute(
                    "INSERT INTO meta (key, value) VALUES (?, '1') ON CONFLICT (key) DO NOTHING", (key,)
                )
            if cur.rowcount != 1:  # another process counted one at the same moment: count again
                raise _Recount()
            # the counts of earlier days are of no more use
            await db.execute("DELETE FROM meta WHERE key LIKE ? AND key <> ?", (f"imports:{guild_id}:%", key))
            made = await db.execute_fetchall(
                "INSERT INTO games (guild_id, channel_id, thread_id, game_key, options, seed, host_id, "
                "status, version, state, created_at, updated_at, result, started_at, finished_at) "
                "VALUES (?, ?, ?, ?, ?, ?, NULL, 'finished', ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                (
                    guild_id,
                    channel_id,
                    thread_id,
                    game_key,
                    canonical(options),
                    int(seed),
                    len(actions),
                    state_json,
                    now,
                    now,
                    canonical(result),
                    now,
                    now,
                ),
            )
            game_id = made[0][0]
            await db.executemany(
                "INSERT INTO seats (game_id, seat, user_id, is_ai, name, dm_ok, missed) "
                "VALUES (?, ?, NULL, 0, ?, NULL, 0)",
                [(game_id, seat, name) for seat, name in enumerate(names)],
            )
            if actions:
                await db.executemany(
                    "INSERT INTO actions (game_id, seq, seat, action, created_at) VALUES (?, ?, ?, ?, ?)",
                    [(game_id, n, seat, canonical(a), now) for n, (seat, a) in enumerate(actions, start=1)],
                )
            return game_id

        for _ in range(5):
            try:
                return await self._write(body, games=())
            except _Recount:
                continue
        raise ImportCapReached(cap)


class _Recount(Exception):
    """The day's count changed under a write: it runs again."""
