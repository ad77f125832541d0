"""One process deciding one race at one version, when a file appears (``tests/test_kill.py``).

    python -m tests.support.decide_worker DATABASE_URL RACE_ID VERSION USER GO_FILE

Prints ``APPLIED`` or ``REFUSED: ...``.
"""

from __future__ import annotations

import asyncio
import os
import sys

from bot.service.common import Refusal
from bot.service.races import RaceService
from bot.storage.url import storage_for


async def main(url: str, race_id: int, version: int, user: int, go: str) -> None:
    storage = storage_for(url)
    await storage.open()
    service = RaceService(storage, render=False)
    race = await storage.race(race_id)
    assert race is not None
    await service.core.state_of(race)  # loaded before the start, so both processes are ready to write
    print("READY", flush=True)
    while not os.path.exists(go):
        await asyncio.sleep(0.001)
    try:
        await service.core.decide(race_id, version, user, 0)
        print("APPLIED", flush=True)
    except Refusal as exc:
        print(f"REFUSED: {exc}", flush=True)
    finally:
        await storage.close()


if __name__ == "__main__":
    url, race_id, version, user, go = sys.argv[1:6]
    asyncio.run(main(url, int(race_id), int(version), int(user), go))
