"""SIGKILL in the middle of decisions loses nothing acknowledged and leaves no half decision, on each backend;
the next process goes on with every race."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

from bot.service.common import record_of
from bot.service.races import RaceService
from bot.storage.url import is_postgres, sqlite_path, storage_for
from rules.record import replay
from rules.registry import find_game

ROOT = Path(__file__).resolve().parent.parent


async def test_a_process_killed_mid_decision_loses_nothing_it_acknowledged(database_url: str) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "tests.support.kill_worker", database_url],
        cwd=ROOT,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    acknowledged = []
    try:
        while len(acknowledged) < 40:
            line = proc.stdout.readline()
            assert line, proc.stderr.read() if proc.stderr else "the worker ended early"
            if line.startswith("ACK "):
                acknowledged.append(tuple(int(w) for w in line.split()[1:]))
    finally:
        proc.send_signal(signal.SIGKILL)  # eight races deciding at once: some decision is under way
        proc.communicate()
    if not is_postgres(database_url):
        with sqlite3.connect(sqlite_path(database_url)) as conn:
            assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    storage = storage_for(database_url)
    await storage.open()
    try:
        for channel, index, user in acknowledged:
            race = await storage.active_race(channel)
            assert race is not None and race.actions[index].user_id == user and not race.actions[index].automatic
        service = RaceService(storage, render=False)  # the restarted process
        for race in await storage.running_races():
            assert [a.index for a in race.actions] == list(range(len(race.actions)))
            assert replay(record_of(race)).error_at is None  # no half-written decision
            # each decision was saved with its charge to its player's clock, and no charge without it
            charged = [t.index for t in await storage.pace_times([race.id])]
            assert charged == [a.index for a in race.actions]
            decision = find_game(race.game).rules.pending(await service.core.state_of(race))
            await service.core.decide(race.id, race.version, 101 if decision.player == "u101" else 102, 0)
    finally:
        await storage.close()


async def test_two_processes_deciding_the_same_race_version_apply_it_once(database_url: str, tmp_path: Path) -> None:
    storage = storage_for(database_url)
    await storage.open()
    service = RaceService(storage, render=False, seeds=lambda: 5)
    try:
        await service.lobby.new_race(1, 800, 101, "Ann", game="leader1", track="first-race", timer=600, pieces=2)
        await service.lobby.join(800, 102, "Bob", "blue")
        await service.lobby.start(800, 101)
        race = await storage.active_race(800)
        assert race is not None
        decision = find_game("leader1").rules.pending(await service.core.state_of(race))
        user = 101 if decision.player == "u101" else 102
        go = tmp_path / "go"
        args = [database_url, str(race.id), str(race.version), str(user), str(go)]
        procs = [
            subprocess.Popen(
                [sys.executable, "-m", "tests.support.decide_worker", *args],
                cwd=ROOT,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for _ in range(2)
        ]
        for proc in procs:
            assert proc.stdout is not None and proc.stdout.readline().strip() == "READY"
        go.write_text("go")  # both processes decide the same moment of the race now
        said = [proc.communicate(timeout=60)[0].strip() for proc in procs]
        assert sorted(s.split(":")[0] for s in said) == ["APPLIED", "REFUSED"], said
        after = await storage.race(race.id)
        assert after is not None and after.version == race.version + 1
        manual = [a for a in after.actions[len(race.actions) :] if not a.automatic]
        assert len(manual) == 1 and manual[0].user_id == user
    finally:
        await storage.close()
