"""Alliances the bot understands (issue 37), end to end with simcord: invitations of any size, their
lapse, pacts, the marked choice and its confirm step, the ledger in the allies' thread."""

from __future__ import annotations

import re
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
    answered = next(msg for msg in channel.history() if msg.id == invitation.id)
    assert answered.content.endswith("\nAccepted by green carol.") and buttons(answered) == []  # settled
    await m["alice"].slash(channel, "alliance invite", player=m["dave"])
    to_dave = last_with(channel, f"<@{m['dave'].id}>, yellow")
    stale = await m["carol"].click(to_dave, label="Accept")  # the alliance's buttons, on dave's invitation
    assert stale.ephemeral and "already answered" in reply_text(stale)
    assert buttons(next(msg for msg in channel.history() if msg.id == to_dave.id)) == ["Accept", "Decline"]
    await m["dave"].click(to_dave, label="Decline")
    declined = next(msg for msg in channel.history() if msg.id == to_dave.id)
    assert declined.content.endswith("\nDeclined by white dave.") and buttons(declined) == []
    left = await m["bob"].slash(channel, "alliance leave")
    assert left.ephemeral
    assert (
        "blue (<@" in channel.history()[-1].content
        and "left the alliance Breakaway club" in channel.history()[-1].content
    )
    status = await m["dave"].slash(channel, "race status")
    assert "Alliance: Breakaway club: yellow alice + green carol" in status.response.content


# 47 hours of timer passes take several real seconds on a loaded machine: simcord's budget for an
# advance_time is real time (5 s by default)
@pytest.mark.simcord(settle_timeout=30)
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


async def allied(channel: Any, m: dict[str, Any], *names: str) -> Any:
    """``names`` allied (the first invites the others); the alliance's private thread."""
    first, *others = names
    for other in others:
        await m[first].slash(channel, "alliance invite", player=m[other])
        await m[other].click(last_with(channel, f"<@{m[other].id}>, "), label="Accept")
    return channel.threads[-1]


async def test_a_pact_is_proposed_accepted_by_every_member_and_ended_in_the_thread(simcord_env) -> None:
    guild, m = world(simcord_env, "alice", "bob", "carol", "dave")
    channel = guild.create_text_channel("race")
    await start_race(channel, m)
    thread = await allied(channel, m, "alice", "bob")
    offered = await m["alice"].autocomplete(thread, "alliance pact", "kind", "")
    assert [o["value"] for o in offered] == ["no-chase", "relay"]  # Leader 1's own kinds
    unknown = await m["alice"].slash(thread, "alliance pact", kind="no-block")
    assert unknown.ephemeral and "Leader 1 has no pact “no-block”; its pacts: no-chase, relay" in reply_text(unknown)
    outsider = await m["carol"].slash(channel, "alliance pact", kind="no-chase")
    assert outsider.ephemeral and "no alliance" in reply_text(outsider)
    stranger = await m["alice"].slash(thread, "alliance pact", kind="no-chase", **{"with": m["carol"]})
    assert stranger.ephemeral and "not in this alliance" in reply_text(stranger)
    myself = await m["alice"].slash(thread, "alliance pact", kind="no-chase", **{"with": m["alice"]})
    assert myself.ephemeral and "not with yourself" in reply_text(myself)
    never = await m["alice"].slash(thread, "alliance pact", kind="no-chase", until="someday")
    assert never.ephemeral and "turn 12" in reply_text(never)
    before = len(channel.history())
    proposed = await m["alice"].slash(thread, "alliance pact", kind="no-chase", **{"with": m["bob"]}, until="turn 12")
    assert proposed.ephemeral and "thread" in reply_text(proposed)
    proposal = last_with(thread, "proposes a pact")
    assert "no chase with bob, until turn 12" in proposal.content
    assert len(channel.history()) == before  # a pact is private to its alliance
    twice = await m["alice"].click(proposal, label="Accept")  # the proposer has agreed already
    assert twice.ephemeral and "accepted it already" in reply_text(twice)
    await m["bob"].click(proposal, label="Accept")
    assert thread_texts(channel)[-1] == "Pact made: no chase with bob, until turn 12."
    settled = next(msg for msg in thread.history() if msg.id == proposal.id)
    assert settled.content.endswith("\nAccepted by blue bob.") and buttons(settled) == []  # no stale buttons
    bot: DomestiqueBot = simcord_env.bot
    race = await bot.storage.active_race(channel.id)
    (pact,) = await bot.pacts.in_force(race)
    alice, bob = (f"u{m[name].id}" for name in ("alice", "bob"))  # players as the record names them
    assert (pact.kind, set(pact.members), pact.ally, pact.until.value) == ("no-chase", {alice, bob}, bob, 12)
    ending = await m["bob"].autocomplete(thread, "alliance pact-end", "pact", "")
    assert [o["name"] for o in ending] == ["no chase with bob, until turn 12"]
    ended = await m["bob"].slash(thread, "alliance pact-end", pact=ending[0]["value"])
    assert ended.ephemeral
    assert thread_texts(channel)[-1] == "blue bob ended the pact: no chase with bob, until turn 12."
    assert len(channel.history()) == before
    (pact,) = await bot.pacts.in_force(race)
    assert pact.ended_at is not None
    public = await m["alice"].slash(thread, "alliance pact", kind="relay", public=True)
    assert public.ephemeral
    await m["bob"].click(last_with(thread, "proposes a pact"), label="Accept")
    assert "made a public pact: relay, until the end" in channel.history()[-1].content


