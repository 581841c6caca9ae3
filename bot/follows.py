"""Following a game (issue 20): a member who can see a running game follows it and is told by DM when it
ends, and, if they choose, every turn. Here: the checks and the words; who follows is stored
(bot/storage/follows.py) and the DMs are the delivery's (bot/delivery/follows.py).

Following needs DMs: the Follow click sends the first DM at once, so a member whose DMs are closed is
told so then (and one whose seat in the game already met closed DMs is told without a try). The
table's count ("👁 3 following") is redrawn after a follow or unfollow by the game's publisher, the
one path that draws the table (it joins any move's publish)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bot.i18n import N_, Phrase
from bot.publisher import Publisher
from bot.storage import SUSPENDED, TERMINAL, Storage, WrongStatus
from bot.storage.follows import turn_key
from bot.tables import Table, UserError

DMS_NEEDED = Phrase(
    N_(
        "Following a game needs direct messages from me, and Discord does not let me send you any. Allow "
        "direct messages from this server's members (the server's Privacy Settings), then press **Follow** "
        "again."
    )
)

# (table, user id, every move) → the id of their DM channel, or None when Discord refuses DMs to them
Welcome = Callable[[Table, int, bool], Awaitable[int | None]]


def following_text(table_id: int, every_move: bool) -> Phrase:
    if every_move:
        return Phrase(N_("👁 You follow game #{id}: I will DM you every move, and when it ends."), id=table_id)
    return Phrase(N_("👁 You follow game #{id}: I will DM you when it ends."), id=table_id)


def _over(table_id: int) -> Phrase:
    return Phrase(N_("Game #{id} is over: there is nothing more to follow."), id=table_id)


class Follows:
    def __init__(self, storage: Storage, publisher: Publisher, welcome: Welcome) -> None:
        self.storage = storage
        self.publisher = publisher
        self.welcome = welcome

    async def follow(self, table: Table, user_id: int) -> tuple[Phrase, bool]:
        """``user_id`` follows ``table``'s game (seen where they asked: its channel). The private answer
        and whether they follow every move. A UserError when the game is not running, or their DMs are
        closed."""
        if table.row.status == "lobby":
            raise UserError(
                Phrase(N_("The game has not started yet: follow it once it has (its table has **Follow**)."))
            )
        if table.row.status == SUSPENDED:
            raise UserError(
                Phrase(
                    N_("Game #{id} is suspended (its channel was deleted): there is nothing to follow."),
                    id=table.id,
                )
            )
        if table.row.status != "running" or table.over:
            raise UserError(_over(table.id))
        seat = table.seat_of(user_id)
        if seat is not None and table.seat_row(seat).dm_ok is False:
            raise UserError(DMS_NEEDED)  # remembered: their seat's DMs were refused
        current = await self.storage.follow_of(table.id, user_id)
        if current is not None and current.dm_ok:
            return following_text(table.id, current.every_move), current.every_move
        every_move = current is not None and current.every_move
        dm_channel = await self.welcome(table, user_id, every_move)
        if dm_channel is None:
            if current is not None:
                await self.storage.follow_refused(table.id, user_id)
            raise UserError(DMS_NEEDED)
        try:
            row = await self.storage.follow(
                table.id, user_id, dm_channel_id=dm_channel, turn=turn_key(table.engine.to_act())
            )
        except WrongStatus:
            raise UserError(_over(table.id)) from None
        self.publisher.request(table.id, [])  # the table's count
        return following_text(table.id, row.every_move), row.every_move

    async def choose(self, game_id: int, user_id: int, every_move: bool) -> Phrase:
        """A follower's choice: a DM every move too, or only when the game ends."""
        turn = ","
        if every_move:  # their turn DMs start with the next turn
            table = await self.publisher.tables.load(game_id)
            if table.game is not None and not table.over:
                turn = turn_key(table.game.to_act())
        row = await self.storage.set_every_move(game_id, user_id, every_move, turn)
        if row is None:
            raise UserError(await self._not_following(game_id))
        return following_text(game_id, row.every_move)

    async def unfollow(self, game_id: int, user_id: int) -> Phrase:
        if not await self.storage.unfollow(game_id, user_id):
            raise UserError(await self._not_following(game_id))
        self.publisher.request(game_id, [])  # the table's count
        return Phrase(N_("You no longer follow game #{id}."), id=game_id)

    async def _not_following(self, game_id: int) -> Phrase:
        row = await self.storage.get_game(game_id)
        if row is not None and row.status in TERMINAL:
            return Phrase(
                N_("Game #{id} is over, and its follows ended with it: nothing more will come."), id=game_id
            )
        return Phrase(N_("You do not follow game #{id}."), id=game_id)
