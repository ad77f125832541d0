"""An upgrade of a running deployment is safe (issue 40): a database written by the release before
issue 23 (f440161: schema, snapshots, running and finished races, a league mid-season; made by
tests/records/make_upgrade_db.py under that release) is opened by today's code."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from bot.leagues.league import LeagueService
from bot.service.common import record_of
from bot.service.races import RaceService
from bot.service.recap import recap_gif
from bot.storage import RaceRow
from bot.storage.sqlite import SqliteStorage
from bot.web.timeline import timeline
from rules.record import replay
from rules.registry import find_game

FIXTURE = Path(__file__).parent / "upgrade" / "f440161.db"
FINALS = json.loads(FIXTURE.with_suffix(".json").read_text(encoding="utf-8"))  # as that release gave them
HOST, GUILD = 101, 1
NOW = 1_765_000_000.0  # 2026-12-06: the upgrade


async def _races(storage: SqliteStorage) -> list[RaceRow]:
    races = []
    for race_id in range(1, 100):
        race = await storage.race(race_id)
        if race is None:
            break
        races.append(race)
    return races


async def _play_to_the_finish(service: RaceService, storage: SqliteStorage, race_id: int) -> RaceRow:
    """The person's decisions made as the AI would make them, until the race is over."""
    for _ in range(2_000):
        race = await storage.race(race_id)
        assert race is not None
        if race.status != "running":
            return race
        game = find_game(race.game)
        state = await service.core.state_of(race)
        decision = game.rules.pending(state)
        assert decision is not None
        wanted = game.ai(state, decision.player)
        choices = game.rules.choices(state, decision.player)
        game.rules.apply(state, wanted)  # the AI's decision is legal under the race's rules
        offered = [i for i, c in enumerate(choices) if not c.anytime]
        index = next((i for i in offered if choices[i].action == wanted), offered[0])  # else the first on offer
        await service.core.decide(race.id, race.version, HOST, index)
    raise AssertionError(f"race {race_id} did not finish")


async def test_a_database_of_an_earlier_release_opens_and_every_race_plays_on(tmp_path: Path) -> None:
    path = tmp_path / "upgraded.db"
    shutil.copy(FIXTURE, path)
    storage = SqliteStorage(str(path))
    await storage.open()  # today's migrations run on the old schema
    try:
        service = RaceService(storage, now=lambda: NOW, render=False)
        before = await _races(storage)
        assert {r.status for r in before} == {"running", "finished"} and len(before) == 11
        # every finished race replays to the state its players saw, under the rules of its day
        for race in before:
            if race.status != "finished":
                continue
            result = replay(record_of(race))
            assert result.error_at is None, f"race {race.id}: {result.error}"
            view = result.game.rules.public_view(result.state)
            view.pop("events", None)
            assert view == {k: view[k] for k in FINALS[str(race.id)]} | FINALS[str(race.id)], race.id
            assert record_of(race).rules == "2026-11"
        # /race status tells the rules of a race that is not played under the newest
        hotn = next(r for r in before if r.game == "hell-of-the-north" and r.status == "running")
        said = (await service.reading.status(hotn.channel_id)).reply
        assert "Played under the rules of 2026-11." in said
        # every running race plays on to its finish (its snapshot is rebuilt, its record keeps its rules)
        for race in before:
            if race.status == "running":
                finished = await _play_to_the_finish(service, storage, race.id)
                assert finished.status == "finished", race.id
                result = replay(record_of(finished))
                assert result.error_at is None and result.rules is not None and result.rules.name == "2026-11"
        # finished races: the recap, the web page's turns and the league export
        for race in await _races(storage):
            assert race.status == "finished"
            page = timeline(race)
            assert page.turns and page.status == "finished", race.id
        for race in before[:2]:
            assert recap_gif(race, "recap", turns=2)[:6] == b"GIF89a"
        leagues = LeagueService(service, storage)
        exported = (await leagues.export(GUILD, None)).file
        assert exported is not None
        stages = json.loads(exported[1])["stages"]
        assert stages[0]["status"] == "finished" and stages[0]["record"]["rules"] == "2026-11"
    finally:
        await storage.close()
