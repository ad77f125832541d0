"""Issue 14 hardening: a bad snapshot is dropped, and the Discord paths that had no test."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from bot.discord_layer.app import DomestiqueBot
from bot.service.races import RaceService
from bot.storage.sqlite import SqliteStorage
from rules.registry import find_game
from tests.support.discord_play import member_of, state_now, towards_a_feed_tile
from tests.test_bot import last_prompt, play_prompt, start_two_player_race, world

GUILD, CHANNEL, ANN, BOB = 1, 10, 101, 102


async def test_an_unreadable_snapshot_is_replayed_and_dropped(tmp_path: Path) -> None:
    storage = SqliteStorage(str(tmp_path / "races.db"))
    await storage.open()
    try:
        service = RaceService(storage, now=lambda: 1_000_000.0, render=False)
        await service.lobby.new_race(
            GUILD, CHANNEL, ANN, "Ann", game="leader1", track="first-race", seed=5, timer=3600, pieces=2
        )
        await service.lobby.join(CHANNEL, BOB, "Bob", "blue")
        await service.lobby.start(CHANNEL, ANN)
        rules = find_game("leader1").rules
        for _ in range(4):
            race = await storage.active_race(CHANNEL)
            assert race is not None
            state = await service.core.state_of(race)
            decision = rules.pending(state)
            user = ANN if decision.player == f"u{ANN}" else BOB
            await service.core.decide(race.id, race.version, user, 0)
        race = await storage.active_race(CHANNEL)
        assert race is not None and len(race.actions) > 0
        assert await storage.snapshot(race.id) is not None
        await storage.db.update("UPDATE snapshots SET state = {} WHERE race_id = {}", (b"\x80\x05garbage", race.id))
        service.core.store.forget(race.id)
        state = await service.core.state_of(race)  # logs the bad snapshot and replays
        assert await storage.snapshot(race.id) is None  # the bad row is gone, not retried on every load
        replayed = RaceService(storage, render=False)  # no snapshot left: a pure replay of the record
        assert rules.public_view(state) == rules.public_view(await replayed.core.state_of(race))
    finally:
        await storage.close()


# ---- the Discord paths that had no test (simcord; the plugin closes the bot, and so its database, at teardown)


def _reply(result: Any) -> Any:
    return result.response or result.followups[0]


async def test_race_log_and_board(simcord_env) -> None:
    _, channel, members = world(simcord_env, "alice", "bob")
    await start_two_player_race(channel, members["alice"], members["bob"])
    for _ in range(3):
        await play_prompt(last_prompt(channel), members)
    log = await members["bob"].slash(channel, "race log")
    assert "turn" in _reply(log).content.lower()
    board = await members["bob"].slash(channel, "race board")
    image = await _reply(board).attachments[0].read()
    assert image.startswith(b"\x89PNG")


async def test_abort_is_for_the_host_then_the_channel_is_free(simcord_env) -> None:
    _, channel, members = world(simcord_env, "alice", "bob")
    await start_two_player_race(channel, members["alice"], members["bob"])
    bot: DomestiqueBot = simcord_env.bot
    refused = await members["bob"].slash(channel, "race abort")
    assert refused.ephemeral and "host" in _reply(refused).content.lower()
    assert await bot.storage.active_race(channel.id) is not None
    await members["alice"].slash(channel, "race abort")
    assert await bot.storage.active_race(channel.id) is None
    again = await members["bob"].slash(channel, "race new", game="leader1", pieces=1)
    assert "lobby" in _reply(again).content


async def test_leaving_the_lobby(simcord_env) -> None:
    _, channel, members = world(simcord_env, "alice", "bob")
    await members["alice"].slash(channel, "race new", game="leader1", pieces=1)
    await members["bob"].slash(channel, "race join", colour="blue")
    bot: DomestiqueBot = simcord_env.bot
    race = await bot.storage.active_race(channel.id)
    assert [(s["user"], s["team"]) for s in race.lobby["seats"]] == [
        (members["alice"].id, "yellow"),
        (members["bob"].id, "blue"),
    ]
    left = await members["bob"].slash(channel, "race leave")
    assert _reply(left).content == f"<@{members['bob'].id}> leaves the race."
    lobby = next(m for m in channel.history() if "lobby (" in m.content)  # edited in place
    assert f"<@{members['bob'].id}>" not in lobby.content
    race = await bot.storage.active_race(channel.id)
    assert [(s["user"], s["team"]) for s in race.lobby["seats"]] == [(members["alice"].id, "yellow")]


async def test_an_unexpected_error_is_private_with_a_ref_and_changes_nothing(simcord_env, monkeypatch) -> None:
    _, channel, members = world(simcord_env, "alice", "bob")
    await members["alice"].slash(channel, "race new", game="leader1", pieces=1)
    await members["bob"].slash(channel, "race join", colour="blue")
    bot: DomestiqueBot = simcord_env.bot
    before = await bot.storage.active_race(channel.id)

    async def broken(*_args: Any, **_kwargs: Any) -> Any:
        raise RuntimeError("a bug")

    monkeypatch.setattr(bot.service.lobby, "leave", broken)
    result = await members["bob"].slash(channel, "race leave")
    assert result.ephemeral
    assert re.match(r"Something went wrong \(ref [0-9a-f]+\)", _reply(result).content)
    after = await bot.storage.active_race(channel.id)
    assert after.version == before.version and after.lobby == before.lobby


async def test_players_with_closed_dms_still_play_and_their_tiles_stay_secret(simcord_env, caplog) -> None:
    import logging

    from bot.service.common import choice_key

    caplog.set_level(logging.INFO)

    _, channel, members = world(simcord_env, "alice", "bob")
    for member in members.values():  # Discord's answer to a DM to a user who closed them: 403, code 50007
        dm = member.user.dm_channel
        simcord_env.inject_error(
            "POST",
            f"/channels/{dm.id}/messages",
            status=403,
            code=50007,
            message="Cannot send messages to this user",
            times=None,
        )
    await start_two_player_race(channel, members["alice"], members["bob"])
    bot: DomestiqueBot = simcord_env.bot
    rules = find_game("leader1").rules
    kept = None
    for _ in range(200):  # typed moves (they post to the channel and DM), breaking away until a tile is kept
        state = await state_now(bot, channel)
        kept = next((r for r in state.riders if r.kept), None)
        if kept is not None:
            break
        decision = rules.pending(state)
        choices = [c for c in rules.choices(state, decision.player) if not c.anytime]
        pick = choices[towards_a_feed_tile(state, choices)]
        done = await member_of(members, decision.player).slash(channel, "play move", choice=choice_key(pick))
        assert "went wrong" not in _reply(done).content
    assert kept is not None, "no rider kept a feed tile"
    assert "could not send a private message" in caplog.text  # the DM was tried and refused
    for member in members.values():
        assert not [m for m in member.user.dm_channel.history() if m.author.bot]  # nothing got through
    assert not any("worth" in m.content for m in channel.history())  # and nothing leaked to the channel
    assert last_prompt(channel) is not None  # the race goes on
    hand = await next(m for m in members.values() if kept.player == f"u{m.id}").slash(channel, "race hand")
    assert f"#0: {kept.kept[0]}" in hand.response.content  # /race hand is the way to read it


async def test_closing_the_storage_waits_for_the_transaction_under_way(tmp_path: Path) -> None:
    import asyncio

    storage = SqliteStorage(str(tmp_path / "close.db"))
    await storage.open()
    race = await storage.create_race(GUILD, CHANNEL, ANN, "leader1", {"seats": [], "timer": 60})
    entered, release = asyncio.Event(), asyncio.Event()
    read: list[object] = []

    async def saving() -> None:  # a transaction under way, as a decision being saved holds it
        async with storage.db.guard:
            entered.set()
            await release.wait()
            read.append(await storage.race_tables._race(race.id))  # the connection is still open

    task = asyncio.create_task(saving())
    await entered.wait()
    closing = asyncio.create_task(storage.close())
    await asyncio.sleep(0.05)
    assert not closing.done()  # close waits ...
    release.set()
    await task
    await closing  # ... then closes
    assert read and read[0] is not None
    assert storage.db._db is None
