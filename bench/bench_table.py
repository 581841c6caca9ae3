"""The table's cost per move, for every game, through the loopback Discord with Discord's limits modelled.

    .venv/bin/python bench/bench_table.py [--seeds 2] [--moves 60] [--no-rate-limits] [--games NAME ...]

For each game (Enemy in Sight base and advanced, Enemy Lines, Warships, The Everrain), two members
(alice, bob) play a 2-seat game in one channel (``thread: false``; quick-setup where the game has it)
for a few seeds, at most ``--moves`` moves each. The bot is the real one (``bot.app.Admiralty``) in this
process, against ``tests.fakediscord`` with ``rate_limits=True`` (Discord's global 50/s and per-channel
buckets, answered with 429 as Discord does). Every move is played by clicks, as a person would, through
the e2e Driver (``tests/e2e/conftest.py``: the AI's choice for the seat, clicked through the menus).

Printed per game, over the moves played (from the Start click to the last move's deliveries):
- clicks per move: component interactions the members made (menu levels, page turns, Confirm);
- pings per turn: pings (``fd.pings``: created messages that notify a member) per turn of a member
  that began (replayed from the stored action log: a seat that was not to act and now is);
- REST calls per move, global-limited (count against the 50/s) and interaction-exempt (callbacks,
  interaction webhooks), and by route; 429s answered;
- database round trips per click and per move (the SQLite file: calls handed to aiosqlite's thread,
  ``tests/dbcount.py``), and the Storage calls a move makes, by method (the most frequent ones): the
  bot's own, all of them (answers, publishing, the scheduler), not the driver's reads.

Exit status 1 if any game averages more than 1 global-limited REST call per move (the issue's target).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import random
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bot import menus  # noqa: E402
from bot.app import Admiralty  # noqa: E402
from bot.delivery import my_view_label  # noqa: E402
from bot.games import registry  # noqa: E402
from bot.settings import Settings  # noqa: E402
from tests.dbcount import RoundTrips, unseen  # noqa: E402
from tests.e2e.conftest import Driver  # noqa: E402
from tests.fakediscord import FakeDiscord, running_bot  # noqa: E402

# (name, game key, /game new options)
GAMES = [
    ("Enemy in Sight (base)", "enemy-in-sight", {"variant": "base"}),
    ("Enemy in Sight (advanced)", "enemy-in-sight", {"variant": "advanced"}),
    ("Enemy Lines", "enemy-lines", {"quick_setup": True}),
    ("Warships", "warships", {"quick_setup": True}),
    ("The Everrain", "everrain", {"length": "short"}),
]
TARGET = 1.0  # global-limited REST calls per move, on average at most
COMPONENT = 3  # interaction type of a button or select


async def play_move(d: Driver, rng: random.Random, private: str) -> bool:
    """The member whose turn it is plays the AI's choice for their seat by clicks: on the table when the
    game has public controls, else from the controls in their DMs (``private="dm"``) or through the
    table's "My hand" / "My view" reply (``"hand"``). False when the game is over."""
    for _ in range(300):  # deliveries may still be running: wait for a member's turn
        await d.settle()
        table = await d.table()
        if table.over or table.human_to_act():
            break
        await d.host.idle()
        await asyncio.sleep(0.02)
    if table.over:
        return False
    if table.spec.public_controls:
        await d.play_ai_move(rng)
        return True
    seat = table.human_to_act()[0]
    member = next(m for m in (d.member("alice"), d.member("bob")) if m.id == table.seat_row(seat).user_id)
    if private == "dm":
        _, result = await d.play_by_dm(member, seat, rng)
    else:
        action = table.game.ai_action(seat, rng)
        labels = menus.labels_of(table.game, seat, action, table.names())
        shown = await member.click(d.turn_message(), my_view_label(table))
        result = await d.click_path(member, shown.message, labels)
    assert result is not None and "✅ Played" in result.text, result and result.text
    return True