def live_prompt(channel: Any) -> Any:
    """The channel's latest decision prompt (a message with choice buttons or menus)."""
    for msg in reversed(channel.history()):
        ids = [c.custom_id or "" for row in msg.components for c in row.children]
        if any(i.startswith(("dq:c:", "dq:s:", "dq:t:")) for i in ids):
            return msg
    raise AssertionError("no prompt in the channel")


def buttons(msg: Any) -> list[str]:
    return [c.label for row in msg.components for c in row.children if c.label]


async def bob_away_with_alice_to_lead(channel: Any, m: dict[str, Any]) -> Any:
    """Two players, one rider each: both pass until turn 3, where Bob breaks away (Alice passes
    first); Alice then holds the peloton token while Bob's rider is away (B.3). Her prompt."""
    for _turn in range(2):  # turns 1 and 2: break away or pass, then the pursuit, all passed
        for _decision in range(3):
            prompt = live_prompt(channel)
            actor = m["alice"] if f"<@{m['alice'].id}>" in prompt.content.splitlines()[-1] else m["bob"]
            await actor.click(prompt, label="Pass")
    await m["alice"].click(live_prompt(channel), label="Pass")
    prompt = live_prompt(channel)
    step = next(c for row in prompt.components for c in row.children if "reak" in (c.label or ""))
    opened = await m["bob"].click(prompt, custom_id=step.custom_id)
    menu = opened.followups[-1]
    select = menu.components[0]["components"][0]
    await m["bob"].select(menu, [select["options"][0]["value"]], custom_id=select["custom_id"])
    return live_prompt(channel)


async def allies_with_no_chase(simcord_env: Any, *, public: bool = False) -> tuple[Any, dict[str, Any], Any]:
    """Alice and Bob, one rider each, allied with a no chase pact (``public`` or private). The race's
    channel, the members and the alliance's thread."""
    guild, m = world(simcord_env, "alice", "bob")
    channel = guild.create_text_channel("race")
    await m["alice"].slash(channel, "race new", game="leader1", pieces=1, timer="60m")
    await m["bob"].slash(channel, "race join", colour="blue")
    await m["alice"].slash(channel, "race start")
    thread = await allied(channel, m, "alice", "bob")
    await m["alice"].slash(thread, "alliance pact", kind="no-chase", public=public)
    await m["bob"].click(last_with(thread, "proposes a pact"), label="Accept")
    return channel, m, thread


