"""`make test` and `make check`: run every step even when one fails, then say how each went.

    python tests/gate.py test [--workers N] [-- PYTEST ARGS…]   lint, format, types, tests, e2e on PostgreSQL
                                                                 (those whose storage paths differ by backend:
                                                                 E2E_ON_POSTGRES in tests/conftest.py)
    python tests/gate.py check [--workers N] [-- PYTEST ARGS…]  lint, format, types, unit tests (no e2e, PostgreSQL or heavy)

The static steps (lint, format, types) run alongside the tests, each in its own process (mypy's few
seconds of one core overlap the tests' waits on sockets and timers); their output comes as one block
each when they end, the tests' streams as it runs. At the end comes one line per step (ok or FAILED, with the
step's own last words: pytest's count line, mypy's error count) and, for a failed pytest pass, its
"short test summary info" lines, so a red first pass never hides the PostgreSQL one. The exit status is
0 only when every step passed. pytest's exit status 5 (no tests collected) is a failure: a pass that
runs nothing proves nothing. SIGTERM or Ctrl-C stops the running step (it gets the signal) and the rest.
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COUNT = re.compile(r"(\d+) (passed|failed|errors?|skipped)\b")
NO_TESTS = 5  # pytest's ExitCode.NO_TESTS_COLLECTED
INTERRUPTED = 2  # pytest's ExitCode.INTERRUPTED (Ctrl-C, or SIGTERM: tests/conftest.py)
# What `make check` leaves to `make test`: the whole bot against the loopback Discord.
UNIT_SKIPS = ["--ignore=tests/e2e"]


def step_environment() -> dict[str, str]:
    """The environment of every step: ours, except that Python may write bytecode. pytest keeps each
    test module's assertion-rewritten bytecode in __pycache__ only when bytecode may be written; without
    it every worker of every run rewrites all the test modules again (5.6 s of CPU a worker, 2026-11)."""
    return {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


@dataclass
class Step:
    name: str
    argv: list[str]
    env: dict[str, str] = field(default_factory=dict)
    pytest: bool = False
    # runs alongside the steps after it (it shares nothing with them): its output is shown when it ends
    alongside: bool = False


@dataclass
class Outcome:
    step: Step
    returncode: int
    seconds: float
    output: list[str]

    @property
    def ok(self) -> bool:
        return self.returncode == 0

    def last_words(self) -> str:
        """The step's own summary: its last non-blank line, without pytest's ``===`` frame."""
        for line in reversed(self.output):
            if line.strip():
                return line.strip().strip("=").strip()
        return ""

    def failures(self) -> list[str]:
        """pytest's "short test summary info" lines (FAILED …, ERROR …), when it printed them."""
        for n, line in enumerate(self.output):
            if "short test summary info" in line:
                return [x for x in self.output[n + 1 :] if x.startswith(("FAILED", "ERROR"))]
        return []


def pytest_steps(workers: str, extra: Sequence[str]) -> tuple[Step, Step, Step]:
    py = sys.executable
    parallel = ["-n", workers, "--dist", "worksteal"] if workers not in ("", "0") else []
    tests = Step("tests", [py, "-m", "pytest", "-m", "not slow", *parallel, *extra], pytest=True)
    e2e_pg = Step(
        "e2e on PostgreSQL",
        [py, "-m", "pytest", "-m", "not slow", *parallel, *extra, "tests/e2e"],
        env={"ADMIRALTY_TEST_E2E_BACKEND": "postgres"},
        pytest=True,
    )
    # the edit loop: engines, rendering, host and storage on SQLite; no e2e, no PostgreSQL, no heavy loops
    unit = Step(
        "unit tests",
        [py, "-m", "pytest", "-m", "not slow and not postgres and not heavy", *UNIT_SKIPS, *parallel, *extra],
        env={"ADMIRALTY_TEST_BACKENDS": "sqlite"},
        pytest=True,
    )
    return tests, e2e_pg, unit


def plan(target: str, workers: str = "auto", extra: Sequence[str] = ()) -> list[Step]:
    py = sys.executable
    static = [
        Step("lint (ruff check)", [py, "-m", "ruff", "check", "."], alongside=True),
        Step("format (ruff format --check)", [py, "-m", "ruff", "format", "--check", "."], alongside=True),
        Step("types (mypy)", [py, "-m", "mypy", "bot", "cogs", "rendering"], alongside=True),
    ]
    tests, e2e_pg, unit = pytest_steps(workers, extra)
    if target == "test":
        return [*static, tests, e2e_pg]
    if target == "check":
        return [*static, unit]
    raise ValueError(f"unknown target {target!r} (test or check)")


