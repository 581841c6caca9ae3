"""Run an unmodified discord.py program (e.g. the bot, in a subprocess) against a FakeDiscord.

    python -m tests.fakediscord.launch --base http://127.0.0.1:PORT -m bot run
    python -m tests.fakediscord.launch --base http://127.0.0.1:PORT path/to/script.py args...

Only two addresses are changed before the program starts: discord.http.Route.BASE and
DiscordWebSocket.DEFAULT_GATEWAY. With --fast-ready (default) discord.py's 2 s wait for late
GUILD_CREATEs before on_ready is shortened to 50 ms (a Client option default, not bot code).
From a test: `subprocess.Popen(fd.launch_argv("-m", "bot", "run"), cwd=repo_root, env=...)`.
"""

from __future__ import annotations

import argparse
import runpy
import sys


def patch(base: str, *, fast_ready: bool = True) -> None:
    import discord
    import discord.gateway
    import discord.http
    import yarl

    base = base.rstrip("/")
    discord.http.Route.BASE = f"{base}/api/v10"
    gw = yarl.URL(base).with_scheme("ws" if base.startswith("http:") else "wss").with_path("/gateway")
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = gw
    if fast_ready:
        original = discord.Client.__init__

        def __init__(self, *args, **options):
            options.setdefault("guild_ready_timeout", 0.05)
            original(self, *args, **options)

        discord.Client.__init__ = __init__


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="fakediscord-launch")
    parser.add_argument("--base", required=True, help="the fake's base URL, e.g. http://127.0.0.1:PORT")
    parser.add_argument("--no-fast-ready", action="store_true")
    parser.add_argument("-m", dest="module", help="run a module as __main__")
    parser.add_argument("rest", nargs=argparse.REMAINDER)
    args = parser.parse_args(argv)
    patch(args.base, fast_ready=not args.no_fast_ready)
    if args.module:
        sys.argv = [args.module, *args.rest]
        runpy.run_module(args.module, run_name="__main__", alter_sys=True)
    elif args.rest:
        sys.argv = list(args.rest)
        runpy.run_path(args.rest[0], run_name="__main__")
    else:
        parser.error("give -m module or a script path")


if __name__ == "__main__":
    main()