async def open_team_league(simcord_env: Any, m: dict[str, Any], guild: Any) -> tuple[Any, Any]:
    """A two-stage Leader 1 league with teams among alice (yellow), bob (blue) and carol (green), closed
    and played on until its first stage opens. The league's channel and a function giving stage N's race."""
    league_channel = guild.create_text_channel("league")
    await m["alice"].slash(
        league_channel,
        "league create",
        name="Spring",
        channel=league_channel,
        game="leader1",
        stages="first-race,first-race",
        weekday="thu",
        hour=1,
        timezone="UTC",
        timer="60m",
        pieces=1,
        teams=True,
    )
    for name, team in (("alice", "yellow"), ("bob", "blue"), ("carol", "green")):
        await m[name].slash(league_channel, "league join", colour=team)
    await m["alice"].slash(league_channel, "league close")
    bot: DomestiqueBot = simcord_env.bot

    async def stage_race(number: int) -> Any:
        league = (await bot.leagues.store.leagues())[0]
        stage = (await bot.leagues.store.stages(league.id))[number - 1]
        return await bot.storage.race(stage.race_id) if stage.race_id else None

    for _ in range(60):
        if await stage_race(1) is not None:
            break
        await simcord_env.advance_time(HOUR)
    return league_channel, stage_race


async def test_a_choice_that_breaks_a_pact_says_so_and_is_asked_again(simcord_env) -> None:
    channel, m, thread = await allies_with_no_chase(simcord_env)
    prompt = await bob_away_with_alice_to_lead(channel, m)
    assert "pursue (+1) or pass" in prompt.content
    assert buttons(prompt) == ["Pursue (+1)", "Pass"]  # a private pact is not told to the channel's buttons
    asked = await m["alice"].click(prompt, label="Pursue (+1)")
    question = asked.followups[-1]
    assert question.flags.ephemeral and question.content == "“Pursue (+1)” breaks no chase with bob. Take it anyway?"
    assert live_prompt(channel).id == prompt.id  # nothing taken yet: the prompt still stands
    bot: DomestiqueBot = simcord_env.bot
    race = await bot.storage.active_race(channel.id)
    before = len(race.actions)
    await m["alice"].click(question, label="Take it anyway")
    race = await bot.storage.active_race(channel.id)
    assert len(race.actions) == before + 1 and "pursue" in race.actions[-1].text  # taken: never refused
    breach = "no chase broken on turn 3: alice pursued while bob's blue rouleur was away (chose “Pursue (+1)”)"
    assert thread_texts(channel)[-1] == breach  # told at once, in one line, to the allies only
    assert not any("no chase" in msg.content for msg in channel.history())
    status = await m["bob"].slash(thread, "alliance status")
    assert status.ephemeral and "no chase, until the end (in force)" in reply_text(status)
    assert "no chase: never kept, broken once — turn 3: alice pursued while bob's blue rouleur was away" in reply_text(
        status
    )
    recap = await m["alice"].slash(channel, "race recap", turns=1)
    assert "The ledger of your pacts:\nno chase: never kept, broken once" in reply_text(recap)  # to her alone
    assert not any("no chase" in msg.content for msg in channel.history())  # a private pact: not in the channel
    import dataclasses

    finished = dataclasses.replace(race, status="finished")  # the finish: the thread gets the ledger
    (told,) = await bot.pacts.after_commit(finished, len(race.actions))
    assert told.channel_id == thread.id
    (post,) = told.outcome.posts
    assert post.text.splitlines() == [
        "The ledger of your pacts:",
        "no chase: never kept, broken once — turn 3: alice pursued while bob's blue rouleur was away",
    ]


async def test_the_ai_deciding_for_an_absent_member_keeps_their_pacts(simcord_env, monkeypatch) -> None:
    from rules.action import Action

    channel, m, _thread = await allies_with_no_chase(simcord_env)
    await bob_away_with_alice_to_lead(channel, m)
    import dataclasses

    import bot.service.store as race_store
    from rules.registry import find_game

    leader1 = find_game("leader1")

    def chaser(state: object, player: str) -> Action:  # an AI that pursues whenever it may
        choices = leader1.rules.choices(state, player)
        return next((c.action for c in choices if c.action.do == "pursue"), choices[0].action)

    chasing = dataclasses.replace(leader1, cautious_ai=chaser)
    monkeypatch.setattr(
        race_store, "find_game", lambda game_id: chasing if game_id == "leader1" else find_game(game_id)
    )
    bot: DomestiqueBot = simcord_env.bot
    before = len((await bot.storage.active_race(channel.id)).actions)
    await simcord_env.advance_time(61 * 60)  # Alice's time runs out: the AI decides for her
    race = await bot.storage.active_race(channel.id)
    taken = race.actions[before]
    assert taken.automatic and taken.text.endswith("pass")  # not the pursuit that breaks no chase with bob


