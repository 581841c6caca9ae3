"""The CPU a REST call costs the bot under each event loop it can run on (ADMIRALTY_EVENT_LOOP).

A move costs the bot about six REST calls and as many gateway events; the load bench's profile puts
about a third of the bot's CPU in the event loop, aiohttp and discord.py's HTTP layer. This bench
isolates that layer: an aiohttp client (the one discord.py uses) sends JSON requests with ``PIPELINE``
in flight to a local aiohttp server in another process, and counts the client process's CPU time (not
wall time, so a busy machine skews it less), under asyncio's own loop and under uvloop, alternating
runs so drift in the machine's load falls on both alike.

    python bench/bench_event_loop.py [--requests 4000] [--rounds 3]
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import socket
import statistics
import time

import aiohttp
from aiohttp import web

PIPELINE = 50  # requests in flight at once, as a busy bot has
BODY = {"content": "x" * 400, "components": [{"type": 10, "content": "y" * 200}] * 8}


def serve(port: int, ready) -> None:
    async def answer(request: web.Request) -> web.Response:
        await request.read()
        return web.json_response({"id": "1", "content": "z" * 400, "embeds": [], "components": []})

    app = web.Application()
    app.router.add_post("/echo", answer)

    async def main() -> None:
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", port).start()
        ready.set()
        await asyncio.Event().wait()

    asyncio.run(main())


async def client(port: int, requests: int) -> float:
    """CPU seconds a request, over ``requests`` requests."""
    async with aiohttp.ClientSession() as session:
        url = f"http://127.0.0.1:{port}/echo"

        async def one() -> None:
            async with session.post(url, json=BODY) as response:
                await response.json()

        await asyncio.gather(*(one() for _ in range(PIPELINE)))  # connections opened, warmed up
        started = time.process_time()
        for _ in range(requests // PIPELINE):
            await asyncio.gather(*(one() for _ in range(PIPELINE)))
        return (time.process_time() - started) / requests


def run(loop: str, port: int, requests: int) -> float:
    if loop == "uvloop":
        import uvloop

        return uvloop.run(client(port, requests))
    return asyncio.run(client(port, requests))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--requests", type=int, default=4000)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    ready = multiprocessing.Event()
    server = multiprocessing.Process(target=serve, args=(port, ready), daemon=True)
    server.start()
    ready.wait(30)
    spent: dict[str, list[float]] = {"asyncio": [], "uvloop": []}
    try:
        for _ in range(args.rounds):
            for loop in spent:
                spent[loop].append(run(loop, port, args.requests))
    finally:
        server.terminate()
    base = statistics.median(spent["asyncio"])
    print(
        f"{args.requests} requests a round, {PIPELINE} in flight, {args.rounds} rounds; client CPU a request:"
    )
    for loop, values in spent.items():
        median = statistics.median(values)
        print(
            f"  {loop:8} median {median * 1e6:6.0f} µs  ({median / base:.2f}× asyncio)  runs: "
            + ", ".join(f"{v * 1e6:.0f}" for v in values)
        )


if __name__ == "__main__":
    main()
