"""Issue 43: when Discord fails, the bot holds no lock, stops no timer, and shows everything it saved.

Driven through simcord with its injected REST faults (``env.inject_error``): Discord's 503 on a post,
a permission taken away (403 50013), a late interaction (404 10062), an interaction token that died
after its acknowledgement (401 50027), a prompt a moderator deletes; and the events simcord cannot
make (a deleted channel, the bot removed from a server and added back) dispatched as discord.py
would. The same cases against the real process and a loopback Discord: ``tests/test_discord_faults.py``.
"""

from __future__ import annotations

import logging
import warnings
from typing import Any

import discord
import pytest

from bot.discord_layer.app import DomestiqueBot, ShardedDomestiqueBot
from bot.discord_layer.outbox import CLUSTER_LOOK
from bot.shards import Shards
from bot.storage.outbox_tables import OwedPost
from tests.support.discord_play import last_prompt, play_prompt, start_two_player_race, world

MESSAGES = "/channels/{}/messages"


def bot_of(env: Any) -> DomestiqueBot:
    bot = env.bot
    assert isinstance(bot, DomestiqueBot)
    return bot


async def actions(bot: DomestiqueBot, channel: Any) -> int:
    race = await bot.storage.active_race(channel.id)
    assert race is not None
    return len(race.actions)


def said(result: Any) -> str:
    """Everything a person was answered, privately or not."""
    parts = [result.response] if result.response is not None else []
    return "\n".join(getattr(m, "content", "") or "" for m in [*parts, *result.followups])


def stop_faults(env: Any) -> None:
    env.backend.faults.clear()


async def test_a_refused_board_is_kept_and_posted_once_discord_takes_posts_again(simcord_env: Any) -> None:
    bot = bot_of(simcord_env)
    _, channel, members = world(simcord_env, "alice", "bob")
    await start_two_player_race(channel, members["alice"], members["bob"])
    prompt = last_prompt(channel)
    before = await actions(bot, channel)
    simcord_env.inject_error("POST", MESSAGES.format(channel.id), status=503, code=0, times=None)

    result = await play_prompt(prompt, members)

    assert await actions(bot, channel) > before  # the click was saved
    answered = said(result)
    assert "Nothing was changed" not in answered
    assert "Your decision is saved" in answered
    assert await bot.storage.outbox_depth() >= 1
    assert bot.outbox.owes(channel.id)
    assert not bot.live_prompts.lock(channel).locked()  # the channel's lock was released on the failure path
    refused = [r for r in simcord_env.http_requests if r.method == "POST" and r.path == MESSAGES.format(channel.id)]

    stop_faults(simcord_env)
    await simcord_env.advance_time(10)  # the outbox's first wait is 5 s

    assert await bot.storage.outbox_depth() == 0 and not bot.outbox.owes(channel.id)
    race = await bot.storage.active_race(channel.id)
    assert race is not None
    newest = last_prompt(channel)
    assert newest is not None and newest.id != prompt.id and newest.components  # the next prompt, live
    assert bot.failures.posts_delivered_late >= 1
    # the post sent again carries the nonce the refused one had: Discord makes it only once
    sent = [r for r in simcord_env.http_requests if r.method == "POST" and r.path == MESSAGES.format(channel.id)]
    nonces = [payload_nonce(r) for r in sent]
    assert nonces[-1] is not None and nonces[-1] in [payload_nonce(r) for r in refused]


def payload_nonce(request: Any) -> str | None:
    body = request.json if isinstance(request.json, dict) else {}
    return body.get("nonce") if body.get("enforce_nonce") else None


async def test_a_typed_move_whose_post_is_refused_is_answered_as_saved(simcord_env: Any) -> None:
    bot = bot_of(simcord_env)
    _, channel, members = world(simcord_env, "alice", "bob")
    await start_two_player_race(channel, members["alice"], members["bob"])
    race = await bot.storage.active_race(channel.id)
    assert race is not None
    state = await bot.service.core.state_of(race)
    decision = bot.service.core.prompt(await bot.service.core.store.load(race))
    assert decision is not None
    mover = members["alice"] if decision.user_id == members["alice"].id else members["bob"]
    names = await bot.service.core.choice_names(channel.id, mover.id, None)
    typed = names[0][0]
    simcord_env.inject_error("POST", MESSAGES.format(channel.id), status=503, times=None)

    result = await mover.slash(channel, "play move", choice=typed)

    assert state is not None and await actions(bot, channel) > len(race.actions)
    assert "Nothing was changed" not in said(result) and "Your decision is saved" in said(result)
    stop_faults(simcord_env)
    await simcord_env.advance_time(10)
    assert await bot.storage.outbox_depth() == 0
    assert last_prompt(channel) is not None and await bot.storage.live_prompt(channel.id) is not None


