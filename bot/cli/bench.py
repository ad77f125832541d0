"""Benchmarks: figures printed, never asserted (tests do not fail on a slow machine)."""

from __future__ import annotations

import asyncio
import contextlib
import io
import os
import random
import statistics
import time
import zlib
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from rules.game import Sample, Showcase
from rules.registry import AnyGame, featured, games


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


def _samples(pick: Callable[[Showcase], Sample | None]) -> list[tuple[AnyGame, Sample]]:
    """Each game's sample race for one benchmark (its showcase), featured game first."""
    found = [(game, sample) for game in games() if (sample := pick(game.showcase)) is not None]
    return sorted(found, key=lambda pair: not pair[0].showcase.featured)


def _sample_boards(game: AnyGame, sample: Sample) -> list[Callable[[], bytes]]:
    """The board of ``game``'s sample race at four moments where a piece chooses its square, highlighted
    as the bot posts it (the choices from the rules, through the registry's painter)."""
    from bot.cli.images import board, mid_race
    from bot.cli.sim import sample_race

    record, _ = sample_race(game, sample)
    return [partial(board, game.id, mid_race(record, fraction, 0.1), "") for fraction in (0.2, 0.4, 0.6, 0.8)]


_PIXELS: list[bytes] = []


def _keep_pixels(pixels: list[bytes]) -> None:
    """In the floor's own process: the boards' pixels, sent once."""
    _PIXELS[:] = pixels


def _zlib_floor_ms(index: int) -> float:
    """ms for ``zlib.compress`` (level 1) of one board's pixels, in a process without ISA-L."""
    return _timed(partial(zlib.compress, _PIXELS[index], 1), 1)[0]


