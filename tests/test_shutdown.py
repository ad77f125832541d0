"""``domestique run`` as a real process: one-line failures, and SIGTERM closes the bot cleanly (exit 0)."""

from __future__ import annotations

import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bot.storage.sqlite import SqliteStorage

TOKEN = "dummy-token-never-printed.XYZ123"
# the real command, with discord.py's API base pointed at a local address (no network is used)
AT_LOCAL = (
    "import sys, discord.http; discord.http.Route.BASE = sys.argv[1]; "
    "from bot.cli import main; raise SystemExit(main(['run']))"
)


def _env(db: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(DISCORD_TOKEN=TOKEN, DOMESTIQUE_DB=str(db), PYTHONUNBUFFERED="1")
    env.pop("DOMESTIQUE_DEV_GUILD", None)
    return env


async def _make_db(path: Path) -> None:
    storage = SqliteStorage(str(path))
    await storage.open()
    await storage.close()


def _integrity(path: Path) -> str:
    with sqlite3.connect(path) as conn:
        return str(conn.execute("PRAGMA integrity_check").fetchone()[0])


async def test_a_newer_schema_fails_in_one_line_before_any_network(tmp_path: Path) -> None:
    db = tmp_path / "newer.db"
    await _make_db(db)
    with sqlite3.connect(db) as conn:
        conn.execute("INSERT INTO schema_version VALUES (999)")
    # an unreachable API base: had the process touched the network, it would say so instead
    proc = subprocess.run(
        [sys.executable, "-c", AT_LOCAL, "http://127.0.0.1:9/api/v10"],
        env=_env(db),
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
    )
    assert proc.returncode == 1
    last = proc.stderr.strip().splitlines()[-1]
    assert "newer Domestique (schema 999" in last
    assert "Traceback" not in proc.stderr
    assert "connecting to Discord" not in proc.stderr
    assert TOKEN not in proc.stderr + proc.stdout


def test_no_network_is_one_line_and_exit_1(tmp_path: Path) -> None:
    # port 9 (discard) on localhost refuses the connection, like a machine with no network
    proc = subprocess.run(
        [sys.executable, "-c", AT_LOCAL, "http://127.0.0.1:9/api/v10"],
        env=_env(tmp_path / "d.db"),
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
    )
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    assert proc.stderr.strip().splitlines()[-1].startswith("domestique run: cannot reach Discord")
    assert TOKEN not in proc.stderr + proc.stdout


def test_the_real_command_without_network_or_with_a_bad_token_fails_in_one_line(tmp_path: Path) -> None:
    # offline: cannot reach Discord; online: Discord refuses the dummy token. Either way one line, exit 1.
    proc = subprocess.run(
        [sys.executable, "-m", "bot.cli", "run"],
        env=_env(tmp_path / "d.db"),
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
    )
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    last = proc.stderr.strip().splitlines()[-1]
    assert last.startswith(("domestique run: cannot reach Discord", "domestique run: Discord refused the token"))
    assert TOKEN not in proc.stderr + proc.stdout


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
async def test_sigterm_while_connecting_closes_cleanly_and_exits_0(tmp_path: Path, sig: signal.Signals) -> None:
    db = tmp_path / "live.db"
    await _make_db(db)
    # a server that accepts and never answers: the login hangs, as on a stalled network
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(8)
        base = f"http://127.0.0.1:{server.getsockname()[1]}/api/v10"
        proc = subprocess.Popen(
            [sys.executable, "-c", AT_LOCAL, base],
            env=_env(db),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=tmp_path,
        )
        try:
            server.settimeout(60)
            conn, _ = server.accept()  # the process is now mid-connection
            time.sleep(0.3)
            proc.send_signal(sig)
            out, err = proc.communicate(timeout=10)
            conn.close()
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    assert proc.returncode == 0, err
    assert "Traceback" not in err
    assert TOKEN not in out + err
    assert _integrity(db) == "ok"
