"""A test run that is killed leaves no PostgreSQL server and no directory behind (tests/pg.py).

The child here is a plain Python process that starts the throw-away server the way the ``pg_server``
fixture does and then waits; pytest (and each pytest-xdist worker) holds its server the same way.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests import pg

ROOT = Path(__file__).resolve().parents[1]

CHILD = """
import sys, time
sys.path.insert(0, sys.argv[1])
from tests import pg
url, server = pg.start()
print(server.dir, flush=True)
time.sleep(600)
"""


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie is gone for our purpose (its parent, pg_ctl's, may not have reaped it yet)
    stat = Path(f"/proc/{pid}/stat")
    return not (stat.exists() and stat.read_text().split(")")[-1].split()[0] == "Z")


@pytest.fixture
def bindir():
    if os.environ.get(pg.ENV_URL, "").strip():
        pytest.skip(f"{pg.ENV_URL} is set: the tests start no server of their own")
    found = pg.find_bindir()
    if found is None:
        if os.environ.get("ADMIRALTY_REQUIRE_POSTGRES") == "1":
            pytest.fail("PostgreSQL is required (ADMIRALTY_REQUIRE_POSTGRES=1) but its binaries are missing")
        pytest.skip("no PostgreSQL binaries")
    return found


@pytest.mark.postgres
@pytest.mark.parametrize(
    "how", ["SIGTERM", "SIGKILL", "Ctrl-C"], ids=["sigterm", "sigkill", "ctrl-c-to-the-process-group"]
)
def test_a_killed_test_process_leaves_no_server_and_no_directory(bindir, how):
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(ROOT)],
        stdout=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its own process group, as a terminal's foreground job is
    )
    try:
        line = child.stdout.readline().strip()
        assert line, "the child did not start a server"
        directory = Path(line)
        postmaster = int((directory / "data" / "postmaster.pid").read_text().split()[0])
        assert _alive(postmaster)
        if how == "SIGTERM":
            child.send_signal(signal.SIGTERM)
        elif how == "SIGKILL":
            child.kill()
        else:
            os.killpg(child.pid, signal.SIGINT)
        child.wait(timeout=30)
        deadline = time.monotonic() + 30
        while (_alive(postmaster) or directory.exists()) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not _alive(postmaster), f"the PostgreSQL server (pid {postmaster}) outlived its test process"
        assert not directory.exists(), f"{directory} outlived its test process"
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()


INNER_TEST = """
import pathlib, time

def test_waits(pg_server):
    pathlib.Path({mark!r}).write_text(pg_server)
    time.sleep(120)
"""


@pytest.mark.postgres
def test_sigterm_ends_a_pytest_run_like_ctrl_c_with_its_summary_and_the_server_stopped(bindir, tmp_path):
    mark = tmp_path / "server-url"
    (tmp_path / "test_inner.py").write_text(INNER_TEST.format(mark=str(mark)))
    (tmp_path / "pytest.ini").write_text("[pytest]\n")
    run = subprocess.Popen(
        [sys.executable, "-m", "pytest", "-p", "tests.conftest", "-p", "no:cacheprovider", "-p", "no:xdist"]
        + ["--rootdir", str(tmp_path), str(tmp_path / "test_inner.py")],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while not mark.exists() and time.monotonic() < deadline and run.poll() is None:
            time.sleep(0.05)
        assert mark.exists(), (
            run.communicate()[0] if run.poll() is not None else "the inner test never started"
        )
        port = mark.read_text().split("@127.0.0.1:")[1].split("/")[0]
        run.send_signal(signal.SIGTERM)
        out, _ = run.communicate(timeout=60)
    finally:
        if run.poll() is None:
            run.kill()
            run.wait()
    assert run.returncode == 2, out  # pytest's "interrupted", as after Ctrl-C (not -15: killed unreported)
    assert "KeyboardInterrupt" in out and "signal 15" in out, out
    servers = subprocess.run(["ps", "-eo", "args"], capture_output=True, text=True).stdout
    assert f"-p {port} " not in servers, "the PostgreSQL server outlived the run"
