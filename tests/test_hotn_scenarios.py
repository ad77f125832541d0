"""Every Hell of the North scenario record (the book's worked examples and rules) replays and
meets its expectations; ``expect.about`` quotes the rule it pins."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rules.record import check_expectations, parse_record, replay

ROOT = Path(__file__).parent / "scenarios" / "hell-of-the-north"
SCENARIOS = sorted(ROOT.glob("*.json"))


@pytest.mark.parametrize("path", SCENARIOS, ids=[p.stem for p in SCENARIOS])
def test_scenario(path: Path) -> None:
    record = parse_record(json.loads(path.read_text()))
    assert record.expect, f"{path.name} has no expectations: a scenario must assert something"
    assert record.expect.get("about"), f"{path.name} does not say which rule it pins"
    result = replay(record)
    problems = check_expectations(record.expect, result.game.rules.public_view(result.state), result.error_at)
    assert not problems, "\n".join(problems)


def test_every_worked_example_of_the_book_has_a_scenario() -> None:
    names = {p.stem for p in SCENARIOS}
    for figure in ("fig13", "fig15", "fig16", "fig17c", "fig18", "fig21", "fig22"):
        assert any(figure in n for n in names), f"no scenario for Figure {figure[3:]}"
    for example in ("crack-doubles", "crack-needs-10", "fall-example"):
        assert any(example in n for n in names), example
