"""Pacts agreed by a majority (issue 37): the race's host (``/alliance votes``) or the league's organiser
(``/league create pacts:majority``) lets more than half of an alliance's members make a pact; the
default stays every member. simcord, both databases."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from bot.discord_layer.app import DomestiqueBot
from bot.leagues.pact_votes import votes_of
from tests.test_alliances_bot import allied, buttons, last_with, reply_text, start_race, thread_texts, world


@pytest.fixture
def db_path(database_url: str) -> str:
    return database_url


def message(where: Any, msg: Any) -> Any:
    """``msg`` as it is now (after its edits)."""
    return next(m for m in where.history() if m.id == msg.id)


async def test_a_majority_of_the_members_makes_a_pact_when_the_host_says_so(simcord_env) -> None:
    guild, m = world(simcord_env, "alice", "bob", "carol")
    channel = guild.create_text_channel("race")
    await start_race(channel, m)
    thread = await allied(channel, m, "alice", "bob", "carol")
    await m["alice"].slash(thread, "alliance pact", kind="no-chase")  # every member, by default
    await m["bob"].click(last_with(thread, "proposes a pact"), label="Accept")
    assert "Every member accepts it" in last_with(thread, "proposes a pact").content
    assert thread_texts(channel)[-1] == "blue bob accepts the pact: no chase, until the end."  # carol still to answer
    await m["carol"].click(last_with(thread, "proposes a pact"), label="Decline")
    assert thread_texts(channel)[-1] == "green carol declined the pact: no chase, until the end. It is not made."
    not_host = await m["bob"].slash(channel, "alliance votes", decide="majority")
    assert not_host.ephemeral and "Only the race's host" in reply_text(not_host)
    await m["alice"].slash(channel, "alliance votes", decide="majority")
    assert channel.history()[-1].content == "From now on a majority of an alliance's members makes its pacts."
    await m["alice"].slash(thread, "alliance pact", kind="relay")
    proposal = last_with(thread, "proposes a pact: relay")
    assert "It is made when 2 of the 3 members accept it." in proposal.content
    await m["carol"].click(proposal, label="Decline")
    assert thread_texts(channel)[-1] == "green carol declined the pact: relay, until the end."  # not lost yet
    shown = message(thread, proposal)
    assert shown.content.endswith("\nDeclined by green carol.") and buttons(shown) == ["Accept", "Decline"]
    again = await m["carol"].click(proposal, label="Accept")
    assert again.ephemeral and "answered it already" in reply_text(again)
    await m["bob"].click(proposal, label="Accept")
    assert thread_texts(channel)[-1] == "Pact made by a majority (2 of 3 members): relay, until the end."
    assert buttons(message(thread, proposal)) == []
    bot: DomestiqueBot = simcord_env.bot
    race = await bot.storage.active_race(channel.id)
    assert [p.kind for p in await bot.pacts.in_force(race)] == ["relay"]
    await m["alice"].slash(thread, "alliance pact", kind="no-chase")  # two of three say no: not made
    proposal = last_with(thread, "proposes a pact: no chase")
    await m["bob"].click(proposal, label="Decline")
    await m["carol"].click(proposal, label="Decline")
    assert thread_texts(channel)[-1] == "green carol declined the pact: no chase, until the end. It is not made."
    assert [p.kind for p in await bot.pacts.in_force(race)] == ["relay"]


async def test_a_league_s_organiser_sets_majority_votes_for_its_stages(simcord_env) -> None:
    guild, m = world(simcord_env, "alice", "bob")
    league_channel = guild.create_text_channel("league")
    await m["alice"].slash(
        league_channel,
        "league create",
        name="Spring",
        channel=league_channel,
        game="leader1",
        stages="first-race",
        pacts="majority",
    )
    channel = guild.create_text_channel("race")
    await m["alice"].slash(channel, "race new", game="leader1", pieces=1, timer="60m")
    bot: DomestiqueBot = simcord_env.bot
    race = await bot.storage.active_race(channel.id)
    assert await votes_of(race, bot.storage) == "all"  # a race outside the league: the default
    (league,) = await bot.leagues.store.leagues()
    stage = dataclasses.replace(race, league_id=league.id, stage=1)
    assert await votes_of(stage, bot.storage) == "majority"