async def play(
    name: str,
    key: str,
    options: dict,
    seed: int,
    max_moves: int,
    rate_limits: bool,
    workdir: Path,
    private: str = "dm",
) -> dict:
    async with FakeDiscord(
        users=["alice", "bob"],
        channels=["general", "games"],
        deferred_update_wait=10.0,
        reply_timeout=30.0,
        rate_limits=rate_limits,
    ) as fd:
        settings = Settings(
            token="fake",
            database=workdir / f"{key}-{seed}-{len(options)}.db",
            dev_guild=None,
            turn_timeout=0,
            ai_delay=0.0,
            log_level="WARNING",
        )
        bot = Admiralty(settings)
        async with running_bot(bot, fd):
            d = Driver(fd, bot, fd.channel("games"))
            await d.new_game("alice", game=key, **options)
            r = await d.member("bob").click(d.lobby_message(), "Join")
            assert not r.failed and "joined" in r.text, r.text
            clicks0 = sum(1 for i in list(fd.interactions.values()) if i.type == COMPONENT)
            pings0 = len(fd.pings)
            t0 = time.perf_counter()
            moves = 0
            # the bot's round trips only: the driver's own reads (whose turn it is, …) are unseen
            with fd.count() as c, RoundTrips(bot.storage) as db, unseen():
                r = await d.member("alice").click(d.lobby_message(), "Start")
                assert not r.failed and "started" in r.text, r.text
                rng = random.Random(seed)
                while moves < max_moves:
                    table = await d.table()
                    if table.over:
                        break
                    if not await play_move(d, rng, private):
                        break
                    moves += 1
                await bot.host.idle()
                await d.settle()
                await bot.host.idle()
                trips, calls = db.snapshot()
            wall = time.perf_counter() - t0
            clicks = (
                sum(1 for i in list(fd.interactions.values()) if i.type == COMPONENT) - clicks0 - 1
            )  # not Start
            pings = len(fd.pings) - pings0
            table = await d.table()
            began = await turns_begun(bot, table)
            over = table.over
    return {
        "name": name,
        "seed": seed,
        "moves": moves,
        "over": over,
        "clicks": clicks,
        "pings": pings,
        "turns": began,
        "global": c.global_limited,
        "exempt": c.exempt,
        "routes": Counter(c.by_route),
        "r429": c.rate_limited_total,
        "wall": wall,
        "trips": trips,
        "calls": calls,
    }


async def turns_begun(bot, table) -> int:
    """Turns of the members that began, replayed from the stored log: the start, and every action after
    which a seat is to act that was not before (and the game goes on)."""
    row = table.row
    game = registry.get(row.game_key).new(players=len(table.seats), options=row.options, seed=row.seed)
    humans = {s.seat for s in table.seats if not s.is_ai}
    began = len(humans & set(game.to_act()))
    for action in await bot.host.storage.actions(table.id):
        if "host" in action.action:
            continue
        before = set(game.to_act())
        game.apply(action.seat, action.action)
        if not game.is_over:
            began += len((set(game.to_act()) - before) & humans)
    return began


def route_name(template: str) -> str:
    return template.replace(
        "/interactions/{interaction_id}/{token}/callback", "/interactions/…/callback"
    ).replace("/webhooks/{app_id}/{token}", "/webhooks/…")


async def main_async(args) -> tuple[list[dict], bool]:
    rows, ok = [], True
    with tempfile.TemporaryDirectory(prefix="admiralty-table-") as tmp:
        for name, key, options in GAMES:
            if args.games and not any(g.lower() in name.lower() for g in args.games):
                continue
            runs = []
            for seed in range(args.seeds):
                r = await play(
                    name, key, options, seed, args.moves, not args.no_rate_limits, Path(tmp), args.private
                )
                runs.append(r)
                print(
                    f"   {name}, seed {seed}: {r['moves']} moves{' (game over)' if r['over'] else ''} in "
                    f"{r['wall']:.1f} s, {r['clicks']} clicks, {r['pings']} pings / {r['turns']} turns begun, "
                    f"REST {r['global']} global-limited + {r['exempt']} exempt, {r['r429']} × 429, "
                    f"database {r['trips']} round trips ({r['trips'] / max(r['clicks'], 1):.1f} / click, "
                    f"{r['trips'] / max(r['moves'], 1):.1f} / move)",
                    flush=True,
                )
            moves = sum(r["moves"] for r in runs) or 1
            turns = sum(r["turns"] for r in runs) or 1
            routes = sum((r["routes"] for r in runs), Counter())
            calls = sum((r["calls"] for r in runs), Counter())
            clicks = sum(r["clicks"] for r in runs) or 1
            row = {
                "name": name,
                "games": len(runs),
                "moves": moves,
                "clicks": sum(r["clicks"] for r in runs) / moves,
                "pings": sum(r["pings"] for r in runs) / turns,
                "global": sum(r["global"] for r in runs) / moves,
                "exempt": sum(r["exempt"] for r in runs) / moves,
                "r429": sum(r["r429"] for r in runs),
                "routes": {route_name(k): v / moves for k, v in routes.most_common()},
                "wall": sum(r["wall"] for r in runs) / moves,
                "trips_click": sum(r["trips"] for r in runs) / clicks,
                "trips": sum(r["trips"] for r in runs) / moves,
                "calls": {k: v / moves for k, v in calls.most_common()},
            }
            rows.append(row)
            ok &= row["global"] <= TARGET
    return rows, ok


