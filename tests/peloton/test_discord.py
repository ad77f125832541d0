"""A whole Peloton race in Discord (simcord): lobby, dial buttons, end-hexagon menus, board images, export."""

from __future__ import annotations

import re

import discord

from bot.discord_layer.app import DomestiqueBot
from rules.peloton.game import GAME
from rules.record import load_record, replay, start_state
from tests.support.discord_play import answer, components, member_of, open_race, two_stage_league, until_the_finish

OFFERED: dict[int, list[str]] = {}  # the menu options of each prompt as it was offered
STEPPED: list[str] = []  # the private second steps of two-step prompts


async def _play(simcord_env, stage: str, pieces: int) -> list:
    OFFERED.clear()  # message ids start again in every simcord environment
    STEPPED.clear()
    channel, members = await open_race(simcord_env, "peloton", stage, pieces, "red")
    await members["alice"].slash(channel, "race ai")
    await members["alice"].slash(channel, "race start")
    bot: DomestiqueBot = simcord_env.bot
    async for prompt, state in until_the_finish(bot, channel, 1500):
        decision = GAME.rules.pending(state)
        actor = member_of(members, decision.player)
        wanted = GAME.ai(state, decision.player)
        offered = GAME.rules.choices(state, decision.player)
        index = next(i for i, c in enumerate(offered) if c.action == wanted)
        selects = [c for c in components(prompt) if isinstance(c, discord.SelectMenu)]
        OFFERED.setdefault(prompt.id, [o.label for s in selects for o in s.options])  # before it is answered
        if await answer(actor, prompt, index):
            continue
        if offered[index].step is not None:
            # a team time trial: the cyclist first (its dial positions come privately), then the dial
            step = next(c for c in components(prompt) if getattr(c, "label", "") == offered[index].step_label)
            reply = await actor.click(prompt, custom_id=step.custom_id)
            private = reply.followups[-1] if reply.followups else reply.response
            assert private.ephemeral and private.content.startswith(offered[index].step_label)
            STEPPED.append(private.content)
            mine = [c for c in offered if c.step == offered[index].step]
            inner = [c for row in private.components for c in row["components"] if c["type"] == 3]
            options = [o for menu in inner for o in menu["options"]]
            assert [o["label"] for o in options] == [c.label for c in mine]  # every dial position of that cyclist
            menu = next(m for m in inner if str(index) in [o["value"] for o in m["options"]])
            await actor.select(private, [str(index)], custom_id=menu["custom_id"])
            continue
        # a paged menu: turn the page until the choice shows
        page = next(c for c in components(prompt) if "next" in (getattr(c, "label", "") or "").lower())
        await actor.click(prompt, custom_id=page.custom_id)
    history = channel.history()
    assert any("**Finish**" in m.content for m in history)
    exported = await members["alice"].slash(channel, "race export")
    data = await (exported.response or exported.followups[0]).attachments[0].read()
    result = replay(load_record(data.decode()))
    assert result.error_at is None and result.state.phase == "finished"
    return history


async def test_a_peloton_leg_race_in_discord_to_the_finish(simcord_env) -> None:
    history = await _play(simcord_env, "random-25", 1)
    assert sum(1 for m in history if m.attachments) >= 5
    dial_prompts = [m for m in history if "set the dial" in m.content]
    assert dial_prompts
    # answered prompts are retired: the dial button's label (with its energy cost) shows as the choice made
    assert any("✔" in m.content and "energy" in m.content.split("✔", 1)[1] for m in dial_prompts)
    assert any("rides" in m.content and "choose where it stops" in m.content for m in history)


async def test_a_peloton_time_trial_with_its_card_draft_in_discord(simcord_env) -> None:
    """The cards are drafted on the lobby message (the latest one, from /race ai), then the race is played."""
    history = await _play(simcord_env, "itt-25", 1)
    lobbies = [m for m in history if "— lobby (Peloton" in m.content or "— Peloton, the draft" in m.content]
    draft = lobbies[-1]
    assert "— Peloton, the draft" in draft.content and "The draft is over" in draft.content
    assert not draft.components  # its menu is gone once every cyclist has a card
    assert len(OFFERED[draft.id]) == 13  # the first pick offered every card, none dropped
    assert not any("choose a time-trial card" in m.content for m in history if m.components)  # no other menu
    picks = [i for i, m in enumerate(history) if "takes card" in m.content]
    first_board = next(i for i, m in enumerate(history) if m.attachments)
    assert picks and first_board >= picks[-1]  # the first board once the draft is over


