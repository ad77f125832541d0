"""Issue 13's service changes keep races whole: boards drawn in worker processes (the same
bytes, none lost when a worker dies), a bounded state cache, snapshots every few actions."""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path

import pytest

from bot.service.drawing import PoolDrawing, ThreadDrawing
from bot.service.races import RaceService
from bot.service.state_cache import SNAPSHOT_EVERY, StateCache, snapshot_due
from bot.service.store import unpacked
from bot.storage.sqlite import SqliteStorage
from renderer.registry import paint
from rules.layout import layout
from rules.leader1 import public_view
from rules.record import replay
from rules.registry import find_game
from tests.support.pictures import picture
from tests.test_service import ANN, BOB, CHANNEL, GUILD, current, play_next

RULES = find_game("leader1").rules


@pytest.fixture
async def service(tmp_path: Path):
    storage = SqliteStorage(str(tmp_path / "races.db"))
    await storage.open()
    yield RaceService(storage, now=lambda: 1_000_000.0, render=False), storage
    await storage.close()


async def open_race(service: RaceService, channel: int, seed: int) -> None:
    await service.lobby.new_race(GUILD, channel, ANN, "Ann", game="leader1", track="first-race", seed=seed, pieces=2)
    await service.lobby.join(channel, BOB, "Bob", "blue")
    await service.lobby.start(channel, ANN)


async def decide(service: RaceService, storage: SqliteStorage, channel: int, pick: int = 0) -> None:
    race = await storage.active_race(channel)
    assert race is not None
    state = await service.core.state_of(race)
    decision = RULES.pending(state)
    user = ANN if decision.player == f"u{ANN}" else BOB
    await service.core.decide(race.id, race.version, user, pick)


def test_a_snapshot_is_due_when_a_commit_crosses_a_multiple_of_the_interval() -> None:
    assert snapshot_due(0, 1)  # the first commit of a race
    assert not snapshot_due(1, SNAPSHOT_EVERY - 1)
    assert snapshot_due(SNAPSHOT_EVERY - 1, SNAPSHOT_EVERY + 3)  # AI decisions may jump past it
    assert not snapshot_due(SNAPSHOT_EVERY, SNAPSHOT_EVERY + 1)


async def test_the_snapshot_plus_the_actions_after_it_is_the_state_a_full_replay_gives(service) -> None:
    service, storage = service
    await open_race(service, CHANNEL, seed=5)
    behind = 0
    for _ in range(SNAPSHOT_EVERY + 12):
        await play_next(service, storage)
        race, _ = await current(service, storage)
        snap = await storage.snapshot(race.id)
        assert snap is not None
        count, _ = unpacked(snap[1], layout(type(await service.core.state_of(race))))
        behind = max(behind, len(race.actions) - count)
    assert behind > 0  # the stored snapshot lagged the actions: loads replayed a tail
    race, state = await current(service, storage)
    service.core.store.forget(race.id)
    from_snapshot = await service.core.state_of(race)  # snapshot, then the actions after it
    from bot.service.common import record_of

    full = replay(record_of(race)).state  # every action from the start
    assert public_view(from_snapshot) == public_view(full) == public_view(state)


async def test_a_bounded_cache_evicts_and_a_reload_gives_the_same_state(service) -> None:
    service, storage = service
    service.core.store._states = StateCache(2)
    channels = [CHANNEL, CHANNEL + 1, CHANNEL + 2]
    for n, channel in enumerate(channels):
        await open_race(service, channel, seed=5 + n)
        for _ in range(3):
            await decide(service, storage, channel)
    assert len(service.core.store._states) == 2
    first = await storage.active_race(channels[0])
    assert first is not None and first.id not in service.core.store._states  # the least recently used went
    reloaded = await service.core.state_of(first)
    fresh = RaceService(storage, render=False)
    assert public_view(reloaded) == public_view(await fresh.core.state_of(first))
    await decide(service, storage, channels[0])  # and the race goes on from the reloaded state
    assert len(service.core.store._states) == 2


