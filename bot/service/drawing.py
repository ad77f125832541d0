"""Where boards are drawn: in a pool of worker processes, off the event loop and its GIL.

Drawing a board holds the GIL for its whole 10-20 ms, so threads give no parallelism and
stall the event loop (every other race's buttons wait). ``PoolDrawing`` sends the state to
a ``concurrent.futures.ProcessPoolExecutor``; a board is a pure function of its arguments,
so a worker gives the same bytes as the bot's own process would. A worker that dies (killed,
out of memory) breaks the whole pool: the pool is replaced and the board drawn again, so no
board is lost. ``ThreadDrawing`` (the default, used by tests and the demo) draws in a thread.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import threading
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from functools import partial
from typing import Protocol

from renderer.registry import paint
from rules.game import Choice

log = logging.getLogger("domestique")
RETRIES = 2  # a board is drawn again this many times on a fresh pool before giving up


class Drawing(Protocol):
    async def paint(
        self,
        game_id: str,
        state: object,
        *,
        highlight: Sequence[Choice],
        acting: Sequence[str],
        title: str,
        legend: Sequence[str],
    ) -> bytes | None: ...

    def close(self) -> None: ...


class ThreadDrawing:
    """Boards drawn in a thread of this process (no start-up cost; holds the GIL while drawing)."""

    async def paint(
        self,
        game_id: str,
        state: object,
        *,
        highlight: Sequence[Choice],
        acting: Sequence[str],
        title: str,
        legend: Sequence[str],
    ) -> bytes | None:
        return await asyncio.to_thread(
            paint, game_id, state, highlight=highlight, acting=acting, title=title, legend=legend
        )

    def close(self) -> None:
        pass


def _warm() -> None:
    """Run once in each new worker: load the painters before the first board is asked for."""
    from renderer.registry import find_painter

    find_painter("")


class PoolDrawing:
    """Boards drawn by ``workers`` processes (one per core by default), replaced if one dies."""

    def __init__(self, workers: int | None = None, *, context: str = "forkserver") -> None:
        self.workers = workers or os.cpu_count() or 1
        # forkserver: workers start from a clean server process, not a fork of the running
        # bot (its event loop, its database thread); the renderer is loaded there once
        self._context = multiprocessing.get_context(context)
        if context == "forkserver":
            self._context.set_forkserver_preload(["renderer", "rules"])
        self._executor: ProcessPoolExecutor | None = None
        self._lock = threading.Lock()
        self.replaced = 0  # pools replaced after a worker died

    def _pool(self) -> ProcessPoolExecutor:
        with self._lock:
            if self._executor is None:
                self._executor = ProcessPoolExecutor(self.workers, mp_context=self._context, initializer=_warm)
            return self._executor

    def _replace(self, broken: ProcessPoolExecutor) -> None:
        with self._lock:
            if self._executor is broken:  # another board may have replaced it already
                self._executor = None
                self.replaced += 1
        broken.shutdown(wait=False, cancel_futures=True)

    def start(self) -> None:
        """Start the workers now (a running bot has them warm before the first board)."""
        pool = self._pool()
        list(pool.map(_warm_result, range(self.workers)))

    async def paint(
        self,
        game_id: str,
        state: object,
        *,
        highlight: Sequence[Choice],
        acting: Sequence[str],
        title: str,
        legend: Sequence[str],
    ) -> bytes | None:
        job = partial(
            paint, game_id, state, highlight=list(highlight), acting=list(acting), title=title, legend=list(legend)
        )
        loop = asyncio.get_running_loop()
        for attempt in range(RETRIES + 1):
            pool = self._pool()
            try:
                return await loop.run_in_executor(pool, job)
            except BrokenProcessPool:
                log.warning("board worker died (attempt %d); drawing the board again on a new pool", attempt + 1)
                self._replace(pool)
                if attempt == RETRIES:
                    raise
        raise AssertionError("unreachable")

    def close(self) -> None:
        with self._lock:
            executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=True, cancel_futures=True)

    def worker_pids(self) -> list[int]:
        """The live workers' process ids (benchmarks read their memory; tests kill one)."""
        with self._lock:
            executor = self._executor
        processes = getattr(executor, "_processes", None) or {}
        return [p.pid for p in processes.values() if p.pid is not None]


def _warm_result(_: int) -> bool:
    _warm()
    return True
