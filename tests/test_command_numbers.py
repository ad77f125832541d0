"""Numbers past a command's range are refused by the service in one line, whatever the caller (issue 42).

Discord stops them at the slash command (``app_commands.Range``), but a script, a test or a future
web form calls the service directly: ``pace.order`` with ``until_number=2**64`` raised
``OverflowError`` on SQLite and ``DataError`` on PostgreSQL. Every service entry behind a ``Range``
is tried on both databases with numbers just past its range and far past it.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable

import pytest
from discord import app_commands

from bot.discord_layer.command_tree import bot_commands
from bot.leagues.league import LeagueService
from bot.service.common import Refusal
from bot.service.races import RaceService
from bot.storage.url import storage_for

CHANNEL, ANN, BOB, GUILD = 5, 1, 2, 7
Call = Callable[[int], Awaitable[object]]


class Service:
    def __init__(self, races: RaceService, leagues: LeagueService, rider: str) -> None:
        self.races, self.leagues, self.rider = races, leagues, rider


@pytest.fixture
async def service(database_url: str) -> AsyncIterator[Service]:
    storage = storage_for(database_url)
    await storage.open()
    try:
        races = RaceService(storage, now=lambda: 1_767_225_600.0, render=False, seeds=iter(range(1, 10**6)).__next__)
        leagues = LeagueService(races, storage)
        await races.lobby.new_race(GUILD, CHANNEL, ANN, "ann", game="leader1", pieces=1)
        await races.lobby.join(CHANNEL, BOB, "bob")
        await races.lobby.start(CHANNEL, ANN)
        await leagues.create(GUILD, ANN, "Autumn", 9, game="leader1", stages="first-race")
        race = await storage.active_race(CHANNEL)
        assert race is not None
        state = await races.core.state_of(race)
        rider = next(r.id for r in state.riders if r.player == f"u{ANN}")
        yield Service(races, leagues, rider)
    finally:
        await storage.close()


def calls(s: Service) -> dict[str, Call]:
    """Each service entry behind a number option of a slash command, called with the number."""
    order = s.races.pace.order
    new_race = s.races.lobby.new_race
    create = s.leagues.create
    return {
        "order number": lambda n: order(CHANNEL, ANN, s.rider, "pursue-over", number=n),
        "order until_number": lambda n: order(CHANNEL, ANN, s.rider, "stay", until="last", until_number=n),
        "mine page": lambda n: s.races.away.mine(ANN, _visible, n),
        "recap turns": lambda n: s.races.recap.recap(CHANNEL, n),
        "new race pieces": lambda n: new_race(GUILD, 6, ANN, "ann", game="leader1", pieces=n),
        "new race clock": lambda n: new_race(GUILD, 6, ANN, "ann", game="leader1", bank=n * 3600),
        "league hour": lambda n: create(GUILD, ANN, f"L{n}", 9, game="leader1", stages="x", hour=n),
        "league pieces": lambda n: create(GUILD, ANN, f"L{n}", 9, game="leader1", stages="x", pieces=n),
        "league results stage": lambda n: s.leagues.results(GUILD, "Autumn", n),
        "resume race": lambda n: s.races.waiting.resume_here(6, GUILD, ANN, n),
    }


async def _visible(guild_id: int, channel_id: int) -> bool:
    return True


# each number option of the slash commands, as (command, option): the entry of ``calls`` behind it
ENTRIES = {
    ("race order", "number"): "order number",
    ("race order", "until_number"): "order until_number",
    ("race mine", "page"): "mine page",
    ("race recap", "turns"): "recap turns",
    ("race new", "pieces"): "new race pieces",
    ("race new", "clock"): "new race clock",
    ("league create", "hour"): "league hour",
    ("league create", "pieces"): "league pieces",
    ("league results", "stage"): "league results stage",
    ("race resume", "race"): "resume race",
}


def _number_options() -> dict[tuple[str, str], tuple[int, int]]:
    found = {}
    for top in bot_commands():
        commands = top.walk_commands() if isinstance(top, app_commands.Group) else [top]
        for command in commands:
            if isinstance(command, app_commands.Command):
                for p in command.parameters:
                    if p.min_value is not None or p.max_value is not None:
                        found[(command.qualified_name, p.name)] = (int(p.min_value or 0), int(p.max_value or 0))
    return found


def test_every_number_option_of_the_commands_is_tried() -> None:
    """A new ``Range`` on a command needs its service entry here."""
    assert set(_number_options()) == set(ENTRIES)


@pytest.mark.parametrize("option", sorted(ENTRIES), ids=" ".join)
async def test_a_number_past_a_commands_range_is_refused_in_one_line(service: Service, option: tuple[str, str]) -> None:
    low, high = _number_options()[option]
    call = calls(service)[ENTRIES[option]]
    for number in (2**64, 2**63, -(2**64), low - 1, high + 1):
        with pytest.raises(Refusal) as refused:
            await call(number)
        assert len(str(refused.value).splitlines()) == 1, str(refused.value)


def test_the_refusal_names_the_option_as_the_persons_client_shows_it() -> None:
    from bot.service.bounds import ORDER_UNTIL
    from rules.i18n import speaking

    with speaking("hu"), pytest.raises(Refusal) as refused:
        ORDER_UNTIL.check(100)
    assert str(refused.value) == "meddig-szám: egész szám 1 és 99 között."
