"""Peloton's time-trial card draft on the lobby message (simcord, a real SQLite file): once the host
starts the race the lobby message becomes the draft, each pick edits it in place and is told in the
channel, and the first board comes when every cyclist has its card (rulings R-PEL-CARDS)."""

from __future__ import annotations

import random
import re
from typing import Any

import discord
import pytest
from simcord.backend.errors import SetupError

from bot.discord_layer.app import DomestiqueBot
from bot.service.common import Refusal
from rules.peloton.cards import card
from rules.record import load_record, replay
from tests.test_bot import components, private, world


def now(channel: Any, message_id: int) -> discord.Message:
    """A message as the channel shows it now (edited in place)."""
    return next(m for m in channel.history() if m.id == message_id)


def menu_of(message: discord.Message) -> discord.SelectMenu:
    return next(c for c in components(message) if isinstance(c, discord.SelectMenu))


def value_of(menu: discord.SelectMenu, number: int) -> str:
    """The menu's value for card ``number`` (its label starts ``card N:``)."""
    return next(o.value for o in menu.options if o.label.startswith(f"card {number}:"))


def cards_left(message: discord.Message) -> list[int]:
    part = message.content.split("**Cards left**", 1)[1]
    return [int(n) for n in re.findall(r"^card (\d+):", part, re.M)]


async def open_draft(env: Any, pieces: int = 2) -> tuple[Any, dict[str, Any], int]:
    """alice opens an individual time trial, bob joins and alice adds an AI with the lobby's buttons,
    then starts it with the lobby's Start button: the lobby message's id."""
    _, channel, members = world(env, "alice", "bob")
    await members["alice"].slash(channel, "race new", game="peloton", stage="itt-25", pieces=pieces)
    lobby = channel.history()[-1]
    await members["bob"].click(lobby, label="Join")
    await members["alice"].click(lobby, label="Add AI player")
    shown = now(channel, lobby.id)
    assert "red: <@" in shown.content and "(AI)" in shown.content
    # these tests read the draft in seat order; drawn lots (a new race's default) are tested in
    # tests/peloton/test_start_order.py
    await members["alice"].slash(channel, "race option", option="start_order", value="seats")
    lobby = now(channel, lobby.id)  # the lobby message, edited in place with the choice
    assert "starting order: seats" in lobby.content
    await members["alice"].click(lobby, label="Start")
    return channel, members, lobby.id


async def test_a_whole_time_trial_draft_on_the_lobby_message(simcord_env) -> None:
    channel, members, lobby = await open_draft(simcord_env)
    alice, bob = members["alice"], members["bob"]
    draft = now(channel, lobby)
    # the lobby message is now the draft: the starting order, the 13 cards in words, whose pick
    assert "Starting order" in draft.content and "1. No. 1 (grey), alice" in draft.content
    assert "2. No. 4 (red), bob" in draft.content and "3. No. 7 (blue), AI 1" in draft.content
    assert f"<@{alice.id}>, choose a time-trial card for **No. 1 (grey)**" in draft.content
    assert cards_left(draft) == list(range(1, 14))
    assert f"card 4: {card(4).words}" in draft.content and "+1 energy, +9.2 s, wind 0" in draft.content
    assert "Wind:" in draft.content
    assert len(menu_of(draft).options) == 13  # every card, in one menu
    assert not [c for c in components(draft) if isinstance(c, discord.Button)]  # the lobby's buttons are gone
    assert not any(m.attachments for m in channel.history())  # no board before the draft is over
    told = channel.history()[-1]
    assert f"<@{alice.id}>" in told.content and "starting order fixed" in told.content
    assert [u.id for u in told.mentions] == [alice.id]  # the one to pick is mentioned once, in the channel

    await alice.select(draft, [value_of(menu_of(draft), 4)], custom_id=menu_of(draft).custom_id)
    draft = now(channel, lobby)
    assert "1. No. 1 (grey), alice, starts move 1: card 4 (+1 energy, +9.2 s, wind 0)" in draft.content
    assert 4 not in cards_left(draft) and len(menu_of(draft).options) == 12
    assert f"<@{bob.id}>, choose a time-trial card for **No. 4 (red)**" in draft.content
    told = channel.history()[-1]
    assert "No. 1 (grey) takes card 4" in told.content and [u.id for u in told.mentions] == [bob.id]

    await bob.select(draft, [value_of(menu_of(draft), 13)], custom_id=menu_of(draft).custom_id)
    draft = now(channel, lobby)
    # the AI's cyclist picked at once after bob's: alice's second cyclist is next
    assert "No. 4 (red), bob, starts move 3: card 13" in draft.content
    assert re.search(r"3\. No\. 7 \(blue\), AI 1, starts move 5: card \d+", draft.content)
    assert f"<@{alice.id}>, choose a time-trial card for **No. 2 (grey)**" in draft.content
    told = channel.history()[-1]
    assert "No. 4 (red) takes card 13" in told.content and "No. 7 (blue) takes card" in told.content
    assert len(cards_left(draft)) == 10

    picks = 0
    while components(now(channel, lobby)):
        draft = now(channel, lobby)
        actor = alice if f"<@{alice.id}>, choose" in draft.content else bob
        await actor.select(draft, [menu_of(draft).options[0].value], custom_id=menu_of(draft).custom_id)
        picks += 1
    assert picks == 2  # alice's No. 2, bob's No. 5; the AI's No. 8 at once
    draft = now(channel, lobby)
    assert "The draft is over" in draft.content and len(cards_left(draft)) == 7
    history = channel.history()
    first_board = next(i for i, m in enumerate(history) if m.attachments)
    assert "the draft is over, the race starts" in history[first_board].content
    assert "set the dial" in history[-1].content  # the first move's prompt
    exported = await alice.slash(channel, "race export")
    data = await (exported.response or exported.followups[0]).attachments[0].read()
    record = load_record(data.decode())
    cards = [a for a in record.actions if a.do == "card"]
    assert [a.get("cyclist") for a in cards] == ["1", "4", "7", "2", "5", "8"]  # the starting order
    assert record.actions[: len(cards)] == tuple(cards)  # the race's first decisions, as before
    assert [a.get("card") for a in cards[:2]] == [4, 13]
    assert replay(record).error_at is None