class Runner:
    """Runs steps one after another, each ``alongside`` step beside the ones after it; a SIGTERM or SIGINT
    goes to every running step and ends the run."""

    def __init__(self, out=None):
        self.out = out or sys.stdout
        self.children: list[subprocess.Popen[str]] = []
        self.stopped_by: int | None = None
        self._printing = threading.Lock()  # one step's block of output at a time

    def _on_signal(self, signum, frame) -> None:
        self.stopped_by = signum
        for child in list(self.children):
            if child.poll() is None:
                try:
                    child.send_signal(signum)
                except ProcessLookupError:
                    pass

    def _header(self, step: Step) -> str:
        command = " ".join([*(f"{k}={v}" for k, v in step.env.items()), "python", *step.argv[1:]])
        return f"\n=== {step.name}: {command}\n"

    def _start(self, step: Step) -> subprocess.Popen[str]:
        child = subprocess.Popen(
            step.argv,
            cwd=ROOT,
            env={**step_environment(), **step.env},
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            bufsize=1,
        )
        self.children.append(child)
        return child

    def run_step(self, step: Step) -> Outcome:
        """Run ``step`` in the foreground, its output streaming as it comes."""
        with self._printing:
            self.out.write(self._header(step))
            self.out.flush()
        started = time.monotonic()
        output: list[str] = []
        child = self._start(step)
        assert child.stdout is not None
        for line in child.stdout:
            with self._printing:
                self.out.write(line)
                self.out.flush()
            output.append(line.rstrip("\n"))
        returncode = child.wait()
        self.children.remove(child)
        return Outcome(step, returncode, time.monotonic() - started, output)

    def run_alongside(self, step: Step, done: dict[int, Outcome], index: int) -> threading.Thread:
        """Start ``step`` beside the rest; its output is printed in one block when it ends (``done``)."""
        started = time.monotonic()
        child = self._start(step)

        def collect() -> None:
            assert child.stdout is not None
            output = [line.rstrip("\n") for line in child.stdout]
            returncode = child.wait()
            done[index] = Outcome(step, returncode, time.monotonic() - started, output)
            with self._printing:
                self.out.write(self._header(step) + "".join(f"{line}\n" for line in output))
                self.out.flush()

        thread = threading.Thread(target=collect, name=f"gate: {step.name}", daemon=True)
        thread.start()
        return thread

    def run(self, steps: Sequence[Step]) -> int:
        previous = {s: signal.signal(s, self._on_signal) for s in (signal.SIGTERM, signal.SIGINT)}
        done: dict[int, Outcome] = {}
        beside: list[threading.Thread] = []
        try:
            for n, step in enumerate(steps):
                if self.stopped_by is not None:
                    break
                if step.alongside:
                    beside.append(self.run_alongside(step, done, n))
                else:
                    done[n] = self.run_step(step)
            for thread in beside:
                thread.join()
        finally:
            for s, handler in previous.items():
                signal.signal(s, handler)
        outcomes = [done[n] for n in sorted(done)]
        self.summarise(outcomes, steps, [s for n, s in enumerate(steps) if n not in done])
        if self.stopped_by is not None:
            return 128 + self.stopped_by
        return 0 if len(outcomes) == len(steps) and all(o.ok for o in outcomes) else 1

    def summarise(
        self, outcomes: Sequence[Outcome], steps: Sequence[Step], not_run: Sequence[Step] = ()
    ) -> None:
        width = max(len(s.name) for s in steps)
        print("\n=== summary", file=self.out)
        for o in outcomes:
            if o.step.pytest and o.returncode == NO_TESTS:
                state = "FAILED (no tests ran: pytest exit status 5)"
            elif o.step.pytest and o.returncode == INTERRUPTED:
                state = "FAILED (interrupted: pytest exit status 2)"
            elif o.ok:
                state = "ok"
            else:
                state = f"FAILED (exit status {o.returncode})"
            print(f"{o.step.name:<{width}}  {o.seconds:4.0f} s  {state}: {o.last_words()}", file=self.out)
            for line in o.failures():
                print(f"{'':<{width}}    {line}", file=self.out)
        for s in not_run:
            print(f"{s.name:<{width}}  not run (stopped by signal {self.stopped_by})", file=self.out)
        print(total_line(outcomes), file=self.out)
        self.out.flush()


def total_line(outcomes: Sequence[Outcome]) -> str:
    """Every pytest pass's counts added up, as one plain line that CI reads ("total: N passed, N failed",
    errors counted as failures), since the summary above is the gate's own and not pytest's."""
    counts = {"passed": 0, "failed": 0, "skipped": 0}
    for o in outcomes:
        if not o.step.pytest:
            continue
        for number, kind in COUNT.findall(o.last_words()):
            counts["failed" if kind.startswith("error") else kind] += int(number)
    return f"total: {counts['passed']} passed, {counts['failed']} failed, {counts['skipped']} skipped"


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    extra: list[str] = []
    if "--" in args:
        cut = args.index("--")
        args, extra = args[:cut], args[cut + 1 :]
    parser = argparse.ArgumentParser(prog="tests/gate.py", description=__doc__.splitlines()[0])
    parser.add_argument("target", choices=("test", "check"))
    parser.add_argument("--workers", default="auto", help="pytest-xdist workers (-n); 0 runs in one process")
    ns = parser.parse_args(args)
    return Runner().run(plan(ns.target, ns.workers, extra))


if __name__ == "__main__":
    sys.exit(main())