async def test_a_channel_that_refuses_posts_stops_no_other_channels_timer(simcord_env: Any) -> None:
    bot = bot_of(simcord_env)
    guild, broken, members = world(simcord_env, "alice", "bob")
    fine = guild.create_text_channel("race-two")
    await start_two_player_race(broken, members["alice"], members["bob"], timer=1)
    await start_two_player_race(fine, members["alice"], members["bob"], timer=1)
    simcord_env.inject_error("POST", MESSAGES.format(broken.id), status=503, times=None)
    simcord_env.inject_error("PATCH", MESSAGES.format(broken.id) + "/*", status=503, times=None)
    await play_prompt(last_prompt(broken), members)  # saved; its board and prompt refused
    broken_actions = await actions(bot, broken)
    fine_actions = await actions(bot, fine)

    await simcord_env.advance_time(3 * 60)  # both timers (1 minute) have run out

    assert await actions(bot, fine) > fine_actions  # the other channel's timer decided for its player
    assert await actions(bot, broken) == broken_actions  # the refusing channel's race waits: nothing decided unseen
    stop_faults(simcord_env)
    await simcord_env.advance_time(6 * 60)  # the outbox's wait has grown; it tries again
    assert await bot.storage.outbox_depth() == 0
    assert last_prompt(broken) is not None


async def test_a_permission_taken_away_tells_the_host_once_and_the_race_waits(simcord_env: Any) -> None:
    bot = bot_of(simcord_env)
    _, channel, members = world(simcord_env, "alice", "bob")
    await start_two_player_race(channel, members["alice"], members["bob"], timer=1)
    simcord_env.inject_error("POST", MESSAGES.format(channel.id), status=403, code=50013, times=None)
    simcord_env.inject_error("PATCH", MESSAGES.format(channel.id) + "/*", status=403, code=50013, times=None)
    race = await bot.storage.active_race(channel.id)
    assert race is not None

    result = await play_prompt(last_prompt(channel), members)
    await simcord_env.advance_time(20 * 60)  # the outbox tries again, and again; the timer would have run out

    assert "may not post in this channel" in said(result)
    pause = await bot.storage.pause_of(race.id)
    assert pause is not None and pause.reason == "forbidden"
    dms = [m.content for m in members["alice"].user.dm_channel.history() if "permission" in m.content]
    assert len(dms) == 1  # told once, however many posts were refused
    assert await actions(bot, channel) == len(race.actions) + 1  # only the click: no timer decided meanwhile

    stop_faults(simcord_env)  # a moderator gives the permission back
    for _ in range(16):  # the outbox tries again within its longest wait (15 minutes)
        await simcord_env.advance_time(60)
        if await bot.storage.outbox_depth() == 0:
            break
    assert await bot.storage.outbox_depth() == 0
    assert await bot.storage.pause_of(race.id) is None
    assert last_prompt(channel) is not None


async def test_a_deleted_prompt_is_posted_again(simcord_env: Any) -> None:
    bot = bot_of(simcord_env)
    guild, channel, members = world(simcord_env, "alice", "bob")
    await start_two_player_race(channel, members["alice"], members["bob"])
    prompt = last_prompt(channel)
    assert prompt is not None
    race = await bot.storage.active_race(channel.id)
    assert race is not None

    mods = guild.create_role("mods", permissions=discord.Permissions(manage_messages=True))
    moderator = guild.add_member(simcord_env.create_user("mod"), roles=[mods])
    await moderator.delete(prompt)
    await simcord_env.advance_time(1)

    again = last_prompt(channel)
    assert again is not None and again.id != prompt.id and again.components
    assert (await bot.storage.active_race(channel.id)).version == race.version  # nothing was decided
    assert await bot.storage.live_prompt(channel.id) == (again.id, again.content)
    await play_prompt(again, members)  # and it answers
    assert await actions(bot, channel) > len(race.actions)


