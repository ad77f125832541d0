"""Every scenario record under tests/scenarios replays and meets its expectations.

A scenario file is a record (the record format) whose ``expect`` may carry ``about``: the
rulebook's words it pins and the ruling it checks (never compared with the output).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.scenario_check import check_scenario

ROOT = Path(__file__).parent / "scenarios"
SCENARIOS = sorted([*(ROOT / "leader1").glob("*.json"), *(ROOT / "formula-de-mini").glob("*.json")])


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario(path: Path) -> None:
    check_scenario(path)


def test_there_are_scenarios() -> None:
    assert len(list((ROOT / "leader1").glob("*.json"))) >= 12
    assert len(list((ROOT / "formula-de-mini").glob("*.json"))) >= 5
