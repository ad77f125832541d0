"""Hell of the North's standing orders and decisions made ahead in Discord, as Leader 1 has them:
given with /race order, shown in /race status, applied exactly as their words say (a team step
passed only when every rider it could move has the order), asked when they do not cover a step,
cancelled by a step the player takes themselves, kept across a restart (docs/pace.md)."""

from __future__ import annotations

from tests.support.discord_play import state_now
from tests.support.pace_plans import (
    actions_so_far,
    answer,
    check_plans,
    give,
    open_two,
    pending_now,
    play_with_a_restart,
    reply,
    status,
)

GAME = "hell-of-the-north"


async def test_standing_orders_ride_a_team_through_a_stage_across_a_restart(simcord_env, db_path) -> None:
    channel, members = await open_two(simcord_env, GAME, None, 2, "white")
    alice = members["alice"]
    player = f"u{alice.id}"
    while (await pending_now(simcord_env, channel)).player == player:  # given while bob decides
        await answer(simcord_env, channel, members)
    riders = [r.id for r in (await state_now(simcord_env.bot, channel)).riders if r.player == player]
    given_at = await actions_so_far(simcord_env, channel)
    plans = [
        (r, kind, number)
        for r in riders
        for kind, number in (("start-front", None), ("stay", None), ("hold", None), ("pursue-over", 6))
    ]
    for rider, kind, number in plans:
        await give(alice, channel, rider, kind, number)
    shown = await status(members["bob"], channel)
    assert "(alice): stay in the peloton (no breakaway)" in shown
    assert "(alice): hold its part of the peloton (no move to the front or back, no drop)" in shown
    assert (
        "(alice): speed the peloton up when a rival is more than 6 squares ahead (never while one of yours is away)"
        in shown
    )
    restarted_at = await play_with_a_restart(simcord_env, channel, members, db_path, 10, 400)
    assert any("**Finish**" in m.content for m in channel.history())
    made = await check_plans(simcord_env, channel, player, plans)
    kinds = {kind for _, kind in made.by_plan}
    assert {"breakaway", "position", "pursuit"} <= kinds
    assert any(i >= restarted_at for i, _ in made.by_plan)
    # once every rider had its orders, alice was asked only rides (riders the peloton left behind)
    assert made.automatic == 0 and {kind for i, kind in made.asked if i >= given_at} <= {"ride"}
    assert "alice's standing orders: Pass." in "\n".join(m.content for m in channel.history())


async def test_a_step_the_orders_do_not_cover_is_asked_and_the_players_own_step_cancels_them(simcord_env) -> None:
    channel, members = await open_two(simcord_env, GAME, None, 2, "white")
    alice = members["alice"]
    player = f"u{alice.id}"
    first, second = [r.id for r in (await state_now(simcord_env.bot, channel)).riders if r.player == player]
    await give(alice, channel, first, "stay")
    for _ in range(100):  # to alice's breaking-away step: only one of her front riders has the order
        decision = await pending_now(simcord_env, channel)
        state = await state_now(simcord_env.bot, channel)
        front = [r.id for r in state.riders if r.player == player and r.status == "peloton" and r.part == "front"]
        if decision.player == player and decision.kind == "breakaway" and first in front and second in front:
            break
        if decision.player == player and decision.kind == "place":  # both in the front part
            await alice.slash(
                channel,
                "play move",
                choice=f"place rider={next(r for r in (first, second) if state.rider(r).part is None)} part=front",
            )
            continue
        await answer(simcord_env, channel, members)
    else:
        raise AssertionError("alice never had both riders in the front part at a breaking-away step")
    offered = await alice.autocomplete(channel, "play move", "choice", "", piece=first)
    breakaway = next(o["value"] for o in offered if o["value"].startswith("breakaway"))
    done = await alice.slash(channel, "play move", piece=first, choice=breakaway)  # asked: she breaks away
    assert "✔" in reply(done).content
    assert "stay in the peloton" not in await status(alice, channel)


async def test_a_team_step_decided_ahead_is_applied_when_it_comes(simcord_env) -> None:
    channel, members = await open_two(simcord_env, GAME, None, 2, "white")
    alice = members["alice"]
    player = f"u{alice.id}"
    for _ in range(100):  # to a team step of bob's with alice's to follow
        state = await state_now(simcord_env.bot, channel)
        if state.phase in ("breaking-away", "positioning") and state.queue[1:2] == (player,):
            break
        await answer(simcord_env, channel, members)
    else:
        raise AssertionError("alice never followed bob in a team step")
    offered = await alice.slash(channel, "race ahead")
    message = reply(offered)
    assert offered.ephemeral and "Decide ahead" in message.content
    menu = next(c for row in message.components for c in row["components"] if c["type"] == 3)
    option = next(o for o in menu["options"] if o["label"] == "Pass")
    chosen = await alice.select(message, [option["value"]], custom_id=menu["custom_id"])
    assert "Decided ahead: Pass" in reply(chosen).content
    await answer(simcord_env, channel, members)  # bob's step; alice's follows at once
    assert "alice had decided ahead: Pass." in "\n".join(m.content for m in channel.history())
