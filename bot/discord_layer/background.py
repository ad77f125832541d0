"""The bot's background loops (timers, the outbox, the health report): stopped the same way."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any


async def stopped(task: asyncio.Task[Any] | None) -> None:
    """Cancel ``task`` (if any) and wait until it has ended."""
    if task is None:
        return
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
