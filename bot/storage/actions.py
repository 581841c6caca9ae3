"""The action log: each accepted move (and host action: a resignation, an undo) with its snapshot."""

from __future__ import annotations

import time
from collections.abc import Sequence

from bot.games.base import canonical
from bot.storage.core import _EXEC, _MANY, _ONE, Conn, Steps
from bot.storage.errors import NoSuchGame, NoSuchSeat, StaleVersion, WrongStatus
from bot.storage.jobs import JobsStore
from bot.storage.replay import is_host_action
from bot.storage.rows import TERMINAL, ActionRow


class ActionLogStore(JobsStore):
    """The action log: moves and host rows, each committed with the snapshot it leads to."""

    async def record_action(
        self,
        game_id: int,
        *,
        expected_version: int,
        seat: int,
        action: dict,
        state_json: str,
        status: str = "running",
        deadline: float | None = None,
        result: dict | None = None,
        log: Sequence[tuple[int | None, str]] = (),
        ai_due: float | None = None,
        clock: str | None = None,
    ) -> int:
        """Append one accepted action and its new snapshot in ONE committed transaction.

        The game's jobs are re-armed in it (migration 0006): a reminder and a timeout for the new
        deadline, and with ``ai_due`` an AI seat's move at that time; every older job is dropped.

        ``log`` holds the action's events in words, ``(seat or None for public, text)``, written
        to the table's log in the same transaction.

        Raises StaleVersion (and writes nothing) unless the game is at ``expected_version``;
        WrongStatus unless it is running. ``status`` is the status after the action
        ("finished" when it ended the game; the deadline is then cleared). The reminder
        flag is reset for a new deadline (kept with the same one: the same turn goes on). Returns the new version (= the action's seq).
        ``clock``: the game's clock after the action (bot/clocks.py JSON), when it has one.
        """
        if status not in ("running", *TERMINAL):
            raise ValueError(f"bad status after an action: {status!r}")
        action_text = canonical(action)
        result_text = None if result is None else canonical(result)
        if status != "running":
            deadline = None

        lines = [(game_id, expected_version + 1, line_seat, text) for line_seat, text in log]

        def steps() -> Steps[int]:
            row = yield (_ONE, self._STATUS_SQL, (game_id,))
            if row is None:
                raise NoSuchGame(game_id)
            if row["version"] != expected_version:
                raise StaleVersion(game_id, expected_version, row["version"])
            if row["status"] != "running":
                raise WrongStatus(game_id, row["status"], "record an action")
            new = expected_version + 1
            now = time.time()
            yield (
                _EXEC,
                "INSERT INTO actions (game_id, seq, seat, action, created_at) VALUES (?, ?, ?, ?, ?)",
                (game_id, new, seat, action_text, now),
            )
            count = yield (
                _EXEC,
                # the reminder flag stays when the deadline does (the same turn goes on: its reminder
                # was for this deadline); a new deadline gets its own reminder
                "UPDATE games SET version = ?, state = ?, status = ?, deadline = ?, "
                "reminded = CASE WHEN deadline = ? THEN reminded ELSE 0 END, "
                # (a game with a clock has the column: migration 0010)
                f"result = ?, updated_at = ?{', clock = ?' if clock is not None else ''} "
                "WHERE id = ? AND version = ?",
                (
                    new,
                    state_json,
                    status,
                    deadline,
                    deadline,
                    result_text,
                    now,
                    *([clock] if clock is not None else []),
                    game_id,
                    expected_version,
                ),
            )
            if count != 1:  # cannot happen: the row is locked (or writers serial); never commit a half
                raise StaleVersion(game_id, expected_version, -1)
            if lines:
                yield (_MANY, "INSERT INTO log (game_id, version, seat, text) VALUES (?, ?, ?, ?)", lines)
            if status != "running":
                yield from self._stamp_steps(game_id, "finished_at", now)
            yield from self._arm_steps(game_id, ai_due=ai_due)
            return new

        new = await self._grouped(game_id, steps)
        self._jobs_changed()
        return new

    async def record_resign(
        self,
        game_id: int,
        *,
        expected_version: int,
        seat: int,
        action: dict,
        result: dict | None = None,
        ai_name: str | None = None,
        deadline: float | None = None,
        ai_due: float | None = None,
    ) -> int:
        """Log that the player of ``seat`` resigned, in ONE committed transaction: a host action row
        (``action`` must be one :func:`is_host_action` knows; the engine and its snapshot are unchanged,
        and :func:`rebuild` skips the row), then either ``result``: the game is finished with it, or
        ``ai_name``: an AI takes the seat under that name and the game goes on with ``deadline``.
        Raises StaleVersion / WrongStatus like :meth:`record_action`. Returns the new version."""
        if not is_host_action(action):
            raise ValueError(f"not a host action: {action!r}")
        if (result is None) == (ai_name is None):
            raise ValueError("record_resign needs exactly one of result and ai_name")
        action_text = canonical(action)
        result_text = None if result is None else canonical(result)

        async def body(db: Conn) -> int:
            row = await self._status(db, game_id)
            if row["version"] != expected_version:
                raise StaleVersion(game_id, expected_version, row["version"])
            if row["status"] != "running":
                raise WrongStatus(game_id, row["status"], "record a resignation")
            new = expected_version + 1
            now = time.time()
            await db.execute(
                "INSERT INTO actions (game_id, seq, seat, action, created_at) VALUES (?, ?, ?, ?, ?)",
                (game_id, new, seat, action_text, now),
            )
            if result is not None:
                await db.execute(
                    "UPDATE games SET version = ?, status = 'finished', deadline = NULL, reminded = 0, result = ?, "
                    "updated_at = ? WHERE id = ?",
                    (new, result_text, now, game_id),
                )
                await self._stamp(db, game_id, "finished_at", now)
            else:
                cur = await db.execute(
                    "UPDATE seats SET is_ai = 1, name = ?, missed = 0 WHERE game_id = ? AND seat = ?",
                    (ai_name, game_id, seat),
                )
                if cur.rowcount == 0:
                    raise NoSuchSeat(game_id, seat)
                await db.execute(
                    "UPDATE games SET version = ?, deadline = ?, reminded = 0, updated_at = ? WHERE id = ?",
                    (new, deadline, now, game_id),
                )
            await self._drive(db, self._arm_steps(game_id, ai_due=ai_due))
            return new

        new = await self._write(body, games=(game_id,))
        self._jobs_changed()
        return new

    async def resigned(self, game_id: int) -> list[ActionRow]:
        """The resignations logged for a game (host action rows), in order."""
        rows = await self._fetchall(
            f"SELECT * FROM actions WHERE game_id = ? AND {self._JSON_HOST} = 'resign' ORDER BY seq",
            (game_id,),
        )
        return [ActionRow._from(r) for r in rows]

    async def count_moves(self, game_id: int) -> int:
        """The game's move number (``move_number``): its engine moves that stand, host rows (a
        resignation, an undo) and the moves undone not counted."""
        row = await self._fetchone(f"SELECT {self._moves_sql('?')}", (game_id,))
        assert row is not None  # an aggregate without GROUP BY returns one row
        return int(row[0])

    async def actions(self, game_id: int, since: int = 0) -> list[ActionRow]:
        """The logged actions with seq > ``since``, in order."""
        rows = await self._fetchall(
            "SELECT * FROM actions WHERE game_id = ? AND seq > ? ORDER BY seq", (game_id, since)
        )
        return [ActionRow._from(r) for r in rows]
