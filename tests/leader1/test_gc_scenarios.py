"""General-classification scenarios (rulebook D): standings before, one stage's lines, expectations."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rules.leader1.stage import StageLine, Standing, general_classification, moves_to_elimination

SCENARIOS = sorted((Path(__file__).parent / "gc_scenarios").glob("*.json"))


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_gc_scenario(path: Path) -> None:
    data = json.loads(path.read_text())
    ring = data["ring"]
    before = tuple(Standing(s["rider"], s["player"], s["position"], s["energy"]) for s in data["before"])
    winner_turn = min(line["arrived_turn"] for line in data["stage"])
    stage = tuple(
        StageLine(
            line["rider"],
            line["player"],
            line["arrived_turn"],
            line["arrived_turn"] - winner_turn,
            line["won"],
            line["bonuses"],
            line["energy"],
            False,
        )
        for line in data["stage"]
    )
    gc = general_classification(before, stage, ring)
    expect = data["expect"]
    assert [s.rider for s in gc] == expect["order"]
    assert [s.rider for s in gc if s.eliminated] == expect["eliminated"]
    leader = gc[0].position
    for rider, gap in expect.get("behind", {}).items():
        assert leader - next(s for s in gc if s.rider == rider).position == gap
    for rider, moves in expect.get("to_elimination", {}).items():
        assert moves_to_elimination(gc, rider, ring) == moves
