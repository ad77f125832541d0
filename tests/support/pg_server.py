"""A throwaway PostgreSQL server for the tests: its own data directory and a unix socket in /tmp.

The Debian server binaries are used (``/usr/lib/postgresql/N/bin``); if they are missing and
we are root, ``apt-get install postgresql`` brings them. ``initdb`` refuses to run as root,
so as root the server runs as the ``postgres`` user (or ``nobody``) in a directory it owns.
Durability is switched off (``fsync=off``): the tests kill bot processes, never the server.
"""

from __future__ import annotations

import asyncio
import glob
import os
import pwd
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

import asyncpg

from tests.support.apt import CannotInstall, installed

PORT = 5432  # names the socket file only: the server listens on no TCP port


class NoServer(Exception):
    """No PostgreSQL server can be started here; the message says why in one line."""


def _binaries() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4]))
    return Path(found[-1]).parent if found else None


def _install() -> None:
    try:
        installed(["postgresql"], lambda: _binaries() is not None)
    except CannotInstall as exc:
        raise NoServer(f"PostgreSQL server binaries are missing (/usr/lib/postgresql/*/bin): {exc}") from None


class PgServer:
    def __init__(self, *, durable: bool = False) -> None:
        self.durable = durable  # fsync as in production (benchmarks), or not (tests)
        self.bin = _binaries()
        if self.bin is None:
            _install()
            self.bin = _binaries()
        if self.bin is None:
            raise NoServer("`apt-get install postgresql` ran but left no /usr/lib/postgresql/*/bin/initdb")
        self.user: str | None = None
        if os.geteuid() == 0:
            self.user = next((u for u in ("postgres", "nobody") if _exists(u)), None)
            if self.user is None:
                raise NoServer("running as root with neither a postgres nor a nobody user for initdb")
        self.dir = Path(tempfile.mkdtemp(prefix="domestique-pg-"))
        if self.user is not None:
            entry = pwd.getpwnam(self.user)
            os.chown(self.dir, entry.pw_uid, entry.pw_gid)
        self.data = self.dir / "data"
        self.proc: subprocess.Popen[bytes] | None = None
        self._count = 0

    def _as_owner(self) -> dict[str, object]:
        """Popen arguments that run a program as the server's owner (when we are root)."""
        if self.user is None:
            return {}
        entry = pwd.getpwnam(self.user)
        return {"user": entry.pw_uid, "group": entry.pw_gid, "extra_groups": []}

    def _run(self, *args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(list(args), capture_output=True, text=True, cwd=self.dir, **self._as_owner())  # type: ignore[call-overload]

    def start(self) -> None:
        assert self.bin is not None
        initdb = [str(self.bin / "initdb"), "-D", str(self.data), "-U", "domestique", "--auth=trust", "-E", "UTF8"]
        made = self._run(*initdb, "--no-sync")
        if made.returncode != 0:
            last = (made.stderr.strip().splitlines() or ["no output"])[-1]
            raise NoServer(f"initdb failed: {last}")
        log = open(self.dir / "server.log", "wb")  # noqa: SIM115 - the server writes to it until stop()
        options = ["-c", "listen_addresses=", "-c", f"unix_socket_directories={self.dir}", "-p", str(PORT)]
        if not self.durable:
            options += ["-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"]
        options += ["-c", "max_connections=200", "-c", "shared_buffers=32MB"]
        self.proc = subprocess.Popen(
            [str(self.bin / "postgres"), "-D", str(self.data), *options],
            **self._as_owner(),  # type: ignore[arg-type]
            stdout=log,
            stderr=subprocess.STDOUT,
            cwd=self.dir,
        )
        log.close()
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                tail = (self.dir / "server.log").read_text(errors="replace").strip().splitlines()[-1:]
                raise NoServer(f"the PostgreSQL server stopped at start: {' '.join(tail)}")
            try:
                asyncio.run(self._query("SELECT 1"))
                return
            except (OSError, asyncpg.PostgresError):
                time.sleep(0.1)
        raise NoServer("the PostgreSQL server did not accept connections within 60 s")

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://domestique@/{database}?host={self.dir}&port={PORT}"

    async def _query(self, sql: str) -> None:
        conn = await asyncpg.connect(self.url())
        try:
            await conn.execute(sql)
        finally:
            await conn.close()

    def new_database(self) -> str:
        """A fresh empty database; its URL."""
        self._count += 1
        name = f"test_{os.getpid()}_{self._count}"
        asyncio.run(self._query(f"CREATE DATABASE {name}"))
        return self.url(name)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)  # fast shutdown
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        shutil.rmtree(self.dir, ignore_errors=True)


def _exists(user: str) -> bool:
    try:
        pwd.getpwnam(user)
    except KeyError:
        return False
    return True
