"""Issue 11, the race as a conversation: how people are told (/race notify, private messages that
say where they come from, closed DMs), timer presets, deadlines on /race status, clean names,
and public text free of internal ids and action syntax."""

from __future__ import annotations

import re
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

from bot.cli.demo import run_demo
from bot.discord_layer.app import DomestiqueBot
from bot.service.common import Refusal
from bot.service.durations import PRESETS, in_words, parse_duration
from bot.service.names import clean_name
from bot.service.races import RaceService
from bot.storage.sqlite import SqliteStorage
from rules.registry import find_game, game_ids
from tests.test_bot import MENTION, last_prompt, play_prompt, start_two_player_race, world


def reply(result: Any) -> Any:
    return result.response or result.followups[0]


def pinged(env: Any, channel: Any, message: Any) -> list[int]:
    """Whom Discord notified for a message (its mentions filtered by allowed_mentions)."""
    return list(env.backend.messages[channel.id][message.id].ping_user_ids)


def bot_dms(member: Any) -> list[str]:
    channel = member.user.dm_channel
    return [m.content for m in channel.history() if m.author.bot] if channel is not None else []


async def prompt_for(channel: Any, members: dict[str, Any], member: Any, turns: int = 40) -> Any:
    """Play (passing) until a prompt is ``member``'s; that prompt."""
    for _ in range(turns):
        prompt = last_prompt(channel)
        if int(MENTION.search(prompt.content).group(1)) == member.id:
            return prompt
        await play_prompt(prompt, members)
    raise AssertionError(f"no prompt for {member.id}")


# ---- /race notify


async def test_notify_by_private_message_says_where_and_does_not_ping(simcord_env) -> None:
    guild, channel, members = world(simcord_env, "alice", "bob")
    alice, bob = members["alice"], members["bob"]
    shown = await alice.slash(channel, "race notify")
    assert shown.ephemeral and "mention you" in reply(shown).content  # the default
    chosen = await alice.slash(channel, "race notify", how="dm")
    assert chosen.ephemeral and "private message" in reply(chosen).content
    await start_two_player_race(channel, alice, bob)
    prompt = await prompt_for(channel, members, alice)
    assert alice.id not in pinged(simcord_env, channel, prompt)  # named, not pinged
    dms = bot_dms(alice)
    assert dms, "alice was not told privately"
    assert guild.name in dms[-1] and "#race" in dms[-1] and f"/channels/{guild.id}/{channel.id}" in dms[-1]
    assert "Race 1" in dms[-1] and "Your turn" in dms[-1]
    bob_prompt = await prompt_for(channel, members, bob)
    assert pinged(simcord_env, channel, bob_prompt) == [bob.id]  # bob kept the default: a ping
    assert not bot_dms(bob)


async def test_notify_none_leaves_only_the_reminder(simcord_env) -> None:
    _, channel, members = world(simcord_env, "alice", "bob")
    alice, bob = members["alice"], members["bob"]
    await bob.slash(channel, "race notify", how="none")
    await start_two_player_race(channel, alice, bob, timer=10)
    prompt = await prompt_for(channel, members, bob)
    assert pinged(simcord_env, channel, prompt) == []
    await simcord_env.advance_time(301)  # half of the 10 minutes
    reminder = next(m for m in reversed(channel.history()) if "reminder" in m.content)
    assert pinged(simcord_env, channel, reminder) == [bob.id]  # the one reminder still pings
    assert "<t:" in reminder.content


async def test_the_preference_is_per_server_and_checked(tmp_path: Path) -> None:
    storage = SqliteStorage(str(tmp_path / "people.db"))
    await storage.open()
    try:
        service = RaceService(storage, render=False)
        await service.people.notify(1, 7, "dm")
        assert await storage.notify_mode(1, 7) == "dm"
        assert await storage.notify_mode(2, 7) is None  # another server: the default
        with pytest.raises(Refusal, match="mention, dm, none"):
            await service.people.notify(1, 7, "carrier pigeon")
        assert await storage.notify_mode(1, 7) == "dm"
    finally:
        await storage.close()


# ---- private messages that cannot be delivered


async def test_a_closed_dm_is_handed_over_privately_at_the_next_action(simcord_env) -> None:
    _, channel, members = world(simcord_env, "alice", "bob")
    alice, bob = members["alice"], members["bob"]
    await alice.slash(channel, "race notify", how="dm")
    await start_two_player_race(channel, alice, bob)
    dm = alice.user.dm_channel
    if dm is None:
        await alice.slash(channel, "race status")
    simcord_env.inject_error(
        "POST",
        f"/channels/{alice.user.dm_channel.id}/messages",
        status=403,
        code=50007,
        message="Cannot send messages to this user",
        times=None,
    )
    prompt = await prompt_for(channel, members, bob)  # alice's next prompt comes after bob's
    await play_prompt(prompt, members)
    prompt = await prompt_for(channel, members, alice)
    result = await play_prompt(prompt, members)  # alice acts: she is told what she missed
    notes = [f.content for f in result.followups if "could not send you a private message" in f.content]
    assert notes and "Your turn" in notes[0]
    assert all(f.ephemeral for f in result.followups)
    again = await alice.slash(channel, "race status")  # handed over once, not on every action
    assert not any("could not send" in f.content for f in again.followups)


