"""A throw-away PostgreSQL server for the tests, and a fresh schema per test.

The tests find a server through ``ADMIRALTY_TEST_DATABASE_URL`` (a ``postgresql://`` URL of a role
that may CREATE SCHEMA in its database). Without it, :func:`start` runs one itself: it finds ``initdb`` and
``pg_ctl`` (PATH, then ``/usr/lib/postgresql/*/bin``, newest first), ``initdb``s a temporary
directory, and starts the server on a free port of 127.0.0.1 only (its socket in that directory,
trust authentication, fsync off: nothing here needs to survive). PostgreSQL refuses to run as
root, so as root the server runs as the ``postgres`` user (Debian's package makes it) or else
``nobody``, through ``runuser`` (or ``setpriv``). :meth:`TempPostgres.stop` stops it and deletes
the directory.
"""

from __future__ import annotations

import glob
import itertools
import os
import pwd
import shutil
import socket
import subprocess
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
        data = self.dir / "data"
        if (data / "postmaster.pid").exists():
            subprocess.run(
                [*self.prefix, str(self.bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop"],
                capture_output=True,
                timeout=60,
                cwd=self.dir,
            )
        shutil.rmtree(self.dir, ignore_errors=True)
        self.dir = None


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