async def test_an_ai_seat_joins_an_alliance_and_agrees_to_its_pacts_at_once(simcord_env) -> None:
    guild, m = world(simcord_env, "alice", "bob")
    channel = guild.create_text_channel("race")
    await m["alice"].slash(channel, "race new", game="leader1", pieces=1, timer="60m")
    await m["bob"].slash(channel, "race join", colour="blue")
    await m["alice"].slash(channel, "race ai", colour="white", ally=True)
    assert any("joins the alliance" in msg.content and "white" in msg.content for msg in channel.history())
    offered = await m["bob"].autocomplete(channel, "alliance invite", "ai", "")
    assert [o["name"] for o in offered] == ["white AI 1"]
    taken = await m["bob"].slash(channel, "alliance invite", ai=offered[0]["value"])  # already alice's ally
    assert taken.ephemeral and "already allied" in reply_text(taken)
    await m["alice"].slash(channel, "race start")
    status = await m["bob"].slash(channel, "race status")
    assert "Alliance: yellow alice + white AI 1" in status.response.content
    (thread,) = channel.threads
    made = await m["alice"].slash(thread, "alliance pact", kind="relay")
    assert made.ephemeral and "Pact made" in reply_text(made)  # the AI agrees at once
    assert thread_texts(channel)[-1] == "Pact made: relay, until the end."


async def test_a_league_alliance_rides_on_into_the_next_stage_with_its_thread(simcord_env) -> None:
    guild, m = world(simcord_env, "alice", "bob", "carol")
    league_channel, stage_race = await open_team_league(simcord_env, m, guild)
    bot: DomestiqueBot = simcord_env.bot
    stage1 = next(t for t in league_channel.threads if "stage 1" in t.name)
    await m["alice"].slash(stage1, "alliance invite", player=m["bob"], name="Tandem")
    await m["bob"].click(last_with(stage1, "proposes an alliance"), label="Accept")
    (alliance_thread,) = [t for t in league_channel.threads if t.name.startswith("Alliance")]
    first = (await bot.storage.alliances((await stage_race(1)).id))[0]
    assert first.thread_id == alliance_thread.id  # beside the stage's thread, in the league's channel
    for _ in range(200):
        if await stage_race(2) is not None:
            break
        await simcord_env.advance_time(HOUR)
    race2 = await stage_race(2)
    (carried,) = await bot.storage.alliances(race2.id)
    members = {p.player for p in await bot.storage.alliance_members(carried.id) if p.status == "member"}
    assert (carried.status, carried.name, carried.thread_id) == ("active", "Tandem", alliance_thread.id)
    assert members == {f"u{m['alice'].id}", f"u{m['bob'].id}"}  # allied again without asking
    stage2 = next(t for t in league_channel.threads if "stage 2" in t.name)
    assert any(
        "Alliances riding on from the last stage: Tandem: yellow alice + blue bob" in t for t in thread_texts_of(stage2)
    )
    standings = await m["carol"].slash(league_channel, "league standings")
    shown = standings.response or standings.followups[0]
    assert "Spring: team classification after stage 1" in shown.content
    assert re.search(r"\n1\. Tandem — \d+ \(last stage: ", shown.content)  # the best two riders' turns behind
    assert sorted(a.filename for a in shown.attachments) == ["board.png", "teams.png"]  # beside the general one
    left = await m["bob"].slash(stage2, "alliance leave")  # left in a stage, announced in its channel
    assert left.ephemeral and "Alliance ended" in thread_texts_of(stage2)[-1]


