"""The Discord bot end to end with simcord: real slash commands, buttons, selects, ephemeral
replies and attachments, no network; a real SQLite file underneath."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from simcord.backend.errors import SetupError

from bot.discord_layer.app import DomestiqueBot
from rules.leader1 import public_view
from rules.record import load_record, replay
from tests.support.discord_play import (
    MENTION,
    components,
    last_prompt,
    play_prompt,
    start_two_player_race,
    world,
)


@pytest.fixture
def db_path(database_url: str) -> str:
    """Every test here runs the bot on both backends: an SQLite file, then a PostgreSQL database."""
    return database_url


def private(result: Any) -> Any:
    """The private answer to a click (a public prompt's click is a deferred update, then a followup)."""
    return result.followups[-1] if result.followups else result.response


async def test_two_races_in_two_channels_played_to_the_finish(simcord_env) -> None:
    guild, channel, members = world(simcord_env, "alice", "bob", "carol")
    other = guild.create_text_channel("other-race")
    await start_two_player_race(channel, members["alice"], members["bob"])
    # a second race in the same channel is refused, privately
    refused = await members["carol"].slash(channel, "race new", game="leader1")
    assert refused.ephemeral and "already running" in refused.response.content
    # carol runs a race with an AI rider in another channel at the same time
    await members["carol"].slash(other, "race new", game="leader1", pieces=1)
    await members["carol"].slash(other, "race ai")
    await members["carol"].slash(other, "race start")
    for _ in range(400):
        if any("**Finish**" in m.content for m in channel.history()):
            break
        message = last_prompt(channel)
        assert message is not None
        await play_prompt(message, members)
        side = last_prompt(other)
        if side is not None and not any("**Finish**" in m.content for m in other.history()):
            await play_prompt(side, members)
    history = channel.history()
    assert any("**Finish**" in m.content for m in history)
    assert sum(1 for m in history if m.attachments) >= 10  # a board after every turn
    final = next(m for m in history if "**Finish**" in m.content)
    assert "yellow" in final.content and "blue" in final.content
    assert len(other.history()) > 3  # the other channel's race went on beside it
    status = await members["alice"].slash(channel, "race status")
    assert status.ephemeral and "no race" in status.response.content.lower()


async def test_someone_elses_decision_and_stale_buttons_are_refused_privately(simcord_env, db_path) -> None:
    _, channel, members = world(simcord_env, "alice", "bob", "eve")
    await start_two_player_race(channel, members["alice"], members["bob"])
    prompt = last_prompt(channel)
    mentioned = int(MENTION.search(prompt.content).group(1))
    other = next(m for m in members.values() if m.id not in (mentioned,) and m.name != "eve")
    before = len(channel.history())
    wrong = await other.click(prompt, label="Pass")
    assert private(wrong).ephemeral and "not yours" in private(wrong).content
    stranger = await members["eve"].click(prompt, label="Pass")
    assert private(stranger).ephemeral and "not playing" in private(stranger).content
    assert len(channel.history()) == before
    await play_prompt(prompt, members)
    # the answered prompt is retired: its buttons are gone (a stale version is refused by the service:
    # tests/test_service.py::test_someone_else_and_strangers_and_stale_buttons_are_refused)
    with pytest.raises(SetupError):
        await next(m for m in members.values() if m.id == mentioned).click(prompt, label="Pass")


async def test_undo_export_and_replay(simcord_env) -> None:
    _, channel, members = world(simcord_env, "alice", "bob")
    await start_two_player_race(channel, members["alice"], members["bob"])
    for _ in range(6):
        await play_prompt(last_prompt(channel), members)
    bob_undo = await members["bob"].slash(channel, "race undo")
    assert bob_undo.ephemeral and "Only the host" in (bob_undo.response or bob_undo.followups[0]).content
    undone = await members["alice"].slash(channel, "race undo")
    assert undone.ephemeral
    assert any("took back" in m.content for m in channel.history()[-3:])
    exported = await members["alice"].slash(channel, "race export")
    reply = exported.response or exported.followups[0]
    data = await reply.attachments[0].read()
    result = replay(load_record(data.decode()))
    assert result.error_at is None
    bot: DomestiqueBot = simcord_env.bot
    race = await bot.storage.active_race(channel.id)
    state = await bot.service.core.state_of(race)
    assert public_view(result.state) == public_view(state)
    assert json.loads(data)["players"][0]["team"] == "yellow"


async def test_a_timer_expiring_decides_for_the_player(simcord_env) -> None:
    _, channel, members = world(simcord_env, "alice", "bob")
    await start_two_player_race(channel, members["alice"], members["bob"], timer=5)
    prompt = last_prompt(channel)
    await simcord_env.advance_time(151)
    texts = [m.content for m in channel.history()]
    assert any("reminder" in t for t in texts)
    await simcord_env.advance_time(150)
    texts = [m.content for m in channel.history()]
    assert any("Time ran out" in t and "automatic" in t for t in texts)
    assert last_prompt(channel).id != prompt.id


async def test_a_new_bot_process_on_the_same_file_resumes_mid_turn(simcord_env, db_path) -> None:
    _, channel, members = world(simcord_env, "alice", "bob")
    await start_two_player_race(channel, members["alice"], members["bob"])
    for _ in range(3):
        await play_prompt(last_prompt(channel), members)
    prompt = last_prompt(channel)
    old: DomestiqueBot = simcord_env.bot
    race = await old.storage.active_race(channel.id)
    before = public_view(await old.service.core.state_of(race))
    seeds = random.Random(7)
    await simcord_env.restart_bot(DomestiqueBot(db_path, seeds=lambda: seeds.getrandbits(63)))
    new: DomestiqueBot = simcord_env.bot
    assert new is not old
    race = await new.storage.active_race(channel.id)
    assert public_view(await new.service.core.state_of(race)) == before
    result = await play_prompt(prompt, members)  # the old message's buttons still work
    assert result.acknowledged
    assert (await new.storage.active_race(channel.id)).version == race.version + 1


async def test_a_double_click_applies_once(simcord_env) -> None:
    """simcord runs one user operation at a time, so true simultaneity is tested at the service
    and database levels (tests/test_service.py); here the second click of a double click."""
    _, channel, members = world(simcord_env, "alice", "bob")
    await start_two_player_race(channel, members["alice"], members["bob"])
    prompt = last_prompt(channel)
    mentioned = int(MENTION.search(prompt.content).group(1))
    actor = next(m for m in members.values() if m.id == mentioned)
    bot: DomestiqueBot = simcord_env.bot
    version = (await bot.storage.active_race(channel.id)).version
    first = await actor.click(prompt, label="Pass")
    assert not first.followups and "✔" in first.response.content  # the prompt now shows the choice
    with pytest.raises(SetupError):  # the second click of a double click finds no button left
        await actor.click(prompt, label="Pass")
    assert (await bot.storage.active_race(channel.id)).version == version + 1


def test_long_lists_of_squares_are_split_into_menus_and_paged_never_cut() -> None:
    import discord

    from bot.discord_layer.components import menus
    from bot.service.model import ChoiceView, Prompt

    choices = tuple(
        ChoiceView(i, f"{10 + i // 3}.{i % 3} · 1 sq · cost 0", "", "yellow-rouleur", f"{10 + i // 3}.{i % 3}")
        for i in range(130)
    )
    prompt = Prompt(1, 1, "ann", 5, "menu", "yellow-rouleur", choices)

    def items(view: discord.ui.View, kind: type) -> list[Any]:
        return [i for i in (getattr(c, "item", c) for c in view.children) if isinstance(i, kind)]

    first = menus(prompt, 0)
    assert [len(s.options) for s in items(first, discord.ui.Select)] == [25, 25, 25, 25]
    more = items(first, discord.ui.Button)
    assert len(more) == 1 and more[0].label.startswith("More")
    second = menus(prompt, 1)
    assert sum(len(s.options) for s in items(second, discord.ui.Select)) == 30
    assert not items(second, discord.ui.Button)
    shown = {o.value for view in (first, second) for s in items(view, discord.ui.Select) for o in s.options}
    assert shown == {str(i) for i in range(130)}


def test_long_summaries_are_split_under_2000_characters() -> None:
    from bot.service.common import chunks

    text = "\n".join(f"line {i} " + "x" * 90 for i in range(60))
    parts = chunks(text)
    assert len(parts) > 1 and all(len(p) <= 2000 for p in parts)
    assert "\n".join(parts) == text


async def test_joining_the_lobby_in_a_colour_from_the_menu(simcord_env) -> None:
    _, channel, members = world(simcord_env, "alice", "bob")
    created = await members["alice"].slash(channel, "race new", game="leader1", pieces=2)
    lobby = channel.history()[-1]
    menu = next(c for c in components(lobby) if isinstance(c, __import__("discord").SelectMenu))
    assert "yellow" not in [o.value for o in menu.options] and "white" in [o.value for o in menu.options]
    joined = await members["bob"].select(lobby, ["white"], custom_id=menu.custom_id)
    assert f"white: <@{members['bob'].id}>" in joined.response.content
    # the lobby message itself shows it, edited in place: no second lobby (issue 24, item 3)
    assert f"white: <@{members['bob'].id}>" in created.response.content
    assert [m.id for m in channel.history() if components(m)] == [lobby.id]
