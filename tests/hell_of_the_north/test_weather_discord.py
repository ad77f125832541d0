"""Hell of the North in Discord: a weather marker stays face down (the channel never names it)
until the first competitor reaches the hexagon before it; then the channel tells it in words,
with what it does, and /race status shows it."""

from __future__ import annotations

from bot.discord_layer.app import DomestiqueBot
from bot.service.common import choice_key
from rules.hell_of_the_north import ai
from rules.hell_of_the_north.engine import legal_actions, pending
from rules.hell_of_the_north.game import choices
from rules.hell_of_the_north.narrate import WEATHER_WORDS
from tests.support.discord_play import member_of, open_race, state_now


def _said(channel) -> str:
    return "\n".join(m.content for m in channel.history() if m.author.bot)


async def _started(env) -> tuple:
    """A Hell of the North race on flanders (one weather marker), Alice and Bob, started."""
    channel, members = await open_race(env, "hell-of-the-north", "flanders", 3, "white")
    await members["alice"].slash(channel, "race start")
    bot: DomestiqueBot = env.bot
    return channel, members, bot, await state_now(bot, channel)


async def test_weather_is_announced_in_words_when_it_turns_up(simcord_env) -> None:
    channel, members, bot, state = await _started(simcord_env)
    ((hexagon, marker),) = state.weather
    assert marker is None  # face down at the start
    alice = members["alice"]
    shown = await alice.slash(channel, "race status")
    assert "face down" in (shown.response or shown.followups[0]).content

    for _ in range(200):
        state = await state_now(bot, channel)
        if dict(state.weather)[hexagon] is not None:
            break
        for words in WEATHER_WORDS.values():  # nothing tells the marker before it turns
            assert words not in _said(channel)
        decision = pending(state)
        assert decision is not None
        actor = member_of(members, decision.player)
        wanted = ai.choose(state, decision.player)
        offered = next(c for c in choices(state, decision.player) if c.action == wanted)
        await actor.slash(channel, "play move", choice=choice_key(offered))
    turned = dict(state.weather)[hexagon]
    assert turned is not None, "the weather never turned up"
    reached = max([state.peloton, *(r.row or 0 for r in state.riders if r.row is not None)])
    assert reached >= hexagon - state.setup.course.hex_rows  # the hexagon before it was reached

    said = _said(channel)
    assert f"weather turned up on row {hexagon}: {WEATHER_WORDS[turned]}" in said
    assert turned not in said or turned in ("rain", "heat")  # players read "headwind 1", not the marker's id
    status = await alice.slash(channel, "race status")
    assert f"row {hexagon}: {WEATHER_WORDS[turned]}" in (status.response or status.followups[0]).content


def test_a_marker_turned_mid_turn_is_told_at_once() -> None:
    """announce: what the channel is told right after a move, before the turn's summary."""
    from rules.events import event
    from rules.hell_of_the_north.game import GAME
    from rules.hell_of_the_north.setup import build

    state = build(
        {
            "track": "hell-of-the-north/flanders",
            "seed": 1,
            "players": [{"id": "a", "team": "black"}, {"id": "b", "team": "white"}],
        }
    )
    told = GAME.narration.announce(state, [event(3, "weather", row=12, marker="headwind-2")])
    assert told == [f"weather turned up on row 12: {WEATHER_WORDS['headwind-2']}"]


async def test_a_rider_turning_a_marker_mid_turn_is_told_before_the_turns_summary(simcord_env) -> None:
    """A breakaway in the first turn reaches the hexagon before the weather: the channel tells the
    marker right after that move, while the turn goes on (no turn summary yet)."""
    channel, members, bot, state = await _started(simcord_env)
    ((hexagon, _),) = state.weather
    before_it = hexagon - state.setup.course.hex_rows  # reaching this row turns the marker
    for _ in range(40):
        decision = pending(state)
        assert decision is not None and dict(state.weather)[hexagon] is None
        legal = legal_actions(state, decision.player)
        if decision.kind == "place":
            wanted = next(c.action for c in legal if c.action.part == "front")
        else:
            far = [c for c in legal if c.option is not None and int(c.option.to.split(".")[0]) >= before_it]
            wanted = far[0].action if far else ai.choose(state, decision.player)
        offered = next(c for c in choices(state, decision.player) if c.action == wanted)
        actor = member_of(members, decision.player)
        seen = len(channel.history())
        turn = state.turn
        await actor.slash(channel, "play move", choice=choice_key(offered))
        state = await state_now(bot, channel)
        turned = dict(state.weather)[hexagon]
        if turned is None:
            continue
        assert state.turn == turn and not state.finished, "the marker should turn in the middle of a turn"
        new = "\n".join(m.content for m in channel.history()[seen:] if m.author.bot)
        assert f"weather turned up on row {hexagon}: {WEATHER_WORDS[turned]}" in new
        assert f"**Turn {turn}**" not in new  # told at once, not in the turn's summary
        return
    raise AssertionError("no breakaway reached the hexagon before the weather")
