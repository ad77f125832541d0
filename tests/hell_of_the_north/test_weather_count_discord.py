"""Hell of the North in Discord: the host chooses how many weather markers lie beside the route
(/race option weather, R-HOTN-WEATHER-COUNT); the lobby shows it, a bad value or a player who is not
the host is refused privately, the record carries it, and the markers stay face down (status and
export tell nothing more than where they lie)."""

from __future__ import annotations

from typing import Any

from bot.discord_layer.app import DomestiqueBot
from rules.hell_of_the_north.weather_setup import legal_hexagons
from tests.support.discord_play import open_race, state_now


def _text(answer: Any) -> Any:
    return answer.response or answer.followups[0]


async def _lobby_with_weather(env: Any, value: str) -> tuple[Any, dict[str, Any]]:
    channel, members = await open_race(env, "hell-of-the-north", "roubaix", 3, "white")
    chosen = _text(await members["alice"].slash(channel, "race option", option="weather", value=value))
    assert f"The host chose weather markers: {value}." in chosen.content
    lobby = next(m for m in channel.history() if "lobby (" in m.content)  # edited in place
    assert f"Race options (host, /race option): weather markers: {value};" in lobby.content  # then the other options
    return channel, members


async def test_a_race_with_no_weather_markers(simcord_env) -> None:
    channel, members = await _lobby_with_weather(simcord_env, "0")
    await members["alice"].slash(channel, "race start")
    bot: DomestiqueBot = simcord_env.bot
    race = await bot.storage.active_race(channel.id)
    assert race.envelope["options"] == {"weather": 0}
    state = await state_now(bot, channel)
    assert state.weather == ()
    status = _text(await members["bob"].slash(channel, "race status")).content
    assert "weather:" not in status and "face down" not in status


async def test_a_race_with_six_weather_markers_keeps_them_face_down(simcord_env) -> None:
    channel, members = await _lobby_with_weather(simcord_env, "6")
    await members["alice"].slash(channel, "race start")
    bot: DomestiqueBot = simcord_env.bot
    race = await bot.storage.active_race(channel.id)
    assert race.envelope["options"] == {"weather": 6}
    state = await state_now(bot, channel)
    rows = [row for row, _ in state.weather]
    assert len(set(rows)) == 6 and set(rows) <= set(legal_hexagons(state.setup.course))
    status = _text(await members["bob"].slash(channel, "race status")).content
    assert status.count("face down") == 6  # where they lie is public, what they are is not
    for row in rows:
        assert f"row {row}: face down" in status
    exported = _text(await members["bob"].slash(channel, "race export"))
    assert exported.ephemeral and not exported.attachments  # the record would tell the markers to come


async def test_a_bad_number_or_a_player_who_is_not_the_host_is_refused_privately(simcord_env) -> None:
    channel, members = await open_race(simcord_env, "hell-of-the-north", "roubaix", 3, "white")
    for value in ("7", "lots"):
        refused = _text(await members["alice"].slash(channel, "race option", option="weather", value=value))
        assert refused.ephemeral and "0 to 6" in refused.content
    not_host = _text(await members["bob"].slash(channel, "race option", option="weather", value="2"))
    assert not_host.ephemeral and "Only the host" in not_host.content
    await members["alice"].slash(channel, "race option", option="weather", value="2")
    back = _text(await members["alice"].slash(channel, "race option", option="weather"))
    assert "weather markers: default" in back.content  # empty: the route's own again
    await members["alice"].slash(channel, "race start")
    bot: DomestiqueBot = simcord_env.bot
    race = await bot.storage.active_race(channel.id)
    assert race.envelope["options"] == {}
    state = await state_now(bot, channel)
    assert [row for row, _ in state.weather] == list(state.setup.course.weather)
    late = _text(await members["alice"].slash(channel, "race option", option="weather", value="3"))
    assert late.ephemeral and "before the start" in late.content


async def test_help_tells_how_to_choose_the_weather(simcord_env) -> None:
    channel, members = await open_race(simcord_env, "hell-of-the-north", "roubaix", 3, "white")
    shown = _text(await members["bob"].slash(channel, "race help")).content
    assert "/race option option:weather" in shown
