"""Which process answers a TCP port: the owner of the socket a server accepted our connection on
(Linux's /proc), so a test can tell the pages' process from the bot's."""

from __future__ import annotations

import os
import socket
from pathlib import Path


def _accepted_inode(port: int, client_port: int) -> str | None:
    """The inode of the server's end of our connection (local ``port``, remote ``client_port``)."""
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with open(table, encoding="ascii") as rows:
            next(rows)
            for row in rows:
                fields = row.split()
                local, remote, state, inode = fields[1], fields[2], fields[3], fields[9]
                ours = int(local.rsplit(":", 1)[1], 16) == port and int(remote.rsplit(":", 1)[1], 16) == client_port
                if state == "01" and ours:
                    return inode
    return None


def _owners(inode: str) -> set[int]:
    wanted = f"socket:[{inode}]"
    found: set[int] = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            for fd in (entry / "fd").iterdir():
                if os.readlink(fd) == wanted:
                    found.add(int(entry.name))
                    break
        except OSError:  # a process that ended, or one we may not read
            continue
    return found


def server_pid(port: int, host: str = "127.0.0.1") -> int:
    """The id of the process that accepted a connection to ``host:port`` and answered on it."""
    with socket.create_connection((host, port), timeout=10) as conn:
        conn.sendall(f"GET /static/web.css HTTP/1.1\r\nHost: {host}:{port}\r\n\r\n".encode())
        assert conn.recv(64).startswith(b"HTTP/1.1 200"), "no page answered"
        inode = _accepted_inode(port, conn.getsockname()[1])
        assert inode is not None, "the server's end of the connection is not in /proc/net/tcp"
        owners = _owners(inode)
    assert len(owners) == 1, f"the connection is held by {owners or 'no process'}"
    return owners.pop()


def parent_of(pid: int) -> int:
    """The id of ``pid``'s parent process."""
    stat = Path(f"/proc/{pid}/stat").read_text(encoding="ascii")
    return int(stat.rsplit(")", 1)[1].split()[1])


def is_running(pid: int) -> bool:
    """Whether ``pid`` runs (an ended process that nobody reaped yet, a zombie, does not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text(encoding="ascii")
    except FileNotFoundError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] not in ("Z", "X")