def a_board_state():
    from bot.cli.sim import simulate

    record, _ = simulate("leader1", players=3, seed=4, stage="first-race")
    state = replay(record.with_actions(record.actions[: len(record.actions) // 2])).state
    decision = RULES.pending(state)
    highlight = [c for c in RULES.choices(state, decision.player) if c.target is not None]
    return state, highlight


async def test_pooled_boards_are_the_bytes_this_process_draws_and_a_killed_worker_loses_none() -> None:
    state, highlight = a_board_state()
    args = {"highlight": highlight, "acting": [], "title": "Race 1 · first-race", "legend": ["Ann + Bob"]}
    here = paint("leader1", state, **args)
    assert here is not None
    drawing = PoolDrawing(workers=1)
    try:
        # drawn in another process: the same picture (tests/support/pictures.py)
        assert picture(await drawing.paint("leader1", state, **args)) == picture(here)
        assert picture(await drawing.paint("leader1", state, **args)) == picture(here)  # again, from its caches
        assert await ThreadDrawing().paint("leader1", state, **args) == here
        for pid in drawing.worker_pids():
            os.kill(pid, signal.SIGKILL)
        assert picture(await drawing.paint("leader1", state, **args)) == picture(here)  # on its replacement
        assert drawing.replaced == 1
    finally:
        drawing.close()


async def test_a_worker_killed_while_drawing_loses_no_board_and_boards_come_in_order_of_asking() -> None:
    state, highlight = a_board_state()
    args = {"highlight": highlight, "acting": [], "title": "Race 1", "legend": []}
    here = paint("leader1", state, **args)
    drawing = PoolDrawing(workers=1)
    try:
        drawing.start()
        (pid,) = drawing.worker_pids()
        done: list[int] = []

        async def ask(n: int) -> bytes | None:
            board = await drawing.paint("leader1", state, **args)
            done.append(n)
            return board

        jobs = [asyncio.create_task(ask(n)) for n in range(4)]
        await asyncio.sleep(0)  # every board asked; the first is being drawn
        os.kill(pid, signal.SIGKILL)
        assert await asyncio.gather(*jobs) == [here] * 4
        assert done == [0, 1, 2, 3]  # one worker: first asked, first drawn, the lost one again first
        assert drawing.replaced == 1 and drawing.worker_pids() != [pid]
    finally:
        drawing.close()


async def test_rows_read_again_only_from_the_last_known_one_and_an_undo_elsewhere_is_seen(tmp_path: Path) -> None:
    from bot.storage import StoredAction

    path = str(tmp_path / "races.db")
    storage, other = SqliteStorage(path), SqliteStorage(path)
    await storage.open()
    await other.open()
    try:
        race = await storage.create_race(GUILD, CHANNEL, ANN, "leader1", {"seats": []})
        await storage.start(race.id, race.version, {"game": "leader1"}, None)
        version = race.version + 1
        for n in range(3):
            assert await storage.append_actions(race.id, version, [StoredAction(n, f"a{n}", ANN, False)], None, False)
            version += 1
            read = await storage.race(race.id)
            assert [a.text for a in read.actions] == [f"a{i}" for i in range(n + 1)]
        # another process undoes two actions and plays others: the last row this one knew is gone
        assert await other.truncate(race.id, version, 1, None)
        version += 1
        assert await other.append_actions(
            race.id, version, [StoredAction(1, "b1", BOB, False), StoredAction(2, "b2", BOB, False)], None, False
        )
        assert [a.text for a in (await storage.race(race.id)).actions] == ["a0", "b1", "b2"]
        assert await storage.truncate(race.id, version + 1, 2, None)  # an undo here forgets the rows at once
        assert [a.text for a in (await storage.race(race.id)).actions] == ["a0", "b1"]
    finally:
        await other.close()
        await storage.close()


def test_one_pool_serves_one_event_loop_after_another_and_a_failing_board_fails_alone() -> None:
    """``domestique bench bot`` starts the workers once and runs each load in its own ``asyncio.run``."""
    state, highlight = a_board_state()
    args = {"highlight": highlight, "acting": [], "title": "Race 1", "legend": []}
    here = paint("leader1", state, **args)
    drawing = PoolDrawing(workers=1)
    drawing.start()
    try:
        pids = drawing.worker_pids()
        for _ in range(2):
            assert picture(asyncio.run(drawing.paint("leader1", state, **args))) == picture(here)
        assert drawing.worker_pids() == pids  # the same worker, not a new one per loop

        async def broken_then_good() -> bytes | None:
            with pytest.raises(AttributeError):  # not a state: the painter's own error comes back
                await drawing.paint("leader1", object(), **args)
            return await drawing.paint("leader1", state, **args)

        assert picture(asyncio.run(broken_then_good())) == picture(here)
        assert drawing.replaced == 0
    finally:
        drawing.close()


async def test_the_bot_bench_measures_each_decision_and_the_cpu_it_took(tmp_path: Path) -> None:
    from bot.cli.bench import _bench_bot

    drawing = PoolDrawing(workers=1)
    drawing.start()
    try:
        cpu: list[float] = []
        timings, _ = await _bench_bot(2, 2, f"sqlite:///{tmp_path / 'bench.db'}", 0.0, drawing, cpu)
        assert len(timings) == 4 and all(t > 0 for t in timings)
        # the bot's process, then its board workers (counted in 10 ms ticks: a few boards may read 0)
        assert len(cpu) == 2 and cpu[0] > 0 and cpu[1] >= 0
    finally:
        drawing.close()


async def test_reads_are_made_on_the_event_loops_own_connection_and_fall_back_to_a_trip_if_busy(
    service, monkeypatch
) -> None:
    from bot.storage.sqlite_loop import Busy, LoopConnection

    service, storage = service
    await open_race(service, CHANNEL, seed=5)
    trips: list[object] = []
    real_trip = type(storage.db)._in_db_thread

    async def counted(self, work):  # type: ignore[no-untyped-def]
        trips.append(work)
        return await real_trip(self, work)

    monkeypatch.setattr(type(storage.db), "_in_db_thread", counted)
    race = await storage.active_race(CHANNEL)
    assert race is not None and await storage.plans(race.id) == ([], [])
    assert trips == []  # a race, its actions and its plans read without a trip to the database thread

    def busy(self, work):  # type: ignore[no-untyped-def]
        raise Busy("database is locked")

    monkeypatch.setattr(LoopConnection, "read", busy)
    again = await storage.active_race(CHANNEL)
    assert again is not None and again.id == race.id and again.actions == race.actions
    assert len(trips) == 1  # the read that would have waited went to the database thread instead


def test_a_loop_read_or_write_that_would_wait_for_a_lock_raises_busy_having_done_nothing(tmp_path: Path) -> None:
    import sqlite3

    from bot.storage.sqlite_loop import Busy, LoopConnection

    path = str(tmp_path / "locked.db")  # a rollback-journal file: an exclusive writer shuts readers out
    writer = sqlite3.connect(path, isolation_level=None)
    writer.execute("CREATE TABLE t (a)")
    writer.execute("INSERT INTO t VALUES (1)")
    reader = LoopConnection(path)
    try:
        assert reader.read(lambda db: db.execute("SELECT a FROM t").fetchall()) == [(1,)]
        writer.execute("BEGIN EXCLUSIVE")
        with pytest.raises(Busy):
            reader.read(lambda db: db.execute("SELECT a FROM t").fetchall())
        writer.execute("COMMIT")
        assert reader.read(lambda db: db.execute("SELECT a FROM t").fetchall()) == [(1,)]
        writer.execute("BEGIN IMMEDIATE")
        with pytest.raises(Busy):  # a write that would wait for another connection's: nothing done
            reader.write(lambda db: db.execute("INSERT INTO t VALUES (2)"))
        writer.execute("COMMIT")
        assert reader.write(lambda db: db.execute("INSERT INTO t VALUES (3)").rowcount) == 1
        assert writer.execute("SELECT a FROM t ORDER BY a").fetchall() == [(1,), (3,)]
    finally:
        reader.close()
        writer.close()


async def test_a_notify_mode_is_read_once_and_a_change_is_seen_at_once(service, monkeypatch) -> None:
    service, storage = service
    reads: list[str] = []
    real_rows = type(storage.db).rows

    async def counted(self, sql, args=()):  # type: ignore[no-untyped-def]
        reads.append(sql)
        return await real_rows(self, sql, args)

    monkeypatch.setattr(type(storage.db), "rows", counted)
    for _ in range(3):  # every prompt that pings asks
        assert await storage.notify_mode(GUILD, ANN) is None
    assert len(reads) == 1
    await storage.set_notify_mode(GUILD, ANN, "dm")
    assert await storage.notify_mode(GUILD, ANN) == "dm" and len(reads) == 1
    assert await storage.notify_mode(GUILD, BOB) is None and len(reads) == 2  # another person: read


async def test_decisions_take_turns_a_few_at_a_time_first_come_first_served() -> None:
    from bot.service.turns import Turns

    turns = Turns(2)
    running: list[int] = []
    most = 0
    started: list[int] = []

    async def decision(n: int, board: bool) -> None:
        nonlocal most
        async with turns.turn():
            started.append(n)
            running.append(n)
            most = max(most, len(running))
            await asyncio.sleep(0.01)  # work on the loop, in stretches
            running.remove(n)
            if board:
                turns.give_back()  # waiting for another process: the next decision may start
                await asyncio.sleep(0.05)

    await asyncio.gather(*(decision(n, board=n == 0) for n in range(5)))
    assert most == 2  # never more than two at once
    assert started == [0, 1, 2, 3, 4]  # in the order they came

    one = Turns(1)
    finished: list[int] = []

    async def alone(n: int) -> None:
        async with one.turn():
            await asyncio.sleep(0.01)
            if n == 0:
                one.give_back()
                await asyncio.sleep(0.05)
        finished.append(n)

    await asyncio.gather(*(alone(n) for n in range(2)))
    assert finished == [1, 0]  # the first gave its turn back while waiting: the second did not wait for it


def test_the_bot_bench_gives_the_median_cpu_of_several_bursts() -> None:
    """``bench bot --bursts N``: one burst's CPU figure moves by ±0.5 ms on a shared machine."""
    import re

    from bot.cli.bench import _burst_cpu

    drawing = PoolDrawing(workers=1)
    drawing.start()
    try:
        line = _burst_cpu(2, 2, "", drawing, 3)
    finally:
        drawing.close()
    figures = re.fullmatch(
        r"burst CPU per decision over 3 more bursts, median \(range\): bot ([\d.]+) ms \(([\d.]+)-([\d.]+)\), "
        r"board workers ([\d.]+) ms \(([\d.]+)-([\d.]+)\), sum ([\d.]+) ms \(([\d.]+)-([\d.]+)\)",
        line,
    )
    assert figures is not None, line
    bot, low, high = (float(figures.group(i)) for i in (1, 2, 3))
    assert 0 < low <= bot <= high


def test_the_bot_bench_runs_another_checkouts_burst_turn_about_with_this_ones(tmp_path) -> None:
    """``bench bot --against DIR``: each checkout's burst in its own interpreter, in turn. Here the
    other "checkout" is a folder whose .venv's python is this one: the same code on both sides."""
    import re
    import sys

    from bot.cli.bench import burst_against

    (tmp_path / ".venv" / "bin").mkdir(parents=True)
    python = tmp_path / ".venv" / "bin" / "python"
    python.write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n')  # this environment's python, by another path
    python.chmod(0o755)
    report = burst_against(2, 6, 2, [str(tmp_path)])  # six decisions a race: boards are drawn
    lines = report.splitlines()
    assert lines[0] == "burst CPU per decision, 2 bursts each, turn about, median (range):"
    figure = r"bot ([\d.]+) ms, board workers ([\d.]+) ms, sum ([\d.]+) ms \(([\d.]+)-([\d.]+)\)"
    versus = r"; ([\d.]+)x this checkout's, the median of the rounds"
    for line, name, tail in zip(lines[1:], ["this checkout", str(tmp_path)], ["", versus], strict=True):
        found = re.fullmatch(rf"  {re.escape(name)}: {figure}{tail}", line)
        assert found is not None, line
        bot, workers, total, low, high = (float(found.group(i)) for i in range(1, 6))
        assert bot > 0 and workers > 0 and low <= total <= high
    assert float(re.findall(r"([\d.]+)x", lines[2])[0]) > 0


def test_the_bot_bench_says_what_a_checkout_without_its_own_environment_needs(tmp_path) -> None:
    from bot.cli.bench import burst_against

    with pytest.raises(SystemExit, match=r"has no \.venv: python3 -m venv"):
        burst_against(2, 2, 1, [str(tmp_path)])
