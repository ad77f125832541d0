"""Issue 24, items 2 and 4: a prompt whose moment is over keeps no live buttons.

2. A prompt answered through its private step (Leader 1's and Hell of the North's "Break away:
   …" opens a private menu of squares) stayed live once the player picked there: its buttons
   then only answered "That button is from an earlier moment of the race". It is now retired in
   place with the decision's line, as a prompt answered with a click is.
4. ``/race back`` posted a fresh prompt and left the old one live; the old one is now retired in
   place and says why.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.discord_layer.app import DomestiqueBot
from bot.service.common import choice_key
from rules.registry import find_game
from tests.support.discord_play import answer, components, last_prompt, member_of, open_race, state_now, world


def now(channel: Any, message_id: int) -> Any:
    """A message as the channel shows it now."""
    return next(m for m in channel.history() if m.id == message_id)


def live_prompts(channel: Any) -> list[Any]:
    """Public messages whose buttons or menus still answer a race's decision."""
    return [
        m
        for m in channel.history()
        if m.author.bot
        and not m.flags.ephemeral
        and any((getattr(c, "custom_id", "") or "").startswith(("dq:c:", "dq:s:", "dq:r:")) for c in components(m))
    ]


@pytest.mark.parametrize(
    ("game", "stage", "colour"), [("leader1", "first-race", "blue"), ("hell-of-the-north", "flanders", "white")]
)
async def test_a_prompt_answered_in_its_private_step_is_retired(simcord_env, game: str, stage: str, colour: str):
    channel, members = await open_race(simcord_env, game, stage, 2, colour)
    await members["alice"].slash(channel, "race start")
    bot: DomestiqueBot = simcord_env.bot
    rules = find_game(game).rules
    for _ in range(200):
        prompt = last_prompt(channel)
        state = await state_now(bot, channel)
        decision = rules.pending(state)
        steps = [c for c in components(prompt) if (getattr(c, "custom_id", "") or "").startswith("dq:r:")]
        actor = member_of(members, decision.player)
        if not steps:  # played as the AI would, which breaks away now and then
            offered = rules.choices(state, decision.player)
            wanted = find_game(game).ai(state, decision.player)
            index = next(i for i, c in enumerate(offered) if c.action == wanted)
            if offered[index].anytime or not await answer(actor, prompt, index):
                await actor.slash(channel, "play move", choice=choice_key(offered[index]))
            continue
        opened = await actor.click(prompt, custom_id=steps[0].custom_id)
        private = opened.followups[-1] if opened.followups else opened.response
        assert private.ephemeral
        select = private.components[0]["components"][0]
        await actor.select(private, [select["options"][0]["value"]], custom_id=select["custom_id"])
        retired = now(channel, prompt.id)
        assert not components(retired), "the public prompt still offers its buttons"
        told = retired.content.splitlines()[-1]
        assert told.startswith("✔ ") and "breaks away to" in told, retired.content  # the line, as for a click
        assert len(live_prompts(channel)) == 1 and live_prompts(channel)[0].id != prompt.id
        return
    raise AssertionError("no breakaway was offered")


async def test_race_back_retires_the_prompt_it_replaces_and_says_why(simcord_env) -> None:
    _, channel, m = world(simcord_env, "alice", "bob")
    await m["alice"].slash(channel, "race new", game="leader1", pieces=1, timer="10h", clock=1)
    await m["bob"].slash(channel, "race join")
    await m["alice"].slash(channel, "race start")
    bot: DomestiqueBot = simcord_env.bot
    state = await state_now(bot, channel)
    slow = member_of(m, find_game("leader1").rules.pending(state).player)
    await simcord_env.advance_time(3600 + 60)  # the slow player's clock runs out: the AI plays the seat
    race = await bot.storage.active_race(channel.id)
    assert f"u{slow.id}" in race.lobby["away"]
    before = last_prompt(channel)
    assert before is not None and f"<@{slow.id}>" not in before.content  # the other player's prompt
    back = await slow.slash(channel, "race back")
    assert "Welcome back" in (back.response or back.followups[0]).content
    after = last_prompt(channel)
    assert after.id != before.id
    old = now(channel, before.id)
    assert not components(old), "the replaced prompt still offers its buttons"
    assert old.content.startswith(before.content)  # kept as it was, with a line saying why
    assert "takes their seat back" in old.content.splitlines()[-1] and "below" in old.content.splitlines()[-1]
    assert [p.id for p in live_prompts(channel)] == [after.id]


async def test_an_aborted_race_leaves_no_live_prompt(simcord_env) -> None:
    _, channel, m = world(simcord_env, "alice", "bob")
    await m["alice"].slash(channel, "race new", game="leader1", pieces=1)
    await m["bob"].slash(channel, "race join")
    await m["alice"].slash(channel, "race start")
    prompt = last_prompt(channel)
    assert [p.id for p in live_prompts(channel)] == [prompt.id]
    await m["alice"].slash(channel, "race abort")
    old = now(channel, prompt.id)
    assert not components(old) and old.content.splitlines()[-1] == "⏹ The race was aborted."
    assert live_prompts(channel) == []


async def test_a_race_the_ai_finishes_leaves_no_live_prompt(simcord_env) -> None:
    """The last decision made by the AI (a timer ran out) ends the race with no prompt to follow:
    the prompt on screen loses its buttons and says the race is over."""
    _, channel, m = world(simcord_env, "alice", "bob")
    await m["alice"].slash(channel, "race new", game="leader1", pieces=1, timer="1h")
    await m["bob"].slash(channel, "race join")
    await m["alice"].slash(channel, "race start")
    bot: DomestiqueBot = simcord_env.bot
    for _ in range(400):  # nobody answers: each timer hands the seat to the AI, which plays on
        if await bot.storage.active_race(channel.id) is None:
            break
        await simcord_env.advance_time(3600 + 60)
    assert any("**Finish**" in msg.content for msg in channel.history())
    assert live_prompts(channel) == []
    retired = [msg for msg in channel.history() if msg.content.endswith("🏁 The race is over: the result is below.")]
    assert len(retired) == 1 and not components(retired[0])


async def test_a_prompt_posted_before_a_restart_is_retired_by_a_typed_move_after_it(simcord_env, db_path) -> None:
    """The channel's live prompt is kept in the database: after a restart, the decision typed with
    ``/play move`` retires the prompt the old process posted (in memory only, it kept its buttons)."""
    import random

    _, channel, m = world(simcord_env, "alice", "bob")
    await m["alice"].slash(channel, "race new", game="leader1", pieces=1)
    await m["bob"].slash(channel, "race join")
    await m["alice"].slash(channel, "race start")
    prompt = last_prompt(channel)
    seeds = random.Random(3)
    await simcord_env.restart_bot(DomestiqueBot(db_path, seeds=lambda: seeds.getrandbits(63)))
    bot: DomestiqueBot = simcord_env.bot
    state = await state_now(bot, channel)
    decision = find_game("leader1").rules.pending(state)
    offered = find_game("leader1").rules.choices(state, decision.player)
    await member_of(m, decision.player).slash(channel, "play move", choice=choice_key(offered[0]))
    old = now(channel, prompt.id)
    assert not components(old), "the prompt posted before the restart still offers its buttons"
    assert old.content.startswith(prompt.content) and old.content.splitlines()[-1].startswith("✔ ")
    assert [p.id for p in live_prompts(channel)] == [last_prompt(channel).id] != [prompt.id]
