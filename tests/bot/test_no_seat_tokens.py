"""No seat token (``who(seat)``, "⟨0⟩") reaches a player or a file: every game is played to its end
through the host (the table's texts, the summary, the status line, the log as shown), the replay (its
log and captions), the demo (log.txt, result.json and what it prints), and every text is checked.

The seeds are ones whose game ends with a result naming a seat by token (Enemy Lines' "⟨1⟩ has three
ships in enemy lines", Warships' "⟨0⟩ lost every Missile ship …"): the test asserts that they still do,
so that it keeps checking the path that leaked."""

from __future__ import annotations

import json
import random

import pytest

from bot import demo, replay
from bot.delivery import DiscordDelivery, result_text, said
from bot.host import Host, NullDelivery
from bot.summary import game_summary, status_line
from tests.hosting import AI, ALICE, GUILD, start_game

TOKEN = "⟨"

# game -> (players, seed of a host game, seed of a demo game); the seeds end with a token in the result
# where the game writes one there
GAMES = {
    "enemy-lines": (2, 2, 4),
    "warships": (2, 1, 2),
    "enemy-in-sight": (2, 1, 1),
    "everrain": (2, 1, 1),
}
NAMES_RESULT = {"enemy-lines", "warships"}  # games whose seeded ending names a seat in the result


def strings(obj) -> list[str]:
    """Every string inside a JSON-like value."""
    if isinstance(obj, str):
        return [obj]
    if isinstance(obj, dict):
        return [s for k, v in obj.items() for s in strings(k) + strings(v)]
    if isinstance(obj, (list, tuple)):
        return [s for v in obj for s in strings(v)]
    return []


def assert_no_token(where: str, texts) -> None:
    leaked = [t for t in strings(list(texts)) if TOKEN in t]
    assert not leaked, f"{where}: a seat token reaches a player: {leaked[:3]}"


async def play_to_the_end(storage, key: str, players: int, seed: int) -> tuple[Host, int]:
    """A game of ``key``: Alice and AI seats, Alice's moves chosen as an AI would (seeded), to its end."""
    host = Host(storage, NullDelivery(), ai_delay=0.0)
    table = await start_game(host, key, others=[AI] * (players - 1), seed=seed)
    for _ in range(5000):
        await host.idle()
        table = await host.table(table.id)
        if table.over:
            break
        if table.seat_of(ALICE) in table.game.to_act():
            seat = table.seat_of(ALICE)
            action = table.game.ai_action(seat, random.Random(f"{seed}:{table.version}:{seat}"))
            await host.act(table.id, ALICE, action)
    assert table.over, f"{key} did not end"
    return host, table.id


@pytest.mark.parametrize("key", sorted(GAMES))
async def test_no_seat_token_reaches_a_player_through_the_host_and_the_replay(storage, key):
    players, seed, _ = GAMES[key]
    host, game_id = await play_to_the_end(storage, key, players, seed)
    table = await host.table(game_id, log_lines=50)
    if key in NAMES_RESULT:
        assert TOKEN in str(table.result.get("reason")), "the seed must end with a result naming a seat"
    delivery = DiscordDelivery(None, storage)
    shown = [
        await game_summary(storage, table),
        result_text(table, table.row.moves),
        status_line(table, table.row.moves),
        delivery.table_message.status_text(table, table.row.moves),
        delivery.table_message.seats_text(table),
        *[said(table, line) for line in await storage.recent_log(game_id, 10_000)],
        *[text for call in host.delivery.calls for text in call[2:] if isinstance(text, str)],
    ]
    assert_no_token(f"{key} through the host", shown)
    record = await replay.load(storage, game_id, GUILD)
    made = replay.replay(record, max_frames=3)
    assert_no_token(f"{key} replay log", [made.log])
    assert_no_token(f"{key} replay captions", made.captions)
    await host.close()


@pytest.mark.parametrize("key", sorted(GAMES))
def test_no_seat_token_reaches_the_demos_files_or_its_output(key, tmp_path):
    players, _, seed = GAMES[key]
    printed: list[str] = []
    result = demo.play(key, players=players, seed=seed, out=tmp_path, images=False, echo=printed.append)
    assert result["over"]
    if key in NAMES_RESULT:
        assert "AI " in result["result"]["reason"], "the seed must end with a result naming a seat"
    log = (tmp_path / "log.txt").read_text("utf-8")
    assert log.strip(), "the demo writes its log"
    assert_no_token(f"{key} demo log.txt", [log])
    assert_no_token(f"{key} demo result.json", [json.loads((tmp_path / "result.json").read_text("utf-8"))])
    assert_no_token(f"{key} demo output", printed)