def table(rows: list[dict]) -> str:
    out = [
        "| game | games | moves | clicks / move | pings / turn | REST / move: global-limited | "
        "REST / move: interaction | 429s | s / move | DB round trips / click | DB round trips / move |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        out.append(
            f"| {r['name']} | {r['games']} | {r['moves']} | {r['clicks']:.2f} | {r['pings']:.2f} "
            f"| {r['global']:.2f} | {r['exempt']:.2f} | {r['r429']} | {r['wall']:.2f} "
            f"| {r['trips_click']:.1f} | {r['trips']:.1f} |"
        )
    return "\n".join(out)


def routes_table(rows: list[dict]) -> str:
    names = sorted({k for r in rows for k in r["routes"]})
    out = [
        "| route (calls per move) | " + " | ".join(r["name"] for r in rows) + " |",
        "|---|" + "---|" * len(rows),
    ]
    for k in names:
        out.append(f"| `{k}` | " + " | ".join(f"{r['routes'].get(k, 0):.2f}" for r in rows) + " |")
    return "\n".join(out)


def calls_table(rows: list[dict], top: int = 12) -> str:
    """The Storage calls per move, by method: the ``top`` most frequent over every game."""
    total: Counter = sum((Counter(r["calls"]) for r in rows), Counter())
    names = [k for k, _ in total.most_common(top)]
    out = [
        "| Storage call (per move) | " + " | ".join(r["name"] for r in rows) + " |",
        "|---|" + "---|" * len(rows),
    ]
    for k in names:
        out.append(f"| `{k}` | " + " | ".join(f"{r['calls'].get(k, 0):.2f}" for r in rows) + " |")
    out.append("| all Storage calls | " + " | ".join(f"{sum(r['calls'].values()):.2f}" for r in rows) + " |")
    return "\n".join(out)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=2, help="games per game type (seeds 0..n-1)")
    parser.add_argument("--moves", type=int, default=60, help="at most this many moves per game")
    parser.add_argument("--no-rate-limits", action="store_true", help="the fake without Discord's limits")
    parser.add_argument(
        "--private",
        choices=("dm", "hand"),
        default="dm",
        help="games with private views (Enemy in Sight, Warships): play from the DMs, or "
        "through the table's My hand / My view reply (one more click a move)",
    )
    parser.add_argument("--games", nargs="*", help="only the games whose name contains one of these")
    args = parser.parse_args()
    logging.basicConfig(level=logging.WARNING)
    print(
        f"bench_table: --seeds {args.seeds} --moves {args.moves} --private {args.private}, rate limits "
        f"{'off' if args.no_rate_limits else 'on (FakeDiscord(rate_limits=True))'}, 2 seats (alice, bob)",
        flush=True,
    )
    rows, ok = asyncio.run(main_async(args))
    print()
    print(table(rows))
    print()
    print(routes_table(rows))
    print()
    print(calls_table(rows))
    if not ok:
        print(
            f"\nFAIL: more than {TARGET:g} global-limited REST call per move on average: "
            + ", ".join(r["name"] for r in rows if r["global"] > TARGET)
        )
        return 1
    print(f"\nOK: every game at most {TARGET:g} global-limited REST call per move on average")
    return 0


if __name__ == "__main__":
    sys.exit(main())
