"""Issue 28, since my last move (simcord, a real SQLite file): each prompt a person gets after others
have played starts with one line naming every piece that moved since their last decision, where it
went (and who fell, broke away, was caught), short enough for a phone and never showing what is
hidden (a kept feed tile, a weather marker face down); a private-message prompt starts with it too;
``/race recap since:me`` animates the boards from the turn of that decision."""

from __future__ import annotations

import io
import re
from typing import Any

from PIL import Image

from bot.discord_layer.app import DomestiqueBot
from bot.service.catch_up import last_decision
from bot.service.common import choice_key, record_of
from renderer.recap import turn_states
from rules.hell_of_the_north.narrate import WEATHER_WORDS
from rules.record import start_state
from rules.registry import find_game
from tests.test_several_races_mine import reply, start

SINCE = re.compile(r"^Since (\w+) last decided: (.*)\.$", re.MULTILINE)
RIDER_FIELDS = ("rider", "car", "cyclist")


def race_world(env: Any, *names: str) -> tuple[Any, dict[str, Any]]:
    guild = env.create_guild()
    return guild.create_text_channel("race"), {n: guild.add_member(env.create_user(n)) for n in names}


async def play_one(bot: DomestiqueBot, channel: Any, members: dict[str, Any]) -> bool:
    """The player asked answers with the AI's choice (typed); False once the race is over."""
    race = await bot.storage.active_race(channel.id)
    if race is None:
        return False
    game = find_game(race.game)
    state = await bot.service.core.state_of(race)
    decision = game.rules.pending(state)
    if decision is None:
        return False
    actor = next(m for m in members.values() if f"u{m.id}" == decision.player)
    wanted = game.ai(state, decision.player)
    offered = next(c for c in game.rules.choices(state, decision.player) if c.action == wanted)
    await actor.slash(channel, "play move", choice=choice_key(offered))
    return True


async def moved_since(bot: DomestiqueBot, channel: Any, player: str) -> set[str]:
    """The names of the pieces others' decisions moved since ``player`` last decided (from the record)."""
    race = await bot.storage.active_race(channel.id)
    game = find_game(race.game)
    state = await bot.service.core.state_of(race)
    since = last_decision(race.actions, player)
    names = set()
    for stored in race.actions[(since or -1) + 1 :]:
        action = game.vocabulary.from_text(stored.text)
        piece = next((str(v) for k, v in action.items() if k in RIDER_FIELDS), None)
        if action.by != player and piece is not None and action.do not in ("pass", "gear", "dial", "eat"):
            names.add(game.narration.piece_name(state, piece))
    return names


async def test_a_prompt_starts_with_every_move_since_the_players_last_decision(simcord_env) -> None:
    channel, members = race_world(simcord_env, "alice", "bob", "carol")
    await start(members["alice"], channel, "leader1", [members["bob"], members["carol"]], pieces=2)
    bot: DomestiqueBot = simcord_env.bot
    checked = 0
    for _ in range(40):
        before = len(channel.history())
        race = await bot.storage.active_race(channel.id)
        if race is None:
            break
        decision = find_game(race.game).rules.pending(await bot.service.core.state_of(race))
        asked = decision.player if decision is not None else None
        if not await play_one(bot, channel, members):
            break
        race = await bot.storage.active_race(channel.id)
        if race is None:
            break
        decision = find_game(race.game).rules.pending(await bot.service.core.state_of(race))
        if decision is None or decision.player == asked:
            continue  # the same player again: nobody else played since
        name = next(n for n, m in members.items() if f"u{m.id}" == decision.player)
        prompt = next(m for m in reversed(channel.history()[before:]) if m.components)
        expected = await moved_since(bot, channel, decision.player)
        if last_decision(race.actions, decision.player) is None or not expected:
            continue
        first = prompt.content.splitlines()[0]
        found = SINCE.match(first)
        assert found is not None and found.group(1) == name, prompt.content
        for piece in expected:
            assert piece in found.group(2), (piece, first)
        # and nothing from before that decision: every piece it names did something since
        since = last_decision(race.actions, decision.player)
        game = find_game(race.game)
        record = record_of(race)
        _, then = start_state(record.with_actions(()))
        for action in record.actions[: (since or -1) + 1]:
            then, _ = game.rules.apply(then, action)
        now = await bot.service.core.state_of(race)
        recent = game.rules.events(now)[len(game.rules.events(then)) :]
        active = {game.narration.piece_name(now, str(e.data[k])) for e in recent for k in RIDER_FIELDS if k in e.data}
        every = {
            game.narration.piece_name(now, str(e.data[k]))
            for e in game.rules.events(now)
            for k in RIDER_FIELDS
            if k in e.data
        }
        named = {n for n in every if n in found.group(2)}
        assert named <= active, (named, active, first)
        assert len(first) < 400  # a line for a phone
        assert "tile" not in first and "kept" not in first and "<@" not in first and "rider=" not in first
        assert not re.search(r"\bu\d{6,}", first)  # no player ids
        checked += 1
    assert checked >= 5, "too few prompts after others' moves"


