"""Playing races in simcord tests as people do: open a race for two players, read its state, answer
a prompt by its menu or its button, and run a two-stage league under the fake clock."""

from __future__ import annotations

import datetime
import re
from collections.abc import AsyncIterator
from typing import Any

import discord

from bot.discord_layer.app import DomestiqueBot

DAY = 24 * 3600
MENTION = re.compile(r"<@(\d+)>")


def world(env: Any, *names: str):
    """A server with a race channel and a member for each of ``names``."""
    guild = env.create_guild()
    channel = guild.create_text_channel("race")
    members = {name: guild.add_member(env.create_user(name)) for name in names}
    return guild, channel, members


def last_prompt(channel: Any):
    """The channel's latest decision prompt: a bot message with components that mentions a player."""
    for message in reversed(channel.history()):
        if message.components and message.author.bot and MENTION.search(message.content):
            return message
    return None


def components(message: Any) -> list[dict[str, Any]]:
    """A message's buttons and menus, row after row."""
    out = []
    for row in message.components:
        for child in getattr(row, "children", []):
            out.append(child)
    return out


async def play_prompt(message: Any, members: dict[str, Any]) -> Any:
    """The mentioned member answers: the first square of a menu, else Pass."""
    user_id = int(MENTION.search(message.content).group(1))
    actor = next(m for m in members.values() if m.id == user_id)
    for child in components(message):
        if isinstance(child, discord.SelectMenu):
            return await actor.select(message, [child.options[0].value], custom_id=child.custom_id)
    labels = [getattr(c, "label", None) for c in components(message)]
    return await actor.click(message, label="Pass" if "Pass" in labels else labels[-1])


async def open_race(env: Any, game: str, stage: str, pieces: int, colour: str) -> tuple[Any, dict[str, Any]]:
    """Alice opens a race of ``game`` on ``stage`` and Bob joins in ``colour``: the channel and the members."""
    _, channel, members = world(env, "alice", "bob")
    created = await members["alice"].slash(channel, "race new", game=game, stage=stage, pieces=pieces)
    assert "lobby" in created.response.content
    await members["bob"].slash(channel, "race join", colour=colour)
    return channel, members


async def state_now(bot: DomestiqueBot, channel: Any) -> Any:
    """The state of the channel's race as the bot has it now."""
    return await bot.service.core.state_of(await bot.storage.active_race(channel.id))


async def until_the_finish(bot: DomestiqueBot, channel: Any, limit: int) -> AsyncIterator[tuple[Any, Any]]:
    """The channel's latest prompt and the race's state, again after each answer, until the finish is
    posted (``limit`` times at most: the test then finds no finish)."""
    for _ in range(limit):
        if any("**Finish**" in m.content for m in channel.history()):
            return
        yield last_prompt(channel), await state_now(bot, channel)


def member_of(members: dict[str, Any], player: str) -> Any:
    """The member who plays as ``player`` (the bot's player ids are ``u<user id>``)."""
    return next(m for m in members.values() if player == f"u{m.id}")


def towards_a_feed_tile(state: Any, choices: list[Any]) -> int:
    """The index of a breakaway from turn 2 on (a rider soon crosses a feed zone and keeps a tile),
    else of the last choice (a pass)."""
    wanted = next((i for i, c in enumerate(choices) if c.action.do == "breakaway" and state.turn >= 2), None)
    return len(choices) - 1 if wanted is None else wanted


async def answer(actor: Any, prompt: Any, index: int) -> bool:
    """``actor`` picks choice ``index`` in ``prompt``'s menus or clicks its button; False when the
    prompt offers it neither way (a two-step prompt's second step)."""
    selects = [c for c in components(prompt) if isinstance(c, discord.SelectMenu)]
    menu = next((s for s in selects if str(index) in [o.value for o in s.options]), None)
    if menu is not None:
        await actor.select(prompt, [str(index)], custom_id=menu.custom_id)
        return True
    button = next(
        (
            c
            for c in components(prompt)
            if (getattr(c, "custom_id", "") or "").startswith("dq:c:") and c.custom_id.endswith(f":{index}")
        ),
        None,
    )
    if button is not None:
        await actor.click(prompt, custom_id=button.custom_id)
        return True
    return False


async def two_stage_league(
    env: Any, *, name: str, game: str, stages: str, colours: tuple[str, str, str], days: int
) -> tuple[Any, list[Any], Any, Any]:
    """Alice creates a weekly league of two ``stages`` (Thursdays 01:00 UTC, three riders each), she
    and Bob join in the first two ``colours``, an AI in the third; the clock runs (at most ``days``)
    until both stages are finished. The league's channel, its stages and the two stages' races."""
    guild = env.create_guild()
    league_channel = guild.create_text_channel("league")
    m = {who: guild.add_member(env.create_user(who)) for who in ("alice", "bob")}
    created = await m["alice"].slash(
        league_channel,
        "league create",
        name=name,
        channel=league_channel,
        game=game,
        stages=stages,
        weekday="thu",
        hour=1,
        timezone="UTC",
        timer="60m",
        pieces=3,
    )
    assert "created" in created.response.content
    await m["alice"].slash(league_channel, "league join", colour=colours[0])
    await m["bob"].slash(league_channel, "league join", colour=colours[1])
    await m["alice"].slash(league_channel, "league ai", colour=colours[2])
    closed = await m["alice"].slash(league_channel, "league close")
    first = datetime.datetime(2026, 1, 1, 1, 0, tzinfo=datetime.UTC)
    assert f"<t:{int(first.timestamp())}:F>" in closed.response.content
    bot: DomestiqueBot = env.bot

    async def both_finished() -> list[Any] | None:
        league = (await bot.leagues.store.leagues())[0]
        played = await bot.leagues.store.stages(league.id)
        return played if played[1].status == "finished" else None

    for _ in range(days * 4):
        if await both_finished():
            break
        await env.advance_time(DAY / 4)
    played = await both_finished()
    assert played is not None, f"the league's two stages did not finish within {days} days"
    race1 = await bot.storage.race(played[0].race_id)
    race2 = await bot.storage.race(played[1].race_id)
    return league_channel, played, race1, race2


async def start_two_player_race(channel: Any, alice: Any, bob: Any, timer: int = 60) -> None:
    """A Leader 1 race of one rider each, alice in yellow and bob in blue, started."""
    created = await alice.slash(channel, "race new", game="leader1", pieces=1, timer=f"{timer}m")
    assert not created.ephemeral and "lobby" in created.response.content
    joined = await bob.slash(channel, "race join", colour="blue")
    assert "blue" in joined.response.content
    started = await alice.slash(channel, "race start")
    assert started.ephemeral
