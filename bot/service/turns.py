"""Decisions worked on a few at a time, first come first served, so the event loop stays responsive.

The event loop runs, in each of its turns, one stretch of every task that is ready. When fifty
races decide at once, fifty decisions are ready, and a timer or a new click waits behind one
stretch of each of them (the loop's lag), while every decision advances a little at a time
and all of them finish late together. Here a decision waits for a turn (``Turns``: at most
``size`` at once, in the order they came) before its work on the loop, and gives the turn back
when it waits for its board (drawn in another process), so the loop never has more than a
few decisions' work queued and the first decisions asked are the first answered.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
from collections.abc import AsyncIterator

TURNS = 4  # decisions worked on at once: more only lengthen each turn of the loop (measured: lag 20-23 ms
# p95 with no limit, 13-17 with 4-6, 6-17 with 2, under load 3); an AI seat playing in a thread holds one

_held: contextvars.ContextVar[Turns | None] = contextvars.ContextVar("domestique_turn", default=None)


class Turns:
    def __init__(self, size: int = TURNS) -> None:
        self._free = asyncio.Semaphore(size)  # wakes its waiters in the order they came

    @contextlib.asynccontextmanager
    async def turn(self) -> AsyncIterator[None]:
        """Hold a turn for the block (or until ``give_back`` inside it)."""
        await self._free.acquire()
        token = _held.set(self)
        try:
            yield
        finally:
            if _held.get() is self:
                self._free.release()
            _held.reset(token)

    def give_back(self) -> None:
        """Give the current task's turn back early (it is about to wait on another process)."""
        if _held.get() is self:
            _held.set(None)
            self._free.release()
