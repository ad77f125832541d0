"""``RaceService``: every race intent of the bot, composed of parts on one core.

The core (``core.RaceCore``) applies, saves and reports decisions; it is built from the parts
every commit needs (the clocks and plans, the catch-up line, the web pages' links, the
listeners). The intents are parts beside it, each on the core: the lobby, reading and managing a
race, timers, pace commands, absences, notifications, the recap and the web page commands.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from bot.service.away import Away
from bot.service.catch_up import CatchUp
from bot.service.core import RaceCore
from bot.service.drawing import Drawing
from bot.service.languages import Languages
from bot.service.listeners import Listeners
from bot.service.lobby import Lobby
from bot.service.pace import PaceCommands
from bot.service.pace_clocks import Clocks
from bot.service.people import People
from bot.service.reading import Reading
from bot.service.recap import Recap
from bot.service.store import RaceStore
from bot.service.timers import Timers
from bot.service.waiting import Waiting
from bot.service.web_pages import PageLinks, Web, WebLinks
from bot.shards import Shards
from bot.storage import Storage


class RaceService:
    """Every intent of the bot, on one storage: ``core`` decides, the other parts are named for what they do."""

    def __init__(
        self,
        storage: Storage,
        *,
        now: Callable[[], float] = time.time,
        render: bool = True,
        seeds: Callable[[], int] | None = None,
        drawing: Drawing | None = None,
        shards: Shards | None = None,
        listeners: Listeners | None = None,
        pages: PageLinks | None = None,
    ) -> None:
        store = RaceStore(storage, now)
        self.listeners = listeners or Listeners()
        self.languages = Languages(storage)
        self.core = RaceCore(
            store,
            clocks=Clocks(store, self.languages, self.listeners),
            catch_up=CatchUp(),
            links=WebLinks(storage, pages),
            listeners=self.listeners,
            languages=self.languages,
            render=render,
            seeds=seeds,
            drawing=drawing,
            shards=shards,
        )
        self.storage = storage
        self.lobby = Lobby(self.core)
        self.reading = Reading(self.core, self.lobby)
        self.pace = PaceCommands(self.core)
        self.away = Away(self.core)
        self.timers = Timers(self.core, self.away)
        self.people = People(storage)
        self.recap = Recap(store, self.core.catch_up, self.core.public)
        self.web = Web(self.core.links, storage)
        self.waiting = Waiting(self.core)  # races whose channel cannot be told (Discord refused it)
