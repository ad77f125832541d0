"""Race options for rulings players may want either way (issue 41) in Discord: the host picks one in
the lobby by its id or by its name in the reader's language, the lobby and /race status show names
and values in words (never the record's ids in Hungarian or Czech), and the record keeps the id."""

from __future__ import annotations

from typing import Any

from bot.discord_layer.app import DomestiqueBot
from tests.support.discord_play import open_race
from tests.support.languages import locales

LEADER1_USUAL = (
    "dropping on purpose: pays with the peloton; boxed in: stands still; bonus the peloton crosses: nobody gets it"
)


def _text(answer: Any) -> Any:
    return answer.response or answer.followups[0]


def _lobby(channel: Any) -> str:
    return str(next(m for m in channel.history() if "lobby (" in m.content or "lobbi" in m.content).content)


async def test_a_leader1_lobby_shows_each_option_in_words_and_the_record_and_status_keep_the_choice(
    simcord_env,
) -> None:
    channel, members = await open_race(simcord_env, "leader1", "first-race", 3, "blue")
    assert f"Race options (host, /race option): {LEADER1_USUAL}." in _lobby(channel)
    chosen = _text(await members["alice"].slash(channel, "race option", option="drop", value="leaves"))
    assert "The host chose dropping on purpose: leaves before the move." in chosen.content
    through = _text(await members["alice"].slash(channel, "race option", option="boxed in", value="Rides through"))
    assert "The host chose boxed in: rides through." in through.content  # the words are accepted too
    bad = _text(await members["alice"].slash(channel, "race option", option="peloton_bonus", value="half"))
    assert bad.ephemeral
    assert "bonus the peloton crosses: one of nobody gets it, to the peloton's first rider." in bad.content
    await members["alice"].slash(channel, "race start")
    bot: DomestiqueBot = simcord_env.bot
    race = await bot.storage.active_race(channel.id)
    assert race.envelope["options"] == {"drop": "leaves", "boxed_in": "rides-through"}
    state = await bot.service.core.state_of(race)
    assert (state.setup.options.drop, state.setup.options.boxed_in) == ("leaves", "rides-through")
    status = _text(await members["bob"].slash(channel, "race status")).content
    assert (
        "Race options: dropping on purpose: leaves before the move; boxed in: rides through; "
        "bonus the peloton crosses: nobody gets it." in status
    )


async def test_a_hungarian_host_names_a_hell_of_the_north_option_and_its_value_in_hungarian(
    simcord_env, monkeypatch
) -> None:
    guild = simcord_env.create_guild("Kerékpár", preferred_locale="hu")
    channel = guild.create_text_channel("verseny")
    anna = guild.add_member(simcord_env.create_user("anna"))
    petr = guild.add_member(simcord_env.create_user("petr"))
    locales(monkeypatch, {anna.id: "hu", petr.id: "cs"})
    await anna.slash(channel, "race new", game="hell-of-the-north", pieces=3)
    await petr.slash(channel, "race join")
    lobby = _lobby(channel)
    assert "felforduló időjárás: a következő lépéstől" in lobby
    assert "weather_reveal" not in lobby and "peloton_bonus" not in lobby and "next-move" not in lobby
    picked = await anna.slash(channel, "race option", option="felforduló időjárás", value="azonnal, lépés közben")
    chosen = _text(picked)
    assert "felforduló időjárás: azonnal, lépés közben" in chosen.content and "at-once" not in chosen.content
    refused = _text(await anna.slash(channel, "race option", option="peloton_bonus", value="fél"))
    assert refused.ephemeral
    assert "a mezőny időjóváírása: ezek egyike: senki sem kapja meg, a mezőny első versenyzőjéé." in refused.content
    await anna.slash(channel, "race start")
    bot: DomestiqueBot = simcord_env.bot
    race = await bot.storage.active_race(channel.id)
    assert race.envelope["options"] == {"weather_reveal": "at-once"}
    status = _text(await petr.slash(channel, "race status")).content  # petr reads Czech
    assert "Volby závodu: žetony počasí: " in status and "odkryté počasí: hned, uprostřed tahu" in status
    assert "weather_reveal" not in status and "at-once" not in status
