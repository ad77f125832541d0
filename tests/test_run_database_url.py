"""``domestique run`` refuses a database setting it cannot use, in one line, before any network and without
printing a password: a malformed PostgreSQL URL, or a path that names no file (SQLite would give each
connection a private temporary database, where every command fails with "no such table")."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

TOKEN = "dummy-token-never-printed.XYZ123"
PASSWORD = "hunter2-not-printed"
# the real command, with discord.py's API base at a closed local port: had it gone on, it would say so
AT_LOCAL = (
    "import sys, discord.http; discord.http.Route.BASE = sys.argv[1]; "
    "from bot.cli import main; raise SystemExit(main(['run']))"
)


@pytest.mark.parametrize(
    ("setting", "said"),
    [
        ({"DATABASE_URL": f"postgresql://u:{PASSWORD}@[::1/x"}, "not a valid PostgreSQL URL (Invalid IPv6 URL)"),
        ({"DATABASE_URL": f"postgresql://u:{PASSWORD}@db:port/x"}, "not a valid PostgreSQL URL"),
        ({"DATABASE_URL": "sqlite:///"}, "sqlite:/// names no file"),
        ({"DOMESTIQUE_DB": ""}, "an empty database path names no file"),
        ({"DOMESTIQUE_DB": "   "}, "an empty database path names no file"),
        ({"DOMESTIQUE_DB": ":memory:"}, "a database in memory"),
    ],
)
def test_a_database_setting_that_cannot_work_is_refused_in_one_line(
    setting: dict[str, str], said: str, tmp_path: Path
) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "DOMESTIQUE_DB", "DOMESTIQUE_DEV_GUILD")}
    env.update(DISCORD_TOKEN=TOKEN, PYTHONUNBUFFERED="1", **setting)
    proc = subprocess.run(
        [sys.executable, "-c", AT_LOCAL, "http://127.0.0.1:9/api/v10"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
    )
    assert proc.returncode == 1
    assert "Traceback" not in proc.stderr
    line = proc.stderr.strip()
    assert "\n" not in line and line.startswith("domestique run: ") and said in line, proc.stderr
    assert PASSWORD not in proc.stderr + proc.stdout and TOKEN not in proc.stderr + proc.stdout
    assert list(tmp_path.iterdir()) == []  # no database file made
