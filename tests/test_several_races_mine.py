"""Issue 28, ``/race mine`` (simcord, a real SQLite file): a person seated in three races in two
servers sees all three, each with its channel's link and whether the decision is theirs now (its
deadline as a Discord timestamp), newest decision first, also in a private message to the bot;
a race in a server the bot does not share with them is not listed, and long lists are paged."""

from __future__ import annotations

import re
from typing import Any

from bot.discord_layer.app import DomestiqueBot
from bot.service import away as away_module
from rules.registry import find_game

LINK = re.compile(r"https://discord\.com/channels/(\d+)/(\d+)")


def reply(result: Any) -> str:
    return "\n".join(m.content for m in [result.response, *result.followups] if m is not None)


async def start(host: Any, channel: Any, game: str, guests: list[Any], **options: Any) -> None:
    created = await host.slash(channel, "race new", game=game, **options)
    assert "lobby" in reply(created)
    for guest in guests:
        await guest.slash(channel, "race join")
    started = await host.slash(channel, "race start")
    assert "The race is on" in reply(started), reply(started)


async def three_races(env: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """Alice sits in a Leader 1 race and a Formula Dé Mini race in one server and a Peloton race in
    another; Bob and Carol race with her. The members (per server) and channels by game."""
    one = env.create_guild()
    two = env.create_guild()
    alice_user, bob_user, carol_user = (env.create_user(n) for n in ("alice", "bob", "carol"))
    alice, bob = one.add_member(alice_user), one.add_member(bob_user)
    alice2, carol = two.add_member(alice_user), two.add_member(carol_user)
    channels = {
        "leader1": one.create_text_channel("classic"),
        "formula-de-mini": one.create_text_channel("cars"),
        "peloton": two.create_text_channel("peloton"),
    }
    await start(alice, channels["leader1"], "leader1", [bob], pieces=1)
    await start(bob, channels["formula-de-mini"], "formula-de-mini", [alice], pieces=1)
    await start(carol, channels["peloton"], "peloton", [alice2])
    return {"alice": alice, "bob": bob, "alice2": alice2, "carol": carol}, channels


async def whose_turn(bot: DomestiqueBot, channel: Any) -> str | None:
    race = await bot.storage.active_race(channel.id) or await bot.storage.latest_race(channel.id)
    decision = find_game(race.game).rules.pending(await bot.service.core.state_of(race))
    return decision.player if decision is not None else None


async def test_three_races_in_two_servers_are_all_listed_with_the_right_your_move_flags(simcord_env) -> None:
    members, channels = await three_races(simcord_env)
    bot: DomestiqueBot = simcord_env.bot
    alice = members["alice"]
    shown = await alice.slash(channels["leader1"], "race mine")
    assert shown.ephemeral
    text = reply(shown)
    lines = [line for line in text.splitlines() if line.startswith("- ")]
    assert len(lines) == 3, text
    for game, channel in channels.items():
        line = next(ln for ln in lines if f"/{channel.id}" in ln)
        assert find_game(game).title in line
        assert f"https://discord.com/channels/{channel.guild.id}/{channel.id}" in line
        mine = await whose_turn(bot, channel) == f"u{alice.id}"
        assert ("**your decision**, due <t:" in line) == mine, line
        assert re.search(r"<t:\d+:R>", line) or not mine
        if not mine:
            assert "waiting for " in line
        if game == "peloton":  # the game ranks its cyclists while racing: her best one's place
            assert re.search(r"your best cyclist: \d+(st|nd|rd|th) of \d+", line), line
    assert any("**your decision**" in ln for ln in lines) and any("waiting for" in ln for ln in lines)
    assert f"u{alice.id}" not in text and "rider=" not in text and "<@" not in text  # people as players know them

    # the same list in a private message to the bot
    in_dm = await alice.user.slash("race mine")
    assert [ln for ln in reply(in_dm).splitlines() if ln.startswith("- ")] == lines
    # a channel's command still asks for a server
    refused = await alice.user.slash("race status")
    assert "works in a server channel" in reply(refused)
    assert [type(e).__name__ for e in simcord_env.errors] == ["CheckFailure"]  # told, as a guild-only command is


async def test_the_newest_decision_comes_first(simcord_env) -> None:
    members, channels = await three_races(simcord_env)
    bot: DomestiqueBot = simcord_env.bot
    await simcord_env.advance_time(600)
    # a decision in the Leader 1 race: its next decision is the newest
    channel = channels["leader1"]
    player = await whose_turn(bot, channel)
    actor = next(m for m in (members["alice"], members["bob"]) if f"u{m.id}" == player)
    race = await bot.storage.active_race(channel.id)
    state = await bot.service.core.state_of(race)
    from bot.service.common import choice_key

    first = find_game("leader1").rules.choices(state, player)[-1]
    await actor.slash(channel, "play move", choice=choice_key(first))
    listed = [ln for ln in reply(await members["alice"].slash(channel, "race mine")).splitlines() if ln[:2] == "- "]
    assert f"/{channel.id}" in listed[0], listed


async def test_a_race_in_a_server_the_bot_does_not_share_is_left_out_and_a_long_list_is_paged(
    simcord_env, monkeypatch
) -> None:
    members, channels = await three_races(simcord_env)
    bot: DomestiqueBot = simcord_env.bot
    alice = members["alice"]
    # a race stored for a server the bot is not in (it left it): not shown
    hidden = await bot.service.lobby.new_race(987654321, 123456789, alice.id, "alice", game="leader1", pieces=1)
    assert hidden.lobby_race is not None
    await bot.service.lobby.add_ai(123456789, alice.id, None)
    await bot.service.lobby.start(123456789, alice.id)
    text = reply(await alice.slash(channels["leader1"], "race mine"))
    assert "123456789" not in text and len([ln for ln in text.splitlines() if ln[:2] == "- "]) == 3

    monkeypatch.setattr(away_module, "PAGE", 2)
    first = reply(await alice.slash(channels["leader1"], "race mine"))
    assert len([ln for ln in first.splitlines() if ln[:2] == "- "]) == 2
    assert "Page 1 of 2" in first and "/race mine page:2" in first
    second = reply(await alice.slash(channels["leader1"], "race mine", page=2))
    assert len([ln for ln in second.splitlines() if ln[:2] == "- "]) == 1 and "Page 2 of 2" in second
    assert all(len(m) <= 2000 for m in (first, second))
    beyond = reply(await alice.slash(channels["leader1"], "race mine", page=3))
    assert "2 pages" in beyond


async def test_a_race_that_ends_leaves_the_list(simcord_env) -> None:
    members, channels = await three_races(simcord_env)
    ended = await members["carol"].slash(channels["peloton"], "race abort")
    assert "aborted" in reply(ended)
    text = reply(await members["alice"].slash(channels["leader1"], "race mine"))
    lines = [ln for ln in text.splitlines() if ln[:2] == "- "]
    assert len(lines) == 2 and not any(f"/{channels['peloton'].id}" in ln for ln in lines)


async def test_a_race_in_a_server_of_another_shard_is_listed_when_its_channel_is_visible(
    simcord_env, monkeypatch
) -> None:
    """In a shard cluster (docs/deploy.md) the process answering holds only its own shards' servers:
    a race in another process's server is checked over Discord's REST API, as the cache would be,
    and a race in a channel there that the person may not see stays out."""
    import discord

    from bot.shards import Shards

    members, channels = await three_races(simcord_env)
    bot: DomestiqueBot = simcord_env.bot
    alice = members["alice"]
    there = channels["peloton"].guild
    secret = there.create_text_channel(
        "secret", overwrites={members["alice2"]: discord.PermissionOverwrite(view_channel=False)}
    )
    started = await bot.service.lobby.new_race(there.id, secret.id, alice.id, "alice", game="leader1", pieces=1)
    assert started.lobby_race is not None
    await bot.service.lobby.add_ai(secret.id, alice.id, None)
    await bot.service.lobby.start(secret.id, alice.id)

    class OneServerElsewhere(Shards):  # the Peloton race's server belongs to another process
        def owns(self, guild_id: int) -> bool:
            return guild_id != there.id

    monkeypatch.setattr(bot.service.core, "shards", OneServerElsewhere((0,), 2))
    held = bot.get_guild
    monkeypatch.setattr(bot, "get_guild", lambda guild_id: None if guild_id == there.id else held(guild_id))
    text = reply(await alice.slash(channels["leader1"], "race mine"))
    links = {int(found.group(2)) for found in LINK.finditer(text)}
    assert links == {c.id for c in channels.values()}, text
