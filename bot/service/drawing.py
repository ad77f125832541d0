"""Where boards are drawn: in a pool of worker processes, off the event loop and its GIL.

Drawing a board holds the GIL for its whole 5-20 ms, so threads give no parallelism and
stall the event loop (every other race's buttons wait). ``PoolDrawing`` sends the state to
worker processes fed by the event loop itself (``bot/service/board_pool.py``); a board is a
pure function of its arguments, so a worker gives the same picture as the bot's own process
would. A worker that dies (killed, out of memory) is replaced and the board drawn again, so
no board is lost. ``ThreadDrawing`` (the default, used by tests and the demo) draws in a thread.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Sequence
from typing import Protocol

from bot.service.board_pool import BoardPool
from renderer.registry import paint
from rules.game import Choice
from rules.i18n import Language


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
        language: Language = "en",
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
        language: Language = "en",
    ) -> bytes | None:
        return await asyncio.to_thread(
            paint, game_id, state, highlight=highlight, acting=acting, title=title, legend=legend, language=language
        )

    def close(self) -> None:
        pass


def _warm() -> None:
    """Run once in each new worker: the collector's pace (``collector.py``), then the painters and the
    boards' palette loaded before the first board is asked for."""
    from bot.service.collector import pace_collector
    from renderer.encode import prepare
    from renderer.registry import find_painter

    pace_collector()
    find_painter("")
    prepare()


class PoolDrawing:
    """Boards drawn by ``workers`` processes (one per core by default), first asked first drawn,
    a dead worker replaced and its board drawn again (``bot/service/board_pool.py``)."""

    def __init__(self, workers: int | None = None, *, context: str = "forkserver") -> None:
        self.workers = workers or os.cpu_count() or 1
        # forkserver: workers start from a clean server process, not a fork of the running
        # bot (its event loop, its database thread); the renderer is loaded there once
        self._pool = BoardPool(self.workers, context=context, preload=["renderer", "rules"], warm=_warm)

    @property
    def replaced(self) -> int:
        """Workers replaced after one died."""
        return self._pool.replaced

    def start(self) -> None:
        """Start the workers now (a running bot has them warm before the first board)."""
        self._pool.start()

    async def paint(
        self,
        game_id: str,
        state: object,
        *,
        highlight: Sequence[Choice],
        acting: Sequence[str],
        title: str,
        legend: Sequence[str],
        language: Language = "en",
    ) -> bytes | None:
        # the worker draws inside ``speaking(language)`` (renderer.registry.paint): the language of the
        # moment is a context variable of this process and does not travel with the job
        board: bytes | None = await self._pool.run(
            paint,
            game_id,
            state,
            highlight=list(highlight),
            acting=list(acting),
            title=title,
            legend=list(legend),
            language=language,
        )
        return board

    def close(self) -> None:
        self._pool.close()

    def worker_pids(self) -> list[int]:
        """The live workers' process ids (benchmarks read their memory; tests kill one)."""
        return self._pool.pids()
