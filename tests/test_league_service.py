"""The league scheduler without Discord: a fake clock and a fake channel maker, on each backend (SQLite, PostgreSQL)."""

from __future__ import annotations

import pytest

from bot.leagues.league import LeagueService, first_due, stage_timer
from bot.service.common import Refusal
from bot.service.races import RaceService
from bot.storage.url import storage_for

GUILD, CHANNEL, ORG, BOB = 1, 50, 201, 202


class Clock:
    def __init__(self, t: float) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


@pytest.fixture
async def league_env(database_url: str):
    storage = storage_for(database_url)
    await storage.open()
    clock = Clock(1_767_225_600.0)  # Thursday 1 January 2026, 00:00 UTC
    races = RaceService(storage, now=clock, render=False)
    leagues = LeagueService(races, storage)
    channels = iter(range(9000, 9100))

    async def make_channel(parent: int, name: str) -> int:
        return next(channels)

    yield leagues, races, clock, make_channel
    await storage.close()


def test_weekly_schedule_in_the_leagues_time_zone() -> None:
    # Thursday 1 January 2026 00:00 UTC is Thursday 09:00 in Tokyo: Saturday 18:00 Tokyo comes next
    due = first_due(1_767_225_600.0, 5, 18, "Asia/Tokyo")
    assert (due.weekday(), due.hour, due.day) == (5, 18, 3)
    assert stage_timer(24 * 3600, 10, 3) == 7 * 24 * 3600 // (20 * 7)
    assert stage_timer(60, 10, 3) == 60


async def test_organiser_rights_and_closed_entries(league_env) -> None:
    leagues, *_ = league_env
    await leagues.create(GUILD, ORG, "Autumn", CHANNEL, game="leader1", stages="first-race,flatlands")
    with pytest.raises(Refusal, match="already exists"):
        await leagues.create(GUILD, BOB, "Autumn", CHANNEL, game="leader1", stages="first-race")
    with pytest.raises(Refusal, match="cannot be used"):
        await leagues.create(GUILD, ORG, "Winter", CHANNEL, game="leader1", stages="nowhere")
    await leagues.join(GUILD, None, BOB, "Bob", "blue")
    with pytest.raises(Refusal, match="organiser"):
        await leagues.add_ai(GUILD, None, BOB, False, "white")
    await leagues.add_ai(GUILD, None, BOB, True, "white")  # Manage Server may organise too
    await leagues.close(GUILD, None, ORG, False)
    with pytest.raises(Refusal, match="closed"):
        await leagues.join(GUILD, None, 303, "Carl", "green")


async def test_a_stage_still_running_when_the_next_is_due_is_finished_by_the_ai_first(league_env) -> None:
    leagues, _races, clock, make_channel = league_env
    await leagues.create(
        GUILD, ORG, "Autumn", CHANNEL, game="leader1", stages="first-race,first-race", weekday="thu", hour=1, pieces=1
    )
    await leagues.join(GUILD, None, ORG, "Org", "yellow")
    await leagues.join(GUILD, None, BOB, "Bob", "blue")
    await leagues.close(GUILD, None, ORG, False)
    clock.t += 3600
    opened = await leagues.tick(make_channel)
    assert [channel for channel, _ in opened] == [9000]
    assert await leagues.tick(make_channel) == []  # never twice
    league = (await leagues.store.leagues())[0]
    stages = await leagues.store.stages(league.id)
    assert stages[0].status == "running"
    clock.t += 7 * 24 * 3600  # nobody played, no race timer ran: stage 2 is due
    ticked = await leagues.tick(make_channel)
    assert [channel for channel, _ in ticked] == [9000, 9001]
    finishing = ticked[0][1]
    assert any("the AI finishes this one" in p.text for p in finishing.posts)
    assert any("stage 1 result" in p.text for p in finishing.posts)
    stages = await leagues.store.stages(league.id)
    assert [s.status for s in stages] == ["finished", "running"]
    assert stages[0].result["gc"]
