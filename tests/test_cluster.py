"""Two bot processes, disjoint shard ranges, one PostgreSQL database: the proof that a cluster works.

Each process is ``tests/support/cluster_worker.py``: the real sharded bot in a simcord world of its
own servers. Races in servers on both sides play to the end; one process is killed with
SIGKILL mid-race and started again, and it resumes its races. Afterwards every race replays
from its stored record, every acknowledged decision is in the database exactly where it was
acknowledged, and every turn timer that ran out was applied once and announced once, in its
own server's channel (a process that ran another server's timers would apply decisions
nobody sees).
"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from pathlib import Path

from bot.service.common import record_of
from bot.shards import Shards
from bot.storage.postgres import PostgresStorage
from rules.record import replay
from rules.registry import find_game

ROOT = Path(__file__).resolve().parent.parent
KILL_AFTER = 12  # acknowledged decisions before the SIGKILL


def worker(url: str, shards: str, mode: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "tests.support.cluster_worker", url, shards, mode],
        cwd=ROOT,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def finish(proc: subprocess.Popen[str]) -> list[str]:
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err[-3000:]
    lines = out.splitlines()
    assert lines[-1] == "DONE", err[-3000:]
    return lines


def acks(lines: list[str]) -> set[tuple[int, int, int]]:
    return {(int(c), int(i), int(u)) for word, c, i, u in (ln.split() for ln in lines if ln.startswith("ACK "))}


def timeouts(lines: list[str]) -> dict[int, int]:
    return {int(c): int(n) for word, c, n in (ln.split() for ln in lines if ln.startswith("TIMEOUTS "))}


async def test_two_processes_over_one_database_play_every_race_once(pg_url: str) -> None:
    side_b = worker(pg_url, "2-3/4", "play")
    side_a = worker(pg_url, "0-1/4", "click")
    killed: list[str] = []
    assert side_a.stdout is not None
    while len([ln for ln in killed if ln.startswith("ACK ")]) < KILL_AFTER:
        line = side_a.stdout.readline()
        assert line, side_a.stderr.read() if side_a.stderr else "process A ended early"
        killed.append(line.strip())
    side_a.send_signal(signal.SIGKILL)  # mid-race, most likely mid-decision
    side_a.wait()
    side_a.stdout.close()
    if side_a.stderr is not None:
        side_a.stderr.close()
    before_restart = acks(killed)

    storage = PostgresStorage(pg_url)
    await storage.open()
    try:
        for channel, index, user in before_restart:  # nothing acknowledged was lost with the process
            race = await storage.latest_race(channel)
            assert race is not None and race.actions[index].user_id == user and not race.actions[index].automatic

        resumed = worker(pg_url, "0-1/4", "resume")
        lines_b, lines_a = await asyncio.gather(asyncio.to_thread(finish, side_b), asyncio.to_thread(finish, resumed))
        posted = {**timeouts(lines_b), **timeouts(lines_a)}
        acknowledged = before_restart | acks(lines_a) | acks(lines_b)
        assert len(posted) == 4  # four servers, two on each side

        owners = {Shards.parse("0-1/4"), Shards.parse("2-3/4")}
        for channel, announced in posted.items():
            race = await storage.latest_race(channel)
            assert race is not None and race.status == "finished"
            assert sum(s.owns(race.guild_id) for s in owners) == 1
            assert [a.index for a in race.actions] == list(range(len(race.actions)))
            result = replay(record_of(race))  # no decision lost or doubled: the record plays to its finish
            assert result.error_at is None
            assert find_game(race.game).rules.pending(result.state) is None
            timed_out = sum(1 for a in race.actions if a.automatic and a.user_id is not None)
            assert timed_out == announced  # each deadline applied once, and told in its own channel
            assert timed_out > 0
        for channel, index, user in acknowledged:
            race = await storage.latest_race(channel)
            assert race is not None and race.actions[index].user_id == user and not race.actions[index].automatic
        assert acks(lines_a)  # the restarted process went on deciding in its races
    finally:
        await storage.close()


def test_the_bot_bench_runs_several_processes_on_one_database(pg_url: str) -> None:
    """``domestique bench bot --processes 2`` on PostgreSQL: every decision of both processes is measured."""
    from bot.cli.bench import _load

    timings = _load(races=2, decisions=2, url=pg_url, think=0.0, processes=2)
    assert len(timings) == 4 and all(t > 0 for t in timings)