def bench_render(runs: int = 60) -> str:
    """Median and p95 ms per board for both games, next to the zlib floor measured in the same run.

    The floor is ``zlib.compress`` (level 1) of the board's raw RGB pixels: what any lossless
    encoding of that picture costs at least. A board's time is drawing plus encoding; what is
    cached per track (glyphs, the circuit's whole view and map) is warmed by a first render
    of each board, left out, as a running bot has them warm.

    The floor is timed in a separate process that never draws a board: once ISA-L's deflate
    (the boards' encoder) has run in a process, the system zlib there is about twice as slow
    (measured on this AMD EPYC: 4.6 -> 8.8 ms for the same pixels), which would flatter the
    ratio. Board and floor still take turns, so on a shared machine both see the same load.
    """
    from concurrent.futures import ProcessPoolExecutor
    from multiprocessing import get_context

    from PIL import Image

    lines = []
    for game, sample in _samples(lambda showcase: showcase.bench_boards):
        name = sample.label
        boards = _sample_boards(game, sample)
        pngs = [board() for board in boards]  # warms the caches, as a race's first board does
        pixels = [Image.open(io.BytesIO(png)).convert("RGB").tobytes() for png in pngs]
        times: list[float] = []
        floor: list[float] = []
        with ProcessPoolExecutor(1, get_context("spawn"), initializer=_keep_pixels, initargs=(pixels,)) as clean:
            for i in range(runs):  # interleaved: on a shared machine both see the same load
                times += _timed(boards[i % len(boards)], 1)
                floor.append(clean.submit(_zlib_floor_ms, i % len(pixels)).result())
        median, p95, base = statistics.median(times), _p95(times), statistics.median(floor)
        size = Image.open(io.BytesIO(pngs[0])).size
        lines.append(
            f"{name} board ({size[0]}x{size[1]}): median {median:.1f} ms, p95 {p95:.1f} ms over {runs} renders | "
            f"zlib floor median {base:.1f} ms, p95 {_p95(floor):.1f} ms | ratio median {median / base:.2f}, "
            f"p95 {p95 / base:.2f} | PNG {min(map(len, pngs)) // 1024}-{max(map(len, pngs)) // 1024} KB"
        )
    lines.append(_fresh_states(max(8, runs // 5)))
    return "\n".join(lines)


def _fresh_states(runs: int) -> str:
    """The bot loads a new state (new Road and Track objects) for every board: caches must still hit."""
    from bot.cli.sim import sample_race
    from renderer.registry import paint
    from rules.record import replay

    game, sample = _samples(lambda showcase: showcase.bench_boards)[0]
    record, _ = sample_race(game, sample)
    prefix = record.with_actions(record.actions[: len(record.actions) // 2])
    paint(game.id, replay(prefix).state)
    states = [replay(prefix).state for _ in range(runs)]
    times: list[float] = []
    for state in states:
        times += _timed(partial(paint, game.id, state), 1)
    return (
        f"{game.title} board from a freshly loaded state each time (as the bot does): median "
        f"{statistics.median(times):.1f} ms, p95 {_p95(times):.1f} ms over {runs} renders"
    )


class _LagProbe:
    """How late the event loop wakes a task that sleeps ``tick`` seconds: what every other click waits."""

    def __init__(self, tick: float = 0.005) -> None:
        self.tick = tick
        self.lags: list[float] = []
        self._task: asyncio.Task[None] | None = None

    async def _run(self) -> None:
        while True:
            start = time.perf_counter()
            await asyncio.sleep(self.tick)
            self.lags.append(max(0.0, (time.perf_counter() - start - self.tick) * 1000))

    def start(self) -> None:
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task


def _rss_mb(pid: int | str = "self") -> float:
    """Resident memory of a process now, in MB (Linux /proc; 0 elsewhere)."""
    try:
        with open(f"/proc/{pid}/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except (OSError, ValueError, IndexError):
        return 0.0


def _cpu_seconds(pid: int) -> float:
    """CPU seconds (user + system) a process has used so far (Linux /proc; 0 elsewhere)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return 0.0


def _peak_mb(pid: int | str = "self") -> float:
    """The most resident memory a process has had (VmHWM), in MB (Linux /proc; 0 elsewhere)."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except (OSError, ValueError, IndexError):
        pass
    return 0.0


async def _open_races(service: Any, races: int, base: int = 1000) -> list[Any]:
    """``races`` two-player races of the featured game started; the first prompt of each."""
    prompts = []
    for n in range(races):
        channel = base + n
        await service.lobby.new_race(1, channel, 1, "host", game=featured().id, seed=n)
        await service.lobby.join(channel, 2, "guest")
        prompts.append(_prompt_of(await service.lobby.start(channel, 1)))
    return prompts


def _prompt_of(outcome: Any) -> Any:
    """The prompt an outcome posts (the buttons the next player clicks), if any."""
    return next((post.prompt for post in reversed(outcome.posts) if post.prompt is not None), None)


async def _click(service: Any, prompt: Any) -> Any:
    """The player clicks a button of the latest prompt, as in Discord: a square to ride to
    (the first) when every choice is one, else the last button (pass); the next prompt."""
    views = prompt.choices
    pick = views[0] if all(v.target for v in views) else views[-1]
    return _prompt_of(await service.core.decide(prompt.race_id, prompt.version, prompt.user_id, pick.index))


async def _decide_once(service: Any, storage: Any, rules: Any, channel: int) -> bool:
    """The player to act in ``channel`` picks a choice (the race read from the database first)."""
    race = await storage.active_race(channel)
    if race is None:
        return False
    state = await service.core.state_of(race)
    decision = rules.pending(state)
    if decision is None:
        return False
    user = 1 if decision.player == "u1" else 2
    choices = [c for c in rules.choices(state, decision.player) if not c.anytime]
    index = len(choices) - 1 if decision.kind != "ride" else 0
    await service.core.decide(race.id, race.version, user, index)
    return True


async def _bench_bot(
    races: int, decisions: int, url: str, think: float, drawing: Any, cpu: list[float] | None = None
) -> tuple[list[float], list[float]]:
    """Decision times and event-loop lags; ``cpu`` gets the CPU seconds of the bot process and of
    the board workers while the races decide (not while they open)."""
    from bot.service.races import RaceService
    from bot.storage.url import storage_for

    storage = storage_for(url)
    await storage.open()
    service = RaceService(storage, drawing=drawing)
    timings: list[float] = []
    probe = _LagProbe()
    base = 1000 + int(time.time() * 1000) % 1_000_000 * 1000  # fresh channels: a reused database keeps old races
    try:
        prompts = await _open_races(service, races, base=base)

        async def drive(channel: int, prompt: Any) -> None:
            pause = random.Random(channel)
            for _ in range(decisions):
                if prompt is None:
                    return
                if think:
                    await asyncio.sleep(pause.uniform(0, 2 * think))  # people do not all click at once
                start = time.perf_counter()
                prompt = await _click(service, prompt)
                timings.append((time.perf_counter() - start) * 1000)

        workers = drawing.worker_pids()
        before = (time.process_time(), sum(_cpu_seconds(pid) for pid in workers))
        probe.start()
        await asyncio.gather(*(drive(base + n, prompt) for n, prompt in enumerate(prompts)))
        if cpu is not None:
            cpu += [time.process_time() - before[0], sum(_cpu_seconds(pid) for pid in workers) - before[1]]
    finally:
        await probe.stop()
        for n in range(races):  # no bench race is left running (its timers would fire)
            left = await storage.active_race(base + n)
            if left is not None:
                await storage.set_status(left.id, left.version, "aborted")
        await storage.close()
    return timings, probe.lags


# ``--processes N``: several bot processes on one database (a shard cluster), boards in threads


async def _plain_bench_bot(
    races: int, decisions: int, url: str, think: float, base: int = 1000, ready: Callable[[], object] | None = None
) -> list[float]:
    from bot.service.races import RaceService
    from bot.storage.url import storage_for

    storage = storage_for(url)
    await storage.open()
    service = RaceService(storage)
    rules = featured().rules
    timings: list[float] = []
    try:
        for n in range(races):
            channel = base + n
            await service.lobby.new_race(1, channel, 1, "host", game=featured().id, seed=n)
            await service.lobby.join(channel, 2, "guest")
            await service.lobby.start(channel, 1)
        if ready is not None:
            ready()  # every process has its races: the load starts at the same moment in all of them

        async def drive(channel: int) -> None:
            pause = random.Random(channel)
            for _ in range(decisions):
                if think:
                    await asyncio.sleep(pause.uniform(0, 2 * think))  # people do not all click at once
                race = await storage.active_race(channel)
                if race is None:
                    return
                state = await service.core.state_of(race)
                decision = rules.pending(state)
                if decision is None:
                    return
                user = 1 if decision.player == "u1" else 2
                choices = [c for c in rules.choices(state, decision.player) if not c.anytime]
                index = len(choices) - 1 if decision.kind != "ride" else 0
                start = time.perf_counter()
                await service.core.decide(race.id, race.version, user, index)
                timings.append((time.perf_counter() - start) * 1000)

        await asyncio.gather(*(drive(base + n) for n in range(races)))
    finally:
        for n in range(races):  # no bench race is left running (its timers would fire)
            left = await storage.active_race(base + n)
            if left is not None:
                await storage.set_status(left.id, left.version, "aborted")
        await storage.close()
    return timings


def _process(races: int, decisions: int, url: str, think: float, base: int, barrier: Any, out: Any) -> None:
    """One bench process of several (``--processes``): its own races, the same database."""
    out.put(asyncio.run(_plain_bench_bot(races, decisions, url, think, base, barrier.wait)))


def _load(races: int, decisions: int, url: str, think: float, processes: int) -> list[float]:
    base = 1000 + int(time.time() * 1000) % 1_000_000 * 1000  # fresh channels: a reused database keeps old races
    if processes == 1:
        return asyncio.run(_plain_bench_bot(races, decisions, url, think, base))
    import multiprocessing

    context = multiprocessing.get_context("spawn")
    barrier, out = context.Barrier(processes), context.Queue()
    shares = [races // processes + (1 if i < races % processes else 0) for i in range(processes)]
    workers = [
        context.Process(target=_process, args=(share, decisions, url, think, base + i * 100_000, barrier, out))
        for i, share in enumerate(shares)
    ]
    for worker in workers:
        worker.start()
    timings: list[float] = []
    for _ in workers:
        timings += out.get(timeout=600)
    for worker in workers:
        worker.join()
    return timings


def bench_bot(
    races: int = 50,
    decisions: int = 6,
    think: float = 2.0,
    database: str = "",
    processes: int = 1,
    memory_races: int = 500,
    bursts: int = 1,
) -> str:
    """p50 and p95 ms from a decision to its board image ready, with ``races`` races running at once.

    Two loads: each race's players take 0 to 2x``think`` seconds per decision (a busy evening),
    and a burst where every race decides at the same instant (the worst case). A decision is
    a click on a button of the race's latest prompt, timed from the click to the reply ready.
    A third line is a single wave: each race's player clicks once, all at the same instant.
    Boards are drawn as ``domestique run`` draws them (worker processes, started before
    timing as a running bot has them), and the collector runs at the bot's pace
    (``bot/service/collector.py``). Beside each load: the event loop's lag (how late a
    5 ms sleep wakes up, p95 and max), the CPU time per decision of the bot process and of its
    board workers (the figure a shared machine's neighbours change least), and the peak
    memory of the bot and of its workers.
    With ``bursts`` > 1 the burst is run that many times more and the CPU per decision's median
    (and range) is printed: on a shared machine one burst's figure moves by ±0.5 ms.
    Last, what ``memory_races`` active races add to the bot's memory. ``database`` is a URL
    (default: a fresh SQLite file); ``processes`` > 1 splits the races among that many bot
    processes on the same database, as a shard cluster does (decision times only).
    """
    import tempfile
    from pathlib import Path

    from bot.service.collector import pace_collector

    pace_collector()  # as ``domestique run`` does

    from bot.service.drawing import PoolDrawing
    from bot.storage.url import shown

    lines = [f"database: {shown(database) if database else 'a fresh SQLite file'}"]
    loads = [(f"paced, one decision per race every ~{think:g} s", think), ("burst, all at once", 0.0)]
    if processes > 1:
        for label, pause in loads:
            with tempfile.TemporaryDirectory() as folder:
                url = database or f"sqlite:///{Path(folder) / 'bench.db'}"
                timings = _load(races, decisions, url, pause, processes)
            lines.append(
                f"bot, {races} races ({label}, {processes} processes): {len(timings)} decisions, decision to "
                f"reply ready: p50 {statistics.median(timings):.0f} ms, p95 {_p95(timings):.0f} ms"
            )
        return "\n".join(lines)
    drawing = PoolDrawing()
    drawing.start()
    # the last load is one more figure, not the burst's definition: every race's player clicks
    # once, all at the same instant (a single wave, where the burst above keeps clicking)
    loads.append(("one wave: every race clicks once, all at the same instant", 0.0))
    try:
        for label, pause in loads:
            with tempfile.TemporaryDirectory() as folder:
                url = database or f"sqlite:///{Path(folder) / 'bench.db'}"
                cpu: list[float] = []
                once = label.startswith("one wave")
                timings, lags = asyncio.run(_bench_bot(races, 1 if once else decisions, url, pause, drawing, cpu))
            workers = sum(_peak_mb(pid) for pid in drawing.worker_pids())
            lines.append(
                f"bot, {races} races ({label}): {len(timings)} decisions, decision to reply ready (board "
                f"included): p50 {statistics.median(timings):.0f} ms, p95 {_p95(timings):.0f} ms | event loop lag "
                f"p95 {_p95(lags):.1f} ms, max {max(lags):.1f} ms | CPU per decision: bot "
                f"{1000 * cpu[0] / len(timings):.1f} ms, board workers {1000 * cpu[1] / len(timings):.1f} ms | "
                f"peak memory: bot {_peak_mb():.0f} MB, {len(drawing.worker_pids())} board workers {workers:.0f} MB"
            )
        if bursts > 1:
            lines.append(_burst_cpu(races, decisions, database, drawing, bursts))
    finally:
        drawing.close()
    lines.append(bench_memory(memory_races))
    lines.append(bench_memory(memory_races, "random-20"))
    return "\n".join(lines)


def _burst_cpu(races: int, decisions: int, database: str, drawing: Any, bursts: int) -> str:
    """The burst's CPU per decision over ``bursts`` more bursts: median, and the range."""
    import tempfile
    from pathlib import Path

    bot: list[float] = []
    workers: list[float] = []
    for _ in range(bursts):
        with tempfile.TemporaryDirectory() as folder:
            url = database or f"sqlite:///{Path(folder) / 'bench.db'}"
            cpu: list[float] = []
            timings, _lags = asyncio.run(_bench_bot(races, decisions, url, 0.0, drawing, cpu))
        bot.append(1000 * cpu[0] / len(timings))
        workers.append(1000 * cpu[1] / len(timings))
    sums = [b + w for b, w in zip(bot, workers, strict=True)]
    return (
        f"burst CPU per decision over {bursts} more bursts, median (range): bot {statistics.median(bot):.1f} ms "
        f"({min(bot):.1f}-{max(bot):.1f}), board workers {statistics.median(workers):.1f} ms "
        f"({min(workers):.1f}-{max(workers):.1f}), sum {statistics.median(sums):.1f} ms "
        f"({min(sums):.1f}-{max(sums):.1f})"
    )


def burst_against(races: int, decisions: int, bursts: int, against: Sequence[str]) -> str:
    """The burst's CPU per decision of this checkout and of each checkout in ``against`` (a folder
    with its own ``.venv``), ``bursts`` bursts each, run turn about: the median and range of each.

    Each checkout runs in a process of its own interpreter (``burst_serve.py``), all started and
    warmed up first; then one burst at a time, in turn (the order reversed every round), so the
    machine's state, which moves one burst's figure by tens of percent, falls on all alike."""
    import subprocess
    import sys
    from pathlib import Path

    sides = [("this checkout", sys.executable, Path.cwd())]
    for folder in against:
        python = Path(folder) / ".venv" / "bin" / "python"
        if not python.exists():
            raise SystemExit(
                f"{folder} has no .venv: python3 -m venv {folder}/.venv && {folder}/.venv/bin/pip install -e {folder}"
            )
        sides.append((folder, str(python), Path(folder)))
    script = str(Path(__file__).with_name("burst_serve.py"))
    servers = [
        subprocess.Popen(
            [python, script, str(races), str(decisions)],
            cwd=where,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for _, python, where in sides
    ]
    figures: list[list[tuple[float, float]]] = [[] for _ in sides]
    try:
        for server, (name, _, _) in zip(servers, sides, strict=True):
            if _answer(server) != "ready":
                raise SystemExit(f"{name}: the bench did not start")
        for round_ in range(bursts):
            turn = list(range(len(sides)))
            for i in turn if round_ % 2 == 0 else reversed(turn):
                asking = servers[i].stdin
                assert asking is not None
                asking.write("go\n")
                asking.flush()
                bot_ms, workers_ms = (float(v) for v in _answer(servers[i]).split())
                figures[i].append((bot_ms, workers_ms))
    finally:
        for server in servers:
            if server.stdin is not None:
                server.stdin.close()
            server.wait(timeout=60)
    lines = [f"burst CPU per decision, {bursts} bursts each, turn about, median (range):"]
    ours = [b + w for b, w in figures[0]]
    for (name, _, _), seen in zip(sides, figures, strict=True):
        bots, workers = [b for b, _ in seen], [w for _, w in seen]
        sums = [b + w for b, w in seen]
        # each round's bursts ran one after the other: their ratio is the fairest comparison
        ratio = statistics.median(theirs / mine for theirs, mine in zip(sums, ours, strict=True))
        versus = f"; {ratio:.2f}x this checkout's, the median of the rounds" if seen is not figures[0] else ""
        lines.append(
            f"  {name}: bot {statistics.median(bots):.2f} ms, board workers {statistics.median(workers):.2f} ms, "
            f"sum {statistics.median(sums):.2f} ms ({min(sums):.2f}-{max(sums):.2f}){versus}"
        )
    return "\n".join(lines)


def _answer(server: Any) -> str:
    line = server.stdout.readline()
    if not line:
        raise SystemExit("a checkout's bench stopped (its error is above)")
    return str(line).strip()


def bench_memory(races: int = 500, track: str | None = None) -> str:
    """What ``races`` active races of the featured game (each started, 3 decisions in) add to the bot's memory.

    ``track``: the stage every race runs on (its usual one if None), or ``random-20`` for a
    road of its own per race, which no two races can share.
    """
    import gc
    import tempfile
    from pathlib import Path

    async def run(path: str) -> float:
        from bot.service.races import RaceService
        from bot.storage.sqlite import SqliteStorage

        storage = SqliteStorage(path)
        await storage.open()
        service = RaceService(storage, render=False)
        rules = featured().rules

        async def race(channel: int) -> None:
            await service.lobby.new_race(1, channel, 1, "host", game=featured().id, track=track, seed=channel)
            await service.lobby.join(channel, 2, "guest")
            await service.lobby.start(channel, 1)
            for _ in range(3):
                await _decide_once(service, storage, rules, channel)

        try:
            for n in range(2):  # libraries, data files and caches loaded: not the races' cost
                await race(1000 + n)
            gc.collect()
            before = _rss_mb()
            for n in range(2, races + 2):
                await race(1000 + n)
            gc.collect()
            return _rss_mb() - before
        finally:
            await storage.close()

    with tempfile.TemporaryDirectory() as folder:
        added = asyncio.run(run(str(Path(folder) / "memory.db")))
    where = "a road each (random-20)" if track else "the same stage"
    return f"memory: {races} active races on {where}, started and 3 decisions in, add {added:.0f} MB to the bot"


def _engine_races(game: str, sample: Sample, seeds: range) -> tuple[float, int]:
    """CPU seconds and actions for AI-against-AI races of ``game``'s sample, one per seed.

    CPU time of this process, not wall time: the work is single-threaded, so on an idle
    machine the two agree, and on a shared one the figure does not depend on the neighbours.
    """
    from bot.cli.sim import simulate

    actions = 0
    start = time.process_time()
    for seed in seeds:
        record, _ = simulate(game, players=sample.players, seed=seed, stage=sample.stage)
        actions += len(record.actions)
    return time.process_time() - start, actions


def bench_engine(races: int = 6) -> str:
    """Races and actions per CPU second, AI against AI (engine and AI only: no storage, no board).

    Each game's benchmark race (its showcase's ``bench_races``: Leader 1 on a fresh 20-hexagon
    route, Formula Dé Mini on the island circuit's own 2 laps); the same seeds every run.
    """
    from bot.cli.sim import simulate

    lines = []
    for game, sample in _samples(lambda showcase: showcase.bench_races):
        simulate(game.id, players=sample.players, seed=0, stage=sample.stage)  # data files, caches: left out
        seconds, actions = _engine_races(game.id, sample, range(1, races + 1))
        lines.append(
            f"engine + AI, {sample.label}: {races / seconds:.2f} races/s, {actions / seconds:.0f} actions/s "
            f"({actions // races} actions a race, {1000 * seconds / races:.0f} ms a race, over {races} races)"
        )
    return "\n".join(lines)