async def test_a_peloton_team_time_trial_in_discord(simcord_env) -> None:
    """The team moves its cyclists in the order its player picks: a two-step prompt (cyclist, then dial)."""
    history = await _play(simcord_env, "random-ttt-20", 3)
    assert any("move your team" in m.content for m in history)
    assert STEPPED  # the player picked which cyclist moves, then its dial
    finish = next(m.content for m in history if "**Finish**" in m.content)
    assert "team " in finish  # the team's time (its second cyclist plus the cards)
    race_over = [m for m in history if m.attachments]
    assert race_over


async def test_a_two_stage_peloton_league_adds_times_and_carries_energy(simcord_env, db_path) -> None:
    from bot.service.common import record_of
    from rules.peloton import timing
    from rules.peloton.standings import classifications

    league_channel, stages, race1, race2 = await two_stage_league(
        simcord_env,
        name="Tour",
        game="peloton",
        stages="random-25,random-30",
        colours=("grey", "red", "blue"),
        days=30,
    )
    end1, end2 = replay(record_of(race1)).state, replay(record_of(race2)).state
    assert end1.phase == end2.phase == "finished"
    # a leg of a stage race may borrow down to -5; what is left, -5 to +5, starts the next leg
    assert race2.envelope["options"].get("borrow") is True
    players2 = {p["team"]: p for p in race2.envelope["players"]}
    for c in end1.cyclists:
        slot = str(int(c.id) - 3 * ("grey", "red", "blue").index(c.team))
        carried = players2[c.team].get("carry", {}).get(slot, 0)
        assert carried == max(-5, min(5, c.energy)), c.id
        assert end2.cyclist(c.id).energy <= 20 + carried  # the second leg started from 20 + carry
    assert any(p.get("carry") for p in players2.values())  # some energy was carried (saved or borrowed)
    # the second leg starts by the overall classification after the first, the leader in front (R-PEL-START-ORDER)
    assert race2.envelope["options"]["start_order"] == "standings"
    place = {
        str(3 * ("grey", "red", "blue").index(t) + int(k)): v
        for t, p in players2.items()
        for k, v in p["places"].items()
    }
    assert sorted(place.values()) == list(range(1, 10))
    assert [c.id for c in start_state(record_of(race2))[1].cyclists] == sorted(place, key=place.__getitem__)
    # the general classification, by hand: group times, points and mountains added up
    stored = {s["piece"]: s for s in stages[1].result["gc"]}
    for c in end1.cyclists:
        time = sum(timing.leg_total(end, end.cyclist(c.id)) or 0 for end in (end1, end2))
        points = sum(classifications(end)["points"].get(c.id, 0) for end in (end1, end2))
        assert stored[c.id]["resources"]["time"] == time, c.id
        assert stored[c.id]["resources"]["points"] == points, c.id
    leader = min(stored.values(), key=lambda s: (s["resources"]["time"], int(s["piece"])))
    assert stages[1].result["gc"][0]["piece"] == leader["piece"]
    texts = [msg.content for t in league_channel.threads for msg in t.history()] + [
        msg.content for msg in league_channel.history()
    ]
    assert any("general classification after stage 2" in t for t in texts)
    assert any("yellow jersey: No." in t for t in texts)
    spectator = league_channel.guild.add_member(simcord_env.create_user("carol"))
    standings = await spectator.slash(league_channel, "league standings")
    table = (standings.response or standings.followups[0]).content
    assert "general classification after stage 2" in table
    assert re.search(r"^1\. No\. \d+ \(", table, re.M)  # cyclists by number, as players know them
    assert not re.search(r"\btime \d{3,}", table)  # no raw seconds after the formatted time
