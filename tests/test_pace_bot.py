"""Pace in Discord (simcord, a real SQLite file): decisions made ahead, standing orders, time banks, a restart."""

from __future__ import annotations

import random
import re
from typing import Any

from bot.discord_layer.app import DomestiqueBot
from tests.test_bot import last_prompt, world

TIMESTAMP = re.compile(r"<t:(\d+):R>")


def reply(result: Any) -> Any:
    return result.response or result.followups[-1]


async def open_race(channel: Any, members: list[Any], **options: Any) -> None:
    host, *guests = members
    await host.slash(channel, "race new", game="leader1", **options)
    for guest in guests:
        await guest.slash(channel, "race join")
    await host.slash(channel, "race start")


async def state_now(env: Any, channel: Any) -> tuple[Any, Any]:
    bot: DomestiqueBot = env.bot
    race = await bot.storage.active_race(channel.id)
    return race, await bot.service.core.state_of(race)


def member_of(player: str, members: list[Any]) -> Any:
    return next(m for m in members if f"u{m.id}" == player)


async def decide_ahead(member: Any, channel: Any, pick: Any) -> Any:
    """``/race ahead``, then the option of its private menu that ``pick(label)`` accepts."""
    offered = await member.slash(channel, "race ahead")
    message = reply(offered)
    assert offered.ephemeral and "Decide ahead" in message.content
    menu = next(c for row in message.components for c in row["components"] if c["type"] == 3)  # raw
    option = next(o for o in menu["options"] if pick(o["label"]))
    chosen = await member.select(message, [option["value"]], custom_id=menu["custom_id"])
    assert "Decided ahead" in reply(chosen).content
    return option["label"]


def name_of(member: Any, named: dict[str, Any]) -> str:
    return next(n for n, m in named.items() if m is member)


def dms_of(member: Any) -> list[str]:
    return [m.content for m in member.user.dm_channel.history()] if member.user.dm_channel else []


async def test_a_decision_made_ahead_is_applied_and_a_standing_order_passes(simcord_env) -> None:
    _, channel, named = world(simcord_env, "alice", "bob", "carol")
    members = list(named.values())
    await open_race(channel, members, pieces=1)
    race, state = await state_now(simcord_env, channel)
    first, second, third = (member_of(p, members) for p in state.queue)
    refused = await first.slash(channel, "race ahead")
    assert refused.ephemeral and "your decision now" in reply(refused).content
    await decide_ahead(second, channel, lambda label: label.startswith("Drop"))
    await decide_ahead(second, channel, lambda label: label == "Pass")  # changed: the last one counts
    again = reply(await second.slash(channel, "race ahead")).content
    assert "You decided ahead: Pass" in again
    await decide_ahead(third, channel, lambda label: label == "Pass")
    dropped = await third.slash(channel, "race ahead", cancel=True)
    assert "dropped" in reply(dropped).content
    rider = state.rider(next(r.id for r in state.riders if r.player == f"u{third.id}"))
    ordered = await third.slash(channel, "race order", piece=rider.id, order="stay")
    assert ordered.ephemeral and "stay in the peloton" in reply(ordered).content
    status = reply(await first.slash(channel, "race status")).content
    assert "Standing order" in status and "Pass" not in status  # orders are public, premoves are not
    prompt = last_prompt(channel)
    assert str(first.id) in prompt.content
    await first.click(prompt, label="Pass")
    texts = "\n".join(m.content for m in channel.history())
    assert f"{name_of(second, named)} had decided ahead: Pass." in texts
    assert f"{name_of(third, named)}'s standing orders: Pass." in texts
    race, _ = await state_now(simcord_env, channel)
    made = [(a.text, a.user_id, a.automatic) for a in race.actions[:3]]
    assert made == [(f"u{m.id} pass", m.id, False) for m in (first, second, third)]
    # bob and carol were never asked their turn-1 breakaway: the bot went on by itself
    asked = [m.content for m in channel.history() if "break away, drop a rider, or pass (turn 1)" in m.content]
    assert len(asked) == 1 and str(first.id) in asked[0]


