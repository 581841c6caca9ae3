"""Replay: a game rebuilt from its seed and action log; host action rows (resign, undo) and what they mean."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from bot.games.base import Game, GameSpec
from bot.storage.rows import ActionRow, GameRow, SeatRow

HOST_ACTIONS = ("resign", "undo")


def is_host_action(action: dict) -> bool:
    """An action row the host logged that is no move of the engine: ``{"host": "resign", ...}``, or
    ``{"host": "undo", "undoes": seq}`` (the move ``seq`` was taken back by agreement; no game's
    actions have a "host" key). The engine does not apply it."""
    return action.get("host") in HOST_ACTIONS


def undone_seqs(actions: Sequence[ActionRow]) -> set[int]:
    """The seqs of the moves taken back by an undo row of ``actions`` (each undo names an earlier seq)."""
    return {
        a.action["undoes"]
        for a in actions
        if a.action.get("host") == "undo"
        and isinstance(a.action.get("undoes"), int)
        and 0 < a.action["undoes"] < a.seq
    }


def move_step(action: dict) -> int:
    """How an action row changes the game's move number: an engine move +1, an undo -1 (it takes back
    one move that stood), another host row (a resignation) 0."""
    if action.get("host") == "undo":
        return -1
    return 0 if is_host_action(action) else 1


def move_number(actions: Iterable[dict]) -> int:
    """THE move number of a game whose action log is ``actions`` (the action dicts, in order): the
    engine moves that stand, i.e. every move made less the moves undone (host rows do not count).
    "Move n" is the n-th such move; the table, `/game status`, the summary, the replay and its log
    all show this number (docs/architecture.md, "The move number"). Storage counts the same in SQL
    (``count_moves``, and ``GameRow.moves`` of the loads that read it)."""
    return sum(move_step(a) for a in actions)


def live_moves(actions: Sequence[ActionRow]) -> list[ActionRow]:
    """The engine moves of a log that stand: host rows left out, and the moves an undo took back."""
    undone = undone_seqs(actions)
    return [a for a in actions if not is_host_action(a.action) and a.seq not in undone]


def rebuild(
    row: GameRow,
    actions: Sequence[ActionRow],
    seats: int | Sequence[SeatRow] | None = None,
    *,
    spec: GameSpec | None = None,
) -> Game:
    """The game rebuilt from its seed and its action log.

    ``spec.new(players, row.options, row.seed)``, then every logged action applied in order
    (seq must run 1, 2, …). ``seats`` is the number of players (or the seat rows); without it
    the number is read from the snapshot. ``spec`` defaults to ``registry.get(row.game_key)``.
    Raises IllegalAction if the log does not replay (the rules changed, or the log is wrong).
    """
    if spec is None:
        from bot.games import registry

        spec = registry.get(row.game_key)
    if spec.key != row.game_key:
        raise ValueError(f"spec {spec.key!r} cannot rebuild a {row.game_key!r} game")
    if seats is None:
        if row.state_json is None:
            raise ValueError(f"game {row.id} has no snapshot: pass the number of seats")
        players = json.loads(row.state_json)["players"]
    elif isinstance(seats, int):
        players = seats
    else:
        players = len(seats)
    game = spec.new(players, row.options, row.seed)
    undone = undone_seqs(actions)
    for expected, act in enumerate(actions, start=1):
        if act.seq != expected:
            raise ValueError(f"game {row.id}: action log has seq {act.seq} where {expected} was expected")
        if is_host_action(act.action) or act.seq in undone:
            continue  # a resignation or an undo: the host's record; a move taken back by an undo
        game.apply(act.seat, act.action)
    return game


def replay_matches(row: GameRow, actions: Sequence[ActionRow], **kwargs: Any) -> bool:
    """True when the log rebuilds exactly the stored snapshot (and covers all of it)."""
    if row.state_json is None or len(actions) != row.version:
        return False
    return rebuild(row, actions, **kwargs).to_json() == row.state_json
