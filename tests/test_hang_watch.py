"""A teardown that hangs fails its test, with what every task and thread was waiting on in its report."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

HANGING = '''
import asyncio
import pytest
import pytest_asyncio
from tests.support.hang_watch import watched

async def hangs_here():
    await asyncio.Event().wait()

@pytest_asyncio.fixture
async def stuck(request):
    yield
    with watched(request.node.nodeid, "a stuck teardown", seconds=1):
        await hangs_here()

@pytest.mark.timeout(60)
async def test_with_a_stuck_teardown(stuck):
    pass
'''


def test_a_hung_teardown_fails_with_where_it_waited(tmp_path: Path) -> None:
    (tmp_path / "test_stuck.py").write_text(HANGING)
    (tmp_path / "conftest.py").write_text("from tests.conftest import pytest_runtest_makereport  # noqa: F401\\n")
    root = Path(__file__).resolve().parents[1]
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-n", "0", "-o", "asyncio_mode=auto", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(root)},
    )
    out = run.stdout
    assert run.returncode == 1, out
    assert "Timeout" in out and "what was waiting" in out and "a stuck teardown still waiting after 1 s" in out
    assert "in hangs_here" in out  # the task's chain of awaits, down to where it waits
    assert "--- thread MainThread" in out
