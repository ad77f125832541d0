"""The game contract's proof: a game registered from the tests alone (tests/support/toy_game/: its rules,
painters, data and scenarios, as docs/adding-a-game.md lays them out) plays
end to end in Discord — lobby, buttons, a two-step choice, typed play with autocomplete, the
board, export and replay, a two-stage league — with no edit anywhere else."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.cli import main
from renderer import registry as boards
from rules import registry
from rules.pact_ledger import ledger, summary
from rules.pact_play import keeping, marks
from rules.pacts import Pact
from rules.record import load_record, replay, start_state
from tests.support import toy_game
from tests.support.scenario_check import check_scenario, project_games

MENTION = re.compile(r"<@(\d+)>")
DAY = 24 * 3600


@pytest.fixture(autouse=True)
def dash_registered() -> Iterator[None]:
    registry.register(toy_game.GAME)
    boards.register(toy_game.ID, toy_game.paint)
    boards.register_standings(toy_game.ID, toy_game.paint_standings)
    boards.check_games()  # what the program does at start-up: the toy game has every part
    yield
    registry.unregister(toy_game.ID)
    boards.unregister(toy_game.ID)
    boards.unregister_standings(toy_game.ID)


def world(env: Any, *names: str) -> tuple[Any, Any, dict[str, Any]]:
    guild = env.create_guild()
    channel = guild.create_text_channel("dash")
    return guild, channel, {name: guild.add_member(env.create_user(name)) for name in names}


def reply(result: Any) -> Any:
    return result.response or result.followups[0]


def children(message: Any) -> list[Any]:
    return [child for row in message.components for child in getattr(row, "children", [])]


def last_prompt(channel: Any) -> Any:
    return next(
        (m for m in reversed(channel.history()) if m.author.bot and m.components and MENTION.search(m.content)), None
    )


TOY_SCENARIOS = sorted((Path(toy_game.__file__).parent / "scenarios").glob("*.json"))


@pytest.mark.parametrize("path", TOY_SCENARIOS, ids=[p.stem for p in TOY_SCENARIOS])
def test_its_scenarios_replay_through_the_shared_runner(path: Path) -> None:
    check_scenario(path, about=True)


def test_a_package_s_own_game_checks_its_scenarios_with_the_command(capsys: pytest.CaptureFixture[str]) -> None:
    """Not this project's tests: ``domestique check`` (its game registered, as its entry points would)."""
    assert toy_game.ID in registry.game_ids() and toy_game.ID not in project_games()
    assert set(project_games()) >= {"leader1", "hell-of-the-north", "formula-de-mini", "peloton"}
    assert main(["check", str(TOY_SCENARIOS[0].parent)]) == 0
    assert capsys.readouterr().out.endswith(f"{len(TOY_SCENARIOS)} passed, 0 failed\n")


def test_a_game_without_pact_kinds_plays_as_before_beside_an_alliance_s_pacts() -> None:
    """Pacts are optional: the toy game declares none, so an alliance's pacts mark nothing, its AI plays as
    it would, and a ledger of its record is empty."""
    game = registry.find_game(toy_game.ID)
    assert game.pacts.kinds == () and game.pacts.kind("no-chase") is None
    record = load_record(next(p for p in TOY_SCENARIOS if p.stem == "steady-pace-runs-two-squares").read_text())
    pacts = [Pact("no-chase", ("ann", "bob")), Pact("relay", ("ann", "bob"))]
    _game, start = start_state(record)
    choices = game.rules.choices(start, "ann")
    assert marks(game, start, pacts, choices) == [() for _ in choices]
    assert keeping(game, game.ai, pacts)(start, "ann") == game.ai(start, "ann")
    assert ledger(game, start, record.actions, pacts) == ()
    assert summary(game, (), pacts) == []


def test_its_tracks_are_its_own_data_files() -> None:
    assert registry.find_game(toy_game.ID).tracks.names() == ["dash-8", "dash-12"]
    assert len(TOY_SCENARIOS) >= 3


async def test_the_game_is_offered_and_explained_by_the_registry(simcord_env) -> None:
    _, channel, m = world(simcord_env, "ann")
    games = await m["ann"].autocomplete(channel, "race new", "game", "")
    assert toy_game.ID in [c["value"] for c in games]
    stages = await m["ann"].autocomplete(channel, "race new", "stage", "", game=toy_game.ID)
    assert [c["value"] for c in stages] == ["dash-8", "dash-12"]
    helped = await m["ann"].slash(channel, "race help", game=toy_game.ID)
    assert "pick a pace" in reply(helped).content
    refused = await m["ann"].slash(channel, "race new", game=toy_game.ID, stage="dash-99")
    assert refused.ephemeral and "not a dash track" in reply(refused).content


