"""A throw-away PostgreSQL server for the tests, and a fresh schema per test.

The tests find a server through ``ADMIRALTY_TEST_DATABASE_URL`` (a ``postgresql://`` URL of a role
that may CREATE SCHEMA in its database). Without it, :func:`start` runs one itself: it finds ``initdb`` and
``pg_ctl`` (PATH, then ``/usr/lib/postgresql/*/bin``, newest first), ``initdb``s a temporary
directory, and starts the server on a free port of 127.0.0.1 only (its socket in that directory,
trust authentication, fsync off: nothing here needs to survive). PostgreSQL refuses to run as
root, so as root the server runs as the ``postgres`` user (Debian's package makes it) or else
``nobody``, through ``runuser`` (or ``setpriv``). :meth:`TempPostgres.stop` stops it and deletes
the directory.

The server never outlives the process that started it: a watchdog (its own session, so a Ctrl-C to the
terminal's process group does not reach it) holds the read end of a pipe whose only writer is that
process. When the process ends in any way (a clean exit, SIGTERM, Ctrl-C, even SIGKILL) the kernel
closes the pipe, and the watchdog stops the server and deletes its directory. pytest-xdist runs one
server per worker, so each worker's server lives and dies with that worker.
"""

from __future__ import annotations

import glob
import itertools
import os
import pwd
import shutil
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

ENV_URL = "ADMIRALTY_TEST_DATABASE_URL"
SUPERUSER = "admiralty"


class Unavailable(Exception):
    """No PostgreSQL could be found or started; the message says why."""


def find_bindir() -> Path | None:
    """The directory holding initdb, pg_ctl and postgres, or None."""
    candidates: list[Path] = []
    found = shutil.which("pg_ctl")
    if found:
        candidates.append(Path(found).resolve().parent)
    versions = sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: _version_key(p), reverse=True)
    candidates += [Path(p) for p in versions]
    for d in candidates:
        if all(
            (d / exe).is_file() and os.access(d / exe, os.X_OK) for exe in ("initdb", "pg_ctl", "postgres")
        ):
            return d
    return None


def _version_key(path: str) -> tuple[int, ...]:
    part = Path(path).parent.name
    return tuple(int(x) for x in part.split(".") if x.isdigit()) or (0,)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class TempPostgres:
    def __init__(self, bindir: Path):
        self.bindir = bindir
        self.dir: Path | None = None
        self.port: int | None = None
        self.prefix: list[str] = []
        self._lifeline: int | None = None  # the write end of the watchdog's pipe (see the module's text)
        self._watchdog: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"postgresql://{SUPERUSER}@127.0.0.1:{self.port}/postgres"

    def _as_user(self) -> tuple[list[str], int | None, int | None]:
        if os.geteuid() != 0:
            return [], None, None
        for name in ("postgres", "nobody"):
            try:
                pw = pwd.getpwnam(name)
            except KeyError:
                continue
            if shutil.which("runuser"):
                return ["runuser", "-u", name, "--"], pw.pw_uid, pw.pw_gid
            if shutil.which("setpriv"):
                return (
                    ["setpriv", f"--reuid={pw.pw_uid}", f"--regid={pw.pw_gid}", "--clear-groups", "--"],
                    pw.pw_uid,
                    pw.pw_gid,
                )
            raise Unavailable("running as root, and neither runuser nor setpriv is there to drop privileges")
        raise Unavailable("running as root, and there is no postgres or nobody user to run PostgreSQL as")

    def _run(self, *args: str, timeout: float = 120) -> None:
        proc = subprocess.run(
            [*self.prefix, *args], capture_output=True, text=True, timeout=timeout, cwd=self.dir
        )
        if proc.returncode != 0:
            log = self.dir / "server.log" if self.dir else None
            tail = log.read_text(errors="replace")[-2000:] if log and log.exists() else ""
            raise Unavailable(
                f"{Path(args[0]).name} failed ({proc.returncode}): {proc.stderr.strip()[-2000:]}"
                f"{chr(10) + tail if tail else ''}"
            )

    def start(self) -> TempPostgres:
        self.prefix, uid, gid = self._as_user()
        self.dir = Path(tempfile.mkdtemp(prefix="admiralty-pg-"))
        if uid is not None:
            os.chown(self.dir, uid, gid)
        data = self.dir / "data"
        try:
            self._start_watchdog()
            self._run(
                str(self.bindir / "initdb"),
                "-D",
                str(data),
                "-U",
                SUPERUSER,
                "--auth=trust",
                "-E",
                "UTF8",
                "--no-locale",
                "--no-sync",
            )
            for attempt in range(3):
                self.port = _free_port()
                options = (
                    f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.dir} -c fsync=off "
                    "-c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
                )
                try:
                    self._run(
                        str(self.bindir / "pg_ctl"),
                        "-D",
                        str(data),
                        "-l",
                        str(self.dir / "server.log"),
                        "-w",
                        "-t",
                        "60",
                        "-o",
                        options,
                        "start",
                    )
                    break
                except Unavailable:
                    if attempt == 2:
                        raise
        except BaseException:
            self.stop()
            raise
        return self

    def stop(self) -> None:
        if self.dir is None:
            return
        _stop_and_remove([*self.prefix, str(self.bindir / "pg_ctl")], self.dir)
        self.dir = None
        if self._lifeline is not None:
            os.close(self._lifeline)  # nothing left for the watchdog to do: it sees the end and exits
            self._lifeline = None
        if self._watchdog is not None:
            try:
                self._watchdog.wait(timeout=60)
            except subprocess.TimeoutExpired:
                self._watchdog.kill()
            self._watchdog = None

    def _start_watchdog(self) -> None:
        assert self.dir is not None
        read_end, self._lifeline = os.pipe()  # not inheritable: only the watchdog gets read_end
        try:
            self._watchdog = subprocess.Popen(
                [
                    sys.executable,
                    "-c",
                    _WATCHDOG,
                    str(read_end),
                    str(self.dir),
                    *self.prefix,
                    str(self.bindir / "pg_ctl"),
                ],
                pass_fds=(read_end,),
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                start_new_session=True,
                cwd=self.dir,
            )
        finally:
            os.close(read_end)


