"""Replaying a scenario record (``tests/<game>/scenarios/*.json``) and checking its expectations.

Every registered game of this project has its scenarios found here through the game registry, so a
game added without a scenario folder fails the run instead of being left out of it."""

from __future__ import annotations

import json
from pathlib import Path

import rules
from rules.record import parse_record, scenario_problems
from rules.registry import folder, game_ids

TESTS = Path(__file__).resolve().parents[1]
RULES = Path(rules.__file__).resolve().parent


def project_games() -> list[str]:
    """The registered games whose rules are this project's (``rules/<game>/``), each owing scenarios
    here. A game installed from a package of its own keeps and checks its own (``domestique check``)."""
    return [game for game in game_ids() if (RULES / folder(game)).is_dir()]


def scenario_folder(game_id: str) -> Path:
    """Where a game's scenarios are: ``tests/<game>/scenarios`` (the folder named as its rules package)."""
    return TESTS / folder(game_id) / "scenarios"


def scenarios(game_id: str) -> list[Path]:
    return sorted(scenario_folder(game_id).glob("*.json"))


def check_scenario(path: Path, *, about: bool = False) -> None:
    """The scenario at ``path`` expects something (and, with ``about``, says which rule it pins) and meets it."""
    record = parse_record(json.loads(path.read_text(encoding="utf-8")))
    assert record.expect, f"{path.name} has no expectations: a scenario must assert something"
    if about:
        assert record.expect.get("about"), f"{path.name} does not say which rule it pins"
    found = scenario_problems(record)
    assert not found, "\n".join(found)
