"""Games opened on a :class:`bot.host.Host` the way the tests of the host need them, in one call.

The host's tests seat the same people in the same place again and again: Alice opens a lobby in
``CHANNEL`` of ``GUILD``, Bob joins (or an AI seat is added), Alice starts it. :func:`start_game` does
that; a test that checks the lobby itself (refusals, races) still calls the host step by step.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.host import Host
from bot.storage import GameRow
from bot.tables import Table

GUILD, CHANNEL = 1, 10
ALICE, BOB, CAROL, DAVE = 100, 200, 300, 400
AI = None  # in ``others``: an AI seat instead of a member


async def open_lobby(
    host: Host,
    game_key: str = "enemy-lines",
    *,
    others: Sequence[tuple[int, str] | None] = ((BOB, "Bob"),),
    channel: int = CHANNEL,
    seed: int | None = 1,
    **new_game: Any,
) -> Table:
    """Alice's lobby of ``game_key`` in ``channel`` with ``others`` seated in order (``AI``: an AI seat);
    ``new_game``: the rest of :meth:`Host.new_game`'s keywords (options, turn_timeout, bank)."""
    table = await host.new_game(
        guild_id=GUILD,
        channel_id=channel,
        user_id=ALICE,
        user_name="Alice",
        game_key=game_key,
        seed=seed,
        **new_game,
    )
    for seat in others:
        table = await (host.add_ai(channel, ALICE) if seat is AI else host.join(channel, *seat))
    return table


async def start_game(host: Host, game_key: str = "enemy-lines", **lobby) -> Table:
    """:func:`open_lobby`, then started by Alice: the running game's table."""
    await open_lobby(host, game_key, **lobby)
    return await host.start(lobby.get("channel", CHANNEL), ALICE)


def game_row(**fields: Any) -> GameRow:
    """A game's row as storage loads it (a running Enemy Lines game of Alice's in ``CHANNEL``, unless
    ``fields`` say otherwise), for a test that builds a :class:`Table` without a database."""
    row: dict[str, Any] = {
        "id": 1,
        "guild_id": GUILD,
        "channel_id": CHANNEL,
        "thread_id": None,
        "game_key": "enemy-lines",
        "options": {},
        "seed": 1,
        "host_id": ALICE,
        "status": "running",
        "version": 0,
        "state_json": None,
        "deadline": None,
        "reminded": False,
        "turn_timeout": None,
        "created_at": 0.0,
        "updated_at": 0.0,
        "result": None,
    }
    return GameRow(**(row | fields))
