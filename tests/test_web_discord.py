"""Issue 26 in Discord (simcord): with the pages served, the lobby, /race status and the prompts carry
the race page's link, /race web gives it (the host turns it off or renews it), /league standings
carries the league page's, and /league web lets the organiser turn that one off."""

from __future__ import annotations

import re

from bot.web.links import Links
from tests.support.discord_play import last_prompt, play_prompt, two_stage_league, world

BASE = "https://races.example.org"


def _served(bot) -> Links:
    links = Links(bot.storage, BASE)
    bot.service.core.links.links = links  # as if domestique run served the pages (make_bot(web_url=))
    return links


async def test_race_links_in_the_lobby_status_and_prompts_and_race_web(simcord_env) -> None:
    bot = simcord_env.bot
    links = _served(bot)
    _, channel, members = world(simcord_env, "alice", "bob")
    alice, bob = members["alice"], members["bob"]
    created = await alice.slash(channel, "race new", game="leader1", pieces=1, timer="60m")
    page = re.search(rf"Watch on the web: <({BASE}/r/[\w-]+)>", created.response.content).group(1)
    await bob.slash(channel, "race join", colour="blue")
    await alice.slash(channel, "race start")
    race = await bot.storage.active_race(channel.id)
    assert page == await links.race(race.id)
    assert f"Watch on the web: <{page}>" in (await bob.slash(channel, "race status")).response.content
    for _ in range(6):
        await play_prompt(last_prompt(channel), members)
    assert any(f"Catch up since your last decision: <{page}?since=" in m.content for m in channel.history())
    shown = await bob.slash(channel, "race web")
    assert f"<{page}>" in shown.response.content
    refused = await bob.slash(channel, "race web", action="off")
    assert refused.ephemeral and "Only the race's host" in refused.response.content
    renewed = await alice.slash(channel, "race web", action="new")
    assert renewed.ephemeral and "old one no longer works" in renewed.response.content
    assert page not in renewed.response.content and await links.race(race.id) in renewed.response.content
    off = await alice.slash(channel, "race web", action="off")
    assert "no longer works" in off.response.content and await links.race(race.id) is None
    assert "Watch on the web" not in (await bob.slash(channel, "race status")).response.content


async def test_league_standings_link_the_league_page_and_the_organiser_turns_it_off(simcord_env) -> None:
    bot = simcord_env.bot
    links = _served(bot)
    league_channel, _, _, _ = await two_stage_league(
        simcord_env,
        name="Spring",
        game="leader1",
        stages="random-10,random-10",
        colours=("yellow", "blue", "green"),
        days=30,
    )
    league = (await bot.storage.leagues())[0]
    carol = league_channel.guild.add_member(simcord_env.create_user("carol"))
    page = await links.league(league.id)
    standings = await carol.slash(league_channel, "league standings")
    assert f"Every stage on the web: <{page}>" in standings.response.content
    assert f"<{page}>" in (await carol.slash(league_channel, "league web")).response.content
    refused = await carol.slash(league_channel, "league web", action="off")
    assert "Only the league's organiser" in refused.response.content
    token = page.rsplit("/", 1)[-1]
    assert await bot.storage.web_page(token) == ("league", league.id)
    off = await bot.leagues.web(league.guild_id, None, league.organiser_id, "off", False)
    assert "no longer works" in off.reply
    assert await bot.storage.web_page(token) is None and await links.league(league.id) is None
    assert "on the web" not in (await carol.slash(league_channel, "league standings")).response.content
