"""Test-only entry point: ``python -m bot run`` with shorter timers, for tests/e2e/test_three_processes.py.

The bot itself bounds a game's turn timer to 30 s..30 d (bot/settings.py) and holds a claimed job for
15 s (bot/scheduler.py LEASE). A test that kills processes and waits for their timers to be taken over
cannot wait that long, so this script (never used by the bot, only launched by that test through
tests/fakediscord/launch.py) builds the host with the test-only keyword arguments ``Host`` already has
for in-process tests: ``min_turn_timeout``, ``job_lease`` and ``job_poll``, read from

    ADMIRALTY_TEST_MIN_TURN_TIMEOUT  (seconds; the lowest turn timer /game new accepts)
    ADMIRALTY_TEST_JOB_LEASE         (seconds a claimed job is held)
    ADMIRALTY_TEST_JOB_POLL          (seconds between looks at the jobs table)
    ADMIRALTY_TEST_JOB_SWEEP         (seconds between sweeps for an AI seat due with no job; default 3)

Everything else is the unmodified ``python -m bot run``; the user-facing bounds are untouched.
"""

from __future__ import annotations

import functools
import os
import sys

import bot.app
from bot.__main__ import main
from bot.host import Host

bot.app.Host = functools.partial(
    Host,
    min_turn_timeout=float(os.environ["ADMIRALTY_TEST_MIN_TURN_TIMEOUT"]),
    job_lease=float(os.environ["ADMIRALTY_TEST_JOB_LEASE"]),
    job_poll=float(os.environ["ADMIRALTY_TEST_JOB_POLL"]),
    job_sweep=float(os.environ.get("ADMIRALTY_TEST_JOB_SWEEP", "3")),
)

if __name__ == "__main__":
    sys.exit(main(["run"]))
