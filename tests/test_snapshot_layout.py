"""Snapshots never decide history (issue 40): a snapshot written by other state classes, or before
snapshots named their layout, is not used; the race is rebuilt from its record under its rules."""

from __future__ import annotations

import dataclasses
import pickle
from pathlib import Path

import pytest

from bot.service.races import RaceService
from bot.service.store import packed, unpacked
from bot.storage import RaceRow
from bot.storage.sqlite import SqliteStorage
from rules.layout import forget_layouts, layout
from rules.leader1.model import Rider, State
from rules.registry import find_game

GUILD, CHANNEL, ANN, BOB = 1, 10, 101, 102
RULES = find_game("leader1").rules


async def _race_with_a_snapshot(storage: SqliteStorage) -> tuple[RaceService, RaceRow]:
    service = RaceService(storage, now=lambda: 1_000_000.0, render=False)
    await service.lobby.new_race(
        GUILD, CHANNEL, ANN, "Ann", game="leader1", track="first-race", seed=5, timer=3600, pieces=2
    )
    await service.lobby.join(CHANNEL, BOB, "Bob", "blue")
    await service.lobby.start(CHANNEL, ANN)
    for _ in range(4):
        race = await storage.active_race(CHANNEL)
        assert race is not None
        decision = RULES.pending(await service.core.state_of(race))
        assert decision is not None
        await service.core.decide(race.id, race.version, ANN if decision.player == f"u{ANN}" else BOB, 0)
    race = await storage.active_race(CHANNEL)
    assert race is not None and await storage.snapshot(race.id) is not None
    return service, race


async def _tamper(storage: SqliteStorage, race: RaceRow, blob: bytes) -> None:
    await storage.db.update("UPDATE snapshots SET state = {} WHERE race_id = {}", (blob, race.id))


def _doctored(blob: bytes) -> tuple[int, State]:
    """The snapshot's state with its first rider's energy off by 7: a state nobody played."""
    count, saved = unpacked(blob, layout(State))
    assert isinstance(saved, State)
    first = saved.riders[0]
    return count, dataclasses.replace(
        saved, riders=(dataclasses.replace(first, energy=first.energy + 7), *saved.riders[1:])
    )


async def _loaded(service: RaceService, race: RaceRow) -> dict[str, object]:
    service.core.store.forget(race.id)
    return RULES.public_view(await service.core.state_of(race))


async def test_a_snapshot_of_the_same_state_classes_is_used(tmp_path: Path) -> None:
    """The control: a snapshot of today's layout is read (so the doctored energy shows)."""
    storage = SqliteStorage(str(tmp_path / "races.db"))
    await storage.open()
    try:
        service, race = await _race_with_a_snapshot(storage)
        replayed = await _loaded(RaceService(storage, render=False), race)
        snap = await storage.snapshot(race.id)
        assert snap is not None
        count, doctored = _doctored(snap[1])
        await _tamper(storage, race, packed(count, doctored, State))
        assert await _loaded(service, race) != replayed
    finally:
        await storage.close()


async def test_a_snapshot_written_by_other_state_classes_is_rebuilt_from_the_record(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    storage = SqliteStorage(str(tmp_path / "races.db"))
    await storage.open()
    try:
        service, race = await _race_with_a_snapshot(storage)
        replayed = await _loaded(RaceService(storage, render=False), race)
        snap = await storage.snapshot(race.id)
        assert snap is not None
        count, doctored = _doctored(snap[1])
        await _tamper(storage, race, packed(count, doctored, State))
        # an upgrade gives the rider class a field: the snapshot's layout is no longer today's
        extra = dataclasses.make_dataclass("Extra", [("stamina", int, dataclasses.field(default=0, init=False))])
        monkeypatch.setitem(Rider.__dataclass_fields__, "stamina", extra.__dataclass_fields__["stamina"])
        forget_layouts()
        try:
            assert await _loaded(service, race) == replayed  # the record's history, not the snapshot's
            assert await storage.snapshot(race.id) is None  # dropped: not read again on every load
        finally:
            monkeypatch.undo()
            forget_layouts()
    finally:
        await storage.close()


async def test_a_snapshot_from_before_layouts_is_rebuilt_from_the_record(tmp_path: Path) -> None:
    """A snapshot an earlier release wrote (a bare pickle of the count and the state) is not read."""
    storage = SqliteStorage(str(tmp_path / "races.db"))
    await storage.open()
    try:
        service, race = await _race_with_a_snapshot(storage)
        replayed = await _loaded(RaceService(storage, render=False), race)
        snap = await storage.snapshot(race.id)
        assert snap is not None
        await _tamper(storage, race, pickle.dumps(_doctored(snap[1]), protocol=pickle.HIGHEST_PROTOCOL))
        assert await _loaded(service, race) == replayed
    finally:
        await storage.close()
