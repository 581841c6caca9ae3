"""Ratings (migration 0005): each player's standing per game and server, and the rated games."""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from typing import Any

from bot.storage.core import Conn, StorageCore
from bot.storage.errors import NoSuchGame
from bot.storage.rows import PastGame, RatingRow


class RatingsStore(StorageCore):
    """Ratings per server and game, and the rating events of each rated game."""

    async def record_rating(self, game_id: int, places: Sequence[Any], *, cooperative: bool = False) -> bool:
        """Rate finished game ``game_id`` in ONE transaction: each player's rating row is read (or
        starts at openskill's default), updated from ``places`` (:class:`bot.ratings.Place`, one per
        seat) and written with its games/wins/losses/draws, and a ``rating_events`` row per player
        records the change. ``cooperative``: counts only, mu and sigma stay as they are.

        A game is rated at most once (the events' primary key; a second call finds them and returns
        False); a game that is not finished (abandoned, running…) or outside a server is not rated
        (False). True when this call rated it."""
        from bot import ratings

        first: dict[str, Any] = {}  # each player's first place, in order
        for p in places:
            first.setdefault(p.player, p)
        places = list(first.values())

        async def body(db: Conn) -> bool:
            game = await self._one(
                db,
                "SELECT guild_id, game_key, status, finished_at, updated_at FROM games WHERE id = ?",
                (game_id,),
            )
            if game is None:
                raise NoSuchGame(game_id)
            if game["status"] != "finished" or game["guild_id"] is None or len(places) < 1:
                return False
            if await self._one(db, "SELECT 1 FROM rating_events WHERE game_id = ?", (game_id,)):
                return False
            guild, key = game["guild_id"], game["game_key"]
            when = game["finished_at"] if game["finished_at"] is not None else game["updated_at"]
            now = time.time()
            current = []
            for p in places:
                row = await self._one(
                    db,
                    "SELECT mu, sigma FROM ratings WHERE guild_id = ? AND game_key = ? AND player = ?",
                    (guild, key, p.player),
                )
                current.append((ratings.MU, ratings.SIGMA) if row is None else (row["mu"], row["sigma"]))
            new = (
                current
                if cooperative or len(places) < 2
                else ratings.update(current, [p.rank for p in places])
            )
            for p, (mu0, s0), (mu1, s1) in zip(places, current, new, strict=True):
                counts = (int(p.outcome == "win"), int(p.outcome == "loss"), int(p.outcome == "draw"))
                await db.execute(
                    "INSERT INTO ratings (guild_id, game_key, player, name, mu, sigma, games, wins, losses, draws, "
                    "updated_at) VALUES (?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?) "
                    "ON CONFLICT (guild_id, game_key, player) DO UPDATE SET name = excluded.name, "
                    "mu = excluded.mu, sigma = excluded.sigma, games = ratings.games + 1, "
                    "wins = ratings.wins + excluded.wins, losses = ratings.losses + excluded.losses, "
                    "draws = ratings.draws + excluded.draws, updated_at = excluded.updated_at",
                    (guild, key, p.player, p.name, mu1, s1, *counts, now),
                )
                await db.execute(
                    "INSERT INTO rating_events (game_id, player, guild_id, game_key, seat, name, rank, outcome, "
                    "mu_before, sigma_before, mu_after, sigma_after, created_at) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        game_id,
                        p.player,
                        guild,
                        key,
                        p.seat,
                        p.name,
                        p.rank,
                        p.outcome,
                        mu0,
                        s0,
                        mu1,
                        s1,
                        when,
                    ),
                )
            return True

        return await self._write(body)

    async def is_rated(self, game_id: int) -> bool:
        return await self._fetchone("SELECT 1 FROM rating_events WHERE game_id = ?", (game_id,)) is not None

    async def unrated_games(self, since: float = 0.0) -> list[int]:
        """Finished games of a server, ended after ``since``, that have no rating yet (a crash between
        the finish and its rating), oldest first; imported games are not rated."""
        rows = await self._fetchall(
            "SELECT id FROM games g WHERE status = 'finished' AND guild_id IS NOT NULL "
            "AND coalesce(finished_at, updated_at) >= ? "
            # an imported game (bot/imports.py: its canonical result holds the mark) is never rated
            """AND (result IS NULL OR result NOT LIKE '%"imported":{%') """
            "AND NOT EXISTS (SELECT 1 FROM rating_events e WHERE e.game_id = g.id) ORDER BY id",
            (since,),
        )
        return [r[0] for r in rows]

    async def player_stats(self, guild_id: int, player: str, game_key: str | None = None) -> list[RatingRow]:
        """A player's rating rows in a server (every game they played, or one), by game key."""
        rows = await self._fetchall(
            "SELECT * FROM ratings WHERE guild_id = ? AND player = ? AND game_key = coalesce(?, game_key) "
            "ORDER BY game_key",
            (guild_id, player, game_key),
        )
        return [RatingRow._from(r) for r in rows]

    _BOARD_ORDER = "ORDER BY mu - 3 * sigma DESC, wins DESC, games DESC, player"

    async def leaderboard(
        self, guild_id: int, game_key: str, offset: int = 0, limit: int = 10
    ) -> tuple[list[RatingRow], int]:
        """One page of a server's ranking for a game (best ordinal first; then wins) and how many
        players it holds in all."""
        rows = await self._fetchall(
            f"SELECT * FROM ratings WHERE guild_id = ? AND game_key = ? {self._BOARD_ORDER} LIMIT ? OFFSET ?",
            (guild_id, game_key, max(0, int(limit)), max(0, int(offset))),
        )
        total = await self._fetchone(
            "SELECT count(*) FROM ratings WHERE guild_id = ? AND game_key = ?", (guild_id, game_key)
        )
        assert total is not None  # an aggregate without GROUP BY returns one row
        return [RatingRow._from(r) for r in rows], total[0]

    async def last_games(
        self,
        guild_id: int,
        player: str,
        limit: int = 5,
        game_key: str | None = None,
        channels: Iterable[int] | None = None,
    ) -> list[PastGame]:
        """A player's last rated games in a server, newest first, with their opponents' names.
        ``channels``, when given: only games opened in those channels (the ones the person asking can
        see), as :meth:`history` filters them."""
        seen = sorted({int(c) for c in channels}) if channels is not None else []
        if channels is not None and not seen:
            return []
        where = (
            f"AND game_id IN (SELECT id FROM games WHERE channel_id IN ({', '.join('?' * len(seen))})) "
            if seen
            else ""
        )
        mine = await self._fetchall(
            "SELECT game_id, game_key, created_at, outcome, rank FROM rating_events WHERE guild_id = ? "
            f"AND player = ? AND game_key = coalesce(?, game_key) {where}"
            "ORDER BY created_at DESC, game_id DESC LIMIT ?",
            (guild_id, player, game_key, *seen, max(0, int(limit))),
        )
        if not mine:
            return []
        ids = [r["game_id"] for r in mine]
        others = await self._fetchall(
            f"SELECT game_id, name FROM rating_events WHERE game_id IN ({', '.join('?' * len(ids))}) "
            "AND player <> ? ORDER BY game_id, seat",
            (*ids, player),
        )
        names: dict[int, list[str]] = {}
        for r in others:
            names.setdefault(r["game_id"], []).append(r["name"])
        return [
            PastGame(
                r["game_id"],
                r["game_key"],
                r["created_at"],
                r["outcome"],
                r["rank"],
                tuple(names.get(r["game_id"], ())),
            )
            for r in mine
        ]
