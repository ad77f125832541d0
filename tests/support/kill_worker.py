"""A bot process deciding as fast as it can in eight races, for ``tests/test_kill.py`` to SIGKILL.

    python -m tests.support.kill_worker DATABASE_URL

Prints ``ACK channel index user`` after each decision the service acknowledged (returned).
"""

from __future__ import annotations

import asyncio
import sys

from bot.service.races import RaceService
from bot.storage.url import storage_for
from rules.registry import find_game

CHANNELS = range(700, 708)


async def main(url: str) -> None:
    storage = storage_for(url)
    await storage.open()
    service = RaceService(storage, render=False, seeds=iter(range(1, 99)).__next__)
    rules = find_game("leader1").rules
    for channel in CHANNELS:
        await service.lobby.new_race(1, channel, 101, "Ann", game="leader1", track="grand-tour", timer=600, pieces=3)
        await service.lobby.join(channel, 102, "Bob", "blue")
        await service.lobby.start(channel, 101)
    print("READY", flush=True)

    async def play(channel: int) -> None:
        while (race := await storage.active_race(channel)) is not None:
            state = await service.core.state_of(race)
            decision = rules.pending(state)
            user = 101 if decision.player == "u101" else 102
            await service.core.decide(race.id, race.version, user, 0)
            print(f"ACK {channel} {len(race.actions)} {user}", flush=True)

    await asyncio.gather(*(play(c) for c in CHANNELS))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
