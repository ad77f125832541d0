"""Hell of the North in Discord with simcord: qualities chosen in the lobby, every decision a
prompt with its legal choices (placing, breakaways, positioning, pursuit, rides), feed tiles
told privately, weather announced; a whole race, and a two-stage league with the GC in turns."""

from __future__ import annotations

import datetime

import discord

from bot.discord_layer.app import DomestiqueBot
from bot.service.core import choice_key, record_of
from rules.hell_of_the_north import ai
from rules.hell_of_the_north.engine import pending
from rules.hell_of_the_north.game import choices
from rules.record import load_record, replay
from tests.test_bot import components, last_prompt, world

DAY = 24 * 3600


async def test_a_hell_of_the_north_race_in_discord_to_the_finish(simcord_env) -> None:
    _, channel, members = world(simcord_env, "alice", "bob")
    alice, bob = members["alice"], members["bob"]
    created = await alice.slash(channel, "race new", game="hell-of-the-north", stage="flanders", pieces=3)
    assert "lobby" in created.response.content
    await bob.slash(channel, "race join", colour="white")
    for option, value in (("attack", "rouleur"), ("sprint", "leader"), ("descent", "climber")):
        chosen = await alice.slash(channel, "race option", option=option, value=value)
        assert chosen.ephemeral
    await alice.slash(channel, "race start")
    bot: DomestiqueBot = simcord_env.bot
    race = await bot.storage.active_race(channel.id)
    state = await bot.service.state_of(race)
    qualities = {r.id: r.quality for r in state.riders}
    assert qualities["black-rouleur"] == "attack" and qualities["black-climber"] == "descent"

    kinds_seen: set[str] = set()
    seen_before, last = -1, None
    for _ in range(900):
        if any("**Finish**" in m.content for m in channel.history()):
            break
        prompt = last_prompt(channel)
        race = await bot.storage.active_race(channel.id)
        state = await bot.service.state_of(race)
        decision = pending(state)
        assert decision is not None and prompt is not None
        kinds_seen.add(decision.kind)
        assert len(state.events) + len(state.dice.history) != seen_before or decision != last, (
            decision,
            prompt.content,
        )
        seen_before, last = len(state.events) + len(state.dice.history), decision
        actor = next(m for m in members.values() if decision.player == f"u{m.id}")
        wanted = ai.choose(state, decision.player)
        offered = choices(state, decision.player)
        index = next(i for i, c in enumerate(offered) if c.action == wanted)
        if offered[index].anytime:  # eating a kept tile is not on the prompt: it is typed
            ate = await actor.slash(channel, "play move", choice=choice_key(offered[index]))
            assert (ate.response or ate.followups[0]).content == "Done."
            continue
        selects = [c for c in components(prompt) if isinstance(c, discord.SelectMenu)]
        menu = next((s for s in selects if str(index) in [o.value for o in s.options]), None)
        if menu is not None:
            await actor.select(prompt, [str(index)], custom_id=menu.custom_id)
            continue
        button = next(
            (
                c
                for c in components(prompt)
                if (getattr(c, "custom_id", "") or "").startswith("dq:c:") and c.custom_id.endswith(f":{index}")
            ),
            None,
        )
        if button is not None:
            await actor.click(prompt, custom_id=button.custom_id)
            continue
        # a two-step prompt: the rider first (its squares come privately, on a board), then typed
        label = f"Break away: {str(wanted.rider).replace('-', ' ')}"
        step = next(c for c in components(prompt) if getattr(c, "label", "") == label)
        reply = await actor.click(prompt, custom_id=step.custom_id)
        private = reply.followups[-1] if reply.followups else reply.response
        assert private.ephemeral and "where to?" in private.content and private.attachments
        played = await actor.slash(channel, "play move", choice=str(wanted.to), piece=str(wanted.rider))
        assert (played.response or played.followups[0]).content.startswith("✔ ")
    history = channel.history()
    assert any("**Finish**" in m.content for m in history)
    assert {"place", "position", "pursuit"} <= kinds_seen
    assert sum(1 for m in history if m.attachments) >= 5
    texts = " ".join(m.content for m in history)
    assert "worth" not in texts  # feed tiles are told privately only
    exported = await alice.slash(channel, "race export")
    data = await (exported.response or exported.followups[0]).attachments[0].read()
    result = replay(load_record(data.decode()))
    assert result.error_at is None and result.state.finished


async def test_a_two_stage_hell_of_the_north_league(simcord_env, db_path) -> None:
    guild = simcord_env.create_guild()
    league_channel = guild.create_text_channel("league")
    m = {name: guild.add_member(simcord_env.create_user(name)) for name in ("alice", "bob")}
    created = await m["alice"].slash(
        league_channel,
        "league create",
        name="Cobbles",
        channel=league_channel,
        game="hell-of-the-north",
        stages="flanders,flanders",
        weekday="thu",
        hour=1,
        timezone="UTC",
        timer="60m",
        pieces=3,
    )
    assert "created" in created.response.content
    await m["alice"].slash(league_channel, "league join", colour="black")
    await m["bob"].slash(league_channel, "league join", colour="white")
    await m["alice"].slash(league_channel, "league ai", colour="green")
    closed = await m["alice"].slash(league_channel, "league close")
    first = datetime.datetime(2026, 1, 1, 1, 0, tzinfo=datetime.UTC)
    assert f"<t:{int(first.timestamp())}:F>" in closed.response.content
    bot: DomestiqueBot = simcord_env.bot

    async def finished(n: int) -> bool:
        league = (await bot.leagues.store.leagues())[0]
        stages = await bot.leagues.store.stages(league.id)
        return stages[n - 1].status == "finished"

    for _ in range(80):
        if await finished(2):
            break
        await simcord_env.advance_time(DAY / 4)
    assert await finished(2)
    league = (await bot.leagues.store.leagues())[0]
    stages = await bot.leagues.store.stages(league.id)
    race1 = await bot.storage.race(stages[0].race_id)
    race2 = await bot.storage.race(stages[1].race_id)
    end1 = replay(record_of(race1)).state
    assert race2.envelope["options"].get("multi_day") is True
    players2 = {p["team"]: p for p in race2.envelope["players"]}
    for rider in end1.riders:
        team = rider.id.split("-")[0]
        if team in players2 and rider.kind in players2[team]["riders"]:
            assert players2[team]["carry"][rider.kind] == min(rider.energy, 15)  # carried, capped at 15
            assert players2[team]["pursuits"] == min(dict(end1.pursuits)[rider.player], 2)
    end2 = replay(record_of(race2)).state
    assert all(n <= 6 for _, n in end2.pursuits)
    # the GC in turns behind, computed by hand: winner -2, second -1, -1 a time bonus
    total: dict[str, int] = {}
    for end in (end1, end2):
        from rules.hell_of_the_north.order import arrival_order

        arrived = arrival_order(end)
        first_turn = arrived[0].arrived_turn
        for rank, r in enumerate(arrived):
            won = (2, 1)[rank] if rank < 2 else 0
            total[r.id] = total.get(r.id, 0) + (r.arrived_turn - first_turn) - won - r.bonuses
    stored = {s["piece"]: s for s in stages[1].result["gc"]}
    for rider, turns in total.items():
        assert stored[rider]["score"] == -turns, rider
    leader = min(total.values())
    assert all(stored[r]["eliminated"] == (t - leader > 22) for r, t in total.items())
    texts = [msg.content for msg in league_channel.threads[-1].history()]
    assert any("general classification after stage 2" in t for t in texts)
