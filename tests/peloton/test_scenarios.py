"""Every Peloton scenario record (tests/peloton/scenarios) replays and meets its expectations:
the book's worked examples and the rulings that need a whole position to show."""

from __future__ import annotations

import json

from rules.record import parse_record, scenario_problems
from tests.support.scenario_check import scenario_folder, scenarios

ROOT = scenario_folder("peloton")
SCENARIOS = scenarios("peloton")


def test_the_three_timing_examples_are_there() -> None:
    names = {p.stem for p in SCENARIOS}
    assert {
        "timing-relative-example-winner-minus-0-35",
        "itt-timing-example-35-46-2",
        "ttt-timing-example-117-30-6",
    } <= names


def test_a_changed_expectation_fails() -> None:
    """The scenarios can fail: the ITT example with another card's t is not 35:46.2."""
    data = json.loads((ROOT / "itt-timing-example-35-46-2.json").read_text())
    data["start"]["cyclists"]["1"]["card"] = 3  # t +9.3
    record = parse_record(data)
    assert record.expect is not None
    assert scenario_problems(record)
