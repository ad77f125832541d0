"""A whole Peloton race in Discord (simcord): lobby, dial buttons, end-hexagon menus, board images, export."""

from __future__ import annotations

import discord

from bot.discord_layer.app import DomestiqueBot
from rules.peloton.game import GAME
from rules.record import load_record, replay
from tests.test_bot import components, last_prompt, world

OFFERED: dict[int, list[str]] = {}  # the menu options of each prompt as it was offered


async def _play(simcord_env, stage: str, pieces: int) -> list:
    OFFERED.clear()  # message ids start again in every simcord environment
    _, channel, members = world(simcord_env, "alice", "bob")
    created = await members["alice"].slash(channel, "race new", game="peloton", stage=stage, pieces=pieces)
    assert "lobby" in created.response.content
    await members["bob"].slash(channel, "race join", colour="red")
    await members["alice"].slash(channel, "race ai")
    await members["alice"].slash(channel, "race start")
    bot: DomestiqueBot = simcord_env.bot
    for _ in range(1500):
        if any("**Finish**" in m.content for m in channel.history()):
            break
        prompt = last_prompt(channel)
        race = await bot.storage.active_race(channel.id)
        state = await bot.service.state_of(race)
        decision = GAME.rules.pending(state)
        actor = next(m for m in members.values() if decision.player == f"u{m.id}")
        wanted = GAME.ai(state, decision.player)
        index = next(i for i, c in enumerate(GAME.rules.choices(state, decision.player)) if c.action == wanted)
        selects = [c for c in components(prompt) if isinstance(c, discord.SelectMenu)]
        OFFERED.setdefault(prompt.id, [o.label for s in selects for o in s.options])  # before it is answered
        menu = next((s for s in selects if str(index) in [o.value for o in s.options]), None)
        if menu is not None:
            await actor.select(prompt, [str(index)], custom_id=menu.custom_id)
            continue
        button = next((c for c in components(prompt) if getattr(c, "custom_id", "").endswith(f":{index}")), None)
        if button is None:  # a paged menu: turn the page until the choice shows
            page = next(c for c in components(prompt) if "next" in (getattr(c, "label", "") or "").lower())
            await actor.click(prompt, custom_id=page.custom_id)
            continue
        await actor.click(prompt, custom_id=button.custom_id)
    history = channel.history()
    assert any("**Finish**" in m.content for m in history)
    exported = await members["alice"].slash(channel, "race export")
    data = await (exported.response or exported.followups[0]).attachments[0].read()
    result = replay(load_record(data.decode()))
    assert result.error_at is None and result.state.phase == "finished"
    return history


async def test_a_peloton_leg_race_in_discord_to_the_finish(simcord_env) -> None:
    history = await _play(simcord_env, "random-25", 1)
    assert sum(1 for m in history if m.attachments) >= 5
    dial_prompts = [m for m in history if "set the dial" in m.content]
    assert dial_prompts
    # answered prompts are retired: the dial button's label (with its energy cost) shows as the choice made
    assert any("✔" in m.content and "energy" in m.content.split("✔", 1)[1] for m in dial_prompts)
    assert any("rides" in m.content and "choose where it stops" in m.content for m in history)


async def test_a_peloton_time_trial_with_its_card_draft_in_discord(simcord_env) -> None:
    history = await _play(simcord_env, "itt-25", 1)
    card_prompts = [m for m in history if "choose a time-trial card" in m.content]
    assert card_prompts
    first = card_prompts[0]
    offered = OFFERED[first.id]
    assert len(offered) == 13  # every card, none dropped
