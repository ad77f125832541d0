"""Issue 24, item 18: ``/race order`` in a game that has no standing orders says so, privately,
instead of "Name one of your riders: none.". Every shipped game has orders now, so the test game
(``tests/support/toy_game``, which has none) is the one asked."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from renderer import registry as boards
from rules import registry
from tests.support import toy_game
from tests.support.discord_play import world


@pytest.fixture
def game_without_orders() -> Iterator[None]:
    assert not toy_game.GAME.pace.orders
    registry.register(toy_game.GAME)
    boards.register(toy_game.ID, toy_game.paint)
    yield
    registry.unregister(toy_game.ID)
    boards.unregister(toy_game.ID)


async def test_race_order_says_the_game_has_no_standing_orders(simcord_env, game_without_orders: None) -> None:
    game = toy_game.GAME
    _, channel, members = world(simcord_env, "alice", "bob")
    await members["alice"].slash(channel, "race new", game=game.id, stage=game.tracks.default, pieces=1)
    await members["bob"].slash(channel, "race join", colour=game.colours[1])
    await members["alice"].slash(channel, "race start")
    before = await simcord_env.bot.storage.active_race(channel.id)
    asked = await members["bob"].slash(channel, "race order", piece=game.colours[1], order="stay")
    answer = asked.response or asked.followups[0]
    assert asked.ephemeral
    assert answer.content == f"{game.title} has no standing orders: you make each decision yourself."
    after = await simcord_env.bot.storage.active_race(channel.id)
    assert after.version == before.version  # nothing changed
