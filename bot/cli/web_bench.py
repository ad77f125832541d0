"""``domestique bench web``: viewers of a live race's page while decisions are made.

The bot's side (a race's decisions through the service, an event-loop lag probe) runs in this
process; the pages are served by a process of their own reading the same SQLite file, as in
``domestique run`` (``bot/web/process.py``; ``--same-process`` serves them on the bot's loop, as
before, to compare); the viewers run in a third process, each opening the page and its board,
then asking for live updates every second (twice as often as the page's script) and opening the
page again every tenth time. The same decisions are timed without viewers, then with them, in
``rounds`` alternations (so a change in the machine's load falls on both). Figures are printed,
never asserted.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import multiprocessing
import random
import statistics
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from pathlib import Path

from bot.service.races import RaceService
from bot.storage.sqlite import SqliteStorage
from bot.web.guard import RateLimit
from bot.web.process import Settings, WebProcess
from bot.web.server import bound_port, start_web
from rules.registry import featured

GUILD, HOST, GUEST = 1, 1001, 1002


def _statuses(errors: list[float]) -> str:
    counted = sorted(Counter(int(e) for e in errors).items())
    return f" ({', '.join(f'{n} x {status}' for status, n in counted)})" if counted else ""


def _p95(values: list[float]) -> float:
    ordered = sorted(values) or [0.0]
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


async def _viewers(base: str, path: str, count: int, seconds: float) -> dict[str, list[float]]:
    import aiohttp

    times: dict[str, list[float]] = {"page": [], "live": [], "board": [], "errors": []}
    end = time.monotonic() + seconds

    async def timed(session: aiohttp.ClientSession, kind: str, url: str) -> tuple[int, bytes]:
        start = time.perf_counter()
        async with session.get(url) as response:
            body = await response.read()
        times[kind].append((time.perf_counter() - start) * 1000)
        if response.status >= 400:
            times["errors"].append(float(response.status))
        return response.status, body

    async def viewer(session: aiohttp.ClientSession, number: int) -> None:
        await asyncio.sleep(random.random())  # viewers arrive over a second, not in one instant
        polls = 0
        while time.monotonic() < end:
            if polls % 10 == 0:
                _, page = await timed(session, "page", base + path)
                text = page.decode(errors="replace")
                marker = text.find('class="board" src="')
                if marker >= 0:
                    src = text[marker + 19 : text.find('"', marker + 19)]
                    await timed(session, "board", base + src)
                version = text.split('data-version="', 1)[-1].split('"', 1)[0]
            status, body = await timed(session, "live", f"{base}{path}/live?v={version}")
            if status == 200 and body:
                import json

                version = str(json.loads(body)["version"])
            polls += 1
            await asyncio.sleep(1.0)

    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector) as session:
        await _warm_up(session, base, path)
        end = time.monotonic() + seconds
        await asyncio.gather(*(viewer(session, i) for i in range(count)))
    return times


async def _warm_up(session: object, base: str, path: str) -> None:
    """One untimed look at the page and its board first: a pages' process started a moment ago has
    not loaded the course or the painter's fonts yet (a bot's has, for hours); that first load is
    not what 200 viewers of a running bot cost."""
    import aiohttp

    assert isinstance(session, aiohttp.ClientSession)
    async with session.get(base + path) as response:
        text = await response.text()
    marker = text.find('class="board" src="')
    if marker >= 0:
        async with session.get(base + text[marker + 19 : text.find('"', marker + 19)]) as response:
            await response.read()


def viewers_process(base: str, path: str, count: int, seconds: float) -> dict[str, list[float]]:
    """The viewers, in their own process: each request's milliseconds, by kind."""
    return asyncio.run(_viewers(base, path, count, seconds))


class Probe:
    """The event loop's lag: how late a 10 ms sleep wakes, every time."""

    def __init__(self) -> None:
        self.lags: list[float] = []
        self._task: asyncio.Task[None] | None = None

    async def _run(self) -> None:
        while True:
            start = time.perf_counter()
            await asyncio.sleep(0.01)
            self.lags.append(max(0.0, (time.perf_counter() - start) * 1000 - 10))

    def start(self) -> None:
        self.lags = []
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> list[float]:
        assert self._task is not None
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task
        return self.lags


async def _decide(service: RaceService, storage: SqliteStorage, channel: int) -> float | None:
    """One decision in ``channel``'s race, as a click makes it: its milliseconds (None: the race is over)."""
    race = await storage.active_race(channel)
    if race is None:
        return None
    loaded = await service.core.store.load(race)
    game, state = loaded.game, loaded.state
    decision = game.rules.pending(state)
    if decision is None:
        return None
    choices = game.rules.choices(state, decision.player)
    action = game.ai(state, decision.player)
    index = next(i for i, c in enumerate(choices) if c.action == action)
    user = HOST if decision.player == f"u{HOST}" else GUEST
    start = time.perf_counter()
    if choices[index].anytime:  # eating a kept tile is typed
        await service.core.play(channel, user, action.text().split(" ", 1)[1])
    else:
        await service.core.decide(race.id, race.version, user, index)
    return (time.perf_counter() - start) * 1000


