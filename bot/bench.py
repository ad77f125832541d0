"""Benchmarks: figures printed, never asserted (tests do not fail on a slow machine)."""

from __future__ import annotations

import io
import statistics
import time
from collections.abc import Callable


def _timed(fn: Callable[[], object], runs: int) -> list[float]:
    out = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        out.append((time.perf_counter() - start) * 1000)
    return out


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def bench_render(runs: int = 60) -> str:
    """Median and p95 ms to render a 12-rider, 20-hexagon stage mid-race (static road cached)."""
    from bot.sim import simulate
    from renderer import render_board
    from rules.leader1.engine import pending
    from rules.leader1.moves import ride_options
    from rules.record import replay

    record, _ = simulate("leader1", players=4, seed=11, stage="grand-tour")
    states = []
    for fraction in (0.2, 0.4, 0.6, 0.8):
        states.append(replay(record.with_actions(record.actions[: int(len(record.actions) * fraction)])).state)
    render_board(states[0])  # draws and caches the static road once
    times: list[float] = []
    for i in range(runs):
        state = states[i % len(states)]
        decision = pending(state)
        highlight = ride_options(state, decision.rider) if decision and decision.rider else None
        times += _timed(lambda s=state, h=highlight: render_board(s, highlight=h), 1)
    from renderer.board import render_image

    drawn = render_image(states[1])
    size = drawn.size
    encode = _timed(lambda: drawn.save(io.BytesIO(), format="PNG", compress_level=6), runs)
    return (
        f"render board ({size[0]}x{size[1]}, 12 riders, 20 hexagons): median {statistics.median(times):.1f} ms, "
        f"p95 {_p95(times):.1f} ms over {runs} renders\n"
        f"PNG encoding alone of the same image: median {statistics.median(encode):.1f} ms "
        f"(render/encode ratio {statistics.median(times) / statistics.median(encode):.2f})"
    )