async def test_a_new_game_plays_to_the_finish_in_discord(simcord_env) -> None:
    _, channel, m = world(simcord_env, "ann", "bob")
    ann, bob = m["ann"], m["bob"]
    created = await ann.slash(channel, "race new", game=toy_game.ID, stage="dash-8", pieces=2)
    assert "Dash (test game), 2 runners each" in reply(created).content
    colours = await bob.autocomplete(channel, "race join", "colour", "")
    assert [c["value"] for c in colours] == list(toy_game.COLOURS)
    joined = await bob.slash(channel, "race join", colour="blue")
    assert "joins in blue" in reply(joined).content
    assert "blue: <@" in next(m for m in channel.history() if "lobby (" in m.content).content  # edited in place
    await ann.slash(channel, "race start")
    members = {member.id: member for member in (ann, bob)}
    seen = {"buttons": 0, "two-step": 0, "typed": 0}
    for _ in range(120):
        if any("**Finish**" in msg.content for msg in channel.history()):
            break
        prompt = last_prompt(channel)
        actor = members[int(MENTION.search(prompt.content).group(1))]
        labels = [getattr(c, "label", None) for c in children(prompt)]
        if "Steady (2 squares)" in labels:
            seen["buttons"] += 1
            await actor.click(prompt, label="Steady (2 squares)")
        elif any(label and label.startswith("Move ") for label in labels) and not seen["two-step"]:
            step = await actor.click(prompt, label=next(lb for lb in labels if lb and lb.startswith("Move ")))
            private = step.followups[-1] if step.followups else step.response
            assert private.ephemeral and private.attachments  # the targets on a board, privately
            menu = next(c for row in private.components for c in row["components"] if c["type"] == 3)  # raw
            await actor.select(private, [menu["options"][-1]["value"]], custom_id=menu["custom_id"])
            seen["two-step"] += 1
        else:
            options = await actor.autocomplete(channel, "play move", "choice", "")
            assert options and all("run runner=" in o["value"] for o in options)
            done = await actor.slash(channel, "play move", choice=options[-1]["value"])
            assert reply(done).content.startswith("✔ ")  # the result, in one line
            seen["typed"] += 1
    history = channel.history()
    assert any("**Finish**" in msg.content for msg in history)
    assert all(seen.values()), seen
    assert sum(1 for msg in history if msg.attachments) >= 4  # boards drawn by the game's own painter
    # a prompt after the other player moved starts with the game's own line (Narration.since)
    assert any(re.search(r"Since \w+ last decided: \S+ ran to square \d+", msg.content) for msg in history)
    exported = await ann.slash(channel, "race export")
    data = await reply(exported).attachments[0].read()
    result = replay(load_record(data.decode()))
    assert result.error_at is None and result.state.finished


async def run_until(env: Any, check: Any, limit: int = 40) -> None:
    for _ in range(limit):
        if await check():
            return
        await env.advance_time(DAY / 2)
    raise AssertionError("the league did not get there in time")


async def test_a_two_stage_league_of_the_new_game(simcord_env) -> None:
    _, channel, m = world(simcord_env, "org")
    org = m["org"]
    created = await org.slash(
        channel, "league create", name="Dash Cup", channel=channel, game=toy_game.ID, stages="dash-8,dash-12"
    )
    assert "League **Dash Cup** (Dash (test game)) created: 2 stage(s)" in reply(created).content
    for colour in ("red", "green"):
        await org.slash(channel, "league ai", colour=colour)
    await org.slash(channel, "league close")
    bot = simcord_env.bot

    async def both_finished() -> bool:
        league = (await bot.storage.leagues())[0]
        return [s.status for s in await bot.storage.stages(league.id)] == ["finished", "finished"]

    await run_until(simcord_env, both_finished)
    league = (await bot.storage.leagues())[0]
    stages = await bot.storage.stages(league.id)
    expected: dict[str, int] = {}
    for stage in stages:
        race = await bot.storage.race(stage.race_id)
        final = replay(load_record_of(race)).state
        for rank, runner in enumerate(final.arrivals):
            expected[runner] = expected.get(runner, 0) + (toy_game.POINTS[rank] if rank < 3 else 0)
    gc = {s["piece"]: s["score"] for s in stages[-1].result["gc"]}
    assert gc == expected
    standings = await org.slash(channel, "league standings")
    assert f"{max(expected.values())} points" in reply(standings).content
    assert any("wins the general classification" in msg.content for t in channel.threads for msg in t.history())


def load_record_of(race: Any) -> Any:
    from bot.service.common import record_of

    return record_of(race)