async def _new_race(service: RaceService, channel: int) -> None:
    await service.lobby.new_race(GUILD, channel, HOST, "Hana", game=featured().id, timer=3600, seed=channel)
    await service.lobby.join(channel, GUEST, "Jo", None)
    await service.lobby.add_ai(channel, HOST)
    await service.lobby.start(channel, HOST)


async def _phase(
    service: RaceService, storage: SqliteStorage, channel: int, seconds: float, gap: float
) -> tuple[list[float], list[float], int]:
    """Decisions every ``gap`` seconds for ``seconds``: their times, the loop's lags, the channel played last."""
    probe = Probe()
    probe.start()
    decisions: list[float] = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        took = await _decide(service, storage, channel)
        if took is None:
            channel += 1
            await _new_race(service, channel)
            continue
        decisions.append(took)
        await asyncio.sleep(gap)
    return decisions, await probe.stop(), channel


class Served:
    """The pages on a free port: in their own process (as ``domestique run``), or on this loop."""

    def __init__(self, storage: SqliteStorage, *, same_process: bool) -> None:
        self.storage, self.same_process = storage, same_process
        self.port = 0
        self._stop: Callable[[], Awaitable[None]] | None = None

    async def start(self) -> None:
        unlimited = RateLimit(rate=1e9, burst=1e9)  # every viewer is 127.0.0.1
        if self.same_process:
            runner = await start_web(self.storage, ("127.0.0.1", 0), limit=unlimited)
            self.port, self._stop = bound_port(runner), runner.cleanup
        else:
            pages = WebProcess(Settings(self.storage.path, limit=unlimited), ("127.0.0.1", 0))
            await pages.start()
            self.port, self._stop = pages.port, pages.stop

    async def stop(self) -> None:
        if self._stop is not None:
            await self._stop()


async def _bench(viewers: int, seconds: float, gap: float, rounds: int, same_process: bool) -> str:
    folder = Path(tempfile.mkdtemp(prefix="domestique-bench-web-"))
    storage = SqliteStorage(str(folder / "bench.db"))
    await storage.open()
    service = RaceService(storage)
    channel = 100
    await _new_race(service, channel)
    served = Served(storage, same_process=same_process)
    await served.start()
    alone: list[float] = []
    alone_lag: list[float] = []
    crowd: list[float] = []
    crowd_lag: list[float] = []
    times: dict[str, list[float]] = {"page": [], "live": [], "board": [], "errors": []}
    context = multiprocessing.get_context("spawn")
    try:
        with concurrent.futures.ProcessPoolExecutor(1, mp_context=context) as pool:
            for _ in range(rounds):
                took, lags, channel = await _phase(service, storage, channel, seconds, gap)
                alone += took
                alone_lag += lags
                race = await storage.active_race(channel)
                if race is None:  # the last decision finished it: the viewers watch the next race
                    channel += 1
                    await _new_race(service, channel)
                    race = await storage.active_race(channel)
                assert race is not None
                token = await storage.web_token("race", race.id)
                loop = asyncio.get_running_loop()
                watched = loop.run_in_executor(
                    pool, viewers_process, f"http://127.0.0.1:{served.port}", f"/r/{token}", viewers, seconds + 2
                )
                await asyncio.sleep(1.5)  # the viewers' process starts and they arrive
                took, lags, channel = await _phase(service, storage, channel, seconds, gap)
                crowd += took
                crowd_lag += lags
                for kind, values in (await watched).items():
                    times[kind] += values
    finally:
        await served.stop()
        await storage.close()

    def line(name: str, values: list[float]) -> str:
        if not values:
            return f"{name}: none"
        return f"{name}: {len(values)}, median {statistics.median(values):.1f} ms, p95 {_p95(values):.1f} ms"

    def change(without: list[float], with_: list[float]) -> str:
        before, after = _p95(without), _p95(with_)
        return f"{(after - before) / before * 100:+.0f} %" if before > 0 else "n/a"

    return "\n".join(
        [
            f"{viewers} viewers of a live {featured().title} race, {rounds} x ({seconds:.0f} s without and"
            f" {seconds:.0f} s with), a decision every {gap * 1000:.0f} ms (the rate limit is lifted: every viewer"
            f" is 127.0.0.1)",
            "  pages served by " + ("the bot's own event loop" if same_process else "a process of their own"),
            line("  page loads", times["page"]),
            line("  live updates asked", times["live"]),
            line("  boards", times["board"]),
            f"  errors: {len(times['errors'])}" + _statuses(times["errors"]),
            line("  decisions without viewers", alone),
            line("  decisions with viewers", crowd) + f" (p95 {change(alone, crowd)})",
            line("  event-loop lag without viewers", alone_lag),
            line("  event-loop lag with viewers", crowd_lag) + f" (p95 {change(alone_lag, crowd_lag)})",
            "  targets: page p95 <= 50 ms; decision and loop-lag p95 within +10 % of without viewers",
        ]
    )


def bench_web(
    viewers: int = 200, seconds: float = 20.0, gap: float = 0.2, *, rounds: int = 1, same_process: bool = False
) -> str:
    return asyncio.run(_bench(viewers, seconds, gap, max(1, rounds), same_process))