async def test_a_decision_made_ahead_that_no_longer_holds_is_dropped_and_its_player_asked(simcord_env) -> None:
    _, channel, named = world(simcord_env, "alice", "bob")
    members = list(named.values())
    await open_race(channel, members, pieces=1)
    race, state = await state_now(simcord_env, channel)
    first, second = (member_of(p, members) for p in state.queue)
    from rules.registry import find_game

    rules = find_game("leader1").rules
    mine = {c.target for c in rules.choices(state, f"u{first.id}") if c.target}
    label = await decide_ahead(second, channel, lambda label: label.split(" ")[0] in mine)
    square = label.split(" ")[0]
    await first.slash(channel, "play move", choice=square)  # alice breaks away to that very square first
    prompt = last_prompt(channel)
    assert str(second.id) in prompt.content  # bob is asked as usual
    told = "\n".join(dms_of(second))
    assert "your decision made ahead" in told and "was dropped" in told
    race, _ = await state_now(simcord_env, channel)
    assert not await simcord_env.bot.storage.premoves(race.id)


async def test_a_manual_decision_for_a_piece_cancels_its_standing_order(simcord_env) -> None:
    _, channel, named = world(simcord_env, "alice", "bob")
    members = list(named.values())
    await open_race(channel, members, pieces=2)
    race, state = await state_now(simcord_env, channel)
    first, second = (member_of(p, members) for p in state.queue)
    offered = reply(await second.slash(channel, "race ahead"))
    labels = [o["label"] for row in offered.components for c in row["components"] for o in c.get("options", [])]
    mine = [r for r in state.riders if r.player == f"u{second.id}"]
    names = [f"{r.id.split('-')[0]} {r.kind}: " for r in mine]  # one menu: each square names its rider
    assert all(any(label.startswith(n) for label in labels) for n in names)
    riders = [r.id for r in state.riders if r.player == f"u{first.id}"]
    await first.slash(channel, "race order", piece=riders[0], order="stay")
    assert "Standing order" in reply(await first.slash(channel, "race status")).content
    # one rider has no order, so the breakaway decision is asked; alice breaks away with the other one
    options = await first.autocomplete(channel, "play move", "choice", "", piece=riders[0])
    breakaway = next(o["value"] for o in options if o["value"].startswith("breakaway"))
    done = await first.slash(channel, "play move", piece=riders[0], choice=breakaway)
    assert "✔" in reply(done).content
    assert "Standing order" not in reply(await first.slash(channel, "race status")).content
    race, _ = await state_now(simcord_env, channel)
    assert not await simcord_env.bot.storage.orders(race.id)


async def test_a_spent_time_bank_hands_the_seat_to_the_ai_and_race_back_returns_it(simcord_env) -> None:
    _, channel, named = world(simcord_env, "alice", "bob")
    members = list(named.values())
    await open_race(channel, members, pieces=1, timer="10h", clock=1)
    prompt = last_prompt(channel)
    stamps = [int(t) for t in TIMESTAMP.findall(prompt.content)]
    assert len(stamps) == 2 and stamps[0] - stamps[1] == 9 * 3600  # 10 hours per decision, 1 hour in the bank
    race, state = await state_now(simcord_env, channel)
    slow = member_of(state.queue[0], members)
    await simcord_env.advance_time(60)
    assert not any("reminder" in m.content for m in channel.history())  # not at once: half way to the clock's end
    await simcord_env.advance_time(1800)
    assert any("reminder" in m.content for m in channel.history())
    await simcord_env.advance_time(1741)
    texts = "\n".join(m.content for m in channel.history())
    assert "clock ran out" in texts and "marked automatic" in texts
    race, _ = await state_now(simcord_env, channel)
    assert f"u{slow.id}" in race.lobby["away"]
    mine = [a for a in race.actions if a.text.startswith(f"u{slow.id} ")]
    assert mine and all(a.automatic for a in mine)
    back = await slow.slash(channel, "race back")
    assert "Welcome back" in reply(back).content
    race, _ = await state_now(simcord_env, channel)
    assert f"u{slow.id}" not in race.lobby["away"]


