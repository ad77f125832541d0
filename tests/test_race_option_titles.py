"""Race options named as players read them (issue 41): a Hungarian lobby shows each option's
translated name, the host may type it or the id, the record keeps the id and its value, and
/race status shows the race's reading."""

from __future__ import annotations

from typing import Any

from bot.discord_layer.app import DomestiqueBot
from tests.support.languages import locales


def reply(result: Any) -> Any:
    return result.response or result.followups[0]


async def test_a_hungarian_lobby_names_the_options_in_hungarian_and_accepts_the_name(simcord_env, monkeypatch) -> None:
    guild = simcord_env.create_guild("Kerékpár", preferred_locale="hu")
    channel = guild.create_text_channel("verseny")
    anna = guild.add_member(simcord_env.create_user("anna"))
    locales(monkeypatch, {anna.id: "hu"})
    opened = reply(await anna.slash(channel, "race new", game="peloton", stage="leg-bohemia", pieces=1))
    assert "rajtsorrend: drawn" in opened.content and "időjóváírás: " in opened.content
    assert "start_order" not in opened.content and "time_bonuses" not in opened.content
    chosen = reply(await anna.slash(channel, "race option", option="Időjóváírás", value="on"))
    assert "időjóváírás: a célban az első háromnak 10, 6 és 4 mp jóváírás" in chosen.content  # the reading, in words
    by_id = reply(await anna.slash(channel, "race option", option="trial_headwind", value="sheltered"))
    assert "ellenszél időfutamban: időfutamban is, mint szakaszversenyben" in by_id.content  # typed as an id, told in words
    await anna.slash(channel, "race ai")
    await anna.slash(channel, "race start")
    bot: DomestiqueBot = simcord_env.bot
    race_row = await bot.storage.active_race(channel.id)
    assert race_row.envelope["options"] == {"start_order": "drawn", "time_bonuses": "on", "trial_headwind": "sheltered"}
    status = reply(await anna.slash(channel, "race status")).content
    assert "időjóváírás: a célban az első háromnak 10, 6 és 4 mp jóváírás" in status


async def test_formula_de_mini_s_pit_exit_is_chosen_in_the_lobby_and_shown_in_the_status(simcord_env) -> None:
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("race")
    alice = guild.add_member(simcord_env.create_user("alice"))
    opened = reply(await alice.slash(channel, "race new", game="formula-de-mini", pieces=1))
    assert "pit exit: a car leaving its pit stand drives off on its next turn" in opened.content  # the default, in words
    wrong = reply(await alice.slash(channel, "race option", option="pit exit", value="later"))
    assert "pit exit: one of next-turn (a car leaving its pit stand drives off on its next turn)" in wrong.content
    await alice.slash(channel, "race option", option="pit exit", value="at-once")
    await alice.slash(channel, "race ai")
    await alice.slash(channel, "race start")
    bot: DomestiqueBot = simcord_env.bot
    race_row = await bot.storage.active_race(channel.id)
    assert race_row.envelope["options"] == {"pit_exit": "at-once"}
    status = reply(await alice.slash(channel, "race status")).content
    assert "pit exit: a car leaving its pit stand drives off the same turn" in status
