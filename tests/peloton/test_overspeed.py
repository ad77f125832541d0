"""R-PEL-OVERSPEED, IV.2: "Exceeding the safe speed causes the cyclist to fall on the hexagon where
he did not keep to the safe trail." Riding into a turning too fast is a move the player may choose
(it falls), not a refusal; the menu says it falls, and the AI prices the fall."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from rules.action import Action
from rules.errors import IllegalAction
from rules.peloton import ai
from rules.peloton.engine import Option, Ride, apply, build, legal_actions
from rules.peloton.game import GAME, choices
from rules.peloton.model import LYING
from tests.support.discord_play import answer, components, last_prompt, member_of, open_race, state_now

# picture 14's road: 3 lanes, a left turning of 3 hexagons (strips 32-37) after 8 hexagons; its
# inside lane 0 is trail 4. No. 1 stands on the inside line at 30.0.
PICTURE_14 = {
    "name": "picture 14",
    "discipline": "leg",
    "width": 3,
    "segments": [{"hexagons": 8}, {"turn": "left", "hexagons": 3}, {"hexagons": 12}],
}


def _at_speed_five() -> Any:
    state = build(
        {
            "track": PICTURE_14,
            "players": [{"id": "ann", "team": "grey", "cyclists": 1}],
            "options": {"wind": 0},
            "start": {"round": 5, "cyclists": {"1": {"at": "30.0", "energy": 20}}},
        }
    )
    dial = next(o for o in legal_actions(state, "ann") if o.action.get("dial") == 3)  # the abrupt +2: speed 5
    return apply(state, dial.action)[0]


def _falls(options: list[Option]) -> dict[str, Option]:
    return {o.ride.to: o for o in options if o.ride is not None and o.ride.speed}


def test_riding_too_fast_into_a_turning_is_offered_and_falls_where_it_leaves_the_trail() -> None:
    state = _at_speed_five()
    options = legal_actions(state, "ann")
    falls = _falls(options)
    assert "32.0" in falls, "straight on along the inside lane at speed 5 must be a choice"
    assert falls["32.0"].ride == Ride("32.0", (), "turning", 5)
    assert falls["32.0"].action == Action("ann", "ride", cyclist="1", to="32.0", speed=5)
    # safe rides come first and keep their places; a fall is never offered where a safe ride ends
    safe = [o.ride.to for o in options if o.ride is not None and not o.ride.fell]
    assert safe and options[: len(safe)] == [o for o in options if o.ride is not None and not o.ride.fell]
    assert not set(safe) & set(falls)
    # the menu says it falls, and the choice is risky
    menu = {c.action: c for c in choices(state, "ann")}
    choice = menu[falls["32.0"].action]
    assert choice.risky and "FALLS" in choice.label and "too fast for the turning" in choice.detail
    after, events = apply(state, falls["32.0"].action)
    assert after.cyclist("1").cell == "32.0" and after.cyclist("1").dial == 0
    assert [e.data for e in events if e.type == "fell"] == [{"cyclist": "1", "at": "32.0", "reason": "turning"}]


def test_a_speed_is_only_for_a_ride_that_falls_and_within_the_cyclist_s_speeds() -> None:
    state = _at_speed_five()
    safe = Action("ann", "ride", cyclist="1", to="39.1", via=("31.1", "33.1", "35.1", "37.1"), speed=5)
    with pytest.raises(IllegalAction, match="keeps to a safe trail"):
        apply(state, safe)
    with pytest.raises(IllegalAction, match="rides 3 to 5 hexagons"):
        apply(state, Action("ann", "ride", cyclist="1", to="32.0", speed=6))
    # a path that goes on past the hexagon where it falls is still refused: it ends there
    with pytest.raises(IllegalAction, match=r"falls at 32\.0"):
        apply(state, Action("ann", "ride", cyclist="1", to="34.0", via=("32.0",), speed=5))
    # without speed= a short path onto the fall hexagon is not a fall (judged at its own length)
    with pytest.raises(IllegalAction, match="at least its basic speed"):
        apply(state, Action("ann", "ride", cyclist="1", to="32.0"))


def test_the_ai_keeps_to_a_safe_trail_and_prices_a_fall() -> None:
    state = _at_speed_five()
    assert _falls(legal_actions(state, "ann"))
    chosen = ai.choose(state, "ann")
    assert not chosen.get("speed")
    assert chosen == ai.choose(state, "ann")  # deterministic
    # the price: a fall on the far side of the finish line costs nothing more and wins over a safe
    # ride short of it; short of the line it costs two moves and loses
    finish = state.course.finish
    safe = Option(Action("ann", "ride", cyclist="1", to=f"{finish}.0"), ride=Ride(f"{finish}.0", ()))
    over = Option(
        Action("ann", "ride", cyclist="1", to=f"{finish + 1}.1", speed=5),
        ride=Ride(f"{finish + 1}.1", (), "turning", 5),
    )
    short = Option(
        Action("ann", "ride", cyclist="1", to=f"{finish - 1}.1", speed=5),
        ride=Ride(f"{finish - 1}.1", (), "turning", 5),
    )
    assert ai._ride_score(state, over) > ai._ride_score(state, safe) > ai._ride_score(state, short)


async def test_the_fall_is_on_the_prompt_and_in_play_move(simcord_env) -> None:
    """In Discord: the prompt's menu shows the fall as a choice that says it falls, /play move lists
    it as you type, and picking it there makes the cyclist fall."""
    channel, members = await open_race(simcord_env, "peloton", "leg-bohemia", 1, "red")
    await members["alice"].slash(channel, "race start")
    bot = simcord_env.bot
    for _ in range(200):
        state = await state_now(bot, channel)
        decision = GAME.rules.pending(state)
        assert decision is not None
        offered = GAME.rules.choices(state, decision.player)
        falls = [i for i, c in enumerate(offered) if c.action.get("speed")]
        if falls:
            break
        wanted = GAME.ai(state, decision.player)
        actor = member_of(members, decision.player)
        assert await answer(actor, last_prompt(channel), next(i for i, c in enumerate(offered) if c.action == wanted))
    else:
        pytest.fail("no ride into a turning too fast was offered in 200 decisions")
    fall = offered[falls[0]]
    prompt = last_prompt(channel)
    options = [o for c in components(prompt) if isinstance(c, discord.SelectMenu) for o in c.options]
    shown = [o for o in options if o.value == str(falls[0])]
    if shown:  # on the first page of the menu
        assert "FALLS" in shown[0].label and "too fast for the turning" in (shown[0].description or "")
    actor = member_of(members, decision.player)
    listed = await actor.autocomplete(channel, "play move", "choice", fall.label[:20])
    assert any("FALLS" in o["name"] for o in listed), listed
    pick = next(o for o in listed if "FALLS" in o["name"] and fall.target in o["name"])
    await actor.slash(channel, "play move", choice=pick["value"])
    after = await state_now(bot, channel)
    cyclist = after.cyclist(str(fall.action.get("cyclist")))
    assert cyclist.cell == fall.target and cyclist.status in (LYING, "standing")
    assert any("falls there: too fast for the turning" in m.content for m in channel.history() if "✔" in m.content)
