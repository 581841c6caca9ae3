"""`make test` and `make check` (tests/gate.py): every step runs, and the end says how each went."""

from __future__ import annotations

import io
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests import gate

ROOT = Path(__file__).resolve().parents[1]
PY = sys.executable


def pytest_in(directory: Path, name: str) -> gate.Step:
    """A real pytest pass over ``directory`` alone (no project conftest, no plugins' noise)."""
    (directory / "pytest.ini").write_text("[pytest]\n")
    argv = [PY, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist", "--rootdir", str(directory)]
    return gate.Step(name, [*argv, str(directory)], pytest=True)


def test_a_failed_first_pass_does_not_hide_the_second_and_both_summaries_end_the_run(tmp_path):
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    (first / "test_a.py").write_text("def test_red():\n    assert 1 == 2\n\ndef test_green():\n    pass\n")
    (second / "test_b.py").write_text("def test_one():\n    pass\n\ndef test_two():\n    pass\n")
    out = io.StringIO()
    status = gate.Runner(out).run([pytest_in(first, "main pass"), pytest_in(second, "e2e on PostgreSQL")])
    assert status == 1
    summary = out.getvalue().split("=== summary")[-1]
    lines = summary.strip().splitlines()
    assert lines[0].startswith("main pass") and "FAILED (exit status 1)" in lines[0]
    assert "1 failed, 1 passed" in lines[0]
    assert "FAILED" in lines[1] and "test_a.py::test_red" in lines[1]
    assert lines[2].startswith("e2e on PostgreSQL") and " ok: " in lines[2] and "2 passed" in lines[2]
    # the last line adds both passes up in the plain form CI reads
    assert lines[-1] == "total: 3 passed, 1 failed, 0 skipped"


def test_a_pass_that_collects_no_tests_is_a_failure(tmp_path):
    (tmp_path / "empty").mkdir()
    out = io.StringIO()
    status = gate.Runner(out).run([pytest_in(tmp_path / "empty", "tests")])
    assert status == 1
    assert "FAILED (no tests ran: pytest exit status 5)" in out.getvalue().split("=== summary")[-1]


def test_every_step_runs_after_failures_and_the_status_is_zero_only_when_all_pass():
    fail = gate.Step("lint", [PY, "-c", "print('Found 3 errors.'); raise SystemExit(1)"])
    ok = gate.Step("types", [PY, "-c", "print('Success: no issues found')"])
    out = io.StringIO()
    assert gate.Runner(out).run([fail, fail, ok]) == 1
    summary = out.getvalue().split("=== summary")[-1]
    assert summary.count("Found 3 errors.") == 2 and "Success: no issues found" in summary
    assert gate.Runner(io.StringIO()).run([ok, ok]) == 0


def test_make_test_is_lint_format_types_both_test_passes_and_make_check_skips_e2e_and_postgres():
    test = gate.plan("test", workers="2")
    assert [s.argv[2:] for s in test[:3]] == [
        ["ruff", "check", "."],
        ["ruff", "format", "--check", "."],
        ["mypy", "bot", "cogs", "rendering"],
    ]
    main, e2e = test[3:]
    assert main.pytest and "-n" in main.argv and "tests/e2e" not in main.argv
    assert e2e.env == {"ADMIRALTY_TEST_E2E_BACKEND": "postgres"} and e2e.argv[-1] == "tests/e2e"
    check = gate.plan("check", workers="2")
    assert [s.name for s in check[:3]] == [s.name for s in test[:3]]
    unit = check[3]
    assert "--ignore=tests/e2e" in unit.argv
    assert "not postgres" in " ".join(unit.argv) and "not heavy" in " ".join(unit.argv)
    # and the Makefile goes through the gate for both
    for target in ("test", "check"):
        dry = subprocess.run(["make", "-n", target], cwd=ROOT, capture_output=True, text=True, check=True)
        assert f"tests/gate.py {target}" in dry.stdout


def test_sigterm_stops_the_running_step_and_the_rest(tmp_path):
    started = tmp_path / "started"
    script = (
        "import sys, time; sys.path.insert(0, sys.argv[1]); from tests import gate; "
        "step = gate.Step('long', [sys.executable, '-c', "
        "'import pathlib, sys, time; pathlib.Path(sys.argv[1]).touch(); time.sleep(60)', sys.argv[2]]); "
        "after = gate.Step('after', [sys.executable, '-c', 'print(1)']); "
        "sys.exit(gate.Runner().run([step, after]))"
    )
    proc = subprocess.Popen([PY, "-c", script, str(ROOT), str(started)], stdout=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 30
    while not started.exists() and time.monotonic() < deadline:
        time.sleep(0.02)
    assert started.exists()
    t0 = time.monotonic()
    proc.send_signal(signal.SIGTERM)
    out, _ = proc.communicate(timeout=30)
    assert time.monotonic() - t0 < 10  # the sleeping step got the signal; it did not run its 60 s
    assert proc.returncode == 128 + signal.SIGTERM
    assert "after" in out and "not run" in out.split("=== summary")[-1]


def test_pytest_arguments_after_a_double_dash_reach_every_pytest_pass(monkeypatch):
    seen = []
    monkeypatch.setattr(gate.Runner, "run", lambda self, steps: seen.extend(steps) or 0)
    assert gate.main(["test", "--workers", "3", "--", "-k", "lobby"]) == 0
    assert seen[3].argv[-2:] == ["-k", "lobby"] and seen[4].argv[-3:] == ["-k", "lobby", "tests/e2e"]
    assert all(s.argv[s.argv.index("-n") + 1] == "3" for s in seen[3:])


def test_every_test_make_check_leaves_out_as_heavy_exists():
    from tests import conftest

    for entry in conftest.HEAVY:
        path, _, function = entry.partition("::")
        text = (ROOT / path).read_text()
        assert "def test_" in text and (not function or f"def {function}(" in text), (
            f"{entry} is no longer there"
        )
    assert conftest.heavy("tests/bot/test_drawing.py::test_x[sqlite]")  # a whole file
    assert conftest.heavy("tests/bot/test_clicks.py::test_median_move_takes_at_most_two_clicks[a]")
    assert not conftest.heavy("tests/bot/test_clicks.py::test_another")


def test_every_e2e_test_the_postgres_pass_keeps_exists():
    """A renamed test would silently leave the PostgreSQL pass (tests/conftest.py, E2E_ON_POSTGRES)."""
    from tests import conftest

    for entry in conftest.E2E_ON_POSTGRES:
        path, _, function = entry.partition("::")
        text = (ROOT / path).read_text()
        assert "test_" in text and (not function or f"def {function}(" in text), f"{entry} is no longer there"
    assert conftest.on_postgres_too("tests/e2e/test_restart.py::test_x")  # a whole file
    assert conftest.on_postgres_too(
        "tests/e2e/test_lobby_e2e.py::test_start_racing_cancel_exactly_one_wins_and_the_channel_is_consistent[1]"
    )  # one function, every parameter
    assert not conftest.on_postgres_too(
        "tests/e2e/test_lobby_e2e.py::test_only_the_host_adds_and_removes_seats"
    )


def test_the_static_steps_run_alongside_the_tests_and_each_shows_its_output_in_one_block(tmp_path):
    """Lint, format and types run beside the tests (mypy's seconds overlap the tests' waits): here the
    static step and the test step each wait for the other's file, which only works if both run at once."""
    assert [s.alongside for s in gate.plan("check", workers="2")] == [True, True, True, False]
    assert [s.alongside for s in gate.plan("test", workers="2")] == [True, True, True, False, False]
    wait_for = (
        "import pathlib, sys, time\n"
        "pathlib.Path(sys.argv[1]).touch()\n"
        "end = time.monotonic() + 60\n"
        "while not pathlib.Path(sys.argv[2]).exists() and time.monotonic() < end: time.sleep(0.01)\n"
        "print(sys.argv[3]); print('the other ran too'); sys.exit(0 if pathlib.Path(sys.argv[2]).exists() else 1)\n"
    )
    static, tests = tmp_path / "static", tmp_path / "tests"
    beside = gate.Step("types", [PY, "-c", wait_for, str(static), str(tests), "static"], alongside=True)
    after = gate.Step("tests", [PY, "-c", wait_for, str(tests), str(static), "tests"])
    out = io.StringIO()
    assert gate.Runner(out).run([beside, after]) == 0
    text = out.getvalue()
    # the static step's header and its lines together; the summary in the plan's order
    assert "=== types: python -c" in text and "static\nthe other ran too\n" in text
    summary = text.split("=== summary")[-1].splitlines()
    assert [line.split()[0] for line in summary[1:3]] == ["types", "tests"]
    assert "total: 0 passed, 0 failed, 0 skipped" in text


def test_steps_may_write_bytecode_so_pytest_keeps_its_rewritten_test_modules(monkeypatch):
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    monkeypatch.setenv("ADMIRALTY_SOMETHING", "kept")
    env = gate.step_environment()
    assert "PYTHONDONTWRITEBYTECODE" not in env and env["ADMIRALTY_SOMETHING"] == "kept"
