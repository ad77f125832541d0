"""Issue 24, item 3: the lobby is one message, whatever changes it.

A click on the lobby's buttons edited the lobby message in place, but typed ``/race join``,
``/race ai`` and ``/race leave`` (and a host's ``/race option``, and a pick in the colour menu)
each posted a new lobby with live buttons: after seven lobby actions a channel showed five live
lobbies. Now every lobby action edits the one lobby message, and a typed command answers with
one short line (no buttons)."""

from __future__ import annotations

from typing import Any

import discord

from tests.support.discord_play import components, world


def live_lobbies(channel: Any) -> list[Any]:
    """The channel's messages that still carry lobby buttons or the lobby's colour menu."""
    return [
        m
        for m in channel.history()
        if m.author.bot
        and any((getattr(c, "custom_id", "") or "").startswith(("dq:l:", "dq:lc:")) for c in components(m))
    ]


def said(result: Any) -> Any:
    return result.response or result.followups[0]


async def test_every_lobby_action_edits_the_one_lobby_message(simcord_env) -> None:
    _, channel, m = world(simcord_env, "alice", "bob", "carol", "dave")
    alice, bob, carol, dave = m["alice"], m["bob"], m["carol"], m["dave"]
    await alice.slash(channel, "race new", game="leader1", pieces=1)
    [lobby] = live_lobbies(channel)
    typed = [
        await bob.slash(channel, "race join", colour="blue"),
        await alice.slash(channel, "race ai"),
        await carol.slash(channel, "race join"),
        await bob.slash(channel, "race leave"),
        await alice.slash(channel, "race ai", colour="blue"),
    ]
    for result in typed:  # one short line each, no buttons of its own
        answer = said(result)
        assert "\n" not in answer.content and not answer.components, answer.content
    menu = next(c for c in components(lobby) if isinstance(c, discord.SelectMenu))
    await dave.select(lobby, [menu.options[-1].value], custom_id=menu.custom_id)
    await bob.click(lobby, label="Join")

    assert [x.id for x in live_lobbies(channel)] == [lobby.id]  # still the one lobby, edited in place
    shown = live_lobbies(channel)[0].content
    for who in (alice, carol, dave, bob):
        assert f"<@{who.id}>" in shown, shown
    assert shown.count("(AI)") == 2 and "blue: AI 2 (AI)" in shown, shown
    started = await alice.slash(channel, "race start")
    assert "on" in said(started).content


async def test_the_host_choosing_a_race_option_edits_the_lobby_too(simcord_env) -> None:
    _, channel, m = world(simcord_env, "alice", "bob")
    await m["alice"].slash(channel, "race new", game="hell-of-the-north", stage="flanders", pieces=1)
    await m["bob"].slash(channel, "race join", colour="white")
    chosen = await m["alice"].slash(channel, "race option", option="weather", value="3")
    assert said(chosen).content == "The host chose weather markers: 3." and not said(chosen).components
    [lobby] = live_lobbies(channel)
    assert "weather" in lobby.content.lower() and f"<@{m['bob'].id}>" in lobby.content, lobby.content


async def test_a_lobby_message_that_is_gone_is_posted_again(simcord_env) -> None:
    _, channel, m = world(simcord_env, "alice", "bob")
    await m["alice"].slash(channel, "race new", game="leader1", pieces=1)
    [lobby] = live_lobbies(channel)
    await lobby.delete()  # someone removed it
    joined = await m["bob"].slash(channel, "race join", colour="blue")
    [again] = live_lobbies(channel)
    assert again.id != lobby.id and f"blue: <@{m['bob'].id}>" in again.content
    assert f"<@{m['bob'].id}>" in said(joined).content
