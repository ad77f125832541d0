"""Replaying a scenario record (``tests/<game>/scenarios/*.json``) and checking its expectations.

Every registered game's scenarios are found here through the game registry, so a game added
without a scenario folder fails the run instead of being left out of it."""

from __future__ import annotations

import json
from pathlib import Path

from rules.record import Record, check_expectations, parse_record, replay
from rules.registry import folder

TESTS = Path(__file__).resolve().parents[1]


def scenario_folder(game_id: str) -> Path:
    """Where a game's scenarios are: ``tests/<game>/scenarios`` (the folder named as its rules package)."""
    return TESTS / folder(game_id) / "scenarios"


def scenarios(game_id: str) -> list[Path]:
    return sorted(scenario_folder(game_id).glob("*.json"))


def problems(record: Record) -> list[str]:
    """What the replayed ``record`` does not meet of its ``expect`` (empty: all of it)."""
    result = replay(record)
    return check_expectations(record.expect, result.game.rules.public_view(result.state), result.error_at)


def check_scenario(path: Path, *, about: bool = False) -> None:
    """The scenario at ``path`` expects something (and, with ``about``, says which rule it pins) and meets it."""
    record = parse_record(json.loads(path.read_text(encoding="utf-8")))
    assert record.expect, f"{path.name} has no expectations: a scenario must assert something"
    if about:
        assert record.expect.get("about"), f"{path.name} does not say which rule it pins"
    found = problems(record)
    assert not found, "\n".join(found)
