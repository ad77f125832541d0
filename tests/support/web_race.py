"""Races for the web pages' tests: played through the service as in the channel (two people and AI
players, every decision the AI's choice made through the same intents a click uses), and a client
that reads every page and endpoint of a race, as a viewer's browser would."""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from html import unescape
from typing import Any

from aiohttp.test_utils import TestClient, TestServer

from bot.service.races import RaceService
from bot.storage import Storage
from bot.web.app import make_app
from bot.web.guard import PagesRunner, RateLimit
from rules.registry import find_game

GUILD, CHANNEL = 424242424242424242, 535353535353535353
HOST, GUEST = 111122223333444455, 555566667777888899  # Discord ids: never on a page
SEED = 918273645546372819  # the race's seed: never on a page


async def play_race(
    storage: Storage, game: str, *, decisions: int | None = None, channel: int = CHANNEL, players: int = 4
) -> RaceService:
    """A race of ``game`` in ``channel``: the host and a guest, the other seats AI; ``decisions`` made by
    the two people (all of them, to the finish, if None). The same arguments play the same race."""
    seeds = random.Random(7)
    service = RaceService(storage, render=False, seeds=lambda: seeds.getrandbits(63))
    await service.lobby.new_race(GUILD, channel, HOST, "Hana", game=game, seed=SEED, timer=3600)
    await service.lobby.join(channel, GUEST, "Jo", None)
    for _ in range(players - 2):
        await service.lobby.add_ai(channel, HOST)
    await service.lobby.start(channel, HOST)
    made = 0
    while decisions is None or made < decisions:
        race = await storage.active_race(channel)
        if race is None or race.status != "running":
            break
        if not await decide_as_ai(service, storage, channel):
            break
        made += 1
    return service


async def decide_as_ai(service: RaceService, storage: Storage, channel: int = CHANNEL) -> bool:
    """One decision in ``channel``'s race, made as the channel makes it (a click, or typed for an
    anytime choice such as eating a kept tile) by whoever acts, choosing what the AI would; False
    when nobody is to act."""
    race = await storage.active_race(channel)
    assert race is not None
    rules = find_game(race.game)
    state = await service.core.state_of(race)
    decision = rules.rules.pending(state)
    if decision is None:
        return False
    user = HOST if decision.player == f"u{HOST}" else GUEST
    action = rules.ai(state, decision.player)
    choices = rules.rules.choices(state, decision.player)
    index = next(i for i, c in enumerate(choices) if c.action == action)
    if choices[index].anytime:
        await service.core.play(channel, user, action.text().split(" ", 1)[1])
    else:
        await service.core.decide(race.id, race.version, user, index)
    return True


@dataclass
class Crawl:
    """Every text a viewer's browser could read from one race's page, by address."""

    texts: dict[str, str] = field(default_factory=dict)
    statuses: dict[str, int] = field(default_factory=dict)

    def everything(self) -> str:
        return "\n".join(self.texts.values())


class PagesTestServer(TestServer):
    """aiohttp's test server with the pages' own runner (its answer to a request it cannot read)."""

    async def _make_runner(self, **kwargs: Any) -> PagesRunner:
        return PagesRunner(self.app, **kwargs)


def web_client(storage: Storage, *, limit: RateLimit | None = None) -> TestClient[Any, Any]:
    """A client of the pages on ``storage`` (no rate limit unless one is given)."""
    app = make_app(storage, limit=limit or RateLimit(rate=1e9, burst=1e9))
    return TestClient(PagesTestServer(app))


async def crawl(client: TestClient[Any, Any], url: str) -> Crawl:
    """The race page, at every turn of its replay and every catch-up, its live updates, its boards and
    recap (their status), the script and the style sheet."""
    found = Crawl()

    async def read(address: str) -> str:
        response = await client.get(address)
        found.statuses[address] = response.status
        body = await response.read()
        kind = response.headers.get("Content-Type", "")
        text = body.decode() if kind.startswith(("text/", "application/json")) else ""
        if text:
            found.texts[address] = text
        return text

    page = await read(url)
    assert found.statuses[url] == 200, page
    for path in sorted(set(re.findall(r'(?:src|srcset|href|data-src)="(/[^"]+)"', page))):
        await read(unescape(path))
    for lang, turn in sorted(set(re.findall(r'href="\?lang=(\w+)&amp;turn=(\d+)#replay"', page))):
        turn_page = await read(f"{url}?lang={lang}&turn={turn}")
        for path in sorted(set(re.findall(rf'(?:src|srcset)="(/[^"]+/turn/{turn}\.png[^"]*)"', turn_page))):
            await read(unescape(path))
    for since in range(0, 400, 7):
        await read(f"{url}?since={since}")
    await read(f"{url}/live")
    await read(f"{url}/live?v=0")
    return found
