"""Write the upgrade test's database with the code of an earlier release (tests/records/README.md).

Run with that release's code first on the path (the fixture shipped was made by f440161)::

    PYTHONPATH=/work/wt-old-f440161 python tests/records/make_upgrade_db.py tests/records/upgrade/f440161.db

It plays, through that release's own service and storage, races of every game with one person
and AI seats: some to the finish, some left running, and a league whose second stage is running.
Every race is dated as created on 2026-11-30 (when that release ran). Beside the database it writes
``<name>.json``: each finished race's final replay output as that release gave it (less events).
Only what that release had is used, so the script runs under it unchanged.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Any

from bot.leagues.league import LeagueService

try:
    from bot.service.common import record_of
except ImportError:  # the releases before issue 23 kept it in core
    from bot.service.core import record_of  # type: ignore[no-redef,attr-defined]
from bot.service.races import RaceService
from bot.storage.sqlite import SqliteStorage
from rules.record import replay
from rules.registry import find_game

GUILD, HOST = 1, 101
PLAYED = 1_764_504_000.0  # 2026-11-30 12:00 UTC
# (channel, game, track, players, seed, decisions of the person before stopping: None = to the finish)
RACES = [
    (10, "hell-of-the-north", None, 4, 3, None),
    (11, "hell-of-the-north", None, 4, 1, None),
    (12, "hell-of-the-north", None, 4, 5, 40),
    (13, "leader1", "first-race", 4, 9, None),
    (14, "leader1", "first-race", 4, 10, 6),
    (15, "formula-de-mini", None, 3, 1, None),
    (16, "formula-de-mini", None, 3, 2, 10),
    (17, "peloton", None, 3, 1, 30),
    (18, "peloton", None, 2, 2, None),
]


class Clock:
    def __init__(self, t: float) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


def _core(races: RaceService) -> Any:
    """The service's race core (a release before issue 23 had its intents on the service itself)."""
    return getattr(races, "core", races)


def _lobby(races: RaceService) -> Any:
    return getattr(races, "lobby", races)


async def play(races: RaceService, storage: SqliteStorage, channel: int, limit: int | None) -> None:
    """The person's decisions, each the AI's choice for their seat, until the finish or ``limit``."""
    made = 0
    while limit is None or made < limit:
        race = await storage.active_race(channel)
        if race is None or race.status != "running":
            return
        game = find_game(race.game)
        state = await _core(races).state_of(race)
        decision = game.rules.pending(state)
        if decision is None:
            return
        wanted = game.ai(state, decision.player)
        choices = game.rules.choices(state, decision.player)
        index = next((i for i, c in enumerate(choices) if c.action == wanted and not c.anytime), None)
        if index is None:
            index = next(i for i, c in enumerate(choices) if not c.anytime)
        await _core(races).decide(race.id, race.version, HOST, index)
        made += 1


async def main(path: Path) -> None:
    for old in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
        old.unlink(missing_ok=True)
    storage = SqliteStorage(str(path))
    await storage.open()
    clock = Clock(PLAYED)
    races = RaceService(storage, now=clock, render=False)
    for channel, game, track, players, seed, limit in RACES:
        await _lobby(races).new_race(GUILD, channel, HOST, "Ann", game=game, track=track, seed=seed, timer=3600)
        for _ in range(players - 1):
            await _lobby(races).add_ai(channel, HOST)
        await _lobby(races).start(channel, HOST)
        await play(races, storage, channel, limit)
    # a league mid-season: stage 1 finished, stage 2 running
    leagues = LeagueService(races, storage)
    await leagues.create(
        GUILD, HOST, "Autumn", 50, game="hell-of-the-north", stages="random-5,random-5,random-5", weekday="mon", hour=1
    )
    await leagues.join(GUILD, None, HOST, "Ann", None)
    await leagues.add_ai(GUILD, None, HOST, True, None)
    await leagues.add_ai(GUILD, None, HOST, True, None)
    await leagues.close(GUILD, None, HOST, False)
    channels = iter(range(9000, 9100))

    async def make_channel(parent: int, name: str) -> int:
        return next(channels)

    for stage, limit in ((1, None), (2, 12)):
        clock.t += 7 * 24 * 3600
        opened = await leagues.tick(make_channel)
        assert opened, f"stage {stage} did not open"
        await play(races, storage, opened[0][0], limit)
    clock.t += 3600
    await leagues.tick(make_channel)  # stage 1's result is in
    finals: dict[str, object] = {}
    rows = await storage.db.rows("SELECT id FROM races WHERE status = 'finished'", ())
    for (race_id,) in rows:
        race = await storage.race(int(race_id))
        assert race is not None
        result = replay(record_of(race))
        view = result.game.rules.public_view(result.state)
        view.pop("events", None)
        finals[str(race_id)] = view
    await storage.db.update("UPDATE races SET created = ?", (PLAYED,))  # SQLite's own placeholder
    await storage.close()
    path.with_suffix(".json").write_text(json.dumps(finals, separators=(",", ":")) + "\n", encoding="utf-8")


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1])))
