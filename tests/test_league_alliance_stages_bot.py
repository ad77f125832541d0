"""A league alliance between stages (issue 37): a member leaves it after a stage's finish (the league's
channel is told, the finished stage keeps its team, the next stage carries over the others), and its
pacts made "until stage N" ride on into the next stage while those "until the end" end with the race;
each member's pacts kept and broken in the standings' text, image and web page.
simcord, both databases."""

from __future__ import annotations

import io
from typing import Any

import pytest
from PIL import Image

from bot.discord_layer.app import DomestiqueBot
from tests.support.web_race import web_client
from tests.test_alliances_bot import HOUR, last_with, open_team_league, reply_text, thread_texts_of, world


@pytest.fixture
def db_path(database_url: str) -> str:
    return database_url


async def test_a_member_leaves_between_stages_and_pacts_until_a_stage_ride_on(simcord_env) -> None:
    guild, m = world(simcord_env, "alice", "bob", "carol")
    league_channel, stage_race = await open_team_league(simcord_env, m, guild)
    bot: DomestiqueBot = simcord_env.bot
    stage1 = next(t for t in league_channel.threads if "stage 1" in t.name)
    for other in ("bob", "carol"):
        await m["alice"].slash(stage1, "alliance invite", player=m[other])
        await m[other].click(last_with(stage1, f"<@{m[other].id}>, "), label="Accept")
    (thread,) = [t for t in league_channel.threads if t.name.startswith("Alliance")]  # beside the stage's
    votes = await m["alice"].slash(stage1, "alliance votes", decide="majority")
    assert votes.ephemeral and "In a league its organiser decides" in reply_text(votes)
    for kind, until in (("relay", "stage 2"), ("no-chase", "end")):
        await m["alice"].slash(thread, "alliance pact", kind=kind, until=until)
        for name in ("bob", "carol"):
            await m[name].click(last_with(thread, f"proposes a pact: {kind.replace('-', ' ')}"), label="Accept")
    for _ in range(200):
        if (await stage_race(1)).status == "finished":
            break
        await simcord_env.advance_time(HOUR)
    assert await stage_race(2) is None  # between the stages
    await pacts_in_the_standings(simcord_env, m, league_channel)
    left = await m["carol"].slash(league_channel, "alliance leave")
    assert left.ephemeral and reply_text(left) == "Left."
    told = (
        "green carol left the alliance yellow alice + blue bob + green carol: the next stage carries over the others."
    )
    assert league_channel.history()[-1].content == told
    assert thread_texts_of(thread)[-1] == told
    again = await m["carol"].slash(league_channel, "alliance leave")
    assert again.ephemeral and "no alliance in this league" in reply_text(again)
    first = (await bot.storage.alliances((await stage_race(1)).id))[0]
    members = {p.player for p in await bot.storage.alliance_members(first.id) if p.status in ("member", "parted")}
    assert len(members) == 3  # the finished stage's team stands as it raced
    for _ in range(200):
        if await stage_race(2) is not None:
            break
        await simcord_env.advance_time(HOUR)
    race2 = await stage_race(2)
    (carried,) = await bot.storage.alliances(race2.id)
    members = {p.player for p in await bot.storage.alliance_members(carried.id) if p.status == "member"}
    alice, bob = f"u{m['alice'].id}", f"u{m['bob'].id}"
    assert members == {alice, bob} and carried.thread_id == thread.id  # carol is not carried over
    (pact,) = await bot.pacts.in_force(race2)  # relay until stage 2 rides on; no chase ended with stage 1
    assert (pact.kind, set(pact.members), pact.until.value, pact.made_at) == ("relay", {alice, bob}, 2, 0)
    stage2 = next(t for t in league_channel.threads if "stage 2" in t.name)
    riding = [t for t in thread_texts_of(stage2) if "riding on" in t]
    assert riding == ["Alliances riding on from the last stage: yellow alice + blue bob."]  # private pacts untold
    left = await m["bob"].slash(league_channel, "alliance leave")  # typed in the league's channel, in a stage
    assert left.ephemeral and reply_text(left) == "Left."
    assert thread_texts_of(stage2)[-1].startswith("Alliance ended: ")  # announced in the stage's channel
    assert not any(t.startswith("Alliance ended") for t in thread_texts_of(league_channel))


async def pacts_in_the_standings(simcord_env: Any, m: dict[str, Any], league_channel: Any) -> None:
    """After stage 1, each member's pacts kept and broken (the ledger of the stage, computed from its record)
    are in /league standings' text and image, and on the league's web page."""
    bot: DomestiqueBot = simcord_env.bot
    (league,) = await bot.leagues.store.leagues()
    stage = (await bot.leagues.store.stages(league.id))[0]
    tally = await bot.pacts.tally(await bot.storage.race(stage.race_id))
    assert tally  # the AI kept the members' pacts where a decision put them to the test
    standings = await m["carol"].slash(league_channel, "league standings")
    shown = standings.response or standings.followups[0]
    lines = shown.content.splitlines()
    columns = {}
    for name in ("alice", "bob", "carol"):
        kept, broken = tally.get(f"u{m[name].id}", (0, 0))
        columns[name] = f"pacts kept {kept}, broken {broken}"
        assert any(f"({name})" in line and line.endswith(columns[name]) for line in lines), shown.content
    board = next(a for a in shown.attachments if a.filename == "board.png")
    with_column = Image.open(io.BytesIO(await board.read()))
    after, gc = await bot.leagues._gc(league)
    names = {member.player: member.name for member in await bot.storage.members(league.id)}
    plain = Image.open(io.BytesIO(bot.leagues._standings_image(league, gc, after, names)))
    assert with_column.height > plain.height + 3 * 40  # the pacts' table under the classification
    token = await bot.storage.web_token("league", league.id)
    async with web_client(bot.storage) as client:
        page = await (await client.get(f"/l/{token}")).text()
    assert all(column in page for column in columns.values())
