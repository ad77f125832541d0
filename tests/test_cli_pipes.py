"""The command line stops quietly when its reader goes away (``domestique replay x.json | head``)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def test_replay_into_a_closed_pipe_ends_without_a_traceback(tmp_path: Path) -> None:
    record = tmp_path / "race.json"
    made = subprocess.run(
        [sys.executable, "-m", "bot.cli", "sim", "--game", "leader1", "--seed", "3", "--out", str(record)],
        capture_output=True,
        text=True,
        check=True,
    )
    assert record.exists(), made.stdout
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader has gone before the first line is written
    try:
        done = subprocess.run(
            [sys.executable, "-m", "bot.cli", "replay", str(record)],
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
        )
    finally:
        os.close(write_end)
    assert "Traceback" not in done.stderr
    assert done.returncode == 141