async def test_someone_elses_pick_is_refused_privately_and_changes_nothing(simcord_env) -> None:
    channel, members, lobby = await open_draft(simcord_env, pieces=1)
    bot: DomestiqueBot = simcord_env.bot
    before = now(channel, lobby)
    version = (await bot.storage.active_race(channel.id)).version
    count = len(channel.history())
    wrong = await members["bob"].select(before, [menu_of(before).options[0].value], custom_id=menu_of(before).custom_id)
    answer = private(wrong)
    assert answer.ephemeral and "not yours" in answer.content
    after = now(channel, lobby)
    assert after.content == before.content and menu_of(after).custom_id == menu_of(before).custom_id
    assert len(channel.history()) == count
    race = await bot.storage.active_race(channel.id)
    assert race.version == version and not race.actions


async def test_a_stale_or_double_pick_is_applied_once(simcord_env) -> None:
    channel, members, lobby = await open_draft(simcord_env, pieces=1)
    alice = members["alice"]
    bot: DomestiqueBot = simcord_env.bot
    draft = now(channel, lobby)
    old = menu_of(draft)
    first = await alice.select(draft, [value_of(old, 9)], custom_id=old.custom_id)
    assert first.acknowledged
    # the second click of a double click: the menu it was made on is gone from the message
    with pytest.raises(SetupError):
        await alice.select(draft, [value_of(old, 9)], custom_id=old.custom_id)
    # a click from a client still showing the old menu (simcord only clicks what a message shows now,
    # so it goes to the menu's handler as discord.py would route it): refused, as from an earlier moment
    race_id, version = (int(p) for p in old.custom_id.split(":")[2:4])
    with pytest.raises(Refusal, match="earlier moment"):
        await bot.service.core.decide(race_id, version, alice.id, int(value_of(old, 9)))
    race = await bot.storage.active_race(channel.id)
    assert [a.text for a in race.actions] == [f"u{alice.id} card cyclist=1 card=9"]
    assert now(channel, lobby).content.count("card 9 (") == 1


async def test_a_restart_mid_draft_loses_no_pick(simcord_env, db_path) -> None:
    channel, members, lobby = await open_draft(simcord_env)
    alice, bob = members["alice"], members["bob"]
    draft = now(channel, lobby)
    await alice.select(draft, [value_of(menu_of(draft), 2)], custom_id=menu_of(draft).custom_id)
    old: DomestiqueBot = simcord_env.bot
    seeds = random.Random(7)
    await simcord_env.restart_bot(DomestiqueBot(db_path, seeds=lambda: seeds.getrandbits(63)))
    new: DomestiqueBot = simcord_env.bot
    assert new is not old
    race = await new.storage.active_race(channel.id)
    assert [a.text for a in race.actions] == [f"u{alice.id} card cyclist=1 card=2"]
    draft = now(channel, lobby)  # the menu shown before the restart still works
    await bob.select(draft, [value_of(menu_of(draft), 11)], custom_id=menu_of(draft).custom_id)
    race = await new.storage.active_race(channel.id)
    picked = [a.text.split()[-1] for a in race.actions]
    assert picked[:2] == ["card=2", "card=11"] and len(picked) == 3  # and the AI's pick at once
    draft = now(channel, lobby)
    assert "card 2 (" in draft.content and "card 11 (" in draft.content
    assert 2 not in cards_left(draft) and 11 not in cards_left(draft)
    assert f"<@{alice.id}>, choose a time-trial card for **No. 2 (grey)**" in draft.content