# ---- timers in words


def test_timer_presets_and_custom_durations() -> None:
    assert [name for name, _ in PRESETS] == ["1 hour", "12 hours", "24 hours", "48 hours", "7 days"]
    assert parse_duration("12 hours") == 12 * 3600
    assert parse_duration("90m") == 90 * 60 and parse_duration("90") == 90 * 60
    assert parse_duration("36h") == 36 * 3600 and parse_duration("2d") == 2 * 86400
    for bad in ("3w", "soon", "8d", "0m"):
        with pytest.raises(Refusal):
            parse_duration(bad)
    assert in_words(86400) == "24 hours" and in_words(5400) == "90 minutes" and in_words(604800) == "7 days"


async def test_race_new_offers_timer_presets_and_takes_a_custom_one(simcord_env) -> None:
    _, channel, members = world(simcord_env, "alice")
    alice = members["alice"]
    offered = await alice.autocomplete(channel, "race new", "timer", "", game="leader1")
    assert [o["name"] for o in offered] == [name for name, _ in PRESETS]
    typed = await alice.autocomplete(channel, "race new", "timer", "90m", game="leader1")
    assert typed[0]["name"].startswith("90 minutes")
    refused = await alice.slash(channel, "race new", game="leader1", timer="3 weeks")
    assert refused.ephemeral and "not a duration" in reply(refused).content
    bot: DomestiqueBot = simcord_env.bot
    assert await bot.storage.active_race(channel.id) is None  # nothing was opened
    created = await alice.slash(channel, "race new", game="leader1", timer="12 hours")
    assert "12 hours per decision" in reply(created).content


async def test_status_says_until_when(simcord_env) -> None:
    _, channel, members = world(simcord_env, "alice", "bob")
    await start_two_player_race(channel, members["alice"], members["bob"])
    race = await simcord_env.bot.storage.active_race(channel.id)
    status = await members["bob"].slash(channel, "race status")
    text = reply(status).content
    assert f"<t:{int(race.deadline)}:R>" in text and f"<t:{int(race.deadline)}:f>" in text


# ---- names


def test_names_lose_what_discord_would_read_as_markup_or_a_mention() -> None:
    assert clean_name("@everyone") == "everyone"
    assert clean_name("**Ann** _the_ ~~fast~~") == "Ann the fast"
    assert clean_name("<@123> `x` ||y|| > z") == "123 x y z"
    assert clean_name("\u202e\n\t") == "Player"
    assert len(clean_name("x" * 200)) == 32
    assert clean_name("Zoë Café") == "Zoë Café"


async def test_a_name_that_would_ping_everyone_is_shown_harmless(simcord_env) -> None:
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("race")
    alice = guild.add_member(simcord_env.create_user("alice"))
    mallory = guild.add_member(simcord_env.create_user("@everyone **boss**"))
    await alice.slash(channel, "race new", game="leader1", pieces=1)
    await mallory.slash(channel, "race join", colour="blue")
    await alice.slash(channel, "race start")
    for _ in range(60):
        prompt = last_prompt(channel)
        if prompt is None:
            break
        await play_prompt(prompt, {"alice": alice, "mallory": mallory})
    texts = "\n".join(m.content for m in channel.history())
    assert "everyone boss" in texts  # her seat's name, cleaned
    assert "@everyone" not in texts and "**boss**" not in texts


# ---- public text: players and pieces as people know them, actions in words


ID_LIKE = re.compile(r"\bu\d{3,}\b|\bai\d+\b|\b[a-z]+-(?:rouleur|leader|climber|sprinter|\d)\b|\w+=\w+")


@pytest.mark.parametrize("game", sorted(game_ids()))
async def test_a_whole_race_names_no_internal_ids(game: str, tmp_path: Path) -> None:
    transcript = await run_demo(tmp_path, game=game, players=3, seed=3)
    text = "\n".join(transcript)
    mentions_removed = re.sub(r"<@\d+>|<t:\d+:\w>", "", text)
    leaks = sorted(set(ID_LIKE.findall(mentions_removed)))
    assert not leaks, f"{game}: internal ids or action syntax in public text: {leaks[:10]}"
    assert "an AI" not in text and "AI 1" in text  # AI seats by a readable name
    assert "✔ Demo host — " in text  # every decision of the person is told in the channel
    finish = text[text.index("**Finish**") :]
    assert "🏆" in finish and "Podium" in finish


