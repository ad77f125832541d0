"""What an operator watches (``docs/deploy.md``, ``/health`` on the web pages): this process's own
report, written to the database every few seconds, since the pages run in a process of their own.

A report says whether the gateway is connected, when the timer loop last passed and whether it is
still running, how late the event loop wakes (its lag), Discord's failures by kind, how many posts
were sent again and how many channels' posts wait in the outbox.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import time
from typing import Any

import discord

from bot.discord_layer.background import stopped
from bot.discord_layer.failures import FailureCounts
from bot.discord_layer.outbox import Outbox
from bot.shards import Shards
from bot.storage import Storage
from bot.storage.health_tables import REPORT_EVERY

log = logging.getLogger("domestique")


def process_name(shards: Shards | None) -> str:
    """This process as the health page names it: host, pid and its shards."""
    owned = "all" if shards is None or shards.all else str(shards)
    return f"{socket.gethostname()}:{os.getpid()} ({owned})"


class Health:
    def __init__(self, storage: Storage, outbox: Outbox, failures: FailureCounts, shards: Shards | None) -> None:
        self.storage = storage
        self.outbox = outbox
        self.failures = failures
        self.name = process_name(shards)
        self.last_pass: float | None = None  # the timer loop's last pass (wall clock)
        self.lag = 0.0  # how late the last report's sleep woke, seconds
        self.most_lag = 0.0
        self._client: discord.Client | None = None
        self._task: asyncio.Task[None] | None = None

    def timer_pass(self) -> None:
        """The timer loop finished a pass."""
        self.last_pass = time.time()

    async def start(self, client: discord.Client) -> None:
        self._client = client
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            await stopped(task)
            with contextlib.suppress(Exception):
                await self.storage.forget_health(self.name)

    def report(self, timers_running: bool) -> dict[str, Any]:
        client = self._client
        return {
            "gateway_connected": bool(client is not None and client.is_ready() and not client.is_closed()),
            "latency_ms": round(client.latency * 1000, 1)
            if client is not None and client.latency == client.latency
            else None,
            "timer_loop_running": timers_running,
            "timer_last_pass": self.last_pass,
            "event_loop_lag_ms": round(self.lag * 1000, 1),
            "event_loop_lag_max_ms": round(self.most_lag * 1000, 1),
            "discord_errors": dict(self.failures.by_kind),
            "posts_retried": self.failures.posts_retried,
            "posts_delivered_late": self.failures.posts_delivered_late,
            "channels_owed": len(self.outbox.owed),
        }

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            client = self._client
            timers = getattr(client, "_timers", None)
            running = isinstance(timers, asyncio.Task) and not timers.done()
            try:
                await self.storage.report_health(self.name, time.time(), self.report(running))
            except Exception as exc:  # the database is down: the page will show this report as stale
                log.warning("health: could not write this process's report (%s)", type(exc).__name__)
            asked = loop.time()
            await asyncio.sleep(REPORT_EVERY)
            self.lag = max(0.0, loop.time() - asked - REPORT_EVERY)
            self.most_lag = max(self.most_lag, self.lag)
