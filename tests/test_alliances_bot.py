"""Alliances the bot understands (issue 37), end to end with simcord: invitations of any size, their
lapse, pacts, the marked choice and its confirm step, the ledger in the allies' thread."""

from __future__ import annotations

from typing import Any

import pytest

from bot.discord_layer.app import DomestiqueBot

HOUR = 3600


@pytest.fixture
def db_path(database_url: str) -> str:
    """Every test here runs the bot on both backends: an SQLite file, then a PostgreSQL database."""
    return database_url


def world(env: Any, *names: str):
    guild = env.create_guild()
    members = {name: guild.add_member(env.create_user(name)) for name in names}
    return guild, members


def reply_text(result: Any) -> str:
    return (result.response or result.followups[0]).content


def last_with(channel: Any, words: str) -> Any:
    return next(msg for msg in reversed(channel.history()) if words in msg.content)


async def start_race(channel: Any, m: dict[str, Any], *, ai: int = 0) -> None:
    await m["alice"].slash(channel, "race new", game="leader1", pieces=1, timer="60m")
    for name, colour in zip(("bob", "carol", "dave"), ("blue", "green", "white"), strict=False):
        if name in m:
            await m[name].slash(channel, "race join", colour=colour)
    for _ in range(ai):
        await m["alice"].slash(channel, "race ai")
    await m["alice"].slash(channel, "race start")


def thread_texts(channel: Any, index: int = 0) -> list[str]:
    return [msg.content for msg in channel.threads[index].history()]


async def test_an_alliance_of_three_is_named_invited_told_and_shown(simcord_env) -> None:
    guild, m = world(simcord_env, "alice", "bob", "carol", "dave")
    channel = guild.create_text_channel("race")
    await start_race(channel, m)
    myself = await m["alice"].slash(channel, "alliance invite", player=m["alice"])
    assert myself.ephemeral and "yourself" in reply_text(myself)
    await m["alice"].slash(channel, "alliance invite", player=m["bob"], name="Breakaway club")
    await m["bob"].click(last_with(channel, "proposes an alliance"), label="Accept")
    (thread,) = channel.threads
    backend_thread = simcord_env.backend.get_channel(thread.id)
    assert set(backend_thread.thread_members) >= {m["alice"].id, m["bob"].id}
    outsider = await m["dave"].slash(channel, "alliance invite", player=m["carol"])  # dave founds his own
    assert outsider.ephemeral
    invited = await m["bob"].slash(channel, "alliance invite", player=m["carol"])  # a member invites another
    assert invited.ephemeral
    invitation = last_with(channel, "invites you to join the alliance Breakaway club")
    assert thread_texts(channel)[-1] == "blue bob invited green carol."  # the other members are told
    await m["carol"].click(last_with(channel, "white (<@"), label="Decline")  # dave's proposal
    assert "green (<@" in channel.history()[-1].content and "declined" in channel.history()[-1].content
    await m["carol"].click(invitation, label="Accept")
    assert m["carol"].id in set(simcord_env.backend.get_channel(thread.id).thread_members)
    told = thread_texts(channel)
    assert any("green carol accepted" in t and "yellow" in t and "blue" in t for t in told)  # the others are told
    assert any("green carol joins the alliance Breakaway club" in msg.content for msg in channel.history())
    status = await m["dave"].slash(channel, "race status")
    assert "Alliance: Breakaway club: yellow alice + blue bob + green carol" in status.response.content
    stale = await m["carol"].click(invitation, label="Accept")
    assert stale.ephemeral and "already answered" in reply_text(stale)
    left = await m["bob"].slash(channel, "alliance leave")
    assert left.ephemeral
    assert (
        "blue (<@" in channel.history()[-1].content
        and "left the alliance Breakaway club" in channel.history()[-1].content
    )
    status = await m["dave"].slash(channel, "race status")
    assert "Alliance: Breakaway club: yellow alice + green carol" in status.response.content


async def test_an_invitation_not_answered_in_48_hours_lapses_and_says_so(simcord_env) -> None:
    guild, m = world(simcord_env, "alice", "bob", "carol")
    channel = guild.create_text_channel("race")
    await m["alice"].slash(channel, "race new", game="leader1", pieces=1, timer="7d")
    await m["bob"].slash(channel, "race join", colour="blue")
    await m["carol"].slash(channel, "race join", colour="green")
    await m["alice"].slash(channel, "alliance invite", player=m["bob"])  # in the lobby: a player of the race
    invitation = last_with(channel, "proposes an alliance")
    await simcord_env.advance_time(47 * HOUR)
    assert not any("lapsed" in msg.content for msg in channel.history())
    await simcord_env.advance_time(2 * HOUR)
    lapsed = last_with(channel, "lapsed")
    assert "blue bob" in lapsed.content and "48 hours" in lapsed.content
    late = await m["bob"].click(invitation, label="Accept")
    assert late.ephemeral and "no longer open" in reply_text(late)
    bot: DomestiqueBot = simcord_env.bot
    race = await bot.storage.active_race(channel.id)
    assert [a.status for a in await bot.storage.alliances(race.id)] == ["lapsed"]
    again = await m["alice"].slash(channel, "alliance invite", player=m["bob"])  # asked anew after a lapse
    assert again.ephemeral and "Proposal sent" in reply_text(again)
