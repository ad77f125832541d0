"""Issue 26: ``domestique run`` serves the pages with DOMESTIQUE_WEB=host:port (a bad value fails in one
line), and ``domestique demo --web`` plays the demo race, then serves its page, the URL on a line of
its own, until interrupted."""

from __future__ import annotations

import asyncio
import os
import random
import re
import signal
import socket
import sys
from pathlib import Path

import aiohttp

from bot.storage.sqlite import SqliteStorage
from tests.support.fake_gateway import start_gateway
from tests.support.sockets import is_running, parent_of, server_pid
from tests.support.web_race import CHANNEL, play_race
from tests.test_run_gateway_close import AT_FAKE, _env


def _free_port() -> int:
    """A port free now for a child process to bind, below the kernel's range for ports it hands out
    itself (32768-60999): the suite's other processes, connecting meanwhile, cannot be given it."""
    picks = random.Random()
    while True:
        port = picks.randrange(20000, 32000)
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port


async def _get(url: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as session, session.get(url) as response:
        return response.status, await response.text()


async def test_domestique_run_serves_the_pages_beside_the_bot(tmp_path: Path) -> None:
    db = tmp_path / "live.db"
    storage = SqliteStorage(str(db))
    await storage.open()
    await play_race(storage, "leader1", decisions=3)
    race = await storage.active_race(CHANNEL)
    token = await storage.web_token("race", race.id)
    await storage.close()
    port = _free_port()
    gateway, runner = await start_gateway()
    env = {**_env(db), "DOMESTIQUE_WEB": f"127.0.0.1:{port}", "DOMESTIQUE_PUBLIC_URL": "https://races.example.org"}
    try:
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-c",
            AT_FAKE,
            gateway.api,
            gateway.ws,
            env=env,
            cwd=tmp_path,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        try:
            await asyncio.wait_for(gateway.identified.wait(), 60)
            status, page = await _get(f"http://127.0.0.1:{port}/r/{token}")
            assert status == 200 and "Standings" in page
            assert (await _get(f"http://127.0.0.1:{port}/r/{'x' * 22}"))[0] == 404
            # answered by a process of the bot's own, not by the bot's event loop
            pages_pid = server_pid(port)
            assert pages_pid != proc.pid and parent_of(pages_pid) == proc.pid
            proc.send_signal(signal.SIGTERM)
            out, err = await asyncio.wait_for(proc.communicate(), 30)
        finally:
            if proc.returncode is None:
                proc.kill()
                await proc.wait()
    finally:
        await runner.cleanup()
    text = (out + err).decode()
    assert proc.returncode == 0 and "Traceback" not in text, text
    assert "web pages on 127.0.0.1" in text and "linked as https://races.example.org" in text
    assert token not in text  # a page's token is its key: never logged
    assert not is_running(pages_pid)  # the pages' process ended with the bot


async def test_a_bad_web_address_fails_in_one_line(tmp_path: Path) -> None:
    env = {**_env(tmp_path / "x.db"), "DOMESTIQUE_WEB": "somewhere"}
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot.cli",
        "run",
        env=env,
        cwd=tmp_path,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    _, err = await asyncio.wait_for(proc.communicate(), 60)
    assert proc.returncode == 1
    assert err.decode().strip().splitlines() == [
        "domestique run: DOMESTIQUE_WEB='somewhere': expected host:port, e.g. 127.0.0.1:8080"
    ]


async def test_demo_web_prints_the_race_page_and_serves_it_until_interrupted(tmp_path: Path) -> None:
    port = _free_port()
    env = {**os.environ, "DOMESTIQUE_WEB": f"127.0.0.1:{port}", "PYTHONUNBUFFERED": "1"}
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot.cli",
        "demo",
        "--web",
        "--out",
        str(tmp_path / "demo"),
        env=env,
        cwd=tmp_path,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        url = ""
        async with asyncio.timeout(120):
            while not url:
                line = (await proc.stdout.readline()).decode()
                assert line, "the demo ended without printing its page's address"
                if re.fullmatch(rf"http://127\.0\.0\.1:{port}/r/[\w-]{{20,}}\n", line):
                    url = line.strip()
        status, page = await _get(url)
        assert status == 200 and "Finish" in page and "Replay" in page
        pages_pid = server_pid(port)
        assert pages_pid != proc.pid and parent_of(pages_pid) == proc.pid  # served as `domestique run` serves it
        proc.send_signal(signal.SIGINT)
        await asyncio.wait_for(proc.wait(), 30)
        assert proc.returncode == 0
        assert not is_running(pages_pid)  # the page's process ended with the demo
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
