"""Ratings (migration 0005): each player's standing per game and server, and the rated games."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Iterable, Sequence
from typing import Any

from bot.rating_scale import Standing
from bot.storage.core import _EXEC, _ONE, Steps, StorageCore
from bot.storage.errors import NoSuchGame
from bot.storage.rows import Leaderboard, PastGame, RatingChange, RatingRow


class RatingsStore(StorageCore):
    """Ratings per server and game, and the rating events of each rated game."""

    async def record_rating(self, game_id: int, places: Sequence[Any], *, cooperative: bool = False) -> bool:
        """Rate finished game ``game_id`` in ONE transaction: each player's rating row is read (or
        starts at openskill's default; a person's sigma grown by the time since their last rated game,
        :func:`bot.rating_scale.rested`), updated from ``places`` (:class:`bot.ratings.Place`, one per
        seat) and written with its games/wins/losses/draws, and a ``rating_events`` row per player
        records the change. ``cooperative``: counts only, mu and sigma stay as they are.

        A game is rated at most once (the events' primary key; a second call finds them and returns
        False); a game that is not finished (abandoned, running…) or outside a server is not rated
        (False). True when this call rated it."""
        from bot import rating_scale, ratings

        first: dict[str, Any] = {}  # each player's first place, in order
        for p in places:
            first.setdefault(p.player, p)
        places = list(first.values())

        def steps() -> Steps[bool]:
            game = yield (
                _ONE,
                "SELECT guild_id, game_key, status, finished_at, updated_at FROM games WHERE id = ?",
                (game_id,),
            )
            if game is None:
                raise NoSuchGame(game_id)
            if game["status"] != "finished" or game["guild_id"] is None or len(places) < 1:
                return False
            if (yield (_ONE, "SELECT 1 FROM rating_events WHERE game_id = ?", (game_id,))):
                return False
            guild, key = game["guild_id"], game["game_key"]
            when = game["finished_at"] if game["finished_at"] is not None else game["updated_at"]
            now = time.time()
            current = []
            for p in places:
                row = yield (
                    _ONE,
                    "SELECT mu, sigma, updated_at FROM ratings WHERE guild_id = ? AND game_key = ? AND player = ?",
                    (guild, key, p.player),
                )
                if row is None:
                    current.append((ratings.MU, ratings.SIGMA))
                else:
                    rested = rating_scale.Standing.of(
                        p.player, row["mu"], row["sigma"], row["updated_at"], when
                    )
                    current.append((rested.mu, rested.sigma))
            new = (
                current
                if cooperative or len(places) < 2
                else ratings.update(current, [p.rank for p in places])
            )
            for p, (mu0, s0), (mu1, s1) in zip(places, current, new, strict=True):
                counts = (int(p.outcome == "win"), int(p.outcome == "loss"), int(p.outcome == "draw"))
                yield (
                    _EXEC,
                    "INSERT INTO ratings (guild_id, game_key, player, name, mu, sigma, games, wins, losses, draws, "
                    "updated_at) VALUES (?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?) "
                    "ON CONFLICT (guild_id, game_key, player) DO UPDATE SET name = excluded.name, "
                    "mu = excluded.mu, sigma = excluded.sigma, games = ratings.games + 1, "
                    "wins = ratings.wins + excluded.wins, losses = ratings.losses + excluded.losses, "
                    "draws = ratings.draws + excluded.draws, updated_at = excluded.updated_at",
                    (guild, key, p.player, p.name, mu1, s1, *counts, now),
                )
                yield (
                    _EXEC,
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

        # one call on SQLite's thread (a group commit), not a round trip a statement: under load each
        # is a turn of the event loop, and the game's last move waits for its rating
        return await self._grouped(game_id, steps)

    async def rating_changes(self, game_id: int) -> tuple[RatingChange, ...]:
        """What game ``game_id`` did to each player's rating, in seat order (``GameRow.rated``, which
        the publish's load reads with the game); () when it was not rated."""
        rows = await self._fetchall(
            "SELECT seat, player, mu_before, sigma_before, mu_after, sigma_after FROM rating_events "
            "WHERE game_id = ? ORDER BY seat",
            (game_id,),
        )
        return tuple(
            RatingChange(
                r["seat"],
                r["player"],
                Standing(r["mu_before"], r["sigma_before"]),
                Standing(r["mu_after"], r["sigma_after"]),
            )
            for r in rows
        )

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

    async def leaderboard(
        self,
        guild_id: int,
        game_key: str,
        offset: int = 0,
        limit: int = 10,
        *,
        rated: bool = True,
        now: float | None = None,
    ) -> Leaderboard:
        """One page of a server's ranking for a game, in ONE query: its settled players (their rating
        read at ``now``, bot/rating_scale.py) best first, then by wins and games; how many there are, and
        how many provisional players it leaves out. ``rated`` False (a cooperative game: counts only):
        everyone, by wins. Ranked here rather than in SQL as a rating is read with the time since each
        player's last game; a server's players of one game are few enough."""
        now = time.time() if now is None else now
        # the server's chosen language comes with it (the page is posted in its language): one row at least
        rows = await self._fetchall(
            "SELECT r.*, (SELECT locale FROM guild_locales WHERE guild_id = ?) AS chosen_locale "
            "FROM (SELECT 1 AS one) o LEFT JOIN ratings r ON r.guild_id = ? AND r.game_key = ?",
            (guild_id, guild_id, game_key),
        )
        chosen = rows[0]["chosen_locale"] if rows else None
        everyone = [(r, r.standing(now)) for r in map(RatingRow._from, rows) if r.game_key is not None]
        if rated:
            ranked = [(r, s) for r, s in everyone if not s.provisional]
            ranked.sort(key=lambda rs: (-rs[1].ordinal, -rs[0].wins, -rs[0].games, rs[0].player))
        else:
            ranked = sorted(everyone, key=lambda rs: (-rs[0].wins, -rs[0].games, rs[0].player))
        start = max(0, int(offset))
        page = ranked[start : start + max(0, int(limit))]
        return Leaderboard(page, len(ranked), len(everyone) - len(ranked), chosen)

    async def standings(self, guild_id: int, game_key: str, players: Iterable[str]) -> dict[str, RatingRow]:
        """The rating rows of ``players`` (rating keys) in a server's game, by key (a new player has
        none), in one query: the lobby's odds."""
        keys = sorted(set(players))
        if not keys:
            return {}
        rows = await self._fetchall(
            f"SELECT * FROM ratings WHERE guild_id = ? AND game_key = ? AND player IN ({', '.join('?' * len(keys))})",
            (guild_id, game_key, *keys),
        )
        return {r.player: r for r in map(RatingRow._from, rows)}

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
        # their games and each one's opponents in ONE query: a row per (game, opponent); a game without
        # one (a lone player's) has a row with no name
        rows = await self._fetchall(
            "SELECT m.game_id, m.game_key, m.created_at, m.outcome, m.rank, o.name FROM (SELECT game_id, "
            "player, game_key, created_at, outcome, rank FROM rating_events WHERE guild_id = ? AND player = ? "
            f"AND game_key = coalesce(?, game_key) {where}ORDER BY created_at DESC, game_id DESC LIMIT ?) m "
            "LEFT JOIN rating_events o ON o.game_id = m.game_id AND o.player <> m.player "
            "ORDER BY m.created_at DESC, m.game_id DESC, o.seat",
            (guild_id, player, game_key, *seen, max(0, int(limit))),
        )
        games: dict[int, PastGame] = {}
        for r in rows:
            past = games.setdefault(
                r["game_id"],
                PastGame(r["game_id"], r["game_key"], r["created_at"], r["outcome"], r["rank"], ()),
            )
            if r["name"] is not None:
                games[r["game_id"]] = dataclasses.replace(past, opponents=(*past.opponents, r["name"]))
        return list(games.values())
