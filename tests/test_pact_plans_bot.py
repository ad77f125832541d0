"""Plans that would break a pact (issue 37): a decision made ahead (``/race ahead``) that would break one
is not applied when its decision comes, its owner is told why and asked on the prompt; a member who goes
away (``/race away``) has the AI play their seat, and it keeps their pacts even where it would rather
break them. simcord, both databases."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

import bot.service.store as race_store
from bot.discord_layer.app import DomestiqueBot
from rules.action import Action
from rules.registry import find_game
from tests.test_alliances_bot import allies_with_no_chase, bob_away_with_alice_to_lead, live_prompt


@pytest.fixture
def db_path(database_url: str) -> str:
    return database_url


def dms_of(member: Any) -> list[str]:
    return [msg.content for msg in member.user.dm_channel.history()] if member.user.dm_channel else []


async def test_a_decision_made_ahead_that_breaks_a_pact_is_asked_when_it_comes(simcord_env) -> None:
    channel, m, _thread = await allies_with_no_chase(simcord_env)
    for _turn in range(2):  # turns 1 and 2: everything passed
        for _decision in range(3):
            prompt = live_prompt(channel)
            actor = m["alice"] if f"<@{m['alice'].id}>" in prompt.content.splitlines()[-1] else m["bob"]
            await actor.click(prompt, label="Pass")
    await m["alice"].click(live_prompt(channel), label="Pass")  # turn 3: alice stays; bob to decide
    offered = await m["alice"].slash(channel, "race ahead")  # her pursuit comes next: she decides it now
    message = offered.response or offered.followups[0]
    menu = next(c for row in message.components for c in row["components"] if c["type"] == 3)
    option = next(o for o in menu["options"] if o["label"] == "Pursue (+1)")
    await m["alice"].select(message, [option["value"]], custom_id=menu["custom_id"])
    bot: DomestiqueBot = simcord_env.bot
    prompt = live_prompt(channel)  # bob breaks away: alice's pursuit would now chase her ally
    step = next(c for row in prompt.components for c in row.children if "reak" in (c.label or ""))
    opened = await m["bob"].click(prompt, custom_id=step.custom_id)
    menu = opened.followups[-1]
    select = menu.components[0]["components"][0]
    await m["bob"].select(menu, [select["options"][0]["value"]], custom_id=select["custom_id"])
    race = await bot.storage.active_race(channel.id)
    assert "breakaway" in race.actions[-1].text  # bob's; her pursuit was not applied
    assert "pursue (+1) or pass" in live_prompt(channel).content  # she is asked on the prompt
    told = dms_of(m["alice"])[-1]
    assert "your decision made ahead (Pursue (+1)) was not applied: it breaks no chase with bob" in told
    assert "Choose on the prompt" in told


async def test_the_ai_playing_for_a_member_away_keeps_their_pact(simcord_env, monkeypatch) -> None:
    channel, m, _thread = await allies_with_no_chase(simcord_env)
    await bob_away_with_alice_to_lead(channel, m)
    leader1 = find_game("leader1")

    def chaser(state: object, player: str) -> Action:  # an AI that pursues whenever it may
        choices = leader1.rules.choices(state, player)
        return next((c.action for c in choices if c.action.do == "pursue"), choices[0].action)

    chasing = dataclasses.replace(leader1, ai=chaser, cautious_ai=chaser)
    monkeypatch.setattr(
        race_store, "find_game", lambda game_id: chasing if game_id == "leader1" else find_game(game_id)
    )
    bot: DomestiqueBot = simcord_env.bot
    before = len((await bot.storage.active_race(channel.id)).actions)
    away = await m["alice"].slash(channel, "race away", until="2d")  # the AI plays her seat from now on
    assert away.ephemeral
    race = await bot.storage.active_race(channel.id)
    assert len(race.actions) > before
    taken = race.actions[before]
    assert taken.automatic and taken.text.endswith("pass")  # not the pursuit that breaks no chase with bob