async def test_a_late_interaction_is_not_applied_and_logged_in_one_line(
    simcord_env: Any, caplog: pytest.LogCaptureFixture
) -> None:
    bot = bot_of(simcord_env)
    _, channel, members = world(simcord_env, "alice", "bob")
    await start_two_player_race(channel, members["alice"], members["bob"])
    before = await actions(bot, channel)
    simcord_env.inject_error("POST", "/interactions/*/callback", status=404, code=10062, message="Unknown interaction")

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # "coroutine ... was never awaited" would fail here
        with caplog.at_level(logging.WARNING, logger="domestique"):
            await play_prompt(last_prompt(channel), members)
            await simcord_env.settle()

    assert await actions(bot, channel) == before
    lines = [r for r in caplog.records if "interaction" in r.getMessage()]
    assert len(lines) == 1 and lines[0].exc_info is None and "interaction-expired" in lines[0].getMessage()
    assert bot.failures.by_kind["interaction-expired"] == 1


async def test_a_click_whose_token_died_after_its_acknowledgement_still_shows_the_race(simcord_env: Any) -> None:
    bot = bot_of(simcord_env)
    _, channel, members = world(simcord_env, "alice", "bob")
    await start_two_player_race(channel, members["alice"], members["bob"])
    prompt = last_prompt(channel)
    before = await actions(bot, channel)
    simcord_env.inject_error(
        "PATCH", "/webhooks/*/messages/@original", status=401, code=50027, message="Invalid Webhook Token", times=None
    )

    await play_prompt(prompt, members)

    assert await actions(bot, channel) > before
    clicked = next(m for m in channel.history() if m.id == prompt.id)
    assert not clicked.components and clicked.content.startswith(prompt.content) and clicked.content != prompt.content
    newest = last_prompt(channel)
    assert newest is not None and newest.id != prompt.id  # the next prompt followed


async def test_a_deleted_channel_pauses_its_race_and_resume_carries_it_on_elsewhere(simcord_env: Any) -> None:
    bot = bot_of(simcord_env)
    guild, channel, members = world(simcord_env, "alice", "bob")
    await start_two_player_race(channel, members["alice"], members["bob"], timer=1)
    race = await bot.storage.active_race(channel.id)
    assert race is not None
    gone = bot.get_channel(channel.id)
    assert gone is not None

    bot.dispatch("guild_channel_delete", gone)
    await simcord_env.settle()
    await simcord_env.advance_time(5 * 60)  # its timer would have run out

    assert (await bot.storage.race(race.id)).version == race.version  # no AI plays into the void
    pause = await bot.storage.pause_of(race.id)
    assert pause is not None and pause.reason == "channel-gone"
    told = [m.content for m in members["alice"].user.dm_channel.history()]
    assert any(f"/race resume race:{race.id}" in t for t in told)

    elsewhere = guild.create_text_channel("race-again")
    refused = await members["bob"].slash(elsewhere, "race resume", race=race.id)
    assert "Only the race's host" in said(refused)
    resumed = await members["alice"].slash(elsewhere, "race resume", race=race.id)
    assert f"Race {race.id} goes on in this channel" in said(resumed)
    assert await bot.storage.pause_of(race.id) is None
    assert last_prompt(elsewhere) is not None  # its board and live prompt, here
    moved = await bot.storage.active_race(elsewhere.id)
    assert moved is not None and moved.id == race.id


async def test_removed_from_a_server_its_races_wait_and_go_on_when_added_back(simcord_env: Any) -> None:
    bot = bot_of(simcord_env)
    guild, channel, members = world(simcord_env, "alice", "bob")
    await start_two_player_race(channel, members["alice"], members["bob"], timer=1)
    race = await bot.storage.active_race(channel.id)
    assert race is not None
    server = bot.get_guild(guild.id)
    assert server is not None
    shown = len(channel.history())

    bot.dispatch("guild_remove", server)
    await simcord_env.settle()
    await simcord_env.advance_time(5 * 60)
    assert (await bot.storage.race(race.id)).version == race.version
    assert (await bot.storage.pause_of(race.id)).reason == "bot-removed"

    bot.dispatch("guild_join", server)
    await simcord_env.advance_time(1)  # the event's handler runs
    assert await bot.storage.pause_of(race.id) is None
    assert len(channel.history()) > shown and last_prompt(channel) is not None  # its board and a live prompt
    after = await bot.storage.race(race.id)
    assert after is not None and after.deadline is not None and after.deadline > simcord_env.now().timestamp()