async def test_a_private_message_prompt_starts_with_the_catch_up_line(simcord_env) -> None:
    channel, members = race_world(simcord_env, "alice", "bob")
    await start(members["alice"], channel, "leader1", [members["bob"]], pieces=3)
    await members["bob"].slash(channel, "race notify", how="dm")
    bot: DomestiqueBot = simcord_env.bot
    for _ in range(12):
        await play_one(bot, channel, members)
    told = [m.content for m in members["bob"].user.dm_channel.history() if "Your turn" in m.content]
    caught_up = [t for t in told if "Since your last decision: " in t]
    assert caught_up, told
    assert all(t.index("Since your last decision") < t.index("Your turn") for t in caught_up)


async def test_no_weather_marker_is_told_in_a_catch_up_line(simcord_env) -> None:
    channel, members = race_world(simcord_env, "alice", "bob")
    await start(members["alice"], channel, "hell-of-the-north", [members["bob"]], stage="flanders", pieces=3)
    bot: DomestiqueBot = simcord_env.bot
    lines = []
    for _ in range(60):
        if not await play_one(bot, channel, members):
            break
    for message in channel.history():
        lines += [ln for ln in message.content.splitlines() if SINCE.match(ln)]
    assert len(lines) >= 5
    for line in lines:
        for words in WEATHER_WORDS.values():
            assert words not in line
        assert "weather" not in line and "tile" not in line


async def test_recap_since_me_animates_the_turns_from_my_last_decision(simcord_env) -> None:
    channel, members = race_world(simcord_env, "alice", "bob")
    await start(members["alice"], channel, "leader1", [members["bob"]], pieces=1)
    bot: DomestiqueBot = simcord_env.bot
    alice = members["alice"]
    for _ in range(30):
        race = await bot.storage.active_race(channel.id)
        state = await bot.service.core.state_of(race)
        if find_game("leader1").rules.turn(state) >= 5:
            break
        await play_one(bot, channel, members)
    # Alice is away from the board for a while: Bob decides, her seat is the AI's
    await alice.slash(channel, "race away", until="2d")
    for _ in range(8):
        await play_one(bot, channel, members)
    await alice.slash(channel, "race away", until="back")
    race = await bot.storage.active_race(channel.id)
    then = bot.service.core.catch_up.turn_of_last_decision(race, find_game("leader1"), f"u{alice.id}")
    now = find_game("leader1").rules.turn(await bot.service.core.state_of(race))
    assert then is not None and then < now, (then, now)

    answer = await alice.slash(channel, "race recap", since="me")
    assert "recap is posted" in reply(answer)
    post = channel.history()[-1]
    assert "since alice last decided, turn by turn" in post.content
    frames = Image.open(io.BytesIO(await post.attachments[0].read())).n_frames
    wanted = turn_states(record_of(race), now - then + 1)
    whole = turn_states(record_of(race))
    assert frames == len(wanted) < len(whole), (then, now, [find_game("leader1").rules.turn(s) for s in whole])

    refused = await members["bob"].slash(channel, "race recap", since="me")
    assert "recap is posted" in reply(refused)  # Bob plays too: his own since
    outsider = simcord_env.create_user("dave")
    dave = channel.guild.add_member(outsider)
    told = await dave.slash(channel, "race recap", since="me")
    assert told.ephemeral and "You are not playing in this race" in reply(told)


def test_no_catch_up_line_before_a_players_first_decision(tmp_path) -> None:
    """A player who has not decided yet has no "since their last decision": the start's summary tells
    the AI's first moves (the demo's Formula Dé Mini race: AI cars move before the host's first car)."""
    from bot.cli import main

    assert main(["demo", "--game", "formula-de-mini", "--out", str(tmp_path / "demo")]) == 0
    channel = (tmp_path / "demo" / "channel.md").read_text(encoding="utf-8")
    before_first_decision = channel.split("✔ Demo host", 1)[0]
    assert "Round 1" in before_first_decision  # the AI moved before the host was first asked
    assert "last decided" not in before_first_decision
    assert "Since Demo host last decided" in channel  # and later prompts do catch up
