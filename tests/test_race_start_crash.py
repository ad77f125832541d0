"""A race's start is one transaction with its first commit (the AI seats' moves, the clocks, the first
deadline), and start-up repairs a running race left with no deadline by a crash of an older version."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.discord_layer.app import DomestiqueBot
from bot.service import race_options, seats
from bot.service.races import RaceService
from bot.storage import RaceRow, Storage
from bot.storage.url import storage_for
from rules.record import FORMAT, parse_record, start_state
from rules.registry import find_game

ROOT = Path(__file__).resolve().parent.parent
NOW = 1_000_000.0
GAME = "formula-de-mini"  # its starting order is drawn: a seed lets the AI act first


@pytest.mark.parametrize("how", ["start", "stage"])
async def test_a_process_killed_at_a_start_leaves_a_lobby_or_a_race_with_its_deadline(
    database_url: str, how: str
) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "tests.support.start_kill_worker", database_url, how],
        cwd=ROOT,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == -9, proc.stdout + proc.stderr  # killed at the start's first write
    storage = storage_for(database_url)
    await storage.open()
    try:
        race = await storage.active_race(900 if how == "start" else 901)
        if how == "start":
            assert race is not None
        if race is not None and race.status != "lobby":
            # the start was written: so was its first commit, with the first decision's deadline
            assert race.status == "running" and race.deadline is not None
            assert any(c.asked is not None for c in await storage.clocks(race.id))  # its clock runs from then
    finally:
        await storage.close()


async def _ai_to_act_first(storage: Storage) -> RaceRow:
    """A Formula Dé Mini lobby (channel 900: Ann and an AI) whose race starts with the AI to act."""
    service = RaceService(storage, render=False, now=lambda: NOW)
    game = find_game(GAME)
    for seed in range(1, 60):
        await service.lobby.new_race(1, 900, 101, "Ann", game=GAME, timer=600, seed=seed)
        await service.lobby.add_ai(900, 101)
        race = await storage.active_race(900)
        assert race is not None
        if game.rules.pending(start_state(parse_record({"format": FORMAT, **_envelope(race)}))[1]).player == "ai1":
            return race
        await service.reading.abort(900, 101, can_manage=True)
    raise AssertionError("no seed in 1-59 lets the AI act first")


def _envelope(race: RaceRow) -> dict[str, object]:
    game = find_game(race.game)
    return {
        "game": race.game,
        "options": race_options.record_options(game, race.lobby),
        "track": race.lobby["track"],
        "players": game.record_players(seats.seats_from(race.lobby)),
        "seed": race.lobby["seed"],
    }


async def _started_as_before(storage: Storage) -> RaceRow:
    """What a crash left before the fix: the start written (status, envelope), its first commit not."""
    lobby = await _ai_to_act_first(storage)
    assert await storage.start(lobby.id, lobby.version, _envelope(lobby), None)
    race = await storage.race(lobby.id)
    assert race is not None and race.status == "running" and race.deadline is None and not race.actions
    return race


async def test_start_up_repairs_a_running_race_with_no_deadline(database_url: str) -> None:
    storage = storage_for(database_url)
    await storage.open()
    try:
        race = await _started_as_before(storage)
        service = RaceService(storage, render=False, now=lambda: NOW)  # the next process
        repaired = await service.lobby.repair_starts()
        assert [channel for channel, _ in repaired] == [900]
        posts = repaired[0][1].posts
        assert "starts!" in posts[0].text and "stopped as the race began" in posts[0].text
        assert posts[-1].prompt is not None  # the first prompt, never posted before the crash, is posted now
        after = await storage.race(race.id)
        assert after is not None and after.status == "running"
        assert after.deadline == NOW + 600
        assert after.actions and all(a.automatic and a.user_id is None for a in after.actions)  # the AI moved
        assert find_game(GAME).rules.pending(await service.core.state_of(after)).player == "u101"
        assert await service.lobby.repair_starts() == []  # once repaired, nothing more to do
    finally:
        await storage.close()


async def test_the_bots_first_timer_pass_repairs_unfinished_starts(tmp_path: Path) -> None:
    bot = DomestiqueBot(str(tmp_path / "bot.db"), now=lambda: NOW)
    await bot.storage.open()
    try:
        race = await _started_as_before(bot.storage)
        await bot._timer_pass()  # no channel is known offline: the prompt is built but not posted
        after = await bot.storage.race(race.id)
        assert after is not None and after.deadline == NOW + 600 and after.actions
    finally:
        await bot.storage.close()
        bot.service.core.drawing.close()
