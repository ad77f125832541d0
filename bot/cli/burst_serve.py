"""One side of ``domestique bench bot --against``: bursts of the bot bench on request.

Run as a script by the interpreter of the checkout being measured (``DIR/.venv/bin/python
.../burst_serve.py RACES DECISIONS``), it imports *that* checkout's bench, so two versions of the
code run the same burst turn about on the same machine: one burst's figure moves by tens of
percent with the machine's state, two checkouts measured minutes apart cannot be compared. It
warms up with one burst, says ``ready``, then answers each line read with one burst's CPU per
decision: ``bot workers`` in ms. Any checkout whose ``bot.cli.bench._bench_bot`` takes (races,
decisions, url, think, drawing, cpu) can be measured: every one since the bench printed CPU.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path


def serve(races: int, decisions: int) -> None:
    from bot.cli.bench import _bench_bot
    from bot.service.drawing import PoolDrawing

    try:  # the collector at the pace that checkout's bot runs it
        from bot.service.collector import pace_collector
    except ImportError:  # a checkout from before it: Python's default pace
        pass
    else:
        pace_collector()
    drawing = PoolDrawing()
    drawing.start()
    try:
        with tempfile.TemporaryDirectory() as folder:  # warm: the workers' caches, as a running bot has them
            asyncio.run(_bench_bot(races, decisions, f"sqlite:///{Path(folder) / 'warm.db'}", 0.0, drawing, []))
        print("ready", flush=True)
        for _line in sys.stdin:
            with tempfile.TemporaryDirectory() as folder:
                cpu: list[float] = []
                url = f"sqlite:///{Path(folder) / 'burst.db'}"
                timings, _lags = asyncio.run(_bench_bot(races, decisions, url, 0.0, drawing, cpu))
            print(f"{1000 * cpu[0] / len(timings):.4f} {1000 * cpu[1] / len(timings):.4f}", flush=True)
    finally:
        drawing.close()


if __name__ == "__main__":
    serve(int(sys.argv[1]), int(sys.argv[2]))
