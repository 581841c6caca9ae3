"""A sampling profiler of CPU time, not wall time: a process's stacks sampled every ``interval`` seconds
of the CPU it spends (``ITIMER_PROF``), written as collapsed stacks (``a;b;c count`` a line, root
first: flamegraph.pl's and speedscope's input).

Why not py-spy or cProfile for the load bench: both count wall time, and on a machine whose load is
several times its cores a process is preempted anywhere, most often on its way out of a system call,
so they charge sockets, clocks and queue hand-offs with time the process spent waiting for a core.

The signal is handled in the main thread (Python's rule), so a sample is the main thread's stack even
when another thread (SQLite's) spent the CPU: there it shows as the main thread waiting in the
selector. Used by ``bench/bench_load.py --cpu-profile`` (the bot, through a ``sitecustomize``) and by
``--cpu-profile`` for the bench's own process (the fake Discord and the members)."""

from __future__ import annotations

import collections
import os
import signal
import sys
from pathlib import Path
from types import CodeType, FrameType

ENVIRONMENT = "ADMIRALTY_CPU_SAMPLES"  # a path: sample this process, SIGUSR1 starts, SIGUSR2 writes
INTERVAL = 0.002


def _where(code: CodeType) -> str:
    filename = code.co_filename
    for marker in ("/site-packages/", "/lib/python3."):
        if marker in filename:
            filename = filename.split(marker, 1)[1]
            break
    else:
        filename = "/".join(filename.rsplit("/", 2)[-2:])
    return f"{code.co_qualname} ({filename})"


class Sampler:
    def __init__(self, interval: float = INTERVAL) -> None:
        self.interval = interval
        self.counts: collections.Counter[tuple[CodeType, ...]] = collections.Counter()

    def _sample(self, signum: int, frame: FrameType | None) -> None:
        stack = []
        while frame is not None:
            stack.append(frame.f_code)
            frame = frame.f_back
        self.counts[tuple(stack)] += 1

    def start(self) -> None:
        self.counts.clear()
        signal.signal(signal.SIGPROF, self._sample)
        signal.setitimer(signal.ITIMER_PROF, self.interval, self.interval)

    def stop(self) -> None:
        signal.setitimer(signal.ITIMER_PROF, 0, 0)

    def collapsed(self) -> str:
        folded: collections.Counter[str] = collections.Counter()
        for stack, n in self.counts.items():
            folded[";".join(_where(code) for code in reversed(stack))] += n
        return "".join(f"{stack} {n}\n" for stack, n in folded.most_common())

    def write(self, path: str | Path) -> None:
        Path(path).write_text(self.collapsed())


def from_environment() -> None:
    """In a process started with ADMIRALTY_CPU_SAMPLES=<path> (and not in its children: the variable is
    taken out): SIGUSR1 starts sampling, SIGUSR2 stops it and writes the stacks to <path>."""
    path = os.environ.pop(ENVIRONMENT, None)
    if not path:
        return
    sampler = Sampler()

    def begin(signum: int, frame: FrameType | None) -> None:
        sampler.start()

    def end(signum: int, frame: FrameType | None) -> None:
        sampler.stop()
        sampler.write(path + ".part")
        os.replace(path + ".part", path)

    signal.signal(signal.SIGUSR1, begin)
    signal.signal(signal.SIGUSR2, end)


def top(path: str | Path, limit: int = 40, own: bool = True) -> str:
    """The functions with the most samples (own: at the top of the stack; else anywhere in it)."""
    counts: collections.Counter[str] = collections.Counter()
    total = 0
    for line in Path(path).read_text().splitlines():
        stack, _, n = line.rpartition(" ")
        frames = stack.split(";")
        total += int(n)
        for f in [frames[-1]] if own else set(frames):
            counts[f] += int(n)
    rows = [f"{100 * n / max(1, total):5.1f} %  {f}" for f, n in counts.most_common(limit)]
    return f"{total} samples\n" + "\n".join(rows)


if __name__ == "__main__":
    print(top(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 40, own="--incl" not in sys.argv))
