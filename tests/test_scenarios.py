"""Every scenario record of this project's games (``tests/<game>/scenarios``) replays and meets its
expectations: the rulebooks' worked examples and the rulings that need a whole position to show.

A scenario file is a record (the record format) whose ``expect`` carries ``about``: the rulebook's
words it pins and the ruling it checks (never compared with the output)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.scenario_check import check_scenario, project_games, scenario_folder, scenarios

SCENARIOS = [(game, path) for game in project_games() for path in scenarios(game)]


@pytest.mark.parametrize(("game", "path"), SCENARIOS, ids=[f"{g}/{p.stem}" for g, p in SCENARIOS])
def test_scenario(game: str, path: Path) -> None:
    check_scenario(path, about=True)


@pytest.mark.parametrize("game", project_games())
def test_every_game_has_scenarios(game: str) -> None:
    assert len(scenarios(game)) >= 5, f"{game}: fewer than 5 scenarios in {scenario_folder(game)}"
