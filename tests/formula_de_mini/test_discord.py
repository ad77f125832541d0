"""Formula Dé Mini in Discord as a new user meets it: the lobby, colours, typed moves, words, leagues."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from bot.discord_layer.app import DomestiqueBot
from bot.leagues.league import LeagueService
from bot.service.common import Refusal, record_of
from bot.service.races import RaceService
from bot.storage.sqlite import SqliteStorage
from rules.formula_de_mini.game import POINTS
from rules.record import load_record, replay
from tests.support.discord_play import answer, components, member_of, open_race, until_the_finish

MENTION = re.compile(r"<@(\d+)>")


def reply(result: Any) -> Any:
    return result.response or result.followups[0]


async def test_a_new_user_opens_joins_and_types_a_formula_de_mini_race(simcord_env) -> None:
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("f1")
    ann, bob = (guild.add_member(simcord_env.create_user(n)) for n in ("ann", "bob"))
    # the README's own command: the game's default of 2 cars each, not Leader 1's 3 riders
    created = await ann.slash(channel, "race new", game="formula-de-mini", stage="canyon")
    assert not created.ephemeral and "2 cars each" in reply(created).content
    lobby = channel.history()[-1]
    labels = [getattr(c, "label", None) for row in lobby.components for c in getattr(row, "children", [])]
    assert "Add AI player" in labels and not any("rider" in (label or "") for label in labels)
    joined = await bob.slash(channel, "race join", colour="green")  # a car colour, not a jersey
    assert "joins in green" in reply(joined).content
    assert "green: <@" in next(m for m in channel.history() if m.id == lobby.id).content  # edited in place
    qualities = await bob.slash(channel, "race option", option="sprinter", value="1")
    assert qualities.ephemeral and "no choices to make before the start" in reply(qualities).content
    await ann.slash(channel, "race start")
    members = {m.id: m for m in (ann, bob)}
    typed = 0
    for _ in range(40):  # typed play for a while: the autocomplete's own values are accepted
        prompt = next(m for m in reversed(channel.history()) if m.components and MENTION.search(m.content))
        actor = members[int(MENTION.search(prompt.content).group(1))]
        pieces = await actor.autocomplete(channel, "play move", "piece", "")
        assert pieces and all(re.fullmatch(r"[a-z]+-[12]", p["value"]) for p in pieces)
        options = await actor.autocomplete(channel, "play move", "choice", "", piece=pieces[0]["value"])
        done = await actor.slash(channel, "play move", piece=pieces[0]["value"], choice=options[0]["value"])
        assert reply(done).content.startswith("✔ bob —") or reply(done).content.startswith("✔ ann —")
        typed += 1
    assert typed == 40
    hand = await ann.slash(channel, "race hand")
    assert "nothing is hidden" in reply(hand).content
    status = await ann.slash(channel, "race status")
    assert "u" + str(ann.id) not in reply(status).content  # players by name, not by internal id


@pytest.fixture
async def services(tmp_path: Path):
    storage = SqliteStorage(str(tmp_path / "league.db"))
    await storage.open()
    clock = [1_767_225_600.0]  # Thursday 1 January 2026
    races = RaceService(storage, now=lambda: clock[0], render=False, seeds=iter(range(1, 10**6)).__next__)
    leagues = LeagueService(races, storage)
    yield leagues, races, clock
    await storage.close()


async def test_a_formula_de_mini_league_scores_its_points_table(services) -> None:
    leagues, races, clock = services
    with pytest.raises(Refusal, match="Unknown league setting"):
        await leagues.create(1, 9, "GP", 50, game="formula-de-mini", stages="canyon", settings="ring=5")
    await leagues.create(1, 9, "GP", 50, game="formula-de-mini", stages="canyon,island", weekday="thu", hour=1)
    for colour in ("red", "blue", "green"):
        await leagues.add_ai(1, None, 9, False, colour)
    await leagues.close(1, None, 9, False)
    channels = iter(range(700, 800))

    async def make_channel(parent: int, name: str) -> int:
        return next(channels)

    for _ in range(2):
        clock[0] += 7 * 24 * 3600
        await leagues.tick(make_channel)
    league = (await leagues.store.leagues())[0]
    stages = await leagues.store.stages(league.id)
    assert [s.status for s in stages] == ["finished", "finished"]
    expected: dict[str, int] = {}
    for stage in stages:
        final = replay(record_of(await races.storage.race(stage.race_id))).state
        for rank, car in enumerate(final.arrivals):
            expected[car] = expected.get(car, 0) + POINTS[rank]
        for car in final.cars:
            expected.setdefault(car.id, 0)
    gc = {s["piece"]: s["score"] for s in stages[-1].result["gc"]}
    assert gc == expected and len(gc) == 6
    assert not any(s["eliminated"] for s in stages[-1].result["gc"])
    standings = await leagues.standings(1, None)
    assert f"{max(expected.values())} points" in standings.reply
    assert standings.image is not None and standings.image.startswith(b"\x89PNG")  # the table painter


async def test_a_formula_de_mini_race_in_discord_to_the_finish(simcord_env) -> None:
    channel, members = await open_race(simcord_env, "formula-de-mini", "canyon", 1, "blue")
    await members["alice"].slash(channel, "race ai")
    await members["alice"].slash(channel, "race start")
    bot: DomestiqueBot = simcord_env.bot
    from rules.formula_de_mini import ai
    from rules.formula_de_mini.engine import pending
    from rules.formula_de_mini.game import choices

    async for prompt, state in until_the_finish(bot, channel, 600):
        decision = pending(state)
        wanted = ai.choose(state, decision.player)
        index = next(i for i, c in enumerate(choices(state, decision.player)) if c.action == wanted)
        assert await answer(member_of(members, decision.player), prompt, index)
    history = channel.history()
    assert any("**Finish**" in m.content for m in history)
    assert sum(1 for m in history if m.attachments) >= 10
    gear_prompts = [m for m in history if "choose a gear" in m.content]
    assert gear_prompts and all(len(components(m)) <= 25 for m in gear_prompts)
    exported = await members["alice"].slash(channel, "race export")
    data = await (exported.response or exported.followups[0]).attachments[0].read()
    result = replay(load_record(data.decode()))
    assert result.error_at is None and result.state.finished
