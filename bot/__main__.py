"""Command line: `python -m bot run` starts the bot; `python -m bot demo [game]` plays an AI game offline;
`python -m bot replay FILE --out DIR` draws an exported game (/game export) again, offline."""

from __future__ import annotations

import argparse
import logging
import sys

from bot.settings import Settings, SettingsError

# Libraries whose debug lines carry what players may not see: discord.py logs every gateway event
# (clicks and their values) and request body (DMs with a player's hand); aiosqlite every statement
# with its parameters (the whole game state, the action log). Never below these levels.
LIBRARY_LOG_FLOORS = {
    "discord.gateway": logging.WARNING,
    "discord.http": logging.INFO,
    "discord.webhook": logging.INFO,
    "aiosqlite": logging.INFO,
}


def quiet_libraries(level: int) -> None:
    for name, floor in LIBRARY_LOG_FLOORS.items():
        logging.getLogger(name).setLevel(max(level, floor))


def setup_logging(level: str, fmt: str = "text", *, shard_count: int | None = None) -> None:
    """Logs on stdout at ``level``, as text lines or (``fmt="json"``) one JSON object a line; see
    :mod:`bot.logs` for the fields a line carries."""
    from bot import logs

    logs.configure(shard_count=shard_count)
    logging.basicConfig(
        level=getattr(logging, level, logging.INFO), handlers=[logs.make_handler(fmt, sys.stdout)]
    )
    quiet_libraries(logging.getLogger().level)


def check_database(path) -> str | None:
    """Open the database once (creating or migrating it) before anything connects to Discord. Returns
    the one sentence to print when it cannot be used (the file is then left as it was), else None."""
    import asyncio

    from bot.storage import Storage, StorageError

    async def probe() -> None:
        await (await Storage.open(path)).close()

    try:
        asyncio.run(probe())
    except StorageError as e:
        return str(e)
    return None


def cmd_run(args: argparse.Namespace) -> int:
    try:
        settings = Settings.load()
    except SettingsError as e:
        print(f"Configuration error: {e}", file=sys.stderr)
        return 2
    if not settings.token:
        print(
            "No bot token: set DISCORD_TOKEN in .env (cp .env.example .env) or in the environment.",
            file=sys.stderr,
        )
        return 2
    problem = check_database(settings.database)
    if problem:
        print(f"Database error: {problem}.", file=sys.stderr)
        return 2
    setup_logging(settings.log_level, settings.log_format, shard_count=settings.shard_count)
    from bot import collector
    from bot.app import Admiralty, start_failure
    from bot.storage import DatabaseUnusable

    collector.tune()
    bot = Admiralty(settings)
    if settings.event_loop == "uvloop":
        import asyncio

        import uvloop

        asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())  # bot.run starts its loop by the policy
    try:
        bot.run(settings.token, log_handler=None)
    except KeyboardInterrupt:
        pass
    except DatabaseUnusable as e:  # the file changed between the check and the start
        print(f"Database error: {e}.", file=sys.stderr)
        return 2
    except Exception as e:
        problem = start_failure(e)
        if problem is None:
            raise
        print(f"{problem}.", file=sys.stderr)
        return 2
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    from bot.demo import play
    from bot.games import IllegalAction

    try:
        options = {}
        for item in args.option or []:
            key, sep, value = item.partition("=")
            options[key] = value if sep else True
        result = play(args.game, players=args.players, seed=args.seed, out=args.out, options=options)
    except IllegalAction as e:
        print(f"demo: {e}", file=sys.stderr)
        return 2
    return 0 if result["over"] else 1


def cmd_replay(args: argparse.Namespace) -> int:
    from bot.replay import ReplayError, write_offline

    try:
        done = write_offline(args.file, args.out, max_frames=args.max_frames)
    except OSError as e:
        print(f"replay: cannot read {args.file} or write {args.out}: {e}", file=sys.stderr)
        return 2
    except ReplayError as e:
        print(f"replay: {args.file}: {e}", file=sys.stderr)
        return 2
    print(f"{done['moves']} moves, {done['frames']} frames: {len(done['files'])} files in {args.out}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="admiralty", description="Admiralty, a Discord host for naval games"
    )
    sub = parser.add_subparsers(dest="command")
    sub.add_parser("run", help="start the bot (needs DISCORD_TOKEN)")
    demo = sub.add_parser("demo", help="play a whole game between AI seats, offline")
    demo.add_argument("game", nargs="?", default="enemy-lines")
    demo.add_argument("--players", type=int, default=None)
    demo.add_argument("--seed", type=int, default=1)
    demo.add_argument("--out", default="demo")
    demo.add_argument(
        "--option",
        action="append",
        metavar="KEY[=VALUE]",
        help="a game option, e.g. --option variant=advanced (repeatable)",
    )
    rep = sub.add_parser("replay", help="draw an exported game (/game export) again: frames, GIF, log")
    rep.add_argument("file", help="the JSON file of /game export")
    rep.add_argument("--out", default="replay", help="the directory to write into (made if needed)")
    rep.add_argument("--max-frames", type=int, default=80, help="frames drawn at most (moves spread evenly)")
    args = parser.parse_args(argv)
    if args.command == "replay":
        return cmd_replay(args)
    if args.command == "demo":
        return cmd_demo(args)
    if args.command in (None, "run"):
        return cmd_run(args)
    parser.print_help()
    return 2


if __name__ == "__main__":
    sys.exit(main())
