"""A league stage opened by the scheduler survives a crash at any of its writes: the next tick (a
restarted bot) finishes opening the same race in the same channel, never a second race in a new
channel beside an orphaned one. Each backend (SQLite, PostgreSQL).

The crash is the process stopping right after one write committed: modelled by a BaseException
raised after the write, then new services on a fresh connection (nothing of the first kept)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from bot.leagues.league import LeagueService
from bot.service.races import RaceService
from bot.storage import Storage
from bot.storage.url import storage_for

GUILD, CHANNEL, ORG, BOB = 1, 50, 201, 202
START = 1_767_225_600.0  # Thursday 1 January 2026, 00:00 UTC


class Crash(BaseException):
    """The process stops here (not an Exception: nothing on the way catches it)."""


def services(storage: Storage, now: Callable[[], float]) -> LeagueService:
    return LeagueService(RaceService(storage, now=now, render=False, seeds=lambda: 5), storage)


async def _league_due(url: str) -> None:
    storage = storage_for(url)
    await storage.open()
    leagues = services(storage, lambda: START)
    await leagues.create(GUILD, ORG, "Autumn", CHANNEL, game="leader1", stages="first-race", weekday="thu", hour=1)
    await leagues.join(GUILD, None, ORG, "Org", "yellow")
    await leagues.join(GUILD, None, BOB, "Bob", "blue")
    await leagues.close(GUILD, None, ORG, False)
    await storage.close()


def _crash_after(storage: Storage, name: str) -> None:
    """The first call of ``storage.name`` commits, then the process stops."""
    original = getattr(storage, name)

    async def written(*args: Any, **kwargs: Any) -> Any:
        await original(*args, **kwargs)
        raise Crash(name)

    setattr(storage, name, written)


@pytest.mark.parametrize("write", ["stage_channel", "create_race", "append_actions", "stage_opened"])
async def test_a_stage_opening_cut_short_by_a_crash_is_finished_by_the_next_tick(database_url: str, write: str) -> None:
    await _league_due(database_url)
    later = START + 2 * 3600  # the stage is due
    made: list[int] = []

    async def make_channel(parent: int, name: str) -> int:
        made.append(9000 + len(made))
        return made[-1]

    storage = storage_for(database_url)
    await storage.open()
    _crash_after(storage, write)
    with pytest.raises(Crash):
        await services(storage, lambda: later).tick(make_channel)
    await storage.close()

    storage = storage_for(database_url)  # the bot restarted
    await storage.open()
    try:
        leagues = services(storage, lambda: later + 60)
        opened = await leagues.tick(make_channel)
        assert await leagues.tick(make_channel) == []  # opened once
        league = (await leagues.store.leagues())[0]
        (stage,) = await leagues.store.stages(league.id)
        assert stage.status == "running" and stage.channel_id == 9000 and made == [9000]
        race = await storage.active_race(9000)
        assert race is not None and race.id == stage.race_id and race.league_id == league.id
        assert race.status == "running" and race.deadline is not None
        if write != "stage_opened":  # the stage was never announced: it is now, with its prompt
            assert [channel for channel, _ in opened] == [9000]
            posts = opened[0][1].posts
            assert any("stage 1" in p.text for p in posts) and any(p.prompt is not None for p in posts)
    finally:
        await storage.close()
