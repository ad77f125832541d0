"""Issue 26: the pages are served by a process of their own, so viewers take no time from the bot's
event loop. A decision made by the bot shows on the page within seconds; a web process that is
killed is started again on the same address; and it ends when the bot's process ends, even killed."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
import time
from pathlib import Path

import aiohttp

from bot.service.races import RaceService
from bot.storage import Storage
from bot.storage.sqlite import SqliteStorage
from bot.storage.url import storage_for
from bot.web.process import Settings, WebProcess
from tests.support.sockets import is_running, parent_of, server_pid
from tests.support.web_race import CHANNEL, decide_as_ai, play_race


async def _decide(service: RaceService, storage: Storage) -> int:
    """One decision in the race, as a click makes it: the race's version after it."""
    before = await storage.active_race(CHANNEL)
    assert before is not None and await decide_as_ai(service, storage)
    after = await storage.active_race(CHANNEL)
    assert after is not None and after.version > before.version
    return after.version


async def _get(url: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as session, session.get(url) as response:
        return response.status, (await response.read()).decode(errors="replace")


async def _version_shown(base: str, seen: int, wanted: int, seconds: float) -> float:
    """Ask for live updates as the page's script does until the page shows version ``wanted``: how long it took."""
    start = time.monotonic()
    while time.monotonic() - start < seconds:
        status, body = await _get(f"{base}/live?v={seen}")
        if status == 200 and json.loads(body)["version"] == wanted:
            return time.monotonic() - start
        await asyncio.sleep(0.2)
    raise AssertionError(f"the page did not show version {wanted} within {seconds} s")


async def test_the_pages_process_is_not_the_bots_and_shows_its_decisions_within_seconds(database_url: str) -> None:
    storage = storage_for(database_url)  # an SQLite file, and a PostgreSQL database
    await storage.open()
    service = await play_race(storage, "leader1", decisions=2)
    race = await storage.active_race(CHANNEL)
    token = await storage.web_token("race", race.id)
    pages = WebProcess(Settings(database_url), ("127.0.0.1", 0))
    await pages.start()
    try:
        base = f"http://127.0.0.1:{pages.port}/r/{token}"
        status, page = await _get(base)
        assert status == 200 and f'data-version="{race.version}"' in page
        served_by = server_pid(pages.port)
        assert served_by == pages.pid and served_by != os.getpid() and parent_of(served_by) == os.getpid()
        version = await _decide(service, storage)
        assert await _version_shown(base, race.version, version, seconds=5) < 5
        status, page = await _get(base)
        assert status == 200 and f'data-version="{version}"' in page
        status, board = await _get(f"http://127.0.0.1:{pages.port}/r/{token}/board/{version}.png")
        assert status == 200 and board.startswith("\ufffdPNG")  # drawn in the pages' process
    finally:
        await pages.stop()
        await storage.close()
    assert not is_running(served_by)


async def test_a_killed_pages_process_is_started_again_on_the_same_address(tmp_path: Path) -> None:
    storage = SqliteStorage(str(tmp_path / "live.db"))
    await storage.open()
    service = await play_race(storage, "leader1", decisions=1)
    race = await storage.active_race(CHANNEL)
    token = await storage.web_token("race", race.id)
    pages = WebProcess(Settings(storage.path), ("127.0.0.1", 0))
    await pages.start()
    try:
        base = f"http://127.0.0.1:{pages.port}/r/{token}"
        first = pages.pid
        assert first is not None
        os.kill(first, signal.SIGKILL)
        version = await _decide(service, storage)  # the bot goes on meanwhile
        start = time.monotonic()
        while pages.restarts == 0 and time.monotonic() - start < 30:
            await asyncio.sleep(0.1)
        assert pages.restarts == 1 and not is_running(first)
        status, page = await _get(base)
        assert status == 200 and f'data-version="{version}"' in page
        assert server_pid(pages.port) == pages.pid != first
    finally:
        await pages.stop()
        await storage.close()


PARENT = """
import asyncio, os, sys
from bot.web.process import Settings, WebProcess

async def main():
    pages = WebProcess(Settings(sys.argv[1]), ("127.0.0.1", 0))
    await pages.start()
    with open(sys.argv[2] + ".new", "w") as told:
        told.write(str(pages.pid))
    os.replace(sys.argv[2] + ".new", sys.argv[2])
    await asyncio.sleep(600)

asyncio.run(main())
"""


async def test_the_pages_process_ends_when_the_bots_process_is_killed(tmp_path: Path) -> None:
    storage = SqliteStorage(str(tmp_path / "live.db"))
    await storage.open()
    await storage.close()
    told = tmp_path / "pages.pid"  # not on the parent's stdout: the pages' process shares it
    parent = await asyncio.create_subprocess_exec(sys.executable, "-c", PARENT, storage.path, str(told), cwd=Path.cwd())
    try:
        start = time.monotonic()
        while not told.exists() and time.monotonic() - start < 60:
            await asyncio.sleep(0.1)
        child = int(told.read_text())
        assert is_running(child) and parent_of(child) == parent.pid
        parent.kill()  # no clean stop: SIGKILL
        await parent.wait()
        start = time.monotonic()
        while is_running(child) and time.monotonic() - start < 10:
            await asyncio.sleep(0.1)
        outlived = is_running(child)
        if outlived:
            os.kill(child, signal.SIGKILL)
        assert not outlived, "the pages' process outlived the bot"
    finally:
        if parent.returncode is None:
            parent.kill()
            await parent.wait()
