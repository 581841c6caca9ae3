"""`python -m bot run` that cannot start ends with one sentence, not a traceback: a token Discord
refuses (the loopback Discord answers 401 to the login), and a Discord that cannot be reached (a
closed port on loopback)."""

from __future__ import annotations

import asyncio
import os
import socket
import sys
from pathlib import Path

from tests.fakediscord import FakeDiscord

ROOT = Path(__file__).resolve().parents[2]


async def run_bot(argv: list[str], tmp_path: Path) -> tuple[int, str, str]:
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "DISCORD_TOKEN": "not-a-token",
        "ADMIRALTY_DB": str(tmp_path / "bot.db"),
        "ADMIRALTY_DEV_GUILD": "",
        "ADMIRALTY_SHARDS": "",
    }
    proc = await asyncio.create_subprocess_exec(
        *argv,
        cwd=str(ROOT),
        env=env,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        out, err = await asyncio.wait_for(proc.communicate(), 60)
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    return proc.returncode, out.decode(), err.decode()


def one_sentence(stdout: str, stderr: str) -> str:
    assert "Traceback" not in stdout + stderr, stdout + stderr
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert len(lines) == 1, stderr
    return lines[0]


async def test_a_token_discord_refuses_ends_with_one_sentence(tmp_path):
    async with FakeDiscord(users=["alice"]) as fd:
        refused = fd.faults.server_error("GET /users/@me", times=None, status=401)
        code, out, err = await run_bot(fd.launch_argv("-m", "bot", "run"), tmp_path)
    assert refused.hits >= 1  # the login was answered 401
    sentence = one_sentence(out, err)
    assert code == 2
    assert "Discord refused the bot token" in sentence and "DISCORD_TOKEN" in sentence
    assert "not-a-token" not in out + err  # the token itself is never printed


async def test_discord_out_of_reach_ends_with_one_sentence(tmp_path):
    with socket.socket() as s:  # a loopback port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    base = f"http://127.0.0.1:{port}"
    argv = [sys.executable, "-m", "tests.fakediscord.launch", "--base", base, "-m", "bot", "run"]
    code, out, err = await run_bot(argv, tmp_path)
    sentence = one_sentence(out, err)
    assert code == 2
    assert sentence.startswith(f"Cannot reach Discord at 127.0.0.1:{port} (connection refused)"), sentence
    assert "network" in sentence
