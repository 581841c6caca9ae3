"""The errors Storage raises for domain reasons."""

from __future__ import annotations


class StorageError(Exception):
    """Base of the errors raised by Storage for domain reasons."""


class StaleVersion(StorageError):
    """record_action with an expected version that is no longer the game's version."""

    def __init__(self, game_id: int, expected: int, current: int):
        super().__init__(f"game {game_id}: expected version {expected}, it is at {current}")
        self.game_id, self.expected, self.current = game_id, expected, current


class ChannelBusy(StorageError):
    """A game is already in the lobby or running in that channel or thread."""

    def __init__(self, place: int, game_id: int):
        super().__init__(f"channel {place} already has an active game ({game_id})")
        self.place, self.game_id = place, game_id


class WrongStatus(StorageError):
    """The game's status does not allow this change (e.g. removing a seat of a running game)."""

    def __init__(self, game_id: int, status: str, wanted: str):
        super().__init__(f"game {game_id} is {status}: cannot {wanted}")
        self.game_id, self.status, self.wanted = game_id, status, wanted


class DatabaseUnusable(StorageError):
    """The database file cannot be used as it is: not a database, damaged, written by a newer Admiralty,
    or not openable. The message is one sentence saying what is wrong and what to do; the file was
    left exactly as it was."""


class NoSuchGame(StorageError, LookupError):
    def __init__(self, game_id: int):
        super().__init__(f"no game {game_id}")
        self.game_id = game_id


class NoSuchSeat(StorageError, LookupError):
    def __init__(self, game_id: int, seat: int):
        super().__init__(f"game {game_id} has no seat {seat}")
        self.game_id, self.seat = game_id, seat
