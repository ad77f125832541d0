"""Issue 24, item 1: a ride with a risk roll is told in one line with where the rider went.

The public line of a decision named only the roll ("✔ alice — yellow rouleur risks a crack:
rolled 7, needed 5"), never the square the rider ended on; now the roll, the ride and what the
roll did are one line, as for any ride."""

from __future__ import annotations

import re
from typing import Any

import pytest

from bot.discord_layer.app import DomestiqueBot
from bot.service.common import choice_key
from rules.registry import find_game
from tests.support.discord_play import answer, last_prompt, member_of, open_race, play_prompt, state_now

GAMES = [("leader1", "first-race", 3, "blue"), ("hell-of-the-north", "flanders", 3, "white")]


def told_lines(channel: Any) -> list[str]:
    """Every decision's public line ("✔ who — what"), in the order shown (public messages only)."""
    return [
        line
        for m in channel.history()
        if m.author.bot and not m.flags.ephemeral
        for line in m.content.splitlines()
        if line.startswith("✔ ")
    ]


@pytest.mark.parametrize(("game", "stage", "pieces", "colour"), GAMES)
async def test_a_risky_ride_says_where_the_rider_went(simcord_env, game: str, stage: str, pieces: int, colour: str):
    channel, members = await open_race(simcord_env, game, stage, pieces, colour)
    await members["alice"].slash(channel, "race start")
    bot: DomestiqueBot = simcord_env.bot
    rules = find_game(game).rules
    for _ in range(400):
        prompt = last_prompt(channel)
        assert prompt is not None, "the race ended before a risky ride was offered"
        state = await state_now(bot, channel)
        decision = rules.pending(state)
        offered = rules.choices(state, decision.player)
        actor = member_of(members, decision.player)
        risky = next((i for i, c in enumerate(offered) if c.risky and c.target and not c.anytime), None)
        if risky is None:
            # riders that break away far ride on their own, and risks come with long rides
            away = [c for c in offered if c.action.do == "breakaway"]
            if away and state.turn >= 2:
                await actor.slash(channel, "play move", choice=choice_key(away[-1]))
            else:
                await play_prompt(prompt, members)
            continue
        picked = offered[risky]
        if not await answer(actor, prompt, risky):  # behind a first step: typed
            await actor.slash(channel, "play move", choice=choice_key(picked))
        line = told_lines(channel)[-1]
        name = find_game(game).narration.piece_name(state, str(picked.piece))
        assert re.search(r"\brolls?\b|\brolled\b", line), line  # the roll is told ...
        assert f"to {picked.target}" in line, line  # ... with the square the rider ended on, in one line
        assert line.count(name) == 1, line  # the rider named once, its story after it
        return
    raise AssertionError("no risky ride was offered")
