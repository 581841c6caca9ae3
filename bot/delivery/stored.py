"""The messages the delivery keeps for a game, as stored (kind → (channel id, message id)): the table,
each seat's DM and what it shows (its ``dmview`` digest), each ping. Every process reads them from the
database: whichever drew a message last recorded it there."""

from __future__ import annotations

import hashlib

from bot.storage import Storage


def dm_digest(asked: bool, tree: str) -> tuple[int, int]:
    """What a seat's DM shows, stored beside its message (kind ``dmview:<seat>``): whether it carries
    controls, and a 60-bit digest of its menu tree."""
    return int(asked), int(hashlib.sha256(tree.encode()).hexdigest()[:15], 16)


# What the DM of a seat whose owner plays from the table shows (its "My view" button, no menu): stored
# as its ``dmview`` digest, so every process knows the DM waits for its button.
AWAY_TREE = "away: plays from the table"
AWAY = dm_digest(False, AWAY_TREE)


class Stored:
    """The stored messages of one game (kind → (channel id, message id)), as one delivery step uses
    them. Without ``known`` each kind is read from the database when asked; a publish reads them all
    at once (:meth:`DiscordDelivery.publish`: ONE query, not one per kind and seat) and keeps that
    copy current with its own writes. The copy lives only for that publish: the database decides.

    Within a publish, a write whose loss is harmless (``lazy``: a DM's digest; lost, the DM is merely
    drawn again) waits for the publish's next write, or its end (:meth:`flush`), and goes with it."""

    def __init__(
        self, storage: Storage, game_id: int, known: dict[str, tuple[int, int]] | None = None
    ) -> None:
        self.storage = storage
        self.game_id = game_id
        self.known = known
        self.pending: dict[str, tuple[int, int] | None] = {}

    @classmethod
    async def read(cls, storage: Storage, game_id: int) -> Stored:
        """Every stored message of the game, read now in one query."""
        return cls(storage, game_id, await storage.messages(game_id))

    async def get(self, kind: str) -> tuple[int, int] | None:
        if self.known is not None:
            return self.known.get(kind)
        return await self.storage.get_message(self.game_id, kind)

    async def set(self, kind: str, channel_id: int, message_id: int, *, lazy: bool = False) -> None:
        if self.known is not None:
            self.known[kind] = (channel_id, message_id)
        await self._save(kind, (channel_id, message_id), lazy)

    async def delete(self, kind: str) -> None:
        if self.known is not None:
            self.known.pop(kind, None)
        await self._save(kind, None, False)

    async def _save(self, kind: str, pair: tuple[int, int] | None, lazy: bool) -> None:
        self.pending.pop(kind, None)
        changes, self.pending = {**self.pending, kind: pair}, {}
        if lazy and self.known is not None:
            self.pending = changes
            return
        await self.storage.save_messages(self.game_id, changes)  # one transaction, one round trip

    async def claim(self, kind: str, message_id: int) -> bool:
        """Forget the stored message ``kind`` if it still is ``message_id``, with the writes waiting, in
        one transaction: True when this call forgot it (its caller then deletes the message on
        Discord), False when another process did already (and deletes it): each message is deleted
        once."""
        if self.known is not None:
            self.known.pop(kind, None)
        changes, self.pending = self.pending, {}
        return await self.storage.claim_message(self.game_id, kind, message_id, changes)

    async def swap(self, kind: str, expected: tuple[int, int] | None, new: tuple[int, int]) -> bool:
        """Store ``new`` as ``kind`` if the database still holds ``expected`` there (with the writes
        waiting, in one transaction). False when another process wrote it since: the copy then holds
        what the database does now."""
        changes, self.pending = self.pending, {}
        if await self.storage.swap_message(self.game_id, kind, expected, new, changes):
            if self.known is not None:
                self.known[kind] = new
            return True
        await self._reread(kind)
        return False

    async def _reread(self, kind: str) -> tuple[int, int] | None:
        """What the database holds as ``kind`` now; the copy then holds it too."""
        current = await self.storage.get_message(self.game_id, kind)
        if self.known is not None:
            if current is None:
                self.known.pop(kind, None)
            else:
                self.known[kind] = current
        return current

    async def flush(self) -> None:
        """Write what waits (the lazy writes)."""
        changes, self.pending = self.pending, {}
        if changes:
            await self.storage.save_messages(self.game_id, changes)

    # What a seat's DM shows: (1 if it carries controls else 0, digest of its menu tree), as recorded by
    # whichever process wrote it last (a DM click of a game of any shard is answered by shard 0's
    # process; the others publish it too).
    async def dm_shown(self, seat: int) -> tuple[int, int] | None:
        return await self.get(f"dmview:{seat}")

    async def dm_draws(self, seat: int, shown: tuple[int, int] | None, asked: bool, tree: str) -> bool:
        """Record, before it is drawn, that the seat's DM shows ``(asked, tree)``, if it still shows what
        this publish read (``shown``). False when another process drew it since: the caller decides
        again from what that one recorded (one publish drawing a stale decision over another's newer
        one, and recording it in the wrong order, left a DM with neither controls nor button)."""
        expected = None if shown is None else (shown[0], shown[1])
        return await self.swap(f"dmview:{seat}", expected, dm_digest(asked, tree))

    async def dm_still_shown(self, seat: int, drawn: tuple[int, int]) -> bool:
        """Whether the database still records ``drawn`` as what the seat's DM shows (read there, not in
        this copy, which then holds what the database does). False when another process recorded a
        drawing of its own since: its edit and this one's were in flight together, and either may have
        landed last."""
        current = await self._reread(f"dmview:{seat}")
        return current is not None and tuple(current) == tuple(drawn)

    async def dm_away(self, seat: int) -> bool:
        """Whether the seat's owner plays outside their DM: their DM shows only its button, as stored
        (by whichever process drew it last: not this process's memory)."""
        shown = await self.dm_shown(seat)
        return shown is not None and tuple(shown) == AWAY
