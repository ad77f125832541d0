"""A bot process that dies (SIGKILL) the moment the start of a race has written anything, for
``tests/test_race_start_crash.py``.

    python -m tests.support.start_kill_worker DATABASE_URL start|stage

``start``: ``/race start`` of a lobby in channel 900; ``stage``: a league stage opened in channel 901.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from typing import Any

from bot.service.races import RaceService
from bot.storage.url import storage_for

WRITES = ("start", "append_actions")  # every race write a start has ever made


async def main(url: str, how: str) -> None:
    storage = storage_for(url)
    await storage.open()
    service = RaceService(storage, render=False, seeds=lambda: 5)
    await service.lobby.new_race(1, 900, 101, "Ann", game="leader1", track="first-race", timer=600, pieces=2)
    await service.lobby.join(900, 102, "Bob", "blue")
    lobby = await storage.active_race(900)
    assert lobby is not None
    for name in WRITES:
        original = getattr(storage, name)

        async def written(*args: Any, _original: Any = original, **kwargs: Any) -> Any:
            done = await _original(*args, **kwargs)
            os.kill(os.getpid(), signal.SIGKILL)  # the first write is committed: the process dies here
            return done

        setattr(storage, name, written)
    try:
        if how == "start":
            await service.lobby.start(900, 101)
        else:
            await service.lobby.open_league_race(
                1, 901, 101, game="leader1", league_id=1, stage=1, track="leader1/first-race",
                seated=lobby.lobby["seats"], timer=600, seed=5, options={},
            )  # fmt: skip
        print("NOT KILLED", flush=True)
    finally:
        await storage.close()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2]))
