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


def _downhill_at_speed_five(dial: int = 1) -> Any:
    """Picture 14's road downhill (basic speed 4), no. 1 behind the turning on 23.1 with the dial at +1:
    it rides 4 or 5 hexagons (6 with the dial at +2), and five of them end on the turning's inside
    lane, too fast for it."""
    segments = [{**PICTURE_14["segments"][0], "terrain": "down"}, *PICTURE_14["segments"][1:]]
    state = build(
        {
            "track": {**PICTURE_14, "segments": segments},
            "players": [{"id": "ann", "team": "grey", "cyclists": 1}],
            "options": {"wind": 0},
            "start": {"round": 5, "cyclists": {"1": {"at": "23.1", "energy": 20}}},
        }
    )
    chosen = next(o for o in legal_actions(state, "ann") if o.action.get("dial") == dial)
    return apply(state, chosen.action)[0]


def test_a_ride_without_speed_that_falls_is_the_offered_fall_at_the_speed_it_is_judged_at() -> None:
    """docs/actions.md: a ride without speed= is judged at its length, at least the basic speed; one
    that leaves the safe trail so is the menu's fall, and says its speed like the menu's (issue 42)."""
    state = _downhill_at_speed_five()
    offered = next(o.action for o in legal_actions(state, "ann") if o.action.get("speed"))
    assert len(offered.get("via") or ()) + 1 == offered.get("speed") == 5
    unnamed = offered.replace(speed=None)
    after, events = apply(state, unnamed)
    assert (after, events) == apply(state, offered)
    assert next(e.data for e in events if e.type == "ride")["speed"] == 5
    assert any("at speed 5" in line for line in GAME.narration.summary(after, events))


def test_a_fall_the_menu_does_not_offer_is_refused() -> None:
    """Falls are offered once per hexagon, at the lowest speed, and never where a safe ride ends
    (R-PEL-OVERSPEED): the engine takes no other, with a speed or without (issue 42)."""
    state = _at_speed_five()
    offered = {o.action.get("to") for o in legal_actions(state, "ann")}
    assert "36.0" in offered  # a safe ride ends there (via 32.0 and 34.0, at speed 3)
    # at speed 5 the inside lane of the turning is off the trail: this path falls on 36.0
    swerving_in = Action("ann", "ride", cyclist="1", to="36.0", via=("31.1", "32.2", "34.2", "35.1"))
    for action in (swerving_in, swerving_in.replace(speed=5)):
        with pytest.raises(IllegalAction, match=r"may not fall on 36\.0"):
            apply(state, action)
    # riding the menu's fall faster falls on the same hexagon: the menu's speed is the one it is written with
    faster = _downhill_at_speed_five(dial=3)
    fall = next(o.action for o in legal_actions(faster, "ann") if o.action.get("to") == "32.0")
    assert fall.get("speed") == 5
    with pytest.raises(IllegalAction, match=r"falls on 32\.0 at speed 5, not 6"):
        apply(faster, fall.replace(speed=6))


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