def thread_texts_of(thread: Any) -> list[str]:
    return [msg.content for msg in thread.history()]


async def test_players_sharing_a_colour_are_an_alliance_from_the_start(simcord_env) -> None:
    guild, m = world(simcord_env, "alice", "bob", "carol", "dave", "erin", "frank")
    channel = guild.create_text_channel("big-race")
    await m["alice"].slash(channel, "race new", game="leader1", pieces=1)
    for name in ("bob", "carol", "dave", "erin"):
        await m[name].slash(channel, "race join")
    await m["frank"].slash(channel, "race join", colour="yellow")
    await m["alice"].slash(channel, "race start")
    (thread,) = channel.threads
    status = await m["bob"].slash(channel, "race status")
    assert "Alliance: yellow: yellow alice + yellow frank" in status.response.content
    mine = await m["frank"].slash(channel, "alliance status")
    assert mine.ephemeral and "Alliance: yellow: yellow alice + yellow frank." in reply_text(mine)
    made = await m["frank"].slash(thread, "alliance pact", kind="relay")  # the team thread is the alliance's
    assert made.ephemeral and "thread" in reply_text(made)
    assert "proposes a pact: relay" in thread_texts_of(thread)[-1]


async def test_a_public_pact_marks_the_choice_on_the_channel_s_button(simcord_env) -> None:
    channel, m, _thread = await allies_with_no_chase(simcord_env, public=True)
    prompt = await bob_away_with_alice_to_lead(channel, m)
    assert buttons(prompt) == ["Pursue (+1) — breaks no chase with bob", "Pass"]  # marked, never hidden
    asked = await m["alice"].click(prompt, label="Pursue (+1) — breaks no chase with bob")
    assert asked.followups[-1].content == "“Pursue (+1)” breaks no chase with bob. Take it anyway?"


async def test_a_founder_leaving_before_an_answer_ends_the_proposal(simcord_env) -> None:
    guild, m = world(simcord_env, "alice", "bob", "carol")
    channel = guild.create_text_channel("race")
    await start_race(channel, m)
    await m["alice"].slash(channel, "alliance invite", player=m["bob"])
    invitation = last_with(channel, "proposes an alliance")
    left = await m["alice"].slash(channel, "alliance leave")
    assert left.ephemeral and "Alliance ended" in channel.history()[-1].content
    late = await m["bob"].click(invitation, label="Accept")
    assert late.ephemeral and "no longer open" in reply_text(late)
    assert channel.threads == []


async def test_a_standing_order_that_would_break_a_pact_is_left_to_the_player(simcord_env) -> None:
    channel, m, _thread = await allies_with_no_chase(simcord_env)
    for _turn in range(2):
        for _decision in range(3):
            prompt = live_prompt(channel)
            actor = m["alice"] if f"<@{m['alice'].id}>" in prompt.content.splitlines()[-1] else m["bob"]
            await actor.click(prompt, label="Pass")
    await m["alice"].click(live_prompt(channel), label="Pass")
    (piece,) = await m["alice"].autocomplete(channel, "race order", "piece", "")
    ordered = await m["alice"].slash(channel, "race order", piece=piece["value"], order="pursue-over", number=0)
    assert ordered.ephemeral
    prompt = live_prompt(channel)
    step = next(c for row in prompt.components for c in row.children if "reak" in (c.label or ""))
    opened = await m["bob"].click(prompt, custom_id=step.custom_id)
    menu = opened.followups[-1]
    select = menu.components[0]["components"][0]
    await m["bob"].select(menu, [select["options"][0]["value"]], custom_id=select["custom_id"])
    # her order would pursue bob's breakaway: not applied, she is asked
    assert any(
        "standing orders (Pursue (+1)) would break a pact: alice decides" in msg.content for msg in channel.history()
    )
    assert "pursue (+1) or pass" in live_prompt(channel).content
    bot: DomestiqueBot = simcord_env.bot
    race = await bot.storage.active_race(channel.id)
    assert "pursue" not in race.actions[-1].text
