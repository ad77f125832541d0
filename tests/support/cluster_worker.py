"""One bot process of a shard cluster, for ``tests/test_cluster.py``: a simcord world of its own
servers, the real ``ShardedDomestiqueBot`` on a shared PostgreSQL database.

    python -m tests.support.cluster_worker DATABASE_URL SHARDS MODE

It creates one server per owned shard (the same ids on every run: simcord's ids follow its
virtual clock), each with a two-player Leader 1 race, and plays them to the end by clicking the
prompts. MODE ``play`` also lets every fifth turn timer run out; ``click`` only clicks (the test
kills it mid-way with SIGKILL); ``resume`` finds the races already in the database, lets their
timers run out once (which posts fresh prompts) and plays on. It prints one line per event:
``ACK channel index user`` once a decision is acknowledged, ``TIMEOUTS channel n`` and
``DONE`` at the end.
"""

from __future__ import annotations

import asyncio
import re
import sys
from typing import Any

import discord
from simcord import Env

from bot.discord_layer.app import ShardedDomestiqueBot
from bot.shards import Shards

MENTION = re.compile(r"<@(\d+)>")
TIMER_MINUTES = 5


def say(line: str) -> None:
    print(line, flush=True)


def last_prompt(channel: Any) -> Any:
    for message in reversed(channel.history()):
        if message.components and message.author.bot and MENTION.search(message.content):
            return message
    return None


def children(message: Any) -> list[Any]:
    return [child for row in message.components for child in getattr(row, "children", [])]


async def answer(message: Any, people: dict[int, Any]) -> Any:
    """The mentioned player answers: the first square of a menu, else Pass (else the last button)."""
    actor = people[int(MENTION.search(message.content).group(1))]  # type: ignore[union-attr]
    for child in children(message):
        if isinstance(child, discord.SelectMenu):
            return await actor.select(message, [child.options[0].value], custom_id=child.custom_id)
    labels = [getattr(c, "label", None) for c in children(message)]
    return await actor.click(message, label="Pass" if "Pass" in labels else labels[-1])


async def main(url: str, shards_text: str, mode: str) -> None:
    shards = Shards.parse(shards_text)
    bot = ShardedDomestiqueBot(url, shards=shards)
    bot.service.core.render = False  # the cluster is under test here, not the boards
    env = Env(bot)
    await env.start()
    try:
        with env.time_context():
            await run(env, bot, shards, mode)
    finally:
        await env.shutdown()


async def run(env: Env, bot: ShardedDomestiqueBot, shards: Shards, mode: str) -> None:
    channels = []
    people: dict[int, Any] = {}
    # ids follow the virtual clock: start each process's world at its own instant, so that two
    # processes never make the same channel or user id (on Discord every id is unique)
    await env.advance_time(shards.ids[0] * 10.0)
    for shard in shards.ids:
        guild = env.create_guild(f"server {shard}", shard_id=shard)
        channel = guild.create_text_channel("race")
        pair = [guild.add_member(env.create_user(f"rider-{shard}-{n}")) for n in range(2)]
        people.update({m.id: m for m in pair})
        channels.append((channel, pair))
    for channel, pair in channels if mode != "resume" else []:  # the world first: the same ids on every run
        await pair[0].slash(channel, "race new", game="leader1", pieces=1, timer=f"{TIMER_MINUTES}m")
        await pair[1].slash(channel, "race join", colour="blue")
        await pair[0].slash(channel, "race start")
    if mode == "resume":  # the prompts died with the old process: the timers post new ones
        deadlines = [r.deadline for r in await bot.storage.running_races(shards) if r.deadline]
        if deadlines:
            await env.advance_time(max(0.0, max(deadlines) - bot.service.core.now()) + 1)
    step = 0
    while step < 3000:
        live = [c for c, _ in channels if await bot.storage.active_race(c.id) is not None]
        if not live:
            break
        for channel in live:
            step += 1
            if mode == "play" and step % 5 == 0:
                await env.advance_time(TIMER_MINUTES * 60 + 1)
                continue
            race = await bot.storage.active_race(channel.id)
            prompt = last_prompt(channel)
            if race is None or prompt is None:
                continue
            before = len(race.actions)
            await answer(prompt, people)
            after = await bot.storage.race(race.id)
            if after is not None and len(after.actions) > before and not after.actions[before].automatic:
                say(f"ACK {channel.id} {before} {after.actions[before].user_id}")
    else:
        raise RuntimeError("the races did not finish in 3,000 steps")
    for channel, _ in channels:
        timeouts = sum("Time ran out" in m.content for m in channel.history())
        say(f"TIMEOUTS {channel.id} {timeouts}")
    say("DONE")


if __name__ == "__main__":
    asyncio.run(main(*sys.argv[1:4]))