def _stop_and_remove(pg_ctl: list[str], directory: Path) -> None:
    """Stop the server whose data is in ``directory``/data (if it runs) and delete ``directory``."""
    data = directory / "data"
    if (data / "postmaster.pid").exists():
        subprocess.run(
            [*pg_ctl, "-D", str(data), "-m", "immediate", "-w", "stop"],
            capture_output=True,
            timeout=60,
            cwd=directory,
        )
    shutil.rmtree(directory, ignore_errors=True)


# The watchdog's program (python -c): argv = [read end of the lifeline, the server's directory, the
# pg_ctl command]. It blocks on the pipe until every writer is gone, then cleans up. It imports this
# module by path, so that the stop is the same code as TempPostgres.stop's.
_WATCHDOG = f"""
import importlib.util, os, sys
from pathlib import Path
fd, directory, pg_ctl = int(sys.argv[1]), Path(sys.argv[2]), sys.argv[3:]
while os.read(fd, 1):
    pass
spec = importlib.util.spec_from_file_location("admiralty_test_pg", {str(Path(__file__).resolve())!r})
pg = importlib.util.module_from_spec(spec)
spec.loader.exec_module(pg)
pg._stop_and_remove(pg_ctl, directory)
"""


def start() -> tuple[str, TempPostgres | None]:
    """(admin URL, the server to stop or None): ADMIRALTY_TEST_DATABASE_URL, else a throw-away server.
    Raises Unavailable with the reason when neither is possible."""
    url = os.environ.get(ENV_URL, "").strip()
    if url:
        return url, None
    bindir = find_bindir()
    if bindir is None:
        raise Unavailable(
            f"no PostgreSQL binaries (initdb, pg_ctl, postgres) on PATH or in /usr/lib/postgresql/*/bin, "
            f"and {ENV_URL} is not set (Debian: apt-get install postgresql)"
        )
    server = TempPostgres(bindir).start()
    return server.url, server


_names = itertools.count(1)


def with_search_path(url: str, schema: str) -> str:
    """``url`` with ``search_path`` set to ``schema`` (asyncpg passes unknown query parameters to the
    server as settings), so everything the storage creates and reads lives in that schema."""
    return f"{url}{'&' if '?' in url else '?'}search_path={schema}"


async def create_schema(admin_url: str) -> tuple[str, str]:
    """A new empty schema on the server's database, for one test: (a URL that uses it, its name).
    Much cheaper than a database per test (a millisecond against about a second), as isolated."""
    import asyncpg

    name = f"admiralty_test_{os.getpid()}_{next(_names)}"
    conn = await asyncpg.connect(admin_url)
    try:
        await conn.execute(f'DROP SCHEMA IF EXISTS "{name}" CASCADE')
        await conn.execute(f'CREATE SCHEMA "{name}"')
    finally:
        await conn.close()
    return with_search_path(admin_url, name), name


async def drop_schema(admin_url: str, name: str) -> None:
    import asyncpg

    conn = await asyncpg.connect(admin_url)
    try:
        await conn.execute(f'DROP SCHEMA IF EXISTS "{name}" CASCADE')
    finally:
        await conn.close()
