"""The real bot process against a ``LoopbackDiscord``: started as ``domestique run`` is (``run_bot.py``),
its log collected line by line, stopped with SIGTERM (or killed, for a crash)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import sys
import tempfile
from pathlib import Path

from tests.support.loopback_discord.run_bot import READY, RESUMED
from tests.support.loopback_discord.server import LoopbackDiscord

NOT_OURS = ("voice will NOT be supported",)  # discord.py's start-up warnings about optional voice packages
RUN_BOT = Path(__file__).with_name("run_bot.py")
ROOT = Path(__file__).resolve().parents[3]
TOKEN = "loopback-token.never-printed.XYZ123"
LOG_LINE = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d+ (?P<level>[A-Z]+) ")


class BotProcess:
    """``async with BotProcess(fake, db) as bot:`` starts it and waits until it is ready; leaving stops it."""

    def __init__(self, fake: LoopbackDiscord, database: Path | str, *, second_timers: bool = False, **env: str) -> None:
        """``database``: an SQLite file (``DOMESTIQUE_DB``) or a ``postgresql://`` URL (``DATABASE_URL``)."""
        self.fake = fake
        self.database = str(database)
        self.second_timers = second_timers
        self.extra_env = env
        self.lines: list[str] = []  # the bot's stderr (its log), line by line
        self.proc: asyncio.subprocess.Process | None = None
        self._reader: asyncio.Task[None] | None = None

    async def __aenter__(self) -> BotProcess:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    def _env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("DOMESTIQUE_", "DATABASE_URL"))}
        env.update(
            DISCORD_TOKEN=TOKEN,
            LOOPBACK_API=self.fake.api_url,
            LOOPBACK_GATEWAY=self.fake.gateway_url,
            PYTHONUNBUFFERED="1",
            PYTHONPATH=str(ROOT),
        )
        if self.on_postgres:
            env["DATABASE_URL"] = self.database
        else:
            env["DOMESTIQUE_DB"] = self.database
        if self.second_timers:
            env["LOOPBACK_SECOND_TIMERS"] = "1"
        env.update(self.extra_env)
        return env

    @property
    def on_postgres(self) -> bool:
        return self.database.startswith(("postgresql://", "postgres://"))

    async def start(self, timeout: float = 60.0) -> None:
        """Start the process and wait until it has synced its commands and is ready on the gateway."""
        self.lines.clear()
        ready_before = self.count(READY)
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable,
            str(RUN_BOT),
            env=self._env(),
            cwd=tempfile.gettempdir() if self.on_postgres else Path(self.database.removeprefix("sqlite:///")).parent,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
        )
        self._reader = asyncio.create_task(self._read())
        await self.fake.wait_for(
            lambda: self.count(READY) > ready_before or self.exited,
            timeout=timeout,
            what="the bot process to be ready",
        )
        if self.exited:
            raise RuntimeError(f"the bot process ended at start ({self.proc.returncode}):\n{self.log}")

    async def _read(self) -> None:
        assert self.proc is not None and self.proc.stdout is not None
        while line := await self.proc.stdout.readline():
            self.lines.append(line.decode(errors="replace").rstrip("\n"))
            self.fake.changed()

    @property
    def exited(self) -> bool:
        return self.proc is not None and self.proc.returncode is not None

    @property
    def log(self) -> str:
        return "\n".join(self.lines)

    def count(self, text: str) -> int:
        """How many lines of the log contain ``text``."""
        return sum(text in line for line in self.lines)

    def tracebacks(self) -> int:
        return self.count("Traceback (most recent call last)")

    def errors(self) -> list[str]:
        """Log lines at WARNING or above, and anything Python printed outside the log (a traceback's start)."""
        out = []
        for line in self.lines:
            if any(text in line for text in NOT_OURS):
                continue
            level = LOG_LINE.match(line)
            if (level and level["level"] in ("WARNING", "ERROR", "CRITICAL")) or line.startswith("Traceback"):
                out.append(line)
        return out

    async def wait_resumed(self, before: int, timeout: float = 30.0) -> None:
        """Until the bot is back on the gateway after a drop: ``before`` is ``count(READY) + count(RESUMED)``
        taken before the fault."""
        await self.fake.wait_for(
            lambda: self.count(READY) + self.count(RESUMED) > before and self.fake.gateway.live,
            timeout=timeout,
            what="the bot back on the gateway",
        )

    async def stop(self, timeout: float = 30.0) -> int:
        """SIGTERM, as a service manager stops it; its exit code."""
        if self.proc is None:
            return 0
        if self.proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self.proc.send_signal(signal.SIGTERM)
            try:
                await asyncio.wait_for(self.proc.wait(), timeout)
            except TimeoutError:
                self.proc.kill()
                await self.proc.wait()
        if self._reader is not None:
            with contextlib.suppress(asyncio.CancelledError, TimeoutError):
                await asyncio.wait_for(self._reader, 5)
        return self.proc.returncode or 0

    async def kill(self) -> None:
        """kill -9: a crash, nothing closed."""
        if self.proc is not None and self.proc.returncode is None:
            self.proc.kill()
            await self.proc.wait()
        if self._reader is not None:
            with contextlib.suppress(asyncio.CancelledError, TimeoutError):
                await asyncio.wait_for(self._reader, 5)
