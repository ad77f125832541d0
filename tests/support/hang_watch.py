"""A watch on a fixture's teardown that may hang: after a while of real time, what every thread and
every asyncio task is waiting on is kept for the test's report, and the test is failed.

Once in CI a test process waited for ever in a simcord test's teardown, its event loop idle with its
next timer 25 minutes away (simcord's clock is virtual: a timeout on the loop's time may never come).
pytest-timeout (pyproject.toml) ends such a test after ten minutes with the main thread's stack only:
the loop's ``select``. This watch, on real time, says what the loop's tasks and the other threads
were waiting for (``conftest.py`` adds it to the failed test's report)."""

from __future__ import annotations

import asyncio
import gc
import signal
import sys
import threading
import traceback
import types
from collections.abc import Iterator
from contextlib import contextmanager

DUMPS: dict[str, str] = {}  # by test id: what was waiting, for the report


def waiting(loop: asyncio.AbstractEventLoop | None) -> str:
    """Every thread's stack, and every task of ``loop`` down its chain of awaits."""
    parts = []
    names = {t.ident: t.name for t in threading.enumerate()}
    for ident, frame in sys._current_frames().items():
        parts.append(f"--- thread {names.get(ident, ident)}\n" + "".join(traceback.format_stack(frame)))
    for task in list(asyncio.all_tasks(loop)) if loop is not None else []:
        parts.append(f"--- task {task.get_name()}\n" + "\n".join(_awaits(task.get_coro())))
    # a task awaiting an async generator (a fixture's teardown) shows only the generator's step: the
    # suspended generators, found by the collector, show the rest
    for generator in gc.get_objects():
        if isinstance(generator, types.AsyncGeneratorType) and generator.ag_await is not None:
            parts.append(f"--- async generator {generator.__qualname__}\n" + "\n".join(_awaits(generator)))
    return "\n".join(parts)


_AWAITS = ("cr_await", "ag_await", "gi_yieldfrom")  # what a coroutine, async generator, generator awaits


def _awaits(awaitable: object) -> list[str]:
    """Where a coroutine waits: each frame of its chain of awaits, the innermost last."""
    lines = []
    while awaitable is not None:
        frame = next((f for k in ("cr_frame", "gi_frame", "ag_frame") if (f := getattr(awaitable, k, None))), None)
        if frame is not None:
            lines.append(f"  {frame.f_code.co_filename}:{frame.f_lineno} in {frame.f_code.co_name}")
        elif not any(hasattr(awaitable, k) for k in ("cr_await", "ag_await")):
            lines.append(f"  awaiting {awaitable!r}")
        awaitable = next((a for k in _AWAITS if (a := getattr(awaitable, k, None)) is not None), None)
    return lines


@contextmanager
def watched(test_id: str, what: str, seconds: float = 120.0) -> Iterator[None]:
    """Around a teardown step: if it takes ``seconds`` of real time, keep what is waiting under
    ``test_id`` and fail the test (pytest-timeout's alarm, sent now)."""
    loop = asyncio.get_running_loop()

    def hung() -> None:
        DUMPS[test_id] = f"{what} still waiting after {seconds:.0f} s:\n{waiting(loop)}"
        if signal.getsignal(signal.SIGALRM) not in (signal.SIG_DFL, signal.SIG_IGN, None):  # pytest-timeout's
            signal.pthread_kill(threading.main_thread().ident or 0, signal.SIGALRM)

    timer = threading.Timer(seconds, hung)
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()
