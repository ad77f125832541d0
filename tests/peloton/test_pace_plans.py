"""Peloton's dial plan and ride plan in Discord: given with /race order, shown in /race status,
applied exactly as their words say, asked when every ride falls, cancelled by a ride the player
makes otherwise, kept across a restart (docs/pace.md)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.service import lobby
from bot.service.common import choice_key
from rules.peloton.engine import build
from rules.registry import find_game
from tests.support.discord_play import state_now
from tests.support.pace_plans import (
    actions_so_far,
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

GAME = "peloton"
DIAL = "one click a move: +1 +1 +2 +2 then rest; rest too if a click costs extra or leaves under"


def mine(state: Any, member: Any) -> list[str]:
    return [c.id for c in state.cyclists if c.player == f"u{member.id}"]


async def test_a_dial_plan_and_a_ride_plan_ride_a_cyclist_to_the_finish_across_a_restart(simcord_env, db_path) -> None:
    channel, members = await open_two(simcord_env, GAME, None, 1, "blue")
    alice = members["alice"]
    player = f"u{alice.id}"
    while (await pending_now(simcord_env, channel)).player == player:  # given while bob decides
        await answer(simcord_env, channel, members)
    (cyclist,) = mine(await state_now(simcord_env.bot, channel), alice)
    given_at = await actions_so_far(simcord_env, channel)
    told = await give(alice, channel, cyclist, "dial", 3)
    assert DIAL in told and "3 energy" in told
    await give(alice, channel, cyclist, "ride", 1)
    shown = await status(members["bob"], channel)
    assert f"(alice): {DIAL} 3 energy" in shown
    assert (
        "(alice): ride to the furthest hexagon without falling, or behind a cyclist at most 1 hexagons shorter" in shown
    )
    restarted_at = await play_with_a_restart(simcord_env, channel, members, db_path, 10, 400)
    assert any("**Finish**" in m.content for m in channel.history())
    made = await check_plans(simcord_env, channel, player, [(cyclist, "dial", 3), (cyclist, "ride", 1)])
    assert {"dial", "ride"} == {kind for _, kind in made.by_plan}
    assert any(i >= restarted_at for i, _ in made.by_plan)
    # every ride had a safe stop: alice was asked nothing once her plans were given
    assert made.automatic == 0 and all(i < given_at for i, _ in made.asked)


def _walled(envelope: dict[str, Any]) -> dict[str, Any]:
    """The envelope with a ``start``: alice's (the first seat's) first cyclist on the road (lane 1),
    bob's cyclists lying on every hexagon in front of it (they stand up where they lie: the road
    stays closed, and it can only fall where it stands)."""
    state = build(envelope)
    first, second = ([c.id for c in state.cyclists if c.player == p.id] for p in state.setup.players)
    cell = next(c for c in (f"{s}.1" for s in range(20, 40)) if state.course.has(c))
    wall = [to for _, to in state.course.forward(cell)]
    assert len(wall) <= len(second)
    cyclists: dict[str, Any] = {first[0]: {"at": cell, "energy": 20}}
    cyclists.update({cid: {"at": to, "status": "lying"} for cid, to in zip(second, wall, strict=False)})
    return {**envelope, "start": {"round": 3, "cyclists": cyclists}}


@pytest.fixture
def walled_in(monkeypatch: pytest.MonkeyPatch) -> None:
    """Races start from ``_walled``'s position (the bot has no command for a mid-race start): the
    record the lobby builds, and the envelope the start stores with its first commit."""
    from bot.storage.sql import SqlStorage

    parse, append = lobby.parse_record, SqlStorage.append_actions

    async def append_actions(self: Any, *args: Any, envelope: dict[str, Any] | None = None, **kwargs: Any) -> bool:
        return await append(self, *args, envelope=None if envelope is None else _walled(envelope), **kwargs)

    monkeypatch.setattr(lobby, "parse_record", lambda data: parse(_walled(data)))
    monkeypatch.setattr(SqlStorage, "append_actions", append_actions)


async def test_a_ride_plan_asks_when_every_ride_falls_and_a_ride_made_otherwise_cancels_it(
    simcord_env, walled_in
) -> None:
    channel, members = await open_two(simcord_env, GAME, None, 3, "blue")
    alice = members["alice"]
    player = f"u{alice.id}"
    state = await state_now(simcord_env.bot, channel)
    walled = next(c.id for c in state.cyclists if c.player == player and c.cell is not None)
    for cid in mine(state, alice):
        await give(alice, channel, cid, "dial", 0)
        await give(alice, channel, cid, "ride", 0)
    for _ in range(40):  # to the walled cyclist's ride: its plan cannot take the only ride, a fall
        decision = await pending_now(simcord_env, channel)
        if decision.player == player and decision.kind == "ride" and decision.piece == walled:
            break
        await answer(simcord_env, channel, members)
    else:
        raise AssertionError("the walled-in cyclist never rode")
    texts = "\n".join(m.content for m in channel.history())
    name = find_game(GAME).narration.piece_name(state, walled)
    assert f"{name}'s plan does not cover this decision: alice decides." in texts
    await answer(simcord_env, channel, members)  # alice takes the fall herself: the plan goes on
    assert f"{name} (alice): ride to the furthest" in await status(alice, channel)
    ride = kind_of(GAME, "ride")
    cancelled = await alice.slash(channel, "race order", piece=walled, order="cancel")  # undone: asked again
    assert "standing order(s) cancelled" in reply(cancelled).content
    assert f"{name} (alice)" not in await status(alice, channel)
    for _ in range(200):  # to a ride of that cyclist with a choice besides the plan's
        decision = await pending_now(simcord_env, channel)
        if decision.player == player and decision.kind == "ride" and decision.piece == walled:
            now = await state_now(simcord_env.bot, channel)
            choices = [c for c in find_game(GAME).rules.choices(now, player) if not c.anytime]
            planned = ride.decides(now, decision, choices, [(walled, 0)])
            other = next((c for c in choices if planned is not None and c.action != planned.action), None)
            if other is not None:
                break
        await answer(simcord_env, channel, members)
    else:
        raise AssertionError("no ride of that cyclist with a choice besides its plan's")
    await give(alice, channel, walled, "dial", 0)
    await give(alice, channel, walled, "ride", 0)  # while its ride is asked
    assert f"{name} (alice): ride to" in await status(alice, channel)
    done = await alice.slash(channel, "play move", choice=choice_key(other))
    assert "✔" in reply(done).content
    shown = await status(alice, channel)
    assert f"{name} (alice): ride to" not in shown and f"{name} (alice): one click" in shown  # that plan alone ended
