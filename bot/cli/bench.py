"""Benchmarks: figures printed, never asserted (tests do not fail on a slow machine)."""

from __future__ import annotations

import asyncio
import io
import random
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
    from bot.cli.sim import simulate
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
    from renderer.board import PNG_LEVEL, render_image

    drawn = render_image(states[1])
    size = drawn.size
    encode = _timed(lambda: drawn.save(io.BytesIO(), format="PNG", compress_level=PNG_LEVEL), runs)
    return (
        f"render board ({size[0]}x{size[1]}, 12 riders, 20 hexagons): median {statistics.median(times):.1f} ms, "
        f"p95 {_p95(times):.1f} ms over {runs} renders\n"
        f"PNG encoding alone of the same image: median {statistics.median(encode):.1f} ms "
        f"(render/encode ratio {statistics.median(times) / statistics.median(encode):.2f})"
    )


async def _bench_bot(races: int, decisions: int, path: str, think: float) -> list[float]:
    from bot.service.races import RaceService
    from bot.storage.sqlite import SqliteStorage
    from rules.registry import find_game

    storage = SqliteStorage(path)
    await storage.open()
    service = RaceService(storage)
    rules = find_game("leader1").rules
    timings: list[float] = []
    try:
        for n in range(races):
            channel = 1000 + n
            await service.new_race(1, channel, 1, "host", game="leader1", seed=n, pieces=3)
            await service.join(channel, 2, "guest")
            await service.start(channel, 1)

        async def drive(channel: int) -> None:
            pause = random.Random(channel)
            for _ in range(decisions):
                if think:
                    await asyncio.sleep(pause.uniform(0, 2 * think))  # people do not all click at once
                race = await storage.active_race(channel)
                if race is None:
                    return
                state = await service.state_of(race)
                decision = rules.pending(state)
                if decision is None:
                    return
                user = 1 if decision.player == "u1" else 2
                choices = [c for c in rules.choices(state, decision.player) if not c.anytime]
                index = len(choices) - 1 if decision.kind != "ride" else 0
                start = time.perf_counter()
                await service.decide(race.id, race.version, user, index)
                timings.append((time.perf_counter() - start) * 1000)

        await asyncio.gather(*(drive(1000 + n) for n in range(races)))
    finally:
        await storage.close()
    return timings


def bench_bot(races: int = 50, decisions: int = 6, think: float = 2.0) -> str:
    """p50 and p95 ms from a decision to its board image ready, with ``races`` races running at once.

    Two loads: each race's players take 0 to 2x``think`` seconds per decision (a busy evening),
    and a burst where every race decides at the same instant (the worst case).
    """
    import tempfile
    from pathlib import Path

    lines = []
    for label, pause in ((f"paced, one decision per race every ~{think:g} s", think), ("burst, all at once", 0.0)):
        with tempfile.TemporaryDirectory() as folder:
            timings = asyncio.run(_bench_bot(races, decisions, str(Path(folder) / "bench.db"), pause))
        lines.append(
            f"bot, {races} races ({label}): {len(timings)} decisions through the service layer and a "
            "real SQLite file, from decision to reply ready (with its board when the turn ends or a ride "
            f"is prompted): p50 {statistics.median(timings):.0f} ms, p95 {_p95(timings):.0f} ms"
        )
    return "\n".join(lines)
