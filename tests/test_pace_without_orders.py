"""Issue 24, item 18: ``/race order`` in a game that has no standing orders says so, privately,
instead of "Name one of your riders: none."."""

from __future__ import annotations

import pytest

from rules.registry import find_game, games
from tests.support.discord_play import world

WITHOUT_ORDERS = sorted(g.id for g in games() if not g.pace.orders)


def test_some_games_have_no_standing_orders() -> None:
    assert WITHOUT_ORDERS  # else the test below checks nothing


@pytest.mark.parametrize("game_id", WITHOUT_ORDERS)
async def test_race_order_says_the_game_has_no_standing_orders(simcord_env, game_id: str) -> None:
    game = find_game(game_id)
    _, channel, members = world(simcord_env, "alice", "bob")
    await members["alice"].slash(channel, "race new", game=game_id, stage=game.tracks.default, pieces=1)
    await members["bob"].slash(channel, "race join", colour=game.colours[1])
    await members["alice"].slash(channel, "race start")
    before = await simcord_env.bot.storage.active_race(channel.id)
    asked = await members["bob"].slash(channel, "race order", piece=game.colours[1], order="stay")
    answer = asked.response or asked.followups[0]
    assert asked.ephemeral
    assert answer.content == f"{game.title} has no standing orders: you make each decision yourself."
    after = await simcord_env.bot.storage.active_race(channel.id)
    assert after.version == before.version  # nothing changed
