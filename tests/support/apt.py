"""Debian packages the suite needs (PostgreSQL's server, chromium), installed with apt-get when we are
root and they are missing. The suite runs in several processes at once (pytest-xdist): one installs
while the others wait on a lock and then find the package there, so two ``apt-get`` never meet on
dpkg's own lock."""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable
from pathlib import Path

LOCK = Path(tempfile.gettempdir()) / "domestique-apt.lock"


class CannotInstall(Exception):
    """The packages cannot be installed here; the message says why in one line."""


def installed(packages: list[str], present: Callable[[], bool]) -> None:
    """Make ``present()`` true by installing ``packages`` (``apt-get update`` first if a plain install
    fails), unless it already is (checked again once the lock is held: another process may have
    installed them meanwhile)."""
    if present():
        return
    named = " ".join(packages)
    if os.geteuid() != 0 or shutil.which("apt-get") is None:
        raise CannotInstall(f"cannot install {named} here: run `apt-get install {named}` as root")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    install = ["apt-get", "install", "-y", "-q", "--no-install-recommends", *packages]
    with LOCK.open("a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            if present():
                return
            if subprocess.run(install, env=env, capture_output=True).returncode != 0:
                subprocess.run(["apt-get", "update", "-q"], env=env, capture_output=True)
                done = subprocess.run(install, env=env, capture_output=True, text=True)
                if done.returncode != 0:
                    last = (done.stderr.strip().splitlines() or ["no output"])[-1]
                    raise CannotInstall(f"`apt-get install {named}` failed: {last}")
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