async def test_an_answered_prompt_tells_what_the_choice_did(simcord_env) -> None:
    _, channel, members = world(simcord_env, "alice", "bob")
    await start_two_player_race(channel, members["alice"], members["bob"])
    rules = find_game("leader1").rules
    bot: DomestiqueBot = simcord_env.bot
    for _ in range(40):  # pass until a breakaway is on offer, then break away with the first square
        prompt = last_prompt(channel)
        race = await bot.storage.active_race(channel.id)
        state = await bot.service.core.state_of(race)
        decision = rules.pending(state)
        if any(c.action.do == "breakaway" for c in rules.choices(state, decision.player)) and state.turn >= 2:
            actor = next(m for m in members.values() if decision.player == f"u{m.id}")
            step = next(c for c in prompt.components[0].children if "reak" in (c.label or ""))
            opened = await actor.click(prompt, custom_id=step.custom_id)
            menu = opened.followups[-1]
            select = menu.components[0]["components"][0]
            await actor.select(menu, [select["options"][0]["value"]], custom_id=select["custom_id"])
            # the line is added to the public prompt, as a click on it would (issue 24, item 2)
            public = [m.content for m in channel.history() if not m.flags.ephemeral]
            told = [line for text in public for line in text.splitlines() if line.startswith("✔")]
            assert told and re.search(r"✔ \w+ — \w+ \w+ breaks away to \d+\.\d, \d+ squares", told[-1]), told[-1:]
            return
        await play_prompt(prompt, members)
    raise AssertionError("no breakaway was offered")


# ---- a failing timer waits alone


async def test_a_failing_race_timer_backs_off_alone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    storage = SqliteStorage(str(tmp_path / "timers.db"))
    await storage.open()
    clock = [1_000_000.0]
    try:
        service = RaceService(storage, now=lambda: clock[0], render=False)
        for channel in (10, 11):
            await service.lobby.new_race(1, channel, 101, "Ann", game="leader1", track="first-race", seed=1, timer=60)
            await service.lobby.add_ai(channel, 101)
            await service.lobby.start(channel, 101)
        broken = (await storage.active_race(10)).id
        original = service.timers._tick_race
        calls: list[int] = []

        async def tick_race(race: Any) -> Any:
            calls.append(race.id)
            if race.id == broken:
                raise RuntimeError("missing permission")
            return await original(race)

        monkeypatch.setattr(service.timers, "_tick_race", tick_race)
        clock[0] += 61  # both deadlines passed
        done = await service.timers.tick()
        assert [channel for channel, _ in done] == [11]  # the healthy race's timer ran
        assert calls.count(broken) == 1
        assert await service.timers.next_deadline() >= clock[0] + 30  # no retry at once, no busy loop
        clock[0] += 10
        await service.timers.tick()
        assert calls.count(broken) == 1  # still waiting
        clock[0] += 25
        await service.timers.tick()
        assert calls.count(broken) == 2  # retried after 30 s; the next wait is 60 s
        clock[0] += 40
        await service.timers.tick()
        assert calls.count(broken) == 2
    finally:
        await storage.close()


async def test_one_ping_per_run_of_decisions_owed(simcord_env) -> None:
    """Formula Dé Mini asks gear then move for the same car: one ping for the pair, not two."""
    _, channel, members = world(simcord_env, "ann", "bob")
    ann, bob = members["ann"], members["bob"]
    await ann.slash(channel, "race new", game="formula-de-mini", stage="canyon")
    await bob.slash(channel, "race join", colour="green")
    await ann.slash(channel, "race start")
    seen: list[tuple[int, list[int]]] = []  # each prompt in turn: who owes it, whom it pinged
    for _ in range(30):
        prompt = last_prompt(channel)
        if prompt is None:
            break
        owner = int(MENTION.search(prompt.content).group(1))
        seen.append((owner, pinged(simcord_env, channel, prompt)))
        await play_prompt(prompt, members)
    runs = 0
    for i, (owner, pings) in enumerate(seen):
        first_of_run = i == 0 or seen[i - 1][0] != owner
        runs += first_of_run
        assert pings == ([owner] if first_of_run else []), (i, owner, pings)
    assert runs < len(seen)  # the race did ask someone twice in a row


async def test_asked_twice_in_a_row_the_second_prompt_says_what_changed(tmp_path: Path) -> None:
    transcript = await run_demo(tmp_path, game="leader1", players=3, seed=7)
    messages = [m for m in transcript if not m.startswith("✔")]  # answered prompts, edited in place
    repeats = [(a, b) for a, b in pairwise(messages) if a == b and "<@" in a]
    assert not repeats, repeats[:2]
    assert any("already gone: yellow" in m for m in messages)  # the case did come up


async def test_a_long_answer_is_split_never_cut(simcord_env, monkeypatch: pytest.MonkeyPatch) -> None:
    from bot.service.model import Outcome

    _, channel, members = world(simcord_env, "alice", "bob")
    await start_two_player_race(channel, members["alice"], members["bob"])
    lines = [f"line {n}: " + "x" * 40 for n in range(120)]  # about 6,000 characters

    async def status(channel_id: int) -> Outcome:
        return Outcome("\n".join(lines))

    monkeypatch.setattr(simcord_env.bot.service.reading, "status", status)
    result = await members["alice"].slash(channel, "race status")
    parts = [result.response, *result.followups]
    assert len(parts) >= 3 and all(p.ephemeral and len(p.content) <= 2000 for p in parts)
    assert "\n".join(p.content for p in parts) == "\n".join(lines)  # every line, in order
