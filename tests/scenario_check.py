"""Replaying a scenario record (tests/scenarios/<game>/*.json) and checking its expectations."""

from __future__ import annotations

import json
from pathlib import Path

from rules.record import Record, check_expectations, parse_record, replay


def problems(record: Record) -> list[str]:
    """What the replayed ``record`` does not meet of its ``expect`` (empty: all of it)."""
    result = replay(record)
    return check_expectations(record.expect, result.game.rules.public_view(result.state), result.error_at)


def check_scenario(path: Path, *, about: bool = False) -> None:
    """The scenario at ``path`` expects something (and, with ``about``, says which rule it pins) and meets it."""
    record = parse_record(json.loads(path.read_text()))
    assert record.expect, f"{path.name} has no expectations: a scenario must assert something"
    if about:
        assert record.expect.get("about"), f"{path.name} does not say which rule it pins"
    found = problems(record)
    assert not found, "\n".join(found)
