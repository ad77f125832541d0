"""``domestique run`` stopped by SIGTERM/SIGINT closes its gateway connection with 1000, the code that tells
Discord the session is over (any other code keeps the bot shown online until the session times out)."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

import pytest

from tests.support.fake_gateway import start_gateway

TOKEN = "dummy-token-never-printed.XYZ123"
# the real command, with discord.py's REST base and gateway pointed at the local fake
AT_FAKE = (
    "import sys, yarl, discord.http, discord.gateway; discord.http.Route.BASE = sys.argv[1]; "
    "discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(sys.argv[2]); "
    "from bot.cli import main; raise SystemExit(main(['run']))"
)


def _env(db: Path, shards: str = "") -> dict[str, str]:
    env = dict(os.environ)
    env.update(DISCORD_TOKEN=TOKEN, DOMESTIQUE_DB=str(db), PYTHONUNBUFFERED="1", DOMESTIQUE_SHARDS=shards)
    for name in ("DOMESTIQUE_DEV_GUILD", "DATABASE_URL"):
        env.pop(name, None)
    return env


async def _stop_after_ready(tmp_path: Path, sig: signal.Signals, shards: str = "") -> tuple[list[int | None], int]:
    gateway, runner = await start_gateway()
    try:
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-c",
            AT_FAKE,
            gateway.api,
            gateway.ws,
            env=_env(tmp_path / "live.db", shards),
            cwd=tmp_path,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        try:
            await asyncio.wait_for(gateway.identified.wait(), 60)
            await asyncio.sleep(0.5)  # READY handled, the client is idle in its gateway read
            proc.send_signal(sig)
            out, err = await asyncio.wait_for(proc.communicate(), 30)
            await asyncio.wait_for(gateway.closed.wait(), 10)
        finally:
            if proc.returncode is None:
                proc.kill()
                await proc.wait()
    finally:
        await runner.cleanup()
    text = (out + err).decode()
    assert "Traceback" not in text, text
    assert TOKEN not in text
    assert proc.returncode is not None
    return gateway.close_codes, proc.returncode


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
async def test_a_stop_signal_closes_the_gateway_with_1000(tmp_path: Path, sig: signal.Signals) -> None:
    codes, returncode = await _stop_after_ready(tmp_path, sig)
    assert returncode == 0
    assert codes == [1000]


async def test_a_sharded_process_closes_its_shards_with_1000(tmp_path: Path) -> None:
    codes, returncode = await _stop_after_ready(tmp_path, signal.SIGTERM, shards="0/1")
    assert returncode == 0
    assert codes == [1000]