async def test_a_pick_whose_time_runs_out_is_made_by_the_ai_on_the_lobby_message(simcord_env) -> None:
    _, channel, members = world(simcord_env, "alice", "bob")
    alice, bob = members["alice"], members["bob"]
    await alice.slash(channel, "race new", game="peloton", stage="itt-25", pieces=1, timer="10m")
    lobby = channel.history()[-1].id
    await bob.click(now(channel, lobby), label="Join")
    await alice.click(now(channel, lobby), label="Start")
    await simcord_env.advance_time(301)
    reminder = channel.history()[-1]
    assert "reminder" in reminder.content and [u.id for u in reminder.mentions] == [alice.id]
    await simcord_env.advance_time(300)
    told = [m.content for m in channel.history()]
    assert any("Time ran out" in t and "No. 1 (grey) takes card" in t for t in told)
    draft = now(channel, lobby)  # edited by the timer, with no click behind it
    assert re.search(r"1\. No\. 1 \(grey\), alice, starts move 1: card \d+", draft.content)
    assert f"<@{bob.id}>, choose a time-trial card for **No. 4 (red)**" in draft.content
    assert len(menu_of(draft).options) == 12


async def test_a_typed_pick_after_the_lobby_message_was_deleted_posts_the_draft_anew(simcord_env) -> None:
    guild, channel, members = world(simcord_env, "alice", "bob")
    alice, bob = members["alice"], members["bob"]
    moderators = guild.create_role("mods", permissions=discord.Permissions(manage_messages=True))
    mod = guild.add_member(simcord_env.create_user("mod"), roles=[moderators])
    await alice.slash(channel, "race new", game="peloton", stage="itt-25", pieces=1)
    lobby = channel.history()[-1].id
    await bob.click(now(channel, lobby), label="Join")
    await alice.click(now(channel, lobby), label="Start")
    await mod.delete(now(channel, lobby))
    typed = await alice.slash(channel, "play move", choice="card cyclist=1 card=5")
    assert private(typed).ephemeral and "takes card 5" in private(typed).content
    drafts = [m for m in channel.history() if "— Peloton, the draft" in m.content]
    assert len(drafts) == 1 and drafts[0].id != lobby
    assert channel.history()[-1].id == drafts[0].id  # posted anew, below the pick's post
    assert "takes card 5" in channel.history()[-2].content and "on the draft:" in channel.history()[-2].content
    draft = drafts[0]
    assert "card 5 (" in draft.content and 5 not in cards_left(draft)
    await bob.select(draft, [value_of(menu_of(draft), 1)], custom_id=menu_of(draft).custom_id)
    draft = now(channel, draft.id)  # remembered: the next pick edits the new message
    assert "No. 4 (red), bob, starts move 3: card 1" in draft.content and not draft.components


async def test_a_league_time_trial_stage_posts_its_draft_and_picks_edit_it(simcord_env) -> None:
    """A league stage opens with no lobby message: the draft is posted in the stage's thread and
    remembered, and the picks edit it."""
    guild = simcord_env.create_guild()
    league_channel = guild.create_text_channel("league")
    m = {name: guild.add_member(simcord_env.create_user(name)) for name in ("alice", "bob")}
    await m["alice"].slash(
        league_channel,
        "league create",
        name="Chrono",
        channel=league_channel,
        game="peloton",
        stages="itt-25",
        weekday="thu",
        hour=1,
        timezone="UTC",
        timer="60m",
        pieces=1,
    )
    await m["alice"].slash(league_channel, "league join", colour="grey")
    await m["bob"].slash(league_channel, "league join", colour="red")
    await m["alice"].slash(league_channel, "league close")
    for _ in range(30):  # the stage is due on Thursday 1 January 2026, 01:00 UTC
        if league_channel.threads:
            break
        await simcord_env.advance_time(300)  # before its first pick's reminder (60 minutes: at 30)
    stage = league_channel.threads[0]
    history = stage.history()
    drafts = [msg for msg in history if "— Peloton, the draft" in msg.content]
    assert len(drafts) == 1 and history[-1].id == drafts[0].id  # below the stage's header and the ping
    assert "stage 1" in history[0].content and "on the draft below" in history[-2].content
    draft = drafts[0]
    assert f"<@{m['alice'].id}>, choose a time-trial card for **No. 1 (grey)**" in draft.content
    await m["alice"].select(draft, [value_of(menu_of(draft), 3)], custom_id=menu_of(draft).custom_id)
    draft = now(stage, draft.id)  # remembered: edited in place
    assert "card 3 (" in draft.content and 3 not in cards_left(draft)
    assert f"<@{m['bob'].id}>, choose a time-trial card for **No. 4 (red)**" in draft.content
    assert len([msg for msg in stage.history() if "— Peloton, the draft" in msg.content]) == 1
