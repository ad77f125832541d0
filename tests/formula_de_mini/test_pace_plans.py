"""A Formula Dé Mini driving plan in Discord: a gear plan and a driving plan given with /race order,
shown in /race status, applied exactly as their words say, asked when the roll leaves no move they
cover, cancelled by a decision the player makes themselves, kept across a restart (docs/pace.md)."""

from __future__ import annotations

from bot.service.common import choice_key
from rules.registry import find_game
from tests.support.discord_play import state_now
from tests.support.pace_plans import (
    answer,
    check_plans,
    give,
    kind_of,
    open_two,
    pending_now,
    play_with_a_restart,
    reply,
    status,
)

GAME = "formula-de-mini"


async def test_a_driving_plan_is_shown_applied_asks_what_it_cannot_decide_and_survives_a_restart(
    simcord_env, db_path
) -> None:
    channel, members = await open_two(simcord_env, GAME, "canyon", 1, "blue")
    alice = members["alice"]
    player = f"u{alice.id}"
    car = next(c.id for c in (await state_now(simcord_env.bot, channel)).cars if c.player == player)
    name = find_game(GAME).narration.piece_name(None, car)
    while (await pending_now(simcord_env, channel)).player == player:  # given while bob decides
        await answer(simcord_env, channel, members)
    told = await give(alice, channel, car, "shift", 1)
    assert told.startswith(
        f"Standing order for {name}: the highest gear whose every roll has a clean end braking at most 1 LP"
    )
    told = await give(alice, channel, car, "drive", 0)
    assert "You are asked what it does not cover; deciding otherwise for red car 1 cancels it" in told
    shown = await status(members["bob"], channel)
    assert (
        f"Standing order: {name} (alice): each roll: the furthest end with no overshoot, block or collision check, "
        "braking at most 0 LP" in shown
    )
    restarted_at = await play_with_a_restart(simcord_env, channel, members, db_path, 12, 80)
    made = await check_plans(simcord_env, channel, player, [(car, "shift", 1), (car, "drive", 0)])
    kinds = {kind for _, kind in made.by_plan}
    assert {"gear", "move"} <= kinds  # the plans drove
    assert any(i >= restarted_at for i, _ in made.by_plan)  # and went on after the restart
    assert (
        "move" in {kind for _, kind in made.asked} and made.automatic == 0
    )  # rolls that need braking were hers to answer
    texts = "\n".join(m.content for m in channel.history())
    assert f"{name}'s plan does not cover this decision: alice decides." in texts
    assert "alice's standing orders:" in texts
    race = await simcord_env.bot.storage.latest_race(channel.id)
    kept = {(o.piece, o.kind, o.number) for o in await simcord_env.bot.storage.orders(race.id)}
    assert (car, "drive", 0) in kept  # answering what it left kept the plan, to the finish


async def test_a_decision_the_plan_would_have_made_cancels_it_and_order_cancel_undoes_one(simcord_env) -> None:
    channel, members = await open_two(simcord_env, GAME, "canyon", 1, "blue")
    alice = members["alice"]
    player = f"u{alice.id}"
    game = find_game(GAME)
    car = next(c.id for c in (await state_now(simcord_env.bot, channel)).cars if c.player == player)
    drive = kind_of(GAME, "drive")
    for _ in range(60):  # to a roll of alice's that the plan would drive
        decision = await pending_now(simcord_env, channel)
        if decision.player == player and decision.kind == "move":
            state = await state_now(simcord_env.bot, channel)
            choices = [c for c in game.rules.choices(state, player) if not c.anytime]
            planned = drive.decides(state, decision, choices, [(car, 20)])
            if planned is not None:
                break
        await answer(simcord_env, channel, members)
    else:
        raise AssertionError("alice never rolled a move her plan could drive")
    await give(alice, channel, car, "drive", 20)
    assert "braking at most 20 LP" in await status(alice, channel)
    mine = next(c for c in choices if c.action != planned.action) if len(choices) > 1 else planned
    done = await alice.slash(channel, "play move", choice=choice_key(mine))
    assert "✔" in reply(done).content
    assert "braking at most 20 LP" not in await status(alice, channel)  # her own move ended the plan
    await give(alice, channel, car, "shift", 1)
    assert "the highest gear" in await status(alice, channel)
    cancelled = await alice.slash(channel, "race order", piece=car, order="cancel")
    assert cancelled.ephemeral and "1 standing order(s) cancelled" in reply(cancelled).content
    assert "the highest gear" not in await status(alice, channel)


async def test_when_the_clock_runs_out_the_plans_go_on_and_the_ai_makes_only_what_they_leave(simcord_env) -> None:
    channel, members = await open_two(simcord_env, GAME, "canyon", 1, "blue", timer="10h", clock=1)
    alice = members["alice"]
    player = f"u{alice.id}"
    while (await pending_now(simcord_env, channel)).player == player:
        await answer(simcord_env, channel, members)
    car = next(c.id for c in (await state_now(simcord_env.bot, channel)).cars if c.player == player)
    await give(alice, channel, car, "shift", 1)
    await give(alice, channel, car, "drive", 0)
    ran_out = False
    for _ in range(200):
        decision = await pending_now(simcord_env, channel)
        if decision is None:
            break
        if decision.player == player and not ran_out:  # alice is asked what her plan leaves: she is away
            await simcord_env.advance_time(3601)
            ran_out = True
            continue
        if await answer(simcord_env, channel, members) is None:
            break
    texts = "\n".join(m.content for m in channel.history())
    assert ran_out and "alice's clock ran out" in texts
    made = await check_plans(simcord_env, channel, player, [(car, "shift", 1), (car, "drive", 0)])
    assert made.automatic > 1  # the AI took the move she left, and others after
    assert not made.planned_automatic  # never one her plans make: those stay hers, marked as hers
    race = await simcord_env.bot.storage.latest_race(channel.id)
    away_from = next(i for i, a in enumerate(race.actions) if a.automatic and a.text.startswith(player))
    assert any(i > away_from for i, _ in made.by_plan)