async def test_posts_kept_before_a_restart_are_posted_when_the_bot_starts(simcord_env: Any) -> None:
    bot = bot_of(simcord_env)
    guild, channel, members = world(simcord_env, "alice", "bob")
    await start_two_player_race(channel, members["alice"], members["bob"])
    await bot.outbox.stop()  # the process ends with a post still owed (it is in the database)
    await bot.storage.owe([OwedPost(channel.id, guild.id, "Kept across the restart.", "restart-1")], now=0.0)

    await bot.outbox.start()  # what setup_hook does on the next start
    await simcord_env.advance_time(1)

    assert any(m.content == "Kept across the restart." for m in channel.history())
    assert await bot.storage.outbox_depth() == 0


async def test_posts_another_process_kept_for_this_servers_channel_are_posted(db_path: str) -> None:
    from simcord import Env

    bot = ShardedDomestiqueBot(db_path, shards=Shards((0,), 2))  # one process of two
    env = Env(bot)
    await env.start()
    try:
        with env.time_context():
            guild = env.create_guild("server 0", shard_id=0)
            channel = guild.create_text_channel("race")
            await env.advance_time(1)
            # the other process played an away seat here: it cannot post in a server it does not own
            await bot.storage.owe([OwedPost(channel.id, guild.id, "Told by the other process.", "other-1")], now=0.0)
            await env.advance_time(CLUSTER_LOOK + 1)  # nobody wakes this process: it looks every few seconds
            assert any(m.content == "Told by the other process." for m in channel.history())
            assert await bot.storage.outbox_depth() == 0
    finally:
        await env.shutdown()


async def test_a_player_who_left_the_server_is_played_by_the_ai(simcord_env: Any) -> None:
    bot = bot_of(simcord_env)
    guild, channel, members = world(simcord_env, "alice", "bob")
    await start_two_player_race(channel, members["alice"], members["bob"], timer=1)
    race = await bot.storage.active_race(channel.id)
    assert race is not None
    guild.remove_member(members["bob"])  # the bot is not told (no GUILD_MEMBERS intent): R-BOT-DEPARTED
    bob = f"u{members['bob'].id}"

    for _ in range(40):  # alice answers at once; bob's decisions time out
        prompt = last_prompt(channel)
        now = await bot.storage.active_race(channel.id)
        if now is None or bob in now.lobby.get("away", []):
            break
        if prompt is not None and str(members["alice"].id) in prompt.content.split("\n")[-1]:
            await play_prompt(prompt, members)
        else:
            await simcord_env.advance_time(61)

    after = await bot.storage.race(race.id)
    assert after is not None
    automatic = [a for a in after.actions if a.automatic and a.user_id == members["bob"].id]
    assert len(automatic) >= 3  # three timeouts in a row
    assert after.status == "finished" or bob in after.lobby.get("away", [])  # the AI plays the seat on


WALK_CALLS = [  # every kind of Discord call the walk of a decision makes
    ("POST", "/channels/{a}/messages"),  # the decision's line, the board, the next prompt
    ("PATCH", "/channels/{a}/messages/*"),  # the live prompt retired
    ("PATCH", "/webhooks/*/messages/@original"),  # the clicked prompt edited through its interaction
    ("POST", "/webhooks/*"),  # a followup to the person
    ("POST", "/users/@me/channels"),  # a private message's channel
]


@pytest.mark.parametrize(("method", "path"), WALK_CALLS)
async def test_a_failure_in_any_call_of_the_walk_holds_no_lock_and_stops_no_other_timer(
    simcord_env: Any, method: str, path: str
) -> None:
    bot = bot_of(simcord_env)
    guild, broken, members = world(simcord_env, "alice", "bob")
    other = guild.create_text_channel("race-two")
    await start_two_player_race(broken, members["alice"], members["bob"], timer=60)
    await start_two_player_race(other, members["alice"], members["bob"], timer=1)
    before = await actions(bot, other)
    simcord_env.inject_error(method, path.format(a=broken.id), status=503, times=None)

    await play_prompt(last_prompt(broken), members)
    assert not bot.live_prompts.lock(broken).locked()
    await simcord_env.advance_time(2 * 60)  # the other race's 1-minute timer runs out

    assert await actions(bot, other) > before
    assert not any(isinstance(e, discord.HTTPException) for e in simcord_env.errors)
