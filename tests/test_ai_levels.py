"""How strong AI seats play (issue 30): the host picks a level with ``/race ai level:``; the level
is a property of the seat, kept in the lobby, so a race's record (the actions chosen) replays
as ever; a seat played for an absent person always plays the strongest."""

from __future__ import annotations

from typing import Any

import pytest

from bot.cli.ai_bench import race
from bot.discord_layer.app import DomestiqueBot
from bot.service import seats
from rules import ai_levels
from rules.baselines import Policy
from rules.game import Game
from rules.registry import games
from tests.support.discord_play import open_race


def test_a_seat_plays_at_its_level_and_an_absent_persons_seat_at_the_strongest() -> None:
    lobby = {
        "seats": [
            {"player": "ai1", "ai": True, "level": "easy"},
            {"player": "ai2", "ai": True},  # a lobby stored before levels: as strong as ever
            {"player": "u7", "ai": False, "user": 7, "level": "easy"},  # a person's seat has no level
        ],
        "away": ["u7"],
    }
    assert seats.ai_level(lobby, "ai1") == "easy"
    assert seats.ai_level(lobby, "ai2") == "strong"
    assert seats.ai_level(lobby, "u7") == "strong"
    assert ai_levels.level_named("mighty") == "strong"


@pytest.mark.parametrize("game", games(), ids=lambda g: g.id)
def test_every_level_plays_only_legal_actions_and_the_same_race_the_same_way(game: Game) -> None:
    def at(level: str) -> Any:
        return lambda g, seed: ai_levels.player_at(g, level)

    makers = [at(level) for level in ("easy", "normal", "strong", "easy")]
    first = race(game, game.tracks.default, 2, makers, [True] * 4)  # apply refuses an illegal action
    again = race(game, game.tracks.default, 2, makers, [True] * 4)
    assert first[0] == again[0] and first[1] == again[1]
    strong: Policy = ai_levels.player_at(game, "strong")
    assert strong is game.ai


async def test_the_host_picks_how_strong_an_ai_seat_plays(simcord_env) -> None:
    channel, members = await open_race(simcord_env, "leader1", "first-race", 1, "blue")
    added = await members["alice"].slash(channel, "race ai", level="easy")
    assert added.response.content == "AI 1 (easy) joins in green."  # the lobby message shows the seat
    assert any("green: AI 1 (easy)" in m.content for m in channel.history())
    added = await members["alice"].slash(channel, "race ai")
    assert added.response.content == "AI 2 joins in white."
    assert any("white: AI 2\n" in m.content for m in channel.history())
    bot: DomestiqueBot = simcord_env.bot
    stored = await bot.storage.active_race(channel.id)
    assert [s.get("level") for s in stored.lobby["seats"] if s["ai"]] == ["easy", "strong"]
    refused = await members["bob"].slash(channel, "race ai", level="easy")
    assert "Only the host" in refused.response.content


async def test_an_ai_seat_plays_its_race_at_the_level_the_host_chose(simcord_env) -> None:
    from bot.service.common import record_of
    from rules.record import start_state

    channel, members = await open_race(simcord_env, "peloton", "leg-bohemia", 1, "blue")
    await members["alice"].slash(channel, "race ai", level="easy")
    await members["bob"].slash(channel, "race leave")
    await members["alice"].slash(channel, "race ai", level="strong")
    await members["alice"].slash(channel, "race start")
    bot: DomestiqueBot = simcord_env.bot
    race_row = await bot.storage.active_race(channel.id)
    record = record_of(race_row)
    game, state = start_state(record)
    levels = {s["player"]: s.get("level") for s in race_row.lobby["seats"] if s["ai"]}
    assert sorted(levels.values()) == ["easy", "strong"]
    played: dict[str, int] = {"easy": 0, "strong": 0}
    for action in record.actions:
        level = levels.get(action.by)
        if level is not None:
            assert action == ai_levels.player_at(game, level)(state, action.by)
            played[level] += 1
        state, _ = game.rules.apply(state, action)
    assert played["easy"] and played["strong"]