async def test_decisions_made_ahead_and_clocks_survive_a_restart(simcord_env, db_path) -> None:
    _, channel, named = world(simcord_env, "alice", "bob", "carol")
    members = list(named.values())
    await open_race(channel, members, pieces=1, clock=5)
    _race, state = await state_now(simcord_env, channel)
    first, second, _third = (member_of(p, members) for p in state.queue)
    await decide_ahead(second, channel, lambda label: label == "Pass")
    prompt = last_prompt(channel)
    await simcord_env.advance_time(1800)
    seeds = random.Random(7)
    await simcord_env.restart_bot(DomestiqueBot(db_path, seeds=lambda: seeds.getrandbits(63)))
    await first.click(prompt, label="Pass")  # the old prompt still works; bob's pass follows at once
    texts = "\n".join(m.content for m in channel.history())
    assert "had decided ahead: Pass" in texts
    status = reply(await first.slash(channel, "race status")).content
    # the half hour the first player took was charged to their clock, kept across the restart
    assert f"Clock: {name_of(first, named)} has 4 h 30 min left" in status
    pace = reply(await first.slash(channel, "race pace")).content
    assert f"{name_of(first, named)}: median 30 min, slowest 30 min, 1 decision asked, 0 automatic" in pace


async def test_race_undo_gives_back_the_time_the_undone_decision_took(simcord_env) -> None:
    _, channel, named = world(simcord_env, "alice", "bob")
    members = list(named.values())
    await open_race(channel, members, pieces=1, clock=10)
    _race, state = await state_now(simcord_env, channel)
    first, second = (member_of(p, members) for p in state.queue)
    await simcord_env.advance_time(2 * 3600)
    await first.click(last_prompt(channel), label="Pass")
    status = reply(await first.slash(channel, "race status")).content
    assert f"Clock: {name_of(first, named)} has 8 h 00 min left" in status
    await simcord_env.advance_time(600)
    assert "Undone" in reply(await named["alice"].slash(channel, "race undo")).content
    status = reply(await first.slash(channel, "race status")).content
    assert f"Clock: {name_of(first, named)} has 10 h 00 min left" in status
    assert f"Clock: {name_of(second, named)} has 10 h 00 min left" in status
    await simcord_env.advance_time(1800)  # asked again: the undone player's clock runs from the undo, the other's not
    status = reply(await first.slash(channel, "race status")).content
    assert f"Clock: {name_of(first, named)} has 9 h 30 min left" in status
    assert f"Clock: {name_of(second, named)} has 10 h 00 min left" in status
    pace = reply(await first.slash(channel, "race pace")).content
    assert "Nobody has been asked" in pace  # the undone decision's time is taken back with it


def test_the_ahead_menu_offers_each_choice_as_the_prompts_menu_does() -> None:
    """The same options (label, consequences, ⚠️ when risky), under the ahead menu's own custom id."""
    import discord

    from bot.discord_layer.components import menus
    from bot.discord_layer.pace_components import ahead_view
    from bot.service.model import ChoiceView, Prompt

    choices = tuple(
        ChoiceView(i, f"{10 + i // 3}.{i % 3}", f"cost {i % 4}" if i % 2 else "", "red-1", risky=i % 5 == 0)
        for i in range(30)
    )
    prompt = Prompt(1, 7, "ann", 5, "menu", "red-1", choices)

    def selects(view: discord.ui.View) -> list[discord.ui.Select[Any]]:
        return [i for i in (getattr(c, "item", c) for c in view.children) if isinstance(i, discord.ui.Select)]

    def offered(view: discord.ui.View) -> list[tuple[str, str, str | None, str]]:
        return [(o.label, o.value, o.description, str(o.emoji or "")) for s in selects(view) for o in s.options]

    now, ahead = menus(prompt, 0), ahead_view(prompt)
    assert offered(ahead) == offered(now)
    assert ("10.0", "0", None, "⚠️") in offered(ahead) and ("10.1", "1", "cost 1", "") in offered(ahead)
    assert [s.custom_id for s in selects(ahead)] == ["dq:ah:1:7:0", "dq:ah:1:7:1"]
    assert [s.custom_id for s in selects(now)] == ["dq:s:1:7:0", "dq:s:1:7:1"]
